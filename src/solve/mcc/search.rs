//! Algorithm M (TAOCP 7.2.2.1) with colors, as in Knuth's DLX3: the search loop.
//!
//! # Steps
//!
//! - M2: enter a level; if no primary item is active, visit a solution.
//! - M3: choose the active item `i` of least *branching degree*
//!   `θ = LEN(i) + 1 - max(BOUND(i) - SLACK(i), 0)`: the options still in its list,
//!   plus one for the "null" move when enough options already cover it, minus the ones
//!   that must be chosen anyway. Ties go to the item with the smaller `min(SLACK, BOUND)`
//!   (less slack is more constrained), then to the *longer* list (Knuth's observation in
//!   DLX3: choosing 2 of 4 before 3 of 5 makes a bigger tree than the other way round),
//!   then to the first in item order. For an item covered exactly once, `θ = LEN`: on
//!   plain exact cover this is DLX1's rule and gives DLX1's tree. `θ <= 0` means the
//!   item can no longer reach its lower bound: back up at once.
//! - M4: use one unit of `BOUND(i)`. If none is left, cover `i`. Unless the item is
//!   exactly-once (BOUND and SLACK both 0 now), this level *tweaks*: remember the first
//!   option of the list (`ft`).
//! - M5: in a tweaking level, give up when fewer options are left than must still be
//!   chosen; otherwise tweak the current option out of `i`'s list, so that later levels
//!   and later moves here never choose it again. When the list is exhausted, the move is
//!   the null move: `i` gets no more options (it is deactivated).
//! - M6: commit the other items of the option; go to the next level.
//! - M7: uncommit them and try the next option of the list.
//! - M8: restore `i` (uncover, or untweak), give back the unit of `BOUND(i)`.
//! - M9: leave the level.
//!
//! The moves of a tweaking level are "take x1", "skip x1, take x2", ..., and possibly
//! "skip them all": disjoint, so every solution (a *set* of options) is found exactly
//! once. Unlike DLX3, an item whose bounds no longer constrain anything is still
//! branched on rather than left to a "core solution" whose free options are counted
//! as 2^p: that count is only right when the free options do not clash on secondary
//! items, and a visitor needs actual solutions.
//!
//! Counters: `nodes` counts entries into M2 (solutions included, as in DLX1);
//! `updates` counts one per item deactivated by cover, one per node taken out of a list
//! (hide, tweak) and one per purify.

use std::time::Instant;

use super::dance::Dance;
use crate::problem::OptionId;
use crate::solve::{End, Flow, Limit, Outcome, SearchConfig, Stats, check_clock};

/// The explicit stack: one entry per level.
#[derive(Clone, Debug, Default)]
pub(crate) struct Stack {
    /// The item branched on at each level.
    best: Vec<u32>,
    /// The option node tried at each level, or the item head for the null move.
    choice: Vec<u32>,
    /// The first node tweaked at each level (Knuth's FT), or 0 when the level covers.
    ft: Vec<u32>,
}

/// Outcome of M5 for the current choice.
enum Move {
    /// Go on with `choice[level]`.
    Go,
    /// The level is exhausted: M8.
    Exhausted,
}

impl Dance {
    /// M3: the active primary item of least branching degree, and that degree.
    fn choose(&self) -> (u32, i64) {
        let mut best = 0;
        let (mut score, mut best_s, mut best_l) = (i64::MAX, i64::MAX, -1i64);
        let mut k = self.items[0].rlink;
        while k != 0 {
            let item = &self.items[k as usize];
            let b = i64::from(item.bound);
            let s = i64::from(item.slack).min(b);
            let l = i64::from(item.len);
            let t = l + s - b + 1;
            if t < score || (t == score && (s < best_s || (s == best_s && l > best_l))) {
                (best, score, best_s, best_l) = (k, t, s, l);
                if t <= 0 {
                    break;
                }
            }
            k = item.rlink;
        }
        (best, score)
    }

    /// Whether the level branching on `i` covers (exactly-once) rather than tweaks.
    #[inline]
    fn covers_level(&self, i: u32) -> bool {
        self.items[i as usize].bound == 0 && self.items[i as usize].slack == 0
    }

    /// M5 for choice `x` of item `i`.
    fn possibly_tweak(&mut self, x: u32, i: u32, updates: &mut u64) -> Move {
        let b = self.items[i as usize].bound;
        if self.covers_level(i) {
            return if x != i { Move::Go } else { Move::Exhausted };
        }
        if self.len(i) <= b - self.items[i as usize].slack {
            // Fewer options left than must still be chosen.
            return Move::Exhausted;
        }
        if x != i {
            self.tweak(x, i, b == 0, updates);
        } else if b != 0 {
            // The null move: `i` takes no more options.
            self.deactivate(i);
        }
        Move::Go
    }

    /// M7's undoing part: uncommit the option tried (or reactivate after a null move).
    fn undo_move(&mut self, x: u32, i: u32) {
        if x == i {
            if self.items[i as usize].bound != 0 {
                self.reactivate(i);
            }
        } else {
            self.uncommit_others(x);
        }
    }

    /// M8: restore item `i` as it was before M4.
    fn restore(&mut self, i: u32, ft: u32) {
        let covered = self.items[i as usize].bound == 0;
        if self.covers_level(i) {
            self.uncover(i);
        } else {
            self.untweak(ft, i, covered);
            if covered {
                self.uncover(i);
            }
        }
        self.items[i as usize].bound += 1;
    }
}

/// The search proper, run with the forced options already committed. `solution` holds
/// the forced options on entry. Leaves the structure as it found it.
pub(crate) fn run(
    d: &mut Dance,
    stack: &mut Stack,
    solution: &mut Vec<OptionId>,
    config: &SearchConfig,
    on_solution: &mut dyn FnMut(&[OptionId]) -> Flow,
    start: Instant,
) -> Outcome {
    let mut stats = Stats::default();
    let forced = solution.len();
    let n = d.links.n_items;
    let node_limit = config.node_limit.unwrap_or(u64::MAX);
    let mut level = 0usize;
    // The loop is DLX3's `forward` (M2-M4) followed by its `advance` / `backup` /
    // `backdown` cycle, written as two nested loops rather than a dispatch on a state:
    // each step then knows statically where it goes next.
    // On an early exit, levels 0..open have made a move that must be undone.
    let (end, open) = 'forward: loop {
        // M2.
        if stats.nodes >= node_limit {
            break (End::Cut(Limit::Nodes), level);
        }
        stats.nodes += 1;
        if stats.nodes & 1023 == 0
            && let Some(limit) = check_clock(config, start)
        {
            break (End::Cut(limit), level);
        }
        // Whether this level has a move to try (M5), or must be left at once (M9).
        let mut advance = false;
        if d.items[0].rlink == 0 {
            stats.solutions += 1;
            if !config.count_only {
                solution.truncate(forced);
                solution.extend(
                    stack.choice[..level]
                        .iter()
                        .filter(|&&x| x > n)
                        .map(|&x| d.links.option_of(x)),
                );
                if on_solution(solution) == Flow::Stop {
                    break (End::Stopped, level);
                }
            }
            if config.max_solutions.is_some_and(|m| stats.solutions >= m) {
                break (End::Stopped, level);
            }
        } else {
            // M3.
            let (i, score) = d.choose();
            if score > 0 {
                // M4.
                if stack.choice.len() <= level {
                    stack.best.resize(level + 1, 0);
                    stack.choice.resize(level + 1, 0);
                    stack.ft.resize(level + 1, 0);
                }
                let x = d.nodes[i as usize].dlink;
                d.items[i as usize].bound -= 1;
                if d.items[i as usize].bound == 0 {
                    d.cover(i, &mut stats.updates);
                }
                stack.best[level] = i;
                stack.choice[level] = x;
                stack.ft[level] = if d.covers_level(i) { 0 } else { x };
                advance = true;
            }
        }
        loop {
            if advance {
                // M5.
                let (x, i) = (stack.choice[level], stack.best[level]);
                match d.possibly_tweak(x, i, &mut stats.updates) {
                    Move::Go => {
                        // M6.
                        if x != i {
                            d.commit_others(x, &mut stats.updates);
                        }
                        level += 1;
                        continue 'forward;
                    }
                    // M8.
                    Move::Exhausted => d.restore(i, stack.ft[level]),
                }
            }
            // M9.
            if level == 0 {
                break 'forward (End::Exhausted, 0);
            }
            level -= 1;
            // M7.
            let (x, i) = (stack.choice[level], stack.best[level]);
            d.undo_move(x, i);
            if x == i {
                // After the null move the level is done: M8.
                d.restore(i, stack.ft[level]);
                advance = false;
            } else {
                stack.choice[level] = d.nodes[x as usize].dlink;
                advance = true;
            }
        }
    };
    for l in (0..open).rev() {
        let (x, i) = (stack.choice[l], stack.best[l]);
        d.undo_move(x, i);
        d.restore(i, stack.ft[l]);
    }
    solution.truncate(forced);
    stats.elapsed = start.elapsed();
    Outcome { stats, end }
}
