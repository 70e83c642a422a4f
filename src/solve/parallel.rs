//! Counting on several threads.
//!
//! A count is a pool of threads, each with its own copy of the solver, taking *parts*
//! from a shared queue: a part is a list of forced options, the solutions containing
//! them (see [`pool`]). The count starts as one part, the whole tree. A thread that
//! finds the queue empty is idle, and a running search that notices (every 1024 nodes)
//! gives it the untried options of its shallowest level: work stealing, at the cheapest
//! place to cut, near the root. What moves is exact (see [`super::share`]), so the
//! counts add up to the sequential count on any number of threads, and a count cut
//! short knows its exact frontier: what it did not explore, as parts that a later run
//! can resume.
//!
//! Most counts are small (a sudoku's is one, in a hundred nodes), and starting threads
//! costs more than such a count: so a count first runs on one thread for
//! [`PROBE_NODES`] nodes, and only a search still running then goes to the pool (its
//! probe is thrown away). Only dancing cells give work away (the links engines count
//! on one thread), and only whole counts do: a node limit or `max_solutions` is a
//! statement about one sequential search, so such counts run on one thread too.
//!
//! Shards ([`shard`]) are a fixed split of the tree, the same on every machine: the
//! frontier expanded breadth first to many parts, dealt round-robin into `n` shards.

use std::collections::VecDeque;
use std::time::Instant;

use super::share::Part;
use super::{Clash, End, Flow, Limit, Outcome, SearchConfig, Solver};
use crate::problem::OptionId;

pub mod pool;

pub use pool::{Frontier, Progress, Watch};

/// Parts per shard the fixed split of [`shard`] aims for, so that a shard is many
/// small pieces of the tree and not one large one.
const PARTS_PER_SHARD: usize = 64;

/// Nodes a count runs on one thread before it goes to the pool: about a millisecond,
/// against the start of the threads. Measured on the 17-clue sudokus counted one
/// record at a time (2,000 records): 0.15 s on one thread, 7.5 s when every record was
/// split.
pub const PROBE_NODES: u64 = 20_000;

/// Counts the solutions that contain `forced` on `threads` threads (see the module
/// documentation for when it stays on one). `config.count_only` is implied.
pub fn count(
    solver: &mut Solver,
    forced: &[OptionId],
    config: &SearchConfig,
    threads: usize,
) -> Result<Outcome, Clash> {
    count_tuned(solver, forced, config, threads, PROBE_NODES, 1023)
}

/// [`count`] with a probe of `probe` nodes before the pool starts (0: at once), and
/// checks every `mask + 1` nodes: tests make work move often on small problems.
#[doc(hidden)]
pub fn count_tuned(
    solver: &mut Solver,
    forced: &[OptionId],
    config: &SearchConfig,
    threads: usize,
    probe: u64,
    mask: u64,
) -> Result<Outcome, Clash> {
    let sequential = SearchConfig {
        count_only: true,
        ..config.clone()
    };
    if threads <= 1 || !pooled(solver, config) {
        return solver.search(forced, &sequential, &mut |_| Flow::Continue);
    }
    let start = Instant::now();
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
    // The probe shows the forced options do not clash, so no part can.
    let whole = vec![Part {
        forced: forced.to_vec(),
        weight: 1.0,
    }];
    let config = SearchConfig {
        time_limit: config.time_limit.map(|t| t.saturating_sub(start.elapsed())),
        ..sequential
    };
    let mut out = pool::run(solver, whole, &config, threads, mask, &mut pool::Unwatched)?.counted;
    out.stats.elapsed = start.elapsed();
    Ok(out)
}

/// Whether a count with `config` can run in the pool: the engine can give work away,
/// and no limit makes the count a statement about one sequential search.
pub fn pooled(solver: &Solver, config: &SearchConfig) -> bool {
    solver.can_branch() && config.node_limit.is_none() && config.max_solutions.is_none()
}

/// Counts the solutions of `parts` in the pool, watched: progress ticks, checkpoints,
/// and the exact frontier when a limit cuts it short (for `--checkpoint`). The solver
/// must be [`pooled`]; it is only cloned.
pub fn count_parts(
    solver: &Solver,
    parts: Vec<Part>,
    config: &SearchConfig,
    threads: usize,
    watch: &mut dyn Watch,
) -> Result<Frontier, Clash> {
    assert!(
        pooled(solver, config),
        "count_parts needs dancing cells and no node or solution limit"
    );
    let config = SearchConfig {
        count_only: true,
        ..config.clone()
    };
    let mask = watch.check_mask();
    pool::run(solver, parts, &config, threads, mask, watch)
}

/// The frontier under `forced`, expanded breadth first until it has at least `want`
/// parts or cannot grow: disjoint parts whose solutions together are those containing
/// `forced`, each weighted by its share of the tree. Deterministic: the same problem
/// gives the same parts, on any machine. Only for solvers that [`Solver::can_branch`].
pub fn split(solver: &mut Solver, forced: &[OptionId], want: usize) -> Result<Vec<Part>, Clash> {
    let mut frontier: VecDeque<Part> = VecDeque::from([Part {
        forced: forced.to_vec(),
        weight: 1.0,
    }]);
    // Solutions found while splitting: parts that cannot be split further.
    let mut leaves = Vec::new();
    while frontier.len() < want {
        let Some(node) = frontier.pop_front() else {
            break;
        };
        // Only the root can clash: every child is an option alive under its node.
        match solver.branch(&node.forced)? {
            None => leaves.push(node),
            Some(options) => {
                let weight = node.weight / options.len() as f64;
                for o in options {
                    let mut forced = node.forced.clone();
                    forced.push(o);
                    frontier.push_back(Part { forced, weight });
                }
            }
        }
    }
    leaves.extend(frontier);
    Ok(leaves)
}

/// Shard `k` of `n` (1-based) of the solutions containing `forced`: the parts of a
/// fixed split ([`split`] to `64 n` parts) whose position is `k - 1` modulo `n`. The
/// shards are disjoint, together they are the whole, and shard `k` of `n` is the same
/// on every machine and for every number of threads. A solver that cannot split (the
/// multiplicity engine) puts the whole tree in shard 1 and leaves the others empty.
///
/// # Panics
///
/// If `k` is not in `1..=n`: the command line checks that.
pub fn shard(
    solver: &mut Solver,
    forced: &[OptionId],
    k: usize,
    n: usize,
) -> Result<Vec<Part>, Clash> {
    assert!((1..=n).contains(&k), "shard {k}/{n} does not exist");
    if !solver.can_branch() {
        let whole = Part {
            forced: forced.to_vec(),
            weight: 1.0,
        };
        return Ok(if k == 1 { vec![whole] } else { Vec::new() });
    }
    let parts = split(solver, forced, n.saturating_mul(PARTS_PER_SHARD))?;
    Ok(parts
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % n == k - 1)
        .map(|(_, p)| p)
        .collect())
}
