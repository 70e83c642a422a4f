//! The general engine (Algorithm M with colors): random problems with colors and
//! multiplicities against brute force, the same search tree as DLX1 on plain problems,
//! bounded 0/1 matrices (OEIS A001499), and the Knuth-format round trip.

mod common {
    pub mod cli;
    pub mod ends;
    pub mod mcc;
    pub mod problems;
}

use std::collections::BTreeSet;

use common::cli::{dlxc, temp_file};
use common::ends::{Ends, every_end, forced_sets};
use common::mcc::{brute_force, random_problem};
use common::problems::*;
use dlxc::problem::{Bounds, OptionId, Problem, ProblemBuilder};
use dlxc::solve::{EngineChoice, Flow, SearchConfig, Solver};

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

/// The solutions found by the engine, each as a sorted list of option numbers; panics
/// if one is found twice.
fn solve(s: &mut Solver, forced: &[OptionId]) -> Option<BTreeSet<Vec<u32>>> {
    let mut found = BTreeSet::new();
    let r = s.search(forced, &SearchConfig::default(), &mut |x| {
        let mut v: Vec<u32> = x.iter().map(|o| o.0).collect();
        v.sort_unstable();
        assert!(found.insert(v), "a solution was found twice");
        Flow::Continue
    });
    r.ok().map(|_| found)
}

fn check_random(colors: bool, bounds: bool, seeds: u64) {
    let mut nonempty = 0;
    for seed in 0..seeds {
        let p = random_problem(seed, colors, bounds);
        let want = brute_force(&p, &[]);
        nonempty += usize::from(!want.is_empty());
        // Every engine: Algorithm M, dancing cells (with multiplicities where an item
        // has bounds, with both kinds of save point) and bitsets; each must agree with
        // brute force, clashes included. Bitsets twice: with multiplicities the
        // smallest problems tally their counts, and the other keeps them.
        let engines = vec![
            Solver::general(&p).unwrap(),
            Solver::with_engine(&p, EngineChoice::Cells).unwrap(),
            Solver::with_engine(&p, EngineChoice::CellsTrail).unwrap(),
            Solver::with_engine(&p, EngineChoice::Bits).unwrap(),
            Solver::with_engine(&p, EngineChoice::BitsKept).unwrap(),
        ];
        for mut s in engines {
            let engine = s.engine_name();
            let pristine = s.structure_fingerprint();
            let got = solve(&mut s, &[]).unwrap();
            assert_eq!(got, want, "seed {seed}, {engine}: {p:#?}");
            // Force one or two random options: a clash must mean no solution at all.
            if !p.options.is_empty() {
                let mut rng = Rng(seed + 1);
                let m = p.options.len() as u64;
                let forced = [OptionId(rng.below(m) as u32), OptionId(rng.below(m) as u32)];
                let forced = if forced[0] == forced[1] {
                    &forced[..1]
                } else {
                    &forced[..]
                };
                let want = brute_force(&p, forced);
                match solve(&mut s, forced) {
                    Some(got) => {
                        assert_eq!(got, want, "seed {seed}, {engine}, forced {forced:?}")
                    }
                    None => assert!(
                        want.is_empty(),
                        "seed {seed}, {engine}: clash, yet {want:?}"
                    ),
                }
            }
            assert_eq!(s.structure_fingerprint(), pristine, "seed {seed}, {engine}");
        }
    }
    assert!(
        nonempty > seeds as usize / 10,
        "only {nonempty} problems had solutions"
    );
}

#[test]
fn random_colored_problems_match_brute_force() {
    check_random(true, false, 1500);
}

#[test]
fn random_bounded_problems_match_brute_force() {
    check_random(false, true, 1500);
}

#[test]
fn random_colored_and_bounded_problems_match_brute_force() {
    check_random(true, true, 2000);
}

/// On plain exact cover the general engine's choice rule is DLX1's, so the search trees
/// are the same: same solutions in the same order, same node counts.
#[test]
fn general_engine_makes_dlx1_tree_on_plain_problems() {
    for p in [
        queens(8, QueensOrder::Plain),
        langford(8),
        pentominoes(5, 6, true),
        sudoku_empty(2),
    ] {
        let mut x = Solver::with_engine(&p, EngineChoice::Links).unwrap();
        let mut m = Solver::general(&p).unwrap();
        assert!(!x.is_general() && m.is_general());
        let (a, ox) = search_all(&mut x, &[]).unwrap();
        let (b, om) = search_all(&mut m, &[]).unwrap();
        assert_eq!(a, b);
        assert_eq!(ox.stats.nodes, om.stats.nodes);
    }
}

/// n x n 0/1 matrices with exactly two 1s in each row and column: one option per cell,
/// covering its row and its column, each of multiplicity 2.
fn two_per_line(n: usize) -> Problem {
    let mut b = ProblemBuilder::new();
    for r in 0..n {
        b.primary_bounded(format!("r{r}"), Bounds { lo: 2, hi: Some(2) });
    }
    for c in 0..n {
        b.primary_bounded(format!("c{c}"), Bounds { lo: 2, hi: Some(2) });
    }
    for r in 0..n {
        for c in 0..n {
            b.option([format!("r{r}"), format!("c{c}")]);
        }
    }
    b.build()
}

fn count(p: &Problem) -> u128 {
    let config = SearchConfig {
        count_only: true,
        ..SearchConfig::default()
    };
    let mut s = Solver::new(p).unwrap();
    s.search(&[], &config, &mut |_| Flow::Continue)
        .unwrap()
        .stats
        .solutions
}

#[test]
fn a001499_two_ones_per_row_and_column() {
    assert_eq!(count(&two_per_line(2)), 1);
    assert_eq!(count(&two_per_line(3)), 6);
    assert_eq!(count(&two_per_line(4)), 90);
    assert_eq!(count(&two_per_line(5)), 2040);
    assert_eq!(count(&two_per_line(6)), 67950);
}

/// Algorithm M builds DLX3's search tree and makes DLX3's updates: node and update
/// counts as printed by Knuth's DLX3 on the same matrices (`rowcol2_5`, `rowcol2_6`:
/// rows first, then columns, options row by row).
#[test]
fn two_per_line_counts_are_dlx3s() {
    let config = SearchConfig {
        count_only: true,
        ..SearchConfig::default()
    };
    for (n, solutions, nodes, updates) in [(5, 2040, 6150, 21913), (6, 67950, 198658, 715151)] {
        let mut s = Solver::with_engine(&two_per_line(n), EngineChoice::Links).unwrap();
        assert!(s.is_general());
        let o = s.search(&[], &config, &mut |_| Flow::Continue).unwrap();
        assert_eq!(
            (o.stats.solutions, o.stats.nodes, o.stats.updates),
            (solutions, nodes, updates),
            "two per line, n = {n}"
        );
    }
}

/// The same count from the problem, from `dlxc solve` on the problem written in Knuth's
/// format, and from brute force.
#[test]
fn knuth_format_round_trip() {
    let mut checked = 0;
    for seed in 0..40 {
        let p = random_problem(seed, true, true);
        let want = brute_force(&p, &[]).len() as u128;
        assert_eq!(count(&p), want, "seed {seed}");
        let mut text = String::new();
        dlxc::format::knuth::write(&p, &mut text).unwrap();
        let path = temp_file("mcc.dlx.txt", &text);
        let run = dlxc(&["solve", "--count", path.to_str().unwrap()]);
        assert_eq!(
            run.stdout.trim(),
            want.to_string(),
            "seed {seed}:\n{text}\n{}",
            run.stderr
        );
        checked += usize::from(want > 0);
    }
    assert!(checked > 5);
    let p = two_per_line(4);
    let mut text = String::new();
    dlxc::format::knuth::write(&p, &mut text).unwrap();
    let path = temp_file("a001499.txt", &text);
    let run = dlxc(&["solve", "--count", path.to_str().unwrap()]);
    assert_eq!(run.stdout.trim(), "90", "{}", run.stderr);
}

/// Every way a search can end (exhausted, node limit, `max_solutions`, the visitor
/// saying stop, a clash among the forced options), with and without forced options,
/// leaves the structure as it found it, and the next full search is unchanged.
#[test]
fn every_kind_of_end_restores_the_structure() {
    let mut ends = Ends::default();
    for seed in 0..400 {
        let p = random_problem(seed, true, true);
        for choice in [
            EngineChoice::Links,
            EngineChoice::Cells,
            EngineChoice::CellsTrail,
        ] {
            let mut s = Solver::with_engine(&p, choice).unwrap();
            let pristine = s.structure_fingerprint();
            for forced in &forced_sets(&mut Rng(seed + 3), p.options.len() as u64) {
                every_end(
                    &mut s,
                    forced,
                    pristine,
                    false,
                    &format!("seed {seed}, {choice:?}"),
                    &mut ends,
                );
            }
        }
    }
    // Each kind of end happened many times.
    assert!(
        ends.clashes > 100 && ends.stops > 500 && ends.cuts > 5000,
        "{ends:?}"
    );
}

/// Knuth's own examples of DLX2 and DLX3, solved by `dlxc solve`: their unique
/// solutions, as the comments in the files (and Knuth's documentation) give them.
#[test]
fn knuths_dlx2_and_dlx3_examples() {
    let lines = |out: &str| -> BTreeSet<String> { out.lines().map(str::to_string).collect() };
    let r = dlxc(&["solve", "--all", "examples/knuth/colors.dlx2"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(lines(&r.stdout), lines("q x:A\np r x:A y\n"));
    let r = dlxc(&["solve", "--all", "examples/knuth/bounds.dlx3"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(lines(&r.stdout), lines("A C X:1 Y:1\nB X:1\nC Y:1\n"));
}
