//! Counting on several threads: every thread count gives the sequential count, on random
//! problems (plain and colored, with and without forced options) and on published
//! counts; the parts of a split are disjoint and add up to the whole.

mod common {
    pub mod cli;
    pub mod problems;
}
#[path = "common/rng.rs"]
mod rng;

use std::collections::BTreeSet;

use common::problems::*;
use dlxc::problem::{OptionId, Problem, ProblemBuilder};
use dlxc::solve::{End, Flow, SearchConfig, Solver, parallel};
use rng::Rng;

/// Up to 10 items (some secondary, some of those colored), up to 40 options.
fn random_problem(seed: u64) -> Problem {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let n = 2 + rng.below(9) as usize;
    let mut b = ProblemBuilder::new();
    let mut secondary = vec![false; n];
    for (i, sec) in secondary.iter_mut().enumerate() {
        *sec = rng.below(4) == 0;
        if *sec {
            b.secondary([format!("i{i}")]);
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

fn sequential_count(p: &Problem, forced: &[OptionId]) -> Option<u128> {
    let config = SearchConfig {
        count_only: true,
        ..SearchConfig::default()
    };
    let out = Solver::new(p)
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
                let got = parallel::count_after_probe(
                    &mut solver,
                    &forced,
                    &SearchConfig::default(),
                    threads,
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

#[test]
fn the_parts_of_a_split_are_disjoint_and_add_up() {
    for seed in 0..200u64 {
        let p = random_problem(seed);
        let mut solver = Solver::new(&p).unwrap();
        let Ok(parts) = parallel::split(&mut solver, &[], 16) else {
            continue;
        };
        // Every solution of the whole is found in exactly one part.
        let mut seen = BTreeSet::new();
        let mut total = 0;
        for part in &parts {
            solver
                .search(part, &SearchConfig::default(), &mut |s| {
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
        assert_eq!(parallel::split(&mut again, &[], 16).unwrap(), parts);
    }
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
            let out = parallel::count_after_probe(
                &mut Solver::new(&p).unwrap(),
                &[],
                &SearchConfig::default(),
                threads,
                probe,
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
