//! Searches run on worker threads, so the GIL is free while they run and Ctrl-C reaches
//! Python: the calling thread waits on a channel, looking at Python's signals between
//! waits, and raises the search's interrupt flag when one arrives.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use dlxc::problem::OptionId;
use dlxc::session::reports::{clash_report, refusal_report};
use dlxc::solve::parallel::{self, Frontier};
use dlxc::solve::share::Part;
use dlxc::solve::{
    Clash, End, EngineChoice, Flow, Limit, Optimizer, Outcome, SearchConfig, Solver, Stats,
};
use dlxc::symmetry::classes;
use dlxc::symmetry::orbits::Plan;
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

use crate::core::Core;
use crate::errors::{Failure, LimitReached};

/// How often a waiting thread looks at Python's signals.
const POLL: Duration = Duration::from_millis(50);

/// Solutions found ahead of the reader: enough to keep a fast search busy, few enough
/// that an abandoned iterator wastes little.
const AHEAD: usize = 64;

/// Waits for the next message of `rx` without the GIL; `None` when the sender is gone.
/// A signal handler that raises (Ctrl-C: `KeyboardInterrupt`) raises `stop` and
/// returns its exception.
pub fn wait_next<T: Send>(
    py: Python<'_>,
    rx: &Mutex<Receiver<T>>,
    stop: &AtomicBool,
) -> PyResult<Option<T>> {
    loop {
        let got = py.allow_threads(|| match rx.lock() {
            Ok(r) => r.recv_timeout(POLL),
            Err(_) => Err(RecvTimeoutError::Disconnected),
        });
        match got {
            Ok(v) => return Ok(Some(v)),
            Err(RecvTimeoutError::Disconnected) => return Ok(None),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
        }
    }
}

/// Runs `work` on a new thread and waits for its result (see [`wait`]).
pub fn on_thread<T: Send + 'static>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (tx, rx) = sync_channel(1);
    std::thread::Builder::new()
        .name("dlxc-search".into())
        .spawn(move || {
            let _ = tx.send(work());
        })?;
    wait_next(py, &Mutex::new(rx), stop)?
        .ok_or_else(|| PyValueError::new_err("the search thread ended without an answer"))
}

/// The search settings of a call: the limits given, and a fresh interrupt flag.
pub struct Limits {
    /// Give up after this many seconds.
    pub time: Option<f64>,
    /// Give up after this many nodes.
    pub nodes: Option<u64>,
}

impl Limits {
    /// The limits given to a search call.
    pub fn new(time: Option<f64>, nodes: Option<u64>) -> Limits {
        Limits { time, nodes }
    }

    fn config(&self, stop: &Arc<AtomicBool>) -> PyResult<SearchConfig> {
        let time_limit = match self.time {
            None => None,
            Some(t) if t > 0.0 && t.is_finite() => Some(Duration::from_secs_f64(t.min(1e9))),
            Some(t) => {
                return Err(PyValueError::new_err(format!(
                    "time_limit must be a positive number of seconds, not {t}"
                )));
            }
        };
        Ok(SearchConfig {
            node_limit: self.nodes,
            time_limit,
            interrupt: Some(Arc::clone(stop)),
            ..SearchConfig::default()
        })
    }
}

/// What a search over several parts found.
#[derive(Clone, Copy, Debug)]
struct Total {
    solutions: u128,
    nodes: u64,
    end: End,
}

/// Counts the solutions of `parts` (each a list of forced options) of `core`, one part
/// after another, each on `threads` threads. Exact, or [`LimitReached`].
pub fn count(
    py: Python<'_>,
    core: &Core,
    parts: Vec<Vec<OptionId>>,
    threads: usize,
    limits: &Limits,
) -> PyResult<u128> {
    let solver = core.solver(py)?;
    let stop = Arc::new(AtomicBool::new(false));
    let config = limits.config(&stop)?;
    let got = on_thread(py, &stop, move || {
        count_parts(solver, &parts, &config, threads)
    })?;
    let total = got.map_err(|c| clash(py, core, &c))?;
    counted(total.end, total.solutions, total.nodes)
}

/// The answer of a count that ended with `end`: the count, or why it is not whole
/// (`LimitReached` with what it had counted, or `KeyboardInterrupt`).
fn counted(end: End, solutions: u128, nodes: u64) -> PyResult<u128> {
    match end {
        End::Exhausted | End::Stopped => Ok(solutions),
        End::Cut(Limit::Interrupted) => Err(PyKeyboardInterrupt::new_err(())),
        End::Cut(limit) => Err(cut(limit, solutions, nodes)),
    }
}

/// Counts the solutions of `core` up to the symmetry group its model declares, one
/// per class, on `threads` threads: what `dlxc run --count --up-to-symmetry` counts. A
/// model that declares no symmetry raises `ModelError` (E0930).
pub fn count_classes(
    py: Python<'_>,
    core: &Core,
    threads: usize,
    limits: &Limits,
) -> PyResult<u128> {
    let Some(group) = core.matrix.symmetry.clone() else {
        let r = classes::no_symmetry(
            "up_to_symmetry",
            "the model declares no symmetry",
            classes::DECLARE_SYMMETRIES,
        );
        return Err(Failure::one(r).into_err(py));
    };
    let (matrix, forced) = (Arc::clone(&core.matrix), core.forced.clone());
    let stop = Arc::new(AtomicBool::new(false));
    let config = limits.config(&stop)?;
    let got = on_thread(py, &stop, move || {
        let plan = Plan::new(&matrix.problem, &group, &forced);
        classes::search(&plan, EngineChoice::Auto, &config, threads, None, None)
    })?;
    let found = match got {
        Ok(Ok(found)) => found,
        Ok(Err(u)) => return Err(core.unsupported(py, &u)),
        Err(c) => return Err(clash(py, core, &c)),
    };
    let stats = found.outcome.stats;
    counted(found.outcome.end, stats.solutions, stats.nodes)
}

/// Counts `parts` of `core` on `threads` threads for at most `seconds`: the exact
/// number of solutions counted, and the exact parts left unexplored (none when the
/// count finished). The parts left and the count are the whole: nothing is lost or
/// counted twice. Ctrl-C raises `KeyboardInterrupt`.
pub fn count_for(
    py: Python<'_>,
    core: &Core,
    parts: Vec<Part>,
    seconds: f64,
    threads: usize,
) -> PyResult<(u128, Vec<Part>)> {
    let solver = core.solver(py)?;
    let stop = Arc::new(AtomicBool::new(false));
    let config = Limits::new(Some(seconds), None).config(&stop)?;
    let got = on_thread(py, &stop, move || {
        frontier_count(solver, parts, &config, threads.max(1))
    })?;
    let f = got.map_err(|c| clash(py, core, &c))?;
    match f.counted.end {
        End::Cut(Limit::Interrupted) => Err(PyKeyboardInterrupt::new_err(())),
        _ => Ok((f.counted.stats.solutions, f.parts)),
    }
}

/// The count of `parts` in the pool, and what a time limit left of them. An engine
/// that cannot give work away (the links engines) counts part after part, and the
/// part a limit cuts is left whole, with what it had counted dropped.
fn frontier_count(
    mut solver: Solver,
    parts: Vec<Part>,
    config: &SearchConfig,
    threads: usize,
) -> Result<Frontier, Clash> {
    if parallel::pooled(&solver, config) {
        return parallel::count_parts(&solver, parts, config, threads, &mut parallel::Unwatched);
    }
    let start = Instant::now();
    let mut counted = Outcome {
        stats: Stats::default(),
        end: End::Exhausted,
    };
    for (i, part) in parts.iter().enumerate() {
        let out = match left(config, start, counted.stats.nodes) {
            Some(cfg) => parallel::count(&mut solver, &part.forced, &cfg, 1)?,
            None => Outcome {
                stats: Stats::default(),
                end: End::Cut(Limit::Time),
            },
        };
        if out.end != End::Exhausted {
            counted.end = out.end;
            return Ok(Frontier {
                explored: parts[..i].iter().map(|p| p.weight).sum(),
                parts: parts[i..].to_vec(),
                counted,
            });
        }
        counted.stats.solutions += out.stats.solutions;
        counted.stats.nodes += out.stats.nodes;
    }
    Ok(Frontier {
        explored: parts.iter().map(|p| p.weight).sum(),
        parts: Vec::new(),
        counted,
    })
}

/// The count of each part in turn; a time limit is for all of them together.
fn count_parts(
    mut solver: Solver,
    parts: &[Vec<OptionId>],
    config: &SearchConfig,
    threads: usize,
) -> Result<Total, Clash> {
    let start = Instant::now();
    let mut total = Total {
        solutions: 0,
        nodes: 0,
        end: End::Exhausted,
    };
    for part in parts {
        let Some(cfg) = left(config, start, total.nodes) else {
            total.end = End::Cut(Limit::Time);
            break;
        };
        let out = parallel::count(&mut solver, part, &cfg, threads)?;
        total.solutions += out.stats.solutions;
        total.nodes += out.stats.nodes;
        if out.end != End::Exhausted {
            total.end = out.end;
            break;
        }
    }
    Ok(total)
}

/// The settings of the next part of a search of several: what is left of the time
/// and node limits, which are for all the parts together; `None` when no time is left.
fn left(config: &SearchConfig, start: Instant, nodes: u64) -> Option<SearchConfig> {
    let mut cfg = config.clone();
    if let Some(t) = config.time_limit {
        cfg.time_limit = Some(t.checked_sub(start.elapsed()).filter(|l| !l.is_zero())?);
    }
    if let Some(n) = config.node_limit {
        cfg.node_limit = Some(n.saturating_sub(nodes).max(1));
    }
    Some(cfg)
}

/// The exception of a search cut short by a limit.
fn cut(limit: Limit, count: u128, nodes: u64) -> PyErr {
    let which = match limit {
        Limit::Time => "time",
        Limit::Nodes => "nodes",
        Limit::Interrupted => "interrupt",
    };
    let err = LimitReached::new_err(format!(
        "the {which} limit cut the search short after {count} solutions ({nodes} nodes)"
    ));
    Python::with_gil(|py| {
        let v = err.value(py);
        let set = || -> PyResult<()> {
            v.setattr("count", count)?;
            v.setattr("nodes", nodes)?;
            v.setattr("limit", which)?;
            Ok(())
        };
        match set() {
            Ok(()) => err,
            Err(e) => e,
        }
    })
}

/// The E0404 exception of forced options that clash.
pub fn clash(py: Python<'_>, core: &Core, c: &Clash) -> PyErr {
    Failure::one(clash_report(&core.src, &core.matrix.problem, c)).into_err(py)
}

/// One solution: its options and, when the model paints, its grid.
#[pyclass(frozen, get_all, module = "dlxc")]
#[derive(Clone, Debug)]
pub struct Solution {
    /// The chosen options' names, forced ones included, in declaration order.
    pub options: Vec<String>,
    /// The chosen options' ids (indexes into `Model.options`), in the order the search
    /// chose them, forced ones first.
    pub ids: Vec<u32>,
    /// The painted grid, one string a row, or `None` when the model paints nothing.
    pub grid: Option<Vec<String>>,
}

impl Solution {
    /// The solution of `chosen` in `core`.
    pub fn new(core: &Core, chosen: &[OptionId]) -> Solution {
        let (options, grid) = core.matrix.render(chosen);
        Solution {
            options,
            ids: chosen.iter().map(|o| o.0).collect(),
            grid,
        }
    }
}

#[pymethods]
impl Solution {
    /// A solution from its parts (for unpickling; searches make solutions).
    #[new]
    fn py_new(options: Vec<String>, ids: Vec<u32>, grid: Option<Vec<String>>) -> Solution {
        Solution { options, ids, grid }
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let cls = py.get_type::<Solution>().into_any();
        let args = (self.options.clone(), self.ids.clone(), self.grid.clone()).into_pyobject(py)?;
        Ok((cls, args.into_any()))
    }

    fn __eq__(&self, other: &Solution) -> bool {
        self.options == other.options && self.grid == other.grid
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.options.hash(&mut h);
        h.finish()
    }

    /// The solution as `dlxc run` prints it: the grid, or the options one a line.
    fn __str__(&self) -> String {
        self.grid.as_ref().unwrap_or(&self.options).join("\n")
    }

    fn __repr__(&self) -> String {
        format!("Solution(options={:?})", self.options)
    }

    fn __len__(&self) -> usize {
        self.ids.len()
    }
}

/// What the search thread sends.
enum Msg {
    Solution(Vec<OptionId>),
    Done(Result<Total, Clash>),
}

/// A lazy iterator over solutions: the search runs on its own thread, a few solutions
/// ahead of the reader, and stops when the iterator is closed or dropped.
#[pyclass(frozen, module = "dlxc")]
pub struct Solutions {
    core: Arc<Core>,
    rx: Mutex<Receiver<Msg>>,
    stop: Arc<AtomicBool>,
    end: Mutex<Option<Total>>,
}

impl Solutions {
    /// Starts the search of `parts` of `core`, for at most `limit` solutions.
    pub fn start(
        py: Python<'_>,
        core: Arc<Core>,
        parts: Vec<Vec<OptionId>>,
        limit: Option<u128>,
        limits: &Limits,
    ) -> PyResult<Solutions> {
        let solver = core.solver(py)?;
        let stop = Arc::new(AtomicBool::new(false));
        let config = limits.config(&stop)?;
        let (tx, rx) = sync_channel(AHEAD);
        std::thread::Builder::new()
            .name("dlxc-solutions".into())
            .spawn(move || search_parts(solver, &parts, &config, limit, &tx))?;
        Ok(Solutions {
            core,
            rx: Mutex::new(rx),
            stop,
            end: Mutex::new(None),
        })
    }
}

/// The search thread: each part in turn, each solution sent, then how it ended.
fn search_parts(
    mut solver: Solver,
    parts: &[Vec<OptionId>],
    config: &SearchConfig,
    limit: Option<u128>,
    tx: &SyncSender<Msg>,
) {
    let mut total = Total {
        solutions: 0,
        nodes: 0,
        end: End::Exhausted,
    };
    let mut reader_gone = false;
    let start = Instant::now();
    for part in parts {
        let Some(mut cfg) = left(config, start, total.nodes) else {
            total.end = End::Cut(Limit::Time);
            break;
        };
        if let Some(n) = limit {
            if total.solutions >= n {
                total.end = End::Stopped;
                break;
            }
            cfg.max_solutions = Some(n - total.solutions);
        }
        let closed = cfg.interrupt.clone();
        let out = solver.search(part, &cfg, &mut |s| {
            if closed.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
                return Flow::Stop;
            }
            // A reader that is gone wants no more: stop at once.
            if tx.send(Msg::Solution(s.to_vec())).is_ok() {
                Flow::Continue
            } else {
                reader_gone = true;
                Flow::Stop
            }
        });
        match out {
            Ok(out) => {
                total.solutions += out.stats.solutions;
                total.nodes += out.stats.nodes;
                if out.end != End::Exhausted {
                    total.end = out.end;
                    break;
                }
            }
            Err(c) => {
                let _ = tx.send(Msg::Done(Err(c)));
                return;
            }
        }
    }
    if !reader_gone {
        let _ = tx.send(Msg::Done(Ok(total)));
    }
}

#[pymethods]
impl Solutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Solution>> {
        if self.end.lock().map(|e| e.is_some()).unwrap_or(true) {
            return Ok(None);
        }
        match wait_next(py, &self.rx, &self.stop)? {
            Some(Msg::Solution(s)) => Ok(Some(Solution::new(&self.core, &s))),
            Some(Msg::Done(Ok(total))) => {
                if let Ok(mut e) = self.end.lock() {
                    *e = Some(total);
                }
                match total.end {
                    End::Cut(Limit::Interrupted) => Err(PyKeyboardInterrupt::new_err(())),
                    End::Cut(limit) => Err(cut(limit, total.solutions, total.nodes)),
                    _ => Ok(None),
                }
            }
            Some(Msg::Done(Err(c))) => Err(clash(py, &self.core, &c)),
            None => Ok(None),
        }
    }

    /// Stops the search; the iterator ends.
    fn close(&self) {
        self.stop.store(true, Ordering::Relaxed);
        // A thread blocked on a full channel gets its room back, sees the flag at its
        // next solution (or within 1024 nodes) and ends.
        if let Ok(rx) = self.rx.lock() {
            while rx.try_recv().is_ok() {}
        }
        if let Ok(mut e) = self.end.lock() {
            e.get_or_insert(Total {
                solutions: 0,
                nodes: 0,
                end: End::Stopped,
            });
        }
    }

    /// Whether the search ran to its end (every solution was listed), once the
    /// iterator is exhausted; `None` before.
    #[getter]
    fn complete(&self) -> Option<bool> {
        let end = self.end.lock().ok()?;
        end.map(|t| t.end == End::Exhausted)
    }
}

impl Drop for Solutions {
    fn drop(&mut self) {
        // The thread notices within 1024 nodes, or at its next solution.
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The answer of an optimizing search.
#[pyclass(frozen, get_all, module = "dlxc")]
#[derive(Clone, Debug)]
pub struct Optimum {
    /// The best value found (count or total cost), or `None` when there is no
    /// solution.
    pub value: Option<i64>,
    /// Whether `value` is proven optimal (the search finished).
    pub optimal: bool,
    /// A solution of that value.
    pub solution: Option<Solution>,
    /// `"minimize count"`, `"minimize cost"` or `"maximize cost"`.
    pub objective: String,
}

#[pymethods]
impl Optimum {
    fn __repr__(&self) -> String {
        let value = self.value.map_or("None".to_string(), |v| v.to_string());
        let optimal = if self.optimal { "True" } else { "False" };
        format!(
            "Optimum(value={value}, optimal={optimal}, objective={:?})",
            self.objective
        )
    }
}

/// The optimum of `core`'s objective.
pub fn optimize(py: Python<'_>, core: &Arc<Core>, limits: &Limits) -> PyResult<Optimum> {
    let Some(objective) = core.objective else {
        return Err(PyValueError::new_err(
            "the model has no objective (`minimize count`, `minimize cost`, `maximize cost`)",
        ));
    };
    let mut opt = Optimizer::new(&core.matrix.problem, objective).map_err(|e| {
        Failure::one(refusal_report(&core.src, &core.matrix.problem, &e)).into_err(py)
    })?;
    let stop = Arc::new(AtomicBool::new(false));
    let config = limits.config(&stop)?;
    let forced = core.forced.clone();
    let got = on_thread(py, &stop, move || {
        opt.solve(&forced, false, &config, &mut |_, _| {})
    })?;
    let best = got.map_err(|c| clash(py, core, &c))?;
    if best.end == End::Cut(Limit::Interrupted) {
        return Err(PyKeyboardInterrupt::new_err(()));
    }
    Ok(Optimum {
        value: best.value,
        optimal: best.optimal,
        solution: best.solutions.first().map(|s| Solution::new(core, s)),
        objective: match objective {
            dlxc::solve::Objective::MinimizeCount => "minimize count",
            dlxc::solve::Objective::MinimizeCost => "minimize cost",
            dlxc::solve::Objective::MaximizeCost => "maximize cost",
        }
        .to_string(),
    })
}
