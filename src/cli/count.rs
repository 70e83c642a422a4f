//! `--count` on the command line: threads, shards, the progress line and checkpoints.
//!
//! A plain count goes to [`parallel::count`]. A count that is sharded, shows progress,
//! writes checkpoints or resumes one runs its parts in the worker pool, watched from
//! here ([`CountWatch`]); that needs an engine that can give work away (dancing
//! cells). A shard of a problem that cannot be split is searched whole by shard 1.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::checkpoint::{self, Checkpoint};
use super::progress::Meter;
use super::{Out, SearchArgs, report};
use crate::diag::Diagnostics;
use crate::diag::report::Report;
use crate::problem::{OptionId, Problem};
use crate::solve::parallel::{self, Frontier, Progress, Watch};
use crate::solve::share::Part;
use crate::solve::{Clash, End, Flow, Outcome, SearchConfig, Solver, Stats};

/// Shard `k` of `n` (`--shard K/N`), 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 1.
    pub k: usize,
    /// Of how many.
    pub n: usize,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("expected K/N with 1 <= K <= N, such as 3/8; found `{s}`");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

/// What a count belongs to, for its checkpoints: the model or problem file as given on
/// the command line, and its parameters.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Whose<'a> {
    pub source: &'a str,
    pub params: &'a [String],
}

/// A count that ended: the outcome, and the fields its JSON summary adds (the shard and
/// the problem's fingerprint, which `dlxc merge` checks).
pub(crate) struct Counted {
    pub outcome: Outcome,
    pub fields: Vec<(&'static str, Value)>,
}

/// Why a count did not end with an outcome.
pub(crate) enum Failed {
    /// Two forced options clash: the caller reports it as for any search.
    Clash(Clash),
    /// A diagnostic was printed (a bad checkpoint, an option that does not apply).
    Reported,
}

impl From<Clash> for Failed {
    fn from(c: Clash) -> Failed {
        Failed::Clash(c)
    }
}

/// Counts the solutions of `problem` that contain `forced`, as `s` asks.
pub(crate) fn count(
    o: &mut Out<'_>,
    solver: &mut Solver,
    problem: &Problem,
    forced: &[OptionId],
    config: &SearchConfig,
    s: &SearchArgs,
    whose: Whose<'_>,
) -> Result<Counted, Failed> {
    let keeps_state = s.checkpoint.is_some() || s.resume.is_some();
    // Hashing the whole matrix costs more than a small search (a sudoku record's count
    // took four times as long with it): only shards and checkpoints need it.
    let fingerprint = if s.shard.is_some() || keeps_state {
        problem.fingerprint(forced)
    } else {
        String::new()
    };
    let mut fields = Vec::new();
    if let Some(shard) = s.shard {
        fields.push(("shard", json!(shard.to_string())));
        fields.push(("problem", json!(fingerprint)));
    }
    let pooled = parallel::pooled(solver, config);
    if keeps_state && !pooled {
        let why = if solver.can_branch() {
            "a count with --node-limit or --limit is one sequential search"
        } else {
            "this engine cannot hand its search over (only dancing cells and bitsets \
             can: not --engine links, and not a problem with multiplicity intervals)"
        };
        refuse(
            o,
            "--checkpoint and --resume",
            why,
            "count without them, or with the default engine (bitsets or dancing cells) and \
             without --node-limit or --limit",
        );
        return Err(Failed::Reported);
    }
    // A plain count, or one whose progress this engine cannot show: as usual.
    let shows_progress = pooled && s.progress != super::ProgressMode::Off;
    if s.shard.is_none() && !keeps_state && !shows_progress {
        let outcome = parallel::count(solver, forced, config, s.threads)?;
        return Ok(Counted { outcome, fields });
    }
    if !pooled {
        // A shard on an engine that cannot split: shard 1 is the whole tree.
        let parts = parallel::shard(
            solver,
            forced,
            s.shard.map_or(1, |x| x.k),
            s.shard.map_or(1, |x| x.n),
        )?;
        let mut outcome = Outcome {
            stats: Stats::default(),
            end: End::Exhausted,
        };
        let started = Instant::now();
        for part in parts {
            // A node limit is the whole shard's, not each part's.
            let each = SearchConfig {
                node_limit: config
                    .node_limit
                    .map(|n| n.saturating_sub(outcome.stats.nodes)),
                ..counting(config)
            };
            let out = solver.search(&part.forced, &each, &mut |_| Flow::Continue)?;
            add(&mut outcome.stats, &out.stats);
            outcome.end = out.end;
            if out.end != End::Exhausted {
                break;
            }
        }
        outcome.stats.elapsed = started.elapsed();
        return Ok(Counted { outcome, fields });
    }
    let identity = checkpoint::Identity {
        problem: fingerprint,
        source: whose.source.to_string(),
        params: whose.params.to_vec(),
        shard: s.shard.map(|x| x.to_string()),
    };
    let (parts, before) = match &s.resume {
        Some(path) => {
            let Some(mut ck) = checkpoint::read(o, path, &identity, solver.option_count()) else {
                return Err(Failed::Reported);
            };
            (std::mem::take(&mut ck.parts), Some(ck))
        }
        None => {
            let parts = match s.shard {
                Some(x) => parallel::shard(solver, forced, x.k, x.n)?,
                None => vec![Part {
                    forced: forced.to_vec(),
                    weight: 1.0,
                }],
            };
            (parts, None)
        }
    };
    // The share of the tree this count covers: all of it, or a shard's parts.
    let whole = parts.iter().map(|p| p.weight).sum::<f64>()
        + before.as_ref().map_or(0.0, |b| b.counted_share);
    let mut watch = CountWatch {
        whole: if whole > 0.0 { whole } else { 1.0 },
        meter: Meter::new(s.progress),
        identity: &identity,
        path: s.checkpoint.as_deref(),
        every: s.checkpoint_every,
        last: Instant::now(),
        before: before.as_ref(),
        failed: None,
    };
    let frontier = parallel::count_parts(solver, parts, config, s.threads, &mut watch);
    watch.meter.clear();
    let mut frontier = frontier?;
    if let Some(path) = watch.path {
        watch.save(path, &frontier);
    }
    if let Some(before) = &before {
        add(&mut frontier.counted.stats, &before.counted.stats);
        frontier.counted.stats.elapsed += before.counted.stats.elapsed;
    }
    if let Some(e) = watch.failed.take() {
        report(o, &Diagnostics::from(e));
    }
    if let (Some(path), End::Cut(_)) = (watch.path, frontier.counted.end) {
        o.note(&format!(
            "the count so far and what is left are in {}: `--resume {}` goes on from there",
            path.display(),
            path.display()
        ));
    }
    Ok(Counted {
        outcome: frontier.counted,
        fields,
    })
}

fn counting(config: &SearchConfig) -> SearchConfig {
    SearchConfig {
        count_only: true,
        ..config.clone()
    }
}

fn add(to: &mut Stats, more: &Stats) {
    to.nodes += more.nodes;
    to.updates += more.updates;
    to.solutions += more.solutions;
}

/// E0922: a count option that does not apply to this search; `help` says what to do.
pub(crate) fn refuse(o: &mut Out<'_>, what: &str, why: &str, help: &str) {
    let r = Report::error("E0922", format!("{what} cannot be used here: {why}")).help(help);
    report(o, &Diagnostics::from(Box::new(r) as crate::diag::Diag));
}

/// Watches a pooled count: the progress line, and checkpoints every `every`.
struct CountWatch<'a> {
    /// The weight of the tree this count covers (less than 1 for a shard), so that
    /// progress goes to 100%.
    whole: f64,
    meter: Meter,
    identity: &'a checkpoint::Identity,
    path: Option<&'a Path>,
    every: Duration,
    last: Instant,
    /// The checkpoint this run resumed, whose counts come before this run's.
    before: Option<&'a Checkpoint>,
    /// A checkpoint that could not be written (reported once, at the end).
    failed: Option<crate::diag::Diag>,
}

impl CountWatch<'_> {
    /// Writes `frontier` (this run's) with what a resumed run had counted before it.
    fn save(&mut self, path: &Path, frontier: &Frontier) {
        let mut whole = frontier.clone();
        if let Some(before) = self.before {
            add(&mut whole.counted.stats, &before.counted.stats);
            whole.counted.stats.elapsed += before.counted.stats.elapsed;
            whole.explored += before.counted_share;
        }
        if let Err(e) = checkpoint::write(path, self.identity, &whole) {
            self.failed = Some(e);
        }
        self.last = Instant::now();
    }
}

impl Watch for CountWatch<'_> {
    fn every(&self) -> Duration {
        // Progress a few times a second, and checkpoints on time when they are frequent.
        self.every.min(Duration::from_millis(200))
    }

    fn tick(&mut self, p: &Progress) -> bool {
        let mut p = *p;
        if let Some(before) = self.before {
            p.explored += before.counted_share;
            p.solutions += before.counted.stats.solutions;
        }
        p.explored /= self.whole;
        self.meter.show(&p);
        self.path.is_some() && self.last.elapsed() >= self.every
    }

    fn checkpoint(&mut self, frontier: &Frontier) {
        if let Some(path) = self.path {
            self.save(path, frontier);
        }
    }
}
