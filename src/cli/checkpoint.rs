//! Checkpoint files of long counts (`--checkpoint FILE`, `--resume FILE`).
//!
//! A checkpoint is one JSON object: what it belongs to (the problem's fingerprint, and
//! for the reader the model or file and parameters as given, and the shard), the counts
//! so far, and the exact frontier: the parts not yet explored, each a list of forced
//! options (0-based option numbers) with its weight. Counting the parts and adding the
//! counts gives the whole count, so a resumed run, on any number of threads, ends with
//! the count of an uninterrupted one.
//!
//! It is written to `FILE.tmp` next to the file, flushed to disk, then renamed over it:
//! a crash mid-write leaves the last good checkpoint in place.
//!
//! A damaged checkpoint must never resume to a wrong count: one flipped bit of an
//! option number once resumed queens 13 to 73,711 instead of 73,712, and duplicated
//! parts counted some subtrees twice. So the last field is a checksum of everything
//! before it (64-bit FNV-1a of the text: it changes with every single changed byte, so
//! every flipped bit and every truncation is caught), and the contents are validated on
//! reading too (numbers in range, parts that are distinct and none inside another),
//! which catches a file edited by hand. Every such file is E0920.
//!
//! A memo count's checkpoint (`--memo on`) holds no frontier: its tree is cut into
//! parts that depend on the problem, the item order and the shards alone (see
//! `solve::memo`), so it names the order and the cut, lists the parts counted whole
//! (`"memo": {"order", "want", "parts", "done"}`) and their count, exact at any size.
//! A resumed count cuts the tree again and counts the parts not done.
//!
//! An optimization's checkpoint (`"optimize": {"goal", "want", "parts", "digest",
//! "done", "improved", "best"}`) is of the same kind: its tree is cut into parts that
//! depend on the problem, its forced options and the objective alone (see
//! `solve::optimize::parts`), and it lists the parts searched to their end and the best
//! solution among them (`{"value", "part", "options"}`, options as 0-based numbers, the
//! search's order). A resumed search cuts the tree again, checks the number of parts,
//! the hash of their paths and the best's value, and searches the parts not done.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use super::{Out, report};
use crate::diag::Code;
use crate::diag::report::Report;
use crate::diag::{Diag, Diagnostics};
use crate::problem::OptionId;
use crate::run::{Kept, MemoSaved, Resumed};
use crate::solve::memo::{Count, Order, Tally};
use crate::solve::share::Part;
use crate::solve::{End, Limit, Outcome, Stats};

/// The format's name and version, the first fields of every checkpoint.
const FORMAT: &str = "dlxc checkpoint";
const VERSION: u64 = 2;

/// The most seconds a checkpoint may claim (about 30 years): more is a damaged file,
/// and would overflow the duration it is added to.
const MAX_SECONDS: f64 = 1e9;

/// What a checkpoint belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Identity {
    /// [`crate::problem::Problem::fingerprint`] of the problem and its forced options.
    pub problem: String,
    /// The model or problem file, as given on the command line.
    pub source: String,
    /// The `-p` settings, as given.
    pub params: Vec<String>,
    /// `K/N` for a shard.
    pub shard: Option<String>,
}

impl Identity {
    /// How a user would name it: `examples/queens.dlx -p n=12 --shard 1/4`.
    fn describe(&self) -> String {
        let mut s = self.source.clone();
        for p in &self.params {
            s.push_str(" -p ");
            s.push_str(p);
        }
        if let Some(k) = &self.shard {
            s.push_str(" --shard ");
            s.push_str(k);
        }
        s
    }
}

/// Writes what `kept` says for `identity` to `path`, atomically.
pub(crate) fn write(path: &Path, identity: &Identity, kept: Kept<'_>) -> Result<(), Diag> {
    let mut doc = json!({
        "format": FORMAT,
        "version": VERSION,
        "problem": identity.problem,
        "source": identity.source,
        "params": identity.params,
        "shard": identity.shard,
    });
    let fields = match kept {
        Kept::Count(frontier) => {
            let st = &frontier.counted.stats;
            let parts: Vec<Value> = frontier
                .parts
                .iter()
                .map(|p| {
                    let ids = |os: &[OptionId]| os.iter().map(|o| o.0).collect::<Vec<_>>();
                    if p.excluded.is_empty() {
                        json!([p.weight, ids(&p.forced)])
                    } else {
                        json!([p.weight, ids(&p.forced), ids(&p.excluded)])
                    }
                })
                .collect();
            json!({
                "complete": frontier.parts.is_empty(),
                "solutions": st.solutions.to_string(),
                "nodes": st.nodes,
                "updates": st.updates,
                "seconds": st.elapsed.as_secs_f64(),
                "explored": frontier.explored,
                "parts": parts,
            })
        }
        Kept::Optimum(m) => {
            let d = &m.done;
            let best = d.best.as_ref().map(|b| {
                json!({
                    "value": b.value,
                    "part": b.part,
                    "options": b.solution.iter().map(|o| o.0).collect::<Vec<_>>(),
                })
            });
            json!({
                "complete": m.complete,
                "nodes": d.stats.nodes,
                "updates": d.stats.updates,
                "seconds": d.stats.elapsed.as_secs_f64(),
                "optimize": {
                    "goal": m.goal.name(),
                    "want": m.want,
                    "parts": m.parts,
                    "digest": format!("{:016x}", m.digest),
                    "done": d.parts,
                    "improved": u64::try_from(d.stats.solutions).unwrap_or(u64::MAX),
                    "best": best,
                },
            })
        }
        Kept::Memo(m) => json!({
            "complete": m.tally.complete(),
            "solutions": m.tally.counted.to_string(),
            "seconds": m.elapsed.as_secs_f64(),
            "memo": {
                "order": m.order.name(),
                "want": m.tally.want,
                "parts": m.tally.parts,
                "taken": m.tally.taken,
                "done": m.tally.done,
            },
        }),
    };
    if let (Value::Object(d), Value::Object(f)) = (&mut doc, fields) {
        d.extend(f);
    }
    let text = sealed(&doc);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    written.map_err(|e: std::io::Error| {
        let _ = std::fs::remove_file(&tmp);
        Box::new(
            Report::error(
                Code::E0902,
                format!("cannot write the checkpoint {}: {e}", path.display()),
            )
            .help("check that the checkpoint's directory exists and can be written"),
        ) as Diag
    })
}

/// Reads the checkpoint at `path` and checks that it belongs to `identity` and to a
/// problem with `options` options; reports why not and returns `None` otherwise.
pub(crate) fn read(
    o: &mut Out<'_>,
    path: &Path,
    identity: &Identity,
    options: usize,
) -> Option<Resumed> {
    // Bytes, not text: a damaged file that is not UTF-8 is a damaged checkpoint
    // (E0920 below), not a file that cannot be read.
    let text = match std::fs::read(path) {
        Ok(t) => t,
        Err(e) => {
            super::cannot_read(o, &format!("the checkpoint {}", path.display()), &e);
            return None;
        }
    };
    let shown = path.display().to_string();
    let parsed = std::str::from_utf8(&text)
        .map_err(|_| "it is not UTF-8 text".to_string())
        .and_then(|text| parse(text, options))
        .map_err(|why| {
            Report::error(
                Code::E0920,
                format!("{shown} is not a dlxc checkpoint: {why}"),
            )
            .help(
                "give --resume a file that --checkpoint wrote (a run killed while writing \
             leaves the one before intact); a damaged file cannot be resumed: start the \
             count again without --resume",
            )
        });
    let (found, ck) = match parsed {
        Ok(x) => x,
        Err(r) => {
            report(o, &Diagnostics::from(Box::new(r) as Diag));
            return None;
        }
    };
    // The same problem under another spelling of its path is the same count.
    if found.problem != identity.problem || found.shard != identity.shard {
        let same_problem = found.problem == identity.problem;
        let r = Report::error(
            Code::E0921,
            format!(
                "the checkpoint {shown} belongs to `{}` (problem {}), not to `{}` (problem {})",
                found.describe(),
                found.problem,
                identity.describe(),
                identity.problem
            ),
        )
        .help(if same_problem {
            "resume with the model, parameters and shard the checkpoint names"
        } else {
            "resume with the model, parameters and shard the checkpoint names; a changed \
             model or data makes a different problem, whose count starts over"
        });
        report(o, &Diagnostics::from(Box::new(r) as Diag));
        return None;
    }
    Some(ck)
}

/// 64-bit FNV-1a of `bytes`: the same on every platform and release. Each step is a
/// bijection of the state for a given byte, and distinct bytes give distinct states, so
/// any single changed byte (any flipped bit) changes the hash.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h = crate::problem::Fnv::default();
    bytes.iter().for_each(|&b| h.byte(b));
    h.0
}

/// The checkpoint's text: `doc` as one line of JSON, ending with the checksum of the
/// text before it.
fn sealed(doc: &Value) -> String {
    let body = doc.to_string();
    let open = body.strip_suffix('}').unwrap_or(&body);
    format!("{open},\"checksum\":\"{:016x}\"}}\n", fnv(open.as_bytes()))
}

/// The text a checksum covers, if `text` ends with a checksum that matches it.
fn unsealed(text: &str) -> Result<String, String> {
    const KEY: &str = ",\"checksum\":\"";
    let line = text
        .strip_suffix('\n')
        .ok_or("it does not end with a line end (cut short?)")?;
    let inner = line
        .strip_suffix("\"}")
        .ok_or("it does not end with its checksum (cut short?)")?;
    let at = inner.rfind(KEY).ok_or("it has no checksum (cut short?)")?;
    let (open, sum) = (&inner[..at], &inner[at + KEY.len()..]);
    let sum = u64::from_str_radix(sum, 16)
        .ok()
        .filter(|_| sum.len() == 16)
        .ok_or("its checksum is not 16 hexadecimal digits")?;
    if fnv(open.as_bytes()) != sum {
        return Err(
            "its checksum does not match its contents (the file was changed or damaged)".into(),
        );
    }
    Ok(format!("{open}}}"))
}

/// The identity and contents of a checkpoint's text, or what is wrong with it.
fn parse(text: &str, options: usize) -> Result<(Identity, Resumed), String> {
    // A file of another version is named as such, before its checksum is looked at.
    let doc: Value = serde_json::from_str(text).map_err(|e| format!("bad JSON ({e})"))?;
    if doc.get("format").is_some_and(|f| f == FORMAT)
        && let Some(v) = doc.get("version").and_then(Value::as_u64)
        && v != VERSION
    {
        return Err(format!(
            "it is version {v}, and this dlxc reads version {VERSION}"
        ));
    }
    let doc: Value =
        serde_json::from_str(&unsealed(text)?).map_err(|e| format!("bad JSON ({e})"))?;
    let field = |name: &str| doc.get(name).ok_or(format!("it has no `{name}` field"));
    if field("format")? != FORMAT {
        return Err(format!("its `format` is not \"{FORMAT}\""));
    }
    let version = field("version")?.as_u64();
    if version != Some(VERSION) {
        return Err(format!(
            "it is version {}, and this dlxc reads version {VERSION}",
            field("version")?
        ));
    }
    let text_of = |name: &str| -> Result<String, String> {
        field(name)?
            .as_str()
            .map(str::to_string)
            .ok_or(format!("`{name}` is not a string"))
    };
    let number = |name: &str| -> Result<u64, String> {
        field(name)?
            .as_u64()
            .ok_or(format!("`{name}` is not a whole number"))
    };
    let fraction = |name: &str| -> Result<f64, String> {
        field(name)?
            .as_f64()
            .filter(|x| x.is_finite() && *x >= 0.0)
            .ok_or(format!("`{name}` is not a number of at least 0"))
    };
    let params = field("params")?
        .as_array()
        .and_then(|a| a.iter().map(|p| p.as_str().map(str::to_string)).collect())
        .ok_or("`params` is not a list of strings")?;
    let shard = match field("shard")? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        _ => return Err("`shard` is neither null nor a string".into()),
    };
    let identity = Identity {
        problem: text_of("problem")?,
        source: text_of("source")?,
        params,
        shard,
    };
    let seconds = fraction("seconds")?;
    if seconds > MAX_SECONDS {
        return Err(format!("`seconds` is more than {MAX_SECONDS:e}"));
    }
    let elapsed = Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX);
    let complete = field("complete")?
        .as_bool()
        .ok_or("`complete` is neither true nor false")?;
    if let Some(opt) = doc.get("optimize") {
        let stats = Stats {
            nodes: number("nodes")?,
            updates: number("updates")?,
            solutions: 0,
            elapsed,
        };
        let saved = optimum_done(opt, stats, complete)?;
        return Ok((identity, Resumed::Optimum(saved)));
    }
    if let Some(memo) = doc.get("memo") {
        let counted = text_of("solutions")?
            .parse::<Count>()
            .map_err(|_| "`solutions` is not a whole number")?;
        let saved = memo_tally(memo, counted, elapsed)?;
        if complete != saved.tally.complete() {
            return Err("its `complete` disagrees with its parts".into());
        }
        return Ok((identity, Resumed::Memo(saved)));
    }
    let solutions: u128 = text_of("solutions")?
        .parse()
        .map_err(|_| "`solutions` is not a whole number")?;
    let mut parts = Vec::new();
    for (i, p) in field("parts")?
        .as_array()
        .ok_or("`parts` is not a list")?
        .iter()
        .enumerate()
    {
        let bad = || {
            format!(
                "part {} is not [weight, [option numbers]] or [weight, [option numbers], \
                 [option numbers excluded]]",
                i + 1
            )
        };
        let list = p
            .as_array()
            .filter(|a| a.len() == 2 || a.len() == 3)
            .ok_or_else(bad)?;
        let weight = list[0]
            .as_f64()
            .filter(|w| (0.0..=1.0).contains(w))
            .ok_or_else(bad)?;
        let options = |v: &Value| -> Result<Vec<OptionId>, String> {
            v.as_array()
                .ok_or_else(bad)?
                .iter()
                .map(|x| {
                    x.as_u64()
                        .filter(|&x| (x as usize) < options)
                        .map(|x| OptionId(x as u32))
                        .ok_or(format!(
                            "part {} names an option that this problem ({options} options) lacks",
                            i + 1
                        ))
                })
                .collect()
        };
        let forced = options(&list[1])?;
        let excluded = match list.get(2) {
            Some(v) => options(v)?,
            None => Vec::new(),
        };
        parts.push(Part {
            forced,
            excluded,
            weight,
        });
    }
    distinct(&parts)?;
    if complete != parts.is_empty() {
        return Err("its `complete` disagrees with its parts".into());
    }
    let nodes = number("nodes")?;
    // Each solution of a visiting count is a node it entered. A checkpoint claiming
    // more (one made up or damaged under an intact checksum: 2^128 - 6 solutions) was
    // resumed into a sum that saturated at 2^128 - 1 and was printed as an exact count;
    // solutions within its nodes (64 bits) cannot overflow what a run adds to them.
    if solutions > u128::from(nodes) {
        return Err(format!(
            "it claims {solutions} solutions in {nodes} nodes: each solution is a node \
             of the search"
        ));
    }
    let counted = Outcome {
        stats: Stats {
            nodes,
            updates: number("updates")?,
            solutions,
            elapsed,
        },
        end: if parts.is_empty() {
            End::Exhausted
        } else {
            End::Cut(Limit::Interrupted)
        },
    };
    let counted_share = fraction("explored")?;
    if counted_share > 1.0 + 1e-9 {
        return Err("`explored` is more than the whole tree".into());
    }
    Ok((
        identity,
        Resumed::Count(crate::run::Saved {
            counted,
            counted_share,
            parts,
        }),
    ))
}

/// The most parts a memo count's cut may have: far more than any cut makes (a few
/// levels of a tree, until there are 64 parts a thread or shard).
const MAX_MEMO_PARTS: u64 = 1 << 32;

/// A memo count's tally from its checkpoint's `memo` field: the order a known one,
/// the cut's sizes in range, the parts done distinct, increasing and among the cut's.
/// (Whether they are this count's parts is checked when the tree is cut again.)
fn memo_tally(memo: &Value, counted: Count, elapsed: Duration) -> Result<MemoSaved, String> {
    let field = |name: &str| {
        memo.get(name)
            .ok_or(format!("its `memo` has no `{name}` field"))
    };
    let order = field("order")?
        .as_str()
        .and_then(Order::named)
        .ok_or("its `memo.order` is not an item order (declared, band, mrv)")?;
    let size = |name: &str| -> Result<usize, String> {
        field(name)?
            .as_u64()
            .filter(|&n| (1..MAX_MEMO_PARTS).contains(&n))
            .map(|n| n as usize)
            .ok_or(format!("its `memo.{name}` is not a number of parts"))
    };
    let (want, parts, taken) = (size("want")?, size("parts")?, size("taken")?);
    if taken > parts {
        return Err(format!("its `memo.taken` is more than its {parts} parts"));
    }
    let done = field("done")?
        .as_array()
        .ok_or("its `memo.done` is not a list")?
        .iter()
        .map(|d| {
            d.as_u64()
                .filter(|&d| d < parts as u64)
                .map(|d| d as u32)
                .ok_or(format!(
                    "its `memo.done` names a part that is not one of its {parts}"
                ))
        })
        .collect::<Result<Vec<u32>, String>>()?;
    if done.windows(2).any(|w| w[0] >= w[1]) {
        return Err("its `memo.done` is not in increasing order".into());
    }
    if done.len() > taken {
        return Err("its `memo.done` lists more parts than it takes".into());
    }
    Ok(MemoSaved {
        tally: Tally {
            want,
            parts,
            taken,
            done,
            counted,
        },
        order,
        elapsed,
    })
}

/// The most parts an optimization's cut may have: far more than any cut makes (four
/// levels of a tree, until there are [`crate::solve::optimize::parts::CUT`]).
const MAX_OPTIMUM_PARTS: u64 = 1 << 32;

/// An optimization's progress from its checkpoint's `optimize` field: the objective a
/// known one, the cut's size in range, the parts done distinct, increasing and among
/// the cut's, the best's part among them and its options distinct.
/// (Whether the cut is this search's, and the best's value, are checked when the tree
/// is cut again.)
fn optimum_done(
    opt: &Value,
    mut stats: Stats,
    complete: bool,
) -> Result<crate::run::OptimumSaved, String> {
    use crate::solve::optimize::parts::{Done, Found};
    let field = |name: &str| {
        opt.get(name)
            .ok_or(format!("its `optimize` has no `{name}` field"))
    };
    let goal = field("goal")?
        .as_str()
        .and_then(crate::solve::Objective::named)
        .ok_or("its `optimize.goal` is not an objective (minimize count, minimize cost, maximize cost)")?;
    let size = |name: &str| -> Result<usize, String> {
        field(name)?
            .as_u64()
            .filter(|&n| n < MAX_OPTIMUM_PARTS)
            .map(|n| n as usize)
            .ok_or(format!("its `optimize.{name}` is not a number of parts"))
    };
    let (want, parts) = (size("want")?, size("parts")?);
    let digest = field("digest")?
        .as_str()
        .filter(|d| d.len() == 16)
        .and_then(|d| u64::from_str_radix(d, 16).ok())
        .ok_or("its `optimize.digest` is not 16 hexadecimal digits")?;
    let done: Vec<usize> = field("done")?
        .as_array()
        .ok_or("its `optimize.done` is not a list")?
        .iter()
        .map(|d| {
            d.as_u64()
                .filter(|&d| d < parts as u64)
                .map(|d| d as usize)
                .ok_or(format!(
                    "its `optimize.done` names a part that is not one of its {parts}"
                ))
        })
        .collect::<Result<_, String>>()?;
    if done.windows(2).any(|w| w[0] >= w[1]) {
        return Err("its `optimize.done` is not in increasing order".into());
    }
    stats.solutions = u128::from(
        field("improved")?
            .as_u64()
            .ok_or("its `optimize.improved` is not a whole number")?,
    );
    let best = match field("best")? {
        Value::Null => None,
        b => {
            let bad = || "its `optimize.best` is not {value, part, options}".to_string();
            let value = b.get("value").and_then(Value::as_i64).ok_or_else(bad)?;
            let part = b
                .get("part")
                .and_then(Value::as_u64)
                .map(|p| p as usize)
                .ok_or_else(bad)?;
            if done.binary_search(&part).is_err() {
                return Err(format!(
                    "its best was found by part {part}, which it does not list as done"
                ));
            }
            let mut solution = Vec::new();
            for o in b.get("options").and_then(Value::as_array).ok_or_else(bad)? {
                // Whether the options are this problem's is checked with the
                // identity (another problem's checkpoint is E0921, not E0920).
                let o = o
                    .as_u64()
                    .and_then(|o| u32::try_from(o).ok())
                    .ok_or("its best names an option by a number that is not one")?;
                solution.push(OptionId(o));
            }
            let mut sorted = solution.clone();
            sorted.sort_unstable();
            if sorted.windows(2).any(|w| w[0] == w[1]) {
                return Err("its best names an option twice".into());
            }
            Some(Found {
                value,
                part,
                solution,
            })
        }
    };
    // Whether `complete` agrees with the parts depends on the shard's share, checked
    // when the tree is cut again.
    Ok(crate::run::OptimumSaved {
        goal,
        want,
        parts,
        digest,
        done: Done {
            parts: done.into_iter().collect(),
            best,
            stats,
        },
        complete,
    })
}

/// Checks that the parts are distinct pieces of the tree: no option twice in a part
/// (forced twice, or forced and excluded), no part given twice (in any order of its
/// options), and no part inside another (a part whose path starts with the path of
/// a part that excludes nothing), any of which would count a subtree twice. (Parts of
/// a multiplicity problem exclude options, and a part that does may share its path
/// with the parts beside it.)
fn distinct(parts: &[Part]) -> Result<(), String> {
    use std::collections::{HashMap, HashSet};
    let mut paths: HashMap<&[OptionId], usize> = HashMap::with_capacity(parts.len());
    let mut sets: HashMap<(Vec<OptionId>, Vec<OptionId>), usize> =
        HashMap::with_capacity(parts.len());
    for (i, p) in parts.iter().enumerate() {
        let mut set = p.forced.clone();
        set.sort_unstable();
        let mut out = p.excluded.clone();
        out.sort_unstable();
        let mut all = [&set[..], &out[..]].concat();
        all.sort_unstable();
        if all.windows(2).any(|w| w[0] == w[1]) {
            return Err(format!("part {} names an option twice", i + 1));
        }
        if let Some(j) = sets.insert((set, out), i) {
            return Err(format!("parts {} and {} are the same part", j + 1, i + 1));
        }
        if p.excluded.is_empty() {
            paths.insert(&p.forced, i);
        }
    }
    let mut seen: HashSet<&[OptionId]> = HashSet::new();
    for (i, p) in parts.iter().enumerate() {
        for len in 0..p.forced.len() {
            let prefix = &p.forced[..len];
            if !seen.insert(prefix) {
                continue;
            }
            if let Some(&j) = paths.get(prefix) {
                return Err(format!("part {} lies inside part {}", i + 1, j + 1));
            }
        }
    }
    Ok(())
}
