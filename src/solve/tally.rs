//! Multiplicities on a few words of bits, the counts tallied when they are needed: the
//! structure of the smallest problems with multiplicity intervals (at most
//! [`MAX_PRIMARY`] primary items and `64 * W` options, `W` up to [`MAX_WORDS`]).
//!
//! The state of a node is the set of live options (`W` words) and what each primary
//! item still needs (a byte each): a hundred bytes or less, copied whole by a save
//! point, with no count kept per item. Where [`super::bits`] keeps a count per primary
//! item and takes one from the counts of every item of every option a move kills, this
//! structure counts an item's live options with a population count of `W` words when
//! it looks at the item. A commit is then a few word operations (the option's static
//! exclusions, and the options of the items it fills), and one pass over the primary
//! items after it both checks the node (an item with fewer options than it needs is a
//! dead end) and chooses the item to branch on, which [`Structure::choose`] then
//! returns without a second pass.
//!
//! On problems this size the nodes are cheap and many (half of them solutions), and a
//! pass over a dozen or two items costs less than the bookkeeping of kept counts:
//! measured against the kept counts of [`super::bits`] on the multiplicity families
//! of `benches/instances` (see docs/benchmarks.md).
//!
//! The levels, the item choice and its ties are those of [`super::bits`] with
//! multiplicities (SSMCC's choice: least branching degree, then least room, then most
//! options, then first declared), so the trees are the same except where a node has
//! several forced moves, which [`super::bits`] takes in the order it noted them and
//! this structure in the order of that choice.
//!
//! An item is *open* while it has a live option or still needs one; the rest are done.
//! Filled items (taken as often as their bound allows) have their options excluded at
//! once, so a done item needs no flag: its count is zero and its need at most zero.

use super::structure::{ItemOrder, Mark, NONE, Structure};
use crate::problem::{ColorId, ItemKind, OptionId, Problem};

/// Most primary items: a need each in one `i8` array of the state.
pub(crate) const MAX_PRIMARY: usize = 64;

/// Most words of options (`64 * MAX_WORDS` options).
pub(crate) const MAX_WORDS: usize = 4;

/// Largest bound (and least lower bound) an item may have here: needs are bytes.
const MAX_BOUND: u32 = i8::MAX as u32;

/// [`Tally::choose`] has no choice computed by the last commit.
const UNKNOWN: u64 = u64::MAX - 1;

/// What a save point copies: the live options and the needs of the primary items.
#[derive(Clone, Copy, Debug, Hash)]
struct State<const W: usize> {
    live: [u64; W],
    need: [i8; MAX_PRIMARY],
}

/// The structure of a small problem with multiplicities (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct Tally<const W: usize> {
    /// Number of primary items (internal items `0..n1`).
    n1: usize,
    /// Primary item `u`'s options.
    sets: Box<[[u64; W]; MAX_PRIMARY]>,
    /// Per primary item: how many options past its lower bound it may take.
    slack: [i8; MAX_PRIMARY],
    /// Per primary item: the most options that may cover it (normalized as in
    /// [`super::bits`]).
    cap: Vec<u32>,
    /// Per option: what taking it excludes whatever the state: itself, and the options
    /// of its secondary items in another color or in none.
    clash: Vec<[u64; W]>,
    /// Option `o`'s primary items: `primary[primary_at[o]..primary_at[o + 1]]`.
    primary: Vec<u8>,
    primary_at: Vec<u32>,
    /// Option `o`'s entries (internal item, color + 1 or 0), for the checks of forced
    /// options: `entries[entry_at[o]..entry_at[o + 1]]`.
    entries: Vec<(u32, u32)>,
    entry_at: Vec<u32>,
    order: ItemOrder,
    /// The state, and the save points.
    st: State<W>,
    saved: Vec<State<W>>,
    /// The candidates of the open levels (option numbers, or [`NONE`]).
    cand: Vec<u32>,
    /// Whether the level last laid out tweaks.
    tweaking: bool,
    /// The key of the item the last commit's pass chose (see [`Tally::pass`]), or
    /// [`UNKNOWN`].
    pending: u64,
    /// What the processor offers beyond the baseline the crate is compiled for (read on
    /// x86-64 only).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    cpu: Cpu,
}

/// The live options of `set`.
#[inline(always)]
fn tally<const W: usize>(set: &[u64; W], live: &[u64; W]) -> i32 {
    let mut c = 0;
    for w in 0..W {
        c += (set[w] & live[w]).count_ones();
    }
    c as i32
}

impl<const W: usize> Tally<W> {
    /// Whether `problem` has multiplicities and is small enough for this structure
    /// with `W` words: at most `64 * W` options, [`MAX_PRIMARY`] primary items, and
    /// bounds (once normalized) of at most 127. Called before the problem is validated:
    /// an entry of an item that does not exist makes it `false` (the validation that
    /// follows refuses the problem).
    pub fn fits(problem: &Problem) -> bool {
        let m = problem.options.len();
        if !problem.has_multiplicities() || m > 64 * W || W > MAX_WORDS {
            return false;
        }
        let mut len = vec![0u32; problem.items.len()];
        for opt in problem.options.iter() {
            for e in opt.entries {
                let Some(l) = len.get_mut(e.item.index()) else {
                    return false;
                };
                *l += 1;
            }
        }
        let mut primary = 0;
        for (i, item) in problem.items.iter().enumerate() {
            if let ItemKind::Primary { bounds } = item.kind {
                primary += 1;
                let b = bounds.hi.unwrap_or(u32::MAX).min(len[i].max(bounds.lo));
                if bounds.lo > MAX_BOUND || b > MAX_BOUND {
                    return false;
                }
            }
        }
        primary <= MAX_PRIMARY
    }

    /// Builds the structure of a valid problem that [`Tally::fits`].
    pub fn new(problem: &Problem) -> Tally<W> {
        debug_assert!(Tally::<W>::fits(problem));
        let m = problem.options.len();
        let order = ItemOrder::new(problem);
        let (internal, n1) = (&order.internal, order.n1 as usize);
        let n = internal.len();
        // Every item's options, and each colored (secondary item, color)'s.
        let mut all = vec![[0u64; W]; n];
        let mut agree = std::collections::HashMap::<(u32, u32), [u64; W]>::new();
        let (mut primary, mut primary_at) = (Vec::new(), Vec::with_capacity(m + 1));
        let (mut entries, mut entry_at) = (Vec::new(), Vec::with_capacity(m + 1));
        for (o, opt) in problem.options.iter().enumerate() {
            primary_at.push(primary.len() as u32);
            entry_at.push(entries.len() as u32);
            for e in opt.entries {
                let i = internal[e.item.index()];
                all[i as usize][o / 64] |= 1 << (o % 64);
                let color = e.color.map_or(0, ColorId::number);
                if let Some(c) = e.color {
                    agree.entry((i, c.number())).or_insert([0; W])[o / 64] |= 1 << (o % 64);
                }
                entries.push((i, color));
                if (i as usize) < n1 {
                    primary.push(i as u8);
                }
            }
        }
        primary_at.push(primary.len() as u32);
        entry_at.push(entries.len() as u32);
        let mut clash = vec![[0u64; W]; m];
        for (o, row) in clash.iter_mut().enumerate() {
            row[o / 64] |= 1 << (o % 64);
            for &(i, color) in &entries[entry_at[o] as usize..entry_at[o + 1] as usize] {
                if (i as usize) < n1 {
                    continue;
                }
                let same = match color {
                    0 => [0; W],
                    c => agree[&(i, c)],
                };
                for w in 0..W {
                    row[w] |= all[i as usize][w] & !same[w];
                }
            }
        }
        let mut sets = Box::new([[0u64; W]; MAX_PRIMARY]);
        sets[..n1].copy_from_slice(&all[..n1]);
        let mut st = State {
            live: [0; W],
            need: [0; MAX_PRIMARY],
        };
        for o in 0..m {
            st.live[o / 64] |= 1 << (o % 64);
        }
        let (mut slack, mut cap) = ([0i8; MAX_PRIMARY], Vec::with_capacity(n1));
        for u in 0..n1 {
            let ItemKind::Primary { bounds } = problem.item(order.item_id[u]).kind else {
                unreachable!("internal items 0..n1 are primary");
            };
            let len = tally(&sets[u], &st.live) as u32;
            let b = bounds.hi.unwrap_or(u32::MAX).min(len.max(bounds.lo));
            st.need[u] = bounds.lo as i8;
            slack[u] = (b - bounds.lo) as i8;
            cap.push(b);
        }
        // Items that may take no option are filled from the start.
        for u in 0..n1 {
            if i32::from(st.need[u]) + i32::from(slack[u]) == 0 {
                for w in 0..W {
                    st.live[w] &= !sets[u][w];
                }
            }
        }
        Tally {
            n1,
            sets,
            slack,
            cap,
            clash,
            primary,
            primary_at,
            entries,
            entry_at,
            order,
            st,
            saved: Vec::new(),
            cand: Vec::new(),
            tweaking: false,
            pending: UNKNOWN,
            cpu: Cpu::detect(),
        }
    }

    /// Option `x`'s primary items.
    #[inline(always)]
    fn own(&self, x: usize) -> &[u8] {
        &self.primary[self.primary_at[x] as usize..self.primary_at[x + 1] as usize]
    }

    /// [`Tally::step_portable`], compiled for what the processor has. Why: the
    /// baseline x86-64 target counts the bits of a word in a dozen instructions, and a
    /// pass makes one count per primary item and word; and it has no minimum of 32-bit
    /// integers in its vector instructions. Measured on `mcc_6x6_r1-2_c1-3`: the whole
    /// count took 2.47 s on the baseline, 1.77 s with the population count instruction
    /// and the pass one item at a time, and 1.10 s with the pass below on AVX2.
    #[inline(always)]
    fn step(&mut self, x: u32, updates: &mut u64) -> u64 {
        // SAFETY (both calls): the processor has the features the function is compiled
        // for, as `Cpu::detect` found.
        #[cfg(target_arch = "x86_64")]
        #[allow(unsafe_code)]
        match self.cpu {
            Cpu::Avx2 => return unsafe { self.step_avx2(x, updates) },
            Cpu::Popcnt => return unsafe { self.step_popcnt(x, updates) },
            Cpu::Baseline => {}
        }
        self.step_portable(x, updates)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,avx2")]
    fn step_avx2(&mut self, x: u32, updates: &mut u64) -> u64 {
        self.step_portable(x, updates)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn step_popcnt(&mut self, x: u32, updates: &mut u64) -> u64 {
        self.step_portable(x, updates)
    }

    /// Takes `x` unless it is [`NONE`], then makes [`Tally::pass`].
    #[inline(always)]
    fn step_portable(&mut self, x: u32, updates: &mut u64) -> u64 {
        if x != NONE {
            self.take(x as usize, updates);
        }
        self.pass()
    }

    /// One pass over the primary items: the key of the open item to branch on (least
    /// branching degree, then least room, then most live options, then first declared;
    /// a dead end, degree 0, is least of all), or `u64::MAX` when none is open (a
    /// solution). The item is the low six bits of the key, its degree [`degree_of`].
    ///
    /// Sixteen items at a time, past the last primary item too (those have no option
    /// and need none, so they are never open): the counts first, then the keys, in
    /// loops of fixed length that the compiler turns into vector instructions.
    #[inline(always)]
    fn pass(&self) -> u64 {
        let mut best = u32::MAX;
        for base in (0..self.n1).step_by(16) {
            let mut c = [0i32; 16];
            for (k, c) in c.iter_mut().enumerate() {
                *c = tally(&self.sets[base + k], &self.st.live);
            }
            let need = &self.st.need[base..base + 16];
            let slack = &self.slack[base..base + 16];
            for k in 0..16 {
                let (n, sl) = (i32::from(need[k]), i32::from(slack[k]));
                let degree = (c[k] - n.max(0) + 1).max(0) as u32;
                let room = sl.min(n + sl).max(0) as u32;
                // Every field fits: degree and options at most 257, room at most 127.
                let key = degree << 22 | room << 15 | (511 - c[k] as u32) << 6 | (base + k) as u32;
                best = best.min(if c[k] > 0 || n > 0 { key } else { u32::MAX });
            }
        }
        if best == u32::MAX {
            u64::MAX
        } else {
            u64::from(best)
        }
    }

    /// Takes option `x`: the static exclusions, one need less for each of its primary
    /// items, and the options of those it fills.
    #[inline(always)]
    fn take(&mut self, x: usize, updates: &mut u64) {
        let before = self.st.live;
        let mut live = before;
        let row = &self.clash[x];
        for w in 0..W {
            live[w] &= !row[w];
        }
        let (from, to) = (self.primary_at[x] as usize, self.primary_at[x + 1] as usize);
        for k in from..to {
            let u = self.primary[k] as usize;
            let need = self.st.need[u] - 1;
            self.st.need[u] = need;
            if need + self.slack[u] == 0 {
                for (l, s) in live.iter_mut().zip(&self.sets[u]) {
                    *l &= !s;
                }
            }
        }
        let mut killed = (to - from) as u32;
        for w in 0..W {
            killed += (before[w] & !live[w]).count_ones();
        }
        *updates += u64::from(killed);
        self.st.live = live;
    }
}

/// The instructions [`Tally::step`] may use beyond the compiled baseline.
#[derive(Clone, Copy, Debug)]
enum Cpu {
    Baseline,
    /// A population count (x86-64 processors since 2008).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Popcnt,
    /// That and AVX2 (since 2013).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Avx2,
}

impl Cpu {
    fn detect() -> Cpu {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("popcnt") {
            return if std::is_x86_feature_detected!("avx2") {
                Cpu::Avx2
            } else {
                Cpu::Popcnt
            };
        }
        Cpu::Baseline
    }
}

/// The branching degree in a key of [`Tally::pass`].
#[inline(always)]
fn degree_of(key: u64) -> u64 {
    key >> 22
}

impl<const W: usize> Structure for Tally<W> {
    fn trails(&self) -> bool {
        false
    }

    #[inline]
    fn save<const TRAIL: bool>(&mut self) -> Mark {
        self.saved.push(self.st);
        Mark(self.saved.len() as u32 - 1)
    }

    #[inline]
    fn restore<const TRAIL: bool>(&mut self, m: Mark) {
        self.st = self.saved[m.0 as usize];
        self.pending = UNKNOWN;
    }

    #[inline]
    fn release<const TRAIL: bool>(&mut self, m: Mark) {
        self.saved.truncate(m.0 as usize);
    }

    #[inline]
    fn choose(&mut self) -> Option<u32> {
        let key = match self.pending {
            UNKNOWN => self.step(NONE, &mut 0),
            key => key,
        };
        self.pending = UNKNOWN;
        (key != u64::MAX).then_some((key & 0x3f) as u32)
    }

    /// Lays out the live options of item `i` that its level tries: all but the last
    /// `need - 1` (the children after those could not give it what it needs), then
    /// [`NONE`] when it may take no more.
    #[inline]
    fn cover_chosen<const TRAIL: bool>(
        &mut self,
        i: u32,
        at: u32,
        _updates: &mut u64,
    ) -> std::ops::Range<u32> {
        let u = i as usize;
        self.cand.truncate(at as usize);
        self.pending = UNKNOWN;
        let c = tally(&self.sets[u], &self.st.live);
        let (n, sl) = (i32::from(self.st.need[u]), i32::from(self.slack[u]));
        let degree = c - n.max(0) + 1;
        self.tweaking = false;
        if degree <= 0 {
            return at..at;
        }
        let closes = degree > c;
        self.tweaking = degree > 1 && !(n == 1 && sl == 0);
        let mut left = (degree - i32::from(closes)) as usize;
        for w in 0..W {
            let mut bits = self.sets[u][w] & self.st.live[w];
            while bits != 0 && left > 0 {
                self.cand.push((w * 64) as u32 + bits.trailing_zeros());
                bits &= bits - 1;
                left -= 1;
            }
        }
        if closes {
            self.cand.push(NONE);
        }
        at..self.cand.len() as u32
    }

    #[inline]
    fn candidate(&self, r: u32) -> u32 {
        self.cand[r as usize]
    }

    fn tweaking(&self) -> bool {
        self.tweaking
    }

    /// Takes `x` out of the live options; `false` when one of its items is left with
    /// fewer than it needs.
    #[inline]
    fn exclude<const TRAIL: bool>(&mut self, x: u32, updates: &mut u64) -> bool {
        let x = x as usize;
        self.pending = UNKNOWN;
        self.st.live[x / 64] &= !(1 << (x % 64));
        *updates += 1;
        self.own(x).iter().all(|&u| {
            tally(&self.sets[u as usize], &self.st.live) >= i32::from(self.st.need[u as usize])
        })
    }

    #[inline]
    fn exclude_saved<const TRAIL: bool>(
        &mut self,
        x: u32,
        m: Mark,
        updates: &mut u64,
    ) -> Option<Mark> {
        if !self.exclude::<TRAIL>(x, updates) {
            return None;
        }
        self.saved[m.0 as usize].live = self.st.live;
        Some(m)
    }

    fn exclude_forced<const TRAIL: bool>(&mut self, excluded: &[OptionId], updates: &mut u64) {
        for &o in excluded {
            let x = o.index();
            *updates += self.st.live[x / 64] >> (x % 64) & 1;
            self.st.live[x / 64] &= !(1 << (x % 64));
        }
        self.pending = UNKNOWN;
    }

    fn capacity(&self, i: u32) -> u32 {
        self.cap[i as usize]
    }

    fn has_bounds(&self) -> bool {
        true
    }

    /// Commits `x` ([`NONE`]: the level's item takes no more, and its options were
    /// all excluded before), and makes the pass that checks the node and chooses its
    /// item.
    #[inline]
    fn commit<const TRAIL: bool>(&mut self, x: u32, check: bool, updates: &mut u64) -> bool {
        let key = self.step(x, updates);
        self.pending = key;
        !check || key == u64::MAX || degree_of(key) > 0
    }

    fn commit_forced<const TRAIL: bool>(&mut self, forced: &[OptionId], updates: &mut u64) {
        for &o in forced {
            self.take(o.index(), updates);
        }
        self.pending = UNKNOWN;
    }

    fn option_of(&self, x: u32) -> OptionId {
        OptionId(x)
    }

    fn entries(&self, o: OptionId) -> impl Iterator<Item = (u32, u32)> + '_ {
        let o = o.index();
        self.entries[self.entry_at[o] as usize..self.entry_at[o + 1] as usize]
            .iter()
            .copied()
    }

    fn order(&self) -> &ItemOrder {
        &self.order
    }

    fn option_count(&self) -> usize {
        self.clash.len()
    }

    fn forget_forced_moves(&mut self) {
        self.pending = UNKNOWN;
    }

    fn reset(&mut self) {}

    fn forget_pristine(&mut self) {}

    fn fingerprint(&self, h: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        self.st.hash(h);
        self.saved.len().hash(h);
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_PRIMARY, Tally};
    use crate::clock::Instant;
    use crate::problem::{Bounds, Entry, ItemId, ItemKind, Opt, OptionId, Problem};
    use crate::solve::bits::Bits;
    use crate::solve::engine::Engine;
    use crate::solve::structure::Structure;
    use crate::solve::{Flow, SearchConfig};

    /// Solutions and nodes of a count on structure `s`, with `forced` and `excluded`.
    fn count<S: Structure>(s: S, forced: &[OptionId], excluded: &[OptionId]) -> (u128, u64) {
        let config = SearchConfig {
            count_only: true,
            ..SearchConfig::default()
        };
        let mut e = Engine::new(s);
        let mut visit = |_: &[OptionId]| Flow::Continue;
        let out = e.search(
            forced,
            excluded,
            &mut Vec::new(),
            &config,
            &mut visit,
            Instant::now(),
        );
        out.map_or((u128::MAX, 0), |o| (o.stats.solutions, o.stats.nodes))
    }

    /// `n` primary items with `bounds`, and options of the items of each set in `sets`.
    fn problem(n: usize, bounds: Bounds, sets: &[Vec<usize>]) -> Problem {
        let mut p = Problem::new();
        for i in 0..n {
            p.add_item(
                format!("p{i}"),
                ItemKind::Primary { bounds },
                Default::default(),
            );
        }
        for set in sets {
            p.add_option(Opt {
                name: None,
                entries: set
                    .iter()
                    .map(|&i| Entry {
                        item: ItemId(i as u32),
                        color: None,
                    })
                    .collect(),
                cost: None,
                origin: Default::default(),
            });
        }
        p
    }

    /// One, two and four words give the same trees, and the bitsets that keep their
    /// counts the same solutions, on random problems with multiplicities, colors,
    /// forced and excluded options.
    #[test]
    fn every_width_counts_what_kept_counts_count() {
        let mut rng = crate::testing::Rng(0x7A11_7A11_5EED_0001);
        let mut counted = 0;
        for case in 0..2000 {
            let p = crate::testing::random_problem(&mut rng, true);
            if !Tally::<1>::fits(&p) {
                continue;
            }
            let m = p.options.len() as u64;
            let forced: Vec<OptionId> = (0..rng.next(2))
                .map(|_| OptionId(rng.next(m) as u32))
                .collect();
            let excluded: Vec<OptionId> = (0..rng.next(3))
                .map(|_| OptionId(rng.next(m) as u32))
                .collect();
            let one = count(Tally::<1>::new(&p), &forced, &excluded);
            assert_eq!(
                one,
                count(Tally::<2>::new(&p), &forced, &excluded),
                "case {case}"
            );
            assert_eq!(
                one,
                count(Tally::<4>::new(&p), &forced, &excluded),
                "case {case}"
            );
            let kept = count(Bits::new(&p), &forced, &excluded);
            assert_eq!(one.0, kept.0, "case {case}: {p:#?}");
            counted += usize::from(one.0 > 0 && one.0 != u128::MAX);
        }
        assert!(counted > 300, "only {counted} problems with solutions");
    }

    /// Bounds up to 127 fit, and the needs count down from there: one item between 125
    /// and 127 of 128 options has C(128,125) + C(128,126) + C(128,127) solutions.
    #[test]
    fn needs_of_up_to_127_count_down_exactly() {
        let one = |lo, hi| Bounds { lo, hi: Some(hi) };
        let sets = vec![vec![0]; 128];
        let p = problem(1, one(125, 127), &sets);
        assert!(Tally::<2>::fits(&p) && !Tally::<1>::fits(&p));
        assert_eq!(
            count(Tally::<2>::new(&p), &[], &[]).0,
            341_376 + 8_128 + 128
        );
        assert!(!Tally::<2>::fits(&problem(1, one(128, 128), &sets)));
        // A bound above 127 that the options cannot reach is normalized down to 128.
        assert!(!Tally::<2>::fits(&problem(1, one(0, 1000), &sets)));
        assert!(Tally::<2>::fits(&problem(1, one(0, 1000), &sets[..127])));
    }

    /// At most 64 primary items and 64 options a word.
    #[test]
    fn the_limits_are_those_documented() {
        let two = Bounds { lo: 2, hi: Some(2) };
        let lines = |n: usize| (0..n).map(|i| vec![i, (i + 1) % n]).collect::<Vec<_>>();
        assert!(Tally::<4>::fits(&problem(
            MAX_PRIMARY,
            two,
            &lines(MAX_PRIMARY)
        )));
        assert!(!Tally::<4>::fits(&problem(
            MAX_PRIMARY + 1,
            two,
            &lines(MAX_PRIMARY + 1)
        )));
        // A cycle of 64 items, each in two options and needing both: one solution.
        let cycle = problem(MAX_PRIMARY, two, &lines(MAX_PRIMARY));
        assert_eq!(count(Tally::<1>::new(&cycle), &[], &[]).0, 1);
        let many = vec![vec![0]; 257];
        let one_or_more = Bounds { lo: 1, hi: Some(2) };
        assert!(Tally::<4>::fits(&problem(1, one_or_more, &many[..256])));
        assert!(!Tally::<4>::fits(&problem(1, one_or_more, &many)));
        assert!(!Tally::<1>::fits(&problem(1, one_or_more, &many[..65])));
        // Without multiplicities the kept counts serve.
        assert!(!Tally::<1>::fits(&problem(
            2,
            Bounds::EXACTLY_ONCE,
            &lines(2)
        )));
    }
}
