//! Exact cover with colors on bitsets, for small problems: the live options are one
//! bitset, every item knows the set of its options as a bitset, and every primary item
//! keeps a count of its live options.
//!
//! Committing an option is then: the union of its items' option sets (for a colored
//! item, only the options of another color), intersected with the live options, is
//! what the option excludes; it leaves the live set in a few word operations, and each
//! excluded option takes one from the count of each of its primary items. Nothing is
//! linked or swapped, so a move touches one word per 64 options and one counter per
//! entry it kills, where dancing cells move two nodes and two set entries per entry.
//! A save point copies the live set and the counts (a few hundred bytes), which is
//! cheaper than any trail on problems this size. On the smallest problems each option
//! also lists the decrements its commit may make ([`Bits::victim`]), so that a commit
//! reads one short list instead of finding the killed options and then their items.
//!
//! The counts are those of dancing cells' sizes, and the item choice is the same: a
//! forced move if a commit left an item with one option, else the same scan of one
//! dense array (covered items carry [`COVERED`]). The search trees are the same as
//! dancing cells' except where a node has several forced moves, which the two may take
//! in another order (dancing cells note an item again when a hide reaches it through
//! another item), so node counts may differ slightly, never solutions.
//!
//! Used when the matrix is small enough that a bitset of the options is a handful of
//! words: at most [`MAX_OPTIONS`] options (see [`Bits::fits`]).
//!
//! # Multiplicities
//!
//! (The smallest problems with multiplicities, a few dozen items and a few hundred
//! options, go to [`super::tally`] instead, which keeps no counts.)
//!
//! With multiplicity intervals each primary item also has a *need* (options it must
//! still take, negative once it may take fewer than its room) and a constant *slack*,
//! as in [`super::multi`], whose levels it follows: an exactly-once item is branched
//! on as above, a multiplicity item on a level that tweaks (each option tried is
//! excluded before the next, and the last child may take none). Taking an option then
//! excludes itself, the options of its items that may take no more, and those of
//! another color on its secondary items; an item is closed (flagged) when its last
//! option goes and it needs none, and a branch dies when an item has fewer options
//! than it needs. The exclusions depend on the needs, so they are not precomputed.

use super::structure::{ItemOrder, Left, Mark, NONE, Structure, left};
use crate::problem::{ColorId, ItemKind, OptionId, Problem};

/// Added to the count of a primary item once an option that holds it is committed:
/// the item is never least again, and later decrements leave it large (an item loses
/// at most [`MAX_OPTIONS`] options after it, and live counts are at most that).
const COVERED: i16 = 1 << 14;

/// Most options a problem may have for this engine. Above it a commit's unions and a
/// save point's copy (a word per 64 options, for every item of the option) cost more
/// than dancing cells' work on the live options alone. Measured: see docs/design.md.
pub(crate) const MAX_OPTIONS: usize = 1 << 12;

/// Largest table of precomputed exclusions (see [`Bits::excludes`]): a commit then
/// reads one bitset instead of OR-ing one per item of the option. Up to a quarter of a
/// megabyte, which stays in the second-level cache (sudoku: 729 options, 66 KiB).
const EXCLUDES_BYTES: usize = 1 << 18;

/// Most entries of [`Bits::victim`].
const VICTIMS_MAX: usize = 1 << 15;

/// Most entries of [`Bits::victim`] per option, on average. A commit reads its whole
/// list, dead options included, where the general path reads the live ones alone: the
/// list pays only where the exclusion rows are short. Measured against the general
/// path: domino tilings (about 7 entries an option) 0.93x; queens, Langford pairs and
/// sudoku puzzles with some clues left out (45-80 entries an option) 1.8-2.3x.
const VICTIMS_PER_OPTION: usize = 12;

/// A decrement a commit may make: `option` is excluded by it, and when alive takes one
/// from `item`'s count; `weight` is what it adds to the updates (its number of primary
/// items, on the first entry of each option).
#[derive(Clone, Copy, Debug)]
struct Victim {
    option: u32,
    item: u32,
    weight: u32,
}

/// An entry of an option as a commit reads it: the item, and for a colored secondary
/// item the index of the bitset of the options that agree with its color.
#[derive(Clone, Copy, Debug)]
struct Entry {
    item: u32,
    /// `u32::MAX`: uncolored; else an index into [`Bits::agree`].
    agree: u32,
    /// The color as the caller numbers it, plus one (0: none).
    color: u32,
}

/// The bitset structure of a small problem, with its save points.
#[derive(Clone, Debug)]
pub(crate) struct Bits {
    /// Words per bitset of options.
    words: usize,
    /// Item `i`'s options: `sets[i * words..][..words]`.
    sets: Vec<u64>,
    /// The words of item `i`'s set that hold options: `spans[i].0..spans[i].1` (an
    /// item's options are often close together, and the candidates of a chosen item
    /// are read from those words only).
    spans: Vec<(u32, u32)>,
    /// For each colored (item, color) pair, the options with that color there.
    agree: Vec<u64>,
    /// Option `o`'s entries: `entries[entry_start[o]..entry_start[o + 1]]`.
    entries: Vec<Entry>,
    entry_start: Vec<u32>,
    /// Option `o`'s primary items: `primary[primary_at[o]..primary_at[o + 1]]`.
    primary: Vec<u32>,
    primary_at: Vec<u32>,
    /// The number of primary items of every option, when they all have the same
    /// number (1 to 6); else 0.
    arity: u32,
    /// For each option, the options it excludes (itself included): `words` words per
    /// option, when that table is small enough (see [`EXCLUDES_BYTES`]); else empty,
    /// and a commit computes them from its items' sets.
    excludes: Vec<u64>,
    /// For each option `x`, the decrements its commit may make: for each option of its
    /// exclusion row, its primary items that `x` does not cover
    /// (`victim[victim_at[x]..victim_at[x + 1]]`), when that list is short enough (see
    /// [`VICTIMS_MAX`]); else empty.
    victim: Vec<Victim>,
    victim_at: Vec<u32>,
    /// The internal numbering of the items: primary ones `0..n1`.
    order: ItemOrder,
    /// The live options.
    live: Vec<u64>,
    /// Per primary item: live options, plus [`COVERED`] once taken out. Short integers:
    /// a save point copies them and the item choice scans them, sixteen to an AVX2
    /// instruction.
    count: Vec<i16>,
    /// Save points, end to end: the live set, then the counts.
    saved: Vec<u64>,
    saved_count: Vec<i16>,
    /// Primary items that dropped to one live option during a commit: forced moves the
    /// next choice takes without scanning, as in dancing cells.
    forced_moves: Vec<u32>,
    /// The candidates of the open levels (option numbers).
    cand: Vec<u32>,
    /// Scratch: the options a commit excludes.
    kill: Vec<u64>,
    /// Scratch: the options a commit kills, one longer than the options (see
    /// [`Kills::run`]).
    list: Vec<u32>,
    /// With multiplicities: per primary item, the options it must still take, and its
    /// slack and upper bound at the start (see the module documentation); all empty
    /// without.
    need: Vec<i16>,
    slack: Vec<i16>,
    cap: Vec<u32>,
    /// Save points of the needs, end to end.
    saved_need: Vec<i16>,
    /// How many primary items are active, so that a solution is known without a scan
    /// of the items (a quarter of the nodes of a count of domino tilings, half of a
    /// multiplicity count's, are solutions); and its save points.
    open: u32,
    saved_open: Vec<u32>,
    /// Whether the level last laid out tweaks.
    tweaking: bool,
}

impl Bits {
    /// Whether `problem` is small enough for this engine.
    pub fn fits(problem: &Problem) -> bool {
        problem.options.len() <= MAX_OPTIONS
    }

    /// Builds the structure of a valid problem that [`Bits::fits`]. Primary items come
    /// first, in their order, as in dancing cells.
    pub fn new(problem: &Problem) -> Bits {
        let m = problem.options.len();
        let words = m.div_ceil(64).max(1);
        let order = ItemOrder::new(problem);
        let (internal, n1) = (&order.internal, order.n1);
        let n = internal.len();
        let mut sets = vec![0u64; n * words];
        let mut count = vec![0i16; n1 as usize];
        let mut agree_of = std::collections::HashMap::new();
        let mut agree: Vec<u64> = Vec::new();
        let (mut entries, mut entry_start) = (Vec::new(), Vec::with_capacity(m + 1));
        let (mut primary, mut primary_at) = (Vec::new(), Vec::with_capacity(m + 1));
        for (o, opt) in problem.options.iter().enumerate() {
            entry_start.push(entries.len() as u32);
            primary_at.push(primary.len() as u32);
            let bit = 1u64 << (o % 64);
            for e in opt.entries {
                let i = internal[e.item.index()];
                sets[i as usize * words + o / 64] |= bit;
                let color = e.color.map_or(0, ColorId::number);
                let agree_at = match e.color {
                    Some(c) if i >= n1 => *agree_of.entry((i, c.number())).or_insert_with(|| {
                        agree.resize(agree.len() + words, 0);
                        (agree.len() / words - 1) as u32
                    }),
                    _ => u32::MAX,
                };
                if agree_at != u32::MAX {
                    agree[agree_at as usize * words + o / 64] |= bit;
                }
                entries.push(Entry {
                    item: i,
                    agree: agree_at,
                    color,
                });
                if i < n1 {
                    primary.push(i);
                    count[i as usize] += 1;
                }
            }
        }
        entry_start.push(entries.len() as u32);
        primary_at.push(primary.len() as u32);
        let arity = primary_at
            .windows(2)
            .map(|w| w[1] - w[0])
            .try_fold(None, |k, d| match k {
                Some(k) if k != d => Err(()),
                _ => Ok(Some(d)),
            })
            .ok()
            .flatten()
            .filter(|k| (1..=6).contains(k))
            .unwrap_or(0);
        // Every option alive: the first m bits.
        let mut live = vec![0u64; words];
        for o in 0..m {
            live[o / 64] |= 1 << (o % 64);
        }
        let spans = sets
            .chunks_exact(words)
            .map(|set| {
                let first = set.iter().position(|&x| x != 0).unwrap_or(0);
                let end = set.iter().rposition(|&x| x != 0).map_or(first, |e| e + 1);
                (first as u32, end as u32)
            })
            .collect();
        let mut bits = Bits {
            spans,
            words,
            sets,
            agree,
            entries,
            entry_start,
            primary,
            primary_at,
            arity,
            excludes: Vec::new(),
            victim: Vec::new(),
            victim_at: Vec::new(),
            order,
            live,
            count,
            saved: Vec::new(),
            saved_count: Vec::new(),
            forced_moves: Vec::new(),
            cand: Vec::new(),
            kill: vec![0; words],
            list: vec![0; m + 1],
            need: Vec::new(),
            slack: Vec::new(),
            cap: Vec::new(),
            saved_need: Vec::new(),
            open: 0,
            saved_open: Vec::new(),
            tweaking: false,
        };
        bits.open = bits.count.len() as u32;
        if problem.has_multiplicities() {
            bits.bounds(problem);
            return bits;
        }
        if m * words * 8 <= EXCLUDES_BYTES {
            let mut excludes = Vec::with_capacity(m * words);
            for x in 0..m {
                bits.exclusion_of(x);
                excludes.extend_from_slice(&bits.kill);
            }
            bits.excludes = excludes;
            bits.victims();
        }
        bits
    }

    /// Fills [`Bits::victim`] from the exclusion rows, unless it would exceed
    /// [`VICTIMS_MAX`] entries, or [`VICTIMS_PER_OPTION`] on average.
    fn victims(&mut self) {
        let (m, w) = (self.entry_start.len() - 1, self.words);
        // Each option of a row makes an entry or more.
        let rows: usize = self.excludes.iter().map(|r| r.count_ones() as usize).sum();
        if rows > VICTIMS_PER_OPTION * m {
            return;
        }
        let mut victim = Vec::new();
        let mut victim_at = Vec::with_capacity(m + 1);
        for x in 0..m {
            victim_at.push(victim.len() as u32);
            let own = &self.primary[self.own(x)];
            if own.is_empty() {
                return;
            }
            for (wi, &word) in self.excludes[x * w..][..w].iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let y = wi * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let theirs = &self.primary[self.own(y)];
                    let mut weight = theirs.len() as u32;
                    for &v in theirs.iter().filter(|v| !own.contains(v)) {
                        victim.push(Victim {
                            option: y as u32,
                            item: v,
                            weight,
                        });
                        weight = 0;
                    }
                    if weight > 0 {
                        // All its items are `x`'s (`x` itself, a copy of it): only the
                        // updates count it, on one of its items, which `x` covers (a
                        // covered count stays above COVERED: it loses only its own
                        // options).
                        victim.push(Victim {
                            option: y as u32,
                            item: theirs[0],
                            weight,
                        });
                    }
                }
            }
            if victim.len() > VICTIMS_MAX {
                return;
            }
        }
        if victim.len() > VICTIMS_PER_OPTION * m {
            return;
        }
        victim_at.push(victim.len() as u32);
        self.victim = victim;
        self.victim_at = victim_at;
    }

    /// The second half of a commit of `x` by its [`Victim`]s: each live option `x`
    /// excludes takes one from the counts of its items that `x` does not cover, then
    /// they all leave the live set.
    #[inline(always)]
    fn kill_victims<const CHECK: bool>(&mut self, x: usize, updates: &mut u64) -> bool {
        let w = self.words;
        kill_victims::<CHECK>(
            &self.victim[self.victim_at[x] as usize..self.victim_at[x + 1] as usize],
            &self.excludes[x * w..][..w],
            &mut self.live,
            &mut self.count,
            &mut self.forced_moves,
            updates,
        )
    }

    /// Sets up the needs and slacks of a problem with multiplicities, normalized as
    /// [`super::multi::Multi::new`] does, and the state every search starts from: the
    /// items that may take no option closed, their options excluded; items with no
    /// option that need none closed.
    fn bounds(&mut self, problem: &Problem) {
        let n1 = self.count.len();
        let cap_of = |c: usize| i32::from(i16::try_from(c).unwrap_or(i16::MAX));
        for u in 0..n1 {
            let ItemKind::Primary { bounds } = problem.item(self.order.item_id[u]).kind else {
                unreachable!("internal items 0..n1 are primary");
            };
            let len = i32::from(self.count[u]);
            // The counts are at most MAX_OPTIONS: a lower bound above that is a dead
            // end as surely as the bound itself.
            let lo = cap_of(bounds.lo.min(MAX_OPTIONS as u32 + 1) as usize);
            let hi = bounds
                .hi
                .map_or(i32::MAX, |h| h.min(i32::MAX as u32) as i32);
            let b = hi.min(len.max(lo));
            self.need.push(lo as i16);
            self.slack.push((b - lo) as i16);
            self.cap.push(b as u32);
        }
        let mut ignored = 0;
        for u in 0..n1 {
            if self.count[u] >= COVERED {
                continue;
            }
            if i32::from(self.need[u]) + i32::from(self.slack[u]) == 0 {
                self.count[u] += COVERED;
                let w = self.words;
                self.kill.copy_from_slice(&self.sets[u * w..][..w]);
                self.kill_multi::<false>(&mut ignored);
            } else if self.count[u] == 0 && self.need[u] <= 0 {
                self.count[u] += COVERED;
            }
        }
        self.forced_moves.clear();
        self.open = self.count.iter().filter(|&&c| c < COVERED).count() as u32;
    }

    /// Whether the problem has multiplicities.
    #[inline(always)]
    fn multi(&self) -> bool {
        !self.need.is_empty() || !self.cap.is_empty()
    }

    /// Takes option `x` with multiplicities: its primary items need one option less,
    /// and those that may take no more are covered, their options excluded; its
    /// secondary items are purified; `x` itself leaves the live set. With `CHECK`,
    /// `false` at the first item left with fewer options than it needs.
    fn take_multi<const CHECK: bool>(&mut self, x: u32, updates: &mut u64) -> bool {
        let (w, n1) = (self.words, self.count.len() as u32);
        let x = x as usize;
        self.only(x);
        let (from, to) = (
            self.entry_start[x] as usize,
            self.entry_start[x + 1] as usize,
        );
        for k in from..to {
            let e = self.entries[k];
            let u = e.item as usize;
            let set = &self.sets[u * w..][..w];
            if e.item < n1 {
                if self.count[u] >= COVERED {
                    continue;
                }
                *updates += 1;
                let need = self.need[u] - 1;
                self.need[u] = need;
                if need + self.slack[u] == 0 {
                    self.count[u] += COVERED;
                    self.open -= 1;
                    for (k, s) in self.kill.iter_mut().zip(set) {
                        *k |= s;
                    }
                }
            } else if e.agree == u32::MAX {
                for (k, s) in self.kill.iter_mut().zip(set) {
                    *k |= s;
                }
            } else {
                let same = &self.agree[e.agree as usize * w..][..w];
                for ((k, s), a) in self.kill.iter_mut().zip(set).zip(same) {
                    *k |= s & !a;
                }
            }
        }
        self.kill_multi::<CHECK>(updates)
    }

    /// Excludes option `x` alone (a tweak, or an exclusion of a part), checking with
    /// `CHECK` that no item is left with fewer options than it needs.
    fn drop_multi<const CHECK: bool>(&mut self, x: u32, updates: &mut u64) -> bool {
        self.only(x as usize);
        self.kill_multi::<CHECK>(updates)
    }

    /// Sets `kill` to option `x` alone, each word written once: a `fill` then an OR
    /// into one word stalled on the store of the fill (half of a commit's time).
    #[inline(always)]
    fn only(&mut self, x: usize) {
        for (i, k) in self.kill.iter_mut().enumerate() {
            *k = if i == x / 64 { 1 << (x % 64) } else { 0 };
        }
    }

    /// The live options of `kill` leave the live set, with multiplicities.
    fn kill_multi<const CHECK: bool>(&mut self, updates: &mut u64) -> bool {
        Kills {
            excluded: &self.kill,
            live: &mut self.live,
            count: &mut self.count,
            primary: &self.primary,
            primary_at: &self.primary_at,
            forced_moves: &mut self.forced_moves,
            list: &mut self.list,
            updates,
        }
        .dispatch_multi::<CHECK>(self.arity, &self.need, &mut self.open)
    }

    /// With multiplicities, SSMCC's choice (see [`super::multi::Multi`]): a forced
    /// move if one was noted, else the active primary item of least branching degree,
    /// then least `min(slack, bound)`, then most options, then first declared.
    fn choose_multi(&mut self) -> Option<u32> {
        while let Some(u) = self.forced_moves.pop() {
            let c = self.count[u as usize];
            if c < COVERED && c <= self.need[u as usize].max(0) {
                return Some(u);
            }
        }
        if self.open == 0 {
            return None;
        }
        debug_assert!(self.counts_agree(), "a count differs from its live options");
        let mut best = u64::MAX;
        for (u, ((&c, &n), &sl)) in self
            .count
            .iter()
            .zip(&self.need)
            .zip(&self.slack)
            .enumerate()
        {
            // Every field below 2^13 (counts are at most MAX_OPTIONS): one number, the
            // least found without a branch; a dead end (degree 0 or less) is least.
            let degree = (i32::from(c) - i32::from(n).max(0) + 1).max(0) as u64;
            let room = i32::from(sl).min(i32::from(n) + i32::from(sl)).max(0) as u64;
            let key = if c >= COVERED {
                u64::MAX
            } else {
                degree << 50 | room << 37 | (MAX_OPTIONS as u64 - c as u64) << 24 | u as u64
            };
            best = best.min(key);
        }
        (best != u64::MAX).then_some((best & 0xff_ffff) as u32)
    }

    /// The entries of option `o`.
    fn option_entries(&self, o: u32) -> &[Entry] {
        &self.entries
            [self.entry_start[o as usize] as usize..self.entry_start[o as usize + 1] as usize]
    }

    /// Takes out option `x`'s primary items and everything it excludes (itself
    /// included); see the module documentation. With `CHECK`, stops at the first
    /// active primary item left with no option, and notes the items left with one.
    #[inline(always)]
    fn take<const CHECK: bool>(&mut self, x: u32, updates: &mut u64) -> bool {
        let x = x as usize;
        if !self.victim.is_empty() {
            self.cover_own(x, updates);
            return self.kill_victims::<CHECK>(x, updates);
        }
        let row = if self.excludes.is_empty() {
            self.exclusion_of(x);
            None
        } else {
            Some(x)
        };
        self.cover_own(x, updates);
        self.kill_excluded::<CHECK>(row, updates)
    }

    /// Marks option `x`'s primary items covered.
    #[inline(always)]
    fn cover_own(&mut self, x: usize, updates: &mut u64) {
        let own = &self.primary[self.own(x)];
        for &p in own {
            self.count[p as usize] += COVERED;
        }
        // An option's primary items are active when it is taken (alive, or forced
        // without a clash).
        self.open -= own.len() as u32;
        *updates += own.len() as u64;
    }

    /// The second half of a commit ([`Kills`]) on the options of row `row` of
    /// [`Bits::excludes`], or of `kill` when `None`.
    #[inline(always)]
    fn kill_excluded<const CHECK: bool>(&mut self, row: Option<usize>, updates: &mut u64) -> bool {
        let w = self.words;
        let excluded = match row {
            Some(x) => &self.excludes[x * w..][..w],
            None => &self.kill[..],
        };
        Kills {
            excluded,
            live: &mut self.live,
            count: &mut self.count,
            primary: &self.primary,
            primary_at: &self.primary_at,
            forced_moves: &mut self.forced_moves,
            list: &mut self.list,
            updates,
        }
        .dispatch::<CHECK>(self.arity)
    }

    /// Puts in `kill` the union of the exclusion rows of the options `forced`, and of
    /// the options themselves, and returns whether none of them was in the union of
    /// those before it. An option shares a primary item with one before it, takes a
    /// secondary item in another color or in none, or is the same option again,
    /// exactly when it is in that union. (An option of colored secondary items alone
    /// is not in its own row, and forced twice it is still a clash; taking it out with
    /// the rest changes no count, as it has no primary item.) Needs the rows.
    fn forced_union(&mut self, forced: &[OptionId]) -> bool {
        let w = self.words;
        self.kill.fill(0);
        let mut free = true;
        for &o in forced {
            let x = o.0 as usize;
            free &= self.kill[x / 64] >> (x % 64) & 1 == 0;
            for (u, e) in self.kill.iter_mut().zip(&self.excludes[x * w..][..w]) {
                *u |= e;
            }
            self.kill[x / 64] |= 1 << (x % 64);
        }
        free
    }

    /// Where option `x`'s primary items are in [`Bits::primary`].
    #[inline(always)]
    fn own(&self, x: usize) -> std::ops::Range<usize> {
        own_items(self.arity as usize, &self.primary_at, x)
    }

    /// Whether each active primary item's count is the number of its live options (the
    /// commits keep it by decrements; a debug build checks it before each choice), and
    /// the active items are `open`.
    fn counts_agree(&self) -> bool {
        let w = self.words;
        self.count.iter().enumerate().all(|(i, &c)| {
            let live = self.sets[i * w..][..w]
                .iter()
                .zip(&self.live)
                .map(|(s, l)| (s & l).count_ones())
                .sum::<u32>();
            c >= COVERED || c as u32 == live
        }) && self.open as usize == self.count.iter().filter(|&&c| c < COVERED).count()
    }

    /// Takes out the primary items of the options `forced` and the live options of
    /// `kill`, the union of what they exclude ([`Bits::forced_union`]), as committing
    /// them one after another would (no option is killed twice either way).
    fn take_union(&mut self, forced: &[OptionId], updates: &mut u64) {
        for &o in forced {
            self.cover_own(o.0 as usize, updates);
        }
        self.kill_excluded::<false>(None, updates);
    }

    /// Computes into `kill` the options that option `x` excludes: those of its items,
    /// for a colored item only those of another color.
    fn exclusion_of(&mut self, x: usize) {
        let w = self.words;
        let kill = &mut self.kill[..];
        kill.fill(0);
        let (from, to) = (
            self.entry_start[x] as usize,
            self.entry_start[x + 1] as usize,
        );
        for e in &self.entries[from..to] {
            let set = &self.sets[e.item as usize * w..][..w];
            if e.agree == u32::MAX {
                for (k, s) in kill.iter_mut().zip(set) {
                    *k |= s;
                }
            } else {
                let same = &self.agree[e.agree as usize * w..][..w];
                for ((k, s), a) in kill.iter_mut().zip(set).zip(same) {
                    *k |= s & !a;
                }
            }
        }
    }
}

/// [`Bits::kill_victims`], borrowed apart (the live set, read in the loop, is then known
/// not to change with the counts).
#[inline(always)]
fn kill_victims<const CHECK: bool>(
    list: &[Victim],
    row: &[u64],
    live: &mut [u64],
    count: &mut [i16],
    forced_moves: &mut Vec<u32>,
    updates: &mut u64,
) -> bool {
    let mut done = 0u64;
    for v in list {
        let y = v.option as usize;
        let bit = (live[y / 64] >> (y % 64)) & 1;
        let c = count[v.item as usize] - bit as i16;
        count[v.item as usize] = c;
        done += bit * u64::from(v.weight);
        if CHECK && c <= 1 && bit == 1 {
            if c == 0 {
                *updates += done;
                return false;
            }
            forced_moves.push(v.item);
        }
    }
    *updates += done;
    for (l, r) in live.iter_mut().zip(row) {
        *l &= !r;
    }
    true
}

/// The second half of a commit, borrowed apart from [`Bits`]: the live options an
/// option excludes leave the live set, and each takes one from the count of each of
/// its primary items.
struct Kills<'a> {
    excluded: &'a [u64],
    live: &'a mut [u64],
    count: &'a mut [i16],
    primary: &'a [u32],
    primary_at: &'a [u32],
    forced_moves: &'a mut Vec<u32>,
    /// Scratch: the options killed, in order; one longer than the options, for the
    /// stores past the last kill.
    list: &'a mut [u32],
    updates: &'a mut u64,
}

/// Where option `x`'s primary items are in the list of them: `arity` each when every
/// option has that many, else as `primary_at` says (`arity` 0).
#[inline(always)]
fn own_items(arity: usize, primary_at: &[u32], x: usize) -> std::ops::Range<usize> {
    match arity {
        0 => primary_at[x] as usize..primary_at[x + 1] as usize,
        k => x * k..x * k + k,
    }
}

impl Kills<'_> {
    /// [`Kills::run_multi`] for options of `arity` primary items each (0: not uniform).
    #[inline(always)]
    fn dispatch_multi<const CHECK: bool>(self, arity: u32, need: &[i16], open: &mut u32) -> bool {
        match arity {
            1 => self.run_multi::<1, CHECK>(need, open),
            2 => self.run_multi::<2, CHECK>(need, open),
            3 => self.run_multi::<3, CHECK>(need, open),
            4 => self.run_multi::<4, CHECK>(need, open),
            _ => self.run_multi::<0, CHECK>(need, open),
        }
    }

    /// [`Kills::run`] with multiplicities: an active item's count is checked against
    /// its need (`need`): fewer is a dead branch (with `CHECK`), none when it needs
    /// none closes it, exactly as many is a forced move.
    #[inline(always)]
    fn run_multi<const K: usize, const CHECK: bool>(self, need: &[i16], open: &mut u32) -> bool {
        let Kills {
            excluded,
            live,
            count,
            primary,
            primary_at,
            forced_moves,
            list: _,
            updates,
        } = self;
        let mut done = 0u64;
        for (wi, (k, l)) in excluded.iter().zip(live.iter_mut()).enumerate() {
            let mut bits = *k & *l;
            *l ^= bits;
            while bits != 0 {
                let o = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let items = &primary[own_items(K, primary_at, o)];
                done += items.len() as u64;
                for &p in items {
                    let c = count[p as usize] - 1;
                    count[p as usize] = c;
                    if c < COVERED {
                        match left(c, need[p as usize]) {
                            Left::Short if CHECK => {
                                *updates += done;
                                return false;
                            }
                            Left::Closed => {
                                count[p as usize] = COVERED;
                                *open -= 1;
                            }
                            Left::Forced => forced_moves.push(p),
                            Left::Short | Left::Room => {}
                        }
                    }
                }
            }
        }
        *updates += done;
        true
    }

    /// [`Kills::run`] for options of `arity` primary items each (0: not uniform).
    #[inline(always)]
    fn dispatch<const CHECK: bool>(self, arity: u32) -> bool {
        match arity {
            1 => self.run::<1, CHECK>(),
            2 => self.run::<2, CHECK>(),
            3 => self.run::<3, CHECK>(),
            4 => self.run::<4, CHECK>(),
            5 => self.run::<5, CHECK>(),
            6 => self.run::<6, CHECK>(),
            _ => self.run::<0, CHECK>(),
        }
    }

    /// With `K` the number of primary items of every option (`0`: options differ, and
    /// `primary_at` bounds each option's list; else option `o`'s are `K * o..`), so
    /// that the inner loop is unrolled.
    #[inline(always)]
    fn run<const K: usize, const CHECK: bool>(self) -> bool {
        let Kills {
            excluded,
            live,
            count,
            primary,
            primary_at,
            forced_moves,
            list,
            updates,
        } = self;
        // First the killed options leave the live set and are listed, in order. A
        // word holds few of them (a sudoku commit kills about five in twelve words), so
        // the first two of each word are stored whether or not there are that many,
        // the list growing only by those that exist: no branch on whether a word has
        // kills, which a loop over its bits mispredicts at almost every word.
        let mut n = 0usize;
        for (wi, (k, l)) in excluded.iter().zip(live.iter_mut()).enumerate() {
            let mut bits = *k & *l;
            *l ^= bits;
            let base = (wi * 64) as u32;
            for _ in 0..2 {
                list[n] = base + bits.trailing_zeros();
                n += usize::from(bits != 0);
                bits &= bits.wrapping_sub(1);
            }
            while bits != 0 {
                list[n] = base + bits.trailing_zeros();
                n += 1;
                bits &= bits - 1;
            }
        }
        // Then the decrements. A commit that fails leaves a state that only a restore
        // makes sense of, as the search does next.
        let mut done = 0u64;
        for &o in &list[..n] {
            let o = o as usize;
            let items = &primary[own_items(K, primary_at, o)];
            done += items.len() as u64;
            for &p in items {
                let c = count[p as usize] - 1;
                count[p as usize] = c;
                if CHECK && c <= 1 {
                    if c == 0 {
                        *updates += done;
                        return false;
                    }
                    forced_moves.push(p);
                }
            }
        }
        *updates += done;
        true
    }
}

impl Structure for Bits {
    fn trails(&self) -> bool {
        false
    }

    #[inline]
    fn save<const TRAIL: bool>(&mut self) -> Mark {
        let at = (self.saved.len() / self.words) as u32;
        self.saved.extend_from_slice(&self.live);
        self.saved_count.extend_from_slice(&self.count);
        self.saved_open.push(self.open);
        if self.multi() {
            self.saved_need.extend_from_slice(&self.need);
        }
        Mark(at)
    }

    #[inline]
    fn restore<const TRAIL: bool>(&mut self, m: Mark) {
        self.forced_moves.clear();
        let (w, n) = (self.words, self.count.len());
        let at = m.0 as usize;
        self.live.copy_from_slice(&self.saved[at * w..(at + 1) * w]);
        self.count
            .copy_from_slice(&self.saved_count[at * n..(at + 1) * n]);
        self.open = self.saved_open[at];
        if self.multi() {
            let k = self.need.len();
            self.need
                .copy_from_slice(&self.saved_need[at * k..(at + 1) * k]);
        }
    }

    #[inline]
    fn release<const TRAIL: bool>(&mut self, m: Mark) {
        self.saved.truncate(m.0 as usize * self.words);
        self.saved_count.truncate(m.0 as usize * self.count.len());
        self.saved_need.truncate(m.0 as usize * self.need.len());
        self.saved_open.truncate(m.0 as usize);
    }

    /// The first declared active primary item with the fewest live options, unless a
    /// forced move was noted.
    #[inline]
    fn choose(&mut self) -> Option<u32> {
        if self.multi() {
            return self.choose_multi();
        }
        while let Some(u) = self.forced_moves.pop() {
            // Still active (not covered) with one option.
            if self.count[u as usize] <= 1 {
                return Some(u);
            }
        }
        if self.open == 0 {
            return None;
        }
        debug_assert!(self.counts_agree(), "a count differs from its live options");
        let i = crate::solve::search::first_least(&self.count);
        (self.count[i] < COVERED).then_some(i as u32)
    }

    /// Lays the live options of item `i` out as candidates; the item is taken out by
    /// the commit of each.
    #[inline]
    fn cover_chosen<const TRAIL: bool>(
        &mut self,
        i: u32,
        at: u32,
        _updates: &mut u64,
    ) -> std::ops::Range<u32> {
        let w = self.words;
        self.cand.truncate(at as usize);
        self.tweaking = false;
        let (mut degree, mut closes) = (i32::from(self.count[i as usize].max(0)), false);
        if self.multi() {
            let (c, n, sl) = (
                i32::from(self.count[i as usize]),
                i32::from(self.need[i as usize]),
                i32::from(self.slack[i as usize]),
            );
            degree = c - n.max(0) + 1;
            if degree <= 0 {
                return at..at;
            }
            closes = degree > c;
            self.tweaking = degree > 1 && !(n == 1 && sl == 0);
        }
        let (first, end) = self.spans[i as usize];
        let (first, end) = (first as usize, end as usize);
        let set = &self.sets[i as usize * w..][first..end];
        // The item's count is the number of its live options: the scan stops at the
        // last of them (a forced move's single option is often in an early word), or
        // at the last of those a multiplicity item's level takes.
        let last = at as usize + (degree - i32::from(closes)) as usize;
        self.cand.reserve(last - at as usize);
        for (wi, (s, l)) in set.iter().zip(&self.live[first..end]).enumerate() {
            let mut bits = s & l;
            while bits != 0 {
                self.cand
                    .push(((first + wi) * 64) as u32 + bits.trailing_zeros());
                bits &= bits - 1;
            }
            if self.cand.len() >= last {
                break;
            }
        }
        self.cand.truncate(last);
        if closes {
            self.cand.push(NONE);
        }
        at..self.cand.len() as u32
    }

    fn tweaking(&self) -> bool {
        self.tweaking
    }

    fn exclude<const TRAIL: bool>(&mut self, x: u32, updates: &mut u64) -> bool {
        self.drop_multi::<true>(x, updates)
    }

    /// The exclusion is written into the copy of `m`: the option's word of the live
    /// set and its primary items' counts are all it changes.
    fn exclude_saved<const TRAIL: bool>(
        &mut self,
        x: u32,
        m: Mark,
        updates: &mut u64,
    ) -> Option<Mark> {
        if !self.drop_multi::<true>(x, updates) {
            return None;
        }
        let (w, n, at) = (self.words, self.count.len(), m.0 as usize);
        let word = x as usize / 64;
        self.saved[at * w + word] = self.live[word];
        for &p in &self.primary[self.own(x as usize)] {
            self.saved_count[at * n + p as usize] = self.count[p as usize];
        }
        self.saved_open[at] = self.open;
        Some(m)
    }

    fn exclude_forced<const TRAIL: bool>(&mut self, excluded: &[OptionId], updates: &mut u64) {
        for &o in excluded {
            let x = o.0 as usize;
            if self.live[x / 64] >> (x % 64) & 1 == 1 {
                self.drop_multi::<false>(o.0, updates);
            }
        }
    }

    fn capacity(&self, i: u32) -> u32 {
        self.cap.get(i as usize).copied().unwrap_or(1)
    }

    fn has_bounds(&self) -> bool {
        self.multi()
    }

    #[inline]
    fn candidate(&self, r: u32) -> u32 {
        self.cand[r as usize]
    }

    #[inline]
    fn commit<const TRAIL: bool>(&mut self, x: u32, check: bool, updates: &mut u64) -> bool {
        if self.multi() {
            return x == NONE
                || if check {
                    self.take_multi::<true>(x, updates)
                } else {
                    self.take_multi::<false>(x, updates)
                };
        }
        if check {
            self.take::<true>(x, updates)
        } else {
            self.take::<false>(x, updates)
        }
    }

    /// In one batch when the exclusions are precomputed: the union of the forced
    /// options' exclusions leaves the live set at once, and each option it kills takes
    /// one from its items' counts, as the commits one by one would (no option is
    /// killed twice either way), without a pass over the live set per option.
    fn commit_forced<const TRAIL: bool>(&mut self, forced: &[OptionId], updates: &mut u64) {
        if self.multi() {
            for &o in forced {
                self.take_multi::<false>(o.0, updates);
            }
            return;
        }
        if self.excludes.is_empty() {
            for &o in forced {
                self.take::<false>(o.0, updates);
            }
            return;
        }
        self.forced_union(forced);
        self.take_union(forced, updates);
    }

    /// With the exclusions precomputed: the forced options clash exactly when one of
    /// them is in the union of what those before it exclude ([`Bits::forced_union`]),
    /// so a sudoku record's clues are seventeen bit tests, not a lookup per item, and
    /// that union is the batch [`Bits::commit_forced`] takes out.
    fn commit_forced_if_free<const TRAIL: bool>(
        &mut self,
        forced: &[OptionId],
        updates: &mut u64,
    ) -> bool {
        if self.excludes.is_empty() {
            return false;
        }
        let free = self.forced_union(forced);
        if free {
            self.take_union(forced, updates);
        }
        free
    }

    fn option_of(&self, x: u32) -> OptionId {
        OptionId(x)
    }

    fn entries(&self, o: OptionId) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.option_entries(o.0).iter().map(|e| (e.item, e.color))
    }

    fn order(&self) -> &ItemOrder {
        &self.order
    }

    fn option_count(&self) -> usize {
        self.entry_start.len() - 1
    }

    fn forget_forced_moves(&mut self) {
        self.forced_moves.clear();
    }

    fn reset(&mut self) {}

    fn forget_pristine(&mut self) {}

    fn fingerprint(&self, h: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        self.live.hash(h);
        self.count.hash(h);
        self.need.hash(h);
        self.saved_need.len().hash(h);
        self.open.hash(h);
        self.saved.len().hash(h);
        self.saved_count.len().hash(h);
    }
}

#[cfg(test)]
mod tests {
    use super::Bits;
    use crate::clock::Instant;
    use crate::problem::{Problem, ProblemBuilder};
    use crate::solve::engine::Engine;
    use crate::solve::{Flow, SearchConfig};

    /// The domino tilings of an `r` x `c` board as exact cover.
    fn dominoes(r: usize, c: usize) -> Problem {
        let mut b = ProblemBuilder::new();
        let cell = |i: usize, j: usize| format!("{i},{j}");
        b.primary((0..r).flat_map(|i| (0..c).map(move |j| cell(i, j))));
        for i in 0..r {
            for j in 0..c {
                if j + 1 < c {
                    b.option([cell(i, j), cell(i, j + 1)]);
                }
                if i + 1 < r {
                    b.option([cell(i, j), cell(i + 1, j)]);
                }
            }
        }
        b.build()
    }

    /// Solutions, nodes and updates of a count.
    fn count(bits: Bits) -> (u128, u64, u64) {
        let config = SearchConfig {
            count_only: true,
            ..SearchConfig::default()
        };
        let mut e = Engine::new(bits);
        let mut visit = |_: &[crate::problem::OptionId]| Flow::Continue;
        let out = e.search(
            &[],
            &[],
            &mut Vec::new(),
            &config,
            &mut visit,
            Instant::now(),
        );
        let s = out.unwrap().stats;
        (s.solutions, s.nodes, s.updates)
    }

    /// The listed decrements of small problems make the same tree, counts and updates
    /// as finding the killed options and their items; sudoku's rows are too long.
    #[test]
    fn listed_decrements_change_nothing_but_the_time() {
        for (r, c, tilings) in [(4, 4, 36), (3, 6, 41), (6, 6, 6728), (5, 8, 14824)] {
            let with = Bits::new(&dominoes(r, c));
            assert!(!with.victim.is_empty(), "{r}x{c}");
            let mut without = with.clone();
            without.victim.clear();
            let (a, b) = (count(with), count(without));
            assert_eq!(a, b, "{r}x{c}");
            assert_eq!(a.0, tilings, "{r}x{c}");
        }
        let mut sudoku = ProblemBuilder::new();
        for k in ["p", "r", "c", "b"] {
            sudoku.primary((0..81).map(|i| format!("{k}{i}")));
        }
        for (r, c, d) in (0..729).map(|x| (x / 81, x / 9 % 9, x % 9)) {
            let b = r / 3 * 3 + c / 3;
            sudoku.option([
                format!("p{}", r * 9 + c),
                format!("r{}", r * 9 + d),
                format!("c{}", c * 9 + d),
                format!("b{}", b * 9 + d),
            ]);
        }
        assert!(Bits::new(&sudoku.build()).victim.is_empty());
    }
}
