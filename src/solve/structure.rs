//! The moves a search makes on the state of a problem, whatever that state is made of.
//!
//! The search loop of [`super::engine`] (levels, save points, forced options, giving
//! work away, probes) is written once against [`Structure`]; four structures implement
//! it, compiled separately into the loop so that none pays for another:
//!
//! - [`super::cells::Cells`], Knuth's dancing cells: a sparse set per item, whose
//!   work is proportional to the options still alive. Any size.
//! - [`super::bits::Bits`]: a bitset of the live options and a count per primary item,
//!   whose work per move is a few word operations per item of the option plus one
//!   decrement per item of each option it kills. Small problems only (see there).
//! - [`super::multi::Multi`]: dancing cells with multiplicities (Knuth's SSMCC), whose
//!   levels at a multiplicity item *tweak* (see [`Structure::tweaking`]).
//! - [`super::tally::Tally`]: multiplicities on a few words of bits, with no count kept:
//!   an item's live options are counted when the item is looked at. The smallest
//!   problems only (see there).
//!
//! Without multiplicities, dancing cells and bitsets make the same item choice (the
//! first declared active primary item with the fewest live options) from the same
//! counts, so their trees differ only where dancing cells take a forced move before
//! scanning; with them, the three structures that take them make SSMCC's choice.

use crate::problem::{ItemId, OptionId, Problem};

/// The engines' numbering of items: primary items first, then secondary ones, each kind
/// in declaration order, so that the item choice breaks ties by declaration order.
#[derive(Clone, Debug)]
pub(crate) struct ItemOrder {
    /// Internal number -> the caller's item id.
    pub item_id: Vec<ItemId>,
    /// Number of primary items; internal items `0..n1` are primary.
    pub n1: u32,
    /// The caller's item id (its index) -> internal number.
    pub internal: Vec<u32>,
}

impl ItemOrder {
    /// The numbering of `problem`'s items.
    pub fn new(problem: &Problem) -> ItemOrder {
        let (item_id, n1) = problem.primary_first();
        let mut internal = vec![0u32; item_id.len()];
        for (k, id) in item_id.iter().enumerate() {
            internal[id.index()] = k as u32;
        }
        ItemOrder {
            item_id,
            n1,
            internal,
        }
    }
}

/// The candidate that takes no option: the child of a level that closes its item,
/// which may take no more options (multiplicities only, see [`super::multi`]).
pub(crate) const NONE: u32 = u32::MAX;

/// What an active primary item with multiplicities is left with when one of its
/// options dies: `live` options against the `need` it still has (see
/// [`super::multi`]). The rule of both structures with bounds, stated once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Left {
    /// Fewer options than it needs: the branch is dead.
    Short,
    /// No option, and it needs none: the item is closed.
    Closed,
    /// Exactly as many as it needs: every one must be taken (a forced move).
    Forced,
    /// More than it needs.
    Room,
}

/// [`Left`] for an item with `live` options that still needs `need` (negative: may
/// take fewer than its room).
#[inline(always)]
pub(crate) fn left<T: Copy + Ord + Default>(live: T, need: T) -> Left {
    if live < need {
        Left::Short
    } else if live == T::default() {
        Left::Closed
    } else if live == need {
        Left::Forced
    } else {
        Left::Room
    }
}

/// A save point: where a copy of the state, or a trail of changes, begins.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark(pub u32);

/// The state of a problem during a search, and its moves. `TRAIL` selects how save
/// points are kept where a structure knows two ways (see [`Structure::trails`]); a
/// structure with one way ignores it.
///
/// Candidates: choosing an item lays its live options out as *candidates*, numbered
/// by `u32` positions that stay valid while the level is open; a candidate is a
/// handle `x` that [`Structure::commit`] and [`Structure::option_of`] take.
pub(crate) trait Structure {
    /// Whether save points keep a trail of changes (`run::<true>`), not copies.
    fn trails(&self) -> bool;

    /// Opens a save point: [`Structure::restore`] comes back to the state as it is now.
    fn save<const TRAIL: bool>(&mut self) -> Mark;

    /// Comes back to save point `m`, which stays open; forgets any forced move noted
    /// since.
    fn restore<const TRAIL: bool>(&mut self, m: Mark);

    /// Closes save point `m` and every later one.
    fn release<const TRAIL: bool>(&mut self, m: Mark);

    /// The item to branch on, or `None` when no primary item is active (a solution).
    fn choose(&mut self) -> Option<u32>;

    /// Covers item `i`, chosen at a level, and lays its live options out as the
    /// candidates `at..` (positions below `at` belong to the levels above and are left
    /// alone). Returns the candidates' positions.
    fn cover_chosen<const TRAIL: bool>(
        &mut self,
        i: u32,
        at: u32,
        updates: &mut u64,
    ) -> std::ops::Range<u32>;

    /// The candidate at position `r`.
    fn candidate(&self, r: u32) -> u32;

    /// Whether the level last laid out by [`Structure::cover_chosen`] *tweaks*: its
    /// item stays open (a multiplicity), so each candidate tried is excluded before the
    /// next ([`Structure::exclude`]), and the children are disjoint. Such a level may
    /// end with [`NONE`].
    fn tweaking(&self) -> bool {
        false
    }

    /// Excludes candidate `x` of a tweaking level, alive, for the rest of the level;
    /// `false` when the options left can no longer give some primary item what it needs
    /// (the level is done).
    fn exclude<const TRAIL: bool>(&mut self, _x: u32, _updates: &mut u64) -> bool {
        unreachable!("only a structure whose levels tweak excludes")
    }

    /// [`Structure::exclude`] at a level just restored to its save point `m`, which then
    /// moves past the exclusion: the level's save point, or `None` when the level is
    /// done.
    fn exclude_saved<const TRAIL: bool>(
        &mut self,
        x: u32,
        m: Mark,
        updates: &mut u64,
    ) -> Option<Mark> {
        if !self.exclude::<TRAIL>(x, updates) {
            return None;
        }
        self.release::<TRAIL>(m);
        Some(self.save::<TRAIL>())
    }

    /// Excludes the options `excluded`, those still alive, after the forced options: the
    /// exclusions of the tweaking levels above a part of the tree. No check: options
    /// too few for an item make the search find nothing.
    fn exclude_forced<const TRAIL: bool>(&mut self, excluded: &[OptionId], _updates: &mut u64) {
        assert!(
            excluded.is_empty(),
            "only a structure whose levels tweak excludes"
        );
    }

    /// How many options may cover primary item `i` at most (1 without multiplicities).
    fn capacity(&self, _i: u32) -> u32 {
        1
    }

    /// Whether primary items have bounds other than exactly once, so that forced
    /// options covering one too often clash as multiplicities do.
    fn has_bounds(&self) -> bool {
        false
    }

    /// Commits candidate `x` of the item last covered. With `check`, returns `false`
    /// as soon as some active primary item is left with no option (the caller restores
    /// either way).
    fn commit<const TRAIL: bool>(&mut self, x: u32, check: bool, updates: &mut u64) -> bool;

    /// Commits the forced options, alive, none chosen by the search, and checked not to
    /// clash with one another (no primary item twice, no two colors on an item); the
    /// state is that of committing them one after another.
    fn commit_forced<const TRAIL: bool>(&mut self, forced: &[OptionId], updates: &mut u64);

    /// [`Structure::commit_forced`] when the forced options are known not to clash,
    /// at less cost than checking them item by item, and then `true`; `false` (and
    /// nothing committed) when it cannot tell: the caller checks each, reports a clash
    /// it finds, and commits them if there is none.
    fn commit_forced_if_free<const TRAIL: bool>(
        &mut self,
        _forced: &[OptionId],
        _updates: &mut u64,
    ) -> bool {
        false
    }

    /// The option of candidate `x`.
    fn option_of(&self, x: u32) -> OptionId;

    /// The items of option `o` (internal numbers) with their colors (0: none, else a
    /// color id + 1).
    fn entries(&self, o: OptionId) -> impl Iterator<Item = (u32, u32)> + '_;

    /// How the structure numbers the items.
    fn order(&self) -> &ItemOrder;

    /// Number of primary items; internal items `0..n1` are primary.
    fn primary_count(&self) -> u32 {
        self.order().n1
    }

    /// The caller's id of internal item `i`.
    fn item_id(&self, i: u32) -> ItemId {
        self.order().item_id[i as usize]
    }

    /// Number of internal items.
    fn item_count(&self) -> usize {
        self.order().item_id.len()
    }

    /// Number of options.
    fn option_count(&self) -> usize;

    /// Forgets the forced moves noted so far.
    fn forget_forced_moves(&mut self);

    /// Puts back whatever a search may leave in another (equivalent) order; called
    /// after the root save point is restored.
    fn reset(&mut self);

    /// Makes [`Structure::reset`] leave the order a search left (the path of large
    /// problems), for tests.
    fn forget_pristine(&mut self);

    /// A hash of what a search may change, for the check that it changed nothing.
    fn fingerprint(&self, h: &mut impl std::hash::Hasher);
}
