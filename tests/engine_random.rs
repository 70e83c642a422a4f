//! Random small problems: the engine's solutions equal a brute-force enumeration of
//! every subset of options, and every way a search can end leaves the structure as it
//! found it. Seeded, so a failure names the seed that reproduces it.
//!
//! Algorithm X puts the links of a small problem back by copying a snapshot when that is
//! cheaper than undoing; every test here also runs a solver told to undo cover by cover
//! ([`Solver::undo_only`]), so that the undo path is checked on these problems too.

use std::collections::BTreeSet;

use dlxc::problem::{OptionId, Problem, ProblemBuilder};
use dlxc::solve::{EngineChoice, Flow, SearchConfig, Solver};

mod common {
    pub mod ends;
}
#[path = "common/rng.rs"]
mod rng;
use common::ends::{Ends, every_end, forced_sets};
use rng::Rng;

/// Up to 12 items (some secondary, in any position), up to 20 options of 1..=4 items
/// (or, in a third of the problems, of the same number of primary items each).
fn random_problem(seed: u64) -> Problem {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let n_items = 1 + rng.below(12) as usize;
    let mut b = ProblemBuilder::new();
    let mut names = Vec::new();
    let mut secondary = Vec::new();
    for i in 0..n_items {
        let name = format!("i{i}");
        secondary.push(rng.below(4) == 0);
        if secondary[i] {
            b.secondary([name.clone()]);
        } else {
            b.primary([name.clone()]);
        }
        names.push(name);
    }
    let n_options = rng.below(21) as usize;
    let primary: Vec<usize> = (0..n_items).filter(|&i| !secondary[i]).collect();
    // A third of the problems give every option the same number of primary items (and
    // at most one secondary item), the shape the bitset engine's unrolled commit takes.
    let arity = (!primary.is_empty() && rng.below(3) == 0)
        .then(|| 1 + rng.below(4.min(primary.len() as u64)) as usize);
    for _ in 0..n_options {
        let mut chosen = BTreeSet::new();
        match arity {
            Some(k) => {
                while chosen.len() < k {
                    chosen.insert(primary[rng.below(primary.len() as u64) as usize]);
                }
                let i = rng.below(n_items as u64) as usize;
                if secondary[i] && rng.below(2) == 0 {
                    chosen.insert(i);
                }
            }
            None => {
                let len = 1 + rng.below(4.min(n_items as u64));
                while chosen.len() < len as usize {
                    chosen.insert(rng.below(n_items as u64) as usize);
                }
            }
        }
        b.option(chosen.iter().map(|&i| names[i].as_str()));
    }
    b.build()
}

/// The solvers every test runs: bitsets (the automatic choice on problems this small),
/// dancing cells with each kind of save point, Algorithm X as shipped, Algorithm X
/// undoing cover by cover, and the general engine (Algorithm M), which makes the same
/// tree on plain problems.
fn solvers(p: &Problem) -> [(&'static str, Solver); 7] {
    let copying = Solver::with_engine(p, EngineChoice::Links).expect("plain problem");
    assert!(!copying.is_general());
    let mut undoing = copying.clone();
    undoing.undo_only();
    let bits = Solver::new(p).expect("plain problem");
    assert_eq!(bits.engine_name(), "bitsets");
    let cells = Solver::with_engine(p, EngineChoice::Cells).unwrap();
    let mut cells_undoing = cells.clone();
    cells_undoing.undo_only();
    [
        ("bits", bits),
        ("cells", cells),
        ("cells undoing", cells_undoing),
        (
            "cells trail",
            Solver::with_engine(p, EngineChoice::CellsTrail).unwrap(),
        ),
        ("X", copying),
        ("X undoing", undoing),
        ("M", Solver::general(p).unwrap()),
    ]
}

/// Every subset of options, containing the forced ones, that covers primary items exactly
/// once and secondary items at most once, each as a sorted list. As in Knuth's programs,
/// an option without primary items is never chosen by the search (only forced), so
/// subsets with such an option that is not forced are left out.
fn brute_force(p: &Problem, forced: &[OptionId]) -> BTreeSet<Vec<u32>> {
    let mask_of = |k: usize| -> u32 {
        p.options
            .get(k)
            .entries
            .iter()
            .map(|e| 1u32 << e.item.0)
            .sum()
    };
    let masks: Vec<u32> = (0..p.options.len()).map(mask_of).collect();
    let primary: u32 = (0..p.items.len())
        .filter(|&i| p.items[i].kind.is_primary())
        .map(|i| 1u32 << i)
        .sum();
    let forced: Vec<bool> = (0..masks.len())
        .map(|k| forced.contains(&OptionId(k as u32)))
        .collect();
    let mut out = BTreeSet::new();
    // Include or exclude each option in turn: every subset is visited, except that a
    // branch stops as soon as two options overlap (no superset of it can be valid).
    fn walk(
        k: usize,
        used: u32,
        chosen: &mut Vec<u32>,
        ctx: (&[u32], u32, &[bool]),
        out: &mut BTreeSet<Vec<u32>>,
    ) {
        let (masks, primary, forced) = ctx;
        if k == masks.len() {
            if used & primary == primary {
                out.insert(chosen.clone());
            }
            return;
        }
        let without_primary = masks[k] & primary == 0;
        if !forced[k] {
            walk(k + 1, used, chosen, ctx, out);
        }
        if used & masks[k] == 0 && (forced[k] || !without_primary) {
            chosen.push(k as u32);
            walk(k + 1, used | masks[k], chosen, ctx, out);
            chosen.pop();
        }
    }
    walk(0, 0, &mut Vec::new(), (&masks, primary, &forced), &mut out);
    out
}

#[test]
fn random_problems_match_brute_force() {
    // How many searches had at least one solution: the test must not be vacuous.
    let mut nonempty = 0;
    for seed in 0..3000u64 {
        let p = random_problem(seed);
        for (engine, solver) in &mut solvers(&p) {
            nonempty += check_against_brute_force(&p, seed, engine, solver);
        }
    }
    println!("{nonempty} searches with solutions");
    assert!(nonempty > 3000, "only {nonempty} searches had solutions");
}

/// Searches `p` without forced options and forcing one, against brute force; returns
/// how many of the searches had a solution.
fn check_against_brute_force(p: &Problem, seed: u64, engine: &str, solver: &mut Solver) -> usize {
    let mut nonempty = 0;
    let pristine = solver.structure_fingerprint();
    // Without forced options, then forcing one option (when there is one).
    let mut forced_sets = vec![vec![]];
    if !p.options.is_empty() {
        forced_sets.push(vec![OptionId((seed % p.options.len() as u64) as u32)]);
    }
    for forced in forced_sets {
        let mut got = BTreeSet::new();
        let mut dup = false;
        let out = solver
            .search(&forced, &SearchConfig::default(), &mut |s| {
                assert!(s.starts_with(&forced), "seed {seed}: forced options first");
                let mut v: Vec<u32> = s.iter().map(|o| o.0).collect();
                v.sort();
                dup |= !got.insert(v);
                Flow::Continue
            })
            .unwrap_or_else(|c| panic!("seed {seed}: unexpected clash {c}"));
        let want = brute_force(p, &forced);
        assert!(!dup, "seed {seed}: a solution was reported twice");
        assert_eq!(
            got, want,
            "{engine}, seed {seed}, forced {forced:?}: solutions differ"
        );
        assert_eq!(out.stats.solutions, want.len() as u128, "seed {seed}");
        nonempty += usize::from(!want.is_empty());
        assert_eq!(
            solver.structure_fingerprint(),
            pristine,
            "{engine}, seed {seed}: links changed"
        );
    }
    nonempty
}

/// Every way a search can end — exhausted, stopped by the visitor, `max_solutions`
/// (counting or not), the node limit at every node count, a clash among the forced
/// options — leaves the structure exactly as it found it, in every engine; and the
/// search after all that finds what the first one found.
#[test]
fn every_kind_of_end_restores_the_structure() {
    let mut ends = Ends::default();
    for seed in 0..600u64 {
        let p = random_problem(seed);
        let forced_sets = forced_sets(&mut Rng(seed + 7), p.options.len() as u64);
        for (engine, s) in &mut solvers(&p) {
            let pristine = s.structure_fingerprint();
            // Without its pristine copy the cells engine leaves its sets permuted, as
            // it does for large problems.
            let reorders = *engine == "cells undoing";
            for forced in &forced_sets {
                let at = format!("{engine}, seed {seed}");
                every_end(s, forced, pristine, reorders, &at, &mut ends);
            }
        }
    }
    // Each kind of end happened many times.
    assert!(
        ends.clashes > 300 && ends.stops > 1000 && ends.cuts > 10_000,
        "{ends:?}"
    );
}
