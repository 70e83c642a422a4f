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
use std::time::{Duration, Instant};

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

/// Parts a count that saves checkpoints is cut into, in parts a thread (see
/// [`Counter::with_parts`]), whatever its threads: a resumed count, on any number of
/// threads, must cut the tree as the saved one did.
pub const SAVED_PARTS: usize = 16;

/// How far a count by parts has got: what a checkpoint of a memo count holds. The cut
/// depends on the problem, the item order and `want` alone, so a resumed count cuts
/// the tree again and counts the parts not `done`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    /// The parts asked of the cut.
    pub want: usize,
    /// The parts the cut gave.
    pub parts: usize,
    /// The parts this count takes: all of them, or a shard's.
    pub taken: usize,
    /// The parts counted, in increasing order.
    pub done: Vec<u32>,
    /// The solutions of the parts counted (times their paths), and those met above the
    /// parts where this count has them (the whole count, or shard 1).
    pub counted: Count,
}

impl Tally {
    /// Whether every part this count takes is counted.
    pub fn complete(&self) -> bool {
        self.done.len() == self.taken
    }
}

/// What a count that saves checkpoints is handed its tally with.
pub type Save<'a> = dyn Fn(&Tally) + Sync + 'a;

/// What a count by parts shares between its threads: the tally of the parts counted
/// whole, what the parts a limit cut had counted, and where a tally is saved.
struct Book<'a> {
    inner: Mutex<Booked>,
    every: Duration,
    save: Option<&'a Save<'a>>,
}

struct Booked {
    tally: Tally,
    /// What parts cut short counted: part of the lower bound a cut count gives, none
    /// of a checkpoint's.
    partial: Count,
    last: Instant,
}

impl Book<'_> {
    /// Part `i` counted whole, with `c` solutions.
    fn done(&self, i: u32, c: &Count) {
        let mut b = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        b.tally.done.push(i);
        b.tally.counted.add(c);
        if let Some(save) = self.save
            && b.last.elapsed() >= self.every
        {
            let mut t = b.tally.clone();
            t.done.sort_unstable();
            save(&t);
            b.last = Instant::now();
        }
    }

    /// A part a limit cut, having counted `c` solutions.
    fn cut(&self, c: &Count) {
        let mut b = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        b.partial.add(c);
    }

    /// The tally, and the lower bound of the count (the tally's and the cut parts').
    fn close(self) -> (Tally, Count) {
        let b = self.inner.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut tally = b.tally;
        tally.done.sort_unstable();
        let mut total = tally.counted.clone();
        total.add(&b.partial);
        (tally, total)
    }
}

impl Counter {
    /// Counts the state at the root on `self.threads` threads (the table shared).
    pub(super) fn count_by_parts(&mut self) -> Count {
        let (parts, solved) = self.split(self.threads.saturating_mul(self.parts));
        let todo: Vec<u32> = (0..parts.len() as u32).collect();
        let start = tally(0, parts.len(), todo.len(), solved);
        self.tally_parts(&parts, &todo, start, None).1
    }

    /// The count of shard `k` of `n` (from 1) of the state at the root: the tree cut
    /// into at least [`PARTS_PER_THREAD`] parts a shard (or [`Counter::with_parts`]'s), the same cut in every shard
    /// (it depends on the problem, the item order and `n` alone), and shard `k` takes
    /// the parts `k - 1`, `k - 1 + n`, ...; the solutions met above the parts are
    /// shard 1's. On `self.threads` threads.
    pub(super) fn count_shard_by_parts(&mut self, k: usize, n: usize) -> Count {
        let want = n.saturating_mul(self.parts);
        let (parts, solved) = self.split(want);
        let todo = shard_parts(parts.len(), k, n);
        let above = if k == 1 { solved } else { Count::Small(0) };
        let start = tally(want, parts.len(), todo.len(), above);
        self.tally_parts(&parts, &todo, start, None).1
    }

    /// A count by parts that can be saved and resumed: of the whole state at the root,
    /// or of shard `k` of `n` (`shard`, cut as [`Counter::count_shard`] cuts it, so
    /// that its count adds up with the other shards'), going on from `resumed` when
    /// given. Every `every` (at the end of a part), `save` is called with the tally so
    /// far. The count comes back with its final tally; a tally made for another cut is
    /// `Err` with why.
    pub(super) fn count_by_parts_saving(
        &mut self,
        shard: Option<(usize, usize)>,
        resumed: Option<Tally>,
        every: Duration,
        save: &Save<'_>,
    ) -> Result<(Tally, Count), String> {
        let want = match shard {
            Some((_, n)) => n.saturating_mul(self.parts),
            None => SAVED_PARTS.saturating_mul(self.parts),
        };
        if let Some(t) = &resumed
            && t.want != want
        {
            return Err(format!(
                "it was cut into {} parts and this count cuts into {want}",
                t.want
            ));
        }
        let (parts, solved) = self.split(want);
        let mut todo = match shard {
            Some((k, n)) => shard_parts(parts.len(), k, n),
            None => (0..parts.len() as u32).collect(),
        };
        let start = match resumed {
            Some(t) => {
                if t.parts != parts.len() || t.taken != todo.len() {
                    return Err(format!(
                        "it takes {} of {} parts and this count takes {} of {}",
                        t.taken,
                        t.parts,
                        todo.len(),
                        parts.len()
                    ));
                }
                // Increasing and among this count's parts: none counted twice.
                if t.done.windows(2).any(|w| w[0] >= w[1]) {
                    return Err("its parts counted are not in increasing order".into());
                }
                let mut left = todo.iter().peekable();
                for &d in &t.done {
                    while left.next_if(|&&x| x < d).is_some() {}
                    if left.next_if_eq(&&d).is_none() {
                        return Err(format!("its part {d} is not one of this count's"));
                    }
                }
                todo.retain(|x| t.done.binary_search(x).is_err());
                t
            }
            None => {
                let mine = shard.is_none_or(|(k, _)| k == 1);
                tally(
                    want,
                    parts.len(),
                    todo.len(),
                    if mine { solved } else { Count::Small(0) },
                )
            }
        };
        Ok(self.tally_parts(&parts, &todo, start, Some((every, save))))
    }

    /// Counts the parts numbered `todo` on `self.threads` threads, adding to `start`:
    /// the tally and the lower bound of the count.
    fn tally_parts(
        &mut self,
        parts: &[Part],
        todo: &[u32],
        start: Tally,
        saving: Option<(Duration, &Save<'_>)>,
    ) -> (Tally, Count) {
        let book = Book {
            inner: Mutex::new(Booked {
                tally: start,
                partial: Count::Small(0),
                last: Instant::now(),
            }),
            every: saving.map_or(Duration::MAX, |s| s.0),
            save: saving.map(|s| s.1),
        };
        let team = Arc::new(Team {
            nodes: AtomicU64::new(self.nodes),
            halt: AtomicBool::new(false),
            why: Mutex::new(None),
        });
        self.team = Some(Arc::clone(&team));
        self.reported = self.nodes;
        let next = AtomicUsize::new(0);
        let helpers: Vec<Counter> = (1..self.threads.min(todo.len()))
            .map(|_| self.helper())
            .collect();
        let (next, book_ref) = (&next, &book);
        let done: Vec<(u64, u64)> = std::thread::scope(|scope| {
            // A thread that cannot be had (an address-space limit) leaves its parts
            // to the others: this one always counts.
            let running: Vec<_> = helpers
                .into_iter()
                .filter_map(|mut h| {
                    std::thread::Builder::new()
                        .name("memo".into())
                        .stack_size(STACK)
                        .spawn_scoped(scope, move || {
                            h.count_parts(parts, todo, next, book_ref);
                            (h.nodes, h.hits)
                        })
                        .ok()
                })
                .collect();
            self.count_parts(parts, todo, next, book_ref);
            let mut done = Vec::new();
            for t in running {
                match t.join() {
                    Ok(d) => done.push(d),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            done
        });
        for (nodes, hits) in done {
            self.nodes += nodes;
            self.hits += hits;
        }
        self.stop = team.stop_with(self.stop);
        self.team = None;
        book.close()
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

    /// Counts parts of `todo`, taking the next one not yet taken, until none is left
    /// or the count stops, into `book`.
    fn count_parts(&mut self, parts: &[Part], todo: &[u32], next: &AtomicUsize, book: &Book) {
        while self.stop.is_none() {
            let Some(&i) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                break;
            };
            let part = &parts[i as usize];
            self.cur.copy_from_slice(&part.cur);
            let c = self.count_here(part.from).times(&part.paths);
            // A part is counted whole when no limit stopped its count (here or, on
            // another thread, for all of them).
            if self.stop.is_none() {
                book.done(i, &c);
            } else {
                book.cut(&c);
            }
        }
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

/// A tally of nothing counted yet but `above`, of `taken` parts of `parts`.
fn tally(want: usize, parts: usize, taken: usize, above: Count) -> Tally {
    Tally {
        want,
        parts,
        taken,
        done: Vec::new(),
        counted: above,
    }
}

/// The parts of shard `k` of `n` (from 1) among `parts`: `k - 1`, `k - 1 + n`, ...
fn shard_parts(parts: usize, k: usize, n: usize) -> Vec<u32> {
    (0..parts as u32).skip(k - 1).step_by(n).collect()
}
