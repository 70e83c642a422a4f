//! The memo arm of a run: counts by memo (Algorithm Z), and random solutions drawn by
//! its counts.
//!
//! `--memo auto` (the default for `--count`) first probes: a memo count cut off after
//! [`PROBE_NODES`] nodes. A problem that small is counted by the probe itself. A
//! bigger one goes on by memo when the probe found at least one state in
//! [`PAYS`] in its table (tilings and matchings find most of them there), and is
//! otherwise counted by visiting every solution, as without memo: where pieces are
//! used once (pentominoes, queens, Langford pairs) states do not come back, and the
//! probe's thousandth of a second is all it cost. Whatever the probe stored stays in
//! the table for the count that follows.

use std::time::Instant;

use super::{Answer, Failure, Sink};
use crate::instance::Instance;
use crate::problem::{OptionId, Problem};
use crate::solve::memo::{Count, Counter, Limits, MemoStats, Stop, sample, zdd};
use crate::solve::{End, Limit, SearchConfig};
use crate::task::{Memo, Mode, Task};

/// Nodes the probe of `--memo auto` may visit.
pub const PROBE_NODES: u64 = 30_000;

/// The least share of the probe's nodes found in the table (1 in `PAYS`) for the memo
/// to go on.
pub const PAYS: u64 = 8;

/// The stack of the thread the memo search runs on: its recursion goes one level an
/// option chosen, and a board of a hundred thousand cells must not overflow it. Only
/// the pages it touches are ever backed by memory.
const STACK: usize = 1 << 30;

/// What a memo run found.
#[derive(Clone, Debug)]
pub struct Memoed {
    /// The number of solutions (a lower bound when `end` is a cut).
    pub count: Count,
    /// How the count ended.
    pub end: End,
    /// The table and the search, for `--stats`.
    pub stats: MemoStats,
    /// The solutions drawn and shown to the sink (`--sample K`).
    pub sampled: Option<u64>,
    /// Whether `--memo auto` probed first.
    pub probed: bool,
}

/// Runs the task by memo, or `None` when it does not: the task is no count or
/// sample, `--memo off`, or the probe of `--memo auto` found that states do not
/// repeat.
pub(super) fn run(
    task: &Task,
    inst: &Instance,
    config: &SearchConfig,
    sink: &mut dyn Sink,
) -> Result<Option<Answer>, Failure> {
    let sampling = match task.mode {
        Mode::Sample(k) => Some(k),
        Mode::Count(None) => None,
        _ => return Ok(None),
    };
    if task.memo == Memo::Off
        || (task.memo == Memo::Auto && task.engine != crate::solve::EngineChoice::Auto)
    {
        return Ok(None);
    }
    let started = Instant::now();
    let problem = &inst.compiled.problem;
    let reduced;
    let (p, original): (&Problem, Option<&[OptionId]>) = if inst.forced.is_empty() {
        (problem, None)
    } else {
        reduced = crate::solve::reduce::reduce(problem, &inst.forced)?;
        (&reduced.problem, Some(&reduced.original[..]))
    };
    let limits = Limits {
        node_limit: config.node_limit,
        // A limit past what the clock can add (`--time-limit 1e20`) is no deadline.
        deadline: config.time_limit.and_then(|t| started.checked_add(t)),
        interrupt: config.interrupt.clone(),
        max_bytes: table_bytes(),
    };
    let order = task
        .memo_order
        .unwrap_or_else(|| crate::solve::memo::choose(p));
    let probe = task.memo == Memo::Auto && sampling.is_none() && task.zdd.is_none();
    let seed = task.seed;
    let forced = &inst.forced;
    let node_limit = config.node_limit;
    let want_zdd = task.zdd.is_some();
    // The search recurses once an option chosen: it runs on a thread of its own with
    // a deep stack; solutions drawn come back to be shown here.
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("memo".into())
            .stack_size(STACK)
            .spawn_scoped(scope, || {
                let mut counter = Counter::new(p, order, limits);
                if probe {
                    counter
                        .set_limits(Some(node_limit.map_or(PROBE_NODES, |n| n.min(PROBE_NODES))));
                    match counter.count() {
                        Ok(c) => {
                            return Some((
                                counter_stats(&counter, started),
                                Ok(c),
                                Vec::new(),
                                None,
                            ));
                        }
                        Err((Stop::Nodes, _)) if node_limit.is_some_and(|n| n <= PROBE_NODES) => {}
                        Err((Stop::Nodes, _)) => {
                            let s = counter.stats(started.elapsed());
                            if s.hits.saturating_mul(PAYS) < s.nodes {
                                return None;
                            }
                        }
                        Err(_) => {}
                    }
                    counter.set_limits(node_limit);
                }
                let counted = counter.count();
                let diagram = (want_zdd && counted.is_ok()).then(|| zdd::build(&mut counter));
                let mut drawn = Vec::new();
                if let (Some(k), Ok(total)) = (sampling, &counted)
                    && !total.is_zero()
                {
                    let mut draws = sample::Sampler::new(&mut counter, seed);
                    let mut one = Vec::new();
                    for _ in 0..k {
                        draws.draw(&mut one);
                        drawn.push(one.clone());
                    }
                }
                Some((counter_stats(&counter, started), counted, drawn, diagram))
            })
            .expect("a thread for the memo search")
            .join()
            .expect("the memo search does not panic")
    });
    let Some((stats, counted, drawn, diagram)) = outcome else {
        return Ok(None);
    };
    let (count, end) = match counted {
        Ok(c) => (c, End::Exhausted),
        Err((stop, c)) => (
            c,
            End::Cut(match stop {
                Stop::Nodes => Limit::Nodes,
                Stop::Time => Limit::Time,
                Stop::Interrupted => Limit::Interrupted,
            }),
        ),
    };
    if let (Some(path), Some(mut z)) = (&task.zdd, diagram) {
        // The ZDD's variables are options of the original problem.
        for v in &mut z.vars {
            *v = original.map_or(*v, |m| m[v.index()]);
        }
        sink.zdd(path, &z)?;
    }
    let mut chosen = Vec::new();
    let mut shown = 0;
    for d in &drawn {
        chosen.clear();
        chosen.extend_from_slice(forced);
        chosen.extend(d.iter().map(|&o| original.map_or(o, |m| m[o.index()])));
        shown += 1;
        if sink.solution(&chosen) == crate::solve::Flow::Stop {
            break;
        }
    }
    Ok(Some(Answer::Memo(Memoed {
        count,
        end,
        stats,
        sampled: sampling.map(|_| shown),
        probed: probe,
    })))
}

fn counter_stats(c: &Counter, started: Instant) -> MemoStats {
    c.stats(started.elapsed())
}

/// The bytes the table may take: most of what the memory budget (`--max-memory`)
/// leaves, so that the run ends with its count, never killed for memory.
fn table_bytes() -> usize {
    use crate::lower::budget;
    budget::budget().saturating_sub(budget::in_use()) / 10 * 8
}
