//! The optimizing search with general multiplicities (`: 0..1`, `: 2..3`, `: 2..`, ...),
//! colored secondary items and forced options, against a brute force over every subset
//! of options: for `minimize count`, `minimize cost` and `maximize cost`, the optimum,
//! one solution of that value, every optimal solution once (`all`), the same answer on
//! threads, and refusals (costs that reward an extra option, `--best K`) exactly where
//! the search cannot answer. Seeded, so a failure names the seed that reproduces it.

mod common {
    pub mod mcc;
}

use std::collections::BTreeSet;

use common::mcc::random_priced_problem;
use dlxc::problem::{Bounds, ItemKind, OptionId, Problem, ProblemBuilder};
use dlxc::solve::optimize::solve_on_threads;
use dlxc::solve::reduce::reduce;
use dlxc::solve::{End, Objective, Optimizer, Refused, SearchConfig};

#[path = "common/brute.rs"]
mod brute;
#[path = "common/rng.rs"]
mod rng;
use brute::Cover;
use rng::Rng;

/// How many random problems each test draws.
const PROBLEMS: u64 = 3000;

/// The forced option sets tried on a problem of `m` options: none, and one or two
/// drawn by `rng` (perhaps clashing, perhaps the same option twice).
fn forced_sets(rng: &mut Rng, m: u64) -> Vec<Vec<OptionId>> {
    let mut sets = vec![vec![]];
    if m > 0 {
        let mut one = vec![OptionId(rng.below(m) as u32)];
        if rng.below(2) == 0 {
            one.push(OptionId(rng.below(m) as u32));
        }
        sets.push(one);
    }
    sets
}

/// The cost range of problem `seed`: costs of one sign (as the objective needs them, 0
/// included) or of both.
fn cost_range(seed: u64) -> (i64, i64) {
    match seed % 3 {
        0 => (0, 5),
        1 => (-5, 0),
        _ => (-3, 5),
    }
}

/// The value of a cover for `obj`, as minimized.
fn value(obj: Objective, c: &Cover) -> i64 {
    match obj {
        Objective::MinimizeCount => c.1,
        Objective::MinimizeCost => c.2,
        Objective::MaximizeCost => -c.2,
    }
}

/// Whether option `k` can be added on top of a solution without breaking an upper
/// bound by itself: it has a primary item and every one of them has `lo < hi`. Costs
/// of such options that improve the objective are what the search refuses.
fn addable(p: &Problem, k: usize) -> bool {
    let opt = p.options.get(k);
    let mut primary = opt
        .entries
        .iter()
        .filter_map(|e| match p.item(e.item).kind {
            ItemKind::Primary { bounds } => Some(bounds),
            ItemKind::Secondary => None,
        })
        .peekable();
    primary.peek().is_some() && primary.all(|b| b.hi.is_none_or(|h| b.lo < h))
}

/// Random problems with every kind of bounds, colors on odd seeds, forced options, and
/// each objective: the optimizer is refused exactly when a cost rewards an option that
/// can be added, and otherwise finds the brute force's optimum, a solution of that
/// value, and (with `all`) every optimal solution once, leaving its structure as it
/// found it. Refusals are checked to matter: some refused problems have an optimum
/// that no search stopping at its least covers reaches.
#[test]
fn general_bounds_match_brute_force() {
    let (mut solved, mut refused, mut refusal_mattered, mut non_trivial) = (0, 0, 0, 0);
    for seed in 0..PROBLEMS {
        let p = random_priced_problem(seed, seed % 2 == 1, true, Some(cost_range(seed)));
        let mut rng = Rng(seed | 1);
        let forced_sets = forced_sets(&mut rng, p.options.len() as u64);
        for obj in [
            Objective::MinimizeCount,
            Objective::MinimizeCost,
            Objective::MaximizeCost,
        ] {
            let at = format!("seed {seed} {obj:?}");
            let rewarding = (0..p.options.len()).find(|&k| {
                obj != Objective::MinimizeCount && addable(&p, k) && {
                    let c = p.options.get(k).cost.unwrap_or(0);
                    obj.sign() * c < 0
                }
            });
            let mut opt = match Optimizer::new(&p, obj) {
                Err(Refused::RewardingCost { id, .. }) => {
                    assert_eq!(Some(id.index()), rewarding, "{at}: refused");
                    refused += 1;
                    // Does it matter here? Every optimum has an option whose removal
                    // leaves a solution, which a search that stops as soon as every
                    // item has its least number of options can miss.
                    let all = brute::covers(&p, &[]);
                    let covers: BTreeSet<&Vec<u32>> = all.iter().map(|c| &c.0).collect();
                    let minimal = |c: &Cover| {
                        !c.0.iter().any(|&k| {
                            let less: Vec<u32> = c.0.iter().copied().filter(|&j| j != k).collect();
                            covers.contains(&less)
                        })
                    };
                    let best = all.iter().map(|c| value(obj, c)).min();
                    let best_minimal = all
                        .iter()
                        .filter(|c| minimal(c))
                        .map(|c| value(obj, c))
                        .min();
                    refusal_mattered += usize::from(best_minimal != best);
                    continue;
                }
                Err(e) => panic!("{at}: refused: {e}"),
                Ok(o) => {
                    assert_eq!(rewarding, None, "{at}: not refused");
                    o
                }
            };
            let pristine = opt.structure_fingerprint();
            for forced in &forced_sets {
                let at = format!("{at} forcing {forced:?}");
                let all = brute::covers(&p, forced);
                let best = all.iter().map(|c| value(obj, c)).min();
                let want: BTreeSet<Vec<u32>> = all
                    .iter()
                    .filter(|c| Some(value(obj, c)) == best)
                    .map(|c| c.0.clone())
                    .collect();
                let cfg = SearchConfig::default();
                let one = opt.solve(forced, false, &cfg, &mut |_, _| {});
                assert_eq!(opt.structure_fingerprint(), pristine, "{at}");
                // A clash is the one every engine reports (`reduce` says it as they do),
                // and the forced options are in no solution, unless one is forced twice.
                let clash = reduce(&p, forced).err();
                let one = match one {
                    Ok(one) => {
                        assert_eq!(clash, None, "{at}");
                        one
                    }
                    Err(c) => {
                        assert_eq!(Some(c), clash, "{at}");
                        let twice = forced.len() == 2 && forced[0] == forced[1];
                        assert!(
                            twice || all.is_empty(),
                            "{at}: {c}, but {} covers",
                            all.len()
                        );
                        continue;
                    }
                };
                assert_eq!((one.end, one.optimal), (End::Exhausted, true), "{at}");
                assert_eq!(one.value.map(|v| obj.sign() * v), best, "{at}");
                match one.solutions.as_slice() {
                    [] => assert!(best.is_none(), "{at}: no solution"),
                    [sol] => assert!(want.contains(&brute::sorted(sol)), "{at}: {sol:?}"),
                    many => panic!("{at}: {} solutions without all", many.len()),
                }
                let every = opt.solve(forced, true, &cfg, &mut |_, _| {}).unwrap();
                assert_eq!(opt.structure_fingerprint(), pristine, "{at}");
                assert_eq!(every.value, one.value, "{at}");
                let got: BTreeSet<Vec<u32>> =
                    every.solutions.iter().map(|s| brute::sorted(s)).collect();
                assert_eq!(got, want, "{at}: every optimum");
                assert_eq!(every.solutions.len(), want.len(), "{at}: a duplicate");
                solved += 1;
                non_trivial += usize::from(p.options.len() > 6 && best.is_some());
            }
        }
    }
    // The cases this test is about do occur.
    assert!(solved > 8_000, "only {solved} searches");
    assert!(
        non_trivial > 3_000,
        "only {non_trivial} searches with an optimum"
    );
    assert!(refused > 2_000, "only {refused} refusals");
    assert!(
        refusal_mattered > 1_000,
        "only {refusal_mattered} refusals that matter"
    );
}

/// On threads, the answer is the sequential search's (`solve_exact`), the same value,
/// solution and list, with general bounds and colors.
#[test]
fn threads_give_the_sequential_answer_with_general_bounds() {
    let mut split = 0;
    for seed in 0..PROBLEMS / 3 {
        let p = random_priced_problem(seed, seed % 2 == 1, true, Some(cost_range(seed)));
        let mut rng = Rng(seed | 1);
        for obj in [
            Objective::MinimizeCount,
            Objective::MinimizeCost,
            Objective::MaximizeCost,
        ] {
            let Ok(mut opt) = Optimizer::new(&p, obj) else {
                continue;
            };
            let before = opt.structure_fingerprint();
            for forced in forced_sets(&mut rng, p.options.len() as u64) {
                for all in [false, true] {
                    let cfg = SearchConfig::default();
                    let want = opt.solve_exact(&forced, all, &cfg, &mut |_, _| {});
                    for threads in [2, 3] {
                        let at = format!("seed {seed} {obj:?} {forced:?} all={all} {threads}");
                        let got =
                            solve_on_threads(&mut opt, &forced, all, &cfg, threads, &mut |_, _| {});
                        assert_eq!(opt.structure_fingerprint(), before, "{at}");
                        match (&want, got) {
                            (Err(a), Err(b)) => assert_eq!(a, &b, "{at}"),
                            (Ok(a), Ok(b)) => {
                                assert_eq!(
                                    (&a.value, &a.solutions, a.optimal),
                                    (&b.value, &b.solutions, b.optimal),
                                    "{at}"
                                );
                                split += usize::from(b.stats.nodes > a.stats.nodes);
                            }
                            (a, b) => panic!("{at}: {a:?} against {b:?}"),
                        }
                    }
                }
            }
        }
    }
    assert!(split > 100, "only {split} searches were split");
}

/// `--best K` with K > 1 needs exactly-once items: any other bounds are refused, with
/// the item and its bounds named.
#[test]
fn the_k_best_are_refused_with_other_bounds() {
    for (bounds, words) in [
        (Bounds { lo: 0, hi: Some(1) }, "0..1 times"),
        (Bounds { lo: 2, hi: None }, "2.. times"),
        (Bounds { lo: 1, hi: None }, "at least once"),
    ] {
        let mut b = ProblemBuilder::new();
        b.primary(["a"]);
        b.primary_bounded("b", bounds);
        b.option_with(None, ["a", "b"], Some(1));
        let p = b.build();
        for obj in [Objective::MinimizeCount, Objective::MinimizeCost] {
            let e = Optimizer::with_best(&p, obj, 2).unwrap_err();
            assert!(matches!(e, Refused::BestOfRepeated { .. }), "{e}");
            assert!(e.to_string().contains(words), "{e}");
            assert!(Optimizer::with_best(&p, obj, 1).is_ok());
        }
    }
}

/// A knapsack: items `0..1` with weights as copies of a capacity item, the greatest
/// value is found when the costs are the values, and `: 0..1` alone with costs that
/// reward choosing is refused, naming the option and the bounds.
#[test]
fn a_knapsack_and_its_refusal() {
    // Capacity 5 as an item `cap : 0..5` covered once per unit of weight would need
    // an option to cover an item several times; instead, units `u0..u4 : 0..1`, and
    // each object takes units as a slot of its size (the objects are exactly-once: in
    // the sack, or in a `skip` option of cost 0).
    let mut b = ProblemBuilder::new();
    for k in 0..5 {
        b.primary_bounded(format!("u{k}"), Bounds { lo: 0, hi: Some(1) });
    }
    let objects = [(2, 3), (3, 4), (4, 5), (1, 1)];
    for (n, _) in objects.iter().enumerate() {
        b.primary([format!("x{n}")]);
    }
    for (n, &(w, v)) in objects.iter().enumerate() {
        b.option_with(Some(format!("skip{n}")), [format!("x{n}")], Some(0));
        for start in 0..=5 - w {
            let mut items = vec![format!("x{n}")];
            items.extend((start..start + w).map(|u| format!("u{u}")));
            b.option_with(Some(format!("take{n}@{start}")), items, Some(v));
        }
    }
    let p = b.build();
    let mut opt = Optimizer::new(&p, Objective::MaximizeCost).unwrap();
    let out = opt
        .solve(&[], false, &SearchConfig::default(), &mut |_, _| {})
        .unwrap();
    // 2 + 3 units: 3 + 4; or 4 + 1: 5 + 1.
    assert_eq!(out.value, Some(7));
    let mut b = ProblemBuilder::new();
    b.primary_bounded("a", Bounds { lo: 0, hi: Some(1) });
    b.option_with(Some("x".into()), ["a"], Some(3));
    let e = Optimizer::new(&b.build(), Objective::MaximizeCost).unwrap_err();
    assert!(e.to_string().contains("0..1 times"), "{e}");
    assert!(e.to_string().contains("zero or negative"), "{e}");
}

/// A search cut short by the node limit puts the structure back, says it is not
/// optimal, and never claims a value better than the optimum; the same search after it
/// finds the same answer with the same counters.
#[test]
fn a_search_cut_short_restores_the_structure() {
    let mut cuts = 0;
    for seed in 0..PROBLEMS / 10 {
        let p = random_priced_problem(seed, seed % 2 == 1, true, Some((0, 5)));
        let Ok(mut opt) = Optimizer::new(&p, Objective::MinimizeCost) else {
            continue;
        };
        let pristine = opt.structure_fingerprint();
        let cfg = SearchConfig::default();
        let full = opt.solve(&[], true, &cfg, &mut |_, _| {}).unwrap();
        for limit in 1..full.stats.nodes.min(80) {
            let cut = SearchConfig {
                node_limit: Some(limit),
                ..SearchConfig::default()
            };
            let out = opt.solve(&[], true, &cut, &mut |_, _| {}).unwrap();
            let at = format!("seed {seed} limit {limit}");
            assert_eq!(opt.structure_fingerprint(), pristine, "{at}");
            assert_eq!((out.optimal, out.stats.nodes), (false, limit), "{at}");
            if let (Some(v), Some(best)) = (out.value, full.value) {
                assert!(v >= best, "{at}");
            }
            cuts += 1;
        }
        let again = opt.solve(&[], true, &cfg, &mut |_, _| {}).unwrap();
        assert_eq!(
            (&again.value, &again.solutions, again.stats.nodes),
            (&full.value, &full.solutions, full.stats.nodes),
            "seed {seed}"
        );
    }
    assert!(cuts > 1_000, "only {cuts} cuts");
}
