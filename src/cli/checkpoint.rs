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

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use super::{Out, report};
use crate::diag::Code;
use crate::diag::report::Report;
use crate::diag::{Diag, Diagnostics};
use crate::problem::OptionId;
use crate::solve::parallel::Frontier;
use crate::solve::share::Part;
use crate::solve::{End, Limit, Outcome, Stats};

/// The format's name and version, the first fields of every checkpoint.
const FORMAT: &str = "dlxc checkpoint";
const VERSION: u64 = 1;

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

/// A checkpoint read back: the count it saved.
pub(crate) use crate::run::Saved as Checkpoint;

/// Writes `frontier` for `identity` to `path`, atomically.
pub(crate) fn write(path: &Path, identity: &Identity, frontier: &Frontier) -> Result<(), Diag> {
    let st = &frontier.counted.stats;
    let parts: Vec<Value> = frontier
        .parts
        .iter()
        .map(|p| json!([p.weight, p.forced.iter().map(|o| o.0).collect::<Vec<_>>()]))
        .collect();
    let doc = json!({
        "format": FORMAT,
        "version": VERSION,
        "problem": identity.problem,
        "source": identity.source,
        "params": identity.params,
        "shard": identity.shard,
        "complete": frontier.parts.is_empty(),
        "solutions": st.solutions.to_string(),
        "nodes": st.nodes,
        "updates": st.updates,
        "seconds": st.elapsed.as_secs_f64(),
        "explored": frontier.explored,
        "parts": parts,
    });
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        serde_json::to_writer(&mut f, &doc)?;
        f.write_all(b"\n")?;
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
) -> Option<Checkpoint> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            super::cannot_read(o, &format!("the checkpoint {}", path.display()), &e);
            return None;
        }
    };
    let shown = path.display().to_string();
    let parsed = parse(&text, options).map_err(|why| {
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

/// The identity and contents of a checkpoint's text, or what is wrong with it.
fn parse(text: &str, options: usize) -> Result<(Identity, Checkpoint), String> {
    let doc: Value = serde_json::from_str(text).map_err(|e| format!("bad JSON ({e})"))?;
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
        let bad = || format!("part {} is not [weight, [option numbers]]", i + 1);
        let pair = p.as_array().filter(|a| a.len() == 2).ok_or_else(bad)?;
        let weight = pair[0].as_f64().ok_or_else(bad)?;
        let forced = pair[1]
            .as_array()
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
            .collect::<Result<Vec<_>, _>>()?;
        parts.push(Part { forced, weight });
    }
    let seconds = fraction("seconds")?;
    let counted = Outcome {
        stats: Stats {
            nodes: number("nodes")?,
            updates: number("updates")?,
            solutions,
            elapsed: Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX),
        },
        end: if parts.is_empty() {
            End::Exhausted
        } else {
            End::Cut(Limit::Interrupted)
        },
    };
    let counted_share = fraction("explored")?;
    Ok((
        identity,
        Checkpoint {
            counted,
            counted_share,
            parts,
        },
    ))
}
