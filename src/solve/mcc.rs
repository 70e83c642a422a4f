//! The general engine: Knuth's Algorithm M (multiplicities on primary items) with
//! Algorithm C's colors on secondary items, as in his program DLX3.
//!
//! [`super::Solver`] uses this engine for every problem with a color or with bounds
//! other than "exactly once"; plain exact cover keeps DLX1's leaner loop. On plain
//! problems the two engines build the same search tree (see [`search`]'s choice rule),
//! which the tests check.
//!
//! Bounds are normalized when the engine is built: an upper bound above the number of
//! options that cover the item (or none, `lo..`) becomes that number, which changes
//! nothing (no more options can be chosen) and keeps every count within `i32`.
//!
//! Forced options are committed before the search, as if chosen at level -1; a forced
//! option that would cover a primary item more than `hi` times, claim a secondary item
//! another forced option has, or give it a different color, is a [`Clash`].

mod dance;
mod search;

use crate::clock::Instant;

use super::links::Links;
use super::{Clash, ClashKind, Flow, Outcome, SearchConfig};
use crate::problem::{ItemKind, OptionId, Problem};
use dance::Dance;

/// Algorithm M with colors, built once and searched many times.
#[derive(Clone, Debug)]
pub(crate) struct Mcc {
    dance: Dance,
    stack: search::Stack,
    /// Primary items whose bound is 0 from the start: covered around every search.
    zero: Vec<u32>,
    /// Which forced option (index in the forced list) first covered each item.
    forced_by: Vec<u32>,
    /// The color (as in `dance::Node::color`) a forced option gave each secondary item.
    claim: Vec<i32>,
}

impl Mcc {
    /// Builds the structure of a valid problem.
    pub fn new(problem: &Problem, links: Links) -> Mcc {
        let n = links.n_items as usize;
        let n1 = links.n_primary as usize;
        let mut color = vec![0i32; links.nodes.len()];
        for (k, opt) in problem.options.iter().enumerate() {
            let first = links.option_start[k] as usize;
            for (j, e) in opt.entries.iter().enumerate() {
                if let Some(c) = e.color {
                    // Color ids are below the entry count, far below i32::MAX.
                    color[first + j] = c.number() as i32;
                }
            }
        }
        let mut bound = vec![0i32; n1 + 1];
        let mut slack = vec![0i32; n1 + 1];
        let mut zero = Vec::new();
        for i in 1..=n1 {
            let len = links.len[i];
            let ItemKind::Primary { bounds } = problem.item(links.item_id[i - 1]).kind else {
                continue;
            };
            let lo = i32::try_from(bounds.lo).unwrap_or(i32::MAX);
            let hi = bounds
                .hi
                .map_or(i32::MAX, |h| i32::try_from(h).unwrap_or(i32::MAX));
            // Keep BOUND - SLACK = lo, so that the branching degree is unchanged, even
            // when lo exceeds the options available (then the degree is <= 0).
            let b = hi.min(len.max(lo));
            bound[i] = b;
            slack[i] = b - lo;
            if b == 0 {
                zero.push(i as u32);
            }
        }
        Mcc {
            dance: Dance::new(links, &color, &bound, &slack),
            stack: search::Stack::default(),
            zero,
            forced_by: vec![u32::MAX; n + 1],
            claim: vec![0; n + 1],
        }
    }

    /// The link structure, for the callers' bookkeeping.
    pub fn links(&self) -> &Links {
        &self.dance.links
    }

    /// A hash of everything a search may change.
    pub fn fingerprint(&self, h: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        self.dance.hash(h);
    }

    /// Searches with `forced` committed first; see [`super::Solver::search`].
    pub fn search(
        &mut self,
        forced: &[OptionId],
        solution: &mut Vec<OptionId>,
        config: &SearchConfig,
        on_solution: &mut dyn FnMut(&[OptionId]) -> Flow,
        start: Instant,
    ) -> Result<Outcome, Clash> {
        for &i in &self.zero {
            self.dance.cover(i);
        }
        let mut done = 0;
        let mut clash = None;
        for (k, &o) in forced.iter().enumerate() {
            if let Some(c) = self.check_forced(forced, k, o) {
                clash = Some(c);
                break;
            }
            let range = self.dance.links.option_nodes(o);
            self.dance.remove_option(range.start, range.end);
            for p in range {
                let node = self.dance.nodes[p as usize];
                let i = node.top as u32;
                if self.forced_by[i as usize] == u32::MAX {
                    self.forced_by[i as usize] = k as u32;
                    self.claim[i as usize] = node.color;
                }
                self.dance.commit(p, i, node.color);
            }
            done = k + 1;
        }
        let result = match clash {
            Some(c) => Err(c),
            None => {
                solution.clear();
                solution.extend_from_slice(forced);
                Ok(search::run(
                    &mut self.dance,
                    &mut self.stack,
                    solution,
                    config,
                    on_solution,
                    start,
                ))
            }
        };
        for (k, &o) in forced[..done].iter().enumerate().rev() {
            let range = self.dance.links.option_nodes(o);
            for p in range.clone().rev() {
                let node = self.dance.nodes[p as usize];
                let i = node.top as u32;
                self.dance.uncommit(p, i, node.color);
                if self.forced_by[i as usize] == k as u32 {
                    self.forced_by[i as usize] = u32::MAX;
                }
            }
            self.dance.restore_option(range.start, range.end);
        }
        for &i in self.zero.iter().rev() {
            self.dance.uncover(i);
        }
        result
    }

    /// Whether forced option `o` (number `k` in the list) clashes with those before it.
    fn check_forced(&self, forced: &[OptionId], k: usize, o: OptionId) -> Option<Clash> {
        let links = &self.dance.links;
        let item_id = |p: u32| links.item_id[self.dance.item_of(p) as usize - 1];
        if let Some(c) = super::forced_twice(forced, k, links.option_nodes(o).next().map(item_id)) {
            return Some(c);
        }
        for p in links.option_nodes(o) {
            let i = self.dance.item_of(p);
            let by = self.forced_by[i as usize];
            let first = if by == u32::MAX {
                o
            } else {
                forced[by as usize]
            };
            let item = item_id(p);
            let kind = if self.dance.is_primary(i) {
                // BOUND 0: no more options may cover the item.
                (self.dance.items[i as usize].bound == 0).then_some(ClashKind::Multiplicity)
            } else if by == u32::MAX {
                None
            } else {
                let (had, has) = (self.claim[i as usize], self.dance.nodes[p as usize].color);
                // -1: purified by the first claim, so of its color.
                let has = if has < 0 { had } else { has };
                super::color_clash(had.unsigned_abs(), has.unsigned_abs())
            };
            if let Some(kind) = kind {
                return Some(Clash {
                    first,
                    second: o,
                    item,
                    kind,
                });
            }
        }
        None
    }
}
