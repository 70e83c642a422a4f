//! How big is the tree? A short real search, then Knuth's random probes.
//!
//! A tree the trial finishes is counted, not estimated, and one it does not finish
//! gives the engine's speed on this problem. Then the probes
//! ([`crate::solve::estimate`]) estimate the nodes and solutions, and the speed turns
//! the nodes into a time on one thread. With an objective, the branch and bound search
//! is tried first: it is what a run does.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::Failure;
use crate::diag::Code;
use crate::diag::report::Report;
use crate::instance::Instance;
use crate::solve::estimate::{Estimate, Probes, estimate};
use crate::solve::{End, EngineChoice, Flow, Optimizer, SearchConfig, Solver, Stats};

/// How long the real search runs before probing starts.
pub const TRIAL: Duration = Duration::from_millis(200);
/// How long the probes run, unless the caller says how many.
pub const PROBING: Duration = Duration::from_millis(300);

/// What an estimate found.
#[derive(Clone, Debug)]
pub enum Estimated {
    /// The branch and bound search ended within the trial: the optimum (or `None`, no
    /// solution) is exact.
    Optimum {
        /// The optimal value.
        value: Option<i64>,
        /// Its search.
        stats: Stats,
    },
    /// The trial searched the whole tree: its counts are exact.
    Exact {
        /// The branch and bound trial that did not end, for a problem with an objective.
        bound: Option<Stats>,
        /// The whole search.
        stats: Stats,
    },
    /// The tree was probed.
    Probed {
        /// The branch and bound trial that did not end, for a problem with an objective.
        bound: Option<Stats>,
        /// The plain trial, whose speed turns nodes into time.
        trial: Stats,
        /// The probes' estimate.
        found: Estimate,
    },
}

impl Estimated {
    /// The nodes per second of the plain trial.
    pub fn speed(trial: &Stats) -> f64 {
        trial.nodes as f64 / trial.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Estimates the tree of `inst` on `engine`, with `probes` probes (or as many as fit
/// in [`PROBING`]) from `seed`.
pub fn run(
    inst: &Instance,
    engine: EngineChoice,
    probes: Option<usize>,
    seed: u64,
    interrupt: Option<Arc<AtomicBool>>,
) -> Result<Estimated, Failure> {
    let problem = &inst.compiled.problem;
    let mut bound = None;
    if let Some(goal) = inst.objective {
        let mut opt = Optimizer::new(problem, goal).map_err(Failure::Refused)?;
        let trial = SearchConfig {
            time_limit: Some(TRIAL),
            interrupt: interrupt.clone(),
            ..SearchConfig::default()
        };
        let found = opt.solve(&inst.forced, false, &trial, &mut |_, _| {})?;
        if found.optimal {
            return Ok(Estimated::Optimum {
                value: found.value,
                stats: found.stats,
            });
        }
        bound = Some(found.stats);
    }
    let mut solver = Solver::with_engine(problem, engine).map_err(Failure::Unsupported)?;
    let trial = SearchConfig {
        count_only: true,
        time_limit: Some(TRIAL),
        interrupt,
        ..SearchConfig::default()
    };
    let out = solver.search(&inst.forced, &trial, &mut |_| Flow::Continue)?;
    let st = out.stats;
    if out.end == End::Exhausted {
        return Ok(Estimated::Exact { bound, stats: st });
    }
    let probes = probes.map_or(Probes::Within(PROBING), Probes::Count);
    let Some(found) = estimate(&mut solver, &inst.forced, probes, seed) else {
        let r = Report::error(
            Code::E0922,
            format!(
                "estimate cannot be used here: only dancing cells and bitsets can be probed, \
                 and this problem needs {}; in {:.1} s its search made {} nodes and found {} \
                 solutions",
                solver.engine_name(),
                st.elapsed.as_secs_f64(),
                st.nodes,
                st.solutions
            ),
        )
        .help(
            "count with a --time-limit instead: `--count --time-limit 60` says how far a \
             minute gets",
        );
        return Err(Failure::Report(Box::new(r)));
    };
    Ok(Estimated::Probed {
        bound,
        trial: st,
        found: found?,
    })
}
