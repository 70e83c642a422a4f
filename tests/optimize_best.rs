//! Random small problems with colors, costs and forced options: the cost-sorted branch
//! and bound (DLX5's) agrees with a brute-force enumeration of every subset of options,
//! for the optimum, every optimum (`all`), and the K best (`--best K`), on one thread and
//! on two (the K best on three too), for `minimize cost`, `maximize cost` and
//! `minimize count`. Seeded, so a
//! failure names the seed that reproduces it.

use std::collections::BTreeSet;

use dlxc::problem::{OptionId, Problem};
use dlxc::solve::optimize::{solve_best_on_threads, solve_on_threads};
use dlxc::solve::{End, Objective, Optimizer, Optimum, SearchConfig};

#[path = "common/brute.rs"]
mod brute;
#[path = "common/costed.rs"]
mod costed;
#[path = "common/rng.rs"]
mod rng;
use brute::sorted;
use costed::random_colored_problem as random_problem;
use rng::Rng;

/// How many random problems each test draws.
const CASES: u64 = 3000;

/// Every valid subset containing `forced` ([`brute::covers`]), as (sorted option
/// indices, value as minimized).
fn brute_force(p: &Problem, forced: &[OptionId], obj: Objective) -> Vec<(Vec<u32>, i64)> {
    brute::covers(p, forced)
        .into_iter()
        .map(|(list, count, cost)| {
            let value = match obj {
                Objective::MinimizeCount => count,
                _ => obj.sign() * cost,
            };
            (list, value)
        })
        .collect()
}

fn forced_for(p: &Problem, rng: &mut Rng) -> Vec<OptionId> {
    let n = p.options.len() as u64;
    if n == 0 {
        return Vec::new();
    }
    // Distinct: an option forced twice is a clash of its own (tests/optimize_random.rs).
    let picked: BTreeSet<u32> = (0..rng.below(3)).map(|_| rng.below(n) as u32).collect();
    picked.into_iter().map(OptionId).collect()
}

/// The objectives and cost ranges tried on each seed.
const GOALS: [(Objective, i64, i64); 4] = [
    (Objective::MinimizeCost, 0, 9),
    (Objective::MinimizeCost, -9, 9),
    (Objective::MaximizeCost, -5, 9),
    (Objective::MinimizeCount, 0, 0),
];

/// Checks that `out` lists valid solutions of `covers` (by sorted options), with the
/// values it claims, each once, and in order of value.
fn assert_listed(out: &Optimum, covers: &[(Vec<u32>, i64)], sign: i64, at: &str) {
    assert_eq!(out.solutions.len(), out.values.len(), "{at}");
    let mut seen = BTreeSet::new();
    for (sol, &v) in out.solutions.iter().zip(&out.values) {
        let key = sorted(sol);
        let cover = covers.iter().find(|c| c.0 == key);
        assert_eq!(cover.map(|c| sign * c.1), Some(v), "{at}: {key:?}");
        assert!(seen.insert(key), "{at}: listed twice");
    }
    assert!(
        out.values.windows(2).all(|w| sign * w[0] <= sign * w[1]),
        "{at}: not in order"
    );
}

#[test]
fn optimum_and_every_optimum_match_brute_force_on_one_and_two_threads() {
    let mut colored = 0;
    for seed in 0..CASES {
        for (obj, lo, hi) in GOALS {
            let p = random_problem(seed, lo, hi);
            colored += usize::from(p.has_colors());
            let mut rng = Rng(seed ^ 0xF0F0_F0F0 | 1);
            let forced = forced_for(&p, &mut rng);
            let covers = brute_force(&p, &forced, obj);
            let sign = obj.sign();
            let best = covers.iter().map(|c| c.1).min();
            let optimal: BTreeSet<Vec<u32>> = covers
                .iter()
                .filter(|c| Some(c.1) == best)
                .map(|c| c.0.clone())
                .collect();
            let mut opt = Optimizer::new(&p, obj).unwrap();
            assert!(opt.is_priced() || !p.has_colors(), "seed {seed}");
            let pristine = opt.structure_fingerprint();
            let cfg = SearchConfig::default();
            for threads in [1, 2] {
                for all in [false, true] {
                    let at = format!(
                        "seed {seed} {obj:?} forced {forced:?} threads {threads} all {all}"
                    );
                    let got =
                        solve_on_threads(&mut opt, &forced, all, &cfg, threads, &mut |_, _| {});
                    assert_eq!(opt.structure_fingerprint(), pristine, "{at}");
                    let Ok(out) = got else {
                        // Forced options that clash: no subset holds them all.
                        assert!(covers.is_empty(), "{at}: a clash, yet {covers:?}");
                        continue;
                    };
                    assert_eq!(out.end, End::Exhausted, "{at}");
                    assert_eq!(out.value, best.map(|b| sign * b), "{at}");
                    assert_listed(&out, &covers, sign, &at);
                    let listed: BTreeSet<Vec<u32>> =
                        out.solutions.iter().map(|s| sorted(s)).collect();
                    if all {
                        assert_eq!(listed, optimal, "{at}");
                    } else {
                        assert_eq!(out.solutions.len(), usize::from(best.is_some()), "{at}");
                        assert!(listed.is_subset(&optimal), "{at}");
                    }
                }
            }
        }
    }
    assert!(colored > CASES as usize, "only {colored} colored problems");
}

#[test]
fn the_k_best_match_brute_force() {
    let mut longer = 0;
    for seed in 0..CASES {
        for (obj, lo, hi) in GOALS {
            let p = random_problem(seed, lo, hi);
            let mut rng = Rng(seed ^ 0x0F0F_0F0F | 1);
            let forced = forced_for(&p, &mut rng);
            let k = 1 + rng.below(6) as usize;
            let mut covers = brute_force(&p, &forced, obj);
            covers.sort_by_key(|c| c.1);
            let sign = obj.sign();
            let want: Vec<i64> = covers.iter().take(k).map(|c| sign * c.1).collect();
            let mut opt = Optimizer::with_best(&p, obj, k).unwrap();
            let pristine = opt.structure_fingerprint();
            // On threads the listing is the same whatever their number (the split
            // differs): the order of one tree that depends only on the problem.
            let mut on_threads: Option<Vec<Vec<OptionId>>> = None;
            for threads in [1, 2, 3] {
                let at =
                    format!("seed {seed} {obj:?} forced {forced:?} best {k} threads {threads}");
                let mut improving = Vec::new();
                let cfg = SearchConfig::default();
                let got =
                    solve_best_on_threads(&mut opt, &forced, k, &cfg, threads, &mut |v, _| {
                        improving.push(v)
                    });
                assert_eq!(opt.structure_fingerprint(), pristine, "{at}");
                let Ok(out) = got else {
                    assert!(covers.is_empty(), "{at}: a clash, yet {covers:?}");
                    continue;
                };
                assert_eq!(out.end, End::Exhausted, "{at}");
                assert_eq!(out.values, want, "{at}");
                assert_listed(&out, &covers, sign, &at);
                assert_eq!(out.value, want.first().copied(), "{at}");
                assert_eq!(improving.last().copied(), out.value, "{at}");
                if threads > 1 {
                    let first = on_threads.get_or_insert_with(|| out.solutions.clone());
                    assert_eq!(&out.solutions, first, "{at}");
                }
            }
            longer += usize::from(want.len() > 1);
        }
    }
    assert!(
        longer > CASES as usize / 2,
        "only {longer} listings of two or more"
    );
}
