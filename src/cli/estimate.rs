//! `dlxc estimate MODEL` and `dlxc solve FILE --estimate`: how big is the tree?
//!
//! First a short real search: a tree it finishes is counted, not estimated, and one it
//! does not finish gives the engine's speed on this problem. Then Knuth's random probes
//! ([`crate::solve::estimate`]) estimate the nodes and solutions, and the speed turns
//! the nodes into a time on one thread.

use std::path::Path;

use super::progress::{duration, grouped, metric};
use super::{EXIT_BAD_INPUT, EXIT_SOLVED, EstimateArgs, ModelArgs, Out};
use crate::instance::Instance;
use crate::run::estimate::Estimated;
use crate::solve::estimate::Mean;
use crate::source::SourceFile;

/// `dlxc estimate MODEL`: the tree of the model's defaults (or first data record).
pub fn model(o: &mut Out<'_>, m: &ModelArgs, e: &EstimateArgs) -> u8 {
    crate::cli::busy(Some(format!("compiling {}", m.model.display())));
    let Some((src, inst)) = super::run::first_instance(o, m) else {
        return EXIT_BAD_INPUT;
    };
    tree(o, &src, &inst, e)
}

/// `dlxc solve FILE --estimate`.
pub fn file(o: &mut Out<'_>, file: Option<&Path>, as_matrix: bool, e: &EstimateArgs) -> u8 {
    let Some((src, inst)) = super::solve::read_problem(o, file, as_matrix) else {
        return EXIT_BAD_INPUT;
    };
    // A file with costs is optimized (DLX5), as `dlxc solve` does.
    tree(o, &src, &inst, e)
}

/// Counts or estimates the tree of `inst` and prints what it found.
fn tree(o: &mut Out<'_>, src: &SourceFile, inst: &Instance, e: &EstimateArgs) -> u8 {
    crate::cli::busy(None);
    let found = crate::run::estimate::run(
        inst,
        e.engine,
        e.probes,
        e.seed,
        Some(super::interrupt_flag()),
    );
    let found = match found {
        Ok(found) => found,
        Err(f) => {
            super::show::failure(o, src, &inst.compiled, f);
            return EXIT_BAD_INPUT;
        }
    };
    let (bound, st, found) = match found {
        Estimated::Optimum { value, stats } => {
            let value = value.map_or("no solution".to_string(), |v| format!("the optimum is {v}"));
            o.line(&format!(
                "exact: {value}, found and proved in {} nodes (the whole search took {:.3} s)",
                grouped(u128::from(stats.nodes)),
                stats.elapsed.as_secs_f64()
            ));
            return EXIT_SOLVED;
        }
        Estimated::Exact { bound, stats: st } => {
            bound_line(o, bound);
            o.line(&format!(
                "exact: {} solution{}, {} nodes (the whole search took {:.3} s)",
                grouped(st.solutions),
                if st.solutions == 1 { "" } else { "s" },
                grouped(u128::from(st.nodes)),
                st.elapsed.as_secs_f64()
            ));
            return EXIT_SOLVED;
        }
        Estimated::Probed {
            bound,
            trial,
            found,
        } => (bound, trial, found),
    };
    bound_line(o, bound);
    let speed = Estimated::speed(&st);
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

/// The line that says the branch and bound trial did not end, when there was one.
fn bound_line(o: &mut Out<'_>, bound: Option<crate::solve::Stats>) {
    if let Some(b) = bound {
        o.line(&format!(
            "the branch and bound search did not end in {:.1} s ({} nodes); the tree without \
         its bound:",
            b.elapsed.as_secs_f64(),
            grouped(u128::from(b.nodes))
        ));
    }
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
