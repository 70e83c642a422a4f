//! Branch and bound by parts: what checkpoints and shards of an optimization search.
//!
//! The tree is cut into parts as the search on threads cuts it (module `threads`,
//! [`split`]), but into a fixed number ([`CUT`]) that depends on nothing but the
//! problem, its forced options and the objective: a checkpoint names the parts done by
//! their index, and shard `K/N` takes the parts whose index is `K-1` modulo `N` (dealt
//! round robin, so that every shard gets some of the promising first parts and some of
//! the rest). The parts are searched each to its end, pruning against the best of the
//! parts searched before it ([`Incumbent`], with its tie rule): in order on one thread,
//! or each thread taking the next part.
//!
//! The answer is the sequential search's, the one the parts of a search on threads give
//! ([`Optimizer::solve_exact`]): the best value, and the first solution of that value in
//! the first part (in part order) that holds one. A part's own first optimal solution
//! does not depend on the best it started from (the bound prunes only what cannot beat,
//! or tie with an earlier part's, value), so parts searched in other runs, in other
//! shards or after a resume combine to the same answer: the best value over the parts,
//! ties going to the earliest part ([`Found::better_than`]).
//!
//! A part is the unit of work saved: a part cut short by a limit is not done, and what
//! it found is shown as the best so far but not kept (a resumed run searches the part
//! again, from its start). A node or time limit smaller than the next part therefore
//! makes no progress: a resumed run needs limits that let at least one part end.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use super::threads::{Incumbent, split};
use super::{Optimizer, Optimum, Step, Wanted};
use crate::clock::Instant;
use crate::problem::OptionId;
use crate::solve::{Clash, End, Limit, SearchConfig, Stats, check_clock};

/// How many parts the tree is cut into, at least (when it has that many nodes within
/// four levels): a few hundred, so that a checkpoint saves work at a fine grain and
/// shards get a fair share, while the cost of entering a part (replaying its path)
/// stays small beside the part. Checkpoints record it, and a resumed run checks it.
pub const CUT: usize = 256;

/// The parts of one optimization, in the order the sequential search reaches them.
#[derive(Clone, Debug)]
pub struct Cut {
    parts: Vec<Vec<Step>>,
}

impl Cut {
    /// Cuts the tree of `forced` (a checkpoint's and every shard's: it depends only on
    /// the problem, `forced` and the objective). [`Clash`] when the forced options
    /// cannot be together.
    pub fn new(opt: &mut Optimizer, forced: &[OptionId]) -> Result<Cut, Clash> {
        Ok(Cut {
            parts: split(opt, forced, CUT)?,
        })
    }

    /// The number of parts.
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// Whether there is no part (the forced options leave an item with no option).
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// A hash of every part's path (64-bit FNV-1a of the steps), which a checkpoint
    /// records: a release that cut the tree otherwise would resume other parts.
    pub fn digest(&self) -> u64 {
        let mut h = crate::problem::Fnv::default();
        h.word(self.parts.len() as u64);
        for part in &self.parts {
            h.word(part.len() as u64);
            for step in part {
                let (tag, o) = match step {
                    Step::Commit(o) => (1, o),
                    Step::Exclude(o) => (2, o),
                };
                h.word(tag);
                h.word(u64::from(o.0));
            }
        }
        h.0
    }

    /// The parts of shard `k` of `n` (1-based): every part whose index is `k - 1`
    /// modulo `n`, in order. `(1, 1)` is every part.
    pub fn shard(&self, k: usize, n: usize) -> Vec<usize> {
        (0..self.parts.len())
            .filter(|i| i % n.max(1) == k.saturating_sub(1))
            .collect()
    }
}

/// A solution found by a part: its value (the objective's own, not negated), the part,
/// and its options (forced ones first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The value.
    pub value: i64,
    /// The index of the part that found it.
    pub part: usize,
    /// The options.
    pub solution: Vec<OptionId>,
}

impl Found {
    /// Whether this is the better answer of the two: the better value, or the same
    /// found by an earlier part (the sequential search's tie rule). `sign` is the
    /// objective's ([`super::Objective::sign`]).
    pub fn better_than(&self, other: &Found, sign: i64) -> bool {
        (sign * self.value, self.part) < (sign * other.value, other.part)
    }
}

/// How far a search by parts has got: what a checkpoint holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Done {
    /// The parts searched to their end.
    pub parts: BTreeSet<usize>,
    /// The best solution of those parts (ties to the earliest part).
    pub best: Option<Found>,
    /// Nodes and updates of every run so far, parts cut short included (`solutions`:
    /// improvements found; `elapsed`: kept by the caller, who knows the earlier runs').
    pub stats: Stats,
}

/// Searches the parts `which` (indices of `cut`, in increasing order) that `done` does
/// not list yet, within `config`'s limits (for all of them together), and adds each
/// part searched to its end to `done`; `after_part` is called after each (to write a
/// checkpoint). `on_improve` is called when the best so far improves.
///
/// On one thread (or with a node limit, a statement about one sequential search) the
/// parts are searched in order. On `threads` threads each takes the next part not yet
/// taken, all pruning against one incumbent (module `threads`), and the parts end in
/// any order: a part's answer does not depend on the incumbent it started from, so
/// `done`'s best is the same whatever the order (see the module documentation).
///
/// Returns the answer so far: the best of `done` and, when a limit cut a part short,
/// of what that part had found (shown, not kept: see the module documentation);
/// `optimal` when every part of `which` is done. `stats` is this run's alone.
#[allow(clippy::too_many_arguments)]
pub fn solve_parts(
    opt: &mut Optimizer,
    forced: &[OptionId],
    cut: &Cut,
    which: &[usize],
    done: &mut Done,
    config: &SearchConfig,
    threads: usize,
    after_part: &mut dyn FnMut(&Done),
    on_improve: &mut dyn FnMut(i64, &[OptionId]),
) -> Result<Optimum, Clash> {
    let start = Instant::now();
    let sign = opt.objective().sign();
    let shared = Incumbent::seeded(done.best.as_ref().map(|b| (sign * b.value, b.part)));
    let todo: Vec<usize> = which
        .iter()
        .copied()
        .filter(|k| *k < cut.len() && !done.parts.contains(k))
        .collect();
    let mut run = Run {
        stats: Stats::default(),
        end: End::Exhausted,
        partial: None,
        sign,
        reported: done.best.as_ref().map(|b| b.value),
    };
    if threads <= 1 || config.node_limit.is_some() || todo.len() <= 1 {
        for &k in &todo {
            // What is left of the limits, for all the parts together; none left is a
            // cut before the part begins.
            let cfg = match config.left_after(start, run.stats.nodes) {
                Some(cfg) if config.node_limit.is_none_or(|n| run.stats.nodes < n) => cfg,
                Some(_) => {
                    run.end = End::Cut(Limit::Nodes);
                    break;
                }
                None => {
                    run.end = End::Cut(Limit::Time);
                    break;
                }
            };
            if config
                .interrupt
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
            {
                run.end = End::Cut(Limit::Interrupted);
                break;
            }
            let mut improve = |v: i64, sol: &[OptionId]| {
                run_improved(&mut run.reported, sign, v, sol, on_improve)
            };
            let out = opt.solve_part(
                forced,
                &cut.parts[k],
                WANTED,
                &cfg,
                Some((&shared, k)),
                &mut improve,
            )?;
            if !run.record(done, k, out, after_part) {
                break;
            }
        }
    } else {
        on_threads(
            opt,
            forced,
            cut,
            &todo,
            config,
            threads,
            &shared,
            start,
            |msg| match msg {
                Msg::Improved(v, sol) => run_improved(&mut run.reported, sign, v, &sol, on_improve),
                Msg::Part(k, out) => {
                    run.record(done, k, out, after_part);
                }
                Msg::Stopped(limit) => {
                    if run.end == End::Exhausted {
                        run.end = End::Cut(limit);
                    }
                }
            },
        );
    }
    run.stats.elapsed = start.elapsed();
    let best = match (&done.best, run.partial) {
        (Some(b), Some(p)) if p.better_than(b, sign) => Some(p),
        (Some(b), _) => Some(b.clone()),
        (None, p) => p,
    };
    // Every part done is a finished search, whatever limit a thread met after.
    let complete = which.iter().all(|k| done.parts.contains(k));
    if complete {
        run.end = End::Exhausted;
    }
    Ok(Optimum {
        value: best.as_ref().map(|b| b.value),
        values: best.iter().map(|b| b.value).collect(),
        solutions: best.into_iter().map(|b| b.solution).collect(),
        optimal: complete,
        stats: run.stats,
        end: run.end,
    })
}

/// What each part searches: the optimum, on a tree that depends only on the problem,
/// as every part of a split needs (module `priced`).
const WANTED: Wanted = Wanted {
    all: false,
    best: 1,
    exact: true,
};

/// Reports a value found to `on_improve` when it beats every one reported before: a
/// part keeps its own best, which may be worse than another part's (a part that is a
/// solution at its root is one).
fn run_improved(
    reported: &mut Option<i64>,
    sign: i64,
    v: i64,
    sol: &[OptionId],
    on_improve: &mut dyn FnMut(i64, &[OptionId]),
) {
    if reported.is_none_or(|r| sign * v < sign * r) {
        *reported = Some(v);
        on_improve(v, sol);
    }
}

/// This run of [`solve_parts`] so far.
struct Run {
    stats: Stats,
    end: End,
    /// The best a part cut short had found.
    partial: Option<Found>,
    sign: i64,
    /// The best value reported to `on_improve`.
    reported: Option<i64>,
}

impl Run {
    /// Adds what part `k` found: to `done` when it ran to its end (then `after_part`
    /// is called), else as the best so far shown. Returns whether it ran to its end.
    fn record(
        &mut self,
        done: &mut Done,
        k: usize,
        out: Optimum,
        after_part: &mut dyn FnMut(&Done),
    ) -> bool {
        for s in [&mut self.stats, &mut done.stats] {
            s.nodes = s.nodes.saturating_add(out.stats.nodes);
            s.updates = s.updates.saturating_add(out.stats.updates);
            s.solutions = s.solutions.saturating_add(out.stats.solutions);
        }
        let found = out
            .value
            .zip(out.solutions.into_iter().next())
            .map(|(value, solution)| Found {
                value,
                part: k,
                solution,
            });
        let sign = self.sign;
        if let End::Cut(limit) = out.end {
            if let Some(f) = found
                && self.partial.as_ref().is_none_or(|p| f.better_than(p, sign))
            {
                self.partial = Some(f);
            }
            if self.end == End::Exhausted {
                self.end = End::Cut(limit);
            }
            return false;
        }
        // A part's own best may be worse than the incumbent it pruned against: compared.
        if let Some(f) = found
            && done.best.as_ref().is_none_or(|b| f.better_than(b, sign))
        {
            done.best = Some(f);
        }
        done.parts.insert(k);
        after_part(done);
        true
    }
}

/// What a thread of [`on_threads`] reports.
enum Msg {
    /// A part found a better solution than it had.
    Improved(i64, Vec<OptionId>),
    /// A part ended, or was cut short.
    Part(usize, Optimum),
    /// A thread found the time up or the interrupt raised before it began a part.
    Stopped(Limit),
}

/// Searches the parts `todo` of `cut` on `threads` threads, each taking the next one,
/// all pruning against `shared`; what they report comes to `heard` on this thread.
/// After a part is cut short by a limit no other part is begun (each would be cut).
#[allow(clippy::too_many_arguments)]
fn on_threads(
    opt: &Optimizer,
    forced: &[OptionId],
    cut: &Cut,
    todo: &[usize],
    config: &SearchConfig,
    threads: usize,
    shared: &Incumbent,
    start: Instant,
    mut heard: impl FnMut(Msg),
) {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Msg>();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(todo.len()) {
            let tx = tx.clone();
            let mut opt = opt.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    // A part looks at the clock every 1,024 nodes: one smaller would
                    // run to its end after Ctrl-C or the time limit.
                    if let Some(limit) = check_clock(config, start) {
                        stop.store(true, Ordering::Relaxed);
                        let _ = tx.send(Msg::Stopped(limit));
                        break;
                    }
                    let Some(&k) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let cfg = config.for_piece(start);
                    let mut improve = |v: i64, sol: &[OptionId]| {
                        // The receiver outlives the threads.
                        let _ = tx.send(Msg::Improved(v, sol.to_vec()));
                    };
                    let out = opt
                        .solve_part(
                            forced,
                            &cut.parts[k],
                            WANTED,
                            &cfg,
                            Some((shared, k)),
                            &mut improve,
                        )
                        .expect("the cut checked the forced options");
                    if matches!(out.end, End::Cut(_)) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    let _ = tx.send(Msg::Part(k, out));
                }
            });
        }
        drop(tx);
        for msg in rx {
            heard(msg);
        }
    });
}
