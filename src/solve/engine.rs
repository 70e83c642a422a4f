//! The search loop of the engines on a [`Structure`] (dancing cells, bitsets), and the
//! forced options before it.
//!
//! At each node: take a forced move if a commit left one (a primary item with a single
//! live option), else choose the active primary item with the fewest live options,
//! ties to the first declared; cover it; save; then for each of its options, commit it
//! (abandoning the option at once if some other primary item is left with no option),
//! go down, and restore the save point. Everything a level did is undone by restoring
//! its parent's save point, so leaving the loop early needs no unwinding: the caller
//! restores the save point taken before the forced options.
//!
//! A level at a multiplicity item *tweaks* (see [`Structure::tweaking`]): the item stays
//! open, and before each option after the first, the one tried before it is excluded
//! for the rest of the level and the save point moved after the exclusion, so that no
//! set of options is met twice. A part of the tree (given away, or split off) is then
//! the options taken on the way down and the options excluded.
//!
//! Counters: `nodes` counts entries into a node, solutions included, as in DLX1;
//! `updates` counts deletions from sets and items taken out of the active sets, as in
//! SSXCC. Both differ from DLX1's for the same problem, since the tree differs.

use crate::clock::Instant;

use super::structure::{Mark, NONE, Structure};
use crate::problem::OptionId;
use crate::solve::share::{Child, Part, Share, Want};
use crate::solve::{
    Clash, ClashKind, End, Flow, Limit, Outcome, SearchConfig, Stats, check_clock, color_clash,
    forced_twice,
};

/// How many updates dead ends (commits that leave an item with no option, which are no
/// nodes) may make between two looks at the clock: a few milliseconds of work.
const DEAD_ENDS_CHECK: u64 = 1 << 20;

/// One level of the search: the next of its item's options to try, where they end,
/// and the save point after covering the item. A level with a single option has no save
/// point: when it is done, the level above restores its own, which undoes this level
/// too (Knuth and Solnon's forced moves cost no save).
#[derive(Clone, Copy, Debug)]
struct Frame {
    next: u32,
    end: u32,
    /// Where the level's options start, and how many it had (before any were given
    /// away), for the estimate of how much of the tree is explored.
    first: u32,
    len: u32,
    mark: Option<Mark>,
    /// Whether an option of this level was tried, so the next must restore first.
    tried: bool,
    /// Whether the level tweaks: each option tried is excluded before the next.
    tweak: bool,
}

/// An engine: the structure and the bookkeeping of forced options.
#[derive(Clone, Debug)]
pub(crate) struct Engine<S> {
    /// The state of the problem.
    pub s: S,
    frames: Vec<Frame>,
    /// The candidate chosen at each level.
    choice: Vec<u32>,
    /// Which forced option (index in the forced list) first took each item.
    forced_by: Vec<u32>,
    /// The color (0: none) the first forced option gave each item.
    claim: Vec<u32>,
    /// How many forced options cover each item (multiplicities).
    taken: Vec<u32>,
}

impl<S: Structure> Engine<S> {
    /// Wraps the structure.
    pub fn new(s: S) -> Engine<S> {
        let n = s.item_count();
        let n1 = s.primary_count() as usize;
        Engine {
            frames: Vec::with_capacity(n1 + 1),
            choice: Vec::with_capacity(n1 + 1),
            forced_by: vec![u32::MAX; n],
            claim: vec![0; n],
            taken: vec![0; n],
            s,
        }
    }

    /// Searches with `forced` committed first and `excluded` excluded after them; see
    /// [`crate::solve::Solver::search`]. The loop is compiled once for each kind of save
    /// point (`run::<true>` keeps a trail of changed sizes, `run::<false>` copies them).
    pub fn search(
        &mut self,
        forced: &[OptionId],
        excluded: &[OptionId],
        solution: &mut Vec<OptionId>,
        config: &SearchConfig,
        on_solution: &mut dyn FnMut(&[OptionId]) -> Flow,
        start: Instant,
    ) -> Result<Outcome, Clash> {
        solution.clear();
        solution.extend_from_slice(forced);
        if self.s.trails() {
            self.at_node::<true, _>(forced, excluded, |e| {
                e.run::<true>(excluded, solution, config, on_solution, start)
            })
        } else {
            self.at_node::<false, _>(forced, excluded, |e| {
                e.run::<false>(excluded, solution, config, on_solution, start)
            })
        }
    }

    /// Checks each forced option against those before it, commits them all if none
    /// clashes (in one batch: see [`Structure::commit_forced`]), excludes `excluded`,
    /// runs `then` at the node they reach, and puts everything back, whatever `then`
    /// did.
    fn at_node<const TRAIL: bool, R>(
        &mut self,
        forced: &[OptionId],
        excluded: &[OptionId],
        then: impl FnOnce(&mut Self) -> R,
    ) -> Result<R, Clash> {
        let root = self.s.save::<TRAIL>();
        let mut clash = None;
        let mut ignored = 0;
        if !self.s.commit_forced_if_free::<TRAIL>(forced, &mut ignored) {
            let mut done = 0;
            for k in 0..forced.len() {
                if let Some(c) = self.check_forced(forced, k) {
                    clash = Some(c);
                    break;
                }
                self.claim_items(forced, k);
                done = k + 1;
            }
            self.release_claims(&forced[..done]);
            if clash.is_none() {
                self.s.commit_forced::<TRAIL>(forced, &mut ignored);
            }
        }
        if clash.is_none() {
            self.s.exclude_forced::<TRAIL>(excluded, &mut ignored);
        }
        self.s.forget_forced_moves();
        let result = match clash {
            Some(c) => Err(c),
            None => Ok(then(self)),
        };
        self.s.restore::<TRAIL>(root);
        self.s.release::<TRAIL>(root);
        self.s.forget_forced_moves();
        self.s.reset();
        result
    }

    /// The children of the node reached by forcing `forced`: the options of the item
    /// the search would branch on there, each a disjoint part of the node's solutions,
    /// together all of them. `None` when `forced` is itself a solution (no primary item
    /// left); an empty list when the node has none (an item left with no option). A
    /// clash among the forced options is an error, as in a search.
    pub fn branch(
        &mut self,
        forced: &[OptionId],
        excluded: &[OptionId],
    ) -> Result<Option<Vec<Child>>, Clash> {
        if self.s.trails() {
            self.at_node::<true, _>(forced, excluded, Self::children::<true>)
        } else {
            self.at_node::<false, _>(forced, excluded, Self::children::<false>)
        }
    }

    /// The children of the item the search would branch on now, or `None` at a
    /// solution. Covers that item: the caller restores.
    fn children<const TRAIL: bool>(&mut self) -> Option<Vec<Child>> {
        let best = self.s.choose()?;
        let mut ignored = 0;
        let live = self.s.cover_chosen::<TRAIL>(best, 0, &mut ignored);
        let tweak = self.s.tweaking();
        let options: Vec<u32> = live.map(|r| self.s.candidate(r)).collect();
        Some(
            (0..options.len())
                .map(|k| Child {
                    take: (options[k] != NONE).then(|| self.s.option_of(options[k])),
                    exclude: if tweak {
                        options[..k].iter().map(|&x| self.s.option_of(x)).collect()
                    } else {
                        Vec::new()
                    },
                })
                .collect(),
        )
    }

    /// Notes which items forced option `forced[k]` takes first, and their colors.
    fn claim_items(&mut self, forced: &[OptionId], k: usize) {
        for (i, color) in self.s.entries(forced[k]) {
            let i = i as usize;
            self.taken[i] += 1;
            if self.forced_by[i] == u32::MAX {
                self.forced_by[i] = k as u32;
                self.claim[i] = color;
            }
        }
    }

    /// Forgets the claims of the forced options committed.
    fn release_claims(&mut self, forced: &[OptionId]) {
        for &o in forced {
            for (i, _) in self.s.entries(o) {
                self.forced_by[i as usize] = u32::MAX;
                self.taken[i as usize] = 0;
            }
        }
    }

    /// Whether forced option `forced[k]` clashes with those before it: covers a primary
    /// item more often than it may be covered (as Algorithm M's engine says it where
    /// items have bounds), or gives a secondary item another color, or none where
    /// another gave one.
    fn check_forced(&self, forced: &[OptionId], k: usize) -> Option<Clash> {
        let s = &self.s;
        let o = forced[k];
        let first_item = s.entries(o).next().map(|(i, _)| s.item_id(i));
        if let Some(c) = forced_twice(forced, k, first_item) {
            return Some(c);
        }
        s.entries(o).find_map(|(i, has)| {
            let by = self.forced_by[i as usize];
            let kind = if i < s.primary_count() {
                if self.taken[i as usize] < s.capacity(i) {
                    return None;
                }
                if s.has_bounds() {
                    ClashKind::Multiplicity
                } else {
                    ClashKind::Shared
                }
            } else if by == u32::MAX {
                return None;
            } else {
                color_clash(self.claim[i as usize], has)?
            };
            Some(Clash {
                first: if by == u32::MAX {
                    o
                } else {
                    forced[by as usize]
                },
                second: o,
                item: s.item_id(i),
                kind,
            })
        })
    }

    /// The loop proper, with the forced options committed.
    fn run<const TRAIL: bool>(
        &mut self,
        excluded: &[OptionId],
        solution: &mut Vec<OptionId>,
        config: &SearchConfig,
        on_solution: &mut dyn FnMut(&[OptionId]) -> Flow,
        start: Instant,
    ) -> Outcome {
        let mut stats = Stats::default();
        let forced = solution.len();
        let node_limit = config.node_limit.unwrap_or(u64::MAX);
        let mask = config.share.as_ref().map_or(1023, |s| s.check_mask());
        // When the clock is next looked at between nodes: see the dead ends below.
        let mut next_check = DEAD_ENDS_CHECK;
        let mut level = 0usize;
        let end;
        'node: loop {
            // Enter a node.
            if stats.nodes >= node_limit {
                if let Some(share) = &config.share {
                    self.give_all((&solution[..forced], excluded), level, &**share);
                }
                end = End::Cut(Limit::Nodes);
                break;
            }
            stats.nodes += 1;
            if stats.nodes & mask == 0 {
                let clock = check_clock(config, start);
                if let Some(share) = &config.share {
                    // A search cut short with a share hands back what it did not explore.
                    let want = if clock.is_some() {
                        Want::All
                    } else {
                        share.wanted()
                    };
                    match want {
                        Want::Nothing => {}
                        Want::Some => {
                            self.give_shallowest((&solution[..forced], excluded), level, &**share)
                        }
                        Want::All => {
                            self.give_all((&solution[..forced], excluded), level, &**share);
                            // The node being entered is given away, not explored here.
                            stats.nodes -= 1;
                        }
                    }
                    share.report(self.explored(level), stats.solutions, stats.nodes);
                    if want == Want::All {
                        end = clock.map_or(End::Stopped, End::Cut);
                        break;
                    }
                } else if let Some(limit) = clock {
                    end = End::Cut(limit);
                    break;
                }
            }
            match self.s.choose() {
                None => {
                    stats.solutions += 1;
                    if !config.count_only {
                        solution.truncate(forced);
                        let st = &self.s;
                        solution.extend(
                            self.choice[..level]
                                .iter()
                                .filter(|&&x| x != NONE)
                                .map(|&x| st.option_of(x)),
                        );
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
                    // The candidates of this level go after those of the level above.
                    let at = level.checked_sub(1).map_or(0, |l| self.frames[l].end);
                    let live = self.s.cover_chosen::<TRAIL>(best, at, &mut stats.updates);
                    let mark = (live.len() > 1).then(|| self.s.save::<TRAIL>());
                    let frame = Frame {
                        next: live.start,
                        end: live.end,
                        first: live.start,
                        len: live.end - live.start,
                        mark,
                        tried: false,
                        tweak: mark.is_some() && self.s.tweaking(),
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
                let (mark, tried, tweak) = (f.mark, f.tried, f.tweak);
                if f.next == f.end {
                    // This level is done; the level above restores its own save point,
                    // which undoes this level's cover, before its next option.
                    if let Some(m) = mark {
                        self.s.release::<TRAIL>(m);
                    }
                    level -= 1;
                    continue;
                }
                let x = self.s.candidate(f.next);
                f.next += 1;
                f.tried = true;
                // The level's save point is where the previous option left off.
                if tried && let Some(m) = mark {
                    self.s.restore::<TRAIL>(m);
                    if tweak {
                        // The option tried before is out for the rest of the level, and
                        // the save point moves after that.
                        let before = self.choice[level - 1];
                        let moved = self.s.exclude_saved::<TRAIL>(before, m, &mut stats.updates);
                        let f = &mut self.frames[level - 1];
                        f.mark = moved;
                        if moved.is_none() {
                            f.next = f.end;
                            continue;
                        }
                    }
                }
                self.choice[level - 1] = x;
                if self.s.commit::<TRAIL>(x, true, &mut stats.updates) {
                    continue 'node;
                }
                // A commit that leaves an item with no option is a dead end, not a node
                // (as in Knuth's SSXCC), yet it can cost as much as one: 16,834 copies
                // of an option, each failing after 33,000 updates, ran 4 s past a time
                // limit of 0.5 s without a node to look at the clock. So the clock is
                // also looked at every DEAD_ENDS_CHECK updates made by dead ends.
                if stats.updates >= next_check {
                    next_check = stats.updates.saturating_add(DEAD_ENDS_CHECK);
                    if let Some(limit) = check_clock(config, start) {
                        if let Some(share) = &config.share {
                            // No node is being entered: the untried options are all
                            // that is left to give.
                            let root = (&solution[..forced], excluded);
                            let (parts, _) = self.untried_all(root, level);
                            share.give(parts);
                            share.report(self.explored(level), stats.solutions, stats.nodes);
                        }
                        end = End::Cut(limit);
                        break 'node;
                    }
                }
            }
        }
        solution.truncate(forced);
        stats.elapsed = start.elapsed();
        Outcome { stats, end }
    }
}

/// Giving work away (see [`crate::solve::share`]). At a check, the search is entering the
/// node reached by the forced options and `choice[..level]`, and at every level above it
/// the options from `next` to `end` are still to be tried.
impl<S: Structure> Engine<S> {
    /// The forced options of the node at `level` (the path to it), then `last`.
    fn path(&self, forced: &[OptionId], level: usize, last: Option<u32>) -> Vec<OptionId> {
        let s = &self.s;
        let mut path = Vec::with_capacity(forced.len() + level + 1);
        path.extend_from_slice(forced);
        path.extend(
            self.choice[..level]
                .iter()
                .chain(last.as_ref())
                .filter(|&&x| x != NONE)
                .map(|&x| s.option_of(x)),
        );
        path
    }

    /// The options excluded on the way to the node at `level` (`excluded`, then those
    /// the tweaking levels above it tried before their current one), then, at `level`
    /// itself when it tweaks, those before its candidate at position `upto`.
    fn exclusions(&self, excluded: &[OptionId], level: usize, upto: Option<u32>) -> Vec<OptionId> {
        let s = &self.s;
        let mut out = excluded.to_vec();
        for f in self.frames[..level].iter().filter(|f| f.tweak) {
            // The level's current candidate is at `next - 1`.
            out.extend((f.first..f.next - 1).map(|r| s.option_of(s.candidate(r))));
        }
        if let Some(r) = upto {
            let f = &self.frames[level];
            if f.tweak {
                out.extend((f.first..r).map(|r| s.option_of(s.candidate(r))));
            }
        }
        out
    }

    /// The untried options of `level`, as parts, each with its weight.
    fn untried(
        &self,
        (forced, excluded): (&[OptionId], &[OptionId]),
        level: usize,
        weight: f64,
    ) -> Vec<Part> {
        let f = &self.frames[level];
        let each = weight / f64::from(f.len);
        (f.next..f.end)
            .map(|r| Part {
                forced: self.path(forced, level, Some(self.s.candidate(r))),
                excluded: self.exclusions(excluded, level, Some(r)),
                weight: each,
            })
            .collect()
    }

    /// The untried options of every level above `level`, and the weight of the node
    /// at `level`.
    fn untried_all(&self, root: (&[OptionId], &[OptionId]), level: usize) -> (Vec<Part>, f64) {
        let mut parts = Vec::new();
        let mut weight = 1.0;
        for l in 0..level {
            parts.extend(self.untried(root, l, weight));
            weight /= f64::from(self.frames[l].len);
        }
        (parts, weight)
    }

    /// Gives away the untried options of the shallowest level that has some: the
    /// largest pieces of work this search holds.
    fn give_shallowest(
        &mut self,
        root: (&[OptionId], &[OptionId]),
        level: usize,
        share: &dyn Share,
    ) {
        let mut weight = 1.0;
        for l in 0..level {
            let f = self.frames[l];
            if f.next < f.end {
                share.give(self.untried(root, l, weight));
                self.frames[l].end = f.next;
                return;
            }
            weight /= f64::from(f.len);
        }
    }

    /// Gives away everything not yet explored: the node being entered, and the untried
    /// options of every level above it.
    fn give_all(&mut self, root: (&[OptionId], &[OptionId]), level: usize, share: &dyn Share) {
        let (mut parts, weight) = self.untried_all(root, level);
        parts.push(Part {
            forced: self.path(root.0, level, None),
            excluded: self.exclusions(root.1, level, None),
            weight,
        });
        share.give(parts);
    }

    /// Knuth's estimate of the share of the tree explored: at every level, the options
    /// tried before the current one, each worth its share of the level's node.
    fn explored(&self, level: usize) -> f64 {
        let mut weight = 1.0;
        let mut done = 0.0;
        for f in &self.frames[..level] {
            let each = weight / f64::from(f.len);
            done += each * f64::from(f.next - 1 - f.first);
            weight = each;
        }
        done
    }
}

/// Random probes for Knuth's estimate of the tree (see [`crate::solve::estimate`]).
impl<S: Structure> Engine<S> {
    /// One probe from the node reached by `forced`: down the tree, at each node taking
    /// the option `pick(d)` of the `d` the search would try, to a solution or a dead
    /// end. Returns Knuth's unbiased estimates of the node and solution counts of the
    /// tree below: each node on the path counts the product of the branchings above it.
    pub fn probe(
        &mut self,
        forced: &[OptionId],
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<(f64, f64), Clash> {
        if self.s.trails() {
            self.at_node::<true, _>(forced, &[], |e| e.descend::<true>(pick))
        } else {
            self.at_node::<false, _>(forced, &[], |e| e.descend::<false>(pick))
        }
    }

    fn descend<const TRAIL: bool>(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> (f64, f64) {
        let (mut weight, mut nodes) = (1.0, 0.0);
        let mut updates = 0;
        loop {
            nodes += weight;
            let Some(best) = self.s.choose() else {
                return (nodes, weight);
            };
            // Every level's candidates may go at the start: none is tried again.
            let live = self.s.cover_chosen::<TRAIL>(best, 0, &mut updates);
            let d = live.len();
            if d == 0 {
                return (nodes, 0.0);
            }
            let k = live.start + pick(d) as u32;
            // A tweaking level reaches child k past the exclusion of those before it,
            // which may leave an item short: the search never enters it then.
            if self.s.tweaking() {
                for r in live.start..k {
                    if !self.s.exclude::<TRAIL>(self.s.candidate(r), &mut updates) {
                        return (nodes, 0.0);
                    }
                }
            }
            let x = self.s.candidate(k);
            weight *= d as f64;
            // A child whose commit leaves an item with no option is never entered by
            // the search, so it counts no node.
            if !self.s.commit::<TRAIL>(x, true, &mut updates) {
                return (nodes, 0.0);
            }
        }
    }
}
