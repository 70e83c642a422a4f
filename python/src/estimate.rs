//! `Model.estimate`: how big is the count's search tree? What `dlxc estimate` does,
//! composed from the library's parts: a short real search, whose counts are exact when
//! it finishes and which otherwise measures the engine's speed; then Knuth's random
//! probes ([`dlxc::solve::estimate`]), their nodes turned into seconds at that speed.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use dlxc::diag::report::Report;
use dlxc::solve::estimate::{self as knuth, Mean, Probes};
use dlxc::solve::{Clash, End, Flow, Limit, SearchConfig, Stats};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

use crate::core::Core;
use crate::errors::Failure;
use crate::search::{clash, on_thread};
use dlxc::diag::Code;

/// How long the real search runs before probing starts (`dlxc estimate`'s trial).
const TRIAL: Duration = Duration::from_millis(200);
/// How long the probes run unless their number is given (as `dlxc estimate`'s).
const PROBING: Duration = Duration::from_millis(300);

/// The size of a search tree: exact when the trial search finished, else Knuth's
/// estimate from random probes, with standard errors.
#[pyclass(frozen, get_all, module = "dlxc")]
#[derive(Clone, Debug)]
pub struct Estimate {
    /// The trial search finished: `count` and the nodes are exact.
    pub exact: bool,
    /// The exact number of solutions when `exact`, else `None`.
    pub count: Option<u128>,
    /// Nodes (counted as the command line's `--stats` counts them): exact, or the mean
    /// of the probes.
    pub nodes: f64,
    /// The standard error of `nodes` (0 when exact).
    pub nodes_error: f64,
    /// Solutions: exact, or the mean of the probes.
    pub solutions: f64,
    /// The standard error of `solutions` (0 when exact).
    pub solutions_error: f64,
    /// Probes made (0 when exact).
    pub probes: usize,
    /// The seed the probes were drawn from.
    pub seed: u64,
    /// Seconds the whole search takes on one thread: the trial's when exact, else the
    /// estimated nodes at the trial's speed.
    pub seconds: f64,
    /// Nodes a second of the trial search.
    pub speed: f64,
    /// The trial search's seconds, nodes and solutions.
    pub trial_seconds: f64,
    /// Nodes of the trial search.
    pub trial_nodes: u64,
    /// Solutions the trial search found.
    pub trial_solutions: u128,
}

impl Estimate {
    /// What the trial search alone says; the probes fill in the rest.
    fn trial(st: &Stats, seed: u64, exact: bool) -> Estimate {
        let seconds = st.elapsed.as_secs_f64();
        Estimate {
            exact,
            count: exact.then_some(st.solutions),
            nodes: st.nodes as f64,
            nodes_error: 0.0,
            solutions: st.solutions as f64,
            solutions_error: 0.0,
            probes: 0,
            seed,
            seconds,
            speed: st.nodes as f64 / seconds.max(1e-9),
            trial_seconds: seconds,
            trial_nodes: st.nodes,
            trial_solutions: st.solutions,
        }
    }
}

#[pymethods]
impl Estimate {
    fn __repr__(&self) -> String {
        if self.exact {
            return format!(
                "Estimate(exact: {} solutions, {} nodes, {:.3} s)",
                self.solutions, self.nodes, self.seconds
            );
        }
        let spread = |m: f64, e: f64| {
            let pct = if m > 0.0 { 100.0 * e / m } else { 0.0 };
            format!("{m:.3e} ± {pct:.1}%")
        };
        format!(
            "Estimate({} probes: nodes {}, solutions {}, about {:.0} s on one thread)",
            self.probes,
            spread(self.nodes, self.nodes_error),
            spread(self.solutions, self.solutions_error),
            self.seconds
        )
    }
}

/// What the search thread found.
enum Found {
    /// The trial ended, whole or interrupted.
    Trial(Stats, End),
    /// The trial ran out of time and the probes estimated the tree.
    Probed(Stats, knuth::Estimate),
    /// The trial ran out of time and the engine cannot probe.
    Unprobed(Stats, &'static str),
}

/// `Model.estimate` of `core`.
pub fn estimate(
    py: Python<'_>,
    core: &Core,
    probes: Option<usize>,
    seed: u64,
) -> PyResult<Estimate> {
    if probes == Some(0) {
        return Err(PyValueError::new_err("probes must be at least 1"));
    }
    let probes = probes.map_or(Probes::Within(PROBING), Probes::Count);
    let mut solver = core.solver(py)?;
    let stop = Arc::new(AtomicBool::new(false));
    let trial = SearchConfig {
        count_only: true,
        time_limit: Some(TRIAL),
        interrupt: Some(Arc::clone(&stop)),
        ..SearchConfig::default()
    };
    let forced = core.forced.clone();
    let found = on_thread(py, &stop, move || -> Result<Found, Clash> {
        let out = solver.search(&forced, &trial, &mut |_| Flow::Continue)?;
        if matches!(out.end, End::Exhausted | End::Cut(Limit::Interrupted)) {
            return Ok(Found::Trial(out.stats, out.end));
        }
        Ok(match knuth::estimate(&mut solver, &forced, probes, seed) {
            None => Found::Unprobed(out.stats, solver.engine_name()),
            Some(e) => Found::Probed(out.stats, e?),
        })
    })?
    .map_err(|c| clash(py, core, &c))?;
    match found {
        Found::Trial(_, End::Cut(Limit::Interrupted)) => Err(PyKeyboardInterrupt::new_err(())),
        Found::Trial(st, _) => Ok(Estimate::trial(&st, seed, true)),
        Found::Probed(st, e) => {
            let mut out = Estimate::trial(&st, seed, false);
            let Mean { mean, std_error } = e.nodes;
            out.nodes = mean;
            out.nodes_error = std_error;
            out.solutions = e.solutions.mean;
            out.solutions_error = e.solutions.std_error;
            out.probes = e.probes;
            out.seconds = mean / out.speed;
            Ok(out)
        }
        Found::Unprobed(st, engine) => {
            let r = Report::error(
                Code::E0922,
                format!(
                    "estimate cannot be used here: only dancing cells and bitsets can be \
                     probed, and \
                     this problem needs {engine}; in {:.1} s its search made {} nodes and \
                     found {} solutions",
                    st.elapsed.as_secs_f64(),
                    st.nodes,
                    st.solutions
                ),
            )
            .help(
                "count with a time_limit instead: `count(time_limit=60)` raises \
                 LimitReached with how far a minute gets",
            );
            Err(Failure::one(r).into_err(py))
        }
    }
}
