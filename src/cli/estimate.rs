//! `dlxc estimate MODEL` and `dlxc solve FILE --estimate`: how big is the tree?
//!
//! First a short real search: a tree it finishes is counted, not estimated, and one it
//! does not finish gives the engine's speed on this problem. Then Knuth's random probes
//! ([`crate::solve::estimate`]) estimate the nodes and solutions, and the speed turns
//! the nodes into a time on one thread.

use std::path::Path;
use std::time::Duration;

use super::progress::{duration, grouped, metric};
use super::{EXIT_BAD_INPUT, EXIT_SOLVED, EstimateArgs, ModelArgs, Out, report};
use crate::diag::{Diag, Diagnostics};
use crate::lower::Instance;
use crate::solve::estimate::{Mean, Probes, estimate};
use crate::solve::{End, Flow, Objective, Optimizer, SearchConfig, Solver};
use crate::source::SourceFile;

/// How long the real search runs before probing starts.
const TRIAL: Duration = Duration::from_millis(200);
/// How long the probes run, unless `--probes` says how many.
const PROBING: Duration = Duration::from_millis(300);

/// `dlxc estimate MODEL`: the tree of the model's defaults (or first data record).
pub fn model(o: &mut Out<'_>, m: &ModelArgs, e: &EstimateArgs) -> u8 {
    crate::cli::busy(Some(format!("compiling {}", m.model.display())));
    let Some((src, inst, goal)) = super::run::first_instance(o, m) else {
        return EXIT_BAD_INPUT;
    };
    tree(o, &src, &inst, goal, e)
}

/// `dlxc solve FILE --estimate`.
pub fn file(o: &mut Out<'_>, file: Option<&Path>, as_matrix: bool, e: &EstimateArgs) -> u8 {
    let Some((src, inst)) = super::solve::read_problem(o, file, as_matrix) else {
        return EXIT_BAD_INPUT;
    };
    // A file with costs is optimized (DLX5), as `dlxc solve` does.
    let goal = inst
        .families
        .problem
        .has_costs()
        .then_some(Objective::MinimizeCost);
    tree(o, &src, &inst, goal, e)
}

/// Counts or estimates the tree of `inst` and prints what it found. With an objective,
/// the branch and bound search is tried first: it is what `dlxc run` does.
fn tree(
    o: &mut Out<'_>,
    src: &SourceFile,
    inst: &Instance,
    goal: Option<Objective>,
    e: &EstimateArgs,
) -> u8 {
    let problem = &inst.families.problem;
    if let Some(goal) = goal {
        match optimize_briefly(o, src, inst, goal) {
            Some(true) => return EXIT_SOLVED,
            Some(false) => {}
            None => return EXIT_BAD_INPUT,
        }
    }
    let mut solver = match Solver::with_engine(problem, e.engine) {
        Ok(s) => s,
        Err(u) => {
            let r = super::optimize::unsupported_report(src, inst, &u);
            report(o, &Diagnostics::from(Box::new(r) as Diag));
            return EXIT_BAD_INPUT;
        }
    };
    crate::cli::busy(None);
    let trial = SearchConfig {
        count_only: true,
        time_limit: Some(TRIAL),
        interrupt: Some(super::interrupt_flag()),
        ..SearchConfig::default()
    };
    let out = match solver.search(&inst.forced, &trial, &mut |_| Flow::Continue) {
        Ok(out) => out,
        Err(clash) => {
            let r = super::run::clash_report(src, inst, &clash);
            report(o, &Diagnostics::from(Box::new(r) as Diag));
            return EXIT_BAD_INPUT;
        }
    };
    let st = out.stats;
    if out.end == End::Exhausted {
        o.line(&format!(
            "exact: {} solution{}, {} nodes (the whole search took {:.3} s)",
            grouped(st.solutions),
            if st.solutions == 1 { "" } else { "s" },
            grouped(u128::from(st.nodes)),
            st.elapsed.as_secs_f64()
        ));
        return EXIT_SOLVED;
    }
    let speed = st.nodes as f64 / st.elapsed.as_secs_f64().max(1e-9);
    let probes = e.probes.map_or(Probes::Within(PROBING), Probes::Count);
    let Some(found) = estimate(&mut solver, &inst.forced, probes, e.seed) else {
        super::count::refuse(
            o,
            "estimate",
            &format!(
                "only dancing cells and bitsets can be probed, and this problem needs {}; \
                 in {:.1} s \
                 its search made {} nodes and found {} solutions",
                solver.engine_name(),
                st.elapsed.as_secs_f64(),
                grouped(u128::from(st.nodes)),
                grouped(st.solutions)
            ),
            "count with a --time-limit instead: `--count --time-limit 60` says how far \
             a minute gets",
        );
        return EXIT_BAD_INPUT;
    };
    let found = match found {
        Ok(found) => found,
        Err(clash) => {
            let r = super::run::clash_report(src, inst, &clash);
            report(o, &Diagnostics::from(Box::new(r) as Diag));
            return EXIT_BAD_INPUT;
        }
    };
    o.line(&format!(
        "estimate from {} random probes (seed {}):",
        grouped(found.probes as u128),
        e.seed
    ));
    o.line(&format!("  nodes      {}", spread(found.nodes)));
    o.line(&format!("  solutions  {}", spread(found.solutions)));
    o.line(&format!(
        "  time       about {} on one thread, at the {} nodes/s of a {:.1} s trial",
        duration(found.nodes.mean / speed),
        metric(speed),
        st.elapsed.as_secs_f64()
    ));
    if found.solutions.mean == 0.0 && st.solutions > 0 {
        o.line("  (the probes met no solution, but the trial found some: the estimate is low)");
    }
    EXIT_SOLVED
}

/// Runs the branch and bound search for [`TRIAL`]; `Some(true)` when it finished (and
/// said so), `Some(false)` when the plain tree is to be estimated instead (said too).
fn optimize_briefly(
    o: &mut Out<'_>,
    src: &SourceFile,
    inst: &Instance,
    goal: Objective,
) -> Option<bool> {
    let mut engine = match Optimizer::new(&inst.families.problem, goal) {
        Ok(x) => x,
        Err(e) => {
            let r = super::optimize::refusal_report(src, inst, &e);
            report(o, &Diagnostics::from(Box::new(r) as Diag));
            return None;
        }
    };
    let trial = SearchConfig {
        time_limit: Some(TRIAL),
        interrupt: Some(super::interrupt_flag()),
        ..SearchConfig::default()
    };
    let found = match engine.solve(&inst.forced, false, &trial, &mut |_, _| {}) {
        Ok(found) => found,
        Err(clash) => {
            let r = super::run::clash_report(src, inst, &clash);
            report(o, &Diagnostics::from(Box::new(r) as Diag));
            return None;
        }
    };
    let st = found.stats;
    if found.optimal {
        let value = found
            .value
            .map_or("no solution".to_string(), |v| format!("the optimum is {v}"));
        o.line(&format!(
            "exact: {value}, found and proved in {} nodes (the whole search took {:.3} s)",
            grouped(u128::from(st.nodes)),
            st.elapsed.as_secs_f64()
        ));
        return Some(true);
    }
    o.line(&format!(
        "the branch and bound search did not end in {:.1} s ({} nodes); the tree without          its bound:",
        st.elapsed.as_secs_f64(),
        grouped(u128::from(st.nodes))
    ));
    Some(false)
}

/// `3.1e10 ± 2.3%`, or a plain number when it is small.
fn spread(m: Mean) -> String {
    let value = if m.mean < 1e6 {
        format!("{:.0}", m.mean)
    } else {
        format!("{:.2e}", m.mean)
    };
    if m.mean > 0.0 {
        format!("{value} ± {:.1}%", 100.0 * m.std_error / m.mean)
    } else {
        value
    }
}
