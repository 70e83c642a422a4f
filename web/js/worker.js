// The page's worker: dlxc compiled to WebAssembly. The page keeps two of them, one that
// checks the model as the user types and one that runs searches; a search runs to its
// end on this thread, so the page stops it by terminating this worker.
import init, { check, run, version } from "../target/pkg/dlxc_web.js";

// The page sends the compiled module first (one download and one compilation for
// every worker it starts); messages before it wait for it.
let loaded;
const ready = new Promise((ok, fail) => { loaded = { ok, fail }; });

self.onmessage = async (e) => {
  const m = e.data;
  if (m.op === "init") {
    if (m.error) loaded.fail(new Error(m.error));
    else init({ module_or_path: m.module }).then(loaded.ok, loaded.fail);
    return;
  }
  try {
    await ready;
  } catch (err) {
    self.postMessage({ id: m.id, type: "failed", error: String(err) });
    return;
  }
  try {
    if (m.op === "check") {
      self.postMessage({ id: m.id, type: "checked", r: JSON.parse(check(m.text)) });
    } else if (m.op === "run") {
      const progress = (p) => self.postMessage({ id: m.id, type: "progress", p: JSON.parse(p) });
      const r = run(m.text, JSON.stringify(m.params), m.data, m.mode, m.limit, m.lattice, progress);
      self.postMessage({ id: m.id, type: "result", r: JSON.parse(r) });
    } else if (m.op === "version") {
      self.postMessage({ id: m.id, type: "version", v: version() });
    }
  } catch (err) {
    // A panic in the module (a bug in dlxc) or memory that ran out: the page says so
    // and starts a fresh worker for the next run.
    self.postMessage({ id: m.id, type: "failed", error: String(err) });
  }
};
