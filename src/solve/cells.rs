//! Exact cover with colors on sparse sets: Knuth's "dancing cells" (TAOCP 7.2.2.3, his
//! program SSXCC, after Christine Solnon's sparse-set formulation).
//!
//! Where dancing links keep every item's options in a doubly linked list and undo by
//! relinking, dancing cells keep them in a *sparse set*: a segment of one array whose
//! first `size` entries are the options still alive, with every node knowing its place
//! (`loc`) in that segment. Deleting an option from an item swaps it just past the live
//! part and shrinks `size`; nothing else moves, so undoing is writing the old sizes
//! back. The active items form one more sparse set of the same kind. A node is touched
//! once to delete it and never to restore it, and restoring is a sequential walk of a
//! short trail of (item, size) pairs instead of a pointer chase through the matrix.
//!
//! [`Cells`] is the structure and its moves (cover, commit, hide, restore);
//! [`search`] is the loop. The engine solves plain exact cover and Algorithm C's
//! colors (secondary items that options may share when they agree on a color).
//! Multiplicities stay with Algorithm M ([`super::mcc`]).
//!
//! # Invariants
//!
//! - Between searches every set is whole: `size` of each item is the number of its
//!   options, all items are active. (The *order* inside a set may differ from the
//!   order of construction after a search of a large problem; see [`Cells::reset`].)
//! - An option is *alive* when none of its items has been covered and no purified
//!   color excludes it; an alive option is in the live part of the set of each of its
//!   active items. So an alive option never holds a covered primary item, and only
//!   secondary items need an activity test when an option is deleted.
//! - Every change of a `size` below a save point is recorded on the trail first, once
//!   per item and save point (the `stamp`), so [`Cells::restore`] brings back exactly
//!   the sets of that point. The active sets are restored by their counts alone.

pub(crate) mod search;

use crate::problem::{ItemId, OptionId, Problem};

/// One matrix entry, 8 bytes; a spacer closes every option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Node {
    /// The item (internal number, `>= 0`); for the spacer after an option, minus the
    /// option's length, so that adding it to the spacer's index jumps to the option's
    /// first node and a walk can go round an option from any of its nodes.
    pub itm: i32,
    /// Where this node sits in the set of its item (an index into [`Cells::set`]).
    pub loc: u32,
}

/// The size of an item's set and the save point at which it was last recorded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Size {
    /// The number of live options in the set.
    pub live: u32,
    /// The save point whose trail already holds this item's size.
    pub stamp: u32,
}

/// What a search changes: the sets and the active items.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct State {
    /// The nodes: each option's entries, then a spacer. Node 0 is a spacer too.
    pub nd: Vec<Node>,
    /// The sets: item `i` owns `set[base[i]..base[i+1]]`, node indices; the first
    /// `size[i].live` are alive.
    pub set: Vec<u32>,
    /// Per item: live count and trail stamp.
    pub size: Vec<Size>,
    /// The active items, as two sparse sets: primary items in `act[..n1]`, the first
    /// `ap` of them active; secondary items in `act[n1..]`, the first `asec` active.
    pub act: Vec<u32>,
    /// Where each item sits in `act`.
    pub pos: Vec<u32>,
    /// Active primary items.
    pub ap: u32,
    /// Active secondary items.
    pub asec: u32,
}

/// The sparse-set structure of a problem with its trail.
#[derive(Clone, Debug)]
pub(crate) struct Cells {
    /// The mutable part.
    pub st: State,
    /// The color of each node (0: none; else color id + 1). Empty without colors.
    pub clr: Vec<u32>,
    /// Item `i`'s set starts at `base[i]`; `base[n]` is the end.
    pub base: Vec<u32>,
    /// Number of primary items; they are numbered `0..n1`, secondary ones `n1..n`.
    pub n1: u32,
    /// Internal item number -> the caller's item id.
    pub item_id: Vec<ItemId>,
    /// Option `k`'s nodes are `option_start[k]..option_start[k+1]-1` (the last is its
    /// spacer).
    pub option_start: Vec<u32>,
    /// Saved sizes: (item, live count before the change).
    pub trail: Vec<(u32, u32)>,
    /// The current save point.
    pub stamp: u32,
    /// A copy of the state before any search, when the problem is small enough that
    /// copying it back is cheap (see [`Cells::reset`]).
    pristine: Option<Box<State>>,
    /// Primary items that drop to one live option during a commit: forced moves the
    /// next choice takes without scanning.
    pub forced_moves: Vec<u32>,
    /// Secondary items at positions below this in `act` have their sets kept up to
    /// date by deletions: the active ones and those the current commit takes out (so
    /// that an option is never hidden twice through two of its items). It is `n1 +
    /// asec` as it was when the current commit began.
    sec_limit: u32,
}

/// Largest number of nodes of which a pristine copy is kept (8 + 4 bytes a node).
const PRISTINE_MAX_NODES: usize = 1 << 20;

/// Why a problem does not fit in the engine's 31-bit indices.
#[derive(Debug)]
pub(crate) struct TooLarge;

impl Cells {
    /// Builds the structure of a valid problem (see [`Problem::validate`]) without
    /// multiplicities. Primary items come first internally, in their order, then the
    /// secondary ones, so that ties in the item choice go to the first declared.
    pub fn new(problem: &Problem) -> Result<Cells, TooLarge> {
        let n = problem.items.len();
        let nodes = 1 + problem.entry_count() + problem.options.len();
        if nodes >= i32::MAX as usize || n >= i32::MAX as usize {
            return Err(TooLarge);
        }
        let mut item_id: Vec<ItemId> = (0..n as u32)
            .map(ItemId)
            .filter(|&i| problem.item(i).kind.is_primary())
            .collect();
        let n1 = item_id.len() as u32;
        item_id.extend(
            (0..n as u32)
                .map(ItemId)
                .filter(|&i| !problem.item(i).kind.is_primary()),
        );
        let mut internal = vec![0u32; n];
        for (k, id) in item_id.iter().enumerate() {
            internal[id.index()] = k as u32;
        }
        // Sets are laid out item after item, each as long as the item's options.
        let mut len = vec![0u32; n];
        for opt in &problem.options {
            for e in &opt.entries {
                len[internal[e.item.index()] as usize] += 1;
            }
        }
        let mut base = Vec::with_capacity(n + 1);
        let mut total = 0u32;
        for &l in &len {
            base.push(total);
            total += l;
        }
        base.push(total);
        let colored = problem.has_colors();
        let mut nd = Vec::with_capacity(nodes);
        let mut clr = Vec::new();
        let mut set = vec![0u32; total as usize];
        let mut fill = base.clone();
        nd.push(Node { itm: 0, loc: 0 });
        if colored {
            clr.reserve(nodes);
            clr.push(0);
        }
        let mut option_start = Vec::with_capacity(problem.options.len() + 1);
        for opt in &problem.options {
            option_start.push(nd.len() as u32);
            for e in &opt.entries {
                let i = internal[e.item.index()];
                let x = nd.len() as u32;
                let at = fill[i as usize];
                fill[i as usize] += 1;
                set[at as usize] = x;
                nd.push(Node {
                    itm: i as i32,
                    loc: at,
                });
                if colored {
                    clr.push(e.color.map_or(0, |c| c.0 + 1));
                }
            }
            nd.push(Node {
                itm: -(opt.entries.len() as i32),
                loc: 0,
            });
            if colored {
                clr.push(0);
            }
        }
        option_start.push(nd.len() as u32);
        let st = State {
            size: len.iter().map(|&live| Size { live, stamp: 0 }).collect(),
            act: (0..n as u32).collect(),
            pos: (0..n as u32).collect(),
            ap: n1,
            asec: n as u32 - n1,
            nd,
            set,
        };
        let pristine = (st.nd.len() <= PRISTINE_MAX_NODES).then(|| Box::new(st.clone()));
        Ok(Cells {
            st,
            clr,
            base,
            n1,
            item_id,
            option_start,
            trail: Vec::new(),
            stamp: 1,
            pristine,
            forced_moves: Vec::new(),
            sec_limit: n as u32,
        })
    }

    /// Number of options.
    pub fn option_count(&self) -> usize {
        self.option_start.len() - 1
    }

    /// The nodes of option `o`, spacer excluded.
    pub fn option_nodes(&self, o: OptionId) -> std::ops::Range<u32> {
        self.option_start[o.index()]..self.option_start[o.index() + 1] - 1
    }

    /// The option that node `x` belongs to.
    pub fn option_of(&self, x: u32) -> OptionId {
        OptionId(self.option_start.partition_point(|&s| s <= x) as u32 - 1)
    }

    /// Whether item `i` is active (for a primary item: not covered; for a secondary
    /// one: neither covered nor purified).
    #[inline]
    pub fn is_active(&self, i: u32) -> bool {
        let p = self.st.pos[i as usize];
        if i < self.n1 {
            p < self.st.ap
        } else {
            p < self.n1 + self.st.asec
        }
    }

    /// Opens a save point: later size changes are recorded until [`Cells::restore`].
    #[inline]
    pub fn save(&mut self) -> Mark {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Stamps wrapped: forget them all. Recording an item twice is harmless
            // (the older size is written back last); missing one is not.
            for s in &mut self.st.size {
                s.stamp = 0;
            }
            self.stamp = 1;
        }
        Mark {
            trail: self.trail.len() as u32,
            ap: self.st.ap,
            asec: self.st.asec,
        }
    }

    /// Goes back to save point `m`: every size recorded since, and the active sets.
    #[inline]
    pub fn restore(&mut self, m: Mark) {
        let size = &mut self.st.size;
        for &(i, live) in self.trail[m.trail as usize..].iter().rev() {
            size[i as usize].live = live;
        }
        self.trail.truncate(m.trail as usize);
        self.st.ap = m.ap;
        self.st.asec = m.asec;
        // A new save point, so that the stamps of the restored items do not match.
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            for s in &mut self.st.size {
                s.stamp = 0;
            }
            self.stamp = 1;
        }
    }

    /// Puts the structure back as it was built: after [`Cells::restore`] to the
    /// first save point of a search, every set holds its options again, but in an
    /// order the search permuted. Small problems copy the pristine order back, so
    /// that every search explores the same tree; large ones keep the permutation (the
    /// same solutions, possibly in another order), which saves a copy of the matrix.
    pub fn reset(&mut self) {
        if let Some(p) = &self.pristine {
            self.st.clone_from(p);
        }
        self.stamp = 1;
        for s in &mut self.st.size {
            s.stamp = 0;
        }
    }

    /// Removes item `i` from its active set.
    #[inline]
    pub fn swap_out(&mut self, i: u32, updates: &mut u64) {
        let st = &mut self.st;
        let p = st.pos[i as usize];
        let last = if i < self.n1 {
            st.ap -= 1;
            st.ap
        } else {
            st.asec -= 1;
            self.n1 + st.asec
        };
        let j = st.act[last as usize];
        st.act[last as usize] = i;
        st.act[p as usize] = j;
        st.pos[j as usize] = p;
        st.pos[i as usize] = last;
        *updates += 1;
    }

    /// Deletes node `x` from the set of its item `u`, recording the old size.
    /// Returns the new size.
    #[inline]
    fn delete(&mut self, x: u32, u: u32, updates: &mut u64) -> u32 {
        let stamp = self.stamp;
        let sz = &mut self.st.size[u as usize];
        if sz.stamp != stamp {
            sz.stamp = stamp;
            self.trail.push((u, sz.live));
        }
        sz.live -= 1;
        let s = sz.live;
        let last_at = self.base[u as usize] + s;
        let at = self.st.nd[x as usize].loc;
        let y = self.st.set[last_at as usize];
        self.st.set[last_at as usize] = x;
        self.st.set[at as usize] = y;
        self.st.nd[x as usize].loc = last_at;
        self.st.nd[y as usize].loc = at;
        *updates += 1;
        s
    }

    /// Deletes the option of node `t` from the sets of its items other than `t`'s.
    /// With `check`, a primary item still active that is left with no option makes
    /// this return `false` at once (the branch is dead), and one left with a single
    /// option is noted as a forced move.
    #[inline]
    fn hide_option(&mut self, t: u32, check: bool, updates: &mut u64) -> bool {
        let mut q = t + 1;
        loop {
            let u = self.st.nd[q as usize].itm;
            if u < 0 {
                q = (q as i32 + u) as u32;
                continue;
            }
            if q == t {
                return true;
            }
            let u = u as u32;
            if u < self.n1 {
                let left = self.delete(q, u, updates);
                if check && left <= 1 && self.st.pos[u as usize] < self.st.ap {
                    if left == 0 {
                        return false;
                    }
                    self.forced_moves.push(u);
                }
            } else if self.st.pos[u as usize] < self.sec_limit {
                self.delete(q, u, updates);
            }
            q += 1;
        }
    }

    /// Deletes from the other sets every option of item `c` (all of them, or with a
    /// color only those of another color: Algorithm C's purification). See
    /// [`Cells::hide_option`] for `check`.
    #[inline]
    pub fn hide(&mut self, c: u32, color: u32, check: bool, updates: &mut u64) -> bool {
        let from = self.base[c as usize];
        let end = from + self.st.size[c as usize].live;
        for r in from..end {
            let t = self.st.set[r as usize];
            if color != 0 && self.clr[t as usize] == color {
                continue;
            }
            if !self.hide_option(t, check, updates) {
                return false;
            }
        }
        true
    }

    /// Covers the item chosen at a level: takes it out of the active items and hides
    /// all its options, whose nodes in its own set stay as the candidates to try.
    #[inline]
    pub fn cover_chosen(&mut self, i: u32, updates: &mut u64) {
        self.sec_limit = self.n1 + self.st.asec;
        self.swap_out(i, updates);
        self.hide(i, 0, false, updates);
    }

    /// Commits the option of node `x`, already hidden from the other sets (by
    /// [`Cells::cover_chosen`] or [`Cells::unlink_forced`]): its other items leave
    /// the active sets, then every option that shares a primary or uncolored
    /// secondary item with it is hidden, and every option that gives one of its
    /// colored items another color. Returns `false` when some other primary item is
    /// left with no option (only with `check`); the caller restores either way.
    pub fn commit(&mut self, x: u32, check: bool, updates: &mut u64) -> bool {
        // First every item leaves, so that the hides below do not count them as
        // starving and do not delete from the set of a secondary item purified before.
        let oasec = self.n1 + self.st.asec;
        self.sec_limit = oasec;
        let mut q = x + 1;
        loop {
            let u = self.st.nd[q as usize].itm;
            if u < 0 {
                q = (q as i32 + u) as u32;
                continue;
            }
            if q == x {
                break;
            }
            if self.is_active(u as u32) {
                self.swap_out(u as u32, updates);
            }
            q += 1;
        }
        let mut q = x + 1;
        loop {
            let u = self.st.nd[q as usize].itm;
            if u < 0 {
                q = (q as i32 + u) as u32;
                continue;
            }
            if q == x {
                return true;
            }
            let u = u as u32;
            let hidden = if u < self.n1 {
                self.hide(u, 0, check, updates)
            } else if self.st.pos[u as usize] < oasec {
                let color = self.clr.get(q as usize).copied().unwrap_or(0);
                self.hide(u, color, check, updates)
            } else {
                // Purified by an earlier option of the same color.
                true
            };
            if !hidden {
                return false;
            }
            q += 1;
        }
    }

    /// Commits forced option `o`, which is alive: deletes its own nodes from the sets of
    /// its active items, takes those items out, and hides what it excludes, as
    /// [`Cells::commit`] does for a chosen option. No check: a forced option that
    /// leaves a primary item without options makes the search find nothing.
    pub fn commit_forced(&mut self, o: OptionId, updates: &mut u64) {
        let nodes = self.option_nodes(o);
        let oasec = self.n1 + self.st.asec;
        self.sec_limit = oasec;
        for x in nodes.clone() {
            let u = self.item_of(x);
            if self.is_active(u) {
                self.delete(x, u, updates);
                self.swap_out(u, updates);
            }
        }
        for x in nodes {
            let u = self.item_of(x);
            if u < self.n1 {
                self.hide(u, 0, false, updates);
            } else if self.st.pos[u as usize] < oasec {
                let color = self.clr.get(x as usize).copied().unwrap_or(0);
                self.hide(u, color, false, updates);
            }
        }
    }

    /// A hash of what a search may change, blind to the order inside each set and
    /// each active set (which a search of a large problem may leave permuted).
    pub fn fingerprint(&self, h: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        let st = &self.st;
        (st.ap, st.asec, self.trail.len()).hash(h);
        for (i, s) in st.size.iter().enumerate() {
            s.live.hash(h);
            let seg = &st.set[self.base[i] as usize..self.base[i + 1] as usize];
            let mut live = seg[..s.live as usize].to_vec();
            live.sort_unstable();
            live.hash(h);
            // Every node knows where it is.
            for (k, &x) in seg.iter().enumerate() {
                (st.nd[x as usize].loc == self.base[i] + k as u32).hash(h);
            }
        }
        let n1 = self.n1 as usize;
        let mut prim = st.act[..st.ap as usize].to_vec();
        prim.sort_unstable();
        let mut sec = st.act[n1..n1 + st.asec as usize].to_vec();
        sec.sort_unstable();
        (prim, sec).hash(h);
    }

    /// The item of node `x`.
    #[inline]
    pub fn item_of(&self, x: u32) -> u32 {
        self.st.nd[x as usize].itm as u32
    }

    /// The live options of item `i`, as a range of [`Cells::set`].
    #[inline]
    pub fn live(&self, i: u32) -> std::ops::Range<u32> {
        let b = self.base[i as usize];
        b..b + self.st.size[i as usize].live
    }
}

/// A save point: where the trail stood and how many items were active.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    trail: u32,
    ap: u32,
    asec: u32,
}
