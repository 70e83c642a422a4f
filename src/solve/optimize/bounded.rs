//! Branch and bound with general multiplicities: primary items covered between `lo`
//! and `hi` times (`hi` possibly unbounded), secondary items with or without colors.
//! The engine of every optimizing search that `priced` (exactly-once items) and
//! `Linked` (exactly-once and `1..` items, no colors) cannot take.
//!
//! # State
//!
//! Each item has a fixed list of the options that cover it, and each option a counter
//! of the reasons it is *blocked* (chosen, excluded by an earlier sibling, in the way of
//! an item that reached its upper bound, of a secondary item claimed outright or given
//! another color). An option is *live* when nothing blocks it; every item counts its
//! live options. A counter, rather than dancing links, because one option is blocked
//! for several reasons at once and the reasons come and go in stack order; undoing a
//! reason walks the same fixed list the doing walked, so nothing depends on what else
//! is blocked meanwhile.
//!
//! Choosing an option blocks it (it is in the solution once) and adds one to the count
//! of each of its items. A primary item whose count reaches `hi` blocks the rest of its
//! list. A secondary item's first option claims it, as in Algorithm C: without a color
//! it blocks every other option of the item's list; with color `c` it blocks those that
//! give the item no color or another one.
//!
//! # Branching
//!
//! A primary item is *needy* while its count is below `lo`, needing `lo - count` more
//! options. At each node the needy item with the fewest live options is chosen (first in
//! item order on ties); a needy item with fewer live options than it needs makes a dead
//! end. The options of the chosen item are tried in order of promise (most needy items
//! first for `count`, cheapest first for `cost`), and each one tried is *excluded*
//! (blocked) while its later siblings are tried: the subtrees are the solutions
//! "containing option 1", "not 1 but 2", ..., so no set of options is reached twice.
//! The search stops, with a solution, as soon as no item is needy.
//!
//! # Why stopping when no item is needy finds the optimum
//!
//! Feasibility is an interval in each item: the upper bounds and the secondary items
//! only forbid options, so they hold for every subset of a solution, while the lower
//! bounds hold for every superset (within the upper bounds). So if `C ⊆ S` are both
//! solutions, so is every set between them, and a solution is *minimal* (no proper
//! subset is a solution) as soon as no single option can be removed from it.
//!
//! The search reaches every minimal solution `S` (containing the forced options): at a
//! node whose chosen options are in `S` and whose blocked options are not (its excluded
//! options are not in `S` by the path's choice; an option blocked by an item at `hi` or
//! by a secondary item's claim cannot be in `S`, whose counts and colors are those of a
//! solution), the item chosen is needy, so `S` has an option that covers it and is not
//! chosen yet; it is live, so the search tries it, with the earlier siblings (not in `S`)
//! excluded. When no item is needy, the chosen options are a solution inside `S`, which
//! is `S` by minimality.
//!
//! Every solution `S` contains a minimal one `C`, and each option of `S \ C` covers only
//! primary items with `lo < hi` (it covers each of its items `i` on top of `C`'s
//! `count_C(i) >= lo` without going above `hi`). So when every option whose cost (as
//! minimized) is negative covers some item with `lo == hi` (an exactly-once item, say),
//! `cost(C) <= cost(S)`, and the optimum is reached. Otherwise the optimizer is refused
//! ([`Refused::RewardingCost`]): such an option could be added to a solution to improve
//! it, which this search does not model. The count objective has unit costs and is never
//! refused.
//!
//! # Bounds (why they are admissible)
//!
//! A subtree is pruned when the cost so far plus a lower bound cannot beat the best
//! solution (cannot tie it, with `all`). The bound need only hold for the completions
//! `T` (the options a minimal solution `S` adds to the node's chosen ones) of the
//! minimal solutions below the node, since those are what the search must reach. Each
//! option of such a `T` is live (above) and covers some needy item: by minimality,
//! removing it from `S` leaves an item `i` below `lo`, so `count_S(i) = lo(i)`, and the
//! option is not chosen yet, so `i`'s count at the node is at most `lo(i) - 1`.
//!
//! - Count: a needy item not yet marked is counted with its need, then every item that
//!   shares a live option with it is marked; repeat. Two counted items share no live
//!   option, and each counted item `i` needs `need(i)` distinct options of its list, so
//!   a completion has at least the sum of the needs counted. The largest need alone is a
//!   bound too, and so is the total need divided by the most items with `lo > 0` that
//!   one option covers (rounded up): each option of a completion lowers the total need
//!   by one per needy item it covers. The largest of the three is used. On a double
//!   cover (`: 2..`) of a 9x9 board by plus shapes, the third bound took the search
//!   from 123.6M nodes and 57 s to 39.8M nodes and 18.5 s; counting the needy items of
//!   the live options instead of the items with `lo > 0` gave 39.4M nodes, but took
//!   53 s, since it walks every live option.
//! - Cost: split each live option's cost among its needy items (the *charges*) so that
//!   they add up to at most its cost; then `cost(T)` is at least the sum over needy
//!   items `i` of the charges of the options of `T` in `i`'s list, which are at least
//!   `need(i)` distinct live options. The least such sum is that of the `need(i)` least
//!   charges of the list, plus every negative charge among the rest (a set of at least
//!   `need` charges adds up to at least the `need` least plus the negative ones beyond
//!   them). The splits are those of `Linked`: the whole cost on the `j`-th needy item for
//!   `j = 0..4` (the last one if the option has fewer) and `floor(cost / k)` on each of
//!   `k`; the largest of the five bounds is used. They hold whatever the signs.
//!
//! # Every optimal solution
//!
//! With `all`, an optimal solution `S` contains a minimal `C` that the search reaches, of
//! the same cost (`cost(C) <= cost(S)` above, and `S` is optimal), so every option of
//! `S \ C` costs 0 (the costs of options that can be added are never negative, above)
//! and covers only items with `lo < hi`. So each solution of the best value that the
//! search reaches is listed together with every extension by such free options that
//! keeps the bounds and colors, and a set of the sorted solutions keeps one that several
//! reached solutions extend to from being listed twice.
//!
//! # Threads
//!
//! The branching that module `tree` reports for a part, and the `Step`s of a part, are
//! those of `Linked` at an at-least-once item (each sibling excludes the earlier ones),
//! so the threads module splits this tree the same way and gets the sequential answer.

use crate::clock::Instant;
use std::collections::HashSet;

use super::tree::{Extension, Tree, list_with_free};
use super::{CHARGES, Objective, Refused};
use crate::problem::{ItemId, ItemKind, OptionId, Problem};
use crate::solve::{Clash, ClashKind, Limit, SearchConfig, Unsupported, color_clash, forced_twice};

/// No upper bound.
const UNBOUNDED: u32 = u32::MAX;

/// Branch and bound with general multiplicities and colors (module documentation).
#[derive(Clone, Debug)]
pub(crate) struct Bounded {
    objective: Objective,
    /// Per item: whether it is primary, and its bounds (`hi` [`UNBOUNDED`] when absent;
    /// secondary items have `0..1`, which only their claim uses).
    primary: Vec<bool>,
    lo: Vec<u32>,
    hi: Vec<u32>,
    /// Per item: the options that cover it, with the color they give it (0: none).
    list: Vec<Vec<(u32, u32)>>,
    /// Per option: its items with their colors (0: none).
    entries: Vec<Vec<(u32, u32)>>,
    /// Per option: its cost as minimized (negated for `maximize`; 1 for count).
    cost: Vec<i64>,
    /// The primary items with `lo > 0`: the only ones that can be needy.
    wanted: Vec<u32>,
    /// The options that can be added to a solution without changing its value: cost 0
    /// (as minimized), a primary item, and `lo < hi` on every primary item.
    free: Vec<u32>,
    /// Per option: how many reasons block it.
    blocked: Vec<u32>,
    /// Per item: how many options of its list are live.
    live: Vec<u32>,
    /// Per item: how many chosen options cover it.
    count: Vec<u32>,
    /// How many primary items are needy.
    needy: u32,
    /// The most items with `lo > 0` one option covers (at least 1): the most by which
    /// one option lowers the total need.
    widest: i64,
    /// Stamps for the count bound, per item.
    stamp: Vec<u64>,
    epoch: u64,
    /// Scratch for the cost bound: one list of charges per split.
    charges: Vec<Vec<i64>>,
}

impl Bounded {
    /// Builds the engine for `problem` and `objective`.
    ///
    /// Refuses problems that fail [`Problem::validate`], costs whose absolute values
    /// overflow `i64`, and costs that reward adding an option to a solution (module
    /// documentation).
    pub(crate) fn new(problem: &Problem, objective: Objective) -> Result<Bounded, Refused> {
        problem.validate().map_err(Unsupported::from)?;
        let mut total: i64 = 0;
        for opt in &problem.options {
            let c = opt.cost.unwrap_or(0);
            total = total
                .checked_add(c.checked_abs().ok_or(Refused::CostOverflow)?)
                .ok_or(Refused::CostOverflow)?;
        }
        let n = problem.items.len();
        let mut primary = vec![false; n];
        let mut lo = vec![0; n];
        let mut hi = vec![1; n];
        for (i, item) in problem.items.iter().enumerate() {
            if let ItemKind::Primary { bounds } = item.kind {
                primary[i] = true;
                lo[i] = bounds.lo;
                hi[i] = bounds.hi.unwrap_or(UNBOUNDED);
            }
        }
        let mut list = vec![Vec::new(); n];
        let mut entries = Vec::with_capacity(problem.options.len());
        for (k, opt) in problem.options.iter().enumerate() {
            let e: Vec<(u32, u32)> = opt
                .entries
                .iter()
                .map(|e| (e.item.0, e.color.map_or(0, |c| c.number())))
                .collect();
            for &(i, c) in &e {
                list[i as usize].push((k as u32, c));
            }
            entries.push(e);
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
        // An option can be on top of a minimal solution only when each of its primary
        // items has room above `lo`; one without a primary item is never chosen.
        let addable = |e: &[(u32, u32)]| {
            e.iter().any(|&(i, _)| primary[i as usize])
                && e.iter()
                    .all(|&(i, _)| !primary[i as usize] || lo[i as usize] < hi[i as usize])
        };
        if objective != Objective::MinimizeCount
            && let Some(k) = (0..entries.len()).find(|&k| cost[k] < 0 && addable(&entries[k]))
        {
            let max = objective == Objective::MaximizeCost;
            let i = entries[k]
                .iter()
                .map(|&(i, _)| i as usize)
                .find(|&i| primary[i])
                .expect("an addable option has a primary item");
            let ItemKind::Primary { bounds } = problem.items[i].kind else {
                unreachable!("the item is primary")
            };
            return Err(Refused::RewardingCost {
                id: OptionId(k as u32),
                option: problem.option_label(OptionId(k as u32)),
                cost: problem.options.get(k).cost.unwrap_or(0),
                item: problem.items[i].name.clone(),
                bounds,
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
        let free = (0..entries.len())
            .filter(|&k| cost[k] == 0 && addable(&entries[k]))
            .map(|k| k as u32)
            .collect();
        let wanted = (0..n as u32)
            .filter(|&i| primary[i as usize] && lo[i as usize] > 0)
            .collect::<Vec<_>>();
        let live = list.iter().map(|l| l.len() as u32).collect();
        let widest = entries
            .iter()
            .map(|e| {
                e.iter()
                    .filter(|&&(i, _)| primary[i as usize] && lo[i as usize] > 0)
                    .count() as i64
            })
            .max()
            .unwrap_or(0)
            .max(1);
        let mut b = Bounded {
            objective,
            needy: wanted.len() as u32,
            wanted,
            widest,
            free,
            blocked: vec![0; entries.len()],
            live,
            count: vec![0; n],
            stamp: vec![0; n],
            epoch: 0,
            charges: vec![Vec::new(); CHARGES + 1],
            primary,
            lo,
            hi,
            list,
            entries,
            cost,
        };
        // An item that may not be covered (`hi == 0`) blocks its whole list for good.
        for i in 0..n {
            if b.primary[i] && b.hi[i] == 0 {
                for k in 0..b.list[i].len() {
                    let o = b.list[i][k].0;
                    b.block(o, &mut 0);
                }
            }
        }
        Ok(b)
    }

    /// One more reason blocks option `o`.
    #[inline]
    fn block(&mut self, o: u32, updates: &mut u64) {
        let b = &mut self.blocked[o as usize];
        *b += 1;
        if *b == 1 {
            for &(i, _) in &self.entries[o as usize] {
                self.live[i as usize] -= 1;
            }
            *updates += 1;
        }
    }

    /// Undoes [`Bounded::block`].
    #[inline]
    fn unblock(&mut self, o: u32) {
        let b = &mut self.blocked[o as usize];
        *b -= 1;
        if *b == 0 {
            for &(i, _) in &self.entries[o as usize] {
                self.live[i as usize] += 1;
            }
        }
    }

    /// Whether item `i`, reaching its upper bound by option `o` (primary) or claimed by
    /// `o` with color `c` (secondary; 0: no color), blocks `p`, an option of its list
    /// that gives it color `pc`.
    #[inline]
    fn claims(&self, i: usize, o: u32, c: u32, p: u32, pc: u32) -> bool {
        p != o && (self.primary[i] || c == 0 || pc != c)
    }

    /// Chooses option `o`: blocks it, counts it on its items, and lets an item that
    /// reaches its upper bound, or a secondary item it claims first, block its list.
    fn commit(&mut self, o: u32, updates: &mut u64) {
        self.block(o, updates);
        for k in 0..self.entries[o as usize].len() {
            let (i, c) = self.entries[o as usize][k];
            let i = i as usize;
            self.count[i] += 1;
            if self.primary[i] && self.count[i] == self.lo[i] {
                self.needy -= 1;
            }
            // A secondary item is claimed by its first option (`hi` is 1 for it).
            if self.count[i] == self.hi[i] {
                for j in 0..self.list[i].len() {
                    let (p, pc) = self.list[i][j];
                    if self.claims(i, o, c, p, pc) {
                        self.block(p, updates);
                    }
                }
            }
        }
    }

    /// Undoes [`Bounded::commit`] (the last option committed and not yet undone).
    fn uncommit(&mut self, o: u32) {
        for k in (0..self.entries[o as usize].len()).rev() {
            let (i, c) = self.entries[o as usize][k];
            let i = i as usize;
            if self.count[i] == self.hi[i] {
                for j in 0..self.list[i].len() {
                    let (p, pc) = self.list[i][j];
                    if self.claims(i, o, c, p, pc) {
                        self.unblock(p);
                    }
                }
            }
            if self.primary[i] && self.count[i] == self.lo[i] {
                self.needy += 1;
            }
            self.count[i] -= 1;
        }
        self.unblock(o);
    }

    /// Whether forced option `forced[k]` clashes with those before it (committed), as
    /// [`crate::solve::reduce::reduce`] says it: forced twice, a primary item covered
    /// more often than its upper bound, a secondary item claimed twice or given two
    /// colors.
    fn check_forced(&self, forced: &[OptionId], k: usize) -> Option<Clash> {
        let o = forced[k];
        let entries = &self.entries[o.index()];
        let first = entries.first().map(|&(i, _)| ItemId(i));
        if let Some(c) = forced_twice(forced, k, first) {
            return Some(c);
        }
        entries.iter().find_map(|&(i, c)| {
            let iu = i as usize;
            let room = if self.primary[iu] {
                self.count[iu] < self.hi[iu]
            } else {
                self.count[iu] == 0
            };
            if room {
                return None;
            }
            // The first earlier forced option that covers the item, with its color.
            let by = forced[..k].iter().find_map(|&p| {
                self.entries[p.index()]
                    .iter()
                    .find(|&&(j, _)| j == i)
                    .map(|&(_, pc)| (p, pc))
            });
            let kind = if !self.primary[iu] {
                color_clash(by.map_or(0, |(_, pc)| pc), c)?
            } else if self.lo[iu] == 1 && self.hi[iu] == 1 {
                // As the engines say it: an exactly-once item is shared.
                ClashKind::Shared
            } else {
                ClashKind::Multiplicity
            };
            let first = match by {
                Some((p, _)) if self.hi[iu] != 0 || !self.primary[iu] => p,
                _ => o,
            };
            Some(Clash {
                first,
                second: o,
                item: ItemId(i),
                kind,
            })
        })
    }
}

impl Bounded {
    /// The needy item with the fewest live options (first in item order on ties), or
    /// `None` at a dead end: some needy item has fewer live options than it needs.
    fn choose(&self) -> Option<u32> {
        let mut best = None;
        let mut len = u32::MAX;
        for &i in &self.wanted {
            let iu = i as usize;
            if self.count[iu] >= self.lo[iu] {
                continue;
            }
            let live = self.live[iu];
            if live < self.lo[iu] - self.count[iu] {
                return None;
            }
            if live < len {
                best = Some(i);
                len = live;
            }
        }
        best
    }

    /// Lays the live options of item `i` out at the end of `cand`, in the order the
    /// search tries them (`keyed` is scratch): for count, the most needy items covered
    /// first; for cost, the cheapest first; in list order on ties.
    fn candidates(&self, item: u32, cand: &mut Vec<u32>, keyed: &mut Vec<(i64, u32)>) {
        keyed.clear();
        for &(o, _) in &self.list[item as usize] {
            if self.blocked[o as usize] != 0 {
                continue;
            }
            let key = match self.objective {
                Objective::MinimizeCount => -(self.needy_items(o).count() as i64),
                _ => self.cost[o as usize],
            };
            keyed.push((key, o));
        }
        keyed.sort_by_key(|&(key, _)| key);
        cand.extend(keyed.iter().map(|&(_, o)| o));
    }

    /// The needy items of option `o`, in its order.
    fn needy_items(&self, o: u32) -> impl Iterator<Item = u32> + '_ {
        self.entries[o as usize]
            .iter()
            .map(|&(i, _)| i)
            .filter(|&i| self.primary[i as usize] && self.count[i as usize] < self.lo[i as usize])
    }

    /// A lower bound on what the options a minimal solution still adds cost (module
    /// documentation).
    fn lower_bound(&mut self) -> i64 {
        match self.objective {
            Objective::MinimizeCount => self.count_bound(),
            _ => self.cost_bound(),
        }
    }

    /// The largest of three count bounds: the seeds' with needs, the largest need, and
    /// the total need over the most needy items a live option covers.
    fn count_bound(&mut self) -> i64 {
        self.epoch += 1;
        let marked = self.epoch;
        let (mut seeds, mut most) = (0i64, 0i64);
        let mut total = 0i64;
        for k in 0..self.wanted.len() {
            let i = self.wanted[k] as usize;
            if self.count[i] >= self.lo[i] {
                continue;
            }
            let need = i64::from(self.lo[i] - self.count[i]);
            most = most.max(need);
            total += need;
            if self.stamp[i] == marked {
                continue;
            }
            seeds += need;
            self.stamp[i] = marked;
            for &(o, _) in &self.list[i] {
                if self.blocked[o as usize] == 0 {
                    for &(t, _) in &self.entries[o as usize] {
                        self.stamp[t as usize] = marked;
                    }
                }
            }
        }
        // An option lowers the total need by one per needy item it covers, at most
        // `widest`.
        let widest = self.widest;
        seeds.max(most).max((total + widest - 1) / widest)
    }

    /// The largest of the charge bounds of the module documentation.
    fn cost_bound(&mut self) -> i64 {
        let mut charges = std::mem::take(&mut self.charges);
        let mut sums = [0i64; CHARGES + 1];
        for &i in &self.wanted {
            let iu = i as usize;
            if self.count[iu] >= self.lo[iu] {
                continue;
            }
            let need = (self.lo[iu] - self.count[iu]) as usize;
            charges.iter_mut().for_each(Vec::clear);
            for &(o, _) in &self.list[iu] {
                if self.blocked[o as usize] != 0 {
                    continue;
                }
                let c = self.cost[o as usize];
                let (mut size, mut at) = (0usize, 0usize);
                for t in self.needy_items(o) {
                    if t == i {
                        at = size;
                    }
                    size += 1;
                }
                for (j, list) in charges[..CHARGES].iter_mut().enumerate() {
                    list.push(if at == j.min(size - 1) { c } else { 0 });
                }
                charges[CHARGES].push(c.div_euclid(size as i64));
            }
            // A needy item with too few options makes a dead end anyway.
            if charges[0].len() < need {
                continue;
            }
            for (s, list) in sums.iter_mut().zip(charges.iter_mut()) {
                list.sort_unstable();
                let (least, rest) = list.split_at(need);
                *s += least.iter().sum::<i64>() + rest.iter().filter(|&&c| c < 0).sum::<i64>();
            }
        }
        self.charges = charges;
        sums.into_iter().max().unwrap_or(0)
    }
}

/// The free options that can be added to one solution (see [`Bounded::free`]), with
/// what the solution and the options added so far do to each item.
struct Free<'a> {
    engine: &'a Bounded,
    /// The free options not in the solution.
    addable: Vec<u32>,
    /// Per item: how many options cover it.
    times: Vec<u32>,
    /// Per secondary item: the color it was given (0: claimed outright).
    paint: Vec<u32>,
}

impl Extension for Free<'_> {
    fn len(&self) -> usize {
        self.addable.len()
    }

    fn option(&self, k: usize) -> OptionId {
        OptionId(self.addable[k])
    }

    /// Keeps the upper bounds and the secondary items' claims.
    fn fits(&self, k: usize) -> bool {
        let e = self.engine;
        e.entries[self.addable[k] as usize].iter().all(|&(i, c)| {
            let iu = i as usize;
            if e.primary[iu] {
                self.times[iu] < e.hi[iu]
            } else {
                self.times[iu] == 0 || (c != 0 && self.paint[iu] == c)
            }
        })
    }

    fn add(&mut self, k: usize) {
        for &(i, c) in &self.engine.entries[self.addable[k] as usize] {
            self.times[i as usize] += 1;
            self.paint[i as usize] = c;
        }
    }

    /// A secondary item it shares keeps the color, which is the same.
    fn remove(&mut self, k: usize) {
        for &(i, _) in &self.engine.entries[self.addable[k] as usize] {
            self.times[i as usize] -= 1;
        }
    }
}

/// A candidate is an option's number; every tried option is excluded from its later
/// siblings, and a level puts nothing out of the way (the counters do).
impl Tree for Bounded {
    fn objective(&self) -> Objective {
        self.objective
    }

    fn options(&self) -> usize {
        self.entries.len()
    }

    #[inline]
    fn cost(&self, o: OptionId) -> i64 {
        self.cost[o.index()]
    }

    #[inline]
    fn option(&self, x: u32) -> OptionId {
        OptionId(x)
    }

    #[inline]
    fn solved(&self) -> bool {
        self.needy == 0
    }

    #[inline]
    fn choose(&mut self) -> Option<u32> {
        Bounded::choose(self)
    }

    #[inline]
    fn lower_bound(&mut self) -> i64 {
        Bounded::lower_bound(self)
    }

    #[inline]
    fn open(
        &mut self,
        item: u32,
        cand: &mut Vec<u32>,
        keyed: &mut Vec<(i64, u32)>,
        _updates: &mut u64,
    ) {
        self.candidates(item, cand, keyed);
    }

    #[inline]
    fn close(&mut self, _item: u32) {}

    #[inline]
    fn excludes(&self, _item: u32) -> bool {
        true
    }

    #[inline]
    fn commit(&mut self, _item: u32, o: OptionId, updates: &mut u64) {
        Bounded::commit(self, o.0, updates);
    }

    #[inline]
    fn uncommit(&mut self, _item: u32, o: OptionId) {
        Bounded::uncommit(self, o.0);
    }

    fn force(&mut self, o: OptionId, updates: &mut u64) {
        Bounded::commit(self, o.0, updates);
    }

    fn unforce(&mut self, o: OptionId) {
        Bounded::uncommit(self, o.0);
    }

    #[inline]
    fn exclude(&mut self, o: OptionId, updates: &mut u64) {
        self.block(o.0, updates);
    }

    #[inline]
    fn include(&mut self, o: OptionId) {
        self.unblock(o.0);
    }

    fn check_forced(&self, forced: &[OptionId], k: usize) -> Option<Clash> {
        Bounded::check_forced(self, forced, k)
    }

    /// The blocking counters, the live and cover counts.
    fn structure_fingerprint(&self) -> u64 {
        crate::solve::hash_of(&(&self.blocked, &self.live, &self.count, self.needy))
    }

    fn has_free(&self) -> bool {
        !self.free.is_empty()
    }

    /// Lists `sol` with every extension by free options that keep the upper bounds and
    /// the secondary items' claims.
    fn push_with_free(
        &self,
        sol: Vec<OptionId>,
        seen: &mut HashSet<Vec<OptionId>>,
        solutions: &mut Vec<Vec<OptionId>>,
        listed: &mut u128,
        config: &SearchConfig,
        start: Instant,
    ) -> Result<(), Limit> {
        // What the solution does to each item: its count, and the color of a secondary
        // item (0: claimed outright).
        let n = self.count.len();
        let mut times = vec![0u32; n];
        let mut paint = vec![0u32; n];
        for o in &sol {
            for &(i, c) in &self.entries[o.index()] {
                times[i as usize] += 1;
                paint[i as usize] = c;
            }
        }
        let addable: Vec<u32> = self
            .free
            .iter()
            .copied()
            .filter(|&o| !sol.contains(&OptionId(o)))
            .collect();
        let mut free = Free {
            engine: self,
            addable,
            times,
            paint,
        };
        list_with_free(sol, &mut free, seen, solutions, listed, config, start)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tree::solve_part;
    use super::*;
    use crate::problem::{Bounds, ProblemBuilder};

    /// The whole search of `e` with `forced`, one thread, no limit.
    fn search(
        e: &mut Bounded,
        forced: &[OptionId],
        all: bool,
    ) -> Result<crate::solve::Optimum, Clash> {
        solve_part(
            e,
            forced,
            &[],
            all,
            &SearchConfig::default(),
            None,
            &mut |_, _| {},
        )
    }

    /// Items `a : 2..3`, `b : 0..1`, `c` (exactly once), secondary `s`; options with
    /// colors on `s` and costs.
    fn small() -> Problem {
        let mut b = ProblemBuilder::new();
        b.primary_bounded("a", Bounds { lo: 2, hi: Some(3) });
        b.primary_bounded("b", Bounds { lo: 0, hi: Some(1) });
        b.primary(["c"]);
        b.secondary(["s"]);
        b.option_with(Some("o0".into()), ["a", "s:r"], Some(5));
        b.option_with(Some("o1".into()), ["a", "b"], Some(1));
        b.option_with(Some("o2".into()), ["a", "s:g"], Some(3));
        b.option_with(Some("o3".into()), ["a", "c", "s:r"], Some(2));
        b.option_with(Some("o4".into()), ["b", "c", "s"], Some(0));
        b.build()
    }

    /// Every item's live count is the number of unblocked options of its list.
    fn consistent(e: &Bounded) {
        for (i, l) in e.list.iter().enumerate() {
            let live = l
                .iter()
                .filter(|&&(o, _)| e.blocked[o as usize] == 0)
                .count();
            assert_eq!(e.live[i] as usize, live, "item {i}");
        }
    }

    #[test]
    fn commits_block_by_bounds_and_colors_and_undo_exactly() {
        let mut e = Bounded::new(&small(), Objective::MinimizeCost).unwrap();
        let pristine = e.structure_fingerprint();
        let mut updates = 0;
        // o0 gives `s` red: o2 (green) and o4 (no color) are blocked, o3 (red) is not.
        e.commit(0, &mut updates);
        consistent(&e);
        assert_eq!(e.blocked[..], [1, 0, 1, 0, 1]);
        // o3 covers `a` a second time (`a` is satisfied) and `c` (at its bound).
        e.commit(3, &mut updates);
        consistent(&e);
        assert_eq!(e.needy, 0);
        // o1 brings `a` to 3, its upper bound; `b` reaches 1: nothing live is left.
        e.commit(1, &mut updates);
        consistent(&e);
        assert!(e.blocked.iter().all(|&b| b > 0));
        for o in [1, 3, 0] {
            e.uncommit(o);
            consistent(&e);
        }
        assert_eq!(e.structure_fingerprint(), pristine);
    }

    #[test]
    fn the_bounds_count_needs_and_their_least_charges() {
        let p = small();
        let mut e = Bounded::new(&p, Objective::MinimizeCount).unwrap();
        // `a` needs 2 options and `c` one; `a` and `c` share o3, so the seeds count
        // `a`'s 2 alone: no solution has fewer than 2 options (o1 + o3 has 2).
        assert_eq!(e.count_bound(), 2);
        let mut e = Bounded::new(&p, Objective::MinimizeCost).unwrap();
        // Charge 0 (the whole cost on the first needy item): `a`'s two least are o1 (1)
        // and o3 (2), `c`'s o4 (0) with o3 charged to `a`: 3, the cost of o1 + o3.
        assert_eq!(e.cost_bound(), 3);
        let out = search(&mut e, &[], false).unwrap();
        assert_eq!(out.value, Some(3));
    }

    #[test]
    fn forced_clashes_are_those_of_reduce() {
        let p = small();
        let mut e = Bounded::new(&p, Objective::MinimizeCount).unwrap();
        let sets: [&[u32]; 6] = [&[0, 2], &[0, 4], &[3, 4], &[1, 1], &[0, 1, 2, 3], &[0, 3]];
        for set in sets {
            let forced: Vec<OptionId> = set.iter().map(|&o| OptionId(o)).collect();
            let want = crate::solve::reduce::reduce(&p, &forced).err();
            let got = search(&mut e, &forced, false).err();
            assert_eq!(got, want, "{set:?}");
        }
    }

    #[test]
    fn a_cost_that_can_only_be_added_is_refused_and_one_on_a_fixed_item_is_not() {
        let p = small();
        // Maximizing makes every cost negative as minimized; o0 covers only `a`, which
        // has room above `lo`, and a secondary item.
        let e = Bounded::new(&p, Objective::MaximizeCost).unwrap_err();
        assert!(
            matches!(
                e,
                Refused::RewardingCost {
                    id: OptionId(0),
                    ..
                }
            ),
            "{e}"
        );
        let mut b = ProblemBuilder::new();
        b.primary_bounded("a", Bounds { lo: 0, hi: Some(1) });
        b.primary(["c"]);
        b.option_with(None, ["a", "c"], Some(-4));
        b.option_with(None, ["c"], Some(0));
        let mut e = Bounded::new(&b.build(), Objective::MinimizeCost).unwrap();
        let out = search(&mut e, &[], true).unwrap();
        assert_eq!(
            (out.value, out.solutions),
            (Some(-4), vec![vec![OptionId(0)]])
        );
    }
}
