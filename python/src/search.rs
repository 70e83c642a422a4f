//! Searches run on worker threads, so the GIL is free while they run and Ctrl-C reaches
//! Python: the calling thread waits on a channel, looking at Python's signals between
//! waits, and raises the search's interrupt flag when one arrives.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, sync_channel};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use dlxc::problem::OptionId;
use dlxc::render::paint;
use dlxc::render::svg::{Lattice, Palette, Style, draw_with};
use dlxc::run::count_parts;
use dlxc::session::reports::{clash_report, refusal_report};
use dlxc::solve::memo::Count;
use dlxc::solve::share::Part;
use dlxc::solve::{
    Clash, End, EngineChoice, Flow, Limit, Objective, Optimizer, SearchConfig, Solver,
};
use dlxc::symmetry::classes;
use dlxc::symmetry::orbits::Plan;
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyInt;

use crate::core::Core;
use crate::errors::{Failure, LimitReached};
use crate::queue::Queue;

/// How often a waiting thread looks at Python's signals.
const POLL: Duration = Duration::from_millis(50);

/// Solutions found ahead of the reader: enough that the search thread sleeps seldom
/// (it wakes when half are read), few enough that an abandoned iterator wastes little.
const AHEAD: usize = 1024;

/// Waits for the next message of `rx` without the GIL; `None` when the sender is gone.
/// A signal handler that raises (Ctrl-C: `KeyboardInterrupt`) raises `stop` and
/// returns its exception.
pub fn wait_next<T: Send>(
    py: Python<'_>,
    rx: &Mutex<Receiver<T>>,
    stop: &AtomicBool,
) -> PyResult<Option<T>> {
    // What the producer sent already is taken without giving the GIL up and taking
    // it back (most of the cost of a fast listing's solution).
    if let Ok(r) = rx.try_lock() {
        match r.try_recv() {
            Ok(v) => return Ok(Some(v)),
            Err(TryRecvError::Disconnected) => return Ok(None),
            Err(TryRecvError::Empty) => {}
        }
    }
    loop {
        let got = py.detach(|| match rx.lock() {
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

    /// The time limit as a duration; a limit that is no positive number of seconds
    /// raises `ValueError`.
    pub fn duration(&self) -> PyResult<Option<Duration>> {
        match self.time {
            None => Ok(None),
            Some(t) if t > 0.0 && t.is_finite() => Ok(Some(Duration::from_secs_f64(t.min(1e9)))),
            Some(t) => Err(PyValueError::new_err(format!(
                "time_limit must be a positive number of seconds, not {t}"
            ))),
        }
    }

    fn config(&self, stop: &Arc<AtomicBool>) -> PyResult<SearchConfig> {
        Ok(SearchConfig {
            node_limit: self.nodes,
            time_limit: self.duration()?,
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

/// Counts the solutions of `parts` of `core` on `threads` threads, through the
/// library's count of parts ([`dlxc::run::count_parts`]). Exact, or [`LimitReached`]
/// (the limits are for all the parts together).
pub fn count(
    py: Python<'_>,
    core: &Core,
    parts: Vec<Part>,
    threads: usize,
    limits: &Limits,
) -> PyResult<u128> {
    let mut solver = core.solver(py)?;
    let stop = Arc::new(AtomicBool::new(false));
    let config = limits.config(&stop)?;
    let got = on_thread(py, &stop, move || {
        count_parts(&mut solver, parts, &config, threads.max(1))
    })?;
    let f = got.map_err(|c| clash(py, core, &c))?;
    counted(
        f.counted.end,
        f.counted.stats.solutions,
        f.counted.stats.nodes,
    )
}

/// The answer of a count that ended with `end`: the count, or why it is not whole
/// (`LimitReached` with what it had counted, or `KeyboardInterrupt`).
pub fn counted(end: End, solutions: u128, nodes: u64) -> PyResult<u128> {
    match end {
        End::Exhausted | End::Stopped => Ok(solutions),
        End::Cut(Limit::Interrupted) => Err(PyKeyboardInterrupt::new_err(())),
        End::Cut(limit) => Err(cut(limit, &wide(solutions), nodes)),
    }
}

/// A count of the engines (`u128`) as the memo's exact count.
pub fn wide(n: u128) -> Count {
    match u64::try_from(n) {
        Ok(small) => Count::Small(small),
        Err(_) => Count::Big(n.into()),
    }
}

/// An exact count as a Python `int`, however large: through its digits past 128 bits
/// (Python's `int` parses them exactly).
pub fn py_int<'py>(py: Python<'py>, n: &Count) -> PyResult<Bound<'py, PyAny>> {
    match n.to_u128() {
        Some(small) => Ok(small.into_pyobject(py)?.into_any()),
        None => py.get_type::<PyInt>().call1((n.to_string(),)),
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
    let mut solver = core.solver(py)?;
    let stop = Arc::new(AtomicBool::new(false));
    let config = Limits::new(Some(seconds), None).config(&stop)?;
    let got = on_thread(py, &stop, move || {
        count_parts(&mut solver, parts, &config, threads.max(1))
    })?;
    let f = got.map_err(|c| clash(py, core, &c))?;
    match f.counted.end {
        End::Cut(Limit::Interrupted) => Err(PyKeyboardInterrupt::new_err(())),
        _ => Ok((f.counted.stats.solutions, f.parts)),
    }
}

/// The exception of a search cut short by a limit, with the exact count found before it.
pub fn cut(limit: Limit, count: &Count, nodes: u64) -> PyErr {
    let which = match limit {
        Limit::Time => "time",
        Limit::Nodes => "nodes",
        Limit::Interrupted => "interrupt",
    };
    let err = LimitReached::new_err(format!(
        "the {which} limit cut the search short after {count} solutions ({nodes} nodes)"
    ));
    Python::attach(|py| {
        let v = err.value(py);
        let set = || -> PyResult<()> {
            v.setattr("count", py_int(py, count)?)?;
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
///
/// A search makes only the ids: the names and the grid are made the first time they
/// are read, so iterating over many solutions costs little more than the search.
#[pyclass(frozen, module = "dlxc")]
#[derive(Clone)]
pub struct Solution {
    /// The chosen options' ids, sorted: the order of their names.
    ids: Vec<u32>,
    /// The names, once made.
    options: OnceLock<Vec<String>>,
    /// The painted grid, once made.
    grid: OnceLock<Option<Vec<String>>>,
    /// What names, paints and draws it; `None` once unpickled (then the names and
    /// the grid are made already, and there is no picture).
    core: Option<Arc<Core>>,
}

impl std::fmt::Debug for Solution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solution").field("ids", &self.ids).finish()
    }
}

impl Solution {
    /// The solution of `chosen` in `core`.
    pub fn new(core: &Arc<Core>, chosen: &[OptionId]) -> Solution {
        let mut ids: Vec<u32> = chosen.iter().map(|o| o.0).collect();
        ids.sort_unstable();
        Solution {
            ids,
            options: OnceLock::new(),
            grid: OnceLock::new(),
            core: Some(Arc::clone(core)),
        }
    }

    fn chosen(&self) -> Vec<OptionId> {
        self.ids.iter().map(|&i| OptionId(i)).collect()
    }

    /// The options' names, in declaration order.
    pub fn names(&self) -> &[String] {
        self.options.get_or_init(|| match &self.core {
            Some(c) => {
                let labels = c.matrix.labels();
                self.ids
                    .iter()
                    .map(|&i| labels[i as usize].clone())
                    .collect()
            }
            None => Vec::new(),
        })
    }

    /// The painted grid.
    pub fn painted(&self) -> &Option<Vec<String>> {
        self.grid.get_or_init(|| match &self.core {
            Some(c) => paint(&c.matrix.paints, &self.chosen()),
            None => None,
        })
    }
}

/// The cell shape a picture is drawn with, from its name.
fn lattice(cells: &str) -> PyResult<Lattice> {
    match cells {
        "square" => Ok(Lattice::Square),
        "triangle" => Ok(Lattice::Triangle),
        "hex" => Ok(Lattice::Hex),
        _ => Err(PyValueError::new_err(format!(
            "cells must be \"square\", \"triangle\" or \"hex\", not {cells:?}"
        ))),
    }
}

#[pymethods]
impl Solution {
    /// A solution from its parts (for unpickling; searches make solutions).
    #[new]
    fn py_new(options: Vec<String>, ids: Vec<u32>, grid: Option<Vec<String>>) -> Solution {
        Solution {
            ids,
            options: OnceLock::from(options),
            grid: OnceLock::from(grid),
            core: None,
        }
    }

    /// The chosen options' names, forced ones included, in declaration order.
    #[getter]
    fn options(&self) -> Vec<String> {
        self.names().to_vec()
    }

    /// The chosen options' ids (indexes into `Model.options`), in declaration order:
    /// `ids[k]` is the id of `options[k]`.
    #[getter]
    fn ids(&self) -> Vec<u32> {
        self.ids.clone()
    }

    /// The painted grid, one string a row, or `None` when the model paints nothing.
    #[getter]
    fn grid(&self) -> Option<Vec<String>> {
        self.painted().clone()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let cls = py.get_type::<Solution>().into_any();
        let args = (self.options(), self.ids.clone(), self.grid()).into_pyobject(py)?;
        Ok((cls, args.into_any()))
    }

    /// The solution drawn as an SVG picture, as `dlxc run --svg` draws it (the
    /// options forced, the clues, drawn apart): `cells` is the cell shape
    /// (`"square"`, `"triangle"`, `"hex"`; default: the model's `draw cells`, else
    /// square), `labels` whether cells show their text. `None` when the model paints
    /// nothing, or for a solution rebuilt from a pickle (the picture needs the model).
    #[pyo3(signature = (cells = None, labels = true))]
    fn svg(&self, cells: Option<&str>, labels: bool) -> PyResult<Option<String>> {
        let asked = cells.map(lattice).transpose()?;
        let Some(core) = &self.core else {
            return Ok(None);
        };
        let compiled = &core.matrix.compiled;
        let style = Style {
            lattice: asked.or(compiled.lattice).unwrap_or_default(),
            labels,
        };
        let palette = Palette::new(&compiled.paints);
        Ok(draw_with(
            &compiled.paints,
            &self.chosen(),
            &core.forced,
            &palette,
            style,
        ))
    }

    /// The picture notebooks show (Jupyter's rich display): `svg()`, or `None` when
    /// there is none, so the text form is shown instead.
    fn _repr_svg_(&self) -> PyResult<Option<String>> {
        self.svg(None, true)
    }

    fn __eq__(&self, other: &Solution) -> bool {
        self.names() == other.names() && self.painted() == other.painted()
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.names().hash(&mut h);
        h.finish()
    }

    /// The solution as `dlxc run` prints it: the grid, or the options one a line.
    fn __str__(&self) -> String {
        match self.painted() {
            Some(g) => g.join("\n"),
            None => self.names().join("\n"),
        }
    }

    fn __repr__(&self) -> String {
        format!("Solution(options={:?})", self.names())
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
    queue: Arc<Queue<Msg>>,
    stop: Arc<AtomicBool>,
    end: Mutex<Option<Total>>,
}

impl Solutions {
    /// Starts the search of `parts` of `core`, for at most `limit` solutions.
    pub fn start(
        py: Python<'_>,
        core: Arc<Core>,
        parts: Vec<Part>,
        limit: Option<u128>,
        limits: &Limits,
    ) -> PyResult<Solutions> {
        let solver = core.solver(py)?;
        let stop = Arc::new(AtomicBool::new(false));
        let config = limits.config(&stop)?;
        let queue = Arc::new(Queue::new(AHEAD));
        let tx = Arc::clone(&queue);
        std::thread::Builder::new()
            .name("dlxc-solutions".into())
            .spawn(move || {
                search_parts(solver, &parts, &config, limit, &tx);
                tx.close();
            })?;
        Ok(Solutions {
            core,
            queue,
            stop,
            end: Mutex::new(None),
        })
    }
}

/// The search thread: each part in turn, each solution sent, then how it ended.
fn search_parts(
    mut solver: Solver,
    parts: &[Part],
    config: &SearchConfig,
    limit: Option<u128>,
    tx: &Queue<Msg>,
) {
    let mut total = Total {
        solutions: 0,
        nodes: 0,
        end: End::Exhausted,
    };
    let mut reader_gone = false;
    let start = Instant::now();
    for part in parts {
        let Some(mut cfg) = config.left_after(start, total.nodes) else {
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
        let out = solver.search_part(&part.forced, &part.excluded, &cfg, &mut |s| {
            if closed.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
                return Flow::Stop;
            }
            // A reader that is gone wants no more: stop at once.
            if tx.send(Msg::Solution(s.to_vec())) {
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
                tx.send(Msg::Done(Err(c)));
                return;
            }
        }
    }
    if !reader_gone {
        tx.send(Msg::Done(Ok(total)));
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
        match self.queue.recv(py, &self.stop)? {
            Some(Msg::Solution(s)) => Ok(Some(Solution::new(&self.core, &s))),
            Some(Msg::Done(Ok(total))) => {
                if let Ok(mut e) = self.end.lock() {
                    *e = Some(total);
                }
                match total.end {
                    End::Cut(Limit::Interrupted) => Err(PyKeyboardInterrupt::new_err(())),
                    End::Cut(limit) => Err(cut(limit, &wide(total.solutions), total.nodes)),
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
        // A thread asleep on a full queue wakes, and stops at its next solution (or
        // sees the flag within 1024 nodes).
        self.queue.drop_reader();
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
        self.queue.drop_reader();
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
    /// The solutions found, best first: `[solution]`, or with `optimize(best=k)` the
    /// k best, in order of value (ties in the order the search reached them, as
    /// `dlxc run --best K` lists them).
    pub solutions: Vec<Solution>,
    /// The value of each of `solutions`, in the same order.
    pub values: Vec<i64>,
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
pub fn optimize(
    py: Python<'_>,
    core: &Arc<Core>,
    limits: &Limits,
    task: &dlxc::task::Task,
) -> PyResult<Optimum> {
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
    let threads = task.optimizing_threads(opt.is_priced());
    let got = on_thread(py, &stop, move || {
        dlxc::solve::optimize::solve_on_threads(
            &mut opt,
            &forced,
            false,
            &config,
            threads,
            &mut |_, _| {},
        )
    })?;
    let best = got.map_err(|c| clash(py, core, &c))?;
    optimum(core, objective, &best)
}

/// The Python answer of an optimizing search of `core`.
pub fn optimum(
    core: &Arc<Core>,
    objective: Objective,
    best: &dlxc::solve::Optimum,
) -> PyResult<Optimum> {
    if best.end == End::Cut(Limit::Interrupted) {
        return Err(PyKeyboardInterrupt::new_err(()));
    }
    let solutions: Vec<Solution> = best
        .solutions
        .iter()
        .map(|s| Solution::new(core, s))
        .collect();
    Ok(Optimum {
        value: best.value,
        optimal: best.optimal,
        solution: solutions.first().cloned(),
        values: best.values.clone(),
        solutions,
        objective: objective_name(objective).to_string(),
    })
}

/// An objective as the model writes it.
pub fn objective_name(o: Objective) -> &'static str {
    match o {
        Objective::MinimizeCount => "minimize count",
        Objective::MinimizeCost => "minimize cost",
        Objective::MaximizeCost => "maximize cost",
    }
}
