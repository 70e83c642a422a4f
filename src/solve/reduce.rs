//! Forced options taken ahead of time: the smaller problem that is left.
//!
//! The engines commit forced options before the search ([`super::Solver::search`]).
//! Knuth's format has no forced options, so `dlxc compile --emit knuth` writes the
//! problem that is left after committing them, which has exactly the solutions of the
//! original with the forced options (each solution less the forced options):
//!
//! - the forced options are removed;
//! - a primary item they cover `c` times has its bounds lowered by `c`; one they fill
//!   (its upper bound reached: an exactly-once item covered) is removed, with every
//!   other option that covers it;
//! - a secondary item they claim outright is removed with every option that covers
//!   it; one they give a color is removed, with the options that give it another color
//!   or claim it, while the options that give it the same color stay, without it;
//! - an option left with no primary item is removed: the search never chooses one.
//!
//! Forced options that cannot be together are the same [`Clash`] the engines report.

use crate::problem::{Bounds, ColorId, Entry, ItemId, ItemKind, Opt, OptionId, Problem};

use super::{Clash, ClashKind};

/// The problem left after committing `forced`.
#[derive(Clone, Debug)]
pub struct Reduced {
    /// The problem left.
    pub problem: Problem,
    /// For each option of `problem`, the option of the original it is.
    pub original: Vec<OptionId>,
    /// The total cost of the forced options (0 when none has a cost): what to add to
    /// the cost of a solution of `problem` to get the cost in the original.
    pub forced_cost: i64,
}

/// What the forced options did to an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Taken {
    /// Nothing.
    Free,
    /// A primary item covered this many times, by `first` first.
    Covered { times: u32, first: OptionId },
    /// A secondary item claimed without a color.
    Claimed(OptionId),
    /// A secondary item given a color.
    Colored(ColorId, OptionId),
}

/// Commits `forced` in `problem`; the problem left, or the first clash among them (in
/// the order of `forced`).
pub fn reduce(problem: &Problem, forced: &[OptionId]) -> Result<Reduced, Clash> {
    let mut taken = vec![Taken::Free; problem.items.len()];
    let mut is_forced = vec![false; problem.options.len()];
    let mut forced_cost: i64 = 0;
    for &o in forced {
        let opt = problem.option(o);
        if std::mem::replace(&mut is_forced[o.index()], true) {
            if let Some(e) = opt.entries.first() {
                return Err(clash(o, o, e.item, ClashKind::Shared));
            }
            continue;
        }
        forced_cost = forced_cost.saturating_add(opt.cost.unwrap_or(0));
        for e in opt.entries {
            let i = e.item.index();
            taken[i] = match (problem.items[i].kind, taken[i], e.color) {
                (ItemKind::Primary { bounds }, t, _) => {
                    let (times, first) = match t {
                        Taken::Covered { times, first } => (times + 1, first),
                        _ => (1, o),
                    };
                    if bounds.hi.is_some_and(|hi| times > hi) {
                        // As the engines say it: an exactly-once item is shared.
                        let kind = if bounds.is_exactly_once() {
                            ClashKind::Shared
                        } else {
                            ClashKind::Multiplicity
                        };
                        let first = if bounds.hi == Some(0) { o } else { first };
                        return Err(clash(first, o, e.item, kind));
                    }
                    Taken::Covered { times, first }
                }
                (ItemKind::Secondary, Taken::Free, None) => Taken::Claimed(o),
                (ItemKind::Secondary, Taken::Free, Some(c)) => Taken::Colored(c, o),
                (ItemKind::Secondary, Taken::Colored(had, by), Some(c)) if had == c => {
                    Taken::Colored(had, by)
                }
                (ItemKind::Secondary, Taken::Colored(_, by), Some(_)) => {
                    return Err(clash(by, o, e.item, ClashKind::Color));
                }
                (ItemKind::Secondary, Taken::Colored(_, by) | Taken::Claimed(by), _)
                | (ItemKind::Secondary, Taken::Covered { first: by, .. }, _) => {
                    return Err(clash(by, o, e.item, ClashKind::Shared));
                }
            };
        }
    }

    // The items left, renumbered, with their new bounds.
    let mut out = Problem::new();
    let mut new_id: Vec<Option<ItemId>> = vec![None; problem.items.len()];
    for (i, item) in problem.items.iter().enumerate() {
        let kind = match (item.kind, taken[i]) {
            (ItemKind::Primary { bounds }, Taken::Covered { times, .. }) => {
                match bounds.hi.map(|hi| hi - times) {
                    Some(0) => continue,
                    hi => ItemKind::Primary {
                        bounds: Bounds {
                            lo: bounds.lo.saturating_sub(times),
                            hi,
                        },
                    },
                }
            }
            (kind, Taken::Free) => kind,
            _ => continue,
        };
        new_id[i] = Some(out.add_item(item.name.clone(), kind, item.origin));
    }

    // The options that may still be chosen, without the items the forced ones took.
    let mut original = Vec::new();
    'options: for (k, opt) in problem.options.iter().enumerate() {
        if is_forced[k] {
            continue;
        }
        let mut entries = Vec::with_capacity(opt.entries.len());
        for e in opt.entries {
            match (new_id[e.item.index()], taken[e.item.index()]) {
                (Some(item), _) => entries.push(Entry {
                    item,
                    color: e
                        .color
                        .map(|c| out.intern_color(&problem.colors[c.index()])),
                }),
                // The same color as the forced options gave: compatible, and nothing is
                // left to check.
                (None, Taken::Colored(c, _)) if e.color == Some(c) => {}
                (None, _) => continue 'options,
            }
        }
        if !entries
            .iter()
            .any(|e| out.items[e.item.index()].kind.is_primary())
        {
            continue;
        }
        out.add_option(Opt {
            name: opt.name.map(str::to_string),
            entries,
            cost: opt.cost,
            origin: opt.origin,
        });
        original.push(OptionId(k as u32));
    }
    Ok(Reduced {
        problem: out,
        original,
        forced_cost,
    })
}

fn clash(first: OptionId, second: OptionId, item: ItemId, kind: ClashKind) -> Clash {
    Clash {
        first,
        second,
        item,
        kind,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::{SearchConfig, Solver};
    use crate::testing::{Rng, random_problem};

    /// The number of solutions of `p` with `forced` committed.
    fn count(p: &Problem, forced: &[OptionId]) -> u128 {
        let mut solver = Solver::new(p).unwrap();
        let config = SearchConfig {
            count_only: true,
            ..SearchConfig::default()
        };
        match solver.search(forced, &config, &mut |_| crate::solve::Flow::Continue) {
            Ok(outcome) => outcome.stats.solutions,
            Err(_) => 0,
        }
    }

    /// On random problems and random forced sets: the reduced problem has as many
    /// solutions as the original with the forced options, or the forced options clash
    /// and the original with them has none.
    #[test]
    fn reduction_keeps_the_count() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let (mut reduced, mut clashed) = (0, 0);
        for case in 0..3000 {
            let p = random_problem(&mut rng, true);
            let forced: Vec<OptionId> = (0..rng.next(3))
                .map(|_| OptionId(rng.next(p.options.len() as u64) as u32))
                .collect();
            let want = count(&p, &forced);
            match reduce(&p, &forced) {
                Ok(r) => {
                    reduced += 1;
                    let got = if r.problem.primary_count() == 0 {
                        1
                    } else {
                        count(&r.problem, &[])
                    };
                    assert_eq!(got, want, "case {case}: {p:?} forced {forced:?}");
                    for (k, &o) in r.original.iter().enumerate() {
                        assert_eq!(r.problem.options.get(k).name, p.option(o).name);
                    }
                }
                Err(_) => {
                    clashed += 1;
                    assert_eq!(want, 0, "case {case}: a clash, yet solutions");
                }
            }
        }
        assert!(
            reduced > 1000 && clashed > 50,
            "{reduced} reduced, {clashed} clashed"
        );
    }

    #[test]
    fn same_color_options_stay_without_the_item() {
        let mut p = Problem::new();
        let a = p.add_item("a", ItemKind::PRIMARY, Default::default());
        let b = p.add_item("b", ItemKind::PRIMARY, Default::default());
        let x = p.add_item("x", ItemKind::Secondary, Default::default());
        let red = p.intern_color("red");
        let blue = p.intern_color("blue");
        let opt = |p: &mut Problem, entries: Vec<Entry>| {
            p.add_option(Opt {
                name: None,
                entries,
                cost: Some(2),
                origin: Default::default(),
            })
        };
        let e = |item, color| Entry { item, color };
        let f = opt(&mut p, vec![e(a, None), e(x, Some(red))]);
        opt(&mut p, vec![e(b, None), e(x, Some(red))]);
        opt(&mut p, vec![e(b, None), e(x, Some(blue))]);
        opt(&mut p, vec![e(b, None), e(x, None)]);
        let r = reduce(&p, &[f]).unwrap();
        assert_eq!(r.problem.items.len(), 1);
        assert_eq!(r.original, [OptionId(1)]);
        assert_eq!(r.problem.options.get(0).entries.len(), 1);
        assert_eq!(r.forced_cost, 2);
        // Forcing it twice is the clash the engines report.
        let c = reduce(&p, &[f, f]).unwrap_err();
        assert_eq!((c.first, c.second, c.kind), (f, f, ClashKind::Shared));
    }
}
