//! Searching a problem up to its symmetry group: the ordinary search, on the smaller
//! problem of a [`Plan`], with a filter that keeps one solution of each class.
//!
//! The command line (`--up-to-symmetry`) and the Python package both search through
//! [`search`], so they count alike.

use crate::diag::Code;
use crate::diag::report::Report;
use crate::problem::OptionId;
use crate::solve::{Clash, EngineChoice, Flow, Outcome, SearchConfig, Solver, Unsupported};
use crate::symmetry::orbits::Plan;

/// The help of E0930 for a model: how to declare its symmetries.
pub const DECLARE_SYMMETRIES: &str = "declare the board's symmetries as maps of items, one declaration for each generator, such as a mirror: `symmetry cell[r, c] -> cell[r, cols - 1 - c]` (see `dlxc explain E0930`)";

/// E0930: a search up to symmetry (asked for as `asked`) of something with no
/// declared symmetries (`why`), with `help`.
pub fn no_symmetry(asked: &str, why: &str, help: &str) -> Report {
    Report::error(
        Code::E0930,
        format!("{asked} needs declared symmetries: {why}"),
    )
    .help(help)
}

/// What is shown each kept solution, as ids of the original problem.
pub type Show<'a> = &'a mut dyn FnMut(&[OptionId]) -> Flow;

/// What a search up to symmetry found: the search's outcome, its solutions counted
/// one per class, and what it ran.
#[derive(Clone, Debug)]
pub struct Classes {
    /// The outcome; `stats.solutions` counts classes, not the engine's solutions.
    pub outcome: Outcome,
    /// The order of the group the classes are of.
    pub order: usize,
    /// The engine that searched.
    pub engine: &'static str,
}

/// Searches a problem up to its group, as `plan` ([`Plan::new`]) lays it out, on
/// `threads` threads, keeping at most `wanted` classes (`None`: all). Each kept
/// solution is shown to `show` (as ids of the planned problem's original) when there
/// is one; a count passes `None`. The configuration's own solution limit is ignored,
/// since it would count the solutions filtered out too.
pub fn search(
    plan: &Plan,
    engine: EngineChoice,
    config: &SearchConfig,
    threads: usize,
    wanted: Option<u128>,
    mut show: Option<Show<'_>>,
) -> Result<Result<Classes, Unsupported>, Clash> {
    let mut solver = match Solver::with_engine(&plan.problem, engine) {
        Ok(sv) => sv,
        Err(e) => return Ok(Err(e)),
    };
    let name = solver.engine_name();
    let cfg = SearchConfig {
        count_only: false,
        max_solutions: None,
        ..config.clone()
    };
    let mut kept: u128 = 0;
    let mut ids = Vec::new();
    let mut visit = |chosen: &[OptionId]| {
        if !plan.keep(chosen, &mut ids) {
            return Flow::Continue;
        }
        kept += 1;
        let flow = match show.as_mut() {
            Some(show) => {
                let original: Vec<OptionId> = chosen.iter().map(|&o| plan.original(o)).collect();
                show(&original)
            }
            None => Flow::Continue,
        };
        if wanted.is_some_and(|w| kept >= w) {
            Flow::Stop
        } else {
            flow
        }
    };
    let mut outcome =
        crate::solve::parallel::search(&mut solver, &plan.forced, &cfg, threads, &mut visit)?;
    outcome.stats.solutions = kept;
    Ok(Ok(Classes {
        outcome,
        order: plan.order,
        engine: name,
    }))
}
