//! Random small problems with costs, for the optimizing searches (seeded: a failure
//! names the seed that reproduces it). Needs the test crate's `rng` module
//! (`tests/common/rng.rs`).

#![allow(dead_code)] // each test binary uses a different part of this helper

use std::collections::BTreeSet;

use dlxc::problem::{Bounds, OptionId, Problem, ProblemBuilder};

use crate::rng::Rng;

/// Up to 10 items (exactly-once, at-least-once when `repeat`, secondary), up to 14
/// options of 1..=4 items with costs in `lo..=hi`.
pub fn random_problem(seed: u64, repeat: bool, lo: i64, hi: i64) -> Problem {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let n_items = 1 + rng.below(10) as usize;
    let mut b = ProblemBuilder::new();
    let mut names = Vec::new();
    for i in 0..n_items {
        let name = format!("i{i}");
        match rng.below(6) {
            0 => {
                b.secondary([name.clone()]);
            }
            1..=3 if repeat => {
                b.primary_bounded(name.clone(), Bounds { lo: 1, hi: None });
            }
            _ => {
                b.primary([name.clone()]);
            }
        }
        names.push(name);
    }
    let n_options = rng.below(15) as usize;
    for k in 0..n_options {
        let len = 1 + rng.below(4.min(n_items as u64));
        let mut chosen = BTreeSet::new();
        while chosen.len() < len as usize {
            chosen.insert(rng.below(n_items as u64) as usize);
        }
        let cost = lo + rng.below((hi - lo + 1) as u64) as i64;
        b.option_with(
            Some(format!("o{k}")),
            chosen.iter().map(|&i| names[i].as_str()),
            Some(cost),
        );
    }
    b.build()
}

/// One forced option for a third of the seeds, none for the others.
pub fn forced_for(p: &Problem, seed: u64) -> Vec<OptionId> {
    if seed.is_multiple_of(3) && !p.options.is_empty() {
        vec![OptionId((seed / 3 % p.options.len() as u64) as u32)]
    } else {
        Vec::new()
    }
}

/// Up to 6 primary and 4 secondary items, up to 13 options of 1..=3 primary items and
/// 0..=2 secondary ones (each colored `a`, `b` or not at all), a few options with
/// secondary items only, costs in `lo..=hi`.
pub fn random_colored_problem(seed: u64, lo: i64, hi: i64) -> Problem {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let n_primary = 1 + rng.below(6) as usize;
    let n_secondary = rng.below(5) as usize;
    let mut b = ProblemBuilder::new();
    let primary: Vec<String> = (0..n_primary).map(|i| format!("p{i}")).collect();
    let secondary: Vec<String> = (0..n_secondary).map(|i| format!("s{i}")).collect();
    b.primary(primary.clone());
    b.secondary(secondary.clone());
    let n_options = rng.below(14) as usize;
    for k in 0..n_options {
        let mut items = BTreeSet::new();
        // One option in eight has secondary items only (it is in a solution only when
        // forced).
        if n_secondary == 0 || rng.below(8) != 0 {
            let len = 1 + rng.below(3.min(n_primary as u64));
            while items.len() < len as usize {
                items.insert(rng.below(n_primary as u64) as usize);
            }
        }
        let mut entries: Vec<String> = items.iter().map(|&i| primary[i].clone()).collect();
        if n_secondary > 0 {
            let mut taken = BTreeSet::new();
            for _ in 0..rng.below(3) {
                taken.insert(rng.below(n_secondary as u64) as usize);
            }
            for s in taken {
                entries.push(match rng.below(3) {
                    0 => secondary[s].clone(),
                    1 => format!("{}:a", secondary[s]),
                    _ => format!("{}:b", secondary[s]),
                });
            }
        }
        if entries.is_empty() {
            entries.push(primary[0].clone());
        }
        let cost = lo + rng.below((hi - lo + 1) as u64) as i64;
        b.option_with(Some(format!("o{k}")), entries.iter(), Some(cost));
    }
    b.build()
}
