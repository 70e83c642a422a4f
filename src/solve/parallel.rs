//! Counting on several threads.
//!
//! A count is a pool of threads, each with its own copy of the solver, taking *parts*
//! from a shared queue: a part is a list of forced options, the solutions containing
//! them (with multiplicities, and none of its excluded options; see [`pool`]). The count starts as one part, the whole tree. A thread that
//! finds the queue empty is idle, and a running search that notices (every 1024 nodes)
//! gives it the untried options of its shallowest level: work stealing, at the cheapest
//! place to cut, near the root. What moves is exact (see [`super::share`]), so the
//! counts add up to the sequential count on any number of threads, and a count cut
//! short knows its exact frontier: what it did not explore, as parts that a later run
//! can resume.
//!
//! Most counts are small (a sudoku's is one, in a hundred nodes), and starting threads
//! costs more than such a count: so a search first runs on the calling thread for
//! [`PROBE_NODES`] nodes, and only a search still running then hands its frontier to the
//! pool. Only dancing cells give work away (the links engines search on one thread),
//! and a node limit, or a count with `max_solutions`, is a statement about one
//! sequential search, so those run on one thread too. Searches that show solutions
//! ([`search`]) show them on the calling thread as the workers find them.
//!
//! Shards ([`shard`]) are a fixed split of the tree, the same on every machine: the
//! frontier expanded breadth first to many parts, dealt round-robin into `n` shards.

use crate::clock::Instant;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use super::share::{Part, Share, Want};
use super::{Clash, End, Flow, Limit, Outcome, SearchConfig, Solver};
use crate::problem::OptionId;

pub mod pool;

pub use pool::{Frontier, Progress, Unwatched, Watch};

/// The visitor of a search that shows its solutions.
type Visit<'a> = &'a mut dyn FnMut(&[OptionId]) -> Flow;

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

/// [`count`] with a first search of `probe` nodes on the calling thread before the pool
/// starts (0: at once), and checks every `mask + 1` nodes: tests make work move often
/// on small problems.
#[doc(hidden)]
pub fn count_tuned(
    solver: &mut Solver,
    forced: &[OptionId],
    config: &SearchConfig,
    threads: usize,
    probe: u64,
    mask: u64,
) -> Result<Outcome, Clash> {
    let counting = SearchConfig {
        count_only: true,
        ..config.clone()
    };
    if threads <= 1 || !pooled(solver, config) {
        return solver.search(forced, &counting, &mut |_| Flow::Continue);
    }
    spread(solver, forced, &counting, threads, probe, mask, None)
}

/// Searches for the solutions that contain `forced` on `threads` threads, showing each
/// to `visit` on the calling thread as it is found: in another order than a search on
/// one thread, but each once. `config.max_solutions` counts the solutions shown. A
/// search with a node limit, or on an engine that cannot give work away, runs on one
/// thread.
pub fn search(
    solver: &mut Solver,
    forced: &[OptionId],
    config: &SearchConfig,
    threads: usize,
    visit: &mut dyn FnMut(&[OptionId]) -> Flow,
) -> Result<Outcome, Clash> {
    search_tuned(solver, forced, config, threads, PROBE_NODES, 1023, visit)
}

/// [`search`] with the first search's nodes and the checks' frequency of
/// [`count_tuned`], for tests.
#[doc(hidden)]
pub fn search_tuned(
    solver: &mut Solver,
    forced: &[OptionId],
    config: &SearchConfig,
    threads: usize,
    probe: u64,
    mask: u64,
    visit: &mut dyn FnMut(&[OptionId]) -> Flow,
) -> Result<Outcome, Clash> {
    if threads <= 1 || !solver.can_branch() || config.node_limit.is_some() {
        return solver.search(forced, config, visit);
    }
    spread(solver, forced, config, threads, probe, mask, Some(visit))
}

/// Searches `probe` nodes on the calling thread; if that does not finish the search,
/// the frontier it hands back goes to the pool. Nothing is searched twice.
fn spread(
    solver: &mut Solver,
    forced: &[OptionId],
    config: &SearchConfig,
    threads: usize,
    probe: u64,
    mask: u64,
    mut visit: Option<Visit<'_>>,
) -> Result<Outcome, Clash> {
    let start = Instant::now();
    let rest = Arc::new(Collect::default());
    let first = SearchConfig {
        node_limit: Some(probe),
        share: Some(rest.clone()),
        ..config.clone()
    };
    let out = match visit.as_deref_mut() {
        Some(v) => solver.search(forced, &first, v)?,
        None => solver.search(forced, &first, &mut |_| Flow::Continue)?,
    };
    if out.end != End::Cut(Limit::Nodes) {
        return Ok(out);
    }
    let parts = std::mem::take(&mut *rest.parts.lock().unwrap_or_else(|e| e.into_inner()));
    let pooled = SearchConfig {
        max_solutions: None,
        ..config.for_piece(start)
    };
    let emit = visit.map(|visit| pool::Emit {
        visit,
        quota: config
            .max_solutions
            .map(|m| m.saturating_sub(out.stats.solutions)),
    });
    let f = pool::run(
        solver,
        parts,
        &pooled,
        threads,
        mask,
        &mut pool::Unwatched,
        emit,
    )?;
    let mut total = f.counted;
    total.stats.nodes += out.stats.nodes;
    total.stats.updates += out.stats.updates;
    total.stats.solutions += out.stats.solutions;
    total.stats.elapsed = start.elapsed();
    Ok(total)
}

/// Keeps the parts a first search hands back when its node limit cuts it short.
#[derive(Debug, Default)]
struct Collect {
    parts: Mutex<Vec<Part>>,
}

impl Share for Collect {
    fn wanted(&self) -> Want {
        Want::Nothing
    }
    fn give(&self, parts: Vec<Part>) {
        self.parts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(parts);
    }
    fn report(&self, _: f64, _: u128, _: u64) {}
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
    pool::run(solver, parts, &config, threads, mask, watch, None)
}

/// The frontier under `forced`, expanded breadth first until it has at least `want`
/// parts or cannot grow: disjoint parts whose solutions together are those containing
/// `forced`, each weighted by its share of the tree. Deterministic: the same problem
/// gives the same parts, on any machine. Only for solvers that [`Solver::can_branch`].
pub fn split(solver: &mut Solver, forced: &[OptionId], want: usize) -> Result<Vec<Part>, Clash> {
    split_part(solver, &Part::root(forced), want)
}

/// [`split`] of the tree under part `root` (its forced and excluded options), whose
/// parts' weights are their shares of `root`.
pub fn split_part(solver: &mut Solver, root: &Part, want: usize) -> Result<Vec<Part>, Clash> {
    let mut frontier: VecDeque<Part> = VecDeque::from([Part {
        weight: 1.0,
        ..root.clone()
    }]);
    // Solutions found while splitting: parts that cannot be split further.
    let mut leaves = Vec::new();
    while frontier.len() < want {
        let Some(node) = frontier.pop_front() else {
            break;
        };
        // Only the root can clash: every child is an option alive under its node.
        match solver.branch(&node)? {
            // A solution, or a dead end: kept whole, so that the parts' weights add up
            // to the tree's (a dead end is searched in one node).
            None => leaves.push(node),
            Some(children) if children.is_empty() => leaves.push(node),
            Some(children) => {
                let weight = node.weight / children.len() as f64;
                for c in children {
                    frontier.push_back(node.child(c, weight));
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
    Ok(shards(solver, forced, n)?.swap_remove(k - 1))
}

/// All `n` shards at once (see [`shard`]): one split instead of `n`.
pub fn shards(solver: &mut Solver, forced: &[OptionId], n: usize) -> Result<Vec<Vec<Part>>, Clash> {
    let mut dealt: Vec<Vec<Part>> = vec![Vec::new(); n];
    if n == 0 {
        return Ok(dealt);
    }
    if !solver.can_branch() {
        dealt[0].push(Part::root(forced));
        return Ok(dealt);
    }
    for (i, p) in split(solver, forced, n.saturating_mul(PARTS_PER_SHARD))?
        .into_iter()
        .enumerate()
    {
        dealt[i % n].push(p);
    }
    Ok(dealt)
}
