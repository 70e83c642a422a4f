//! Counting on several threads.
//!
//! The tree is split at its top into disjoint parts: a node is the list of options
//! forced on the way to it, and its children are the options of the item the search
//! would branch on there ([`Solver::branch`]). Every solution covers that item with
//! exactly one of them, so the children's solutions are disjoint and together are the
//! node's. The frontier is expanded breadth first until it holds many more parts than
//! threads (so that a part that turns out large is not alone on the critical path),
//! then each thread, with its own copy of the solver, takes the next part from a shared
//! index and counts it. The split depends only on the problem, never on the number of
//! threads, so every thread count adds up the same parts.
//!
//! Most counts are small (a sudoku's is one, in a hundred nodes), and splitting costs
//! more than such a count: so a count first runs on one thread for [`PROBE_NODES`]
//! nodes, and only a search still running then is split (its probe is thrown away).
//! Only dancing cells split (the links engines count on one thread), and only whole
//! counts do: a node limit or `max_solutions` is a statement about one sequential
//! search, so such counts run on one thread too.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::{Clash, End, Flow, Limit, Outcome, SearchConfig, Solver, Stats};
use crate::problem::OptionId;

/// Parts per thread the frontier aims for before the threads start.
const PARTS_PER_THREAD: usize = 64;

/// Nodes a count runs on one thread before it is split: about a millisecond, against
/// a split of a few hundred branchings and the start of the threads. Measured on the
/// 17-clue sudokus counted one record at a time (2,000 records): 0.15 s on one
/// thread, 7.5 s when every record was split.
pub const PROBE_NODES: u64 = 20_000;

/// Counts the solutions that contain `forced` on `threads` threads (see the module
/// documentation for when it stays on one). `config.count_only` is implied.
pub fn count(
    solver: &mut Solver,
    forced: &[OptionId],
    config: &SearchConfig,
    threads: usize,
) -> Result<Outcome, Clash> {
    count_after_probe(solver, forced, config, threads, PROBE_NODES)
}

/// [`count`] with a probe of `probe` nodes before the split (0: split at once).
pub fn count_after_probe(
    solver: &mut Solver,
    forced: &[OptionId],
    config: &SearchConfig,
    threads: usize,
    probe: u64,
) -> Result<Outcome, Clash> {
    let start = Instant::now();
    let sequential = SearchConfig {
        count_only: true,
        ..config.clone()
    };
    if threads <= 1
        || !solver.can_branch()
        || config.node_limit.is_some()
        || config.max_solutions.is_some()
    {
        return solver.search(forced, &sequential, &mut |_| Flow::Continue);
    }
    if probe > 0 {
        let probing = SearchConfig {
            node_limit: Some(probe),
            ..sequential.clone()
        };
        let out = solver.search(forced, &probing, &mut |_| Flow::Continue)?;
        if out.end != End::Cut(Limit::Nodes) {
            return Ok(out);
        }
    }
    let parts = split(solver, forced, threads * PARTS_PER_THREAD)?;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let counted: Vec<Result<Outcome, Clash>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let mut mine = solver.clone();
                let (parts, next, stop, sequential) = (&parts, &next, &stop, &sequential);
                scope.spawn(move || {
                    let mut total = Outcome {
                        stats: Stats::default(),
                        end: End::Exhausted,
                    };
                    while !stop.load(Ordering::Relaxed) {
                        let Some(part) = parts.get(next.fetch_add(1, Ordering::Relaxed)) else {
                            break;
                        };
                        // The time limit is the whole count's, not each part's.
                        let mut cfg = sequential.clone();
                        if let Some(t) = config.time_limit {
                            match t.checked_sub(start.elapsed()) {
                                Some(left) if left > Duration::ZERO => cfg.time_limit = Some(left),
                                _ => {
                                    total.end = End::Cut(Limit::Time);
                                    stop.store(true, Ordering::Relaxed);
                                    break;
                                }
                            }
                        }
                        let out = mine.search(part, &cfg, &mut |_| Flow::Continue)?;
                        total.absorb(&out);
                        if total.end != End::Exhausted {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    Ok(total)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut total = Outcome {
        stats: Stats::default(),
        end: End::Exhausted,
    };
    for out in counted {
        total.absorb(&out?);
    }
    total.stats.elapsed = start.elapsed();
    Ok(total)
}

/// The frontier under `forced`, expanded breadth first until it has at least `want`
/// parts or cannot grow: disjoint lists of forced options whose solutions together
/// are those containing `forced`. Deterministic: the same problem gives the same parts.
pub fn split(
    solver: &mut Solver,
    forced: &[OptionId],
    want: usize,
) -> Result<Vec<Vec<OptionId>>, Clash> {
    let mut frontier: VecDeque<Vec<OptionId>> = VecDeque::from([forced.to_vec()]);
    // Solutions found while splitting: parts that cannot be split further.
    let mut leaves = Vec::new();
    while frontier.len() < want {
        let Some(node) = frontier.pop_front() else {
            break;
        };
        // Only the root can clash: every child is an option alive under its node.
        match solver.branch(&node)? {
            None => leaves.push(node),
            Some(options) => {
                for o in options {
                    let mut child = node.clone();
                    child.push(o);
                    frontier.push_back(child);
                }
            }
        }
    }
    leaves.extend(frontier);
    Ok(leaves)
}
