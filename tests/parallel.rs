//! Counting on several threads: every thread count gives the sequential count, on random
//! problems (plain, colored, with multiplicities; with and without forced options) and
//! on published counts, however often work moves; the parts of a split, and the shards
//! of every split 1..=8, are disjoint and add up to the whole; the frontier handed back
//! at a checkpoint or a cut, counted later, completes the count exactly.

mod common {
    pub mod cli;
    pub mod problems;
}
#[path = "common/rng.rs"]
mod rng;

use std::collections::BTreeSet;

use common::problems::*;
use std::time::Duration;

use dlxc::problem::{Bounds, OptionId, Problem, ProblemBuilder};
use dlxc::solve::parallel::{Frontier, Progress, Watch};
use dlxc::solve::{End, Flow, Limit, SearchConfig, Solver, parallel};
use rng::Rng;

/// Up to 10 items (some secondary, some of those colored), up to 40 options; every
/// fourth seed gives some primary items a multiplicity interval.
fn random_problem(seed: u64) -> Problem {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let n = 2 + rng.below(9) as usize;
    let bounded = seed % 4 == 3;
    let mut b = ProblemBuilder::new();
    let mut secondary = vec![false; n];
    for (i, sec) in secondary.iter_mut().enumerate() {
        *sec = rng.below(4) == 0;
        if *sec {
            b.secondary([format!("i{i}")]);
        } else if bounded && rng.below(2) == 0 {
            let lo = rng.below(3) as u32;
            let hi = (rng.below(3) > 0).then(|| lo.max(1) + rng.below(2) as u32);
            b.primary_bounded(format!("i{i}"), Bounds { lo, hi });
        } else {
            b.primary([format!("i{i}")]);
        }
    }
    for _ in 0..rng.below(41) {
        let mut items = BTreeSet::new();
        for _ in 0..1 + rng.below(3) {
            items.insert(rng.below(n as u64) as usize);
        }
        let names: Vec<String> = items
            .iter()
            .map(|&i| match (secondary[i], rng.below(3)) {
                (true, 0) => format!("i{i}:a"),
                (true, 1) => format!("i{i}:b"),
                _ => format!("i{i}"),
            })
            .collect();
        b.option(names.iter().map(String::as_str));
    }
    b.build()
}

/// The count of Algorithm M over dancing links (the reference, which never splits).
fn sequential_count(p: &Problem, forced: &[OptionId]) -> Option<u128> {
    let config = SearchConfig {
        count_only: true,
        ..SearchConfig::default()
    };
    let out = Solver::general(p)
        .unwrap()
        .search(forced, &config, &mut |_| Flow::Continue)
        .ok()?;
    assert_eq!(out.end, End::Exhausted);
    Some(out.stats.solutions)
}

#[test]
fn every_thread_count_gives_the_sequential_count() {
    let mut nonzero = 0;
    for seed in 0..400u64 {
        let p = random_problem(seed);
        let mut forced_sets = vec![vec![]];
        if !p.options.is_empty() {
            forced_sets.push(vec![OptionId((seed % p.options.len() as u64) as u32)]);
        }
        for forced in forced_sets {
            let want = sequential_count(&p, &forced);
            nonzero += usize::from(want.is_some_and(|w| w > 0));
            let mut solver = Solver::new(&p).unwrap();
            let pristine = solver.structure_fingerprint();
            for threads in 1..=8 {
                // Checks at every node, so that work moves even on tiny trees.
                let got = parallel::count_tuned(
                    &mut solver,
                    &forced,
                    &SearchConfig::default(),
                    threads,
                    0,
                    0,
                )
                .ok()
                .map(|o| {
                    assert_eq!(o.end, End::Exhausted, "seed {seed}");
                    o.stats.solutions
                });
                assert_eq!(
                    got, want,
                    "seed {seed}, forced {forced:?}, {threads} threads"
                );
            }
            assert_eq!(solver.structure_fingerprint(), pristine, "seed {seed}");
        }
    }
    assert!(nonzero > 150, "only {nonzero} counts were not zero");
}

/// Every solution, as sorted lists of option numbers, in the order found.
fn listed(p: &Problem, threads: usize, max: Option<u128>) -> (Vec<Vec<u32>>, dlxc::solve::Outcome) {
    let mut solver = Solver::new(p).unwrap();
    let config = SearchConfig {
        max_solutions: max,
        ..SearchConfig::default()
    };
    let mut found = Vec::new();
    let out = parallel::search_tuned(&mut solver, &[], &config, threads, 0, 0, &mut |s| {
        let mut v: Vec<u32> = s.iter().map(|o| o.0).collect();
        v.sort_unstable();
        found.push(v);
        Flow::Continue
    })
    .unwrap();
    (found, out)
}

#[test]
fn every_thread_count_lists_each_solution_once() {
    let mut listed_some = 0;
    for seed in 0..300u64 {
        let p = random_problem(seed);
        let (mut want, _) = listed(&p, 1, None);
        want.sort();
        listed_some += usize::from(want.len() > 1);
        for threads in [2, 3, 8] {
            let (mut got, out) = listed(&p, threads, None);
            assert_eq!(out.stats.solutions, got.len() as u128, "seed {seed}");
            assert_eq!(out.end, End::Exhausted, "seed {seed}");
            got.sort();
            assert_eq!(got, want, "seed {seed}, {threads} threads");
            // A limit shows exactly that many, each a solution, none twice.
            if want.len() > 1 {
                let k = want.len() as u128 / 2;
                let (mut some, out) = listed(&p, threads, Some(k));
                assert_eq!(
                    (some.len() as u128, out.stats.solutions),
                    (k, k),
                    "seed {seed}"
                );
                assert_eq!(out.end, End::Stopped);
                some.sort();
                some.dedup();
                assert_eq!(some.len() as u128, k, "seed {seed}: a solution twice");
                assert!(
                    some.iter().all(|s| want.binary_search(s).is_ok()),
                    "seed {seed}"
                );
            }
        }
    }
    assert!(
        listed_some > 80,
        "only {listed_some} problems had several solutions"
    );
}

#[test]
fn every_shard_split_adds_up_to_the_whole() {
    let mut split_problems = 0;
    for seed in 0..300u64 {
        let p = random_problem(seed);
        let want = sequential_count(&p, &[]);
        let mut solver = Solver::new(&p).unwrap();
        for n in 1..=8 {
            let mut total = Some(0u128);
            let mut nonempty = 0;
            for k in 1..=n {
                let Ok(parts) = parallel::shard(&mut solver, &[], k, n) else {
                    total = None;
                    break;
                };
                // Shard k of n is the same on a second solver of the same problem.
                let mut again = Solver::new(&p).unwrap();
                assert_eq!(parallel::shard(&mut again, &[], k, n).unwrap(), parts);
                nonempty += usize::from(!parts.is_empty());
                for part in &parts {
                    let out = solver
                        .search_part(&part.forced, &part.excluded, &counting(), &mut |_| {
                            Flow::Continue
                        })
                        .unwrap();
                    *total.as_mut().unwrap() += out.stats.solutions;
                }
            }
            assert_eq!(total, want, "seed {seed}, {n} shards");
            split_problems += usize::from(n == 8 && nonempty > 1);
        }
    }
    assert!(split_problems > 100, "only {split_problems} problems split");
}

fn counting() -> SearchConfig {
    SearchConfig {
        count_only: true,
        ..SearchConfig::default()
    }
}

/// Checkpoints at every tick, and checks each: the count so far plus a sequential count
/// of the frontier's parts is the whole count.
struct CheckEvery {
    problem: Problem,
    want: u128,
    checkpoints: usize,
}

impl Watch for CheckEvery {
    fn tick(&mut self, _: &Progress) -> bool {
        true
    }
    fn checkpoint(&mut self, f: &Frontier) {
        self.checkpoints += 1;
        let mut solver = Solver::new(&self.problem).unwrap();
        let rest: u128 = f
            .parts
            .iter()
            .map(|part| {
                let out = solver
                    .search_part(&part.forced, &part.excluded, &counting(), &mut |_| {
                        Flow::Continue
                    })
                    .unwrap();
                out.stats.solutions
            })
            .sum();
        assert_eq!(f.counted.stats.solutions + rest, self.want);
    }
    fn every(&self) -> Duration {
        Duration::from_millis(1)
    }
    fn check_mask(&self) -> u64 {
        15
    }
}

#[test]
fn the_frontier_at_a_checkpoint_completes_the_count() {
    let mut checkpoints = 0;
    for (p, want) in [
        (queens(11, QueensOrder::Plain), 2680u128),
        (queens(10, QueensOrder::OrganPipe), 724),
        (langford(8), 300),
        (pentominoes(20, 3, false), 8),
    ] {
        for threads in [1, 2, 3] {
            let solver = Solver::new(&p).unwrap();
            let mut watch = CheckEvery {
                problem: p.clone(),
                want,
                checkpoints: 0,
            };
            let whole = vec![dlxc::solve::share::Part::root(&[])];
            let f =
                parallel::count_parts(&solver, whole, &counting(), threads, &mut watch).unwrap();
            assert_eq!(
                (f.counted.stats.solutions, f.counted.end),
                (want, End::Exhausted)
            );
            assert!(f.parts.is_empty());
            checkpoints += watch.checkpoints;
        }
    }
    assert!(
        checkpoints >= 10,
        "only {checkpoints} checkpoints were taken"
    );
}

#[test]
fn a_count_cut_short_hands_back_its_exact_frontier() {
    let p = queens(10, QueensOrder::Plain);
    let mut resumed_some = false;
    for (threads, micros) in [(1, 200), (2, 300), (3, 1000), (2, 3000)] {
        let solver = Solver::new(&p).unwrap();
        let config = SearchConfig {
            time_limit: Some(Duration::from_micros(micros)),
            ..counting()
        };
        let whole = vec![dlxc::solve::share::Part::root(&[])];
        let mut quiet = CheckEvery {
            problem: p.clone(),
            want: 724,
            checkpoints: 0,
        };
        let f = parallel::count_parts(&solver, whole, &config, threads, &mut quiet).unwrap();
        if f.counted.end == End::Cut(Limit::Time) {
            // Resume the frontier on another number of threads: the total is exact.
            let mut rest = CheckEvery {
                problem: p.clone(),
                want: 724 - f.counted.stats.solutions,
                checkpoints: 0,
            };
            let g = parallel::count_parts(&solver, f.parts, &counting(), 4 - threads, &mut rest)
                .unwrap();
            assert_eq!(g.counted.end, End::Exhausted);
            assert_eq!(f.counted.stats.solutions + g.counted.stats.solutions, 724);
            resumed_some = true;
        } else {
            assert_eq!(f.counted.stats.solutions, 724);
        }
    }
    assert!(resumed_some, "no count was cut short");
}

#[test]
fn the_parts_of_a_split_are_disjoint_and_add_up() {
    for seed in 0..200u64 {
        let p = random_problem(seed);
        let mut solver = Solver::new(&p).unwrap();
        let Some(parts) = split_lists(&mut solver) else {
            continue;
        };
        // Every solution of the whole is found in exactly one part.
        let mut seen = BTreeSet::new();
        let mut total = 0;
        for part in &parts {
            solver
                .search_part(&part.0, &part.1, &SearchConfig::default(), &mut |s| {
                    let mut v: Vec<u32> = s.iter().map(|o| o.0).collect();
                    v.sort_unstable();
                    assert!(seen.insert(v), "seed {seed}: a solution in two parts");
                    total += 1;
                    Flow::Continue
                })
                .unwrap();
        }
        assert_eq!(Some(total), sequential_count(&p, &[]), "seed {seed}");
        // The split is the problem's, not the run's.
        let mut again = Solver::new(&p).unwrap();
        assert_eq!(split_lists(&mut again).unwrap(), parts);
    }
}

/// The split's parts as lists of forced and excluded options; `None` when the problem
/// cannot be split or its forced options clash.
fn split_lists(solver: &mut Solver) -> Option<Vec<(Vec<OptionId>, Vec<OptionId>)>> {
    if !solver.can_branch() {
        return None;
    }
    let parts = parallel::split(solver, &[], 16).ok()?;
    Some(parts.into_iter().map(|p| (p.forced, p.excluded)).collect())
}

#[test]
fn published_counts_on_several_threads() {
    for (p, want) in [
        (queens(8, QueensOrder::Plain), 92u128),
        (queens(10, QueensOrder::OrganPipe), 724),
        (langford(8), 300),
        (pentominoes(20, 3, false), 8),
    ] {
        // Split at once, after a probe cut short, and after the default probe.
        for (threads, probe) in [(2, 0), (3, 0), (8, 0), (2, 50), (3, parallel::PROBE_NODES)] {
            let out = parallel::count_tuned(
                &mut Solver::new(&p).unwrap(),
                &[],
                &SearchConfig::default(),
                threads,
                probe,
                63,
            )
            .unwrap();
            assert_eq!((out.stats.solutions, out.end), (want, End::Exhausted));
        }
    }
}

#[test]
fn the_command_line_counts_on_threads() {
    for threads in ["1", "2", "5"] {
        let r = common::cli::dlxc(&[
            "run",
            "examples/queens.dlx",
            "-p",
            "n=9",
            "--count",
            "--threads",
            threads,
        ]);
        assert_eq!((r.code, r.stdout.as_str()), (0, "352\n"), "{}", r.stderr);
    }
    let r = common::cli::dlxc(&["run", "examples/queens.dlx", "--count", "--threads", "0"]);
    assert_eq!(r.code, 2);
}
