//! The worker pool of a parallel count: a queue of parts, threads that take them, and
//! searches that give work back when a thread is idle or a pause is due.
//!
//! Each thread owns a copy of the solver. It takes a part from the queue and searches
//! it with a [`Share`] that tells it, every 1024 nodes, whether some thread is idle
//! (then it gives away its shallowest untried options: work stealing near the root, as
//! the receiving thread asks for it) or whether everyone must stop (a checkpoint, or a
//! limit reached): then it gives away its whole frontier. The calling thread watches:
//! every tick it reports progress, and when the watcher asks for a checkpoint it pauses
//! the workers, hands the watcher the exact frontier and counts, and lets them go on.

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use crate::problem::OptionId;
use crate::solve::share::{Part, Share, Want};
use crate::solve::{Clash, End, Flow, Limit, Outcome, SearchConfig, Solver, Stats};

/// How far a count has got, for a progress line.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    /// Estimated share of the tree explored, from 0 to 1 (Knuth's estimate from the
    /// positions of the branches on each thread's path).
    pub explored: f64,
    /// Solutions counted so far.
    pub solutions: u128,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the count started (this run, not counting a resumed run's past).
    pub elapsed: Duration,
}

/// The frontier of a paused or cut-short count: what is left, and what was counted.
#[derive(Clone, Debug)]
pub struct Frontier {
    /// Parts not yet explored: their solutions and the count so far are the total.
    pub parts: Vec<Part>,
    /// What was counted so far (its end is that of the count).
    pub counted: Outcome,
    /// Share of the tree explored, by the parts' weights.
    pub explored: f64,
}

/// Watches a count from the calling thread.
pub trait Watch {
    /// Called about every `tick` with the progress so far; returns whether a checkpoint
    /// is due now.
    fn tick(&mut self, progress: &Progress) -> bool;
    /// Called with the frontier at a checkpoint, while the workers wait.
    fn checkpoint(&mut self, frontier: &Frontier);
    /// How often [`Watch::tick`] is called.
    fn every(&self) -> Duration {
        Duration::from_millis(200)
    }
    /// Searches check for news when their node count is a multiple of this plus one:
    /// every 1024 nodes, unless a test wants work to move on small problems.
    #[doc(hidden)]
    fn check_mask(&self) -> u64 {
        1023
    }
}

/// A watcher that wants no progress and no checkpoints.
pub struct Unwatched;

impl Watch for Unwatched {
    fn tick(&mut self, _: &Progress) -> bool {
        false
    }
    fn checkpoint(&mut self, _: &Frontier) {}
    fn every(&self) -> Duration {
        Duration::from_secs(3600)
    }
}

/// Solutions to show as they are found: the visitor runs on the calling thread, which
/// receives them from the workers, and stops the whole search when it says so or when
/// `quota` solutions were shown.
pub(crate) struct Emit<'a> {
    pub visit: &'a mut dyn FnMut(&[OptionId]) -> Flow,
    pub quota: Option<u128>,
}

/// Batches of solutions in flight from the workers to the visitor, at most.
const IN_FLIGHT: usize = 64;
/// Solutions a worker sends at once (fewer at the end of a part).
const BATCH: usize = 64;

/// What one running part has reported.
#[derive(Clone, Copy, Debug, Default)]
struct Running {
    weight: f64,
    explored: f64,
    given: f64,
    solutions: u128,
    nodes: u64,
}

#[derive(Debug, Default)]
struct State {
    queue: Vec<Part>,
    /// Searches running now.
    running: usize,
    /// Workers waiting for a pause to end.
    paused: usize,
    pause: bool,
    finished: bool,
    cut: Option<Limit>,
    /// The visitor said stop, or its quota is reached.
    halted: bool,
    /// A part whose forced options clash (only parts read from a file can).
    clash: Option<Clash>,
    counted: Stats,
    /// Weight of the parts finished (minus what they gave away).
    done: f64,
    slots: Vec<Running>,
}

#[derive(Debug)]
struct Pool {
    state: Mutex<State>,
    /// Workers wait here for parts or for a pause to end; the watcher for news.
    wake: Condvar,
    news: Condvar,
    idle: AtomicUsize,
    queued: AtomicUsize,
    pausing: AtomicBool,
    /// A limit cut some part short, or a part clashed: everyone hands back and stops.
    stopping: AtomicBool,
    mask: u64,
}

impl Pool {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A worker that panicked is re-raised by the scope; the state is still whole.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The share of one part's search.
#[derive(Debug)]
struct PartShare {
    pool: Arc<Pool>,
    worker: usize,
    weight: f64,
}

impl Share for PartShare {
    fn wanted(&self) -> Want {
        if self.pool.pausing.load(Ordering::Relaxed) || self.pool.stopping.load(Ordering::Relaxed) {
            Want::All
        } else if self.pool.idle.load(Ordering::Relaxed) > 0
            && self.pool.queued.load(Ordering::Relaxed) == 0
        {
            Want::Some
        } else {
            Want::Nothing
        }
    }

    fn give(&self, parts: Vec<Part>) {
        let mut st = self.pool.lock();
        for mut p in parts {
            st.slots[self.worker].given += p.weight;
            p.weight *= self.weight;
            st.queue.push(p);
        }
        self.pool.queued.store(st.queue.len(), Ordering::Relaxed);
        self.pool.wake.notify_all();
    }

    fn report(&self, explored: f64, solutions: u128, nodes: u64) {
        let mut st = self.pool.lock();
        let slot = &mut st.slots[self.worker];
        slot.explored = explored;
        slot.solutions = solutions;
        slot.nodes = nodes;
    }

    fn check_mask(&self) -> u64 {
        self.pool.mask
    }
}

/// Counts the solutions of `parts` on `threads` threads (at least one), watched by
/// `watch`. `total_weight` is the weight of the whole tree the parts come from (1 for
/// a whole count; less for a shard or a resumed run, whose `explored` counts what is
/// done already). Returns the counts and, when a limit cut it short, the frontier left.
pub(crate) fn run(
    solver: &Solver,
    parts: Vec<Part>,
    config: &SearchConfig,
    threads: usize,
    mask: u64,
    watch: &mut dyn Watch,
    emit: Option<Emit<'_>>,
) -> Result<Frontier, Clash> {
    let start = Instant::now();
    let threads = threads.max(1);
    let pool = Arc::new(Pool {
        queued: AtomicUsize::new(parts.len()),
        state: Mutex::new(State {
            queue: parts,
            slots: vec![Running::default(); threads],
            ..State::default()
        }),
        wake: Condvar::new(),
        news: Condvar::new(),
        idle: AtomicUsize::new(0),
        pausing: AtomicBool::new(false),
        stopping: AtomicBool::new(false),
        mask,
    });
    let emit_mode = emit.is_some();
    // Parts are taken from the end: keep the first given first.
    pool.lock().queue.reverse();
    let (tx, rx) = match emit {
        Some(_) => {
            let (tx, rx) = sync_channel(IN_FLIGHT);
            (Some(tx), Some(rx))
        }
        None => (None, None),
    };
    let mut shown = 0u128;
    std::thread::scope(|scope| {
        for worker in 0..threads {
            let mut mine = solver.clone();
            let pool = Arc::clone(&pool);
            let tx = tx.clone();
            scope.spawn(move || work(&mut mine, &pool, worker, config, start, tx));
        }
        // Only the workers hold senders now: the channel closes when they are done.
        drop(tx);
        // A watcher that panics must not leave the workers waiting for it: stop them,
        // and let the panic go on once they are done.
        let watched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match (emit, rx) {
            (Some(emit), Some(rx)) => shown = emit_over(&pool, &rx, emit, watch, start),
            _ => watch_over(&pool, threads, watch, start),
        }));
        if let Err(panic) = watched {
            let mut st = pool.lock();
            st.pause = false;
            st.cut.get_or_insert(Limit::Interrupted);
            pool.pausing.store(false, Ordering::Relaxed);
            pool.stopping.store(true, Ordering::Relaxed);
            pool.wake.notify_all();
            drop(st);
            std::panic::resume_unwind(panic);
        }
    });
    let st = pool.lock();
    if let Some(c) = st.clash {
        return Err(c);
    }
    let mut f = frontier(&st, start);
    if emit_mode {
        // What was shown, not what the workers found after the visitor stopped.
        f.counted.stats.solutions = shown;
        if st.halted {
            f.counted.end = End::Stopped;
        }
    }
    Ok(f)
}

/// The calling thread's loop when solutions are shown: each solution received goes to
/// the visitor; progress ticks between them. Returns how many were shown.
fn emit_over(
    pool: &Pool,
    rx: &Receiver<Vec<Vec<OptionId>>>,
    emit: Emit<'_>,
    watch: &mut dyn Watch,
    start: Instant,
) -> u128 {
    let mut shown = 0u128;
    let mut halted = emit.quota == Some(0);
    let mut next_tick = Instant::now() + watch.every();
    loop {
        let wait = next_tick.saturating_duration_since(Instant::now());
        match rx.recv_timeout(wait) {
            Ok(batch) if !halted => {
                for solution in batch {
                    shown += 1;
                    let stop = (emit.visit)(&solution) == Flow::Stop;
                    if stop || emit.quota.is_some_and(|q| shown >= q) {
                        halted = true;
                        let mut st = pool.lock();
                        st.halted = true;
                        pool.stopping.store(true, Ordering::Relaxed);
                        pool.wake.notify_all();
                        break;
                    }
                }
            }
            // After a stop, solutions still in flight are dropped, so that no worker
            // waits on a full channel.
            Ok(_) => {}
            Err(RecvTimeoutError::Timeout) => {
                next_tick = Instant::now() + watch.every();
                let p = progress(&pool.lock(), start);
                watch.tick(&p);
            }
            Err(RecvTimeoutError::Disconnected) => return shown,
        }
    }
}

/// The frontier and counts as they stand.
fn frontier(st: &State, start: Instant) -> Frontier {
    let mut parts = st.queue.clone();
    parts.reverse();
    Frontier {
        parts,
        counted: Outcome {
            stats: Stats {
                elapsed: start.elapsed(),
                ..st.counted
            },
            end: st.cut.map_or(End::Exhausted, End::Cut),
        },
        explored: st.done,
    }
}

/// The calling thread's loop: progress ticks and checkpoints until the workers finish.
fn watch_over(pool: &Pool, threads: usize, watch: &mut dyn Watch, start: Instant) {
    let mut st = pool.lock();
    let mut next_tick = Instant::now() + watch.every();
    while !st.finished {
        let now = Instant::now();
        if now < next_tick {
            st = pool
                .news
                .wait_timeout(st, next_tick - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
            continue;
        }
        next_tick = now + watch.every();
        let progress = progress(&st, start);
        drop(st);
        let due = watch.tick(&progress);
        st = pool.lock();
        if due && !st.finished {
            st.pause = true;
            pool.pausing.store(true, Ordering::Relaxed);
            pool.wake.notify_all();
            while st.paused < threads && !st.finished {
                st = pool.news.wait(st).unwrap_or_else(|e| e.into_inner());
            }
            let snapshot = frontier(&st, start);
            drop(st);
            watch.checkpoint(&snapshot);
            st = pool.lock();
            st.pause = false;
            pool.pausing.store(false, Ordering::Relaxed);
            pool.wake.notify_all();
        }
    }
}

fn progress(st: &State, start: Instant) -> Progress {
    let mut p = Progress {
        explored: st.done,
        solutions: st.counted.solutions,
        nodes: st.counted.nodes,
        elapsed: start.elapsed(),
    };
    for r in &st.slots {
        // What a running part gave away is counted by the parts it became.
        p.explored += r.weight * (r.explored - r.given).clamp(0.0, 1.0 - r.given.min(1.0));
        p.solutions += r.solutions;
        p.nodes += r.nodes;
    }
    p
}

/// One worker: takes parts until there are none and no search could give more.
fn work(
    solver: &mut Solver,
    pool: &Arc<Pool>,
    worker: usize,
    config: &SearchConfig,
    start: Instant,
    tx: Option<SyncSender<Vec<Vec<OptionId>>>>,
) {
    let mut st = pool.lock();
    loop {
        if st.pause {
            st.paused += 1;
            pool.news.notify_all();
            while st.pause {
                st = pool.wake.wait(st).unwrap_or_else(|e| e.into_inner());
            }
            st.paused -= 1;
            continue;
        }
        if st.finished {
            break;
        }
        let stopping = st.cut.is_some() || st.clash.is_some() || st.halted;
        let part = if stopping { None } else { st.queue.pop() };
        let Some(part) = part else {
            if st.running == 0 {
                // Nothing queued and nothing running: nothing can be given any more.
                st.finished = true;
                pool.wake.notify_all();
                pool.news.notify_all();
                break;
            }
            pool.idle.fetch_add(1, Ordering::Relaxed);
            st = pool.wake.wait(st).unwrap_or_else(|e| e.into_inner());
            pool.idle.fetch_sub(1, Ordering::Relaxed);
            continue;
        };
        pool.queued.store(st.queue.len(), Ordering::Relaxed);
        st.running += 1;
        st.slots[worker] = Running {
            weight: part.weight,
            ..Running::default()
        };
        drop(st);
        let out = search_part(solver, pool, worker, &part, config, start, tx.as_ref());
        st = pool.lock();
        st.running -= 1;
        let out = match out {
            Ok(out) => out,
            Err(c) => {
                st.clash.get_or_insert(c);
                pool.stopping.store(true, Ordering::Relaxed);
                pool.wake.notify_all();
                continue;
            }
        };
        let slot = std::mem::take(&mut st.slots[worker]);
        st.counted.nodes += out.stats.nodes;
        st.counted.updates += out.stats.updates;
        st.counted.solutions += out.stats.solutions;
        st.done += part.weight * (1.0 - slot.given).max(0.0);
        if let End::Cut(limit) = out.end {
            st.cut.get_or_insert(limit);
            pool.stopping.store(true, Ordering::Relaxed);
        }
        pool.wake.notify_all();
    }
}

/// Searches one part with a share that gives work back to the pool.
fn search_part(
    solver: &mut Solver,
    pool: &Arc<Pool>,
    worker: usize,
    part: &Part,
    config: &SearchConfig,
    start: Instant,
    tx: Option<&SyncSender<Vec<Vec<OptionId>>>>,
) -> Result<Outcome, Clash> {
    // The time limit is the whole count's, not each part's.
    let mut cfg = config.for_piece(start);
    cfg.count_only = tx.is_none();
    cfg.share = Some(Arc::new(PartShare {
        pool: Arc::clone(pool),
        worker,
        weight: part.weight,
    }));
    // Solutions go to the visitor in batches: one message per solution costs more
    // than printing it when they come fast.
    let mut batch = Vec::new();
    let mut open = true;
    let out = solver.search_part(&part.forced, &part.excluded, &cfg, &mut |s| {
        batch.push(s.to_vec());
        if batch.len() >= BATCH {
            open = tx.is_some_and(|tx| tx.send(std::mem::take(&mut batch)).is_ok());
        }
        // A closed channel or a stop: the visitor wants no more.
        if open && !pool.stopping.load(Ordering::Relaxed) {
            Flow::Continue
        } else {
            Flow::Stop
        }
    });
    if open
        && !batch.is_empty()
        && let Some(tx) = tx
    {
        let _ = tx.send(batch);
    }
    out
}
