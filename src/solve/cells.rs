//! Exact cover with colors on sparse sets: Knuth's "dancing cells" (TAOCP 7.2.2.3, his
//! program SSXCC, after Christine Solnon's sparse-set formulation).
//!
//! Where dancing links keep every item's options in a doubly linked list and undo by
//! relinking, dancing cells keep them in a *sparse set*: a segment of one array whose
//! first `size` entries are the options still alive, with every node knowing its place
//! (`loc`) in that segment. Deleting an option from an item swaps it just past the live
//! part and shrinks `size`; nothing else moves, so undoing is writing the old sizes
//! back. A node is touched once to delete it and never to restore it.
//!
//! [`Cells`] is the structure and its moves (cover, commit, hide, save, restore);
//! [`search`] is the loop. The engine solves plain exact cover and Algorithm C's
//! colors (secondary items that options may share when they agree on a color).
//! Multiplicities stay with Algorithm M ([`super::mcc`]).
//!
//! # Sizes carry the state of their item
//!
//! `size[i]` is the number of live options of item `i`, plus a flag: [`CURRENT`] while
//! the commit under way takes the item out, [`EARLIER`] once an earlier commit (or the
//! choice of the item) did. So the state of the search is the `size` array alone,
//! besides the order inside the sets:
//!
//! - the item choice scans the sizes of the primary items as one dense array, and the
//!   first least is the first declared active item with the fewest options (covered
//!   items are too large to be least);
//! - deleting an option from an item is allowed while its size is below [`EARLIER`],
//!   one comparison on a value the deletion reads anyway. An alive option never holds
//!   a primary item covered earlier (it would have been hidden then), so the test only
//!   ever fails for a secondary item purified earlier, whose same-colored options
//!   stay alive; items the current commit takes out keep their sets up to date, so that
//!   an option is never hidden twice through two of its items;
//! - undoing is restoring sizes: a *save point* either copies the whole array (small
//!   problems: a few hundred integers, streamed) or keeps a trail of the sizes changed
//!   since, one entry per item (large problems, where a copy per level would cost
//!   memory quadratic in the items). The choice is made once per problem.
//!
//! # Invariants
//!
//! - Between searches every set is whole and no item is flagged. The order inside a set
//!   may differ from the order of construction after a search of a large problem (see
//!   [`Cells::reset`]).
//! - An alive option is in the live part of the set of each of its items that is not
//!   flagged [`EARLIER`].

use super::structure::{ItemOrder, Mark, Structure};
use crate::problem::{ColorId, OptionId, Problem};

/// Added to the size of an item the current commit takes out.
pub(crate) const CURRENT: i32 = 1 << 29;
/// Added to the size of an item covered or purified before the current commit.
pub(crate) const EARLIER: i32 = 1 << 30;
/// The live count inside a flagged size.
pub(crate) const LIVE: i32 = CURRENT - 1;

/// Problems with at most this many items save every size at every save point; larger
/// ones keep a trail of changed sizes (see the module documentation).
pub(crate) const COPY_MAX_ITEMS: usize = 2048;

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

/// The sparse-set structure of a problem, with its save points.
#[derive(Clone, Debug)]
pub(crate) struct Cells {
    /// The nodes and the sets.
    sets: Sets,
    /// Per item: live count plus flags.
    size: Vec<i32>,
    /// How save points are kept.
    undo: Undo,
    /// Primary items that drop to one live option during a commit: forced moves the
    /// next choice takes without scanning.
    pub forced_moves: Vec<u32>,
}

/// Save points.
#[derive(Clone, Debug)]
enum Undo {
    /// Every save point is a copy of the whole size array, end to end in one vector.
    Copy(Vec<i32>),
    /// Every save point is a position in a trail of (item, size before the change);
    /// `stamp[i]` is the save point whose trail already holds item `i`'s size.
    Trail {
        trail: Vec<(u32, i32)>,
        stamp: Vec<u32>,
        now: u32,
    },
}

/// Largest number of nodes of which a pristine copy is kept (8 + 4 bytes a node).
pub(crate) const PRISTINE_MAX_NODES: usize = 1 << 20;

/// Why a problem does not fit in the engine's indices.
#[derive(Debug)]
pub(crate) struct TooLarge;

/// A walk round the option of node `t`, from the node after it back to it (`t`
/// excluded): each item and its node.
macro_rules! round_option {
    ($nd:expr, $t:expr, |$q:ident, $u:ident| $body:block) => {{
        let t: u32 = $t;
        let mut $q = t + 1;
        loop {
            let it = $nd[$q as usize].itm;
            if it < 0 {
                $q = ($q as i32 + it) as u32;
                continue;
            }
            if $q == t {
                break;
            }
            let $u = it as u32;
            $body
            $q += 1;
        }
    }};
}

pub(crate) use round_option;

/// The nodes and the sets of a problem: what dancing cells and their multiplicity
/// variant ([`super::multi`]) share, all but the sizes (and the needs) that make their
/// states.
#[derive(Clone, Debug)]
pub(crate) struct Sets {
    /// The nodes: each option's entries, then a spacer. Node 0 is a spacer too.
    pub nd: Vec<Node>,
    /// The sets: item `i` owns `set[base[i]..base[i+1]]`, node indices; the first
    /// `size[i] & LIVE` are alive.
    pub set: Vec<u32>,
    /// The color of each node (0: none; else color id + 1). Empty without colors.
    pub clr: Vec<u32>,
    /// Item `i`'s set starts at `base[i]`; `base[n]` is the end.
    pub base: Vec<u32>,
    /// The internal numbering of the items: primary ones `0..n1`, secondary `n1..n`.
    pub order: ItemOrder,
    /// Option `k`'s nodes are `option_start[k]..option_start[k+1]-1` (the last is its
    /// spacer).
    pub option_start: Vec<u32>,
    /// A copy of the nodes and sets as built, when the problem is small enough that
    /// copying them back after a search is cheap (see [`Sets::reset`]).
    pristine: Option<Box<(Vec<Node>, Vec<u32>)>>,
}

impl Sets {
    /// Lays out the nodes and the sets of a valid problem (see [`Problem::validate`]):
    /// primary items first internally, in their order, then the secondary ones, so that
    /// ties in the item choice go to the first declared. Returns them with each item's
    /// number of options.
    pub fn lay_out(problem: &Problem) -> Result<(Sets, Vec<i32>), TooLarge> {
        let n = problem.items.len();
        let nodes = 1 + problem.entry_count() + problem.options.len();
        if nodes >= i32::MAX as usize || problem.options.len() >= LIVE as usize {
            return Err(TooLarge);
        }
        let order = ItemOrder::new(problem);
        let internal = &order.internal;
        // Sets are laid out item after item, each as long as the item's options.
        let mut len = vec![0i32; n];
        for opt in &problem.options {
            for e in opt.entries {
                len[internal[e.item.index()] as usize] += 1;
            }
        }
        let mut base = Vec::with_capacity(n + 1);
        let mut total = 0u32;
        for &l in &len {
            base.push(total);
            total += l as u32;
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
            for e in opt.entries {
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
                    clr.push(e.color.map_or(0, ColorId::number));
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
        Ok((
            Sets {
                nd,
                set,
                clr,
                base,
                order,
                option_start,
                pristine: None,
            },
            len,
        ))
    }

    /// Keeps a copy of the sets as they are now, when small enough (see
    /// [`Sets::reset`]).
    pub fn keep_pristine(&mut self) {
        if self.nd.len() <= PRISTINE_MAX_NODES {
            self.pristine = Some(Box::new((self.nd.clone(), self.set.clone())));
        }
    }

    /// The nodes of option `o`, spacer excluded.
    #[inline]
    pub fn option_nodes(&self, o: OptionId) -> std::ops::Range<u32> {
        self.option_start[o.index()]..self.option_start[o.index() + 1] - 1
    }

    /// The option that node `x` belongs to.
    pub fn option_of(&self, x: u32) -> OptionId {
        OptionId(self.option_start.partition_point(|&s| s <= x) as u32 - 1)
    }

    /// The item of node `x`.
    #[inline]
    pub fn item_of(&self, x: u32) -> u32 {
        self.nd[x as usize].itm as u32
    }

    /// The color of node `x` (0: none).
    #[inline]
    pub fn color(&self, x: u32) -> u32 {
        self.clr.get(x as usize).copied().unwrap_or(0)
    }

    /// The items of option `o` with their colors.
    pub fn entries(&self, o: OptionId) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.option_nodes(o)
            .map(|x| (self.item_of(x), self.color(x)))
    }

    /// Puts the order of the sets back as built, when a pristine copy is kept, so that
    /// every search of a small problem explores the same tree; a large problem keeps
    /// the order its last search left (the same solutions, perhaps in another order),
    /// which saves a second copy of the matrix. The sizes are the caller's: it restores
    /// the save point it opened before the search.
    pub fn reset(&mut self) {
        if let Some(p) = &self.pristine {
            self.nd.copy_from_slice(&p.0);
            self.set.copy_from_slice(&p.1);
        }
    }

    /// Drops the pristine copy, so that searches leave the order of the sets as they
    /// find it, as those of large problems do (for tests of that path).
    pub fn forget_pristine(&mut self) {
        self.pristine = None;
    }

    /// A hash of the sets whose live counts are `size`, blind to the order inside each
    /// set (which a search of a large problem may leave permuted).
    pub fn fingerprint(&self, size: &[i32], h: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        for (i, &s) in size.iter().enumerate() {
            let seg = &self.set[self.base[i] as usize..self.base[i + 1] as usize];
            let mut live = seg[..(s & LIVE) as usize].to_vec();
            live.sort_unstable();
            live.hash(h);
            // Every node knows where it is.
            for (k, &x) in seg.iter().enumerate() {
                (self.nd[x as usize].loc == self.base[i] + k as u32).hash(h);
            }
        }
    }
}

impl Cells {
    /// Builds the structure of a valid problem (see [`Problem::validate`]) without
    /// multiplicities. Primary items come first internally, in their order, then the
    /// secondary ones, so that ties in the item choice go to the first declared.
    /// Save points are copies for small problems and a trail for large ones, or a trail
    /// whatever the size with `trail`.
    pub fn new(problem: &Problem, trail: bool) -> Result<Cells, TooLarge> {
        let (mut sets, len) = Sets::lay_out(problem)?;
        let n = len.len();
        let undo = if n <= COPY_MAX_ITEMS && !trail {
            Undo::Copy(Vec::new())
        } else {
            Undo::Trail {
                trail: Vec::new(),
                stamp: vec![0; n],
                now: 0,
            }
        };
        sets.keep_pristine();
        Ok(Cells {
            sets,
            size: len,
            undo,
            forced_moves: Vec::new(),
        })
    }

    /// The nodes of option `o`, spacer excluded.
    pub fn option_nodes(&self, o: OptionId) -> std::ops::Range<u32> {
        self.sets.option_nodes(o)
    }

    /// The item of node `x`.
    #[inline]
    pub fn item_of(&self, x: u32) -> u32 {
        self.sets.item_of(x)
    }

    /// The live options of item `i`, as a range of [`Sets::set`].
    #[inline]
    pub fn live(&self, i: u32) -> std::ops::Range<u32> {
        let b = self.sets.base[i as usize];
        b..b + (self.size[i as usize] & LIVE) as u32
    }

    /// Records item `i`'s size at the current save point, before it changes.
    #[inline(always)]
    fn record<const TRAIL: bool>(&mut self, i: u32) {
        if TRAIL && let Undo::Trail { trail, stamp, now } = &mut self.undo {
            note(trail, stamp, *now, i, self.size[i as usize]);
        }
    }

    /// Deletes from the other sets every option of item `c` (all of them, or with a
    /// color only those of another color: Algorithm C's purification). With `check`, a
    /// primary item that is left with no option makes this return `false` at once
    /// (the branch is dead), and one left with a single option is noted as a forced
    /// move; items the current commit takes out are not checked (their flag makes
    /// them large).
    ///
    /// This loop is nearly all of the search's time. It works on local slices, not on
    /// `self`: a store into a set through `self` would oblige the compiler to reload
    /// every array's address from `self` after it (measured on pentominoes: 68% of the
    /// time went to a delete that did so), and it counts updates in a register.
    #[inline]
    pub fn hide<const TRAIL: bool>(
        &mut self,
        c: u32,
        color: u32,
        check: bool,
        updates: &mut u64,
    ) -> bool {
        let nd = &mut self.sets.nd[..];
        let set = &mut self.sets.set[..];
        let size = &mut self.size[..];
        let base = &self.sets.base[..];
        let clr = &self.sets.clr[..];
        let forced_moves = &mut self.forced_moves;
        let mut undo = match &mut self.undo {
            Undo::Trail { trail, stamp, now } if TRAIL => Some((trail, &mut stamp[..], *now)),
            _ => None,
        };
        let n1 = self.sets.order.n1;
        let mut count = 0u64;
        let from = base[c as usize];
        let end = from + (size[c as usize] & LIVE) as u32;
        for r in from..end {
            let t = set[r as usize];
            if color != 0 && clr[t as usize] == color {
                continue;
            }
            round_option!(nd, t, |q, u| {
                let s = size[u as usize];
                if s < EARLIER {
                    if TRAIL && let Some((trail, stamp, now)) = &mut undo {
                        note(trail, stamp, *now, u, s);
                    }
                    let s = delete(nd, set, size, base, q, u);
                    count += 1;
                    if check && s <= 1 && u < n1 {
                        if s == 0 {
                            *updates += count;
                            return false;
                        }
                        forced_moves.push(u);
                    }
                }
            });
        }
        *updates += count;
        true
    }

    /// Commits forced option `o`, which is alive (see [`Structure::commit_forced`]).
    fn commit_forced_one<const TRAIL: bool>(&mut self, o: OptionId, updates: &mut u64) {
        let nodes = self.option_nodes(o);
        for x in nodes.clone() {
            let u = self.item_of(x);
            if self.size[u as usize] < CURRENT {
                self.record::<TRAIL>(u);
                delete(
                    &mut self.sets.nd,
                    &mut self.sets.set,
                    &mut self.size,
                    &self.sets.base,
                    x,
                    u,
                );
                self.size[u as usize] += CURRENT;
            }
        }
        for x in nodes.clone() {
            let u = self.item_of(x);
            if self.size[u as usize] < EARLIER {
                let color = self.sets.color(x);
                self.hide::<TRAIL>(u, color, false, updates);
            }
        }
        for x in nodes {
            let s = &mut self.size[self.sets.nd[x as usize].itm as usize];
            if *s < EARLIER {
                *s += EARLIER - CURRENT;
            }
        }
    }
}

/// Deletes node `x` from the set of its item `u`, whose size the caller has recorded:
/// swaps it just past the live part and shrinks the size. Returns the new (flagged)
/// size. A free function on slices, so that the loop of [`Cells::hide`] keeps the
/// arrays' addresses in registers (see there).
#[inline(always)]
pub(crate) fn delete(
    nd: &mut [Node],
    set: &mut [u32],
    size: &mut [i32],
    base: &[u32],
    x: u32,
    u: u32,
) -> i32 {
    let s = size[u as usize] - 1;
    size[u as usize] = s;
    let last_at = base[u as usize] + (s & LIVE) as u32;
    let at = nd[x as usize].loc;
    let y = set[last_at as usize];
    set[last_at as usize] = x;
    set[at as usize] = y;
    nd[x as usize].loc = last_at;
    nd[y as usize].loc = at;
    s
}

/// Records `i`'s size `s` on the trail unless the current save point has it.
#[inline(always)]
fn note(trail: &mut Vec<(u32, i32)>, stamp: &mut [u32], now: u32, i: u32, s: i32) {
    if stamp[i as usize] != now {
        stamp[i as usize] = now;
        trail.push((i, s));
    }
}

/// Moves to a new save point. When the stamps wrap round, they are all forgotten:
/// recording an item twice is harmless (the older size is written back last), missing
/// one is not.
pub(crate) fn next_stamp(stamp: &mut [u32], now: &mut u32) {
    *now = now.wrapping_add(1);
    if *now == 0 {
        stamp.fill(0);
        *now = 1;
    }
}

impl Structure for Cells {
    /// Whether save points keep a trail (large problems) rather than copies.
    fn trails(&self) -> bool {
        matches!(self.undo, Undo::Trail { .. })
    }

    /// Copies the sizes, or opens a new stretch of the trail.
    #[inline]
    fn save<const TRAIL: bool>(&mut self) -> Mark {
        match &mut self.undo {
            Undo::Copy(saved) if !TRAIL => {
                let at = saved.len() as u32;
                saved.extend_from_slice(&self.size);
                Mark(at)
            }
            Undo::Trail { trail, stamp, now } if TRAIL => {
                next_stamp(stamp, now);
                Mark(trail.len() as u32)
            }
            _ => unreachable!("save point of the wrong kind"),
        }
    }

    /// Writes the saved sizes back.
    #[inline]
    fn restore<const TRAIL: bool>(&mut self, m: Mark) {
        // Forced moves noted since the save point are stale now.
        self.forced_moves.clear();
        match &mut self.undo {
            Undo::Copy(saved) if !TRAIL => {
                let n = self.size.len();
                self.size
                    .copy_from_slice(&saved[m.0 as usize..m.0 as usize + n]);
            }
            Undo::Trail { trail, stamp, now } if TRAIL => {
                for &(i, s) in trail[m.0 as usize..].iter().rev() {
                    self.size[i as usize] = s;
                }
                trail.truncate(m.0 as usize);
                // A new save point, so that the stamps of restored items do not match.
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

    /// The first declared active primary item with the fewest live options, unless a
    /// forced move (an item left with a single option) was noted.
    #[inline]
    fn choose(&mut self) -> Option<u32> {
        while let Some(u) = self.forced_moves.pop() {
            // Still active (unflagged) with at most one option.
            if self.size[u as usize] <= 1 {
                return Some(u);
            }
        }
        let sizes = &self.size[..self.sets.order.n1 as usize];
        if sizes.is_empty() {
            return None;
        }
        // The first least size: fewest options, then the first declared; a flagged
        // (covered) item is never least unless all are.
        let i = crate::solve::search::first_least(sizes) as u32;
        (sizes[i as usize] < CURRENT).then_some(i)
    }

    /// Flags the item and hides all its options, whose nodes in its own set stay as
    /// the candidates to try: the candidates are the live part of its set, wherever
    /// `at` says.
    #[inline]
    fn cover_chosen<const TRAIL: bool>(
        &mut self,
        i: u32,
        _at: u32,
        updates: &mut u64,
    ) -> std::ops::Range<u32> {
        self.record::<TRAIL>(i);
        self.size[i as usize] += EARLIER;
        *updates += 1;
        self.hide::<TRAIL>(i, 0, false, updates);
        self.live(i)
    }

    /// Commits the option of node `x`, already hidden from the other sets (by
    /// [`Structure::cover_chosen`]): its other items are taken out, then every option that
    /// shares a primary or uncolored secondary item with it is hidden, and every option
    /// that gives one of its colored items another color. Returns `false` when some
    /// other primary item is left with no option (only with `check`); the caller
    /// restores either way.
    #[inline]
    fn commit<const TRAIL: bool>(&mut self, x: u32, check: bool, updates: &mut u64) -> bool {
        // First every item is flagged, so that the hides below neither count it as
        // starving nor skip its set.
        round_option!(self.sets.nd, x, |q, u| {
            if self.size[u as usize] < CURRENT {
                self.record::<TRAIL>(u);
                self.size[u as usize] += CURRENT;
                *updates += 1;
            }
        });
        let mut alive = true;
        round_option!(self.sets.nd, x, |q, u| {
            if self.size[u as usize] < EARLIER {
                let color = if u < self.sets.order.n1 {
                    0
                } else {
                    self.sets.color(q)
                };
                if !self.hide::<TRAIL>(u, color, check, updates) {
                    alive = false;
                    break;
                }
            }
        });
        if alive {
            round_option!(self.sets.nd, x, |q, u| {
                let s = &mut self.size[u as usize];
                if *s < EARLIER {
                    *s += EARLIER - CURRENT;
                }
            });
        }
        alive
    }

    /// Commits each forced option in turn, as [`Cells::commit`] does for a chosen
    /// option: deletes its own nodes from the sets of its items, takes those items out,
    /// and hides what it excludes. No check: a forced option that leaves a primary item
    /// without options makes the search find nothing.
    fn commit_forced<const TRAIL: bool>(&mut self, forced: &[OptionId], updates: &mut u64) {
        for &o in forced {
            self.commit_forced_one::<TRAIL>(o, updates);
        }
    }

    /// The node at place `r` of the sets.
    #[inline]
    fn candidate(&self, r: u32) -> u32 {
        self.sets.set[r as usize]
    }

    /// The option that node `x` belongs to.
    fn option_of(&self, x: u32) -> OptionId {
        self.sets.option_of(x)
    }

    fn entries(&self, o: OptionId) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.sets.entries(o)
    }

    fn order(&self) -> &ItemOrder {
        &self.sets.order
    }

    /// Number of options.
    fn option_count(&self) -> usize {
        self.sets.option_start.len() - 1
    }

    fn forget_forced_moves(&mut self) {
        self.forced_moves.clear();
    }

    /// See [`Sets::reset`].
    fn reset(&mut self) {
        self.sets.reset();
    }

    fn forget_pristine(&mut self) {
        self.sets.forget_pristine();
    }

    /// A hash of what a search may change, blind to the order inside each set (which a
    /// search of a large problem may leave permuted).
    fn fingerprint(&self, h: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        self.size.hash(h);
        self.sets.fingerprint(&self.size, h);
        match &self.undo {
            Undo::Copy(saved) => saved.len().hash(h),
            Undo::Trail { trail, .. } => trail.len().hash(h),
        }
    }
}
