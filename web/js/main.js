// The playground page: the editor, the forms, the two workers (one checks as the user
// types, one searches), share links. Bundled by web/build.sh with esbuild.
import { EditorView, basicSetup } from "codemirror";
import { keymap } from "@codemirror/view";
import { StreamLanguage, HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { setDiagnostics, lintGutter } from "@codemirror/lint";
import { tags } from "@lezer/highlight";
import examples from "../target/examples.json";

const $ = (id) => document.getElementById(id);

// ---- The language: keywords, comments, strings, numbers (grammar/dlx.pest). ----
const KEYWORDS = new Set([
  "param", "let", "fn", "item", "secondary", "option", "covers", "paint", "canvas", "force",
  "for", "in", "where", "if", "then", "else", "and", "or", "not", "minimize", "maximize",
  "cost", "count", "symmetry", "assert", "colored",
]);
// Block strings (""" ... """) span lines: the state says whether a line starts in one.
const dlx = StreamLanguage.define({
  name: "dlx",
  startState: () => ({ block: false }),
  copyState: (s) => ({ block: s.block }),
  token(stream, state) {
    if (state.block) {
      while (!stream.eol()) {
        if (stream.match('"""')) { state.block = false; return "string"; }
        stream.next();
      }
      return "string";
    }
    if (stream.eatSpace()) return null;
    if (stream.match("#")) { stream.skipToEnd(); return "comment"; }
    if (stream.match('"""')) {
      state.block = true;
      return "string";
    }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return "string";
    if (stream.match(/^\d+/)) return "number";
    if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*/)) {
      const w = stream.current();
      if (w === "true" || w === "false") return "atom";
      return KEYWORDS.has(w) ? "keyword" : "variableName";
    }
    stream.next();
    return "operator";
  },
  languageData: { commentTokens: { line: "#" } },
});
const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: "#708", fontWeight: "600" },
  { tag: tags.comment, color: "#776", fontStyle: "italic" },
  { tag: tags.string, color: "#a11" },
  { tag: tags.number, color: "#164" },
  { tag: tags.atom, color: "#219" },
  { tag: tags.operator, color: "#555" },
]);

// ---- Share links: #code=BASE64URL&p=NAME=VALUE&run=count|solve|all ----
function encode(text) {
  let bin = "";
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function decode(b64) {
  let t = b64.replace(/-/g, "+").replace(/_/g, "/");
  while (t.length % 4) t += "=";
  return new TextDecoder().decode(Uint8Array.from(atob(t), (c) => c.charCodeAt(0)));
}
function readHash() {
  const out = { code: null, params: [], run: null };
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    const k = part.indexOf("=");
    if (k < 0) continue;
    const key = part.slice(0, k), value = part.slice(k + 1);
    if (key === "code") {
      try { out.code = decode(value); } catch { out.code = null; }
    } else if (key === "p") {
      const v = decodeURIComponent(value);
      const eq = v.indexOf("=");
      if (eq > 0) out.params.push([v.slice(0, eq), v.slice(eq + 1)]);
    } else if (key === "run") {
      out.run = value;
    }
  }
  return out;
}

// ---- The workers ----
// The module is fetched and compiled once, here, and handed to each worker: the
// checker, the runner, and the fresh runner after each Stop.
const WORKER = new URL("worker.js", import.meta.url);
const WASM = new URL("dlxc_web_bg.wasm", import.meta.url);
// A server that does not say application/wasm refuses streaming: compile the bytes.
const compiled = WebAssembly.compileStreaming(fetch(WASM))
  .catch(() => fetch(WASM).then((r) => r.arrayBuffer()).then((b) => WebAssembly.compile(b)));
function newWorker() {
  const w = new Worker(WORKER, { type: "module" });
  compiled.then(
    (module) => w.postMessage({ op: "init", module }),
    (err) => w.postMessage({ op: "init", error: String(err) }),
  );
  return w;
}
let checker = newWorker();
let runner = newWorker();
let nextId = 1;

// ---- The editor ----
let checkTimer = null;
let lastChecked = -1;
const view = new EditorView({
  parent: $("editor"),
  extensions: [
    basicSetup,
    dlx,
    syntaxHighlighting(highlight),
    lintGutter(),
    keymap.of([{ key: "Mod-Enter", run: () => { start("first"); return true; } }]),
    EditorView.updateListener.of((u) => {
      if (u.docChanged) scheduleCheck();
    }),
  ],
});
const text = () => view.state.doc.toString();
function setText(t) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: t } });
}

function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(() => {
    lastChecked = nextId++;
    checker.postMessage({ id: lastChecked, op: "check", text: text() });
  }, 200);
}

// The places of diagnostics, marked in the editor.
function mark(marks) {
  const len = view.state.doc.length;
  const diags = [];
  for (const m of marks || []) {
    if (m.from === undefined) continue;
    const from = Math.min(m.from, len);
    const to = Math.min(Math.max(m.to, from), len);
    diags.push({
      from, to,
      severity: m.severity === "error" ? "error" : "warning",
      message: `${m.code ? m.code + ": " : ""}${m.message}${m.label ? " (" + m.label + ")" : ""}`,
    });
  }
  view.dispatch(setDiagnostics(view.state, diags));
}

// ---- Params ----
const typed = new Map(); // name -> value the user typed (kept across re-checks)
let declared = [];
function showParams(params) {
  const same = params.length === declared.length &&
    params.every((p, i) => p.name === declared[i].name && p.default === declared[i].default &&
      p.type === declared[i].type);
  if (same) return;
  declared = params;
  const form = $("params");
  form.replaceChildren();
  for (const p of params) {
    const label = document.createElement("label");
    label.htmlFor = "param-" + p.name;
    label.textContent = p.name + (p.type ? ": " + p.type : "");
    const multi = (p.default || "").includes("\n");
    const input = document.createElement(multi ? "textarea" : "input");
    input.id = "param-" + p.name;
    input.name = p.name;
    input.placeholder = p.default ?? "(required)";
    if (multi) input.rows = Math.min(10, p.default.split("\n").length);
    input.value = typed.get(p.name) ?? "";
    input.addEventListener("input", () => typed.set(p.name, input.value));
    form.append(label, input);
  }
}
// The `-p` settings of a run: the fields filled, and before the first check has made
// the form (a share link's run), the link's params.
function settings() {
  const names = declared.length ? declared.map((p) => p.name) : [...typed.keys()];
  const out = [];
  for (const name of names) {
    const v = typed.get(name);
    if (v !== undefined && v.trim() !== "") out.push(`${name}=${v.trim()}`);
  }
  return out;
}

function checked(e) {
  const m = e.data;
  if (m.type === "version") $("version").textContent = "dlxc " + m.v;
  if (m.type !== "checked" || m.id !== lastChecked) return;
  const r = m.r;
  const d = $("diagnostics");
  if (r.errors === 0 && r.warnings === 0) {
    d.textContent = "no errors";
    d.className = "ok";
  } else {
    d.textContent = r.rendered;
    d.className = r.errors ? "errors" : "warnings";
  }
  d.dataset.errors = r.errors;
  mark(r.marks);
  if (r.params) showParams(r.params);
}
function onChecked(e) {
  if (e.data.type === "failed") {
    // The module trapped (a bug in dlxc): a fresh checker for the next keystroke.
    $("diagnostics").textContent = "the check failed: " + e.data.error;
    checker.terminate();
    checker = newWorker();
    checker.onmessage = onChecked;
    return;
  }
  checked(e);
}
checker.onmessage = onChecked;
checker.postMessage({ id: 0, op: "version" });

// ---- Runs ----
let current = null; // { id, mode, t0 }
let ticker = null;
let progress = null;

function setRunning(on) {
  for (const b of ["run", "count", "all"]) $(b).disabled = on;
  $("stop").disabled = !on;
}
const fmt = (n) => Number(n).toLocaleString("en-US");
function showProgress() {
  if (!current) return;
  const s = ((performance.now() - current.t0) / 1000).toFixed(1);
  const p = progress;
  const bits = [`running ${current.mode}: ${s} s`];
  if (p) {
    bits.push(`${fmt(p.solutions)} solutions`, `${fmt(p.nodes)} nodes`);
    if (p.explored > 0 && p.explored < 1) {
      bits.push(p.explored < 0.001 ? "<0.1% explored" : `${(p.explored * 100).toFixed(1)}% explored`);
    }
  }
  const st = $("status");
  st.textContent = bits.join(" · ");
  st.className = "running";
  st.dataset.state = "running";
}

function start(mode) {
  if (current) stop();
  const id = nextId++;
  current = { id, mode, t0: performance.now() };
  progress = null;
  setRunning(true);
  $("output").textContent = "";
  $("messages").textContent = "";
  $("picture").replaceChildren();
  showProgress();
  ticker = setInterval(showProgress, 100);
  runner.postMessage({
    id, op: "run", text: text(), params: settings(), data: $("data").value, mode,
    limit: Math.max(0, parseInt($("limit").value, 10) || 0), lattice: $("lattice").value,
  });
}

function finish(r) {
  const ms = performance.now() - current.t0;
  clearInterval(ticker);
  const mode = current.mode;
  current = null;
  setRunning(false);
  $("output").textContent = r.output;
  $("messages").textContent = r.messages;
  const pic = $("picture");
  pic.replaceChildren();
  for (const svg of r.svgs || []) {
    const div = document.createElement("div");
    div.innerHTML = svg;
    pic.append(div);
  }
  if (r.marks && r.status === "error") mark(r.marks);
  const st = $("status");
  st.dataset.state = "done";
  st.dataset.status = r.status;
  st.dataset.ms = ms.toFixed(1);
  st.className = r.status === "error" ? "error" : "";
  if (r.status === "error") {
    st.textContent = "error: see below";
    return;
  }
  const what = { solved: "solved", none: "no solution", cut: "cut short" }[r.status] || r.status;
  // `N+`: the search stopped at the limit (or the first solution) with more left.
  const n = String(r.count).replace(/\d+/, (d) => fmt(d));
  st.textContent = `${what} (${mode}): ${n} solution${/^1\+?$/.test(r.count) ? "" : "s"} · ` +
    `${fmt(r.nodes)} nodes · ${ms.toFixed(0)} ms · ${r.engine}`;
}

function wire(w) {
  w.onmessage = (e) => {
    const m = e.data;
    if (!current || m.id !== current.id) return;
    if (m.type === "progress") progress = m.p;
    else if (m.type === "result") finish(m.r);
    else if (m.type === "failed") {
      finish({ status: "error", output: "", messages: "the search failed: " + m.error, svgs: [] });
      restart();
    }
  };
  w.onerror = (e) => {
    if (current) finish({ status: "error", output: "", messages: "the worker failed: " + e.message, svgs: [] });
    restart();
  };
}
function restart() {
  runner.terminate();
  runner = newWorker();
  wire(runner);
}
wire(runner);

// Stop: the search does not look at messages while it runs, so the worker goes, and a
// fresh one takes its place.
function stop() {
  if (!current) return;
  restart();
  clearInterval(ticker);
  const s = ((performance.now() - current.t0) / 1000).toFixed(1);
  const p = progress;
  current = null;
  setRunning(false);
  const st = $("status");
  st.textContent = `stopped after ${s} s` +
    (p ? `: ${fmt(p.solutions)} solutions and ${fmt(p.nodes)} nodes so far` : "") +
    " (the answer is incomplete)";
  st.className = "";
  st.dataset.state = "stopped";
  $("output").textContent = "stopped";
}

$("run").onclick = () => start("first");
$("count").onclick = () => start("count");
$("all").onclick = () => start("all");
$("stop").onclick = stop;

// ---- Examples, data, share ----
const select = $("examples");
for (const ex of examples) {
  const o = document.createElement("option");
  o.value = ex.name;
  o.textContent = ex.name;
  select.append(o);
}
function latticeOf(t) {
  const m = /--cells[ =](square|triangle|hex)/.exec(t);
  return m ? m[1] : "square";
}
function load(t) {
  typed.clear();
  declared = [];
  $("params").replaceChildren();
  setText(t);
  $("lattice").value = latticeOf(t);
  scheduleCheck();
}
select.onchange = () => {
  const ex = examples.find((e) => e.name === select.value);
  if (ex) load(ex.text);
};
$("data-file").onchange = async (e) => {
  const f = e.target.files[0];
  if (f) $("data").value = await f.text();
};
$("share").onclick = () => {
  let h = "#code=" + encode(text());
  for (const s of settings()) h += "&p=" + encodeURIComponent(s);
  const url = location.href.replace(/#.*$/, "") + h;
  history.replaceState(null, "", h);
  $("share-link").value = url;
  navigator.clipboard?.writeText(url).catch(() => {});
};

const hash = readHash();
if (hash.code !== null) {
  select.value = "";
  load(hash.code);
  for (const [k, v] of hash.params) typed.set(k, v);
} else {
  const first = examples.find((e) => e.name === "sudoku.dlx") || examples[0];
  select.value = first.name;
  load(first.text);
}
const mode = { count: "count", solve: "first", first: "first", all: "all" }[hash.run];
if (mode) {
  // The params form is filled by the first check; the run uses the typed values.
  start(mode);
} else {
  $("status").textContent = "ready";
  $("status").dataset.state = "ready";
}
