//! Algorithm X (TAOCP 7.2.2.1) over the links of [`super::links`], as in Knuth's DLX1.
//!
//! # Invariants
//!
//! - Between searches the structure is *pristine*: every item is in its list and every
//!   option in the vertical lists of its items. A search covers the forced options, then
//!   runs the loop below, and on every way out (exhausted, stopped by the visitor or by
//!   `max_solutions`, cut by a limit) uncovers exactly what it covered, in reverse order.
//! - During the loop, at level `l` the options `choice[0..l]` are covered (their first item
//!   by X4's `cover`, the others by X5). `choice[l]` is either a node of the item chosen at
//!   level `l` (that item covered) or, when its list is exhausted, the item head itself —
//!   head indices are `1..=n`, so `choice[l] <= n` is DLX1's `cur_node == best_itm`.
//! - `cover` and `uncover` are exact inverses when called in LIFO order (Dancing Links);
//!   LEN (`Links::len`) always equals the number of options in an active item's list.
//! - The depth of the stack is bounded by the number of primary items, since every level
//!   covers at least one of them, so `choice` is allocated once with that size.
//!
//! Counters follow DLX1: `nodes` counts entries into X2 (DLX1's `forward: nodes++`,
//! which comes before the test for a solution, so solutions are counted as nodes),
//! `updates` counts one per item unlinked by `cover` and one per node hidden.

use crate::clock::Instant;

use super::links::{COVERED, Links};
use super::{End, Flow, Limit, Outcome, SearchConfig, Stats, check_clock};
use crate::problem::OptionId;

/// What the loop does next; the labels of DLX1's `goto`s.
#[derive(Clone, Copy)]
enum Step {
    /// X2-X4: enter level `level` (a node); visit a solution, or choose an item and
    /// cover it.
    Forward,
    /// X5: try `choice[level]`, or go to X7 if its item is exhausted.
    Advance,
    /// X7-X8: uncover the item of the exhausted level and leave the level.
    Backup,
    /// X6: uncover the other items of `choice[level]` and try the next option.
    Recover,
}

impl Links {
    /// Unlinks item `i` from its list and hides every option in its vertical list.
    #[inline]
    pub(crate) fn cover(&mut self, i: u32, updates: &mut u64) {
        let h = self.items[i as usize];
        self.items[h.llink as usize].rlink = h.rlink;
        self.items[h.rlink as usize].llink = h.llink;
        self.len[i as usize] += COVERED;
        *updates += 1;
        let mut p = self.nodes[i as usize].dlink;
        while p != i {
            self.hide(p, updates);
            p = self.nodes[p as usize].dlink;
        }
    }

    /// Removes the nodes of `p`'s option, other than `p`, from their vertical lists.
    #[inline]
    fn hide(&mut self, p: u32, updates: &mut u64) {
        let mut q = p + 1;
        while q != p {
            let node = self.nodes[q as usize];
            if node.top <= 0 {
                // A spacer: wrap round to the first node of this option.
                q = node.ulink;
            } else {
                self.nodes[node.ulink as usize].dlink = node.dlink;
                self.nodes[node.dlink as usize].ulink = node.ulink;
                self.len[node.top as usize] -= 1;
                *updates += 1;
                q += 1;
            }
        }
    }

    /// Undoes `cover(i)`: unhides the options bottom-up, then relinks the item.
    #[inline]
    pub(crate) fn uncover(&mut self, i: u32) {
        let mut p = self.nodes[i as usize].ulink;
        while p != i {
            self.unhide(p);
            p = self.nodes[p as usize].ulink;
        }
        let h = self.items[i as usize];
        self.items[h.llink as usize].rlink = i;
        self.items[h.rlink as usize].llink = i;
        self.len[i as usize] -= COVERED;
    }

    /// Undoes `hide(p)`, walking the option right to left.
    #[inline]
    fn unhide(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let node = self.nodes[q as usize];
            if node.top <= 0 {
                // A spacer: wrap round to the last node of this option.
                q = node.dlink;
            } else {
                self.nodes[node.ulink as usize].dlink = q;
                self.nodes[node.dlink as usize].ulink = q;
                self.len[node.top as usize] += 1;
                q -= 1;
            }
        }
    }

    /// X5 after X4: covers the items of `x`'s option other than `TOP(x)`, going right.
    #[inline]
    fn cover_others(&mut self, x: u32, updates: &mut u64) {
        let mut p = x + 1;
        while p != x {
            let node = self.nodes[p as usize];
            if node.top <= 0 {
                p = node.ulink;
            } else {
                self.cover(node.top as u32, updates);
                p += 1;
            }
        }
    }

    /// X6: undoes `cover_others(x)`, going left.
    #[inline]
    fn uncover_others(&mut self, x: u32) {
        let mut p = x - 1;
        while p != x {
            let node = self.nodes[p as usize];
            if node.top <= 0 {
                p = node.dlink;
            } else {
                self.uncover(node.top as u32);
                p -= 1;
            }
        }
    }

    /// X3: the active item with the fewest options, the first such in item order
    /// (DLX1's rule, which makes node counts comparable with Knuth's).
    ///
    /// Primary items are numbered `1..=n_primary` in item order, and covered ones carry
    /// [`COVERED`] in their LEN, so a scan by index finds the same item as a walk of the
    /// active list. Called only when some primary item is active.
    #[inline]
    fn choose(&self) -> u32 {
        first_least(&self.len[1..=self.n_primary as usize]) as u32 + 1
    }

    /// Whether every primary item is covered (X2).
    #[inline]
    fn all_covered(&self) -> bool {
        self.items[0].rlink == 0
    }
}

/// The index of the first least element of `lens` (0 when empty), using AVX2 when the
/// processor has it.
///
/// Why the care: on sudoku this scan of ~300 LENs per node is the largest single cost
/// of the search. Measured with `cargo bench --bench engine sudoku17` (first solution
/// of the 49,158 17-clue puzzles, the same binary run in alternation, 2-core VM):
/// DLX1's walk of the active list 3.3 s; one pass with a data-dependent branch
/// 2.7-3.7 s; two passes 1.9-2.6 s; the second pass sixteen at a time 1.5-2.0 s; and
/// compiled for AVX2 1.25-1.8 s, 10-15% faster than without in every pair of runs.
#[inline]
pub(crate) fn first_least<T: Copy + Ord + Default>(lens: &[T]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, which is all that `first_least_avx2` requires.
        #[allow(unsafe_code)]
        return unsafe { first_least_avx2(lens) };
    }
    first_least_portable(lens)
}

/// [`first_least_portable`] compiled for AVX2, where the minimum of eight integers (or
/// sixteen short ones) is one instruction (baseline x86-64 has no minimum of 32-bit integers at all).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn first_least_avx2<T: Copy + Ord + Default>(lens: &[T]) -> usize {
    first_least_portable(lens)
}

/// Two passes over a dense array: the minimum vectorizes, and the search for its first
/// position tests sixteen at a time, which also vectorizes, and looks inside only the
/// block that holds the minimum.
#[inline(always)]
fn first_least_portable<T: Copy + Ord + Default>(lens: &[T]) -> usize {
    let least = lens.iter().copied().min().unwrap_or_default();
    const BLOCK: usize = 16;
    let blocks = lens.chunks_exact(BLOCK);
    let tail = blocks.remainder();
    let mut base = 0;
    for block in blocks {
        if block.iter().fold(false, |hit, &t| hit | (t == least)) {
            break;
        }
        base += BLOCK;
    }
    let rest = if base < lens.len() - tail.len() {
        &lens[base..base + BLOCK]
    } else {
        tail
    };
    base + rest.iter().position(|&t| t == least).unwrap_or(0)
}

/// The search proper, run with the forced options already covered. `solution` holds the
/// forced options on entry; the loop appends and truncates behind them.
///
/// Returns the outcome and the number of levels still covered when the loop was left
/// early (a solution that stopped the search, a limit): the caller puts the links back
/// as they were, either with [`unwind`] or by copying a snapshot.
pub(crate) fn run(
    links: &mut Links,
    choice: &mut Vec<u32>,
    solution: &mut Vec<OptionId>,
    config: &SearchConfig,
    on_solution: &mut dyn FnMut(&[OptionId]) -> Flow,
    start: Instant,
) -> (Outcome, usize) {
    let mut stats = Stats::default();
    let forced = solution.len();
    choice.clear();
    choice.resize(links.n_primary as usize + 1, 0);
    let n = links.n_items;
    let mut level = 0usize;

    // X1 was done by `Links::new` and by covering the forced options.
    let node_limit = config.node_limit.unwrap_or(u64::MAX);
    let mut step = Step::Forward;
    // How many levels are fully covered when the loop is left early.
    let end: End;
    let covered_levels: usize;
    loop {
        match step {
            Step::Forward => {
                // X2 happens after the node is counted, as in DLX1 (a solution is a leaf
                // of the search tree and counts as a node).
                if stats.nodes >= node_limit {
                    end = End::Cut(Limit::Nodes);
                    covered_levels = level;
                    break;
                }
                stats.nodes += 1;
                if stats.nodes & 1023 == 0
                    && let Some(limit) = check_clock(config, start)
                {
                    end = End::Cut(limit);
                    covered_levels = level;
                    break;
                }
                if links.all_covered() {
                    // X2: every primary item is covered by choice[..level].
                    stats.solutions += 1;
                    if !config.count_only {
                        solution.truncate(forced);
                        solution.extend(choice[..level].iter().map(|&c| links.option_of(c)));
                        if on_solution(solution) == Flow::Stop {
                            end = End::Stopped;
                            covered_levels = level;
                            break;
                        }
                    }
                    if config.max_solutions.is_some_and(|m| stats.solutions >= m) {
                        end = End::Stopped;
                        covered_levels = level;
                        break;
                    }
                    // X8: leave this level.
                    if level == 0 {
                        // Nothing was left to cover: the forced options were the solution.
                        end = End::Exhausted;
                        covered_levels = 0;
                        break;
                    }
                    level -= 1;
                    step = Step::Recover;
                    continue;
                }
                // X3: choose the item with the fewest options.
                let best = links.choose();
                // X4: cover it and point at its first option.
                links.cover(best, &mut stats.updates);
                choice[level] = links.nodes[best as usize].dlink;
                step = Step::Advance;
            }
            Step::Advance => {
                // X5: try option choice[level]; the item head means no option is left.
                let x = choice[level];
                if x <= n {
                    step = Step::Backup;
                    continue;
                }
                links.cover_others(x, &mut stats.updates);
                // Back to X2 one level down.
                level += 1;
                step = Step::Forward;
            }
            Step::Backup => {
                // X7: choice[level] is the item head; uncover that item.
                links.uncover(choice[level]);
                // X8: leave this level.
                if level == 0 {
                    end = End::Exhausted;
                    covered_levels = 0;
                    break;
                }
                level -= 1;
                step = Step::Recover;
            }
            Step::Recover => {
                // X6: undo X5 for choice[level] and move down to the next option.
                let x = choice[level];
                links.uncover_others(x);
                choice[level] = links.nodes[x as usize].dlink;
                step = Step::Advance;
            }
        }
    }
    solution.truncate(forced);
    stats.elapsed = start.elapsed();
    (Outcome { stats, end }, covered_levels)
}

/// Uncovers the options of levels `levels-1` down to 0 of `choice`, as the search would
/// have on its way back up.
pub(crate) fn unwind(links: &mut Links, choice: &[u32], levels: usize) {
    for &x in choice[..levels].iter().rev() {
        links.uncover_others(x);
        links.uncover(links.nodes[x as usize].top as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::{first_least, first_least_portable};

    /// Every length around the block size, ties everywhere, covered items (huge LENs):
    /// the dispatched scan (AVX2 where the machine has it) agrees with a plain one.
    #[test]
    fn the_first_least_len_is_found_whatever_the_length_and_ties() {
        let mut rng = crate::testing::Rng(0x9e37_79b9_7f4a_7c15);
        let mut next = || rng.next_u64();
        for n in 1..80 {
            for _ in 0..50 {
                let lens: Vec<i32> = (0..n)
                    .map(|_| match next() % 4 {
                        0 => super::COVERED + (next() % 5) as i32,
                        _ => (next() % 4) as i32,
                    })
                    .collect();
                let least = *lens.iter().min().unwrap();
                let want = lens.iter().position(|&t| t == least).unwrap();
                assert_eq!(first_least(&lens), want, "{lens:?}");
                assert_eq!(first_least_portable(&lens), want, "{lens:?}");
            }
        }
    }
}
