//! How a search that is one part of a larger count hands work back.
//!
//! A parallel count (see [`super::parallel`]) gives each thread a *part*: a list of
//! forced options (and, with multiplicities, of excluded ones) whose solutions are its
//! share of the tree. A thread that runs out of
//! parts cannot take half of another's part unless that search gives it up, so every
//! search with a [`Share`] in its [`SearchConfig`](super::SearchConfig) asks it, at its
//! regular checks (every 1024 nodes), what the others want:
//!
//! - [`Want::Some`]: some thread is idle. The search gives away the untried options of
//!   its shallowest level that has any (a large piece of work, near the root, as in
//!   work stealing) and goes on with the rest.
//! - [`Want::All`]: stop (a checkpoint is due, or the run is ending). The search gives
//!   away its whole unexplored frontier and returns [`End::Stopped`](super::End): the
//!   node it was entering, and for every level above it the options not yet tried.
//!
//! In both cases what is given away is exact: the parts given and what the search
//! counted before returning are disjoint and together are its whole part, so counts
//! stay exact however often work moves. A search cut short by a limit (nodes, time,
//! Ctrl-C) with a share also gives away its frontier before it returns, so a count
//! stopped by Ctrl-C or a time limit knows exactly what is left (a checkpoint can
//! resume it), and a short first search on one thread can hand the rest of its tree to
//! the pool without losing or repeating anything.
//!
//! Only the dancing-cells engine gives work away; the links engines ignore a share.

use crate::problem::OptionId;

/// What the other threads want of a running search, asked at its regular checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// Nothing: go on.
    Nothing,
    /// Give away the untried options of the shallowest level that has some.
    Some,
    /// Give away everything not yet explored, and stop.
    All,
}

/// A piece of a tree: the solutions that contain `forced` and none of `excluded`.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// The options forced to reach the piece's root.
    pub forced: Vec<OptionId>,
    /// The options excluded on the way: at a multiplicity item, the options its earlier
    /// children took (see [`super::engine`]); empty without multiplicities.
    pub excluded: Vec<OptionId>,
    /// The piece's share of the tree it was cut from, by Knuth's estimate: the product
    /// of 1/(number of options) over the branchings on the way down. For progress
    /// reports only; counts never depend on it.
    pub weight: f64,
}

impl Part {
    /// The whole tree under `forced`.
    pub fn root(forced: &[OptionId]) -> Part {
        Part {
            forced: forced.to_vec(),
            excluded: Vec::new(),
            weight: 1.0,
        }
    }
}

/// A child of a node of the search, for splitting it into parts: the option it takes
/// (none where it closes a multiplicity item) and the options it excludes (the earlier
/// children's, at a multiplicity item).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Child {
    /// The option taken.
    pub take: Option<OptionId>,
    /// The options excluded.
    pub exclude: Vec<OptionId>,
}

impl Part {
    /// The part of child `c` of this part's node, with `weight`.
    pub fn child(&self, c: Child, weight: f64) -> Part {
        let mut forced = self.forced.clone();
        forced.extend(c.take);
        let mut excluded = self.excluded.clone();
        excluded.extend(c.exclude);
        Part {
            forced,
            excluded,
            weight,
        }
    }
}

/// The other side of a search that may give work away; see the module documentation.
pub trait Share: Send + Sync + std::fmt::Debug {
    /// What is wanted now. Called every 1024 nodes, so it must be cheap (atomics).
    fn wanted(&self) -> Want;
    /// Takes the parts a search gives away, with weights relative to its own part.
    fn give(&self, parts: Vec<Part>);
    /// How far the search has got: the estimated share of its part explored (given-away
    /// parts included), and its solutions and nodes so far. Called at every check.
    fn report(&self, explored: f64, solutions: u128, nodes: u64);
    /// The checks happen when the node count is a multiple of this mask plus one: 1023
    /// (every 1024 nodes) unless a test wants them more often.
    fn check_mask(&self) -> u64 {
        1023
    }
}
