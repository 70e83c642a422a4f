//! A memo count on several threads.
//!
//! The tree below the root is cut into parts: the states a few levels down, each with
//! the number of paths from the root that reach it (a state met on several paths is
//! one part). The threads take the parts in turn and count each by the memo search,
//! all of them storing into and looking up in one table ([`super::table::Shared`]).
//! Every count stored is exact, whoever stored it, so a part's count does not depend
//! on the timing, and the total (the solutions met above the parts, plus each part's
//! count times its paths) is the same on every run and every number of threads. What
//! the timing changes is how much is counted twice: two threads that meet a state
//! before either stored it both count it, so `--stats`' nodes and hits vary, the
//! count never.
//!
//! Limits hold for the threads together: the node limit counts every thread's nodes,
//! and the first thread to stop (nodes, time, Ctrl-C) stops the others; the count is
//! then a lower bound, as on one thread.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::table::Store;
use super::{Branch, Count, Counter, Step, Stop};

/// Parts a thread, unless [`Counter::with_parts`] says otherwise: enough that a
/// thread whose parts were small finds more while another is still on a big one.
pub const PARTS_PER_THREAD: usize = 64;

/// The most levels the parts are cut below the root. A tree that stays narrower than
/// the parts wanted that deep (a strip, whose states the memo meets in a line) is cut
/// there: its parts are few, and more threads would not shorten its line.
const MAX_DEPTH: usize = 64;

/// The stack of a thread of a memo count: the search recurses once an option chosen,
/// and a board of a hundred thousand cells must not overflow it. Only the pages it
/// touches are ever backed by memory.
pub const STACK: usize = 1 << 30;

/// What the threads of one count share besides the table.
pub(super) struct Team {
    /// Nodes of every thread, as each last told.
    nodes: AtomicU64,
    /// Whether a thread stopped.
    halt: AtomicBool,
    /// Why the first thread that stopped did.
    why: Mutex<Option<Stop>>,
}

impl Team {
    /// Adds `n` nodes; the team's nodes after.
    pub fn add_nodes(&self, n: u64) -> u64 {
        self.nodes.fetch_add(n, Ordering::Relaxed) + n
    }

    /// Tells the team that a thread stopped (`stop`), and returns why this thread
    /// must stop: its own reason, another's, or none.
    pub fn stop_with(&self, stop: Option<Stop>) -> Option<Stop> {
        if stop.is_none() && !self.halt.load(Ordering::Relaxed) {
            return None;
        }
        let mut why = self.why.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = stop {
            why.get_or_insert(s);
            self.halt.store(true, Ordering::Relaxed);
        }
        stop.or(*why)
    }
}

/// A part: a state, where its first open item may be (see [`super::Layout::step`]),
/// and the number of paths from the root that reach it.
struct Part {
    cur: Vec<u64>,
    from: u32,
    paths: Count,
}

impl Counter {
    /// Counts the state at the root on `self.threads` threads (the table shared).
    pub(super) fn count_by_parts(&mut self) -> Count {
        let (parts, mut total) = self.split(self.threads.saturating_mul(self.parts));
        total.add(&self.count_parts_on_threads(&parts));
        total
    }

    /// The count of shard `k` of `n` (from 1) of the state at the root: the tree cut
    /// into at least [`PARTS_PER_THREAD`] parts a shard, the same cut in every shard
    /// (it depends on the problem, the item order and `n` alone), and shard `k` takes
    /// the parts `k - 1`, `k - 1 + n`, ...; the solutions met above the parts are
    /// shard 1's. On `self.threads` threads.
    pub(super) fn count_shard_by_parts(&mut self, k: usize, n: usize) -> Count {
        let (parts, solved) = self.split(n.saturating_mul(PARTS_PER_THREAD));
        let mine: Vec<Part> = parts.into_iter().skip(k - 1).step_by(n).collect();
        let mut total = if k == 1 { solved } else { Count::Small(0) };
        total.add(&self.count_parts_on_threads(&mine));
        total
    }

    /// The sum of the counts of `parts` times their paths, on `self.threads` threads.
    fn count_parts_on_threads(&mut self, parts: &[Part]) -> Count {
        let mut total = Count::Small(0);
        let team = Arc::new(Team {
            nodes: AtomicU64::new(self.nodes),
            halt: AtomicBool::new(false),
            why: Mutex::new(None),
        });
        self.team = Some(Arc::clone(&team));
        self.reported = self.nodes;
        let next = AtomicUsize::new(0);
        let helpers: Vec<Counter> = (1..self.threads.min(parts.len()))
            .map(|_| self.helper())
            .collect();
        let next = &next;
        let done: Vec<(Count, u64, u64)> = std::thread::scope(|scope| {
            // A thread that cannot be had (an address-space limit) leaves its parts
            // to the others: this one always counts.
            let running: Vec<_> = helpers
                .into_iter()
                .filter_map(|mut h| {
                    std::thread::Builder::new()
                        .name("memo".into())
                        .stack_size(STACK)
                        .spawn_scoped(scope, move || {
                            let sum = h.count_parts(parts, next);
                            (sum, h.nodes, h.hits)
                        })
                        .ok()
                })
                .collect();
            let mine = self.count_parts(parts, next);
            let mut done = vec![(mine, 0, 0)];
            for t in running {
                match t.join() {
                    Ok(d) => done.push(d),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            done
        });
        for (sum, nodes, hits) in done {
            total.add(&sum);
            self.nodes += nodes;
            self.hits += hits;
        }
        self.stop = team.stop_with(self.stop);
        self.team = None;
        total
    }

    /// A counter for another thread of this one's count: the same layout, limits,
    /// table and team, a state of its own.
    fn helper(&self) -> Counter {
        let Store::Shared(table) = &self.table else {
            unreachable!("a count on threads has a shared table")
        };
        let mut h = Counter::of(
            self.layout.clone(),
            Store::Shared(Arc::clone(table)),
            self.limits.clone(),
            1,
        );
        h.parts = self.parts;
        h.team = self.team.clone();
        h
    }

    /// Counts parts, taking the next one not yet taken, until none is left or the
    /// count stops: the sum of their counts times their paths.
    fn count_parts(&mut self, parts: &[Part], next: &AtomicUsize) -> Count {
        let mut sum = Count::Small(0);
        while self.stop.is_none() {
            let Some(part) = parts.get(next.fetch_add(1, Ordering::Relaxed)) else {
                break;
            };
            self.cur.copy_from_slice(&part.cur);
            let c = self.count_here(part.from);
            sum.add(&c.times(&part.paths));
        }
        sum
    }

    /// The parts: the states of the first level below the root with at least `want`
    /// of them (or of level [`MAX_DEPTH`], or the last), and the solutions met above.
    fn split(&mut self, want: usize) -> (Vec<Part>, Count) {
        let mut solved = Count::Small(0);
        let mut level = vec![Part {
            cur: self.layout.init.clone(),
            from: 0,
            paths: Count::Small(1),
        }];
        let mut depth = 0;
        let mut cur = self.layout.init.clone();
        while !level.is_empty() && level.len() < want && depth < MAX_DEPTH {
            depth += 1;
            let mut below: Vec<Part> = Vec::new();
            let mut seen: HashMap<Vec<u64>, usize> = HashMap::new();
            let mut add = |cur: &[u64], from: u32, paths: &Count| match seen.get(cur) {
                Some(&k) => {
                    below[k].paths.add(paths);
                    below[k].from = below[k].from.min(from);
                }
                None => {
                    seen.insert(cur.to_vec(), below.len());
                    below.push(Part {
                        cur: cur.to_vec(),
                        from,
                        paths: paths.clone(),
                    });
                }
            };
            for part in &level {
                self.nodes += 1;
                let Step::Branch {
                    pos,
                    list,
                    start,
                    finish,
                } = self.layout.step(&part.cur, part.from)
                else {
                    solved.add(&part.paths);
                    continue;
                };
                for (k, &o) in self
                    .layout
                    .list(list)
                    .iter()
                    .enumerate()
                    .skip(start as usize)
                {
                    if self.layout.fits(o, &part.cur) {
                        cur.copy_from_slice(&part.cur);
                        self.layout.follow(&mut cur, pos, k as u32, Branch::Take(o));
                        add(&cur, pos, &part.paths);
                    }
                }
                if finish {
                    cur.copy_from_slice(&part.cur);
                    self.layout.follow(&mut cur, pos, 0, Branch::Finish);
                    add(&cur, pos, &part.paths);
                }
            }
            level = below;
        }
        (level, solved)
    }
}
