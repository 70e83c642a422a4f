// The playground in headless Chromium (Debian's `chromium`, driven by puppeteer-core):
// share links, diagnostics as the user types, Stop, every shipped example, the size
// of the first load, and the time of a 9x9 sudoku in the page (printed, not asserted:
// the machine is shared).
//
//   web/build.sh && node --test web/test/
//
// The page is served from web/dist by a small static server on 127.0.0.1 (below):
// the page itself fetches nothing else, which the first test checks.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile, readdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join, extname, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer from "puppeteer-core";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "..", "dist");
const examplesDir = join(here, "..", "..", "examples");
const chromium = process.env.CHROMIUM ||
  ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

const TYPES = {
  ".html": "text/html", ".js": "text/javascript", ".css": "text/css",
  ".wasm": "application/wasm", ".json": "application/json",
};
let server, base, browser;

before(async () => {
  assert.ok(chromium, "no chromium: install Debian's chromium or set CHROMIUM");
  assert.ok(existsSync(join(dist, "index.html")), "no web/dist: run web/build.sh first");
  server = createServer(async (req, res) => {
    const path = new URL(req.url, "http://x").pathname.replace(/^\/$/, "/index.html");
    try {
      const body = await readFile(join(dist, path.replace(/\.\./g, "")));
      res.writeHead(200, { "content-type": TYPES[extname(path)] || "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${server.address().port}/index.html`;
  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

const b64url = (s) => Buffer.from(s, "utf8").toString("base64url");

// A page at `hash`; the requests it made (url, bytes).
async function open(hash = "") {
  const page = await browser.newPage();
  const requests = [];
  page.on("response", async (r) => {
    let bytes = 0;
    try { bytes = (await r.buffer()).length; } catch { /* redirects, aborted */ }
    requests.push({ url: r.url(), bytes, cached: r.fromCache() });
  });
  page.on("pageerror", (e) => console.log("page error:", e.message));
  await page.goto(base + hash, { waitUntil: "load" });
  return { page, requests };
}

// Waits until the run ends (#status data-state done or stopped) and returns it.
async function ended(page, timeout = 60000) {
  await page.waitForFunction(
    () => ["done", "stopped"].includes(document.getElementById("status").dataset.state),
    { timeout, polling: 20 });
  return page.evaluate(() => {
    const st = document.getElementById("status");
    return {
      state: st.dataset.state, status: st.dataset.status, ms: Number(st.dataset.ms),
      text: st.textContent, output: document.getElementById("output").textContent,
      messages: document.getElementById("messages").textContent,
      pictures: document.querySelectorAll("#picture svg").length,
    };
  });
}

async function click(page, id) {
  await page.click("#" + id);
}

test("a share link opens a shipped model with its params and counts it", async () => {
  const queens = await readFile(join(examplesDir, "queens.dlx"), "utf8");
  for (const [n, count] of [[8, "92"], [6, "4"], [10, "724"]]) {
    const { page, requests } = await open(`#code=${b64url(queens)}&p=n=${n}&run=count`);
    const r = await ended(page);
    assert.equal(r.status, "solved", r.messages);
    assert.equal(r.output.trim(), count, `queens n=${n}`);
    // The model is in the editor, and the param in its field (the form is filled by the
    // checking worker, which may answer after a fast count has ended).
    await page.waitForSelector("#param-n", { timeout: 10000 });
    const shown = await page.evaluate(() => ({
      text: document.querySelector(".cm-content").innerText,
      n: document.getElementById("param-n")?.value,
    }));
    assert.match(shown.text, /option queen\[r, c\]/);
    assert.equal(shown.n, String(n));
    if (n === 8) {
      // Nothing came from anywhere but the page's own folder.
      const outside = requests.filter((q) => !q.url.startsWith(base.replace("index.html", "")));
      assert.deepEqual(outside.map((q) => q.url), []);
      const total = requests.reduce((s, q) => s + q.bytes, 0);
      console.log(`first load: ${(total / 1e6).toFixed(2)} MB in ${requests.length} files: ` +
        requests.map((q) => `${q.url.split("/").pop().replace(/#.*/, "")} ${(q.bytes / 1e6).toFixed(2)} MB`)
          .join(", "));
      assert.ok(total <= 5e6, `first load ${total} bytes, more than 5 MB`);
    }
    await page.close();
  }
});

test("run=solve shows the first solution as text and as a picture", async () => {
  const sudoku = await readFile(join(examplesDir, "sudoku.dlx"), "utf8");
  const { page } = await open(`#code=${b64url(sudoku)}&run=solve`);
  const r = await ended(page);
  assert.equal(r.status, "solved", r.messages);
  const rows = r.output.trim().split("\n");
  assert.equal(rows.length, 9);
  for (const row of rows) assert.match(row, /^[1-9]{9}$/);
  // Every row, column and box holds each digit once.
  const digits = (cells) => cells.slice().sort().join("");
  for (let i = 0; i < 9; i++) {
    assert.equal(digits([...rows[i]]), "123456789");
    assert.equal(digits(rows.map((row) => row[i])), "123456789");
    const box = [];
    for (let k = 0; k < 9; k++) box.push(rows[3 * Math.floor(i / 3) + Math.floor(k / 3)][3 * (i % 3) + (k % 3)]);
    assert.equal(digits(box), "123456789");
  }
  assert.equal(r.pictures, 1);
  await page.close();
});

test("a mistake typed into the editor shows its code, marked in place", async () => {
  const { page } = await open();
  await page.waitForFunction(() => document.getElementById("diagnostics").textContent !== "");
  await page.click(".cm-content");
  await page.keyboard.down("Control");
  await page.keyboard.press("a");
  await page.keyboard.up("Control");
  await page.keyboard.press("Backspace");
  await page.keyboard.type("item a\noption o covers a, b\n");
  await page.waitForFunction(
    () => /E0107/.test(document.getElementById("diagnostics").textContent), { timeout: 10000 });
  const d = await page.evaluate(() => ({
    text: document.getElementById("diagnostics").textContent,
    marked: [...document.querySelectorAll(".cm-lintRange-error")].map((e) => e.textContent),
  }));
  assert.match(d.text, /unknown item family `b`/);
  assert.match(d.text, /model\.dlx:2:20/);
  assert.deepEqual(d.marked, ["b"]);
  // Fixed, the diagnostics clear.
  await page.keyboard.type("item b\n");
  await page.waitForFunction(
    () => document.getElementById("diagnostics").textContent === "no errors", { timeout: 10000 });
  // Run then answers with the solution's options.
  await click(page, "run");
  const r = await ended(page);
  assert.equal(r.status, "solved", r.messages);
  assert.equal(r.output.trim(), "o");
  await page.close();
});

test("Stop ends a long count at once, and the next run works", async () => {
  const queens = await readFile(join(examplesDir, "queens.dlx"), "utf8");
  const { page } = await open(`#code=${b64url(queens)}&p=n=20&run=count`);
  // The live progress: nodes counted while it runs.
  await page.waitForFunction(
    () => /[1-9][\d,]* nodes/.test(document.getElementById("status").textContent),
    { timeout: 20000, polling: 50 });
  const live = await page.$eval("#status", (e) => e.textContent);
  console.log(`live progress: ${live}`);
  const t0 = Date.now();
  await click(page, "stop");
  const r = await ended(page, 1000);
  // The page answers a script as soon as the status says stopped.
  await page.evaluate(() => 1);
  const stopMs = Date.now() - t0;
  console.log(`Stop: the page responded in ${stopMs} ms`);
  assert.equal(r.state, "stopped");
  assert.match(r.text, /incomplete/);
  assert.ok(stopMs < 1000, `Stop took ${stopMs} ms`);
  // The fresh worker runs the next search.
  await page.$eval("#param-n", (e) => { e.value = "8"; e.dispatchEvent(new Event("input")); });
  await click(page, "count");
  const again = await ended(page);
  assert.equal(again.output.trim(), "92");
  await page.close();
});

test("every shipped example opens from the menu and is solved", async () => {
  const names = (await readdir(examplesDir)).filter((f) => f.endsWith(".dlx")).sort();
  const { page } = await open();
  const menu = await page.$$eval("#examples option", (os) => os.map((o) => o.value));
  assert.deepEqual(menu, names);
  const times = [];
  for (const name of names) {
    await page.select("#examples", name);
    await click(page, "run");
    const r = await ended(page);
    assert.equal(r.status, "solved", `${name}: ${r.messages}`);
    assert.ok(r.output.trim().length > 0, name);
    times.push(`${name.replace(/\.dlx$/, "")} ${r.ms.toFixed(0)}`);
  }
  console.log(`examples solved (ms in the page): ${times.join(", ")}`);
  await page.close();
});

test("a 9x9 sudoku in the page (benchmark, printed)", async () => {
  const { page } = await open();
  await page.select("#examples", "sudoku.dlx");
  const ms = [];
  for (let i = 0; i < 7; i++) {
    await click(page, "run");
    const r = await ended(page);
    assert.equal(r.status, "solved");
    ms.push(r.ms);
  }
  ms.sort((a, b) => a - b);
  console.log(`sudoku 9x9, click to answer in the page: median ${ms[3].toFixed(1)} ms ` +
    `(min ${ms[0].toFixed(1)}, max ${ms[6].toFixed(1)}; 7 runs, shared machine)`);
  await page.close();
});

test("data pasted for the data parameter is solved", async () => {
  const { page } = await open();
  await page.select("#examples", "sudoku.dlx");
  // The first of the 17-clue puzzles in the one-line layout.
  const puzzle = "000000010400000000020000000000050407008000300001090000300400200050100000000806000";
  await page.$eval("#data", (e, p) => { e.value = p; }, puzzle.replace(/0/g, "."));
  await click(page, "run");
  const r = await ended(page);
  assert.equal(r.status, "solved", r.messages);
  const grid = r.output.trim().split("\n").join("");
  assert.equal(grid.length, 81);
  for (let k = 0; k < 81; k++) if (puzzle[k] !== "0") assert.equal(grid[k], puzzle[k]);
  await page.close();
});

test("All lists solutions up to the limit, and Share makes a link to the same", async () => {
  const { page } = await open();
  await page.select("#examples", "queens.dlx");
  await page.waitForSelector("#param-n");
  await page.type("#param-n", "6");
  await page.$eval("#limit", (e) => { e.value = "3"; });
  await click(page, "all");
  const r = await ended(page);
  assert.equal(r.status, "solved", r.messages);
  const grids = r.output.trim().split("\n\n");
  assert.equal(grids.length, 3);
  for (const g of grids) assert.equal((g.match(/Q/g) || []).length, 6);
  assert.equal(r.pictures, 3);
  assert.match(r.text, /3\+ solutions/);
  await click(page, "share");
  const link = await page.$eval("#share-link", (e) => e.value);
  assert.match(link, /#code=[A-Za-z0-9_-]+&p=n%3D6$/);
  await page.close();
  const again = await open(link.slice(link.indexOf("#")) + "&run=count");
  assert.equal((await ended(again.page)).output.trim(), "4");
  await again.page.close();
});

test("a param that is not a literal is refused with its code", async () => {
  const { page } = await open();
  await page.select("#examples", "queens.dlx");
  await page.waitForSelector("#param-n");
  await page.type("#param-n", "{");
  await click(page, "count");
  const r = await ended(page);
  assert.equal(r.status, "error");
  assert.match(r.messages, /E0602/);
  await page.close();
});
