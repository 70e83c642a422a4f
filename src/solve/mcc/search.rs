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

use crate::clock::Instant;

use super::dance::Dance;
use crate::problem::OptionId;
use crate::solve::{End, Flow, Limit, Outcome, SearchConfig, Stats, check_clock};

/// What the search remembers of one level.
#[derive(Clone, Copy, Debug, Default)]
struct Level {
    /// The item branched on.
    best: u32,
    /// The option node tried, or the item head for the null move.
    choice: u32,
    /// The first node tweaked (Knuth's FT), or 0 when the level covers.
    ft: u32,
}

/// The explicit stack: one entry per level, the three fields of a level side by side.
#[derive(Clone, Debug, Default)]
pub(crate) struct Stack {
    levels: Vec<Level>,
}

/// Outcome of M5 for the current choice.
enum Move {
    /// Go on with the level's choice.
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

    /// M5 for choice `x` of item `i`; adds the updates made to `updates`.
    #[inline(always)]
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
            *updates += self.tweak(x, i, b == 0);
        } else if b != 0 {
            // The null move: `i` takes no more options.
            self.deactivate(i);
        }
        Move::Go
    }

    /// M7's undoing part: uncommit the option tried (or reactivate after a null move).
    #[inline(always)]
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
    #[inline]
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
    // Kept in a register, not in `stats`, through the loop.
    let mut updates = 0u64;
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
                    stack.levels[..level]
                        .iter()
                        .filter(|l| l.choice > n)
                        .map(|l| d.option_of(l.choice)),
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
                if stack.levels.len() <= level {
                    stack.levels.resize(level + 1, Level::default());
                }
                let x = d.nodes[i as usize].dlink;
                d.items[i as usize].bound -= 1;
                if d.items[i as usize].bound == 0 {
                    updates += d.cover(i);
                }
                let ft = if d.covers_level(i) { 0 } else { x };
                stack.levels[level] = Level {
                    best: i,
                    choice: x,
                    ft,
                };
                advance = true;
            }
        }
        loop {
            if advance {
                // M5.
                let Level {
                    best: i,
                    choice: x,
                    ft,
                } = stack.levels[level];
                match d.possibly_tweak(x, i, &mut updates) {
                    Move::Go => {
                        // M6.
                        if x != i {
                            updates += d.commit_others(x);
                        }
                        level += 1;
                        continue 'forward;
                    }
                    // M8.
                    Move::Exhausted => d.restore(i, ft),
                }
            }
            // M9.
            if level == 0 {
                break 'forward (End::Exhausted, 0);
            }
            level -= 1;
            // M7.
            let l = &mut stack.levels[level];
            let (x, i) = (l.choice, l.best);
            d.undo_move(x, i);
            if x == i {
                // After the null move the level is done: M8.
                d.restore(i, l.ft);
                advance = false;
            } else {
                l.choice = d.nodes[x as usize].dlink;
                advance = true;
            }
        }
    };
    for l in stack.levels[..open].iter().rev() {
        d.undo_move(l.choice, l.best);
        d.restore(l.best, l.ft);
    }
    stats.updates = updates;
    solution.truncate(forced);
    stats.elapsed = start.elapsed();
    Outcome { stats, end }
}
