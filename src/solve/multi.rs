//! Multiplicities on sparse sets: Knuth's SSMCC (dancing cells with Algorithm M's
//! bounds), as a [`Structure`] of the shared search loop, so that a problem with
//! multiplicity intervals gets threads, shards, checkpoints and estimates as plain
//! problems do.
//!
//! The sets are [`super::cells`]' (a segment of one array per item, the live options
//! first), and so are the flags in the sizes: [`EARLIER`] marks an item that is no
//! longer active, [`CURRENT`] one the commit under way takes out. Beside the size, a
//! primary item has a *need*, how many more options it must have (its lower bound
//! minus the options taken; negative once it may take fewer than it has room for),
//! and a constant *slack*, the width of its interval: it may take `need + slack` more.
//! An item is active while it may take more and has options left, or must take more;
//! the invariant of a live branch is `size >= need` for every active primary item.
//!
//! # Two kinds of level
//!
//! Knuth's SSMCC branches two ways at every node: take option `o` of the chosen item,
//! or remove `o` and go on. The shared loop branches `d` ways, so a level here is the
//! right spine of SSMCC's binary tree: its children take the item's options one after
//! another, and between two children the one tried is *excluded* for the rest of the
//! level (the loop's "tweak"), so that each set of options is met once. Where the item
//! may take no more (its need is at most 0 and no option is left), the last child takes
//! none: the item is closed. The number of children is SSMCC's branching degree
//! `size + min(slack, bound) - bound + 1`.
//!
//! An item that must be covered exactly once (need 1, slack 0) is branched on as
//! dancing cells do: covered when chosen, its options hidden from the other items
//! once, not once per child, and no exclusions. On a problem whose every item is
//! exactly once this builds dancing cells' tree; mixed problems (Langford pairs with
//! a bounded item, packings with a count of pieces) branch on their exactly-once
//! items at that cost.
//!
//! A child's part of the tree (for threads, shards and checkpoints) is the options
//! taken on the way down and the options excluded: [`Structure::exclude_forced`]
//! replays the exclusions after the forced options.

use super::cells::{
    COPY_MAX_ITEMS, CURRENT, EARLIER, LIVE, Sets, TooLarge, delete, next_stamp, round_option,
};
use super::structure::{ItemOrder, Left, Mark, NONE, Structure, left};
use crate::problem::{ItemKind, OptionId, Problem};

/// Save points: as in dancing cells, copies of the state or a trail of changes, here
/// of the sizes and the needs.
#[derive(Clone, Debug)]
enum Undo {
    /// Every save point is a copy of the sizes then the needs, end to end.
    Copy(Vec<i32>),
    /// A trail of (item, size, need) before a change; `stamp[i]` is the save point
    /// whose trail already holds item `i`.
    Trail {
        trail: Vec<(u32, i32, i32)>,
        stamp: Vec<u32>,
        now: u32,
    },
}

/// The sparse-set structure of a problem with multiplicities, with its save points.
#[derive(Clone, Debug)]
pub(crate) struct Multi {
    /// The nodes and the sets, as dancing cells lay them out.
    sets: Sets,
    /// Per item: live count plus flags.
    size: Vec<i32>,
    /// Per primary item: the options it must still take (may be negative).
    need: Vec<i32>,
    /// Per primary item: upper bound minus lower bound, normalized (see [`Multi::new`]).
    slack: Vec<i32>,
    /// Per primary item: the upper bound at the start, for the clash check of forced
    /// options.
    cap: Vec<u32>,
    undo: Undo,
    /// The candidates of the open levels, each level's after the one above's: nodes,
    /// and [`NONE`] for the child that closes an item.
    cand: Vec<u32>,
    /// Whether the level last laid out excludes each child before the next.
    tweaking: bool,
    /// Primary items left with exactly the options they need, noted as it happens: a
    /// forced move that the next choice takes without scanning.
    forced_moves: Vec<u32>,
}

impl Multi {
    /// Builds the structure of a valid problem. Bounds are normalized as Algorithm M's
    /// engine does: an upper bound above the item's options (or none) becomes their
    /// number, keeping `need` (the lower bound) as it is, so that an item whose lower
    /// bound exceeds its options is a dead end. Items that may take no option are
    /// closed at once, their options hidden: that is the state every search starts
    /// from.
    pub fn new(problem: &Problem, trail: bool) -> Result<Multi, TooLarge> {
        let (sets, len) = Sets::lay_out(problem)?;
        let n = len.len();
        let n1 = sets.order.n1 as usize;
        let mut need = vec![0i32; n1];
        let mut slack = vec![0i32; n1];
        let mut cap = vec![0u32; n1];
        for u in 0..n1 {
            let ItemKind::Primary { bounds } = problem.item(sets.order.item_id[u]).kind else {
                unreachable!("internal items 0..n1 are primary");
            };
            let lo = i32::try_from(bounds.lo).unwrap_or(i32::MAX);
            let hi = bounds
                .hi
                .map_or(i32::MAX, |h| i32::try_from(h).unwrap_or(i32::MAX));
            let b = hi.min(len[u].max(lo));
            need[u] = lo;
            slack[u] = b - lo;
            cap[u] = b as u32;
        }
        let undo = if n <= COPY_MAX_ITEMS && !trail {
            Undo::Copy(Vec::new())
        } else {
            Undo::Trail {
                trail: Vec::new(),
                stamp: vec![0; n],
                now: 0,
            }
        };
        let mut m = Multi {
            sets,
            size: len,
            need,
            slack,
            cap,
            undo,
            cand: Vec::new(),
            tweaking: false,
            forced_moves: Vec::new(),
        };
        // Items that may take nothing, and items with no option and nothing needed.
        let mut ignored = 0;
        for u in 0..n1 as u32 {
            let (need, slack) = (m.need[u as usize], m.slack[u as usize]);
            if m.size[u as usize] >= EARLIER {
                // Closed already: its last option was hidden by another's.
                continue;
            }
            if need + slack == 0 {
                m.size[u as usize] += EARLIER;
                m.hide::<false>(u, 0, false, None, &mut ignored);
            } else if m.size[u as usize] == 0 && need <= 0 {
                m.size[u as usize] += EARLIER;
            }
        }
        m.sets.keep_pristine();
        Ok(m)
    }

    /// The nodes of the option of node `x`, spacer excluded: up to the spacer after
    /// it, which knows the option's length (no search of the option starts).
    #[inline]
    fn nodes_of(&self, x: u32) -> std::ops::Range<u32> {
        let mut q = x;
        while self.sets.nd[q as usize].itm >= 0 {
            q += 1;
        }
        (q as i32 + self.sets.nd[q as usize].itm) as u32..q
    }

    /// The live options of item `i`, as a range of the sets.
    #[inline]
    fn live(&self, i: u32) -> std::ops::Range<u32> {
        let b = self.sets.base[i as usize];
        b..b + (self.size[i as usize] & LIVE) as u32
    }

    /// Whether node `q` is among the live options of its item `u`.
    #[inline]
    fn is_live(&self, q: u32, u: u32) -> bool {
        self.sets.nd[q as usize].loc
            < self.sets.base[u as usize] + (self.size[u as usize] & LIVE) as u32
    }

    /// Records item `i`'s state at the current save point, before it changes.
    #[inline(always)]
    fn record<const TRAIL: bool>(&mut self, i: u32) {
        if TRAIL && let Undo::Trail { trail, stamp, now } = &mut self.undo {
            let need = self.need.get(i as usize).copied().unwrap_or(0);
            note(trail, stamp, *now, i, self.size[i as usize], need);
        }
    }

    /// Hides from the other sets every live option of item `c` (all of them, or with a
    /// color only those of another color), except the option whose nodes are `keep`.
    /// A primary item whose options fall below its need makes this return `false` at
    /// once with `check` (the branch is dead); one left with no option and no need is
    /// closed. Items the commit under way takes out (flagged [`CURRENT`]) are neither
    /// checked nor closed; items no longer active are skipped.
    ///
    /// As in dancing cells, the loop works on local slices and counts in a register.
    #[inline]
    fn hide<const TRAIL: bool>(
        &mut self,
        c: u32,
        color: u32,
        check: bool,
        keep: Option<std::ops::Range<u32>>,
        updates: &mut u64,
    ) -> bool {
        let nd = &mut self.sets.nd[..];
        let set = &mut self.sets.set[..];
        let size = &mut self.size[..];
        let need = &self.need[..];
        let base = &self.sets.base[..];
        let clr = &self.sets.clr[..];
        let mut undo = match &mut self.undo {
            Undo::Trail { trail, stamp, now } if TRAIL => Some((trail, &mut stamp[..], *now)),
            _ => None,
        };
        let n1 = self.sets.order.n1;
        let forced_moves = &mut self.forced_moves;
        let keep = keep.unwrap_or(0..0);
        let mut count = 0u64;
        let from = base[c as usize];
        let end = from + (size[c as usize] & LIVE) as u32;
        for r in from..end {
            let t = set[r as usize];
            if (color != 0 && clr[t as usize] == color) || keep.contains(&t) {
                continue;
            }
            round_option!(nd, t, |q, u| {
                let s = size[u as usize];
                if s < EARLIER {
                    if TRAIL && let Some((trail, stamp, now)) = &mut undo {
                        let n = need.get(u as usize).copied().unwrap_or(0);
                        note(trail, stamp, *now, u, s, n);
                    }
                    let s = delete(nd, set, size, base, q, u);
                    count += 1;
                    if u < n1 && s < CURRENT {
                        match left(s, need[u as usize]) {
                            Left::Short if check => {
                                *updates += count;
                                return false;
                            }
                            Left::Closed => size[u as usize] = EARLIER,
                            Left::Forced => forced_moves.push(u),
                            Left::Short | Left::Room => {}
                        }
                    }
                }
            });
        }
        *updates += count;
        true
    }

    /// Takes the option of node `x`, alive: every primary item of it needs one option
    /// less; one that may take no more is covered (its other options hidden), the
    /// others lose `x`'s option from their sets; its secondary items are purified as
    /// in dancing cells. With `check`, `false` as soon as some primary item is left
    /// with fewer options than it needs. The chosen item of an exactly-once level is
    /// covered already (and `x`'s option hidden from the other sets): it is skipped,
    /// and the option is deleted only where it is still live.
    fn include<const TRAIL: bool>(&mut self, x: u32, check: bool, updates: &mut u64) -> bool {
        let nodes = self.nodes_of(x);
        let n1 = self.sets.order.n1;
        for q in nodes.clone() {
            let u = self.sets.item_of(q);
            let s = self.size[u as usize];
            if s >= EARLIER {
                continue;
            }
            self.record::<TRAIL>(u);
            *updates += 1;
            if u >= n1 {
                self.size[u as usize] = s + CURRENT;
                continue;
            }
            let need = self.need[u as usize] - 1;
            self.need[u as usize] = need;
            if need + self.slack[u as usize] == 0 {
                self.size[u as usize] = s + CURRENT;
                continue;
            }
            if self.is_live(q, u) {
                delete(
                    &mut self.sets.nd,
                    &mut self.sets.set,
                    &mut self.size,
                    &self.sets.base,
                    q,
                    u,
                );
            }
            let left = self.size[u as usize];
            if left < need {
                if check {
                    return false;
                }
            } else if left == 0 {
                self.size[u as usize] = EARLIER;
            } else if left == need {
                self.forced_moves.push(u);
            }
        }
        for q in nodes.clone() {
            let u = self.sets.item_of(q);
            let s = self.size[u as usize];
            if (CURRENT..EARLIER).contains(&s) {
                let color = if u < n1 { 0 } else { self.sets.color(q) };
                if !self.hide::<TRAIL>(u, color, check, Some(nodes.clone()), updates) {
                    return false;
                }
            }
        }
        for q in nodes {
            let s = &mut self.size[self.sets.nd[q as usize].itm as usize];
            if (CURRENT..EARLIER).contains(s) {
                *s += EARLIER - CURRENT;
            }
        }
        true
    }

    /// Removes the option of `nodes`, alive, from the sets of its active items: with
    /// `check`, `false` as soon as some primary item is left with fewer options than it
    /// needs.
    fn remove<const TRAIL: bool>(
        &mut self,
        nodes: std::ops::Range<u32>,
        check: bool,
        updates: &mut u64,
    ) -> bool {
        let n1 = self.sets.order.n1;
        for q in nodes {
            let u = self.sets.item_of(q);
            if self.size[u as usize] >= EARLIER {
                continue;
            }
            self.record::<TRAIL>(u);
            let s = delete(
                &mut self.sets.nd,
                &mut self.sets.set,
                &mut self.size,
                &self.sets.base,
                q,
                u,
            );
            *updates += 1;
            if u < n1 {
                match left(s, self.need[u as usize]) {
                    Left::Short if check => return false,
                    Left::Closed => self.size[u as usize] = EARLIER,
                    Left::Forced => self.forced_moves.push(u),
                    Left::Short | Left::Room => {}
                }
            }
        }
        true
    }

    /// Whether option `o` is alive: live in the set of one of its primary items, which
    /// is active. (An option of the forced list's exclusions always has one: it was a
    /// candidate of a primary item.)
    fn alive(&self, o: OptionId) -> bool {
        let n1 = self.sets.order.n1;
        self.sets.option_nodes(o).any(|q| {
            let u = self.sets.item_of(q);
            u < n1 && self.size[u as usize] < CURRENT && self.is_live(q, u)
        })
    }
}

/// Records `i`'s state unless the current save point has it.
#[inline(always)]
fn note(trail: &mut Vec<(u32, i32, i32)>, stamp: &mut [u32], now: u32, i: u32, s: i32, n: i32) {
    if stamp[i as usize] != now {
        stamp[i as usize] = now;
        trail.push((i, s, n));
    }
}

impl Structure for Multi {
    fn trails(&self) -> bool {
        matches!(self.undo, Undo::Trail { .. })
    }

    #[inline]
    fn save<const TRAIL: bool>(&mut self) -> Mark {
        match &mut self.undo {
            Undo::Copy(saved) if !TRAIL => {
                let at = saved.len() as u32;
                saved.extend_from_slice(&self.size);
                saved.extend_from_slice(&self.need);
                Mark(at)
            }
            Undo::Trail { trail, stamp, now } if TRAIL => {
                next_stamp(stamp, now);
                Mark(trail.len() as u32)
            }
            _ => unreachable!("save point of the wrong kind"),
        }
    }

    #[inline]
    fn restore<const TRAIL: bool>(&mut self, m: Mark) {
        // Forced moves noted since the save point are stale now.
        self.forced_moves.clear();
        match &mut self.undo {
            Undo::Copy(saved) if !TRAIL => {
                let (n, n1) = (self.size.len(), self.need.len());
                let at = m.0 as usize;
                self.size.copy_from_slice(&saved[at..at + n]);
                self.need.copy_from_slice(&saved[at + n..at + n + n1]);
            }
            Undo::Trail { trail, stamp, now } if TRAIL => {
                for &(i, s, need) in trail[m.0 as usize..].iter().rev() {
                    self.size[i as usize] = s;
                    if let Some(x) = self.need.get_mut(i as usize) {
                        *x = need;
                    }
                }
                trail.truncate(m.0 as usize);
                next_stamp(stamp, now);
            }
            _ => unreachable!("save point of the wrong kind"),
        }
    }

    #[inline]
    fn release<const TRAIL: bool>(&mut self, m: Mark) {
        if let Undo::Copy(saved) = &mut self.undo
            && !TRAIL
        {
            saved.truncate(m.0 as usize);
        }
    }

    /// SSMCC's choice: the active primary item of least branching degree
    /// `size - max(need, 0) + 1`; among those the one with least `min(slack, bound)`
    /// (the most constrained), then the most options, then the first declared. An item
    /// of degree 1 or less (a forced move, or a dead end) is taken at once.
    fn choose(&mut self) -> Option<u32> {
        while let Some(u) = self.forced_moves.pop() {
            let s = self.size[u as usize];
            if s < CURRENT && s <= self.need[u as usize].max(0) {
                return Some(u);
            }
        }
        let n1 = self.need.len();
        let (size, need, slack) = (&self.size[..n1], &self.need[..n1], &self.slack[..n1]);
        // (degree, min(slack, bound), options left out, item) in one number, so that
        // the least is found without a branch: an item no longer active is the
        // greatest, a dead end (degree 0 or less) the least.
        let mut best = u128::MAX;
        for u in 0..n1 {
            let (s, n, sl) = (size[u], need[u], slack[u]);
            let degree = (s - n.max(0) + 1).max(0) as u128;
            let key = if s >= CURRENT {
                u128::MAX
            } else {
                degree << 96
                    | (sl.min(n + sl).max(0) as u128) << 64
                    | ((LIVE - s) as u128) << 32
                    | u as u128
            };
            best = best.min(key);
        }
        (best != u128::MAX).then_some(best as u32)
    }

    fn cover_chosen<const TRAIL: bool>(
        &mut self,
        i: u32,
        at: u32,
        updates: &mut u64,
    ) -> std::ops::Range<u32> {
        let l = self.size[i as usize] & LIVE;
        let (need, slack) = (self.need[i as usize], self.slack[i as usize]);
        let degree = l - need.max(0) + 1;
        self.tweaking = false;
        if degree <= 0 {
            return at..at;
        }
        let live = self.live(i);
        let take = (l.min(degree)) as u32;
        let end = at + degree as u32;
        self.cand.resize((end as usize).max(self.cand.len()), 0);
        let (from, to) = (at as usize, (at + take) as usize);
        self.cand[from..to]
            .copy_from_slice(&self.sets.set[live.start as usize..(live.start + take) as usize]);
        if need == 1 && slack == 0 {
            // Exactly once: covered now, its options hidden once for all children.
            self.record::<TRAIL>(i);
            self.size[i as usize] += EARLIER;
            *updates += 1;
            self.hide::<TRAIL>(i, 0, false, None, updates);
        } else {
            if degree > l {
                self.cand[to] = NONE;
            }
            self.tweaking = degree > 1;
        }
        at..end
    }

    #[inline]
    fn candidate(&self, r: u32) -> u32 {
        self.cand[r as usize]
    }

    fn tweaking(&self) -> bool {
        self.tweaking
    }

    fn commit<const TRAIL: bool>(&mut self, x: u32, check: bool, updates: &mut u64) -> bool {
        x == NONE || self.include::<TRAIL>(x, check, updates)
    }

    fn exclude<const TRAIL: bool>(&mut self, x: u32, updates: &mut u64) -> bool {
        let nodes = self.nodes_of(x);
        self.remove::<TRAIL>(nodes, true, updates)
    }

    /// With copies for save points, the exclusion is written into the copy of `m`
    /// (only the option's items change), not a copy of the whole state taken again.
    fn exclude_saved<const TRAIL: bool>(
        &mut self,
        x: u32,
        m: Mark,
        updates: &mut u64,
    ) -> Option<Mark> {
        let nodes = self.nodes_of(x);
        if !self.remove::<TRAIL>(nodes.clone(), true, updates) {
            return None;
        }
        match &mut self.undo {
            Undo::Copy(saved) if !TRAIL => {
                for q in nodes {
                    let u = self.sets.nd[q as usize].itm as usize;
                    saved[m.0 as usize + u] = self.size[u];
                }
                Some(m)
            }
            Undo::Trail { trail, stamp, now } if TRAIL => {
                next_stamp(stamp, now);
                Some(Mark(trail.len() as u32))
            }
            _ => unreachable!("save point of the wrong kind"),
        }
    }

    fn exclude_forced<const TRAIL: bool>(&mut self, excluded: &[OptionId], updates: &mut u64) {
        for &o in excluded {
            if self.alive(o) {
                self.remove::<TRAIL>(self.sets.option_nodes(o), false, updates);
            }
        }
    }

    fn commit_forced<const TRAIL: bool>(&mut self, forced: &[OptionId], updates: &mut u64) {
        for &o in forced {
            let first = self.sets.option_start[o.index()];
            self.include::<TRAIL>(first, false, updates);
        }
    }

    fn option_of(&self, x: u32) -> OptionId {
        self.sets.option_of(x)
    }

    fn entries(&self, o: OptionId) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.sets.entries(o)
    }

    fn order(&self) -> &ItemOrder {
        &self.sets.order
    }

    fn capacity(&self, i: u32) -> u32 {
        self.cap[i as usize]
    }

    fn has_bounds(&self) -> bool {
        true
    }

    fn option_count(&self) -> usize {
        self.sets.option_start.len() - 1
    }

    fn forget_forced_moves(&mut self) {
        self.forced_moves.clear();
    }

    fn reset(&mut self) {
        self.sets.reset();
    }

    fn forget_pristine(&mut self) {
        self.sets.forget_pristine();
    }

    fn fingerprint(&self, h: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        self.size.hash(h);
        self.need.hash(h);
        self.sets.fingerprint(&self.size, h);
        match &self.undo {
            Undo::Copy(saved) => saved.len().hash(h),
            Undo::Trail { trail, .. } => trail.len().hash(h),
        }
    }
}
