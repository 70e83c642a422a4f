//! `dlxc run` on a model with an objective: one optimizing search per record, and how
//! its answer is printed.
//!
//! Text output: a first line `minimum count: 3` (`minimum cost: N`, `maximum cost: N`),
//! then the solution as usual (a painted grid, or its options one per line); with
//! `--all`, every optimal solution, separated by blank lines. A search cut short after
//! finding a solution prints `best count found: 3 (not proven minimal)` instead of the
//! first line, with a notice on stderr, and exits with 3. `--value` prints the value
//! line's number alone, one line per record: `3?` when a limit cut the search short
//! after finding value 3 (not proven optimal), `?` when it found none before. `--count`
//! prints the number of optimal solutions, marked the same way (`4?`), or `N+` when
//! `--limit N` is smaller than the count.

use serde_json::json;

use crate::cli::solve::{Tag, record_field, stats_line};
use crate::cli::{EXIT_CUT_SHORT, EXIT_NO_SOLUTION, EXIT_SOLVED, Out, SearchArgs};
use crate::diag::report::Report;
use crate::lower::Instance;
use crate::problem::OptionId;
use crate::render::{json as jsonl, option_lines, paint_grid};
use crate::solve::{Clash, End, Objective, Optimizer, Refused, SearchConfig, Unsupported};
use crate::source::SourceFile;

pub(crate) use crate::session::engine_objective;

/// `minimum count`, `minimum cost`, `maximum cost`: the words of the value line.
fn value_name(obj: Objective) -> (&'static str, &'static str, &'static str) {
    match obj {
        Objective::MinimizeCount => ("minimum", "count", "minimal"),
        Objective::MinimizeCost => ("minimum", "cost", "minimal"),
        Objective::MaximizeCost => ("maximum", "cost", "maximal"),
    }
}

/// What one record's optimizing search ended with: the exit code of the record and
/// whether a limit cut it short.
pub(crate) struct Answer {
    /// [`EXIT_SOLVED`], [`EXIT_NO_SOLUTION`] or [`EXIT_CUT_SHORT`].
    pub code: u8,
    /// Whether a limit (or Ctrl-C) ended the search.
    pub cut: bool,
}

/// Solves one record and prints its answer.
pub(crate) fn solve_record(
    o: &mut Out<'_>,
    engine: &mut Optimizer,
    inst: &Instance,
    s: &SearchArgs,
    record: Option<Tag<'_>>,
    config: &SearchConfig,
) -> Result<Answer, Clash> {
    let (word, what, adjective) = value_name(engine.objective());
    let problem = &inst.families.problem;
    let all = s.all || s.count || s.limit.is_some();
    let mut improve = |value: i64, chosen: &[OptionId]| {
        if s.verbose {
            let labels = option_lines(problem, chosen);
            o.note(&format!("found {what} {value}: {}", labels.join(" ")));
        }
    };
    let out = crate::solve::optimize::solve_on_threads(
        engine,
        &inst.forced,
        all,
        config,
        s.threads,
        &mut improve,
    )?;
    let cut = matches!(out.end, End::Cut(_));
    let shown = match s.limit {
        Some(k) => out
            .solutions
            .len()
            .min(usize::try_from(k).unwrap_or(usize::MAX)),
        None => out.solutions.len(),
    };
    if s.json {
        for sol in &out.solutions[..shown] {
            let mut extra = record_field(record);
            extra.push(("objective", json!(out.value)));
            o.picture(&inst.families, sol, record.map(|t| t.index));
            if let Some(g) = paint_grid(&inst.families, sol) {
                extra.push(("grid", json!(g)));
            }
            o.line(&jsonl::solution(&option_lines(problem, sol), &extra));
        }
        let summary = jsonl::Summary {
            solutions: out.solutions.len() as u128,
            nodes: out.stats.nodes,
            updates: out.stats.updates,
            complete: !cut,
            seconds: out.stats.elapsed.as_secs_f64(),
        };
        let mut extra = record_field(record);
        extra.push(("objective", json!(out.value)));
        extra.push(("optimal", json!(out.optimal && out.value.is_some())));
        o.line(&jsonl::summary(&summary, &extra));
    } else {
        match out.value {
            // One line per record with `--value` and `--count`, even with no answer.
            None if cut && (s.value || s.count) => o.line("?"),
            None if cut => {}
            None => o.line(s.none.as_deref().unwrap_or("No solution")),
            Some(v) if s.value => o.line(&if cut { format!("{v}?") } else { v.to_string() }),
            Some(_) if s.count => {
                let n = out.solutions.len();
                o.line(&match s.limit {
                    _ if cut => format!("{n}?"),
                    Some(k) if n as u128 > u128::from(k) => format!("{k}+"),
                    _ => n.to_string(),
                });
            }
            Some(v) => {
                if out.optimal {
                    o.line(&format!("{word} {what}: {v}"));
                } else {
                    o.line(&format!("best {what} found: {v} (not proven {adjective})"));
                }
                for (k, sol) in out.solutions[..shown].iter().enumerate() {
                    if k > 0 {
                        o.line("");
                    }
                    o.picture(&inst.families, sol, record.map(|t| t.index));
                    match paint_grid(&inst.families, sol) {
                        Some(rows) => rows.iter().for_each(|r| o.line(r)),
                        None => option_lines(problem, sol).iter().for_each(|l| o.line(l)),
                    }
                }
            }
        }
    }
    if s.stats {
        o.note(&stats_line(&out.stats, "branch and bound", record));
    }
    if let End::Cut(limit) = out.end {
        let found = match out.value {
            Some(v) => format!("the best {what} found is {v}, not proven {adjective}"),
            None => "no solution found yet".to_string(),
        };
        o.note(&format!(
            "search cut short ({}) after {} nodes: {found}",
            super::solve::limit_text(limit),
            out.stats.nodes
        ));
    }
    // A value not proven optimal is an incomplete answer, as is none found yet.
    let code = match out.value {
        _ if cut => EXIT_CUT_SHORT,
        Some(_) => EXIT_SOLVED,
        None => EXIT_NO_SOLUTION,
    };
    Ok(Answer { code, cut })
}

/// Why the engine refuses this instance, as a diagnostic pointing at the model.
pub(crate) fn refusal_report(src: &SourceFile, inst: &Instance, e: &Refused) -> Report {
    crate::session::reports::refusal_report(src, &inst.families.problem, e)
}

/// A diagnostic for what an engine cannot solve yet.
pub(crate) fn unsupported_report(src: &SourceFile, inst: &Instance, u: &Unsupported) -> Report {
    crate::session::reports::unsupported_report(src, &inst.families.problem, u)
}
