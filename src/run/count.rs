//! Counts: on threads, in shards, with progress and checkpoints.
//!
//! A plain count goes to [`parallel::count`]. A count that is sharded, shows progress,
//! writes checkpoints or resumes one runs its parts in the worker pool, watched from
//! here ([`CountWatch`]); that needs an engine that can give work away (bitsets or
//! dancing cells). A shard of a problem whose engine cannot split is searched whole by
//! shard 1, and the others are empty: the shards still add up to the count.

use crate::clock::Instant;
use std::path::Path;
use std::time::Duration;

use super::{Failure, Field, Saved, Sink};
use crate::diag::Code;
use crate::diag::report::Report;
use crate::instance::Instance;
use crate::solve::parallel::{self, Frontier, Progress, Watch};
use crate::solve::share::Part;
use crate::solve::{Clash, End, Flow, Limit, Outcome, SearchConfig, Solver, Stats};
use crate::task::Task;

/// Counts the solutions of `inst` as `task` asks: the outcome, and the fields its JSON
/// summary adds (the shard and the problem's fingerprint, which `dlxc merge` checks).
pub(super) fn count(
    solver: &mut Solver,
    inst: &Instance,
    config: &SearchConfig,
    task: &Task,
    sink: &mut dyn Sink,
) -> Result<(Outcome, Vec<Field>), Failure> {
    let (problem, forced) = (&inst.compiled.problem, &inst.forced[..]);
    let keeps_state = task.keeps_state();
    // Hashing the whole matrix costs more than a small search (a sudoku record's count
    // took four times as long with it): only shards and checkpoints need it.
    let fingerprint = if task.shard.is_some() || keeps_state {
        problem.fingerprint(forced)
    } else {
        String::new()
    };
    // The split follows the engine's choice of item at each node (bitsets and dancing
    // cells break ties differently; the links engines do not split): shards of one
    // engine do not add up with another's, and `dlxc merge` checks this.
    let fields = task.shard.map_or_else(Vec::new, |shard| {
        super::shard_fields(shard, fingerprint.clone(), solver.engine_name())
    });
    let pooled = parallel::pooled(solver, config);
    if keeps_state && !pooled {
        let r = Report::error(
            Code::E0922,
            "--checkpoint and --resume cannot be used here: this engine cannot hand its \
             search over (only dancing cells and bitsets, with or without multiplicity \
             intervals, can: not --engine links)",
        )
        .help("count without them, or with the default engine (bitsets or dancing cells)");
        return Err(Failure::Report(Box::new(r)));
    }
    // A plain count, or one whose progress this engine cannot show: as usual.
    let shows_progress = pooled && sink.shows_progress();
    if task.shard.is_none() && !keeps_state && !shows_progress {
        let outcome = parallel::count(solver, forced, config, task.threads)?;
        return Ok((outcome, fields));
    }
    if !pooled {
        // A shard on an engine that cannot split: shard 1 is the whole tree.
        let (k, n) = task.shard.map_or((1, 1), |x| (x.k, x.n));
        let parts = parallel::shard(solver, forced, k, n)?;
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
                count_only: true,
                ..config.clone()
            };
            let out =
                solver.search_part(&part.forced, &part.excluded, &each, &mut |_| Flow::Continue)?;
            add(&mut outcome.stats, &out.stats);
            outcome.end = out.end;
            if out.end != End::Exhausted {
                break;
            }
        }
        outcome.stats.elapsed = started.elapsed();
        return Ok((outcome, fields));
    }
    let (parts, before) = match &task.resume {
        Some(path) => {
            let mut saved = sink
                .resume(path, &fingerprint, solver.option_count())?
                .of_count(path)?;
            (std::mem::take(&mut saved.parts), Some(saved))
        }
        None => {
            let parts = match task.shard {
                Some(x) => parallel::shard(solver, forced, x.k, x.n)?,
                None => vec![Part::root(forced)],
            };
            (parts, None)
        }
    };
    // The share of the tree this count covers: all of it, or a shard's parts.
    let whole = parts.iter().map(|p| p.weight).sum::<f64>()
        + before.as_ref().map_or(0.0, |b| b.counted_share);
    let mut watch = CountWatch {
        whole: if whole > 0.0 { whole } else { 1.0 },
        sink,
        fingerprint: &fingerprint,
        path: task.checkpoint.as_ref().map(|c| c.path.as_path()),
        every: task
            .checkpoint
            .as_ref()
            .map_or(crate::task::CHECKPOINT_EVERY, |c| c.every),
        last: Instant::now(),
        before: before.as_ref(),
    };
    let mut frontier = parallel::count_parts(solver, parts, config, task.threads, &mut watch)?;
    if let Some(path) = watch.path {
        watch.save(path, &frontier);
    }
    if let Some(before) = &before {
        add(&mut frontier.counted.stats, &before.counted.stats);
        frontier.counted.stats.elapsed = frontier
            .counted
            .stats
            .elapsed
            .saturating_add(before.counted.stats.elapsed);
    }
    Ok((frontier.counted, fields))
}

/// Adds `more` to `to`, saturating: a resumed checkpoint's counts are checked on
/// reading, and a sum that would wrap must not become a small, believable count.
fn add(to: &mut Stats, more: &Stats) {
    to.nodes = to.nodes.saturating_add(more.nodes);
    to.updates = to.updates.saturating_add(more.updates);
    to.solutions = to.solutions.saturating_add(more.solutions);
}

/// Watches a pooled count: progress to the sink, and checkpoints every `every`.
struct CountWatch<'a> {
    /// The weight of the tree this count covers (less than 1 for a shard), so that
    /// progress goes to 100%.
    whole: f64,
    sink: &'a mut dyn Sink,
    fingerprint: &'a str,
    path: Option<&'a Path>,
    every: Duration,
    last: Instant,
    /// The checkpoint this run resumed, whose counts come before this run's.
    before: Option<&'a Saved>,
}

impl CountWatch<'_> {
    /// Saves `frontier` (this run's) with what a resumed run had counted before it.
    fn save(&mut self, path: &Path, frontier: &Frontier) {
        let mut whole = frontier.clone();
        if let Some(before) = self.before {
            add(&mut whole.counted.stats, &before.counted.stats);
            whole.counted.stats.elapsed = whole
                .counted
                .stats
                .elapsed
                .saturating_add(before.counted.stats.elapsed);
            whole.explored += before.counted_share;
        }
        self.sink
            .save(path, self.fingerprint, super::Kept::Count(&whole));
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
        self.sink.progress(&p);
        self.path.is_some() && self.last.elapsed() >= self.every
    }

    fn checkpoint(&mut self, frontier: &Frontier) {
        if let Some(path) = self.path {
            self.save(path, frontier);
        }
    }
}

/// Counts `parts`, disjoint parts of one search tree, on `threads` threads for as long
/// as `config`'s limits allow: the exact count of what was explored and the exact
/// parts left (none when the count finished), so nothing is lost or counted twice.
/// Python's shards count this way (`Shard.count`, `Shard.count_for`, `dlxc.ray`).
///
/// An engine that cannot give work away (the links engines: Algorithm X, C and M)
/// counts part after part, the limits being for all of them together; the part a limit
/// cuts is left whole, and what it had counted dropped.
pub fn count_parts(
    solver: &mut Solver,
    parts: Vec<Part>,
    config: &SearchConfig,
    threads: usize,
) -> Result<Frontier, Clash> {
    if parallel::pooled(solver, config) {
        return parallel::count_parts(solver, parts, config, threads, &mut parallel::Unwatched);
    }
    let start = Instant::now();
    let mut counted = Outcome {
        stats: Stats::default(),
        end: End::Exhausted,
    };
    for (i, part) in parts.iter().enumerate() {
        let out = match config.left_after(start, counted.stats.nodes) {
            Some(cfg) => {
                let cfg = SearchConfig {
                    count_only: true,
                    ..cfg
                };
                solver.search_part(&part.forced, &part.excluded, &cfg, &mut |_| Flow::Continue)?
            }
            None => Outcome {
                stats: Stats::default(),
                end: End::Cut(Limit::Time),
            },
        };
        if out.end != End::Exhausted {
            counted.end = out.end;
            counted.stats.elapsed = start.elapsed();
            return Ok(Frontier {
                explored: parts[..i].iter().map(|p| p.weight).sum(),
                parts: parts[i..].to_vec(),
                counted,
            });
        }
        add(&mut counted.stats, &out.stats);
    }
    counted.stats.elapsed = start.elapsed();
    Ok(Frontier {
        explored: parts.iter().map(|p| p.weight).sum(),
        parts: Vec::new(),
        counted,
    })
}
