//! Random small problems: the optimizing search agrees with a brute-force enumeration of
//! every subset of options, for `minimize count`, `minimize cost` and `maximize cost`,
//! with exactly-once, at-least-once and secondary items and forced options. Seeded, so a
//! failure names the seed that reproduces it.

use std::collections::BTreeSet;

use dlxc::problem::{Bounds, OptionId, Problem, ProblemBuilder};
use dlxc::solve::optimize::solve_on_threads;
use dlxc::solve::{End, Objective, Optimizer, Optimum, SearchConfig};

#[path = "common/brute.rs"]
mod brute;
#[path = "common/costed.rs"]
mod costed;
#[path = "common/rng.rs"]
mod rng;
use brute::Cover;
use costed::{forced_for, random_problem};

fn sorted(sols: &[Vec<OptionId>]) -> BTreeSet<Vec<u32>> {
    sols.iter().map(|s| brute::sorted(s)).collect()
}

/// Asserts that `out` has the best `value` of the covers `all` (the least, or the
/// greatest when `sign` is -1) and lists every cover of that value, each once; returns
/// those covers.
fn assert_every_optimum(
    out: &Optimum,
    all: &[Cover],
    value: fn(&Cover) -> i64,
    sign: i64,
    at: &str,
) -> BTreeSet<Vec<u32>> {
    let best = all.iter().map(|s| sign * value(s)).min().map(|b| sign * b);
    assert_eq!(out.value, best, "{at}");
    let want: BTreeSet<Vec<u32>> = all
        .iter()
        .filter(|s| Some(value(s)) == best)
        .map(|s| s.0.clone())
        .collect();
    assert_eq!(sorted(&out.solutions), want, "{at}");
    assert_eq!(out.solutions.len(), want.len(), "{at}: a duplicate");
    want
}

fn solve(p: &Problem, obj: Objective, forced: &[OptionId]) -> Option<Optimum> {
    let mut opt = Optimizer::new(p, obj).unwrap();
    let before = opt.structure_fingerprint();
    let mut improving = Vec::new();
    let out = opt.solve(forced, true, &SearchConfig::default(), &mut |v, _| {
        improving.push(v)
    });
    // The structure is restored, whether the search ran or the forced options clashed.
    assert_eq!(
        opt.structure_fingerprint(),
        before,
        "{obj:?} forcing {forced:?}: the structure changed"
    );
    let out = out.ok()?;
    assert_eq!(out.end, End::Exhausted);
    assert!(out.optimal);
    // Improving values strictly improve and end at the optimum.
    assert_eq!(improving.last().copied(), out.value);
    Some(out)
}

#[test]
fn fewest_options_match_brute_force() {
    for seed in 0..600u64 {
        let p = random_problem(seed, seed % 2 == 0, 0, 0);
        let forced = forced_for(&p, seed);
        let all = brute::covers(&p, &forced);
        let Some(out) = solve(&p, Objective::MinimizeCount, &forced) else {
            continue;
        };
        assert_every_optimum(&out, &all, |s| s.1, 1, &format!("seed {seed}"));
    }
}

#[test]
fn best_cost_on_exact_cover_matches_brute_force_with_any_signs() {
    for seed in 0..600u64 {
        let p = random_problem(seed, false, -9, 9);
        let forced = forced_for(&p, seed);
        let all = brute::covers(&p, &forced);
        for (obj, sign) in [(Objective::MinimizeCost, 1), (Objective::MaximizeCost, -1)] {
            let Some(out) = solve(&p, obj, &forced) else {
                continue;
            };
            assert_every_optimum(&out, &all, |s| s.2, sign, &format!("seed {seed} {obj:?}"));
        }
    }
}

/// `all` lists every optimal solution, each once: checked as a set against brute force.
/// Costs of 0 are frequent (a third of the options), so many optimal covers have an
/// option that covers nothing new, which the search itself never reaches.
#[test]
fn every_optimal_repeated_cover_is_listed_once() {
    let (mut redundant, mut several) = (0, 0);
    for seed in 0..600u64 {
        for (obj, lo, hi, sign) in [
            (Objective::MinimizeCost, 0, 2, 1),
            (Objective::MaximizeCost, -2, 0, -1),
            (Objective::MinimizeCost, 0, 9, 1),
        ] {
            let p = random_problem(seed, true, lo, hi);
            let forced = forced_for(&p, seed);
            let all = brute::covers(&p, &forced);
            let Some(out) = solve(&p, obj, &forced) else {
                continue;
            };
            let at = format!("seed {seed} {obj:?} {lo}..={hi}");
            let want = assert_every_optimum(&out, &all, |s| s.2, sign, &at);
            several += usize::from(want.len() > 1);
            // An optimal cover with an option whose removal leaves a cover.
            redundant += usize::from(want.iter().any(|s| {
                s.iter().any(|k| {
                    let less: Vec<u32> = s.iter().copied().filter(|j| j != k).collect();
                    want.contains(&less)
                })
            }));
        }
    }
    // The cases this test is about do occur.
    assert!(
        redundant > 50,
        "only {redundant} cases with a redundant optimum"
    );
    assert!(several > 100, "only {several} cases with several optima");
}

#[test]
fn costs_that_reward_extra_options_are_refused_in_a_repeated_cover() {
    let mut b = ProblemBuilder::new();
    b.primary_bounded("a", Bounds { lo: 1, hi: None });
    b.option_with(Some("x".into()), ["a"], Some(-1));
    let p = b.build();
    let e = Optimizer::new(&p, Objective::MinimizeCost).unwrap_err();
    assert!(e.to_string().contains("zero or positive"), "{e}");
    assert!(Optimizer::new(&p, Objective::MaximizeCost).is_ok());
    assert!(Optimizer::new(&p, Objective::MinimizeCount).is_ok());
    // Other bounds are optimized too (`tests/optimize_bounds.rs`), with the same rule.
    let mut b = ProblemBuilder::new();
    b.primary_bounded("a", Bounds { lo: 2, hi: Some(3) });
    b.option_with(Some("x".into()), ["a"], Some(-1));
    let p = b.build();
    let e = Optimizer::new(&p, Objective::MinimizeCost).unwrap_err();
    assert!(e.to_string().contains("2..3 times"), "{e}");
    assert!(Optimizer::new(&p, Objective::MinimizeCount).is_ok());
}

#[test]
fn a_search_cut_short_restores_the_links_and_says_it_is_not_optimal() {
    for seed in 0..200u64 {
        let p = random_problem(seed, seed % 2 == 0, 0, 5);
        let mut opt = Optimizer::new(&p, Objective::MinimizeCost).unwrap();
        let pristine = opt.structure_fingerprint();
        let full = opt
            .solve(&[], false, &SearchConfig::default(), &mut |_, _| {})
            .unwrap();
        for limit in 1..full.stats.nodes {
            let cut = SearchConfig {
                node_limit: Some(limit),
                ..SearchConfig::default()
            };
            let out = opt.solve(&[], false, &cut, &mut |_, _| {}).unwrap();
            assert_eq!(
                opt.structure_fingerprint(),
                pristine,
                "seed {seed} limit {limit}"
            );
            assert!(!out.optimal, "seed {seed} limit {limit}");
            assert_eq!(out.stats.nodes, limit);
            // A value found before the cut is never better than the optimum.
            if let (Some(v), Some(best)) = (out.value, full.value) {
                assert!(v >= best, "seed {seed}");
            }
        }
        // The structure is intact: the same search gives the same answer and counters.
        let again = opt
            .solve(&[], false, &SearchConfig::default(), &mut |_, _| {})
            .unwrap();
        assert_eq!(
            (again.value, again.stats.nodes, again.stats.updates),
            (full.value, full.stats.nodes, full.stats.updates),
            "seed {seed}"
        );
    }
}

#[test]
fn an_option_forced_twice_is_a_clash_not_a_double_count() {
    let mut b = ProblemBuilder::new();
    b.primary_bounded("a", Bounds { lo: 1, hi: None });
    let o = b.option_with(None, ["a"], Some(5));
    let problem = b.build();
    for objective in [Objective::MinimizeCount, Objective::MinimizeCost] {
        let mut opt = Optimizer::new(&problem, objective).unwrap();
        let r = opt.solve(&[o, o], false, &SearchConfig::default(), &mut |_, _| {});
        let clash = r.expect_err("forcing one option twice");
        assert_eq!((clash.first, clash.second), (o, o));
    }
}

/// With `all`, each cover the search reaches is listed with every set of free options
/// added: here 30 options of cost 0 on one at-least-once item, 2^30 - 1 optimal covers,
/// searched by the optimizer of at-least-once items, and on one item `: 1..30`, by the
/// optimizer of other multiplicities. The time limit and the interrupt flag stop that
/// listing too, leaving the structure as it was and the value found not proven optimal.
#[test]
fn listing_every_optimum_stops_at_the_time_limit_and_the_interrupt() {
    use dlxc::solve::Limit;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};
    for hi in [None, Some(30)] {
        let mut b = ProblemBuilder::new();
        b.primary_bounded("a", Bounds { lo: 1, hi });
        for k in 0..30 {
            b.option_with(Some(format!("o{k}")), ["a"], Some(0));
        }
        let p = b.build();
        let mut opt = Optimizer::new(&p, Objective::MinimizeCost).unwrap();
        let pristine = opt.structure_fingerprint();
        let timed = SearchConfig {
            time_limit: Some(Duration::from_millis(200)),
            ..SearchConfig::default()
        };
        let interrupted = SearchConfig {
            interrupt: Some(Arc::new(AtomicBool::new(true))),
            ..SearchConfig::default()
        };
        for (cfg, limit) in [(timed, Limit::Time), (interrupted, Limit::Interrupted)] {
            let clock = Instant::now();
            let out = opt.solve(&[], true, &cfg, &mut |_, _| {}).unwrap();
            assert!(clock.elapsed() < Duration::from_secs(20), "{limit:?}");
            assert_eq!((out.end, out.optimal), (End::Cut(limit), false));
            assert_eq!(out.value, Some(0));
            assert!(!out.solutions.is_empty());
            assert_eq!(out.stats.solutions, out.solutions.len() as u128);
            assert_eq!(opt.structure_fingerprint(), pristine, "{hi:?} {limit:?}");
        }
    }
}

/// On several threads the answer is the sequential search's, exactly: the same value,
/// the same solution without `all` (the first optimal one in the sequential order), and
/// the same list in the same order with `all`; with exactly-once and at-least-once
/// items, costs of both signs, and forced options (a clash stays a clash). The
/// sequential search compared is the one each part runs (`solve_exact`: for least cost,
/// every option hidden whatever the best so far); the single-threaded search with
/// DLX5's thresholds (`solve`) has the same value and, with `all`, the same solutions.
#[test]
fn threads_give_the_sequential_answer() {
    let mut split_cases = 0;
    for seed in 0..300u64 {
        for (obj, repeat, lo, hi) in [
            (Objective::MinimizeCount, seed % 2 == 0, 0, 0),
            (Objective::MinimizeCost, false, -9, 9),
            (Objective::MaximizeCost, false, -9, 9),
            (Objective::MinimizeCost, true, 0, 3),
        ] {
            let p = random_problem(seed, repeat, lo, hi);
            let forced = forced_for(&p, seed);
            let mut opt = Optimizer::new(&p, obj).unwrap();
            let before = opt.structure_fingerprint();
            for all in [false, true] {
                let cfg = SearchConfig::default();
                let want = opt.solve_exact(&forced, all, &cfg, &mut |_, _| {});
                let alone = opt.solve(&forced, all, &cfg, &mut |_, _| {});
                match (&want, &alone) {
                    (Err(a), Err(b)) => assert_eq!(a, b, "seed {seed} {obj:?}"),
                    (Ok(a), Ok(b)) => {
                        assert_eq!(a.value, b.value, "seed {seed} {obj:?} all={all}");
                        if all {
                            assert_eq!(sorted(&a.solutions), sorted(&b.solutions), "seed {seed}");
                        }
                    }
                    (a, b) => panic!("seed {seed}: {a:?} against {b:?}"),
                }
                for threads in [2, 3, 5] {
                    let at = format!("seed {seed} {obj:?} all={all} threads={threads}");
                    let mut values = Vec::new();
                    let got =
                        solve_on_threads(&mut opt, &forced, all, &cfg, threads, &mut |v, _| {
                            values.push(v)
                        });
                    assert_eq!(opt.structure_fingerprint(), before, "{at}");
                    match (&want, got) {
                        (Err(a), Err(b)) => assert_eq!(a, &b, "{at}"),
                        (Ok(a), Ok(b)) => {
                            assert_eq!(
                                (&a.value, &a.solutions, a.optimal),
                                (&b.value, &b.solutions, b.optimal),
                                "{at}"
                            );
                            // Improvements reported on the calling thread end at the
                            // optimum.
                            assert_eq!(values.last().copied(), a.value, "{at}");
                            split_cases += usize::from(b.stats.nodes > a.stats.nodes);
                        }
                        (a, b) => panic!("{at}: {a:?} against {b:?}"),
                    }
                }
            }
        }
    }
    // The parts overlap in nothing, but each starts at its own root: a split search
    // enters more nodes, and it did split in many cases.
    assert!(split_cases > 200, "only {split_cases} split searches");
}
