//! How the command line shows what a run finds: solutions as grids, option lines or
//! JSON Lines, the answer of a count or of an optimizing search, and the progress and
//! checkpoints of a long count ([`Shown`], the command line's [`Sink`]).
//!
//! Text output of an objective: a first line `minimum count: 3` (`minimum cost: N`,
//! `maximum cost: N`), then the solution as usual (a painted grid, or its options one
//! per line); with `--all`, every optimal solution, separated by blank lines. A search
//! cut short after finding a solution prints `best count found: 3 (not proven
//! minimal)` instead of the first line, with a notice on stderr, and exits with 3.
//! `--value` prints the value line's number alone, one line per record: `3?` when a
//! limit cut the search short after finding value 3 (not proven optimal), `?` when it
//! found none before. `--count` prints the number of optimal solutions, marked the same
//! way (`4?`), or `N+` when `--limit N` is smaller than the count.

use std::path::Path;

use serde_json::json;

use super::checkpoint;
use super::progress::Meter;
use super::{EXIT_CUT_SHORT, EXIT_NO_SOLUTION, EXIT_SOLVED, ProgressMode, SearchArgs, report};
use crate::cli::Out;
use crate::diag::{Diag, Diagnostics};
use crate::instance::{Compiled, Instance};
use crate::problem::{OptionId, Problem};
use crate::render::{json, json as jsonl, option_lines, paint_grid, write_grid};
use crate::run::{Answer, Failure, Kept, Resumed, Sink};
use crate::solve::parallel::Progress;
use crate::solve::{End, Flow, Objective, Optimum, Outcome};
use crate::source::SourceFile;
use crate::task::Shard;

/// What a count belongs to, for its checkpoints: the model or problem file as given on
/// the command line, and its parameters.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Whose<'a> {
    pub source: &'a str,
    pub params: &'a [String],
}

/// How a listing prints its solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Listing {
    /// A model's: grids, or option lines.
    Model,
    /// A problem file's: option lines as Knuth's programs print them, or row numbers
    /// of a 0/1 matrix.
    File {
        /// Whether the file is a 0/1 matrix.
        as_matrix: bool,
    },
}

/// The command line's sink: solutions printed as they come, the progress line, the
/// checkpoint file.
pub(crate) struct Shown<'o, 'w, 'a> {
    pub o: &'o mut Out<'w>,
    s: &'a SearchArgs,
    compiled: &'a Compiled,
    record: Option<Tag<'a>>,
    listing: Listing,
    whose: Whose<'a>,
    printed: u64,
    meter: Meter,
    /// Whether the latest checkpoint could not be written (each failure is reported
    /// at once), so that the end note never claims a save that failed.
    failed_save: bool,
    /// What the instance optimizes, if anything.
    objective: Option<Objective>,
}

impl<'o, 'w, 'a> Shown<'o, 'w, 'a> {
    /// A sink for one record's run.
    pub(crate) fn new(
        o: &'o mut Out<'w>,
        s: &'a SearchArgs,
        inst: &'a Instance,
        record: Option<Tag<'a>>,
        listing: Listing,
        whose: Whose<'a>,
    ) -> Shown<'o, 'w, 'a> {
        Shown {
            o,
            s,
            compiled: &inst.compiled,
            record,
            listing,
            whose,
            printed: 0,
            meter: Meter::new(s.progress),
            failed_save: false,
            objective: inst.objective,
        }
    }

    fn identity(&self, fingerprint: &str) -> checkpoint::Identity {
        checkpoint::Identity {
            problem: fingerprint.to_string(),
            source: self.whose.source.to_string(),
            params: self.whose.params.to_vec(),
            shard: self.s.shard.map(|x: Shard| x.to_string()),
        }
    }

    /// Prints the answer (after what the count left to say: its progress line
    /// cleared, a checkpoint that failed, where the checkpoint is) and returns the exit
    /// code.
    pub(crate) fn answer(&mut self, answer: &Answer) -> u8 {
        self.meter.clear();
        if let (Some(path), true, true) = (&self.s.checkpoint, answer.cut(), self.failed_save) {
            self.o.note(&format!(
                "the last checkpoint could not be written to {}: what is left is not saved",
                path.display()
            ));
        } else if let (Some(path), true) = (&self.s.checkpoint, answer.cut()) {
            let kept = if matches!(answer, Answer::Optimized(_)) {
                "the parts searched and their best solution are"
            } else {
                "the count so far and what is left are"
            };
            self.o.note(&format!(
                "{kept} in {}: `--resume {}` goes on from there",
                path.display(),
                path.display()
            ));
        }
        let as_matrix = self.listing == Listing::File { as_matrix: true };
        match answer {
            Answer::Searched {
                outcome,
                engine,
                fields,
            } => finish(
                self.o,
                outcome,
                self.s,
                as_matrix,
                engine,
                self.record,
                fields,
            ),
            Answer::Optimized(out) => {
                let goal = self.objective.unwrap_or(Objective::MinimizeCost);
                optimum(
                    self.o,
                    out,
                    &out.fields,
                    self.compiled,
                    goal,
                    self.s,
                    self.record,
                )
            }
            Answer::Memo(m) => super::memo::finish(self.o, m, self.s, self.record),
        }
    }
}

impl Sink for Shown<'_, '_, '_> {
    fn solution(&mut self, chosen: &[OptionId]) -> Flow {
        match self.listing {
            Listing::Model => show_solution(
                self.o,
                self.compiled,
                chosen,
                self.s,
                self.record,
                self.printed,
            ),
            Listing::File { as_matrix } => print_labels(
                self.o,
                &self.compiled.problem,
                chosen,
                as_matrix,
                self.s.json,
                self.printed,
            ),
        }
        self.printed += 1;
        // Nobody reads the rest: stop at once rather than search on.
        if self.o.broken_pipe() {
            Flow::Stop
        } else {
            Flow::Continue
        }
    }

    fn improved(&mut self, value: i64, chosen: &[OptionId]) {
        if let (true, Some(goal)) = (self.s.verbose, self.objective) {
            let what = goal.words().1;
            let labels = option_lines(&self.compiled.problem, chosen);
            self.o
                .note(&format!("found {what} {value}: {}", labels.join(" ")));
        }
    }

    fn shows_progress(&self) -> bool {
        self.s.progress != ProgressMode::Off
    }

    fn progress(&mut self, p: &Progress) {
        self.meter.show(p);
    }

    fn resume(
        &mut self,
        path: &Path,
        fingerprint: &str,
        options: usize,
    ) -> Result<Resumed, Failure> {
        let identity = self.identity(fingerprint);
        checkpoint::read(self.o, path, &identity, options).ok_or(Failure::Reported)
    }

    fn zdd(&mut self, path: &Path, zdd: &crate::solve::memo::zdd::Zdd) -> Result<(), Failure> {
        super::memo::write_zdd(path, zdd, &self.compiled.problem)
    }

    fn save(&mut self, path: &Path, fingerprint: &str, kept: Kept<'_>) {
        let identity = self.identity(fingerprint);
        match checkpoint::write(path, &identity, kept) {
            Ok(()) => self.failed_save = false,
            Err(e) => {
                // At once, not after the count: a count of hours must not run on
                // believing it is saved.
                self.meter.clear();
                report(self.o, &Diagnostics::from(e));
                self.failed_save = true;
            }
        }
    }
}

/// Reports why a run gave no answer. A clash of forced options is the record's
/// answer (no solution), and `true` comes back; anything else is bad input.
pub(crate) fn failure(o: &mut Out<'_>, src: &SourceFile, compiled: &Compiled, f: Failure) -> bool {
    use crate::session::reports;
    let problem = &compiled.problem;
    let (r, clash) = match f {
        Failure::Clash(c) => (reports::clash_report(src, problem, &c), true),
        Failure::Unsupported(u) => (reports::unsupported_report(src, problem, &u), false),
        Failure::Refused(e) => (reports::refusal_report(src, problem, &e), false),
        Failure::Report(r) => (*r, false),
        Failure::Reported => return false,
    };
    report(o, &Diagnostics::from(Box::new(r) as Diag));
    clash
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
        // A count stopped at `--limit N` is "at least N" (`N+` in text), not a count.
        let summary = json::Summary {
            solutions: st.solutions,
            nodes: st.nodes,
            updates: st.updates,
            complete: complete && !(s.count && outcome.end == End::Stopped),
            seconds: st.elapsed.as_secs_f64(),
        };
        let mut extra = record_field(record);
        extra.extend(fields.iter().cloned());
        // Why the search did not run to its end, in every mode.
        let limited_by = match outcome.end {
            End::Exhausted => None,
            End::Stopped => Some("limit"),
            End::Cut(crate::solve::Limit::Nodes) => Some("node limit"),
            End::Cut(crate::solve::Limit::Time) => Some("time limit"),
            End::Cut(crate::solve::Limit::Interrupted) => Some("interrupted"),
        };
        if let Some(why) = limited_by {
            extra.push(("limited_by", serde_json::json!(why)));
        }
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
        o.note(&cut_notice(*limit, st.nodes, &st.solutions.to_string()));
    }
    exit_code(outcome)
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
/// `solutions` is the count's digits: a memo count may have more than 128 bits.
pub(crate) fn cut_notice(limit: crate::solve::Limit, nodes: u64, solutions: &str) -> String {
    format!(
        "search cut short ({}) after {nodes} nodes with {solutions} solution{} found: the \
         answer is incomplete",
        limit.reason(),
        if solutions == "1" { "" } else { "s" }
    )
}

/// A solution of a problem file: its options' lines as Knuth's programs print them,
/// or its row numbers (from 1, sorted) for a 0/1 matrix.
fn print_labels(
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

/// The line `=== NAME` before the answer of a named record, as its header reads in
/// the data file; none with one line per record.
pub(crate) fn record_header(o: &mut Out<'_>, s: &SearchArgs, record: Option<Tag<'_>>) {
    if let Some(name) = record.and_then(|t| t.name)
        && !compact(s)
    {
        o.line(&format!("=== {name}"));
    }
}

/// Whether records print one line each (no blank line between them).
pub(crate) fn compact(s: &SearchArgs) -> bool {
    s.json || s.count || s.value
}

/// The answer line of a record that has no solution, or `error` for one that failed
/// (`failed`: bad input, reported on stderr), so every record has its line on stdout.
pub(crate) fn no_solution_line(
    o: &mut Out<'_>,
    s: &SearchArgs,
    record: Option<Tag<'_>>,
    goal: bool,
    failed: bool,
) {
    if s.json {
        // A record that failed was not answered: nothing about it is complete.
        let summary = jsonl::Summary {
            complete: !failed,
            ..Default::default()
        };
        let mut extra = record_field(record);
        if failed {
            extra.push(("failed", json!(true)));
        }
        if goal {
            // As for a search that found nothing: no value, so nothing is optimal.
            extra.push(("objective", serde_json::Value::Null));
            extra.push(("optimal", json!(false)));
        }
        o.line(&jsonl::summary(&summary, &extra));
    } else if failed {
        // Not "0" or the `--none` text: a reader of one line per record (a judge)
        // would take that for the record's answer.
        o.line("error");
    } else if s.count {
        o.line("0");
    } else {
        o.line(s.none.as_deref().unwrap_or("No solution"));
    }
}

/// Prints solution number `index` of a model's record: its grid when it paints one,
/// else its options one per line (a JSON line with `--json`), and its picture.
fn show_solution(
    o: &mut Out<'_>,
    compiled: &Compiled,
    chosen: &[OptionId],
    s: &SearchArgs,
    record: Option<Tag<'_>>,
    index: u64,
) {
    o.picture(compiled, chosen, record.map(|t| t.index));
    if s.json {
        let labels = option_lines(&compiled.problem, chosen);
        let mut extra = record_field(record);
        if let Some(g) = paint_grid(compiled, chosen) {
            extra.push(("grid", json!(g)));
        }
        o.line(&jsonl::solution(&labels, &extra));
        return;
    }
    // The grid in one buffer, kept from solution to solution.
    let mut text = o.take_buffer();
    if index > 0 {
        text.push('\n');
    }
    if !write_grid(compiled, chosen, &mut text) {
        for l in option_lines(&compiled.problem, chosen) {
            text.push_str(&l);
            text.push('\n');
        }
    }
    o.text(&text);
    o.give_buffer(text);
}

/// Prints the answer of an optimizing search of one record and returns its exit code.
#[allow(clippy::too_many_arguments)]
pub(crate) fn optimum(
    o: &mut Out<'_>,
    out: &Optimum,
    fields: &[(&'static str, serde_json::Value)],
    compiled: &Compiled,
    objective: Objective,
    s: &SearchArgs,
    record: Option<Tag<'_>>,
) -> u8 {
    let (word, what, adjective) = objective.words();
    let problem = &compiled.problem;
    let cut = matches!(out.end, End::Cut(_));
    let shown = match s.limit {
        Some(k) => out
            .solutions
            .len()
            .min(usize::try_from(k).unwrap_or(usize::MAX)),
        None => out.solutions.len(),
    };
    // With `--best K`, each solution is shown with its own value.
    let ranked = s.best.is_some();
    if s.json {
        for (k, sol) in out.solutions[..shown].iter().enumerate() {
            let mut extra = record_field(record);
            let value = if ranked {
                out.values.get(k).copied()
            } else {
                out.value
            };
            extra.push(("objective", json!(value)));
            o.picture(compiled, sol, record.map(|t| t.index));
            if let Some(g) = paint_grid(compiled, sol) {
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
        extra.extend(fields.iter().cloned());
        o.line(&jsonl::summary(&summary, &extra));
    } else {
        match out.value {
            // One line per record with `--value` and `--count`, even with no answer.
            None if cut && (s.value || s.count) => o.line("?"),
            None if cut => {}
            None => match (&s.none, s.shard.filter(|x| x.n > 1)) {
                (None, Some(x)) => o.line(&format!("No solution in shard {x}")),
                (none, _) => o.line(none.as_deref().unwrap_or("No solution")),
            },
            Some(_) if s.value && ranked => {
                let values: Vec<String> = out.values.iter().map(i64::to_string).collect();
                let mark = if cut { "?" } else { "" };
                o.line(&format!("{}{mark}", values.join(" ")));
            }
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
                // A shard's best is of its parts: the optimum is the best of every
                // shard's (`dlxc merge`).
                let shard = s.shard.filter(|x| x.n > 1);
                if let (Some(x), false) = (shard, cut) {
                    o.line(&format!("{word} {what} of shard {x}: {v}"));
                } else if let Some(x) = shard {
                    o.line(&format!(
                        "best {what} found in shard {x}: {v} (not proven {adjective} for the shard)"
                    ));
                } else if out.optimal {
                    o.line(&format!("{word} {what}: {v}"));
                } else {
                    o.line(&format!("best {what} found: {v} (not proven {adjective})"));
                }
                for (k, sol) in out.solutions[..shown].iter().enumerate() {
                    if k > 0 {
                        o.line("");
                    }
                    if ranked && let Some(v) = out.values.get(k) {
                        o.line(&format!("#{} {what} {v}:", k + 1));
                    }
                    o.picture(compiled, sol, record.map(|t| t.index));
                    match paint_grid(compiled, sol) {
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
            limit.reason(),
            out.stats.nodes
        ));
    }
    // A value not proven optimal is an incomplete answer, as is none found yet.
    match out.value {
        _ if cut => EXIT_CUT_SHORT,
        Some(_) => EXIT_SOLVED,
        None => EXIT_NO_SOLUTION,
    }
}
