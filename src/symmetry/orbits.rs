//! Solutions up to symmetry: one representative of every orbit, counted exactly.
//!
//! Two solutions are equivalent when an element of the group maps one onto the
//! other; the answer is the number of orbits. Enumerating every solution and keeping
//! those that are least among their images is exact but searches the whole tree, |G|
//! times more than needed. Knuth's trick searches less: take a primary item `x` that
//! every element fixes (the X pentomino's piece item). Every solution has exactly one
//! option covering `x`, and the group permutes those options; keep one option of each
//! orbit (its *representative*) and leave the others out of the problem. Every orbit
//! of solutions still has a member in the smaller tree, since an element moves its
//! `x`-option onto the representative.
//!
//! How many members? Those whose `x`-option is the representative `o`, which are the
//! images of one of them under the stabilizer of `o`. When the stabilizer is trivial
//! (a placement of X off every axis), that is one: the solution is kept with no
//! check. Otherwise the solution is kept when it is the least (as a sorted list of
//! option ids) among its images under the stabilizer, which picks exactly one member.
//! So the count is exact, and the search is about |G| times smaller.
//!
//! When no primary item is fixed by every element (a declaration that swaps pieces
//! and no piece is left alone), every solution is checked against the whole group.
//!
//! Forced options: a solution must contain them, so only the elements that map the
//! forced set onto itself relate solutions; the others are left out of the group.
//!
//! The engine never sees the group: a [`Plan`] is a plain [`Problem`] (the original
//! with options left out) and a filter for its solutions.

use crate::problem::{ItemId, OptionId, Options, Problem};
use crate::symmetry::Group;

/// How a problem is searched up to symmetry: the problem to search and which of its
/// solutions to keep.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The problem to search: the original, less the options of the pivot item that
    /// are not representatives of their orbits.
    pub problem: Problem,
    /// The forced options, as ids of `problem`.
    pub forced: Vec<OptionId>,
    /// The item whose options were restricted, if one is fixed by the whole group.
    pub pivot: Option<ItemId>,
    /// The order of the group used (the elements that keep the forced options).
    pub order: usize,
    /// The original id of each option of `problem`.
    original: Vec<OptionId>,
    /// The group, as the images of the original options under each element used,
    /// identity left out.
    elements: Vec<Vec<OptionId>>,
    /// For each option of `problem`: the elements (indices into `elements`) to check
    /// a solution containing it against, when it is the pivot's option; `None` when
    /// it is not a pivot option or its stabilizer is trivial.
    checks: Vec<Option<Vec<usize>>>,
    /// Every index into `elements`: what a solution is checked against without a
    /// pivot.
    everything: Vec<usize>,
}

impl Plan {
    /// The plan for `problem` with `group` and `forced` options (ids of `problem`).
    pub fn new(problem: &Problem, group: &Group, forced: &[OptionId]) -> Plan {
        let mut sorted_forced = forced.to_vec();
        sorted_forced.sort_unstable();
        sorted_forced.dedup();
        let mut image = Vec::new();
        // The elements that keep the forced set; the identity (element 0) left out.
        let kept: Vec<usize> = (1..group.order())
            .filter(|&e| {
                group.image_of_set(e, &sorted_forced, &mut image);
                image == sorted_forced
            })
            .collect();
        let elements: Vec<Vec<OptionId>> = kept
            .iter()
            .map(|&e| {
                (0..problem.options.len())
                    .map(|o| group.option_image(e, OptionId(o as u32)))
                    .collect()
            })
            .collect();
        let pivot = choose_pivot(problem, group, &kept, &sorted_forced);
        // Which options stay, and the stabilizer each representative is checked with.
        let mut keep = vec![true; problem.options.len()];
        let mut stab: Vec<Option<Vec<usize>>> = vec![None; problem.options.len()];
        if let Some(x) = pivot {
            for o in options_of(problem, x) {
                let least = elements.iter().map(|el| el[o.index()]).min();
                if least.is_some_and(|l| l < o) {
                    keep[o.index()] = false;
                    continue;
                }
                let fixing: Vec<usize> = (0..elements.len())
                    .filter(|&k| elements[k][o.index()] == o)
                    .collect();
                if !fixing.is_empty() {
                    stab[o.index()] = Some(fixing);
                }
            }
        }
        let mut reduced = Problem {
            items: problem.items.clone(),
            options: Options::default(),
            colors: problem.colors.clone(),
        };
        let mut original = Vec::new();
        let mut checks = Vec::new();
        let mut new_id = vec![None; problem.options.len()];
        for (o, opt) in problem.options.iter().enumerate() {
            if keep[o] {
                new_id[o] = Some(reduced.options.push(opt));
                original.push(OptionId(o as u32));
                checks.push(stab[o].take());
            }
        }
        let forced = forced
            .iter()
            .map(|f| new_id[f.index()].expect("a forced option never covers the pivot"))
            .collect();
        let order = kept.len() + 1;
        let everything = (0..elements.len()).collect();
        Plan {
            problem: reduced,
            forced,
            pivot,
            order,
            original,
            elements,
            checks,
            everything,
        }
    }

    /// Whether a solution of [`Plan::problem`] is the representative of its orbit; its
    /// options, as ids of the original problem and sorted, are left in `out`.
    pub fn keep(&self, chosen: &[OptionId], out: &mut Vec<OptionId>) -> bool {
        out.clear();
        out.extend(chosen.iter().map(|o| self.original[o.index()]));
        out.sort_unstable();
        let check: &[usize] = match self.pivot {
            Some(_) => match chosen.iter().find_map(|o| self.checks[o.index()].as_ref()) {
                Some(stab) => stab,
                None => return true,
            },
            None => &self.everything,
        };
        let mut image = Vec::with_capacity(out.len());
        check.iter().all(|&k| {
            image.clear();
            image.extend(out.iter().map(|o| self.elements[k][o.index()]));
            image.sort_unstable();
            *out <= image
        })
    }

    /// The options of [`Plan::problem`] as ids of the original problem.
    pub fn original(&self, o: OptionId) -> OptionId {
        self.original[o.index()]
    }
}

/// The options that cover `x`.
fn options_of(problem: &Problem, x: ItemId) -> Vec<OptionId> {
    (0..problem.options.len())
        .map(|o| OptionId(o as u32))
        .filter(|&o| problem.option(o).entries.iter().any(|e| e.item == x))
        .collect()
}

/// The primary item to restrict: covered exactly once, fixed by every element, not
/// covered by a forced option; of those, the one left with the fewest options, then
/// the fewest options to check, then the first.
fn choose_pivot(
    problem: &Problem,
    group: &Group,
    elements: &[usize],
    forced: &[OptionId],
) -> Option<ItemId> {
    if elements.is_empty() {
        return None;
    }
    let n = problem.items.len();
    let mut candidate: Vec<bool> = (0..n)
        .map(|i| {
            let x = ItemId(i as u32);
            problem.item(x).kind == crate::problem::ItemKind::PRIMARY
                && elements.iter().all(|&e| group.item_image(e, x) == x)
        })
        .collect();
    for &f in forced {
        for e in problem.option(f).entries {
            candidate[e.item.index()] = false;
        }
    }
    // Per candidate: representatives kept, and how many of them need checks.
    let mut reps = vec![0usize; n];
    let mut checked = vec![0usize; n];
    for o in 0..problem.options.len() {
        let o = OptionId(o as u32);
        let images = elements.iter().map(|&e| group.option_image(e, o));
        let (mut least, mut fixed) = (true, false);
        for im in images {
            least &= im >= o;
            fixed |= im == o;
        }
        if !least {
            continue;
        }
        for e in problem.option(o).entries {
            let i = e.item.index();
            if candidate[i] {
                reps[i] += 1;
                checked[i] += usize::from(fixed);
            }
        }
    }
    (0..n)
        .filter(|&i| candidate[i])
        .min_by_key(|&i| (reps[i], checked[i], i))
        .map(|i| ItemId(i as u32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::ProblemBuilder;
    use crate::solve::{Flow, SearchConfig, Solver};

    /// Orbits counted by the plan.
    fn count(problem: &Problem, group: &Group, forced: &[OptionId]) -> usize {
        let plan = Plan::new(problem, group, forced);
        let mut solver = Solver::new(&plan.problem).unwrap();
        let mut kept = 0;
        let mut out = Vec::new();
        let config = SearchConfig::default();
        solver
            .search(&plan.forced, &config, &mut |s| {
                if plan.keep(s, &mut out) {
                    kept += 1;
                }
                Flow::Continue
            })
            .unwrap();
        kept
    }

    /// Dominoes on a 2x2 square with a piece item each: 4 solutions (2 tilings, 2
    /// ways to name the dominoes).
    fn square() -> Problem {
        let mut b = ProblemBuilder::new();
        b.primary(["d1", "d2", "c00", "c01", "c10", "c11"]);
        for d in ["d1", "d2"] {
            b.option([d, "c00", "c01"]);
            b.option([d, "c10", "c11"]);
            b.option([d, "c00", "c10"]);
            b.option([d, "c01", "c11"]);
        }
        b.build()
    }

    fn items(v: &[u32]) -> Vec<ItemId> {
        v.iter().map(|&i| ItemId(i)).collect()
    }

    #[test]
    fn a_mirror_fixes_the_horizontal_tilings_and_pairs_the_vertical_ones() {
        let p = square();
        assert_eq!(count(&p, &Group::trivial(&p), &[]), 4);
        // Left and right swapped: d1 on top (or below) is fixed, so it is checked
        // against its stabilizer; d1 on the left goes to d1 on the right.
        let mirror = Group::generate(&p, &[items(&[0, 1, 3, 2, 5, 4])]).unwrap();
        let plan = Plan::new(&p, &mirror, &[]);
        assert_eq!(plan.pivot, Some(ItemId(0)));
        assert_eq!(plan.problem.options.len(), 7);
        assert_eq!(count(&p, &mirror, &[]), 3);
    }

    #[test]
    fn without_a_fixed_item_every_solution_is_checked() {
        let p = square();
        // A quarter turn: c00 -> c01 -> c11 -> c10 -> c00; it moves d1 through all
        // four of its places, so the four solutions are one orbit.
        let turn = items(&[0, 1, 3, 5, 2, 4]);
        let g = Group::generate(&p, std::slice::from_ref(&turn)).unwrap();
        assert_eq!(g.order(), 4);
        assert_eq!(count(&p, &g, &[]), 1);
        // Swapping the dominoes as well: no item is fixed.
        let g = Group::generate(
            &p,
            &[items(&[1, 0, 2, 3, 4, 5]), items(&[0, 1, 3, 2, 5, 4])],
        )
        .unwrap();
        assert_eq!(g.order(), 4);
        assert_eq!(Plan::new(&p, &g, &[]).pivot, None);
        // {d1 top, d2 bottom} ~ {d2 top, d1 bottom}; the vertical ones likewise.
        assert_eq!(count(&p, &g, &[]), 2);
        // Forcing d1 on the left leaves the elements that keep it: the identity.
        assert_eq!(Plan::new(&p, &g, &[OptionId(2)]).order, 1);
        assert_eq!(count(&p, &g, &[OptionId(2)]), 1);
    }
}
