//! Searches made by the library's runner ([`dlxc::run::Runner`]), exactly as `dlxc run`
//! makes them: counts by memo (`count(memo=...)`), solutions drawn uniformly at random
//! (`sample`), and the k best solutions of an objective (`optimize(best=k)`).
//!
//! The keyword arguments become the command line's [`Request`], validated by the same
//! [`Task`] (and checked against the model by [`Task::fit`]), so a combination the
//! command line refuses raises `ModelError` with the same code here. Nothing of the
//! memo count or the draws is done on this side: the runner decides (the probe of
//! `memo="auto"`), counts and draws.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use dlxc::instance::Instance;
use dlxc::problem::OptionId;
use dlxc::run::{Answer, Failure as RunFailure, Runner, Sink};
use dlxc::session::reports::{clash_report, refusal_report, unsupported_report};
use dlxc::solve::memo::Order;
use dlxc::solve::{End, Flow, Limit};
use dlxc::task::{Memo, Request, Task, Traits};
use pyo3::exceptions::{PyKeyboardInterrupt, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};

use crate::core::Core;
use crate::errors::Failure;
use crate::search::{Limits, Optimum, Solution, counted, cut, on_thread, optimum, py_int};

/// `memo=`: `"auto"` (the default, as for `dlxc run --count`), `True` or `"on"`,
/// `False` or `"off"`.
pub fn memo_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<Memo> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(Memo::Auto);
    };
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(if b.is_true() { Memo::On } else { Memo::Off });
    }
    let bad = || {
        PyValueError::new_err(format!(
            "memo must be \"auto\", \"on\" (or True) or \"off\" (or False), not {v}"
        ))
    };
    match v.cast::<PyString>() {
        Ok(s) => match &*s.to_cow()? {
            "auto" => Ok(Memo::Auto),
            "on" => Ok(Memo::On),
            "off" => Ok(Memo::Off),
            _ => Err(bad()),
        },
        Err(_) => Err(PyTypeError::new_err(format!(
            "memo must be a str or a bool, not {}",
            v.get_type().name()?
        ))),
    }
}

/// `memo_order=`, as `--memo-order` takes it.
pub fn order_arg(v: Option<&str>) -> PyResult<Option<Order>> {
    match v {
        None => Ok(None),
        Some("declared") => Ok(Some(Order::Declared)),
        Some("band") => Ok(Some(Order::Band)),
        Some("mrv") => Ok(Some(Order::Mrv)),
        Some(other) => Err(PyValueError::new_err(format!(
            "memo_order must be \"declared\", \"band\" or \"mrv\", not {other:?}"
        ))),
    }
}

/// The validated task of `request` for `core`: the refusals of `Task::new` and
/// `Task::fit`, with their codes, as `ModelError`.
pub fn task(py: Python<'_>, core: &Core, request: &Request) -> PyResult<Task> {
    let task = Task::new(request).map_err(|r| Failure::one(*r).into_err(py))?;
    let objective = core.objective.is_some();
    let traits = Traits {
        objective,
        file: core.source.knuth,
        symmetry: core.matrix.symmetry.is_some(),
        // A record's model is one instance: the data file is read on this side.
        data: false,
        costs_file: core.source.knuth && objective,
    };
    task.fit(&traits)
        .map_err(|r| Failure::one(*r).into_err(py))?;
    Ok(task)
}

/// The time and node limits of `limits` in a request.
pub fn limited(limits: &Limits, request: Request) -> PyResult<Request> {
    Ok(Request {
        time_limit: limits.duration()?,
        node_limit: limits.nodes,
        ..request
    })
}

/// Keeps the solutions the runner shows (the draws of a sample).
#[derive(Default)]
struct Kept(Vec<Vec<OptionId>>);

impl Sink for Kept {
    fn solution(&mut self, chosen: &[OptionId]) -> Flow {
        self.0.push(chosen.to_vec());
        Flow::Continue
    }
}

/// Runs `task` on `core` on a worker thread (Ctrl-C stops it): the answer and the
/// solutions shown.
fn run(py: Python<'_>, core: &Core, task: Task) -> PyResult<(Answer, Vec<Vec<OptionId>>)> {
    let inst = Instance {
        compiled: Arc::clone(&core.matrix.compiled),
        forced: core.forced.clone(),
        objective: core.objective,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let got = on_thread(py, &stop, move || {
        let mut kept = Kept::default();
        let answer = Runner::new(task).with_interrupt(flag).run(&inst, &mut kept);
        answer.map(|a| (a, kept.0))
    })?;
    got.map_err(|f| failure(py, core, f))
}

/// The `ModelError` of a run that gave no answer, with the command line's report.
fn failure(py: Python<'_>, core: &Core, f: RunFailure) -> PyErr {
    let p = &core.matrix.problem;
    let report = match f {
        RunFailure::Clash(c) => clash_report(&core.src, p, &c),
        RunFailure::Unsupported(u) => unsupported_report(&core.src, p, &u),
        RunFailure::Refused(e) => refusal_report(&core.src, p, &e),
        RunFailure::Report(r) => *r,
        // Only a sink that reads files reports on its own, and this one reads none.
        RunFailure::Reported => {
            return PyValueError::new_err("the run failed and said why on its own");
        }
    };
    Failure::one(report).into_err(py)
}

/// Counts `core`'s solutions as `dlxc run --count` does with the task's `--memo`: by
/// memo when it is on (or when the probe of `auto` finds that states repeat), else by
/// visiting every solution on the task's threads. The exact count as a Python `int`,
/// however large.
pub fn count<'py>(py: Python<'py>, core: &Core, task: Task) -> PyResult<Bound<'py, PyAny>> {
    match run(py, core, task)?.0 {
        Answer::Memo(m) => match m.end {
            End::Cut(Limit::Interrupted) => Err(PyKeyboardInterrupt::new_err(())),
            End::Cut(limit) => Err(cut(limit, &m.count, m.stats.nodes)),
            End::Exhausted | End::Stopped => py_int(py, &m.count),
        },
        Answer::Searched { outcome, .. } => {
            let s = outcome.stats;
            Ok(counted(outcome.end, s.solutions, s.nodes)?
                .into_pyobject(py)?
                .into_any())
        }
        // The caller counts a model with an objective without the runner (every
        // solution, not the optimal ones): this arm only keeps the match whole.
        Answer::Optimized(o) => {
            let n = o.solutions.len() as u128;
            Ok(counted(o.end, n, o.stats.nodes)?
                .into_pyobject(py)?
                .into_any())
        }
    }
}

/// Draws the task's `--sample K` solutions of `core`, each uniformly from all of them
/// (weighted by the exact memo counts), in the order drawn: none when there is no
/// solution. A limit that cuts the count short draws nothing and raises
/// `LimitReached` with the count so far.
pub fn sample(py: Python<'_>, core: &Arc<Core>, task: Task) -> PyResult<Vec<Solution>> {
    let (answer, drawn) = run(py, core, task)?;
    let Answer::Memo(m) = answer else {
        // The task asks for the memo outright (`--sample`), so the runner never
        // answers otherwise; should that change, the caller hears it.
        return Err(PyValueError::new_err(
            "the sample was not drawn by the memo counts",
        ));
    };
    match m.end {
        End::Cut(Limit::Interrupted) => Err(PyKeyboardInterrupt::new_err(())),
        End::Cut(limit) => Err(cut(limit, &m.count, m.stats.nodes)),
        End::Exhausted | End::Stopped => Ok(drawn.iter().map(|s| Solution::new(core, s)).collect()),
    }
}

/// The task's `--best K` solutions of `core`'s objective, in order of value.
pub fn best(py: Python<'_>, core: &Arc<Core>, task: Task) -> PyResult<Optimum> {
    let (answer, _) = run(py, core, task)?;
    match (answer, core.objective) {
        (Answer::Optimized(o), Some(objective)) => optimum(core, objective, &o),
        // The runner refuses `--best` without an objective (E0922) before it searches.
        _ => Err(PyValueError::new_err(
            "the k best were not found by branch and bound",
        )),
    }
}
