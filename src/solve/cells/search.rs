//! The search loop of the dancing-cells engine, and the forced options before it.
//!
//! At each node: take a forced move if a commit left one (a primary item with a single
//! live option), else choose the active primary item with the fewest live options,
//! ties to the first declared; cover it; save; then for each of its options, commit it
//! (abandoning the option at once if some other primary item is left with no option),
//! go down, and restore the save point. Everything a level did is undone by restoring
//! its parent's save point, so leaving the loop early needs no unwinding: the caller
//! restores the save point taken before the forced options.
//!
//! Counters: `nodes` counts entries into a node, solutions included, as in DLX1;
//! `updates` counts deletions from sets and items taken out of the active sets, as in
//! SSXCC. Both differ from DLX1's for the same problem, since the tree differs.

use std::time::Instant;

use super::{CURRENT, Cells, Mark};
use crate::problem::OptionId;
use crate::solve::{
    Clash, ClashKind, End, Flow, Limit, Outcome, SearchConfig, Stats, check_clock, color_clash,
    forced_twice,
};

/// One level of the search: the next of its item's options to try, where they end,
/// and the save point after covering the item. A level with a single option has no save
/// point: when it is done, the level above restores its own, which undoes this level
/// too (Knuth and Solnon's forced moves cost no save).
#[derive(Clone, Copy, Debug)]
struct Frame {
    next: u32,
    end: u32,
    mark: Option<Mark>,
    /// Whether an option of this level was tried, so the next must restore first.
    tried: bool,
}

/// The dancing-cells engine: the structure and the bookkeeping of forced options.
#[derive(Clone, Debug)]
pub(crate) struct Engine {
    /// The sets.
    pub cells: Cells,
    frames: Vec<Frame>,
    /// The node chosen at each level.
    choice: Vec<u32>,
    /// Which forced option (index in the forced list) first took each item.
    forced_by: Vec<u32>,
    /// The color (0: none) the first forced option gave each item.
    claim: Vec<u32>,
}

impl Engine {
    /// Wraps the structure.
    pub fn new(cells: Cells) -> Engine {
        let n = cells.item_id.len();
        Engine {
            frames: Vec::with_capacity(cells.n1 as usize + 1),
            choice: Vec::with_capacity(cells.n1 as usize + 1),
            forced_by: vec![u32::MAX; n],
            claim: vec![0; n],
            cells,
        }
    }

    /// Searches with `forced` committed first; see [`crate::solve::Solver::search`].
    /// The loop is compiled once for each kind of save point (`run::<true>` keeps a
    /// trail of changed sizes, `run::<false>` copies them).
    pub fn search(
        &mut self,
        forced: &[OptionId],
        solution: &mut Vec<OptionId>,
        config: &SearchConfig,
        on_solution: &mut dyn FnMut(&[OptionId]) -> Flow,
        start: Instant,
    ) -> Result<Outcome, Clash> {
        solution.clear();
        solution.extend_from_slice(forced);
        if self.cells.trails() {
            self.at_node::<true, _>(forced, |e| {
                e.run::<true>(solution, config, on_solution, start)
            })
        } else {
            self.at_node::<false, _>(forced, |e| {
                e.run::<false>(solution, config, on_solution, start)
            })
        }
    }

    /// Commits the forced options, checking each against those before it, runs `then`
    /// at the node they reach, and puts everything back, whatever `then` did.
    fn at_node<const TRAIL: bool, R>(
        &mut self,
        forced: &[OptionId],
        then: impl FnOnce(&mut Self) -> R,
    ) -> Result<R, Clash> {
        let root = self.cells.save::<TRAIL>();
        let mut ignored = 0;
        let mut clash = None;
        let mut done = 0;
        for (k, &o) in forced.iter().enumerate() {
            if let Some(c) = self.check_forced(forced, k) {
                clash = Some(c);
                break;
            }
            self.claim_items(forced, k);
            self.cells.commit_forced::<TRAIL>(o, &mut ignored);
            done = k + 1;
        }
        self.release_claims(&forced[..done]);
        self.cells.forced_moves.clear();
        let result = match clash {
            Some(c) => Err(c),
            None => Ok(then(self)),
        };
        self.cells.restore::<TRAIL>(root);
        self.cells.release::<TRAIL>(root);
        self.cells.forced_moves.clear();
        self.cells.reset();
        result
    }

    /// The children of the node reached by forcing `forced`: the options of the item
    /// the search would branch on there, each a disjoint part of the node's solutions,
    /// together all of them. `None` when `forced` is itself a solution (no primary item
    /// left); an empty list when the node has none (an item left with no option). A
    /// clash among the forced options is an error, as in a search.
    pub fn branch(&mut self, forced: &[OptionId]) -> Result<Option<Vec<OptionId>>, Clash> {
        if self.cells.trails() {
            self.at_node::<true, _>(forced, Self::children)
        } else {
            self.at_node::<false, _>(forced, Self::children)
        }
    }

    /// The options of the item the search would branch on now, or `None` at a solution.
    fn children(&mut self) -> Option<Vec<OptionId>> {
        let best = self.choose()?;
        let cells = &self.cells;
        Some(
            cells
                .live(best)
                .map(|r| cells.option_of(cells.set[r as usize]))
                .collect(),
        )
    }

    /// Notes which items forced option `forced[k]` takes first, and their colors.
    fn claim_items(&mut self, forced: &[OptionId], k: usize) {
        for x in self.cells.option_nodes(forced[k]) {
            let i = self.cells.item_of(x) as usize;
            if self.forced_by[i] == u32::MAX {
                self.forced_by[i] = k as u32;
                self.claim[i] = self.cells.clr.get(x as usize).copied().unwrap_or(0);
            }
        }
    }

    /// Forgets the claims of the forced options committed.
    fn release_claims(&mut self, forced: &[OptionId]) {
        for &o in forced {
            for x in self.cells.option_nodes(o) {
                self.forced_by[self.cells.item_of(x) as usize] = u32::MAX;
            }
        }
    }

    /// Whether forced option `forced[k]` clashes with those before it.
    fn check_forced(&self, forced: &[OptionId], k: usize) -> Option<Clash> {
        let cells = &self.cells;
        let o = forced[k];
        let mut nodes = cells.option_nodes(o);
        let first_item = nodes
            .clone()
            .next()
            .map(|x| cells.item_id[cells.item_of(x) as usize]);
        if let Some(c) = forced_twice(forced, k, first_item) {
            return Some(c);
        }
        nodes.find_map(|x| {
            let i = cells.item_of(x);
            let by = self.forced_by[i as usize];
            if by == u32::MAX {
                return None;
            }
            let kind = if i < cells.n1 {
                ClashKind::Shared
            } else {
                let has = cells.clr.get(x as usize).copied().unwrap_or(0);
                color_clash(self.claim[i as usize], has)?
            };
            Some(Clash {
                first: forced[by as usize],
                second: o,
                item: cells.item_id[i as usize],
                kind,
            })
        })
    }

    /// The item to branch on, or `None` when no primary item is active (a solution).
    #[inline]
    fn choose(&mut self) -> Option<u32> {
        let c = &mut self.cells;
        while let Some(u) = c.forced_moves.pop() {
            // Still active (unflagged) with at most one option.
            if c.size(u) <= 1 {
                return Some(u);
            }
        }
        let sizes = c.primary_sizes();
        if sizes.is_empty() {
            return None;
        }
        // The first least size: fewest options, then the first declared; a flagged
        // (covered) item is never least unless all are.
        let i = crate::solve::search::first_least(sizes) as u32;
        (sizes[i as usize] < CURRENT).then_some(i)
    }

    /// The loop proper, with the forced options committed.
    fn run<const TRAIL: bool>(
        &mut self,
        solution: &mut Vec<OptionId>,
        config: &SearchConfig,
        on_solution: &mut dyn FnMut(&[OptionId]) -> Flow,
        start: Instant,
    ) -> Outcome {
        let mut stats = Stats::default();
        let forced = solution.len();
        let node_limit = config.node_limit.unwrap_or(u64::MAX);
        let mut level = 0usize;
        let end;
        'node: loop {
            // Enter a node.
            if stats.nodes >= node_limit {
                end = End::Cut(Limit::Nodes);
                break;
            }
            stats.nodes += 1;
            if stats.nodes & 1023 == 0
                && let Some(limit) = check_clock(config, start)
            {
                end = End::Cut(limit);
                break;
            }
            match self.choose() {
                None => {
                    stats.solutions += 1;
                    if !config.count_only {
                        solution.truncate(forced);
                        let cells = &self.cells;
                        solution.extend(self.choice[..level].iter().map(|&x| cells.option_of(x)));
                        if on_solution(solution) == Flow::Stop {
                            end = End::Stopped;
                            break;
                        }
                    }
                    if config.max_solutions.is_some_and(|m| stats.solutions >= m) {
                        end = End::Stopped;
                        break;
                    }
                }
                Some(best) => {
                    self.cells.cover_chosen::<TRAIL>(best, &mut stats.updates);
                    let live = self.cells.live(best);
                    let mark = (live.len() > 1).then(|| self.cells.save::<TRAIL>());
                    let frame = Frame {
                        next: live.start,
                        end: live.end,
                        mark,
                        tried: false,
                    };
                    if level == self.frames.len() {
                        self.frames.push(frame);
                        self.choice.push(0);
                    } else {
                        self.frames[level] = frame;
                    }
                    level += 1;
                }
            }
            // Try the next option of the deepest level that has one left.
            loop {
                if level == 0 {
                    end = End::Exhausted;
                    break 'node;
                }
                let f = &mut self.frames[level - 1];
                let (mark, tried) = (f.mark, f.tried);
                if f.next == f.end {
                    // This level is done; the level above restores its own save point,
                    // which undoes this level's cover, before its next option.
                    if let Some(m) = mark {
                        self.cells.release::<TRAIL>(m);
                    }
                    level -= 1;
                    continue;
                }
                let x = self.cells.set[f.next as usize];
                f.next += 1;
                f.tried = true;
                // The level's save point is where the previous option left off.
                if tried && let Some(m) = mark {
                    self.cells.restore::<TRAIL>(m);
                    // Forced moves noted below this level are stale now.
                    self.cells.forced_moves.clear();
                }
                self.choice[level - 1] = x;
                if self.cells.commit::<TRAIL>(x, true, &mut stats.updates) {
                    continue 'node;
                }
            }
        }
        solution.truncate(forced);
        stats.elapsed = start.elapsed();
        Outcome { stats, end }
    }
}
