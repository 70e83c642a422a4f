//! Branch and bound on least total cost, in the manner of Knuth's DLX5: net costs after
//! taxes, item lists sorted by net cost, colors, the k best solutions.
//!
//! # What is searched
//!
//! Every primary item is covered exactly once; a secondary item is claimed by at most
//! one option, or shared by options that give it the same color (Algorithm C: an
//! option that colors an item *purifies* it, hiding the options of other colors). The
//! count objective is the cost objective with every option costing 1.
//!
//! # Taxes (why the costs can be changed)
//!
//! Each primary item in turn is *taxed* the least cost among its options, and that tax
//! is taken off the cost of every option that covers it. Every solution covers each
//! primary item exactly once, so every solution pays every tax once: its cost is the
//! total tax plus the sum of its options' *net* costs, and no order of solutions
//! changes. Taxing an item leaves each of its options at a net cost of 0 or more, and a
//! later tax is at most what each option of its item still costs, so every option with
//! a primary item ends with a net cost of 0 or more, whatever the signs of the costs
//! (`maximize cost` is `minimize` of the negated costs). The bounds below need exactly
//! that: net costs that never reward an option.
//!
//! # Sorted lists (why no sort at a node)
//!
//! Each item's list is sorted by net cost once, stably (ties keep the order of the
//! options). Covering and uncovering unlink and relink nodes without moving the
//! others, so the list stays sorted at every node: the options of the branching item
//! are tried cheapest first by walking the list, the cheapest option of an item is the
//! first node of its list, and once `cost so far + net cost` of a candidate cannot
//! beat the best, neither can any later one, so the level ends there.
//!
//! # Bounds (why they are admissible)
//!
//! At a node, with `g` the cost so far (total tax included) and `first(i)` the net cost
//! of the first option left in item `i`'s list, the subtree is pruned when `g` plus the
//! larger of two bounds cannot beat the best:
//!
//! - DLX5's: `max first(i)` over the active items, since each must be covered by an
//!   option that costs at least that much.
//! - Shares: an option of `s` primary items can pay `net / s` for each of them; every
//!   option left has only active primary items (one sharing a covered item is hidden),
//!   and a completion covers each active item by exactly one option, so it costs at
//!   least the sum over active items `i` of `first(i) / m(i)`, with `m(i)` the most
//!   primary items of an option in `i`'s list (known before the search). The sum is
//!   taken over a common denominator, and rounded up, since costs are integers.
//!
//! Both are sums and maxima of first nodes: one pass over the active items, the same
//! pass that chooses the item to branch on.
//!
//! # Thresholds and branching (DLX5's on one thread, exact on threads)
//!
//! On one thread, as in DLX5, covering an item at a node of cost `g` hides only the
//! options of net cost below `limit - g` (`limit`: the value a solution must stay below
//! to be kept); the dearer ones stay linked, but they lie at the end of every sorted
//! list and the threshold only falls below the node, so nothing walks them again. The
//! branching item is covered with the node's own threshold, not that of its cheapest
//! option as DLX5 does: a dearer option of the item still worth trying would otherwise
//! be left linked, and covering its own items would unlink it from the list being
//! walked. The item chosen has the fewest *usable* options (net cost below
//! `limit - g`, at most [`COUNTED`] counted), then the largest `first(i)` (DLX5's tie
//! rule: that cost must be paid anyway), then the first in item order.
//!
//! Both make the tree depend on the best found so far: deterministic on one thread, but
//! on threads that best comes from other parts. So the parts of a split search (and
//! `exact` searches) hide every option and choose by the plain number of options:
//! their tree depends only on the problem, and the split search returns exactly that
//! sequential search's answer (module `threads`), at about twice the updates.
//!
//! # The k best
//!
//! With `best = K`, the K cheapest solutions are kept; once there are K, a subtree is
//! pruned when it cannot beat the most expensive of them, and a new solution replaces
//! the most expensive one (the last found among equals). Among solutions of equal cost
//! the search's order decides: the K kept are the first K in the order (cost, order in
//! which the search reaches them), and they are listed in that order.

use crate::clock::Instant;

use super::threads::Incumbent;
use super::tree::{check_ids, count_node};
use super::{Objective, Optimum, Refused, Step, Wanted};
use crate::problem::{ItemId, ItemKind, OptionId, Problem};
use crate::solve::{Clash, End, SearchConfig, Stats, Unsupported};

/// One node: an item head (`1..=n`), a spacer, or a matrix entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Node {
    /// The node above in the item's list (a spacer: the first node of the option before
    /// it).
    ulink: u32,
    /// The node below (a spacer: the last node of the option after it).
    dlink: u32,
    /// The item (`>= 1`), or `-k` for the spacer before option `k - 1`.
    top: i32,
    /// The color given to a secondary item (`>= 1`), 0 for none, -1 while the item is
    /// purified with this color (the option needs no purifying again).
    color: i32,
    /// The net cost of the option, beside the links that covering reads with it.
    cost: i64,
}

/// The structure, built once per problem and objective.
#[derive(Clone, Debug)]
pub(crate) struct Priced {
    /// LLINK/RLINK of the active primary items, root 0.
    items: Vec<(u32, u32)>,
    nodes: Vec<Node>,
    /// LEN of each item (primary items only are kept up to date).
    len: Vec<i32>,
    n_primary: u32,
    /// Internal item number minus one -> the caller's item.
    item_id: Vec<ItemId>,
    /// Option `k` occupies nodes `option_start[k] .. option_start[k + 1] - 1`.
    option_start: Vec<u32>,
    /// Net cost of each option.
    net: Vec<i64>,
    /// The sum of the taxes.
    tax: i64,
    /// The share bound's weight of each primary item, `denominator / m(i)`.
    weight: Vec<i64>,
    denominator: i64,
    objective: Objective,
}

/// How many options of an item [`Priced::choose`] counts at most (DLX5's default).
const COUNTED: i32 = 10;

/// One level of the search.
#[derive(Clone, Copy, Debug)]
struct Level {
    /// The item branched on.
    item: u32,
    /// The node of the option tried.
    x: u32,
    /// The cost before it.
    g: i64,
    /// The thresholds the item was covered with, and the option's other items.
    t0: i64,
    t: i64,
}

/// What a search keeps: the best solutions so far, as minimized.
struct Kept {
    /// At most `best` solutions (`all`: every one of the best cost).
    list: Vec<(i64, Vec<OptionId>)>,
    best: usize,
    all: bool,
    /// What [`Kept::cutoff`] returns, kept up to date by [`Kept::keep`].
    cut: Option<(i64, bool)>,
}

impl Kept {
    /// The cost that a subtree must beat (`None`: anything goes), and whether a tie
    /// with it is still wanted.
    #[inline]
    fn cutoff(&self) -> Option<(i64, bool)> {
        self.cut
    }

    /// Keeps a solution that the cutoff let through.
    fn keep(&mut self, cost: i64, sol: Vec<OptionId>) {
        if self.all {
            if self.list.first().is_some_and(|(c, _)| cost < *c) {
                self.list.clear();
            }
        } else if self.list.len() >= self.best {
            // The last found among the most expensive leaves.
            let worst = self.list.iter().map(|(c, _)| *c).max().unwrap_or(cost);
            if let Some(k) = self.list.iter().rposition(|(c, _)| *c == worst) {
                self.list.remove(k);
            }
        }
        self.list.push((cost, sol));
        self.cut = if self.all {
            self.least().map(|c| (c, true))
        } else if self.list.len() >= self.best {
            self.list.iter().map(|(c, _)| *c).max().map(|c| (c, false))
        } else {
            None
        };
    }

    fn least(&self) -> Option<i64> {
        self.list.iter().map(|(c, _)| *c).min()
    }
}

impl Priced {
    /// Builds the structure, or refuses a problem with another kind of item than
    /// exactly-once primary and secondary ones, or whose costs overflow.
    pub(crate) fn new(problem: &Problem, objective: Objective) -> Result<Priced, Refused> {
        problem.validate().map_err(Unsupported::from)?;
        for item in &problem.items {
            if let ItemKind::Primary { bounds } = item.kind
                && !bounds.is_exactly_once()
            {
                return Err(Unsupported::Multiplicity {
                    item: item.name.clone(),
                    bounds,
                }
                .into());
            }
        }
        let n = problem.items.len();
        let total = n + 2 + problem.entry_count() + problem.options.len();
        if total >= i32::MAX as usize {
            return Err(Unsupported::TooLarge.into());
        }
        let (item_id, n_primary) = problem.primary_first();
        let mut internal = vec![0u32; n];
        for (k, id) in item_id.iter().enumerate() {
            internal[id.index()] = k as u32 + 1;
        }
        // Costs as minimized, then taxed, in i128 so that no step can overflow.
        let mut net: Vec<i128> = problem
            .options
            .iter()
            .map(|o| {
                let c = i128::from(o.cost.unwrap_or(0));
                match objective {
                    Objective::MinimizeCount => 1,
                    Objective::MinimizeCost => c,
                    Objective::MaximizeCost => -c,
                }
            })
            .collect();
        let mut by_item: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
        for (k, opt) in problem.options.iter().enumerate() {
            for e in opt.entries {
                by_item[internal[e.item.index()] as usize].push(k as u32);
            }
        }
        let mut tax: i128 = 0;
        for list in &by_item[1..=n_primary as usize] {
            if let Some(least) = list.iter().map(|&o| net[o as usize]).min() {
                tax += least;
                for &o in list {
                    net[o as usize] -= least;
                }
            }
        }
        let spread: i128 = net.iter().map(|c| c.abs()).sum::<i128>() + tax.abs();
        if spread > i128::from(i64::MAX) {
            return Err(Refused::CostOverflow);
        }
        let net: Vec<i64> = net.into_iter().map(|c| c as i64).collect();

        let mut nodes = Vec::with_capacity(total);
        for i in 0..=n as u32 {
            nodes.push(Node {
                ulink: i,
                dlink: i,
                top: 0,
                color: 0,
                cost: 0,
            });
        }
        let mut option_start = Vec::with_capacity(problem.options.len() + 1);
        let mut primaries = vec![0i64; problem.options.len()];
        for (k, opt) in problem.options.iter().enumerate() {
            let spacer = nodes.len();
            nodes.push(Node {
                ulink: spacer as u32,
                dlink: spacer as u32,
                top: -(k as i32) - 1,
                color: 0,
                cost: 0,
            });
            let first = nodes.len() as u32;
            option_start.push(first);
            for e in opt.entries {
                let i = internal[e.item.index()];
                if i <= n_primary {
                    primaries[k] += 1;
                }
                nodes.push(Node {
                    ulink: 0,
                    dlink: 0,
                    top: i as i32,
                    color: e.color.map_or(0, |c| c.number() as i32),
                    cost: net[k],
                });
            }
            let last = nodes.len() as u32 - 1;
            if !opt.entries.is_empty() {
                // Walking right from the last node wraps through the next spacer to
                // the first; walking left from the first wraps through this one.
                nodes[spacer].dlink = last;
            }
            // The next spacer's ULINK is set when it is pushed; patched below.
        }
        let end = nodes.len();
        nodes.push(Node {
            ulink: end as u32,
            dlink: end as u32,
            top: -(problem.options.len() as i32) - 1,
            color: 0,
            cost: 0,
        });
        option_start.push(end as u32 + 1);
        // ULINK of the spacer after option k: its first node.
        for k in 0..problem.options.len() {
            let (first, next) = (option_start[k], option_start[k + 1] - 1);
            if first < next {
                nodes[next as usize].ulink = first;
            }
        }
        // The vertical lists: primary lists sorted by net cost, stably.
        let mut len = vec![0i32; n + 1];
        let mut weight = vec![0i64; n_primary as usize + 1];
        let mut most = vec![1i64; n_primary as usize + 1];
        for i in 1..=n {
            let mut list: Vec<u32> = by_item[i]
                .iter()
                .map(|&o| {
                    let range = option_start[o as usize]..option_start[o as usize + 1] - 1;
                    range
                        .into_iter()
                        .find(|&p| nodes[p as usize].top == i as i32)
                        .unwrap_or(0)
                })
                .collect();
            // Every list sorted: covering stops at the first option too dear.
            list.sort_by_key(|&p| nodes[p as usize].cost);
            if i <= n_primary as usize {
                most[i] = by_item[i]
                    .iter()
                    .map(|&o| primaries[o as usize])
                    .max()
                    .unwrap_or(1)
                    .max(1);
            }
            len[i] = list.len() as i32;
            let mut up = i as u32;
            for &p in &list {
                nodes[up as usize].dlink = p;
                nodes[p as usize].ulink = up;
                up = p;
            }
            nodes[up as usize].dlink = i as u32;
            nodes[i].ulink = up;
        }
        // The common denominator of the shares: the lcm of the `m(i)`, or, if that is
        // large, one (each share then rounds down on its own).
        let mut denominator: i64 = 1;
        for &m in &most[1..] {
            let l = denominator / gcd(denominator, m) * m;
            if l > 1 << 16 {
                denominator = 0;
                break;
            }
            denominator = l;
        }
        for i in 1..=n_primary as usize {
            weight[i] = if denominator == 0 {
                -most[i]
            } else {
                denominator / most[i]
            };
        }
        let mut items = vec![(0u32, 0u32); n_primary as usize + 1];
        for i in 0..=n_primary {
            items[i as usize] = (
                if i == 0 { n_primary } else { i - 1 },
                if i == n_primary { 0 } else { i + 1 },
            );
        }
        Ok(Priced {
            items,
            nodes,
            len,
            n_primary,
            item_id,
            option_start,
            net,
            tax: tax as i64,
            weight,
            denominator: denominator.max(1),
            objective,
        })
    }

    /// A hash of what a search changes and must put back.
    pub(crate) fn fingerprint(&self) -> u64 {
        crate::solve::hash_of(&(&self.items, &self.nodes, &self.len))
    }

    fn option_of(&self, mut x: u32) -> OptionId {
        while self.nodes[x as usize].top > 0 {
            x -= 1;
        }
        OptionId(self.nodes[x as usize].top.unsigned_abs() - 1)
    }

    fn option_nodes(&self, o: OptionId) -> std::ops::Range<u32> {
        self.option_start[o.index()]..self.option_start[o.index() + 1] - 1
    }

    /// Hides the option of node `r` from every list but its own item's, except from
    /// the lists of items purified with its color (those are not looked at again).
    #[inline]
    fn hide(&mut self, r: u32, updates: &mut u64) {
        let mut q = r + 1;
        while q != r {
            let node = self.nodes[q as usize];
            if node.top <= 0 {
                q = node.ulink;
                continue;
            }
            if node.color >= 0 {
                self.nodes[node.ulink as usize].dlink = node.dlink;
                self.nodes[node.dlink as usize].ulink = node.ulink;
                self.len[node.top as usize] -= 1;
                *updates += 1;
            }
            q += 1;
        }
    }

    #[inline]
    fn unhide(&mut self, r: u32) {
        let mut q = r - 1;
        while q != r {
            let node = self.nodes[q as usize];
            if node.top <= 0 {
                q = node.dlink;
                continue;
            }
            if node.color >= 0 {
                self.nodes[node.ulink as usize].dlink = q;
                self.nodes[node.dlink as usize].ulink = q;
                self.len[node.top as usize] += 1;
            }
            q -= 1;
        }
    }

    /// Covers item `i`: out of the active list if primary, and every option through it
    /// that costs less than `thresh` hidden (DLX5: the others cannot be in any solution
    /// the search still wants below this node, and the list is sorted).
    fn cover(&mut self, i: u32, thresh: i64, updates: &mut u64) {
        if i <= self.n_primary {
            let (l, r) = self.items[i as usize];
            self.items[l as usize].1 = r;
            self.items[r as usize].0 = l;
            *updates += 1;
        }
        let mut r = self.nodes[i as usize].dlink;
        while r != i && self.nodes[r as usize].cost < thresh {
            self.hide(r, updates);
            r = self.nodes[r as usize].dlink;
        }
    }

    /// Undoes [`Priced::cover`] with the same threshold. The options are unhidden in
    /// the order they were hidden, as DLX5 does: they are disjoint rows of one list, so
    /// the order among them does not matter, only the reverse walk within each.
    fn uncover(&mut self, i: u32, thresh: i64) {
        let mut r = self.nodes[i as usize].dlink;
        while r != i && self.nodes[r as usize].cost < thresh {
            self.unhide(r);
            r = self.nodes[r as usize].dlink;
        }
        if i <= self.n_primary {
            let (l, r) = self.items[i as usize];
            self.items[l as usize].1 = i;
            self.items[r as usize].0 = i;
        }
    }

    /// Node `p` gives its secondary item a color: the options of other colors that
    /// cost less than `thresh` are hidden, and those of the same color marked as
    /// needing nothing more.
    fn purify(&mut self, p: u32, thresh: i64, updates: &mut u64) {
        let Node { top, color, .. } = self.nodes[p as usize];
        let i = top as u32;
        let mut r = self.nodes[i as usize].dlink;
        while r != i && self.nodes[r as usize].cost < thresh {
            if self.nodes[r as usize].color != color {
                self.hide(r, updates);
            } else if r != p {
                self.nodes[r as usize].color = -1;
            }
            r = self.nodes[r as usize].dlink;
        }
    }

    fn unpurify(&mut self, p: u32, thresh: i64) {
        let Node { top, color, .. } = self.nodes[p as usize];
        let i = top as u32;
        let mut r = self.nodes[i as usize].dlink;
        while r != i && self.nodes[r as usize].cost < thresh {
            if self.nodes[r as usize].color < 0 {
                self.nodes[r as usize].color = color;
            } else if r != p {
                self.unhide(r);
            }
            r = self.nodes[r as usize].dlink;
        }
    }

    /// Takes what node `q` of a chosen option asks: its item covered or purified (or
    /// nothing, when the item is purified with its color already).
    #[inline]
    fn take(&mut self, q: u32, thresh: i64, updates: &mut u64) {
        let node = self.nodes[q as usize];
        if node.color == 0 {
            self.cover(node.top as u32, thresh, updates);
        } else if node.color > 0 {
            self.purify(q, thresh, updates);
        }
    }

    #[inline]
    fn untake(&mut self, q: u32, thresh: i64) {
        let node = self.nodes[q as usize];
        if node.color == 0 {
            self.uncover(node.top as u32, thresh);
        } else if node.color > 0 {
            self.unpurify(q, thresh);
        }
    }

    /// Chooses node `x` (its item is covered already): takes the rest of its option.
    fn commit(&mut self, x: u32, thresh: i64, updates: &mut u64) {
        let mut q = x + 1;
        while q != x {
            let node = self.nodes[q as usize];
            if node.top <= 0 {
                q = node.ulink;
                continue;
            }
            self.take(q, thresh, updates);
            q += 1;
        }
    }

    fn uncommit(&mut self, x: u32, thresh: i64) {
        let mut q = x - 1;
        while q != x {
            let node = self.nodes[q as usize];
            if node.top <= 0 {
                q = node.dlink;
                continue;
            }
            self.untake(q, thresh);
            q -= 1;
        }
    }

    /// Takes every item of option `o` (forced, or a step to a part), hiding all.
    fn commit_range(&mut self, o: OptionId, updates: &mut u64) {
        for q in self.option_nodes(o) {
            self.take(q, i64::MAX, updates);
        }
    }

    fn uncommit_range(&mut self, o: OptionId) {
        for q in self.option_nodes(o).rev() {
            self.untake(q, i64::MAX);
        }
    }

    /// Commits the forced options (checking that they can be together) and the steps,
    /// runs `then`, and puts everything back.
    fn at_part<R>(
        &mut self,
        forced: &[OptionId],
        steps: &[Step],
        then: impl FnOnce(&mut Self, &[OptionId], i64) -> R,
    ) -> Result<R, Clash> {
        check_ids(self.option_start.len() - 1, forced, steps);
        #[cfg(debug_assertions)]
        let before = (self.nodes.clone(), self.items.clone());
        // Per item: the forced option that took it first, and the color it gave.
        let mut by: Vec<Option<(usize, u32)>> = vec![None; self.len.len()];
        let mut done = 0;
        let mut clash = None;
        let mut ignored = 0;
        let first_item = |s: &Self, o: OptionId| {
            s.option_nodes(o)
                .next()
                .map(|p| s.item_id[s.nodes[p as usize].top as usize - 1])
        };
        'forced: for (k, &o) in forced.iter().enumerate() {
            if let Some(c) = crate::solve::forced_twice(forced, k, first_item(self, o)) {
                clash = Some(c);
                break 'forced;
            }
            for q in self.option_nodes(o) {
                let Node { top, color, .. } = self.nodes[q as usize];
                let has = color as u32;
                // -1: purified by an earlier forced option, with this very color.
                if color >= 0
                    && let Some((j, had)) = by[top as usize]
                {
                    let kind = if top as u32 <= self.n_primary {
                        Some(crate::solve::ClashKind::Shared)
                    } else {
                        crate::solve::color_clash(had, has)
                    };
                    if let Some(kind) = kind {
                        clash = Some(Clash {
                            first: forced[j],
                            second: o,
                            item: self.item_id[top as usize - 1],
                            kind,
                        });
                        break 'forced;
                    }
                }
            }
            for q in self.option_nodes(o) {
                let Node { top, color, .. } = self.nodes[q as usize];
                by[top as usize].get_or_insert((k, color.unsigned_abs()));
            }
            self.commit_range(o, &mut ignored);
            done = k + 1;
        }
        let result = match clash {
            Some(c) => Err(c),
            None => {
                let mut prefix = forced.to_vec();
                let mut g = self.tax;
                for &o in forced {
                    g += self.net[o.index()];
                }
                for step in steps {
                    if let Step::Commit(o) = *step {
                        self.commit_range(o, &mut ignored);
                        prefix.push(o);
                        g += self.net[o.index()];
                    }
                }
                let r = then(self, &prefix, g);
                for step in steps.iter().rev() {
                    if let Step::Commit(o) = *step {
                        self.uncommit_range(o);
                    }
                }
                Ok(r)
            }
        };
        for &o in forced[..done].iter().rev() {
            self.uncommit_range(o);
        }
        #[cfg(debug_assertions)]
        debug_assert!(
            (self.nodes.clone(), self.items.clone()) == before,
            "a priced search left the structure changed"
        );
        result
    }

    /// How the search branches at the end of `steps`: the options of the item it
    /// chooses there, in the order it tries them. `None` when every primary item is
    /// covered there.
    pub(crate) fn branch(
        &mut self,
        forced: &[OptionId],
        steps: &[Step],
    ) -> Result<Option<(bool, Vec<OptionId>)>, Clash> {
        self.at_part(forced, steps, |s, _, _| {
            if s.items[0].1 == 0 {
                return None;
            }
            let (item, _, _) = s.choose(None);
            let mut options = Vec::new();
            let mut p = s.nodes[item as usize].dlink;
            while p != item {
                options.push(s.option_of(p));
                p = s.nodes[p as usize].dlink;
            }
            Some((false, options))
        })
    }

    /// The search on the part of the tree that `steps` lead to, keeping the `best`
    /// cheapest solutions (every optimal one with `all`).
    pub(crate) fn solve_part(
        &mut self,
        forced: &[OptionId],
        steps: &[Step],
        wanted: Wanted,
        config: &SearchConfig,
        shared: Option<(&Incumbent, usize)>,
        on_improve: &mut dyn FnMut(i64, &[OptionId]),
    ) -> Result<Optimum, Clash> {
        let start = Instant::now();
        // The thresholds make the tree depend on the best so far, which on threads
        // comes from other parts.
        debug_assert!(wanted.exact || shared.is_none(), "a shared search is exact");
        let wanted = Wanted {
            best: wanted.best.max(1),
            ..wanted
        };
        self.at_part(forced, steps, |s, prefix, g| {
            s.run(prefix, g, wanted, config, shared, on_improve, start)
        })
    }

    /// The item to branch on, how many options it has (0: the node is a dead end),
    /// and the bound of the module docs.
    ///
    /// With `usable = None` (the exact branching): the item with the fewest options,
    /// then the largest first net cost, then the first. With `Some(u)`, only options of
    /// net cost below `u` count, as in DLX5: an item with none is a dead end, and the
    /// options of each item are counted down its sorted list as long as that can beat
    /// the best count so far and for at most [`COUNTED`] of them (then the item's
    /// length stands for the count).
    #[inline]
    fn choose(&self, usable: Option<i64>) -> (u32, i32, i64) {
        let (mut best, mut len, mut dear) = (0u32, i32::MAX, 0i64);
        let (mut most, mut shares) = (0i64, 0i128);
        let mut k = self.items[0].1;
        while k != 0 {
            let t = self.len[k as usize];
            let head = self.nodes[k as usize].dlink;
            let first = self.nodes[head as usize].cost;
            if t == 0 || usable.is_some_and(|u| first >= u) {
                return (k, 0, 0);
            }
            most = most.max(first);
            let w = self.weight[k as usize];
            shares += if w > 0 {
                i128::from(first) * i128::from(w)
            } else {
                i128::from(first / -w)
            };
            let count = match usable {
                None => t,
                Some(u) => {
                    let mut count = 1;
                    let mut q = self.nodes[head as usize].dlink;
                    while q != k && self.nodes[q as usize].cost < u {
                        if count >= len {
                            // More than the best count so far: no change.
                            count = len + 1;
                            break;
                        }
                        if count >= COUNTED {
                            count = t;
                            break;
                        }
                        count += 1;
                        q = self.nodes[q as usize].dlink;
                    }
                    count
                }
            };
            if count < len || (count == len && first > dear) {
                (best, len, dear) = (k, count, first);
            }
            k = self.items[k as usize].1;
        }
        let d = i128::from(self.denominator);
        let shares = ((shares + d - 1) / d).min(i128::from(i64::MAX)) as i64;
        (best, len, most.max(shares))
    }

    /// The branch-and-bound loop, with `prefix` committed and `g0` its cost.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        prefix: &[OptionId],
        g0: i64,
        Wanted { all, best, exact }: Wanted,
        config: &SearchConfig,
        shared: Option<(&Incumbent, usize)>,
        on_improve: &mut dyn FnMut(i64, &[OptionId]),
        start: Instant,
    ) -> Optimum {
        let mut stats = Stats::default();
        let mut kept = Kept {
            list: Vec::new(),
            best,
            all,
            cut: None,
        };
        let mut stack: Vec<Level> = Vec::new();
        let node_limit = config.node_limit.unwrap_or(u64::MAX);
        let sign = self.objective.sign();
        let mut end = End::Exhausted;
        let mut g = g0;
        // Whether a subtree of least cost `total` cannot be wanted.
        let hopeless = |kept: &Kept, total: i64| -> bool {
            if shared.is_some_and(|(incumbent, part)| incumbent.prunes(total, part, all)) {
                return true;
            }
            match kept.cutoff() {
                Some((c, ties)) => total > c || (total == c && !ties),
                None => false,
            }
        };
        // On threads, the parts hide every option and count every option, so that the
        // tree does not depend on what other parts found (module docs, "Thresholds and
        // branching"). The least cost a solution must stay below to be kept (ties
        // included with `all`), and the net cost from which an option cannot be in such
        // a solution below a node of cost `g`.
        let limit = |kept: &Kept| -> i64 {
            match kept.cutoff() {
                None => i64::MAX,
                Some((c, ties)) => c.saturating_add(i64::from(ties)),
            }
        };
        let threshold = |kept: &Kept, g: i64| -> i64 {
            if exact {
                i64::MAX
            } else {
                limit(kept).saturating_sub(g)
            }
        };
        // `enter`: a new node to examine; else the top level tries its next option.
        let mut enter = true;
        'search: loop {
            if enter {
                enter = false;
                if let Some(limit) = count_node(&mut stats, node_limit, config, start) {
                    end = End::Cut(limit);
                    break 'search;
                }
                if self.items[0].1 == 0 {
                    if !hopeless(&kept, g) {
                        let mut sol = prefix.to_vec();
                        sol.extend(stack.iter().map(|l| self.option_of(l.x)));
                        let improves = kept.least().is_none_or(|b| g < b);
                        stats.solutions += 1;
                        // Every kept solution counts for the k-th least value of the
                        // k best on threads; the optimum takes only improvements.
                        if let Some((incumbent, part)) = shared {
                            incumbent.offer(g, part);
                        }
                        if improves {
                            on_improve(sign * g, &sol);
                        }
                        kept.keep(g, sol);
                    }
                } else {
                    // One threshold for what `choose` counts and what covering the
                    // chosen item hides: options of net cost below it (every option in
                    // an exact search).
                    let t0 = threshold(&kept, g);
                    let (item, len, bound) = self.choose((!exact).then_some(t0));
                    let x = self.nodes[item as usize].dlink;
                    let c = self.nodes[x as usize].cost;
                    if len > 0
                        && !hopeless(&kept, g.saturating_add(bound))
                        && !hopeless(&kept, g + c)
                    {
                        // The options of `item` left linked cost too much to be tried
                        // here; those of the other items of `x`'s option, too much to
                        // be chosen below it. (DLX5 covers `item` with the threshold
                        // of `x`; then a later, dearer option of `item` that is still
                        // worth trying could be left linked, and covering its items
                        // would unlink it from the list being walked.)
                        let t = threshold(&kept, g + c);
                        self.cover(item, t0, &mut stats.updates);
                        self.commit(x, t, &mut stats.updates);
                        stack.push(Level { item, x, g, t0, t });
                        g += c;
                        enter = true;
                        continue 'search;
                    }
                }
            }
            // Back up: undo the top level's option and try the next one.
            let Some(level) = stack.last().copied() else {
                break 'search;
            };
            self.uncommit(level.x, level.t);
            g = level.g;
            let x = self.nodes[level.x as usize].dlink;
            if x != level.item {
                let c = self.nodes[x as usize].cost;
                // The list is sorted: once one option cannot be wanted, none after it.
                if !hopeless(&kept, g + c) {
                    let t = threshold(&kept, g + c);
                    if let Some(top) = stack.last_mut() {
                        (top.x, top.t) = (x, t);
                    }
                    self.commit(x, t, &mut stats.updates);
                    g += c;
                    enter = true;
                    continue 'search;
                }
            }
            self.uncover(level.item, level.t0);
            stack.pop();
        }
        // Unwind a search cut short.
        while let Some(level) = stack.pop() {
            self.uncommit(level.x, level.t);
            self.uncover(level.item, level.t0);
        }
        kept.list.sort_by_key(|(c, _)| *c);
        stats.elapsed = start.elapsed();
        Optimum {
            value: kept.least().map(|b| sign * b),
            values: kept.list.iter().map(|(c, _)| sign * c).collect(),
            solutions: kept.list.into_iter().map(|(_, s)| s).collect(),
            optimal: end == End::Exhausted,
            stats,
            end,
        }
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}
