//! The memo arm of a run: counts by memo (Algorithm Z), and random solutions drawn by
//! its counts.
//!
//! `--memo auto` (the default for `--count`) first probes, in steps, each cheap next
//! to the count it decides:
//! 1. Knuth's random-probe estimate of the plain search ([`ESTIMATE_PROBES`] probes):
//!    a plain tree under [`SMALL_TREE`] nodes is searched plainly (a fraction of a
//!    second, and little for the memo to win: pentominoes, queens, small Langford
//!    pairs).
//! 2. A memo count cut off after [`PROBE_NODES`] nodes. A problem that small is
//!    counted by it. Where fewer than one state in [`PAYS`] was found in the table,
//!    the count visits every solution, as without memo: states do not come back.
//! 3. A plain tree of more than [`HUGE_TREE`] nodes (hours) is counted by memo, which
//!    finds states again: there is nothing to lose. Between the two, the probe's
//!    progress is weighed against the plain tree ([`pays`]): states that come back
//!    are not enough, since Langford pairs find two in three of theirs in the table,
//!    yet the memo's item order makes their tree five times bigger than the
//!    smallest-remaining-item search's.
//!
//! Whatever the probe stored stays in the table for the count that follows.

use std::time::{Duration, Instant};

use serde_json::json;

use super::{Answer, Failure, Kept, MemoSaved, Sink};
use crate::diag::Code;
use crate::diag::report::Report;
use crate::instance::Instance;
use crate::problem::{OptionId, Problem};
use crate::solve::estimate::{Probes, estimate};
use crate::solve::memo::{
    Count, Counted, Counter, Limits, MemoStats, Order, STACK, Stop, Tally, sample, zdd,
};
use crate::solve::{End, Limit, SearchConfig, Solver};
use crate::task::{Memo, Mode, Task};

/// Nodes the memo probe of `--memo auto` visits.
pub const PROBE_NODES: u64 = 1 << 13;

/// The least share of the probe's nodes found in the table (1 in `PAYS`) for the memo
/// to go on.
pub const PAYS: u64 = 8;

/// Random probes of the estimate that `--memo auto` starts with.
pub const ESTIMATE_PROBES: usize = 200;

/// A plain tree Knuth's estimate puts under this many nodes is searched plainly.
pub const SMALL_TREE: f64 = 1e6;

/// A plain tree Knuth's estimate puts over this many nodes is counted by memo when
/// the probe finds states again.
pub const HUGE_TREE: f64 = 1e10;

/// How many times a plain node a memo node is taken to cost (the memo hashes and
/// looks up every state; measured on Langford pairs and dominoes, 1.5 to 2).
pub const MEMO_NODE_COST: f64 = 2.0;

/// A plain tree this many times the probe's nodes or smaller is searched plainly when
/// neither the probe nor the estimate found a solution to measure progress by: it
/// takes seconds at most.
pub const NO_PROGRESS_TREE: f64 = 1000.0;

/// Whether a probe that stopped at its node limit, having visited `nodes` states and
/// counted `counted` solutions, promises a faster count than the plain search whose
/// tree Knuth's estimate puts at `plain_nodes` nodes and `plain_solutions` solutions.
///
/// The share of all solutions the probe counted is how far it got: going on at the
/// same pace (memo only speeds up as the table fills, so this errs towards the plain
/// search), the memo visits `nodes * solutions / counted` states. A probe that
/// counted nothing where the estimate finds solutions made no progress (Langford
/// pairs of 15 and 16). Where neither found any, a small plain tree is searched
/// plainly, and a big one by memo (a board no tiling fits, whose states the memo
/// closes one by one).
pub fn pays(nodes: u64, counted: f64, plain_nodes: f64, plain_solutions: f64) -> bool {
    let nodes = nodes as f64;
    if plain_solutions >= 1.0 {
        counted > 0.0 && nodes * (plain_solutions / counted) * MEMO_NODE_COST < plain_nodes
    } else {
        counted > 0.0 || plain_nodes > nodes * NO_PROGRESS_TREE
    }
}

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
    /// The fields a shard's JSON summary adds (the shard, the problem's fingerprint
    /// and what defines the split, which `dlxc merge` checks).
    pub fields: Vec<super::Field>,
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
    let threads = task.memo_threads();
    let shard = task.shard;
    // The cut into parts depends on the problem, the item order and N alone.
    let keeping = task.keeps_state();
    let fingerprint = if shard.is_some() || keeping {
        problem.fingerprint(forced)
    } else {
        String::new()
    };
    // A resumed count cuts the tree as the saved one did: in its item order.
    let resumed = match &task.resume {
        Some(path) => {
            let saved = sink
                .resume(path, &fingerprint, problem.options.len())?
                .of_memo(path)?;
            if task.memo_order.is_some_and(|o| o != saved.order) {
                return Err(other_order(path, &saved, order));
            }
            Some(saved)
        }
        None => None,
    };
    let order = resumed.as_ref().map_or(order, |r| r.order);
    let before = resumed.as_ref().map_or(Duration::ZERO, |r| r.elapsed);
    let fields = shard.map_or_else(Vec::new, |x| {
        let mut f = super::shard_fields(x, fingerprint.clone(), "memo");
        f.push(("order", json!(order.name())));
        f
    });
    let every = task
        .checkpoint
        .as_ref()
        .map_or(crate::task::CHECKPOINT_EVERY, |c| c.every);
    // The tallies the count saves on the way come here to be written by the sink.
    let (saves, saved) = std::sync::mpsc::channel::<Tally>();
    let path = task.checkpoint.as_ref().map(|c| c.path.as_path());
    let kept = |sink: &mut dyn Sink, tally: Tally| {
        if let Some(path) = path {
            let m = MemoSaved {
                tally,
                order,
                elapsed: before.saturating_add(started.elapsed()),
            };
            sink.save(path, &fingerprint, Kept::Memo(&m));
        }
    };
    // The search recurses once an option chosen: it runs on a thread of its own with
    // a deep stack; solutions drawn come back to be shown here, and tallies to be
    // saved while it runs.
    let outcome = std::thread::scope(|scope| {
        let searching = std::thread::Builder::new()
            .name("memo".into())
            .stack_size(STACK)
            .spawn_scoped(scope, move || {
                let mut counter = Counter::on_threads(p, order, limits, threads);
                if probe {
                    match probe_memo(&mut counter, p, node_limit, seed, started) {
                        Probed::Counted(c) => {
                            return Some(Ok(Searched {
                                stats: counter_stats(&counter, started),
                                counted: c,
                                drawn: Vec::new(),
                                diagram: None,
                            }));
                        }
                        Probed::Plain => return None,
                        Probed::Memo => {}
                    }
                    counter.set_limits(node_limit);
                }
                let counted = if keeping {
                    let save = |t: &Tally| {
                        let _ = saves.send(t.clone());
                    };
                    let tally = resumed.map(|r| r.tally);
                    match counter.count_saving(shard.map(|x| (x.k, x.n)), tally, every, &save) {
                        Ok((counted, last)) => {
                            let _ = saves.send(last);
                            counted
                        }
                        Err(why) => return Some(Err(why)),
                    }
                } else {
                    drop(saves);
                    match shard {
                        Some(x) => counter.count_shard(x.k, x.n),
                        None => counter.count(),
                    }
                };
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
                Some(Ok(Searched {
                    stats: counter_stats(&counter, started),
                    counted,
                    drawn,
                    diagram,
                }))
            });
        // Until the search ends and drops its end of the channel.
        for tally in saved {
            kept(&mut *sink, tally);
        }
        searching.map(|t| t.join())
    });
    let outcome = match outcome {
        Ok(Ok(o)) => o,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(e) => return Err(no_thread(e)),
    };
    let Searched {
        mut stats,
        counted,
        drawn,
        diagram,
    } = match outcome {
        None => return Ok(None),
        Some(Ok(s)) => s,
        Some(Err(why)) => return Err(not_this_cut(task, &why)),
    };
    stats.elapsed = stats.elapsed.saturating_add(before);
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
    let diagram = match diagram {
        Some(Err(too_big)) => return Err(zdd_too_big(too_big)),
        Some(Ok(z)) => Some(z),
        None => None,
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
        fields,
    })))
}

/// What the memo search's thread found.
struct Searched {
    stats: MemoStats,
    counted: Counted,
    /// The solutions drawn (`--sample`).
    drawn: Vec<Vec<OptionId>>,
    /// The solutions as a ZDD (`--zdd`), or how far it got within the budget.
    diagram: Option<Result<zdd::Zdd, zdd::TooBig>>,
}

/// The refusal of a checkpoint whose item order is not the one asked for.
fn other_order(path: &std::path::Path, saved: &MemoSaved, asked: Order) -> Failure {
    Failure::Report(Box::new(
        Report::error(
            Code::E0921,
            format!(
                "the checkpoint {} is of a memo count in the {} item order, not {}",
                path.display(),
                saved.order.name(),
                asked.name()
            ),
        )
        .help(format!(
            "resume with --memo-order {} (or without --memo-order): the parts of the \
             count are cut in its item order",
            saved.order.name()
        )),
    ))
}

/// The refusal of a checkpoint whose tally does not fit the cut of this count's tree
/// (a file of another release, or edited so that it still reads): it would count
/// parts twice or miss some.
fn not_this_cut(task: &Task, why: &str) -> Failure {
    let path = task
        .resume
        .as_ref()
        .map_or_else(String::new, |p| p.display().to_string());
    Failure::Report(Box::new(
        Report::error(
            Code::E0920,
            format!("{path} is not a checkpoint of this memo count: {why}"),
        )
        .help(
            "give --resume a file that --checkpoint wrote for this count (the same model, \
             parameters, shard and release); a damaged file cannot be resumed: start the \
             count again without --resume",
        ),
    ))
}

/// What the probe of `--memo auto` decided.
enum Probed {
    /// It counted the whole problem (or stopped at the run's own limits).
    Counted(Counted),
    /// Count by visiting every solution.
    Plain,
    /// Go on by memo.
    Memo,
}

/// The steps of `--memo auto` (see the module's text).
fn probe_memo(
    counter: &mut Counter,
    p: &Problem,
    node_limit: Option<u64>,
    seed: u64,
    started: Instant,
) -> Probed {
    let plain_tree = match Solver::new(p) {
        Ok(mut plain) => match estimate(&mut plain, &[], Probes::Count(ESTIMATE_PROBES), seed) {
            Some(Ok(e)) if e.nodes.mean < SMALL_TREE => return Probed::Plain,
            Some(Ok(e)) => Some(e),
            _ => None,
        },
        Err(_) => None,
    };
    counter.set_limits(Some(node_limit.map_or(PROBE_NODES, |n| n.min(PROBE_NODES))));
    let counted = match counter.count_alone() {
        Err((Stop::Nodes, c)) if node_limit.is_none_or(|n| n > PROBE_NODES) => c,
        done => return Probed::Counted(done),
    };
    let s = counter.stats(started.elapsed());
    if s.hits.saturating_mul(PAYS) < s.nodes {
        return Probed::Plain;
    }
    match plain_tree {
        Some(e)
            if e.nodes.mean < HUGE_TREE
                && !pays(s.nodes, counted.approx(), e.nodes.mean, e.solutions.mean) =>
        {
            Probed::Plain
        }
        _ => Probed::Memo,
    }
}

/// The ZDD did not fit in the memory budget.
fn zdd_too_big(t: zdd::TooBig) -> Failure {
    use crate::lower::budget;
    Failure::Report(Box::new(
        Report::error(
            Code::E0505,
            format!(
                "the ZDD does not fit in the memory budget of {}: {} nodes built, and more to come",
                budget::human(budget::budget()),
                t.nodes
            ),
        )
        .help(
            "raise the budget with --max-memory SIZE (the memo table takes most of it \
             while the ZDD is built), or count without --zdd",
        ),
    ))
}

/// The memo search's thread could not be started: the stack it needs (see [`STACK`])
/// is address space a limit (`ulimit -v`) may not leave.
fn no_thread(e: std::io::Error) -> Failure {
    Failure::Report(Box::new(
        Report::error(Code::E0505, format!("cannot start the memo search: {e}")).help(format!(
            "the memo search needs {} of address space for its stack: raise the limit \
             (ulimit -v), or count without memo (--memo off)",
            crate::lower::budget::human(STACK)
        )),
    ))
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

#[cfg(test)]
mod tests {
    use super::pays;

    #[test]
    fn the_probe_weighs_its_progress_against_the_plain_tree() {
        // Figures of real probes (30,000 states), then the estimate.
        // Dominoes 12x12: 4.1e8 of 3.1e16 tilings counted; the plain tree has 1.2e17 nodes.
        assert!(pays(30_000, 4.1e8, 1.2e17, 3.1e16));
        // Langford pairs of 12: 180 of 1.05e5 counted; the plain tree has 1.2e6 nodes.
        assert!(!pays(30_000, 180.0, 1.2e6, 1.05e5));
        // Langford pairs of 16: nothing counted, 3e8 solutions.
        assert!(!pays(30_000, 0.0, 4.1e9, 3.0e8));
        // Bell-12: 885,178 of 2.1e6 counted in a tree of 3.3e6.
        assert!(pays(30_000, 885_178.0, 3.3e6, 2.1e6));
        // No solution seen by either: a small tree plainly, a big one by memo.
        assert!(!pays(30_000, 0.0, 6.1e6, 0.0));
        assert!(pays(30_000, 0.0, 1e12, 0.0));
    }
}
