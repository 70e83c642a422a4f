//! Optimizing search: the fewest options (`minimize count`) or the best total cost
//! (`minimize cost`, `maximize cost`), by depth-first branch and bound, on one of two
//! engines behind [`Optimizer`]:
//!
//! - module `priced`, Knuth's DLX5 in its own words: exactly-once primary items,
//!   secondary items with or without colors, taxes, cost-sorted lists, the K best. It
//!   runs every cost objective with exactly-once items, and the count objective when
//!   there are colors or K > 1 (as unit costs).
//! - `Linked`, below, over the links of DLX1: the count objective without colors (the
//!   seeds' bound prunes more than unit costs do), and problems with at-least-once
//!   items, no colors, and costs that never reward an extra option.
//! - module `bounded`: every other bound (`0..1`, `2..3`, `2..`, ...), colors beside
//!   items that are not exactly-once, and costs of either sign beside them; it counts
//!   how often each item is covered and blocks options by counters (its module
//!   documentation has the argument for stopping as soon as every item has its least
//!   number of options, and for its bounds).
//!
//! `Linked` and `bounded` walk their trees with one loop, module `tree` (node counts,
//! limits, pruning against the best so far and the shared incumbent, the solutions
//! kept, exclusions and backtracking); each says, as a `Tree`, how its state
//! chooses, commits, excludes and bounds. `priced` has its own loop (thresholds, the K
//! best) and shares the node count and the incumbent's test.
//!
//! # What `Linked` searches
//!
//! Primary items are covered exactly once, or *at least once* (bounds `1..`, the
//! repeated cover of the set-cover and matchsticks problems); secondary items at most
//! once. [`Optimizer`] gives it no other bounds and no colors (it would refuse them,
//! [`Refused`]).
//!
//! An exactly-once item is covered as in Algorithm X: choosing one of its options hides
//! every other option that shares an item with it. An at-least-once item is only taken
//! out of the active list when an option first covers it (a counter remembers how many
//! chosen options cover it), so the options that also cover it stay available for the
//! items they still need.
//!
//! # Branching in `Linked`
//!
//! At each node the active primary item with the fewest options is chosen (MRV, first in
//! item order on ties). Its options are tried in order of promise (most active items
//! first for `count`, cheapest first for `cost`). When the chosen item is at-least-once,
//! an option that has been tried is *excluded* (hidden from every list) while its
//! siblings are tried: the subtrees then partition the covers by "contains option 1",
//! "not 1 but 2", ..., so every cover is reached at most once. (For an exactly-once item
//! the siblings exclude each other already.)
//!
//! With at-least-once items the search stops as soon as every primary item is covered,
//! so it reaches exactly the covers whose options can be ordered so that each covers an
//! item not yet covered. Every *irredundant* cover (each option covers an item no other
//! option covers) is such a cover, and a redundant option never lowers a count or a
//! non-negative cost, so the optimum is always reached. That is why a cost objective with
//! at-least-once items is refused when some option has a cost that would reward adding
//! it ([`Refused::RewardingCost`]).
//!
//! # Every optimal solution
//!
//! With `all`, every optimal solution is listed, once. The search reaches every
//! irredundant optimal cover; an optimal cover that is redundant is one of those plus
//! options that cost 0 (as minimized: the count objective has none), whose primary items
//! are all at-least-once and whose secondary items are free. So each cover of the best
//! value is listed together with every such extension, and a set of the sorted covers
//! keeps one that can be reached from two irredundant covers from being listed twice.
//! (As everywhere in this engine, an option with no primary item is in a solution only
//! when forced.)
//!
//! # Bounds of `Linked` (why they are admissible)
//!
//! A subtree is pruned when the cost so far plus a lower bound on what the remaining
//! active items must still add cannot beat the best solution (cannot tie it, with `all`).
//!
//! - Count: Knuth's and the seeds' bound. Take an active item not yet marked, count one,
//!   and mark every item covered by any option of its list; repeat. Two counted items
//!   have no option in common, so a completion needs a different option for each.
//! - Cost: every completion covers each active item by an option of that item's list.
//!   Split each option's cost among its active primary items (the *charge*) so that the
//!   charges add up to at most the cost; then the completion costs at least the sum over
//!   active items of the least charge in the item's list. Five splits are tried and the
//!   largest bound kept: the whole cost on the option's `j`-th active primary item for
//!   `j = 0..4` (in the option's order, the last one if it has fewer: a sudoku model
//!   that lists the cell first gets "each empty cell at its best digit" from `j = 0`,
//!   "each digit of a row in its best cell" from `j = 1`), and `floor(cost / k)` on each
//!   of its `k` active primary items. With exactly-once items each item is covered by
//!   one option, so each option is charged exactly its split, whatever the signs. With
//!   at-least-once items an item covered by several options is charged to one of them,
//!   which undercounts only because costs are then non-negative.
//!
//! Measured (release, `cargo bench --bench optimize`): for count, the fractional bound
//! `ceil(sum of 1 / m(i))` (`m(i)`: the most active items an option of item `i` covers)
//! as well halves the nodes of the matchsticks cases (5x5 worst case found: 68.7k ->
//! 31.6k nodes) but costs more per node than it saves (3000 random 5x5 cases: 9.6 s ->
//! 25.8 s), so only the seeds' bound is used. For cost, the 25-clue target sudoku that is
//! the worst of 20 random ones takes 1.1M nodes with the `j = 0` charge and the even
//! split alone, 169k nodes with the five.
//!
//! Costs are summed in `i64`: a problem whose absolute costs add up beyond `i64::MAX` is
//! refused, so no partial sum can overflow.

use crate::clock::Instant;
use std::collections::HashSet;

mod bounded;
pub mod parts;
mod priced;
mod threads;
mod tree;

use bounded::Bounded;
use priced::Priced;

use threads::Incumbent;
pub use threads::{solve_best_on_threads, solve_on_threads};

use tree::{Extension, Tree, list_with_free};

use super::links::{COVERED, Links};
use super::{Clash, End, Limit, SearchConfig, Stats, Unsupported};
use crate::problem::{Bounds, ItemKind, OptionId, Problem};

/// How often an item with `bounds` must be covered, in words: `at least once` for
/// `1..`, else `2..3 times`.
pub(crate) fn how_often(bounds: &Bounds) -> String {
    if *bounds == (Bounds { lo: 1, hi: None }) {
        "at least once".to_string()
    } else {
        format!("{bounds} times")
    }
}

/// What to optimize.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// Fewest options (forced ones included).
    MinimizeCount,
    /// Least total cost (an option without a cost costs 0).
    MinimizeCost,
    /// Greatest total cost.
    MaximizeCost,
}

impl Objective {
    /// The factor between a value as the engines minimize it and the objective's own:
    /// -1 for `maximize cost` (the greatest cost is the least negated cost), else 1.
    pub fn sign(self) -> i64 {
        if self == Objective::MaximizeCost {
            -1
        } else {
            1
        }
    }

    /// How the model says it: `minimize count`, `minimize cost`, `maximize cost`.
    pub fn name(self) -> &'static str {
        match self {
            Objective::MinimizeCount => "minimize count",
            Objective::MinimizeCost => "minimize cost",
            Objective::MaximizeCost => "maximize cost",
        }
    }

    /// The objective of [`Objective::name`]'s words.
    pub fn named(name: &str) -> Option<Objective> {
        [
            Objective::MinimizeCount,
            Objective::MinimizeCost,
            Objective::MaximizeCost,
        ]
        .into_iter()
        .find(|o| o.name() == name)
    }

    /// The value of `solution` (options of `problem`): how many options, or their
    /// total cost (an option without a cost costs 0), as the objective counts it.
    pub fn value_of(self, problem: &Problem, solution: &[OptionId]) -> i64 {
        match self {
            Objective::MinimizeCount => solution.len() as i64,
            _ => solution
                .iter()
                .map(|&o| problem.option(o).cost.unwrap_or(0))
                .fold(0i64, i64::saturating_add),
        }
    }

    /// The words of the value line, `minimum cost: 12` or `best cost found: 12 (not
    /// proven minimal)`: the extreme, what is counted, and the adjective.
    pub fn words(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Objective::MinimizeCount => ("minimum", "count", "minimal"),
            Objective::MinimizeCost => ("minimum", "cost", "minimal"),
            Objective::MaximizeCost => ("maximum", "cost", "maximal"),
        }
    }
}

/// Why [`Optimizer::new`] refuses a problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// An invalid or too large problem (and, from an engine given a problem it does not
    /// take, which [`Optimizer`] never does, colors or bounds).
    #[error(transparent)]
    Unsupported(#[from] Unsupported),
    /// A cost objective, and an option whose cost improves the objective that can be
    /// added on top of a solution (its primary items may all be covered more than their
    /// least number of times): adding it would improve the solution, which the search,
    /// stopping as soon as every item has its least number of options, does not model.
    #[error(
        "option {option} has cost {cost}, and item `{item}` must be covered {}: with such items, {objective} needs costs that never reward an extra option ({sign})",
        how_often(.bounds)
    )]
    RewardingCost {
        /// The option.
        id: OptionId,
        /// The option, as [`Problem::option_label`] shows it.
        option: String,
        /// Its cost.
        cost: i64,
        /// A primary item of the option that may be covered more than `lo` times.
        item: String,
        /// That item's bounds.
        bounds: Bounds,
        /// `minimize cost` or `maximize cost`.
        objective: &'static str,
        /// What the costs must be.
        sign: &'static str,
    },
    /// `--best K` with `K > 1` and a primary item that is not exactly-once: the k best
    /// are searched with exactly-once items only (the other searches stop as soon as
    /// every item has its least number of options, so they never reach the solutions
    /// with extra options that a list of the k best may need).
    #[error(
        "item `{item}` must be covered {}, and the {best} best solutions are searched only when every item is covered exactly once",
        how_often(.bounds)
    )]
    BestOfRepeated {
        /// The first primary item that is not exactly-once.
        item: String,
        /// Its bounds.
        bounds: Bounds,
        /// How many were asked for.
        best: usize,
    },
    /// The absolute costs add up beyond `i64`.
    #[error(
        "the costs are too large: their absolute values must add up to at most {}",
        i64::MAX
    )]
    CostOverflow,
}

/// The result of an optimizing search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Optimum {
    /// The best value found (count, or total cost), or `None` if no solution was found.
    pub value: Option<i64>,
    /// The value of each solution of `solutions`, in order: all `value`, except when
    /// the `k` best were asked ([`Optimizer::solve_best`]).
    pub values: Vec<i64>,
    /// The best solution (forced options first), or every solution of the best value
    /// when `all` was asked (each once; see the module docs).
    pub solutions: Vec<Vec<OptionId>>,
    /// Whether the search finished: then `value` is optimal (or, when `None`, there is
    /// no solution at all).
    pub optimal: bool,
    /// The counters; `stats.solutions` counts the solutions that improved on (or, with
    /// `all`, tied) the best so far.
    pub stats: Stats,
    /// How the search ended ([`End::Exhausted`] or [`End::Cut`]).
    pub end: End,
}

/// Branch and bound over the links of DLX1 with at-least-once items: the engine of
/// the count objective and of repeated covers.
#[derive(Clone, Debug)]
pub(crate) struct Linked {
    links: Links,
    objective: Objective,
    /// Per internal item (`1..=n`): whether it is primary and at least once.
    repeat: Vec<bool>,
    /// Per internal item: how many chosen options cover it (at-least-once items).
    times: Vec<u32>,
    /// Per option: its cost as minimized (negated for `maximize`; 1 for count).
    cost: Vec<i64>,
    /// Stamps for the bounds, one per internal item.
    stamp: Vec<u64>,
    epoch: u64,
    /// The options that can be added to a cover without changing its value or its
    /// validity when nothing else is in their way: cost 0 (as minimized), a primary
    /// item, and every primary item at least once. `all` extends the covers the search
    /// reaches with them (module docs, "Every optimal solution").
    free: Vec<OptionId>,
}

/// One move on the way from the root to a part of the tree, as the search made it:
/// an option chosen, or an option excluded because the search tried it earlier at an
/// at-least-once item (its later siblings exclude it). Replayed in order, the steps
/// rebuild the state the search had at the part's root, so parts made from the
/// branching of [`Optimizer::branch`] are disjoint and together the whole tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The option is chosen.
    Commit(OptionId),
    /// The option is excluded.
    Exclude(OptionId),
}

impl Step {
    fn option(&self) -> &OptionId {
        match self {
            Step::Commit(o) | Step::Exclude(o) => o,
        }
    }
}

/// How many "whole cost on the `j`-th item" charges the cost bound tries.
const CHARGES: usize = 4;

/// What one search is asked for, beside its limits: what [`Optimizer::solve`],
/// [`Optimizer::solve_exact`] and [`Optimizer::solve_best`] differ by.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Wanted {
    /// Every optimal solution, not only the first.
    pub all: bool,
    /// How many of the cheapest solutions to keep (1: the optimum).
    pub best: usize,
    /// Every option hidden and counted whatever the best so far (module `priced`,
    /// "Thresholds and branching"): a tree that depends only on the problem, as each
    /// part of a search on threads needs. The links engine always searches so.
    pub exact: bool,
}

impl Wanted {
    /// The optimum (every optimal solution with `all`), searched with DLX5's
    /// thresholds.
    pub fn optimum(all: bool) -> Wanted {
        Wanted {
            all,
            best: 1,
            exact: false,
        }
    }
}

/// Branch and bound, built once per problem and objective and reused for many
/// searches: over dancing links with taxes and cost-sorted lists, as in DLX5
/// (`priced`), for exactly-once items; over the links of DLX1 (`Linked`) for the
/// count objective without colors and for at-least-once items; over counters of
/// covers and of blocking reasons (`bounded`) for every other bound, and colors or
/// costs of both signs beside items that are not exactly-once.
#[derive(Clone, Debug)]
pub struct Optimizer {
    core: Core,
    objective: Objective,
}

#[derive(Clone, Debug)]
enum Core {
    Linked(Box<Linked>),
    Bounded(Box<Bounded>),
    Priced(Box<Priced>),
}

impl Optimizer {
    /// Builds the engine for `problem` and `objective`.
    ///
    /// Refuses problems that fail [`Problem::validate`], costs whose absolute values
    /// overflow `i64`, and (see the module documentation of `bounded`) costs that
    /// reward an option that can be added to a solution: one whose primary items may
    /// all be covered more than their least number of times.
    pub fn new(problem: &Problem, objective: Objective) -> Result<Optimizer, Refused> {
        Optimizer::with_best(problem, objective, 1)
    }

    /// [`Optimizer::new`] for a search of the `best` cheapest solutions
    /// ([`Optimizer::solve_best`]): with `best > 1` every primary item must be covered
    /// exactly once ([`Refused::BestOfRepeated`]), since the other engines stop as soon
    /// as every item has its least number of options and never reach the solutions with
    /// an extra option that the k best may include.
    pub fn with_best(
        problem: &Problem,
        objective: Objective,
        best: usize,
    ) -> Result<Optimizer, Refused> {
        let repeated = problem
            .items
            .iter()
            .find(|i| matches!(i.kind, ItemKind::Primary { bounds } if !bounds.is_exactly_once()));
        let colored = problem
            .options
            .iter()
            .any(|o| o.entries.iter().any(|e| e.color.is_some()));
        if best > 1
            && let Some(item) = repeated
            && let ItemKind::Primary { bounds } = item.kind
        {
            return Err(Refused::BestOfRepeated {
                item: item.name.clone(),
                bounds,
                best,
            });
        }
        // Bounds other than `1` and `1..`, colors beside them, and costs that improve the
        // objective beside them (`Linked`'s cost bound charges an item covered several
        // times to one option, which needs non-negative costs) are for `Bounded`, which
        // refuses only the costs that could reward an extra option.
        let general = problem.items.iter().any(|i| {
            matches!(i.kind, ItemKind::Primary { bounds }
                if !bounds.is_exactly_once() && bounds != (Bounds { lo: 1, hi: None }))
        });
        let rewarding = objective != Objective::MinimizeCount
            && problem
                .options
                .iter()
                .any(|o| objective.sign() * o.cost.unwrap_or(0) < 0);
        // The seeds' count bound prunes more than the cost bounds on unit costs; Knuth's
        // taxes need every item covered exactly once.
        let core = if repeated.is_some() && (general || colored || rewarding) {
            Core::Bounded(Box::new(Bounded::new(problem, objective)?))
        } else if repeated.is_some()
            || (objective == Objective::MinimizeCount && !colored && best == 1)
        {
            Core::Linked(Box::new(Linked::new(problem, objective)?))
        } else {
            Core::Priced(Box::new(Priced::new(problem, objective)?))
        };
        Ok(Optimizer { core, objective })
    }

    /// A hash of everything a search changes and must put back, for tests that check a
    /// search left the structure exactly as it found it.
    #[doc(hidden)]
    pub fn structure_fingerprint(&self) -> u64 {
        match &self.core {
            Core::Linked(l) => l.structure_fingerprint(),
            Core::Bounded(b) => b.structure_fingerprint(),
            Core::Priced(p) => p.fingerprint(),
        }
    }

    /// The objective this optimizer was built for.
    pub fn objective(&self) -> Objective {
        self.objective
    }

    /// Whether it is the cost-sorted engine of module `priced` (DLX5's), rather than
    /// the links of DLX1 with at-least-once items or the counters of module `bounded`.
    pub fn is_priced(&self) -> bool {
        matches!(self.core, Core::Priced(_))
    }

    /// Finds an optimal solution containing the `forced` options (every optimal one
    /// with `all`), calling `on_improve(value, solution)` each time a better solution is
    /// found. Only the node and time limits and the interrupt flag of `config` apply.
    ///
    /// Returns [`Clash`] if two forced options cannot be together. The structure is
    /// restored before returning, however the search ends.
    ///
    /// # Panics
    ///
    /// If a forced option id is out of range: ids come from the same problem, so that is
    /// a bug in the caller.
    pub fn solve(
        &mut self,
        forced: &[OptionId],
        all: bool,
        config: &SearchConfig,
        on_improve: &mut dyn FnMut(i64, &[OptionId]),
    ) -> Result<Optimum, Clash> {
        self.solve_part(forced, &[], Wanted::optimum(all), config, None, on_improve)
    }

    /// [`Optimizer::solve`] as each part of a search on threads runs it: every option
    /// hidden and counted whatever the best so far (module `priced`, "Thresholds and
    /// branching"), so that its answer is the one [`solve_on_threads`] gives on any
    /// number of threads. The same as [`Optimizer::solve`] on the links engine.
    #[doc(hidden)]
    pub fn solve_exact(
        &mut self,
        forced: &[OptionId],
        all: bool,
        config: &SearchConfig,
        on_improve: &mut dyn FnMut(i64, &[OptionId]),
    ) -> Result<Optimum, Clash> {
        let wanted = Wanted {
            exact: true,
            ..Wanted::optimum(all)
        };
        self.solve_part(forced, &[], wanted, config, None, on_improve)
    }

    /// The `best` cheapest solutions containing the `forced` options, in order of
    /// value; among solutions of equal value, in the order the search reaches them
    /// (module `priced`, "The k best"). `on_improve` is called when the cheapest
    /// so far improves. On an engine built with [`Optimizer::new`] for items that are not
    /// exactly-once, `best` above 1 is not looked at: it returns the optimum alone
    /// ([`Optimizer::with_best`] refuses such a search instead).
    pub fn solve_best(
        &mut self,
        forced: &[OptionId],
        best: usize,
        config: &SearchConfig,
        on_improve: &mut dyn FnMut(i64, &[OptionId]),
    ) -> Result<Optimum, Clash> {
        let wanted = Wanted {
            best,
            ..Wanted::optimum(false)
        };
        self.solve_part(forced, &[], wanted, config, None, on_improve)
    }

    /// [`Optimizer::solve`] on the part of the tree that `steps` lead to (see
    /// [`Step`]), part number `k` of a search on threads whose parts share `shared`.
    pub(crate) fn solve_part(
        &mut self,
        forced: &[OptionId],
        steps: &[Step],
        wanted: Wanted,
        config: &SearchConfig,
        shared: Option<(&Incumbent, usize)>,
        on_improve: &mut dyn FnMut(i64, &[OptionId]),
    ) -> Result<Optimum, Clash> {
        match &mut self.core {
            Core::Linked(l) => tree::solve_part(
                &mut **l, forced, steps, wanted.all, config, shared, on_improve,
            ),
            Core::Bounded(b) => tree::solve_part(
                &mut **b, forced, steps, wanted.all, config, shared, on_improve,
            ),
            Core::Priced(p) => p.solve_part(forced, steps, wanted, config, shared, on_improve),
        }
    }

    /// How the search would branch at the end of `steps` (module `tree`, `branch`).
    pub(crate) fn branch(
        &mut self,
        forced: &[OptionId],
        steps: &[Step],
    ) -> Result<Option<(bool, Vec<OptionId>)>, Clash> {
        match &mut self.core {
            Core::Linked(l) => tree::branch(&mut **l, forced, steps),
            Core::Bounded(b) => tree::branch(&mut **b, forced, steps),
            Core::Priced(p) => p.branch(forced, steps),
        }
    }
}

impl Linked {
    /// Builds the links of `problem` for `objective`.
    ///
    /// Refuses colors, primary bounds other than `1` and `1..`, problems that fail
    /// [`Problem::validate`], costs whose absolute values overflow `i64`, and (see the
    /// module documentation) costs that reward extra options in a repeated cover.
    fn new(problem: &Problem, objective: Objective) -> Result<Linked, Refused> {
        problem.validate().map_err(Unsupported::from)?;
        let mut first_repeat = None;
        for item in &problem.items {
            if let ItemKind::Primary { bounds } = item.kind {
                if bounds == (Bounds { lo: 1, hi: None }) {
                    first_repeat.get_or_insert(item.name.clone());
                } else if !bounds.is_exactly_once() {
                    return Err(Unsupported::Multiplicity {
                        item: item.name.clone(),
                        bounds,
                    }
                    .into());
                }
            }
        }
        for opt in &problem.options {
            if let Some(e) = opt.entries.iter().find(|e| e.color.is_some()) {
                return Err(Unsupported::Colors {
                    item: problem.item(e.item).name.clone(),
                }
                .into());
            }
        }
        let mut total: i64 = 0;
        for opt in &problem.options {
            let c = opt.cost.unwrap_or(0);
            total = total
                .checked_add(c.checked_abs().ok_or(Refused::CostOverflow)?)
                .ok_or(Refused::CostOverflow)?;
        }
        let cost: Vec<i64> = problem
            .options
            .iter()
            .map(|o| match objective {
                Objective::MinimizeCount => 1,
                Objective::MinimizeCost => o.cost.unwrap_or(0),
                Objective::MaximizeCost => -o.cost.unwrap_or(0),
            })
            .collect();
        if let Some(item) = first_repeat
            && objective != Objective::MinimizeCount
            && let Some(k) = cost.iter().position(|&c| c < 0)
        {
            let max = objective == Objective::MaximizeCost;
            return Err(Refused::RewardingCost {
                id: OptionId(k as u32),
                option: problem.option_label(OptionId(k as u32)),
                cost: problem.options.get(k).cost.unwrap_or(0),
                item,
                bounds: Bounds { lo: 1, hi: None },
                objective: if max {
                    "maximize cost"
                } else {
                    "minimize cost"
                },
                sign: if max {
                    "zero or negative"
                } else {
                    "zero or positive"
                },
            });
        }
        let links = Links::new(problem).map_err(|_| Unsupported::TooLarge)?;
        let n = links.n_items as usize;
        let mut repeat = vec![false; n + 2];
        for (k, id) in links.item_id.iter().enumerate() {
            if let ItemKind::Primary { bounds } = problem.item(*id).kind {
                repeat[k + 1] = !bounds.is_exactly_once();
            }
        }
        let free = (0..problem.options.len() as u32)
            .map(OptionId)
            .filter(|o| {
                let mut primary = links
                    .option_nodes(*o)
                    .map(|p| links.nodes[p as usize].top as u32)
                    .filter(|&t| t <= links.n_primary)
                    .peekable();
                cost[o.index()] == 0
                    && primary.peek().is_some()
                    && primary.all(|t| repeat[t as usize])
            })
            .collect();
        Ok(Linked {
            free,
            times: vec![0; n + 2],
            stamp: vec![0; n + 2],
            epoch: 0,
            repeat,
            cost,
            objective,
            links,
        })
    }

    /// Lays the options of item `i` out at the end of `cand`, in the order the search
    /// tries them (`keyed` is scratch).
    #[inline]
    fn candidates(&mut self, item: u32, cand: &mut Vec<u32>, keyed: &mut Vec<(i64, u32)>) {
        // Only the count objective orders options by the active items they cover; the
        // cost objectives need no stamp.
        let active = if self.objective == Objective::MinimizeCount {
            self.stamp_active()
        } else {
            0
        };
        let begin = cand.len();
        let mut p = self.links.nodes[item as usize].dlink;
        while p != item {
            cand.push(p);
            p = self.links.nodes[p as usize].dlink;
        }
        keyed.clear();
        keyed.extend(
            cand[begin..]
                .iter()
                .map(|&x| (self.order_key(x, active), x)),
        );
        keyed.sort_by_key(|&(key, _)| key);
        for (slot, &(_, x)) in cand[begin..].iter_mut().zip(keyed.iter()) {
            *slot = x;
        }
    }

    /// Covers the items of option `o` in order (a forced option).
    fn commit_range(&mut self, o: OptionId, updates: &mut u64) {
        for p in self.links.option_nodes(o) {
            let i = self.links.nodes[p as usize].top as u32;
            self.take(i, updates);
        }
    }

    fn uncommit_range(&mut self, o: OptionId) {
        for p in self.links.option_nodes(o).rev() {
            let i = self.links.nodes[p as usize].top as u32;
            self.untake(i);
        }
    }

    /// One more chosen option covers item `i`: an exactly-once or secondary item is
    /// covered as in Algorithm X; an at-least-once item leaves the active list the first
    /// time only.
    #[inline]
    fn take(&mut self, i: u32, updates: &mut u64) {
        if self.repeat[i as usize] {
            self.times[i as usize] += 1;
            if self.times[i as usize] == 1 {
                let h = self.links.items[i as usize];
                self.links.items[h.llink as usize].rlink = h.rlink;
                self.links.items[h.rlink as usize].llink = h.llink;
                *updates += 1;
            }
        } else {
            self.links.cover(i, updates);
        }
    }

    /// Undoes [`Linked::take`].
    #[inline]
    fn untake(&mut self, i: u32) {
        if self.repeat[i as usize] {
            self.times[i as usize] -= 1;
            if self.times[i as usize] == 0 {
                let h = self.links.items[i as usize];
                self.links.items[h.llink as usize].rlink = i;
                self.links.items[h.rlink as usize].llink = i;
            }
        } else {
            self.links.uncover(i);
        }
    }

    /// Chooses option `o` of the list of an item: takes every item of it, except `skip`,
    /// the item itself when it was covered already (exactly-once branch item, X4).
    #[inline]
    fn commit(&mut self, o: OptionId, skip: Option<u32>, updates: &mut u64) {
        for p in self.links.option_nodes(o) {
            let t = self.links.nodes[p as usize].top as u32;
            if Some(t) != skip {
                self.take(t, updates);
            }
        }
    }

    #[inline]
    fn uncommit(&mut self, o: OptionId, skip: Option<u32>) {
        for p in self.links.option_nodes(o).rev() {
            let t = self.links.nodes[p as usize].top as u32;
            if Some(t) != skip {
                self.untake(t);
            }
        }
    }

    /// Removes every node of option `o` from its vertical list: the option is excluded
    /// from the rest of this level's subtrees.
    #[inline]
    fn exclude(&mut self, o: OptionId, updates: &mut u64) {
        for q in self.links.option_nodes(o) {
            let node = self.links.nodes[q as usize];
            self.links.nodes[node.ulink as usize].dlink = node.dlink;
            self.links.nodes[node.dlink as usize].ulink = node.ulink;
            self.links.len[node.top as usize] -= 1;
            *updates += 1;
        }
    }

    #[inline]
    fn include(&mut self, o: OptionId) {
        for q in self.links.option_nodes(o).rev() {
            let node = self.links.nodes[q as usize];
            self.links.nodes[node.ulink as usize].dlink = q;
            self.links.nodes[node.dlink as usize].ulink = q;
            self.links.len[node.top as usize] += 1;
        }
    }

    /// Stamps the active primary items with a fresh epoch.
    #[inline]
    fn stamp_active(&mut self) -> u64 {
        self.epoch += 1;
        let e = self.epoch;
        let mut k = self.links.items[0].rlink;
        while k != 0 {
            self.stamp[k as usize] = e;
            k = self.links.items[k as usize].rlink;
        }
        e
    }

    /// A lower bound on what covering the active items still adds (module docs).
    #[inline]
    fn lower_bound(&mut self) -> i64 {
        match self.objective {
            Objective::MinimizeCount => self.count_bound(),
            _ => self.cost_bound(),
        }
    }

    /// The seeds' bound: items whose lists share no option each need their own option.
    #[inline]
    fn count_bound(&mut self) -> i64 {
        let active = self.stamp_active();
        // Marked items get `active + 1`; the next call starts above it.
        self.epoch += 1;
        let marked = self.epoch;
        let mut h = 0;
        let mut k = self.links.items[0].rlink;
        while k != 0 {
            if self.stamp[k as usize] == active {
                h += 1;
                let mut p = self.links.nodes[k as usize].dlink;
                while p != k {
                    let o = self.links.option_of(p);
                    for q in self.links.option_nodes(o) {
                        let t = self.links.nodes[q as usize].top as usize;
                        self.stamp[t] = marked;
                    }
                    p = self.links.nodes[p as usize].dlink;
                }
            }
            k = self.links.items[k as usize].rlink;
        }
        h
    }

    /// The largest of the charge bounds of the module documentation.
    #[inline]
    fn cost_bound(&mut self) -> i64 {
        let active = self.stamp_active();
        // Charge `j` puts an option's whole cost on its `j`-th active primary item (its
        // last one if it has fewer); charge `CHARGES` splits it evenly.
        let mut sums = [0i64; CHARGES + 1];
        let mut k = self.links.items[0].rlink;
        while k != 0 {
            let mut least = [i64::MAX; CHARGES + 1];
            let mut p = self.links.nodes[k as usize].dlink;
            while p != k {
                let o = self.links.option_of(p);
                let c = self.cost[o.index()];
                let (mut size, mut at) = (0usize, 0usize);
                for q in self.links.option_nodes(o) {
                    let t = self.links.nodes[q as usize].top as u32;
                    if self.stamp[t as usize] == active {
                        if t == k {
                            at = size;
                        }
                        size += 1;
                    }
                }
                for (j, l) in least[..CHARGES].iter_mut().enumerate() {
                    let charged = if at == j.min(size - 1) { c } else { 0 };
                    *l = (*l).min(charged);
                }
                least[CHARGES] = least[CHARGES].min(c.div_euclid(size as i64));
                p = self.links.nodes[p as usize].dlink;
            }
            // An item with an empty list makes the node a dead end anyway.
            if least[0] != i64::MAX {
                for (s, l) in sums.iter_mut().zip(least) {
                    *s += l;
                }
            }
            k = self.links.items[k as usize].rlink;
        }
        sums.into_iter().max().unwrap_or(0)
    }

    /// The active item with the fewest options (first in item order on ties).
    #[inline]
    fn choose(&self) -> (u32, i32) {
        let mut best = 0;
        let mut len = i32::MAX;
        let mut k = self.links.items[0].rlink;
        while k != 0 {
            let t = self.links.len[k as usize];
            if t < len {
                best = k;
                len = t;
                if t == 0 {
                    break;
                }
            }
            k = self.links.items[k as usize].rlink;
        }
        (best, len)
    }

    /// How promising node `x`'s option is at this point: smaller is tried first.
    #[inline]
    fn order_key(&self, x: u32, active: u64) -> i64 {
        let o = self.links.option_of(x);
        match self.objective {
            Objective::MinimizeCount => {
                let covered = self
                    .links
                    .option_nodes(o)
                    .filter(|&q| self.stamp[self.links.nodes[q as usize].top as usize] == active)
                    .count();
                -(covered as i64)
            }
            _ => self.cost[o.index()],
        }
    }

    /// Whether forced option `forced[k]` clashes with those before it (committed): it
    /// is forced twice, or an exactly-once or secondary item of it is covered already.
    /// (On an at-least-once item the item check would let a repeat through, so the
    /// repeat is looked for first.)
    fn check_forced(&self, forced: &[OptionId], k: usize) -> Option<Clash> {
        let o = forced[k];
        if let Some(c) = super::forced_twice(forced, k, self.links.first_item(o)) {
            return Some(c);
        }
        let top = |p: u32| self.links.nodes[p as usize].top as usize;
        self.links.option_nodes(o).find_map(|p| {
            let i = top(p);
            // A covered item carries `COVERED` in its LEN.
            if self.repeat[i] || self.links.len[i] < COVERED {
                return None;
            }
            // The one earlier forced option that covers the item.
            let first = *forced[..k]
                .iter()
                .find(|&&e| self.links.option_nodes(e).any(|q| top(q) == i))?;
            Some(Clash {
                first,
                second: o,
                item: self.links.item_id[i - 1],
                kind: super::ClashKind::Shared,
            })
        })
    }
}

/// The free options that can be added to one cover (see [`Linked::free`]): those not
/// in it that share no secondary item with it, each with its secondary items, and the
/// secondary items taken.
struct Free {
    addable: Vec<(OptionId, Vec<u32>)>,
    used: Vec<bool>,
}

impl Extension for Free {
    fn len(&self) -> usize {
        self.addable.len()
    }

    fn option(&self, k: usize) -> OptionId {
        self.addable[k].0
    }

    /// Shares no secondary item with what is chosen.
    fn fits(&self, k: usize) -> bool {
        self.addable[k].1.iter().all(|&t| !self.used[t as usize])
    }

    fn add(&mut self, k: usize) {
        for &t in &self.addable[k].1 {
            self.used[t as usize] = true;
        }
    }

    fn remove(&mut self, k: usize) {
        for &t in &self.addable[k].1 {
            self.used[t as usize] = false;
        }
    }
}

/// A candidate is a node of the chosen item's list. An exactly-once item is covered
/// while its level is open (X4); an at-least-once item stays, and its tried options are
/// excluded from their later siblings (module docs, "Branching in `Linked`").
impl Tree for Linked {
    fn objective(&self) -> Objective {
        self.objective
    }

    fn options(&self) -> usize {
        self.links.option_start.len() - 1
    }

    #[inline]
    fn cost(&self, o: OptionId) -> i64 {
        self.cost[o.index()]
    }

    #[inline]
    fn option(&self, x: u32) -> OptionId {
        self.links.option_of(x)
    }

    #[inline]
    fn solved(&self) -> bool {
        self.links.items[0].rlink == 0
    }

    #[inline]
    fn choose(&mut self) -> Option<u32> {
        let (item, len) = Linked::choose(self);
        (len != 0).then_some(item)
    }

    #[inline]
    fn lower_bound(&mut self) -> i64 {
        Linked::lower_bound(self)
    }

    #[inline]
    fn open(
        &mut self,
        item: u32,
        cand: &mut Vec<u32>,
        keyed: &mut Vec<(i64, u32)>,
        updates: &mut u64,
    ) {
        if !self.repeat[item as usize] {
            self.links.cover(item, updates);
        }
        self.candidates(item, cand, keyed);
    }

    #[inline]
    fn close(&mut self, item: u32) {
        if !self.repeat[item as usize] {
            self.links.uncover(item);
        }
    }

    #[inline]
    fn excludes(&self, item: u32) -> bool {
        self.repeat[item as usize]
    }

    #[inline]
    fn commit(&mut self, item: u32, o: OptionId, updates: &mut u64) {
        let skip = (!self.repeat[item as usize]).then_some(item);
        Linked::commit(self, o, skip, updates);
    }

    #[inline]
    fn uncommit(&mut self, item: u32, o: OptionId) {
        let skip = (!self.repeat[item as usize]).then_some(item);
        Linked::uncommit(self, o, skip);
    }

    fn force(&mut self, o: OptionId, updates: &mut u64) {
        self.commit_range(o, updates);
    }

    fn unforce(&mut self, o: OptionId) {
        self.uncommit_range(o);
    }

    #[inline]
    fn exclude(&mut self, o: OptionId, updates: &mut u64) {
        Linked::exclude(self, o, updates);
    }

    #[inline]
    fn include(&mut self, o: OptionId) {
        Linked::include(self, o);
    }

    fn check_forced(&self, forced: &[OptionId], k: usize) -> Option<Clash> {
        Linked::check_forced(self, forced, k)
    }

    /// The links and the cover counts of at-least-once items.
    fn structure_fingerprint(&self) -> u64 {
        crate::solve::hash_of(&(&self.links, &self.times))
    }

    fn has_free(&self) -> bool {
        !self.free.is_empty()
    }

    /// Lists the cover `sol` with every cover made from it by adding free options that
    /// are not in it and share no secondary item with it or with each other.
    fn push_with_free(
        &self,
        sol: Vec<OptionId>,
        seen: &mut HashSet<Vec<OptionId>>,
        solutions: &mut Vec<Vec<OptionId>>,
        listed: &mut u128,
        config: &SearchConfig,
        start: Instant,
    ) -> Result<(), Limit> {
        let links = &self.links;
        let secondary = |o: OptionId| -> Vec<u32> {
            links
                .option_nodes(o)
                .map(|p| links.nodes[p as usize].top as u32)
                .filter(|&t| t > links.n_primary)
                .collect()
        };
        let mut used = vec![false; links.n_items as usize + 1];
        for &o in &sol {
            for t in secondary(o) {
                used[t as usize] = true;
            }
        }
        let addable = self
            .free
            .iter()
            .filter(|o| !sol.contains(o))
            .map(|&o| (o, secondary(o)))
            .filter(|(_, items)| items.iter().all(|&t| !used[t as usize]))
            .collect();
        let mut free = Free { addable, used };
        list_with_free(sol, &mut free, seen, solutions, listed, config, start)
    }
}
