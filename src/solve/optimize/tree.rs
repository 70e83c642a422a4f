//! The depth-first branch-and-bound loop of the `Linked` and `Bounded` engines, written
//! once over [`Tree`]: what the two share is the walk of the search tree; how a node's
//! state is kept, which item is chosen and what a bound is are each engine's own (their
//! module documentation has the arguments for them).
//!
//! # The loop
//!
//! At each node the tree says whether it is a solution (every primary item has its
//! least number of options). If not, it chooses an item (`None`: the node is a dead
//! end), and the subtree is pruned when the cost so far plus the tree's lower bound
//! cannot beat the best solution found (cannot tie it, with `all`), nor the best of
//! another part of a search on threads (module `threads`: nor tie it when that part
//! comes earlier). Otherwise the item's options are laid out in the order the tree
//! tries them and the first is committed.
//!
//! Backing up undoes the current option; at an item whose options must not all be
//! reached together ([`Tree::excludes`]: an at-least-once item, any item of `Bounded`)
//! the option tried is *excluded* while its later siblings are tried, so the subtrees
//! are "containing option 1", "not 1 but 2", ..., and no set of options is reached
//! twice. When the level is exhausted its exclusions are taken back and the item put
//! back ([`Tree::close`]).
//!
//! # Solutions
//!
//! A solution of a better value replaces those kept; with `all`, one of the same value
//! is kept too, together with every extension by the tree's free options (options of
//! cost 0 that can be added without breaking the bounds, [`list_with_free`]), each
//! listed once. `on_improve` hears of each improvement, and so does the shared
//! incumbent on threads.
//!
//! [`solve_part`] and [`branch`] put the forced options and a part's steps in place
//! first ([`at_part`]); the parts made from [`branch`] are the subtrees of the loop, in
//! its order, since both lay the options out the same way.

use crate::clock::Instant;
use std::collections::HashSet;

use super::threads::Incumbent;
use super::{Objective, Optimum, Step};
use crate::problem::OptionId;
use crate::solve::{Clash, End, Limit, SearchConfig, Stats, check_clock};

/// A search tree that [`run`] walks: the state of one engine at a node, and its moves.
///
/// A candidate is a `u32` that the engine lays out for an item (a node of the links,
/// an option number) and turns into its option with [`Tree::option`].
pub(super) trait Tree {
    /// What the costs count and how the value is signed.
    fn objective(&self) -> Objective;
    /// How many options the problem has.
    fn options(&self) -> usize;
    /// Option `o`'s cost as minimized (1 for the count objective).
    fn cost(&self, o: OptionId) -> i64;
    /// The option of candidate `x`.
    fn option(&self, x: u32) -> OptionId;
    /// Whether every primary item has its least number of options.
    fn solved(&self) -> bool;
    /// The item to branch on, or `None` at a dead end (not [`Tree::solved`]).
    fn choose(&mut self) -> Option<u32>;
    /// A lower bound on what completing the node still costs.
    fn lower_bound(&mut self) -> i64;
    /// Opens `item`'s level: puts it out of the way when the engine does so, and lays
    /// its candidates out at the end of `cand` in the order they are tried (`keyed`
    /// is scratch).
    fn open(
        &mut self,
        item: u32,
        cand: &mut Vec<u32>,
        keyed: &mut Vec<(i64, u32)>,
        updates: &mut u64,
    );
    /// Undoes [`Tree::open`] (the candidates are the caller's).
    fn close(&mut self, item: u32);
    /// Whether an option tried at `item` is excluded while its later siblings are.
    fn excludes(&self, item: u32) -> bool;
    /// Chooses option `o` at `item`'s level.
    fn commit(&mut self, item: u32, o: OptionId, updates: &mut u64);
    /// Undoes [`Tree::commit`].
    fn uncommit(&mut self, item: u32, o: OptionId);
    /// Chooses forced option `o` (or one of a part's steps), at no level.
    fn force(&mut self, o: OptionId, updates: &mut u64);
    /// Undoes [`Tree::force`].
    fn unforce(&mut self, o: OptionId);
    /// Keeps option `o` out of the rest of a level's subtrees.
    fn exclude(&mut self, o: OptionId, updates: &mut u64);
    /// Undoes [`Tree::exclude`].
    fn include(&mut self, o: OptionId);
    /// Whether forced option `forced[k]` clashes with those before it (committed).
    fn check_forced(&self, forced: &[OptionId], k: usize) -> Option<Clash>;
    /// A hash of everything a search changes and must put back, for the checks that a
    /// search left the structure exactly as it found it.
    fn structure_fingerprint(&self) -> u64;
    /// Whether some option is free (see [`list_with_free`]).
    fn has_free(&self) -> bool;
    /// With `all`: lists solution `sol` with its extensions by free options
    /// ([`list_with_free`]).
    fn push_with_free(
        &self,
        sol: Vec<OptionId>,
        seen: &mut HashSet<Vec<OptionId>>,
        solutions: &mut Vec<Vec<OptionId>>,
        listed: &mut u128,
        config: &SearchConfig,
        start: Instant,
    ) -> Result<(), Limit>;
}

/// The free options that can be added to one solution, one by one, as
/// [`list_with_free`] walks them.
pub(super) trait Extension {
    /// How many options may be added.
    fn len(&self) -> usize;
    /// The `k`-th of them.
    fn option(&self, k: usize) -> OptionId;
    /// Whether the `k`-th fits what is chosen.
    fn fits(&self, k: usize) -> bool;
    /// Adds the `k`-th.
    fn add(&mut self, k: usize);
    /// Takes the `k`-th back (the last one added).
    fn remove(&mut self, k: usize);
}

/// Lists `sol` and every solution made from it by adding options of `ext` that fit
/// (all of the same value). One solution can be reached that way from several, so each
/// is listed only the first time (`seen` holds them sorted), and counted in `listed`.
/// There can be exponentially many, so the time limit and the interrupt flag are looked
/// at every 1024 solutions, as at search nodes.
pub(super) fn list_with_free(
    mut sol: Vec<OptionId>,
    ext: &mut impl Extension,
    seen: &mut HashSet<Vec<OptionId>>,
    solutions: &mut Vec<Vec<OptionId>>,
    listed: &mut u128,
    config: &SearchConfig,
    start: Instant,
) -> Result<(), Limit> {
    type Record<'a> = dyn FnMut(&[OptionId]) -> Result<(), Limit> + 'a;
    // Every subset that fits, by a walk that leaves out or includes each option in turn.
    fn walk(
        k: usize,
        ext: &mut impl Extension,
        sol: &mut Vec<OptionId>,
        record: &mut Record<'_>,
    ) -> Result<(), Limit> {
        if k == ext.len() {
            return record(sol);
        }
        walk(k + 1, ext, sol, record)?;
        if ext.fits(k) {
            ext.add(k);
            sol.push(ext.option(k));
            let r = walk(k + 1, ext, sol, record);
            sol.pop();
            ext.remove(k);
            r?;
        }
        Ok(())
    }
    let mut reached: u64 = 0;
    walk(0, ext, &mut sol, &mut |s| {
        reached += 1;
        if reached & 1023 == 0
            && let Some(limit) = check_clock(config, start)
        {
            return Err(limit);
        }
        let mut key = s.to_vec();
        key.sort_unstable();
        if seen.insert(key) {
            solutions.push(s.to_vec());
            *listed += 1;
        }
        Ok(())
    })
}

/// Counts a node: `Some` when the node limit, the time limit or the interrupt flag
/// stops the search before it (the clock is looked at every 1024 nodes).
#[inline]
pub(super) fn count_node(
    stats: &mut Stats,
    node_limit: u64,
    config: &SearchConfig,
    start: Instant,
) -> Option<Limit> {
    if stats.nodes >= node_limit {
        return Some(Limit::Nodes);
    }
    stats.nodes += 1;
    if stats.nodes & 1023 == 0 {
        return check_clock(config, start);
    }
    None
}

/// One level of the search stack.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// The item branched on.
    item: u32,
    /// Candidates of this level are `cand[start..end]`; `pos` is the one tried.
    start: usize,
    pos: usize,
    end: usize,
    /// Options excluded at this level are `excluded[excl..]`.
    excl: usize,
}

/// The optimizing search on the part of the tree that `steps` lead to (see [`Step`]),
/// part number `k` of a search on threads whose parts share `shared`: it also prunes
/// against the incumbent and offers it what it finds.
pub(super) fn solve_part<T: Tree>(
    tree: &mut T,
    forced: &[OptionId],
    steps: &[Step],
    all: bool,
    config: &SearchConfig,
    shared: Option<(&Incumbent, usize)>,
    on_improve: &mut dyn FnMut(i64, &[OptionId]),
) -> Result<Optimum, Clash> {
    let start = Instant::now();
    at_part(tree, forced, steps, |tree, prefix| {
        run(tree, prefix, all, config, shared, on_improve, start)
    })
}

/// How the search would branch at the end of `steps`: the options of the item it
/// chooses there, in the order it tries them (none at a dead end), and whether each
/// option's later siblings exclude it. `None` when the node is a solution.
pub(super) fn branch<T: Tree>(
    tree: &mut T,
    forced: &[OptionId],
    steps: &[Step],
) -> Result<Option<(bool, Vec<OptionId>)>, Clash> {
    at_part(tree, forced, steps, |tree, _| {
        if tree.solved() {
            return None;
        }
        let Some(item) = tree.choose() else {
            return Some((true, Vec::new()));
        };
        // Laid out as `run` lays them out, after opening the level.
        let mut cand = Vec::new();
        tree.open(item, &mut cand, &mut Vec::new(), &mut 0);
        tree.close(item);
        let options = cand.iter().map(|&x| tree.option(x)).collect();
        Some((tree.excludes(item), options))
    })
}

/// Panics when an option of `forced` or `steps` is not one of the problem's `options`:
/// ids come from the same problem, so that is a bug in the caller.
pub(super) fn check_ids(options: usize, forced: &[OptionId], steps: &[Step]) {
    let named = forced.iter().chain(steps.iter().map(Step::option));
    if let Some(bad) = named.into_iter().find(|o| o.index() >= options) {
        panic!(
            "forced option #{} does not exist: the problem has {options} options",
            bad.0 + 1
        );
    }
}

/// Commits the forced options (checking that they can be together), then follows
/// `steps`, runs `then` with the options committed, and puts everything back.
fn at_part<T: Tree, R>(
    tree: &mut T,
    forced: &[OptionId],
    steps: &[Step],
    then: impl FnOnce(&mut T, &[OptionId]) -> R,
) -> Result<R, Clash> {
    check_ids(tree.options(), forced, steps);
    #[cfg(debug_assertions)]
    let before = tree.structure_fingerprint();
    let mut ignored = 0;
    let mut done = 0;
    let mut clash = None;
    for k in 0..forced.len() {
        if let Some(c) = tree.check_forced(forced, k) {
            clash = Some(c);
            break;
        }
        tree.force(forced[k], &mut ignored);
        done = k + 1;
    }
    let result = match clash {
        Some(c) => Err(c),
        None => {
            // The steps replay what the search did on the way to the part, so they
            // need no check.
            let mut prefix = forced.to_vec();
            for step in steps {
                match *step {
                    Step::Commit(o) => {
                        tree.force(o, &mut ignored);
                        prefix.push(o);
                    }
                    Step::Exclude(o) => tree.exclude(o, &mut ignored),
                }
            }
            let r = then(tree, &prefix);
            for step in steps.iter().rev() {
                match *step {
                    Step::Commit(o) => tree.unforce(o),
                    Step::Exclude(o) => tree.include(o),
                }
            }
            Ok(r)
        }
    };
    for &o in forced[..done].iter().rev() {
        tree.unforce(o);
    }
    #[cfg(debug_assertions)]
    debug_assert_eq!(
        tree.structure_fingerprint(),
        before,
        "an optimizing search left the structure changed"
    );
    result
}

/// The branch-and-bound loop (module documentation), with the forced options (and a
/// part's steps) committed: `forced` lists the options committed.
fn run<T: Tree>(
    tree: &mut T,
    forced: &[OptionId],
    all: bool,
    config: &SearchConfig,
    shared: Option<(&Incumbent, usize)>,
    on_improve: &mut dyn FnMut(i64, &[OptionId]),
    start: Instant,
) -> Optimum {
    let mut stats = Stats::default();
    let mut best: Option<i64> = None;
    let mut solutions: Vec<Vec<OptionId>> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut cand: Vec<u32> = Vec::new();
    // The options of the item at one node with their order keys; one buffer for all.
    let mut keyed: Vec<(i64, u32)> = Vec::new();
    let mut excluded: Vec<OptionId> = Vec::new();
    // The solutions listed so far, as sorted option lists, when `all` may reach one
    // twice (see `list_with_free`).
    let mut seen: HashSet<Vec<OptionId>> = HashSet::new();
    let mut g: i64 = forced.iter().map(|&o| tree.cost(o)).sum();
    let node_limit = config.node_limit.unwrap_or(u64::MAX);
    let sign = tree.objective().sign();
    let free = all && tree.has_free();
    let mut end = End::Exhausted;
    // `enter` is true when a new node must be examined, false when the top frame must
    // try its next candidate.
    let mut enter = true;
    'search: loop {
        if enter {
            enter = false;
            if let Some(limit) = count_node(&mut stats, node_limit, config, start) {
                end = End::Cut(limit);
                break 'search;
            }
            if tree.solved() {
                let better = best.is_none_or(|b| g < b);
                if better || (all && best == Some(g)) {
                    let mut sol = forced.to_vec();
                    sol.extend(stack.iter().map(|f| tree.option(cand[f.pos])));
                    if better {
                        best = Some(g);
                        solutions.clear();
                        seen.clear();
                        if let Some((incumbent, part)) = shared {
                            incumbent.offer(g, part);
                        }
                        on_improve(sign * g, &sol);
                    }
                    if free {
                        if let Err(limit) = tree.push_with_free(
                            sol,
                            &mut seen,
                            &mut solutions,
                            &mut stats.solutions,
                            config,
                            start,
                        ) {
                            end = End::Cut(limit);
                            break 'search;
                        }
                    } else {
                        stats.solutions += 1;
                        solutions.push(sol);
                    }
                }
            } else if let Some(item) = tree.choose() {
                let total = g.saturating_add(tree.lower_bound());
                let hopeless = shared
                    .is_some_and(|(incumbent, part)| incumbent.prunes(total, part, all))
                    || best.is_some_and(|b| total > b || (total == b && !all));
                if !hopeless {
                    let begin = cand.len();
                    tree.open(item, &mut cand, &mut keyed, &mut stats.updates);
                    stack.push(Frame {
                        item,
                        start: begin,
                        pos: begin,
                        end: cand.len(),
                        excl: excluded.len(),
                    });
                    // `choose` saw at least one option.
                    let o = tree.option(cand[begin]);
                    tree.commit(item, o, &mut stats.updates);
                    g += tree.cost(o);
                    enter = true;
                    continue 'search;
                }
            }
        }
        // Back up: undo the top frame's current candidate and try the next one.
        let Some(f) = stack.last_mut() else {
            break 'search;
        };
        let f = *f;
        let o = tree.option(cand[f.pos]);
        tree.uncommit(f.item, o);
        g -= tree.cost(o);
        if tree.excludes(f.item) {
            tree.exclude(o, &mut stats.updates);
            excluded.push(o);
        }
        let next = f.pos + 1;
        if next < f.end {
            if let Some(top) = stack.last_mut() {
                top.pos = next;
            }
            let o = tree.option(cand[next]);
            tree.commit(f.item, o, &mut stats.updates);
            g += tree.cost(o);
            enter = true;
            continue 'search;
        }
        // The level is exhausted.
        while excluded.len() > f.excl {
            if let Some(o) = excluded.pop() {
                tree.include(o);
            }
        }
        tree.close(f.item);
        cand.truncate(f.start);
        stack.pop();
    }
    // Unwind a search cut short: every frame still has its candidate committed.
    while let Some(f) = stack.pop() {
        tree.uncommit(f.item, tree.option(cand[f.pos]));
        while excluded.len() > f.excl {
            if let Some(o) = excluded.pop() {
                tree.include(o);
            }
        }
        tree.close(f.item);
    }
    stats.elapsed = start.elapsed();
    Optimum {
        value: best.map(|b| sign * b),
        values: vec![sign * best.unwrap_or(0); solutions.len()],
        solutions,
        optimal: end == End::Exhausted,
        stats,
        end,
    }
}
