//! `dlxc solve`: a problem in Knuth's text format or a 0/1 matrix, straight to the engine.
//!
//! A problem whose options have costs (Knuth's DLX5 `|n` tokens) is a DLX5 problem: it
//! is optimized for the least total cost, printed as `dlxc run` prints a `minimize
//! cost` model, never searched as plain exact cover.

use std::path::Path;
use std::rc::Rc;

use crate::cli::count::{Failed, Whose};
use crate::cli::{
    EXIT_BAD_INPUT, EXIT_CUT_SHORT, EXIT_NO_SOLUTION, EXIT_SOLVED, Out, SearchArgs, read_source,
    report, search_config,
};
use crate::diag::{Diag, Diagnostics};
use crate::format::{ec, knuth, matrix};
use crate::lower::Instance;
use crate::lower::family::Families;
use crate::problem::{OptionId, Problem};
use crate::render::json;
use crate::solve::{Clash, End, Flow, Objective, Optimizer, Outcome, Solver};
use crate::source::SourceFile;

/// Runs `dlxc solve`.
pub fn solve(o: &mut Out<'_>, file: Option<&Path>, as_matrix: bool, s: &SearchArgs) -> u8 {
    if s.up_to_symmetry {
        super::symmetry::no_symmetry(
            o,
            "a problem file has no way to declare them",
            "write the problem as a `.dlx` model with `symmetry` declarations and run it with `dlxc run` (see `dlxc explain E0930`)",
        );
        return EXIT_BAD_INPUT;
    }
    let Some((src, inst)) = read_problem(o, file, as_matrix) else {
        return EXIT_BAD_INPUT;
    };
    let searched = if inst.families.problem.has_costs() {
        if let Some(option) = super::run::count_only_option(s) {
            super::count::refuse(
                o,
                option,
                "a file with costs is optimized, not counted",
                "leave the option out: a file with costs is optimized on one thread",
            );
            return EXIT_BAD_INPUT;
        }
        least_cost(o, &inst, &src, s)
    } else {
        exact_cover(o, &inst, &src, as_matrix, s)
    };
    // With nothing forced no two forced options can clash; should that ever change,
    // the clash is reported as what it is rather than as an answer.
    searched.unwrap_or_else(|clash| {
        let r = super::run::clash_report(&src, &inst, &clash);
        report(o, &Diagnostics::from(Box::new(r) as Diag));
        EXIT_BAD_INPUT
    })
}

/// Reads a problem file (Knuth's format, or a 0/1 matrix) as an instance with nothing
/// forced; `None` when a diagnostic was printed instead.
pub(crate) fn read_problem(
    o: &mut Out<'_>,
    file: Option<&Path>,
    as_matrix: bool,
) -> Option<(SourceFile, Instance)> {
    let name = file.map_or_else(|| "<stdin>".into(), |p| p.display().to_string());
    crate::cli::busy(Some(format!("reading {name}")));
    let src = read_source(o, file)?;
    let parsed = if as_matrix {
        matrix::read(&src)
    } else if ec::looks_like(src.text()) {
        ec::read(&src)
    } else {
        knuth::read(&src)
    };
    let problem = match parsed {
        Ok(p) => p,
        Err(diags) => {
            report(o, &diags);
            return None;
        }
    };
    // The engines and the printing of `minimize cost` models take an instance; nothing
    // is forced in a file of options.
    let inst = Instance {
        families: Rc::new(Families {
            problem,
            ..Families::default()
        }),
        forced: Vec::new(),
    };
    Some((src, inst))
}

/// Searches a plain problem for exact covers (with colors and multiplicities).
fn exact_cover(
    o: &mut Out<'_>,
    inst: &Instance,
    src: &SourceFile,
    as_matrix: bool,
    s: &SearchArgs,
) -> Result<u8, Clash> {
    let problem = &inst.families.problem;
    let mut solver = match Solver::with_engine(problem, s.engine) {
        Ok(s) => s,
        Err(e) => {
            let r = super::optimize::unsupported_report(src, inst, &e);
            report(o, &Diagnostics::from(Box::new(r) as Diag));
            return Ok(EXIT_BAD_INPUT);
        }
    };
    let config = search_config(s);
    crate::cli::busy(None);
    let (outcome, fields) = if s.count {
        let whose = Whose {
            source: src.name(),
            params: &[],
        };
        match super::count::count(o, &mut solver, problem, &inst.forced, &config, s, whose) {
            Ok(c) => (c.outcome, c.fields),
            Err(Failed::Clash(c)) => return Err(c),
            Err(Failed::Reported) => return Ok(EXIT_BAD_INPUT),
        }
    } else {
        let mut printed = 0u64;
        let mut visit = |chosen: &[OptionId]| {
            print_solution(o, problem, chosen, as_matrix, s.json, printed);
            printed += 1;
            // Nobody reads the rest: stop at once rather than search on.
            if o.broken_pipe() {
                Flow::Stop
            } else {
                Flow::Continue
            }
        };
        let threads = s.listing_threads();
        let found = crate::solve::parallel::search(
            &mut solver,
            &inst.forced,
            &config,
            threads,
            &mut visit,
        )?;
        (found, Vec::new())
    };
    Ok(finish(
        o,
        &outcome,
        s,
        as_matrix,
        solver.engine_name(),
        None,
        &fields,
    ))
}

/// A DLX5 problem: the least total cost over all solutions (an option without a cost
/// token costs 0), through the branch-and-bound engine of `minimize cost` models.
fn least_cost(
    o: &mut Out<'_>,
    inst: &Instance,
    src: &SourceFile,
    s: &SearchArgs,
) -> Result<u8, Clash> {
    let mut engine = match Optimizer::new(&inst.families.problem, Objective::MinimizeCost) {
        Ok(e) => e,
        Err(e) => {
            let r = super::optimize::refusal_report(src, inst, &e);
            report(o, &Diagnostics::from(Box::new(r) as Diag));
            return Ok(EXIT_BAD_INPUT);
        }
    };
    let config = search_config(s);
    crate::cli::busy(None);
    super::optimize::solve_record(o, &mut engine, inst, s, None, &config).map(|a| a.code)
}

fn print_solution(
    o: &mut Out<'_>,
    problem: &Problem,
    chosen: &[OptionId],
    as_matrix: bool,
    as_json: bool,
    index: u64,
) {
    let labels: Vec<String> = if as_matrix {
        let mut rows: Vec<u32> = chosen.iter().map(|id| id.0 + 1).collect();
        rows.sort_unstable();
        rows.iter().map(u32::to_string).collect()
    } else {
        chosen.iter().map(|&id| problem.option_label(id)).collect()
    };
    if as_json {
        o.line(&json::solution(&labels, &[]));
    } else if as_matrix {
        o.line(&labels.join(" "));
    } else {
        if index > 0 {
            o.line("");
        }
        for l in &labels {
            o.line(l);
        }
    }
}

/// Prints the end of a search (count, statistics, JSON summary, cut-short notice) and
/// returns the exit code. `record` is the data record's index, if there is one: it goes
/// into the JSON summary and before the statistics.
pub(crate) fn finish(
    o: &mut Out<'_>,
    outcome: &Outcome,
    s: &SearchArgs,
    as_matrix: bool,
    engine: &str,
    record: Option<Tag<'_>>,
    fields: &[(&'static str, serde_json::Value)],
) -> u8 {
    let st = &outcome.stats;
    let complete = !matches!(outcome.end, End::Cut(_));
    if s.json {
        let summary = json::Summary {
            solutions: st.solutions,
            nodes: st.nodes,
            updates: st.updates,
            complete,
            seconds: st.elapsed.as_secs_f64(),
        };
        let mut extra = record_field(record);
        extra.extend(fields.iter().cloned());
        o.line(&json::summary(&summary, &extra));
    } else if s.count {
        o.line(&count_text(outcome));
    } else if st.solutions == 0 && complete {
        o.line(if let Some(none) = &s.none {
            none
        } else if as_matrix {
            "No Solution!"
        } else {
            "No solution"
        });
    }
    if s.stats {
        o.note(&stats_line(st, engine, record));
    }
    if let End::Cut(limit) = &outcome.end {
        o.note(&cut_notice(*limit, st));
    }
    exit_code(outcome)
}

/// A data record as the output names it: its index in the file, and the name its
/// header gives it (`=== NAME`), if the file names its records.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tag<'a> {
    /// 0-based index of the record in the file.
    pub index: usize,
    /// The record's name.
    pub name: Option<&'a str>,
}

impl std::fmt::Display for Tag<'_> {
    /// `3`, or `3 (93_9x9)` for a named record.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.name {
            Some(name) => write!(f, "{} ({name})", self.index),
            None => write!(f, "{}", self.index),
        }
    }
}

/// The `"record": K` field of a data record's JSON lines (none without data), and its
/// `"name"` when it has one.
pub(crate) fn record_field(record: Option<Tag<'_>>) -> Vec<(&'static str, serde_json::Value)> {
    let Some(tag) = record else {
        return Vec::new();
    };
    let mut out = vec![("record", serde_json::json!(tag.index))];
    if let Some(name) = tag.name {
        out.push(("name", serde_json::json!(name)));
    }
    out
}

/// The `--stats` line, prefixed with `record K: ` (`record K (NAME): `) for a data record.
pub(crate) fn stats_line(
    st: &crate::solve::Stats,
    engine: &str,
    record: Option<Tag<'_>>,
) -> String {
    let stats = super::output_stats(st, engine);
    match record {
        Some(k) => format!("record {k}: {stats}"),
        None => stats,
    }
}

/// The exit code of a search: cut short by a limit or Ctrl-C means the answer printed
/// is incomplete (whatever was found before), otherwise solved or no solution.
/// Stopping at `--limit N` answers the question asked, so it is not cut short.
pub(crate) fn exit_code(outcome: &Outcome) -> u8 {
    match outcome.end {
        End::Cut(_) => EXIT_CUT_SHORT,
        _ if outcome.stats.solutions > 0 => EXIT_SOLVED,
        _ => EXIT_NO_SOLUTION,
    }
}

/// The `--count` line: the number of solutions, or `N+` (at least N) when the search
/// did not run to its end, cut short by a limit or stopped at `--limit N`.
pub(crate) fn count_text(outcome: &Outcome) -> String {
    let n = outcome.stats.solutions;
    match outcome.end {
        End::Exhausted => n.to_string(),
        End::Stopped | End::Cut(_) => format!("{n}+"),
    }
}

/// The line that says a search was cut short and how far it got.
pub(crate) fn cut_notice(limit: crate::solve::Limit, st: &crate::solve::Stats) -> String {
    format!(
        "search cut short ({}) after {} nodes with {} solution{} found: the answer is incomplete",
        limit_text(limit),
        st.nodes,
        st.solutions,
        if st.solutions == 1 { "" } else { "s" }
    )
}

pub(crate) fn limit_text(limit: crate::solve::Limit) -> &'static str {
    match limit {
        crate::solve::Limit::Nodes => "node limit reached",
        crate::solve::Limit::Time => "time limit reached",
        crate::solve::Limit::Interrupted => "interrupted",
    }
}
