//! `dlxc merge FILE...`: the count of a problem from the counts of its shards, or the
//! optimum of an optimization from its shards' best solutions.
//!
//! Each file holds the `--json` output of one shard (`dlxc run M --count --json
//! --shard K/N`): its last line is a summary with the shard, the problem's fingerprint
//! and the count. The counts are added exactly. Every shard `1/N` to `N/N` must be
//! there once, all of the same problem; otherwise nothing is added and each problem is
//! reported: a file that is not a shard's summary, shards of different problems or
//! splits, a shard given twice, shards missing.
//!
//! The split of a count into shards depends on more than the problem: on the engine's
//! choice of item at each node (and, where a summary records it, the memo's item
//! order; a memo count's engine is `memo`). Shards split another way do not add up to
//! the count (a langford count of 300 merged to 308 from a bitset shard and a
//! dancing-cells one), so every field that defines the split must agree, and a
//! summary without them is refused. The sums are checked for overflow: a crafted summary cannot wrap a count.
//!
//! The shards of an optimization (`dlxc run MODEL --json --shard K/N` on a model with
//! an objective) each record the best solution of their parts, the part that found it,
//! the objective (`goal`) and the number of parts of the cut. Merge prints the best
//! value, ties going to the earliest part: the answer of one run (module
//! `solve::optimize::parts`). Summaries of a count and of an optimization do not mix
//! (E0911).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use num_bigint::BigUint;
use serde_json::{Value, json};

use super::{EXIT_BAD_INPUT, EXIT_CUT_SHORT, EXIT_NO_SOLUTION, EXIT_SOLVED, Out, report};
use crate::diag::Code;
use crate::diag::report::Report;
use crate::diag::{Diag, Diagnostics};
use crate::render::json as jsonl;
use crate::solve::Objective;
use crate::task::Shard;

/// One shard's summary.
struct Piece {
    file: PathBuf,
    shard: Shard,
    problem: String,
    solutions: BigUint,
    nodes: u64,
    updates: u64,
    seconds: f64,
    complete: bool,
    /// The fields that define the split ([`SPLIT_FIELDS`]), as written.
    split: Vec<(&'static str, Option<Value>)>,
    /// A shard of an optimization's: its objective and best (`None`: a count's).
    optimum: Option<Best>,
}

/// What a shard of an optimization found: the objective, and the best solution of the
/// parts it searched to their end, if any.
struct Best {
    goal: Objective,
    /// The value, the part that found it, and the solution's options as shown.
    found: Option<(i64, usize, Vec<String>)>,
}

/// The fields of a shard's summary that define how the count was split: every shard
/// must have the same ones. `engine` is required (a memo count's is `memo`); `order`
/// is compared when any summary has it. (A memo summary's `memo` object holds its
/// table's figures, which differ from shard to shard: not the split.)
///
/// A shard of an optimization also names its objective (`goal`: the fingerprint of the
/// problem does not say it), the number of `parts` of its cut and their hash (`cut`).
const SPLIT_FIELDS: [&str; 5] = ["engine", "order", "goal", "parts", "cut"];

/// Runs `dlxc merge`.
pub fn merge(o: &mut Out<'_>, files: &[PathBuf], as_json: bool) -> u8 {
    let mut errors: Vec<Diag> = Vec::new();
    let mut pieces = Vec::new();
    for file in files {
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                super::cannot_read(o, &file.display().to_string(), &e);
                return EXIT_BAD_INPUT;
            }
        };
        match piece(file, &text) {
            Ok(p) => pieces.push(p),
            Err(why) => errors.push(Box::new(
                Report::error(
                    Code::E0910,
                    format!("{} is not a shard's summary: {why}", file.display()),
                )
                .help(
                    "give merge the output of `dlxc run MODEL --count --json --shard K/N` \
                         (or `dlxc solve FILE ...`), one file per shard",
                ),
            )),
        }
    }
    let mixed = mixed(&pieces);
    let mixing = !mixed.is_empty();
    errors.extend(mixed);
    errors.extend(mismatched(&pieces));
    if !mixing {
        errors.extend(split_otherwise(&pieces));
    }
    if errors.is_empty() {
        errors.extend(repeated_or_missing(&pieces));
    }
    if !errors.is_empty() {
        let mut all = Diagnostics::new();
        errors.into_iter().for_each(|e| all.push_boxed(e));
        report(o, &all);
        return EXIT_BAD_INPUT;
    }
    let Some(first) = pieces.first() else {
        // clap asks for at least one file.
        return EXIT_BAD_INPUT;
    };
    if first.optimum.is_some() {
        return optimum(o, &pieces, as_json);
    }
    let solutions: BigUint = pieces.iter().map(|p| &p.solutions).sum();
    // Only the memo counts past 2^128; a visiting count that large cannot be real.
    let memo = first
        .split
        .iter()
        .any(|(k, v)| *k == "engine" && *v == Some(json!("memo")));
    if !memo && u128::try_from(&solutions).is_err() {
        let r = Report::error(
            Code::E0915,
            "the shards' counts add up to more than 2^128 - 1: a summary is damaged or made up",
        )
        .help("run the shards again; a real count this large cannot be searched");
        report(o, &Diagnostics::from(Box::new(r) as Diag));
        return EXIT_BAD_INPUT;
    }
    let complete = pieces.iter().all(|p| p.complete);
    if as_json {
        let summary = jsonl::Summary {
            solutions: 0,
            nodes: pieces.iter().fold(0u64, |s, p| s.saturating_add(p.nodes)),
            updates: pieces.iter().fold(0u64, |s, p| s.saturating_add(p.updates)),
            complete,
            seconds: pieces.iter().map(|p| p.seconds).sum(),
        };
        let extra = [
            ("shards", json!(first.shard.n)),
            ("problem", json!(first.problem)),
        ];
        o.line(&jsonl::summary_counting(
            &solutions.to_string(),
            &summary,
            &extra,
        ));
    } else {
        o.line(&format!("{solutions}{}", if complete { "" } else { "+" }));
    }
    if !complete {
        o.note(&format!(
            "the count is a lower bound: these shards were cut short: {}",
            cut_short(&pieces)
        ));
        EXIT_CUT_SHORT
    } else if solutions == BigUint::ZERO {
        EXIT_NO_SOLUTION
    } else {
        EXIT_SOLVED
    }
}

/// The summary on the last line of a shard's output.
/// The shards cut short, as a note names them: `2/4 (b.json), 3/4 (c.json)`.
fn cut_short(pieces: &[Piece]) -> String {
    let cut: Vec<String> = pieces
        .iter()
        .filter(|p| !p.complete)
        .map(|p| format!("{} ({})", p.shard, p.file.display()))
        .collect();
    cut.join(", ")
}

fn piece(file: &Path, text: &str) -> Result<Piece, String> {
    let summaries: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v.get("type").and_then(Value::as_str) == Some("summary"))
        .collect();
    let summary = match summaries.as_slice() {
        [] => return Err("it has no JSON summary line".into()),
        [one] => one,
        many => {
            return Err(format!(
                "it has {} summaries (one per data record); merge adds the shards of one count",
                many.len()
            ));
        }
    };
    let field = |name: &str| {
        summary
            .get(name)
            .ok_or(format!("its summary has no `{name}`"))
    };
    let shard: Shard = field("shard")?
        .as_str()
        .ok_or("its `shard` is not a string")?
        .parse()
        .map_err(|e| format!("its `shard`: {e}"))?;
    if shard.n > crate::task::MAX_SHARDS {
        return Err(format!(
            "its `shard` {shard} splits into more than {} shards, which dlxc never writes",
            crate::task::MAX_SHARDS
        ));
    }
    let problem = field("problem")?
        .as_str()
        .ok_or("its `problem` is not a string")?
        .to_string();
    // Counts beyond 2^64 are written as strings.
    let solutions = match field("solutions")? {
        Value::Number(n) => n.as_u64().map(BigUint::from),
        // Past 2^53 - 1 the digits; only digits (BigUint's parse takes a sign and
        // underscores).
        Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.parse().ok()
        }
        _ => None,
    }
    .ok_or("its `solutions` is not a whole number")?;
    let number = |name: &str| field(name).map(|v| v.as_u64().unwrap_or(0));
    if summary.get("engine").is_none() {
        return Err(
            "its summary has no `engine`, which defines the split (older summaries \
             lack it): count the shard again"
                .into(),
        );
    }
    let split = SPLIT_FIELDS
        .iter()
        .map(|&name| (name, summary.get(name).cloned()))
        .collect();
    let optimum = match summary.get("goal") {
        None => None,
        Some(goal) => {
            let goal = goal
                .as_str()
                .and_then(Objective::named)
                .ok_or("its `goal` is not an objective")?;
            let found = match field("best")? {
                Value::Null => None,
                v => {
                    let value = v.as_i64().ok_or("its `best` is not a whole number")?;
                    let part = field("part")?
                        .as_u64()
                        .ok_or("its `part` is not a whole number")?;
                    let labels = field("solution")?
                        .as_array()
                        .and_then(|a| {
                            a.iter()
                                .map(|l| l.as_str().map(str::to_string))
                                .collect::<Option<Vec<_>>>()
                        })
                        .ok_or("its `solution` is not a list of options")?;
                    Some((value, usize::try_from(part).unwrap_or(usize::MAX), labels))
                }
            };
            Some(Best { goal, found })
        }
    };
    Ok(Piece {
        file: file.to_path_buf(),
        shard,
        problem,
        solutions,
        nodes: number("nodes")?,
        updates: number("updates")?,
        seconds: field("seconds")?.as_f64().unwrap_or(0.0),
        complete: field("complete")?
            .as_bool()
            .ok_or("its `complete` is not true or false")?,
        split,
        optimum,
    })
}

/// Prints the optimum of the shards of an optimization (every one given once, of one
/// problem and split): the best value, ties going to the earliest part, which is the
/// sequential search's answer; returns the exit code.
fn optimum(o: &mut Out<'_>, pieces: &[Piece], as_json: bool) -> u8 {
    let Some(goal) = pieces
        .first()
        .and_then(|p| p.optimum.as_ref())
        .map(|b| b.goal)
    else {
        return EXIT_BAD_INPUT;
    };
    let sign = goal.sign();
    let best = pieces
        .iter()
        .filter_map(|p| p.optimum.as_ref()?.found.as_ref())
        .min_by_key(|(v, part, _)| (sign * v, *part));
    let complete = pieces.iter().all(|p| p.complete);
    let (word, what, adjective) = goal.words();
    if as_json {
        if let Some((v, _, labels)) = best {
            o.line(&jsonl::solution(labels, &[("objective", json!(v))]));
        }
        let summary = jsonl::Summary {
            solutions: u128::from(best.is_some()),
            nodes: pieces.iter().fold(0u64, |s, p| s.saturating_add(p.nodes)),
            updates: pieces.iter().fold(0u64, |s, p| s.saturating_add(p.updates)),
            complete,
            seconds: pieces.iter().map(|p| p.seconds).sum(),
        };
        let extra = [
            ("objective", json!(best.map(|b| b.0))),
            ("optimal", json!(complete && best.is_some())),
            ("shards", json!(pieces.len())),
            ("problem", json!(pieces[0].problem)),
            ("goal", json!(goal.name())),
            ("part", json!(best.map(|b| b.1))),
        ];
        o.line(&jsonl::summary(&summary, &extra));
    } else {
        match best {
            Some((v, _, labels)) => {
                o.line(&if complete {
                    format!("{word} {what}: {v}")
                } else {
                    format!("best {what} found: {v} (not proven {adjective})")
                });
                labels.iter().for_each(|l| o.line(l));
            }
            None if complete => o.line("No solution"),
            None => {}
        }
    }
    if !complete {
        o.note(&format!(
            "the best is not proven {adjective}: these shards were cut short: {}",
            cut_short(pieces)
        ));
        EXIT_CUT_SHORT
    } else if best.is_none() {
        EXIT_NO_SOLUTION
    } else {
        EXIT_SOLVED
    }
}

/// Summaries of a count given with an optimization's, or the other way around: their
/// answers do not combine.
fn mixed(pieces: &[Piece]) -> Vec<Diag> {
    let Some(first) = pieces.first() else {
        return Vec::new();
    };
    let kind = |p: &Piece| match &p.optimum {
        Some(b) => format!("a search to {}", b.goal.name()),
        None => "a count".to_string(),
    };
    pieces[1..]
        .iter()
        .filter(|p| p.optimum.is_some() != first.optimum.is_some())
        .map(|p| {
            Box::new(
                Report::error(
                    Code::E0911,
                    format!(
                        "{} (shard {}) is of {}, and {} is of {}: a count and an optimum do not merge",
                        p.file.display(),
                        p.shard,
                        kind(p),
                        first.file.display(),
                        kind(first)
                    ),
                )
                .help(
                    "merge the shards of one run: all of a count (--count), or all of a \
                     model or file with an objective",
                ),
            ) as Diag
        })
        .collect()
}

/// Shards of another problem or another split than the first file's.
fn mismatched(pieces: &[Piece]) -> Vec<Diag> {
    let Some(first) = pieces.first() else {
        return Vec::new();
    };
    pieces[1..]
        .iter()
        .filter(|p| p.problem != first.problem || p.shard.n != first.shard.n)
        .map(|p| {
            let what = if p.problem != first.problem {
                format!(
                    "problem {}, and {} is of problem {}",
                    p.problem,
                    first.file.display(),
                    first.problem
                )
            } else {
                format!(
                    "a split into {}, and {} is of a split into {}",
                    p.shard.n,
                    first.file.display(),
                    first.shard.n
                )
            };
            Box::new(
                Report::error(
                    Code::E0911,
                    format!("{} (shard {}) is of {what}", p.file.display(), p.shard),
                )
                .help(
                    "merge the shards of one count: the same model, parameters and data, \
                     split with the same N",
                ),
            ) as Diag
        })
        .collect()
}

/// Shards split otherwise than the first file's: by another engine, item order or memo.
fn split_otherwise(pieces: &[Piece]) -> Vec<Diag> {
    let Some(first) = pieces.first() else {
        return Vec::new();
    };
    let shown = |v: &Option<Value>| v.as_ref().map_or("none".to_string(), Value::to_string);
    let optimum = first.optimum.is_some();
    pieces[1..]
        .iter()
        .filter_map(|p| {
            let (name, theirs, ours) = p
                .split
                .iter()
                .zip(&first.split)
                .find(|(a, b)| a.1 != b.1)
                .map(|(a, b)| (a.0, &a.1, &b.1))?;
            Some(Box::new(
                Report::error(
                    Code::E0914,
                    format!(
                        "{} (shard {}) was split with {name} {}, and {} with {name} {}: \
                         shards split differently do not add up to {}",
                        p.file.display(),
                        p.shard,
                        shown(theirs),
                        first.file.display(),
                        shown(ours),
                        if optimum { "the optimum" } else { "the count" }
                    ),
                )
                .help(if optimum {
                    "run every shard with the same model, objective and dlxc: the split \
                     follows the search's cut of the tree into parts"
                } else {
                    "count every shard with the same --engine (and the same dlxc): the \
                     split follows the engine's choice of item at each node"
                }),
            ) as Diag)
        })
        .collect()
}

/// A shard given twice, and the shards of `1/N..N/N` not given.
fn repeated_or_missing(pieces: &[Piece]) -> Vec<Diag> {
    let mut errors: Vec<Diag> = Vec::new();
    let mut seen: BTreeMap<usize, &Path> = BTreeMap::new();
    for p in pieces {
        if let Some(before) = seen.insert(p.shard.k, &p.file) {
            errors.push(Box::new(
                Report::error(
                    Code::E0912,
                    format!(
                        "shard {} is given twice: in {} and in {}",
                        p.shard,
                        before.display(),
                        p.file.display()
                    ),
                )
                .help("give each shard once; adding one twice would count its solutions twice"),
            ));
        }
    }
    let n = pieces.first().map_or(0, |p| p.shard.n);
    let missing: Vec<String> = (1..=n)
        .filter(|k| !seen.contains_key(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        let shown = if missing.len() > 12 {
            format!(
                "{}, ... ({} in all)",
                missing[..12].join(", "),
                missing.len()
            )
        } else {
            missing.join(", ")
        };
        errors.push(Box::new(
            Report::error(
                Code::E0913,
                match missing.len() {
                    1 => format!("1 of the {n} shards is missing: {shown}"),
                    m => format!("{m} of the {n} shards are missing: {shown}"),
                },
            )
            .help(if pieces.iter().any(|p| p.optimum.is_some()) {
                "run the missing shards with `--shard K/N --json` and merge them all"
            } else {
                "run the missing shards with `--shard K/N --count --json` and merge them all"
            }),
        ));
    }
    errors
}
