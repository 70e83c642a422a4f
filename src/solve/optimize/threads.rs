//! Branch and bound on several threads.
//!
//! The tree is cut near the root into parts, breadth first, as the search itself would
//! branch ([`Optimizer::branch`]): each part is the list of [`Step`]s that leads to it,
//! so at an at-least-once item a part also excludes the options its earlier siblings
//! chose, and the parts are disjoint. Threads take the parts in the order the search
//! would have reached them (most promising first), each on its own copy of the
//! optimizer, and all prune against one shared incumbent: the best value any of them
//! has found, an atomic integer read at every node and lowered by whoever improves it.
//!
//! The answer is the sequential search's, whatever the timing. The sequential search
//! shows the first optimal solution in its order: the first that the first part (in
//! part order) holding one finds, since a part's order is the sequential one (the same
//! state at a node gives the same order of options). So the incumbent remembers which
//! part found it ([`Incumbent`]): a part prunes what cannot beat it, and what can only
//! tie it when an earlier part found it; a tie with a later part's value is still
//! searched, since it may be the answer. With `all`, every optimal solution is listed
//! once, in the order of the parts.

use crate::clock::Instant;
use std::collections::HashSet;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};

use super::{Optimizer, Optimum, Step, Wanted};
use crate::problem::OptionId;
use crate::solve::{Clash, End, SearchConfig, Stats};

/// Parts made per thread: enough that a thread that finishes early finds another
/// while the most promising parts are still being searched.
const PARTS_PER_THREAD: usize = 16;

/// Levels of the tree the split goes down at most.
const MAX_DEPTH: usize = 4;

/// The best value found by any part, as minimized, and the first part (in part order)
/// that found it.
///
/// Read at every node without a lock: the value and the part are two atomics, and a
/// writer (holding the lock, so writers take turns) first marks the part unknown, then
/// writes the value, then the part. A reader that sees the same known part before and
/// after reading the value has a consistent pair; otherwise it knows the value only,
/// which prunes less, never wrongly. Loads and stores are sequentially consistent,
/// plain moves on x86.
///
/// For the k best ([`Incumbent::ranked`]) the value is the k-th least of every value
/// offered, and no part is known: a subtree dearer than it is pruned, never one that
/// ties it. Sound because every offer is another solution: the cost-sorted engine,
/// the only one that keeps k best, cuts the tree into disjoint parts and finds each
/// solution of a part once, so k solutions at most that dear exist.
#[derive(Debug)]
pub(crate) struct Incumbent {
    value: AtomicI64,
    part: AtomicUsize,
    /// The writers' turn, and with a rank above 1 the `rank` least values offered.
    write: Mutex<Vec<i64>>,
    rank: usize,
}

/// The part of an incumbent being written, or of none yet.
const UNKNOWN: usize = usize::MAX;

impl Incumbent {
    fn new() -> Incumbent {
        Incumbent::seeded(None)
    }

    /// An incumbent of the `rank` best values (see the type's documentation).
    fn ranked(rank: usize) -> Incumbent {
        Incumbent {
            rank: rank.max(1),
            ..Incumbent::new()
        }
    }

    /// An incumbent that starts from `best` (a value as minimized, and the part that
    /// found it): the best of the parts a checkpoint says are done.
    pub(crate) fn seeded(best: Option<(i64, usize)>) -> Incumbent {
        let (value, part) = best.unwrap_or((i64::MAX, UNKNOWN));
        Incumbent {
            value: AtomicI64::new(value),
            part: AtomicUsize::new(part),
            write: Mutex::new(Vec::new()),
            rank: 1,
        }
    }

    /// The value (`i64::MAX`: none yet) and, when known, the part that found it.
    #[inline]
    pub(crate) fn read(&self) -> (i64, Option<usize>) {
        let before = self.part.load(Ordering::SeqCst);
        let value = self.value.load(Ordering::SeqCst);
        let after = self.part.load(Ordering::SeqCst);
        (
            value,
            (before == after && before != UNKNOWN).then_some(before),
        )
    }

    /// Part `part` found a solution of value `value`: it becomes the incumbent if it is
    /// better, or as good and found by an earlier part; with a rank, it joins the least
    /// values offered.
    pub(crate) fn offer(&self, value: i64, part: usize) {
        let mut least = self
            .write
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if self.rank > 1 {
            least.push(value);
            least.sort_unstable();
            least.truncate(self.rank);
            if least.len() == self.rank {
                self.value.store(least[self.rank - 1], Ordering::SeqCst);
            }
            return;
        }
        let (v, p) = (
            self.value.load(Ordering::SeqCst),
            self.part.load(Ordering::SeqCst),
        );
        if (value, part) < (v, p) {
            self.part.store(UNKNOWN, Ordering::SeqCst);
            self.value.store(value, Ordering::SeqCst);
            self.part.store(part, Ordering::SeqCst);
        }
    }

    /// Whether part `part` can skip a subtree whose solutions cost at least `total`:
    /// they cannot beat the incumbent, or can only tie it when an earlier part found it
    /// (a tie with a later part's value may be the answer; with `all`, every tie is).
    #[inline]
    pub(crate) fn prunes(&self, total: i64, part: usize, all: bool) -> bool {
        let (v, by) = self.read();
        let tie_too = !all && by.is_some_and(|p| p < part);
        total > v || (total == v && tie_too)
    }
}

/// [`Optimizer::solve`] on `threads` threads (see the module documentation). With one
/// thread, or with a node limit (a statement about one sequential search), it is the
/// sequential search. `on_improve` is called on the calling thread, each time the best
/// value found anywhere improves.
pub fn solve_on_threads(
    opt: &mut Optimizer,
    forced: &[OptionId],
    all: bool,
    config: &SearchConfig,
    threads: usize,
    on_improve: &mut dyn FnMut(i64, &[OptionId]),
) -> Result<Optimum, Clash> {
    if threads <= 1 || config.node_limit.is_some() {
        return opt.solve(forced, all, config, on_improve);
    }
    let start = Instant::now();
    let sign = opt.objective().sign();
    // Each part's tree depends only on the problem (module `priced`), and one best
    // value is shared.
    let wanted = Wanted {
        exact: true,
        ..Wanted::optimum(all)
    };
    let results = search_parts(
        opt,
        forced,
        wanted,
        config,
        threads,
        &Incumbent::new(),
        on_improve,
    )?;
    // A part is left unsearched only after a limit cut another, which says so.
    Ok(merge(results, all, sign, start))
}

/// [`Optimizer::solve_best`] on `threads` threads: each part keeps its own `best`
/// cheapest solutions, pruning what is dearer than the `best`-th least value found by
/// any part (an [`Incumbent::ranked`]; a tie is kept, since it may come first by part
/// order), and the listing is the first `best` of all of them in the order (value,
/// part, order within the part). That is the order of the k best
/// of one search whose tree depends only on the problem ([`Optimizer::solve_exact`]'s),
/// so the listing is the same on any number of threads from two; the values listed are
/// those of the sequential search on one thread, whose order among solutions of equal
/// value follows DLX5's thresholds and may differ. With one thread, or a node limit, it
/// is that sequential search.
pub fn solve_best_on_threads(
    opt: &mut Optimizer,
    forced: &[OptionId],
    best: usize,
    config: &SearchConfig,
    threads: usize,
    on_improve: &mut dyn FnMut(i64, &[OptionId]),
) -> Result<Optimum, Clash> {
    // Only the cost-sorted engine keeps k best (the others keep the optimum alone,
    // as `solve_best` says).
    if threads <= 1 || config.node_limit.is_some() || best <= 1 || !opt.is_priced() {
        return opt.solve_best(forced, best, config, on_improve);
    }
    let start = Instant::now();
    let sign = opt.objective().sign();
    let wanted = Wanted {
        best,
        exact: true,
        ..Wanted::optimum(false)
    };
    // The k-th least value found anywhere bounds what a part keeps.
    let shared = Incumbent::ranked(best);
    let results = search_parts(opt, forced, wanted, config, threads, &shared, on_improve)?;
    Ok(merge_best(results, best, sign, start))
}

/// Splits the tree ([`split`]) and searches the parts on `threads` threads, each on
/// its own copy of `opt`, taking them in order and pruning against `shared`; returns
/// each part's answer with its number, in part order. A part cut by a limit stops its
/// thread (every other part would be cut by the same limit).
fn search_parts(
    opt: &mut Optimizer,
    forced: &[OptionId],
    wanted: Wanted,
    config: &SearchConfig,
    threads: usize,
    shared: &Incumbent,
    on_improve: &mut dyn FnMut(i64, &[OptionId]),
) -> Result<Vec<(usize, Optimum)>, Clash> {
    let start = Instant::now();
    let parts = split(opt, forced, threads * PARTS_PER_THREAD)?;
    let (opt, parts) = (&*opt, &parts);
    let sign = opt.objective().sign();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(i64, Vec<OptionId>)>();
    let mut results: Vec<(usize, Optimum)> = Vec::new();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(parts.len()).max(1))
            .map(|_| {
                let tx = tx.clone();
                let mut opt = opt.clone();
                let next = &next;
                scope.spawn(move || {
                    let mut done = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(part) = parts.get(k) else { break };
                        let cfg = config.for_piece(start);
                        let mut improve = |v: i64, sol: &[OptionId]| {
                            // The receiver outlives the workers; a failed send only
                            // means nobody listens any more.
                            let _ = tx.send((v, sol.to_vec()));
                        };
                        let out = opt
                            .solve_part(forced, part, wanted, &cfg, Some((shared, k)), &mut improve)
                            .expect("the forced options were checked before the split");
                        let cut = matches!(out.end, End::Cut(_));
                        done.push((k, out));
                        if cut {
                            break;
                        }
                    }
                    done
                })
            })
            .collect();
        drop(tx);
        // Improvements arrive from every thread; only those that beat every earlier one
        // are news.
        let mut reported: Option<i64> = None;
        for (v, sol) in rx {
            if reported.is_none_or(|r| sign * v < sign * r) {
                reported = Some(v);
                on_improve(v, &sol);
            }
        }
        for w in workers {
            results.extend(w.join().expect("an optimizing thread panicked"));
        }
    });
    results.sort_by_key(|(k, _)| *k);
    Ok(results)
}

/// The parts: the root's subtrees, and theirs, breadth first, until there are at least
/// `want` or the split reaches [`MAX_DEPTH`]. Dead subtrees (an item with no option)
/// are dropped; a part that is already a solution stays whole. The parts depend only
/// on the problem, the forced options, the objective and `want` (the search's choices
/// at a node depend on its state alone): checkpoints and shards of an optimization cut
/// the tree so (module `parts`).
pub(crate) fn split(
    opt: &mut Optimizer,
    forced: &[OptionId],
    want: usize,
) -> Result<Vec<Vec<Step>>, Clash> {
    let mut parts: Vec<Vec<Step>> = vec![Vec::new()];
    for _ in 0..MAX_DEPTH {
        if parts.len() >= want {
            break;
        }
        let mut deeper = Vec::with_capacity(parts.len() * 4);
        for part in parts {
            match opt.branch(forced, &part)? {
                None => deeper.push(part),
                Some((repeat, options)) => {
                    for (k, &o) in options.iter().enumerate() {
                        let mut steps = part.clone();
                        if repeat {
                            steps.extend(options[..k].iter().map(|&e| Step::Exclude(e)));
                        }
                        steps.push(Step::Commit(o));
                        deeper.push(steps);
                    }
                }
            }
        }
        parts = deeper;
    }
    Ok(parts)
}

/// The whole search's answer from its parts' (in part order): the best value, the
/// solutions of the parts that reached it (every one once with `all`, else the first),
/// the counters added up.
fn merge(results: Vec<(usize, Optimum)>, all: bool, sign: i64, start: Instant) -> Optimum {
    let best = results
        .iter()
        .filter_map(|(_, o)| o.value)
        .min_by_key(|&v| sign * v);
    let mut stats = Stats::default();
    let mut end = End::Exhausted;
    let mut solutions = Vec::new();
    let mut seen: HashSet<Vec<OptionId>> = HashSet::new();
    for (_, out) in results {
        stats.nodes += out.stats.nodes;
        stats.updates += out.stats.updates;
        stats.solutions += out.stats.solutions;
        if let (End::Cut(limit), End::Exhausted) = (out.end, end) {
            end = End::Cut(limit);
        }
        if out.value.is_none() || out.value != best || (!all && !solutions.is_empty()) {
            continue;
        }
        for sol in out.solutions {
            let mut key = sol.clone();
            key.sort_unstable();
            if seen.insert(key) {
                solutions.push(sol);
            }
            if !all {
                break;
            }
        }
    }
    stats.elapsed = start.elapsed();
    Optimum {
        value: best,
        values: vec![best.unwrap_or(0); solutions.len()],
        solutions,
        optimal: end == End::Exhausted,
        stats,
        end,
    }
}

/// The whole k-best search's answer from its parts' (in part order): the first `best`
/// solutions in the order (value, part, order within the part), and the counters added
/// up.
fn merge_best(results: Vec<(usize, Optimum)>, best: usize, sign: i64, start: Instant) -> Optimum {
    let mut stats = Stats::default();
    let mut end = End::Exhausted;
    let mut listed: Vec<(i64, Vec<OptionId>)> = Vec::new();
    for (_, out) in results {
        stats.nodes += out.stats.nodes;
        stats.updates += out.stats.updates;
        stats.solutions += out.stats.solutions;
        if let (End::Cut(limit), End::Exhausted) = (out.end, end) {
            end = End::Cut(limit);
        }
        listed.extend(out.values.into_iter().zip(out.solutions));
    }
    // Stable: among equal values, part order, then each part's own order. The parts
    // are disjoint (see `Incumbent`), so no solution is listed twice.
    listed.sort_by_key(|(v, _)| sign * v);
    listed.truncate(best);
    stats.elapsed = start.elapsed();
    let (values, solutions): (Vec<i64>, Vec<Vec<OptionId>>) = listed.into_iter().unzip();
    Optimum {
        value: values.first().copied(),
        values,
        solutions,
        optimal: end == End::Exhausted,
        stats,
        end,
    }
}
