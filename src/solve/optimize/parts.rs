//! Branch and bound by parts: what checkpoints and shards of an optimization search.
//!
//! The tree is cut into parts as the search on threads cuts it (module `threads`,
//! [`split`]), but into a fixed number ([`CUT`]) that depends on nothing but the
//! problem, its forced options and the objective: a checkpoint names the parts done by
//! their index, and shard `K/N` takes the parts whose index is `K-1` modulo `N` (dealt
//! round robin, so that every shard gets some of the promising first parts and some of
//! the rest). The parts are searched in order, each to its end, pruning against the
//! best of the parts searched before it ([`Incumbent`], with its tie rule).
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

use super::threads::{Incumbent, split};
use super::{Optimizer, Optimum, Step, Wanted};
use crate::clock::Instant;
use crate::problem::OptionId;
use crate::solve::{Clash, End, Limit, SearchConfig, Stats};

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
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut word = |w: u64| {
            for b in w.to_le_bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        word(self.parts.len() as u64);
        for part in &self.parts {
            word(part.len() as u64);
            for step in part {
                let (tag, o) = match step {
                    Step::Commit(o) => (1, o),
                    Step::Exclude(o) => (2, o),
                };
                word(tag);
                word(u64::from(o.0));
            }
        }
        h
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
/// not list yet, in order, within `config`'s limits (for all of them together), and
/// adds each part searched to its end to `done`; `after_part` is called after each
/// (to write a checkpoint). `on_improve` is called when the best so far improves.
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
    after_part: &mut dyn FnMut(&Done),
    on_improve: &mut dyn FnMut(i64, &[OptionId]),
) -> Result<Optimum, Clash> {
    let start = Instant::now();
    let sign = opt.objective().sign();
    // Each part's tree depends only on the problem, as every part of a split needs.
    let wanted = Wanted {
        exact: true,
        ..Wanted::optimum(false)
    };
    let shared = Incumbent::seeded(done.best.as_ref().map(|b| (sign * b.value, b.part)));
    let mut stats = Stats::default();
    let mut end = End::Exhausted;
    let mut partial: Option<Found> = None;
    for &k in which {
        if done.parts.contains(&k) {
            continue;
        }
        let Some(steps) = cut.parts.get(k) else {
            continue;
        };
        // What is left of the limits, for all the parts together; none left is a cut
        // before the part begins.
        let cfg = match config.left_after(start, stats.nodes) {
            Some(cfg) if config.node_limit.is_none_or(|n| stats.nodes < n) => cfg,
            Some(_) => {
                end = End::Cut(Limit::Nodes);
                break;
            }
            None => {
                end = End::Cut(Limit::Time);
                break;
            }
        };
        if config
            .interrupt
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
        {
            end = End::Cut(Limit::Interrupted);
            break;
        }
        let out = opt.solve_part(forced, steps, wanted, &cfg, Some((&shared, k)), on_improve)?;
        for s in [&mut stats, &mut done.stats] {
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
        if let End::Cut(limit) = out.end {
            partial = found;
            end = End::Cut(limit);
            break;
        }
        // A part finds only what beats the incumbent (or ties it from an earlier
        // part), so what it finds is the new best; compared all the same.
        if let Some(f) = found
            && done.best.as_ref().is_none_or(|b| f.better_than(b, sign))
        {
            done.best = Some(f);
        }
        done.parts.insert(k);
        after_part(done);
    }
    stats.elapsed = start.elapsed();
    let best = match (&done.best, partial) {
        (Some(b), Some(p)) if p.better_than(b, sign) => Some(p),
        (Some(b), _) => Some(b.clone()),
        (None, p) => p,
    };
    let complete = end == End::Exhausted && which.iter().all(|k| done.parts.contains(k));
    Ok(Optimum {
        value: best.as_ref().map(|b| b.value),
        values: best.iter().map(|b| b.value).collect(),
        solutions: best.into_iter().map(|b| b.solution).collect(),
        optimal: complete,
        stats,
        end,
    })
}
