//! Random problems with colors and multiplicities, and their solutions by brute force:
//! shared by the tests of the multiplicity engines. Needs the test crate's `rng` module
//! (`tests/common/rng.rs`).

#![allow(dead_code)]

use std::collections::BTreeSet;

use dlxc::problem::{Bounds, ItemKind, OptionId, Problem, ProblemBuilder};

use crate::rng::Rng;

/// Up to 8 items, some primary with random bounds (`lo` may be 0, `hi` may be absent),
/// some secondary; up to 14 options of 1..=4 items, each with at least one primary item
/// (the engine never chooses an option without one), secondary items colored `r`, `g`
/// or uncolored. With `colors` false no color is used; with `bounds` false every
/// primary item is exactly once.
pub fn random_problem(seed: u64, colors: bool, bounds: bool) -> Problem {
    random_priced_problem(seed, colors, bounds, None)
}

/// A problem drawn as by [`random_problem`], with a cost drawn in `lo..=hi` for each
/// option when `costs` is `Some((lo, hi))` (without costs, `random_problem`'s problem).
pub fn random_priced_problem(
    seed: u64,
    colors: bool,
    bounds: bool,
    costs: Option<(i64, i64)>,
) -> Problem {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let n_items = 1 + rng.below(8) as usize;
    let mut b = ProblemBuilder::new();
    let mut primary = Vec::new();
    let mut secondary = Vec::new();
    for i in 0..n_items {
        let name = format!("i{i}");
        if i > 0 && rng.below(3) == 0 {
            b.secondary([name.clone()]);
            secondary.push(name);
        } else {
            let lo = if bounds { rng.below(3) as u32 } else { 1 };
            let hi = match (bounds, rng.below(5)) {
                (false, _) => Some(1),
                (true, 0) => None,
                (true, k) => Some(lo + (k as u32 - 1).min(2)),
            };
            b.primary_bounded(name.clone(), Bounds { lo, hi });
            primary.push(name);
        }
    }
    let n_options = rng.below(15) as usize;
    for _ in 0..n_options {
        let mut chosen = BTreeSet::new();
        chosen.insert(format!("P{}", rng.below(primary.len() as u64)));
        let extra = rng.below(4);
        for _ in 0..extra {
            if !secondary.is_empty() && rng.below(2) == 0 {
                chosen.insert(format!("S{}", rng.below(secondary.len() as u64)));
            } else {
                chosen.insert(format!("P{}", rng.below(primary.len() as u64)));
            }
        }
        let entries: Vec<String> = chosen
            .iter()
            .map(|c| {
                let k: usize = c[1..].parse().unwrap();
                if c.starts_with('P') {
                    primary[k].clone()
                } else {
                    match (colors, rng.below(3)) {
                        (true, 0) => format!("{}:r", secondary[k]),
                        (true, 1) => format!("{}:g", secondary[k]),
                        _ => secondary[k].clone(),
                    }
                }
            })
            .collect();
        let cost = costs.map(|(lo, hi)| lo + rng.below((hi - lo + 1) as u64) as i64);
        b.option_with(None, entries, cost);
    }
    b.build()
}

/// Larger than [`random_problem`], for engines checked against each other rather than
/// brute force: 2 to 10 primary items with bounds up to `4..10` (`hi` may be absent), up
/// to 3 secondary items, and 8 to 47 options (147 for every third seed, so that bitsets
/// take several words) of 1 to 3 primary items and at most one secondary item, colored
/// `r`, `g` or not.
pub fn larger_problem(seed: u64) -> Problem {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let n1 = 2 + rng.below(9);
    let n2 = rng.below(4);
    let mut b = ProblemBuilder::new();
    for i in 0..n1 {
        let lo = rng.below(5) as u32;
        let hi = match rng.below(6) {
            0 => None,
            k => Some(lo + k as u32 - 1 + rng.below(3) as u32),
        };
        b.primary_bounded(format!("p{i}"), Bounds { lo, hi });
    }
    for i in 0..n2 {
        b.secondary([format!("s{i}")]);
    }
    let m = 8 + rng.below(if seed.is_multiple_of(3) { 140 } else { 40 });
    for _ in 0..m {
        let mut items = BTreeSet::new();
        for _ in 0..1 + rng.below(3) {
            items.insert(format!("p{}", rng.below(n1)));
        }
        let mut entries: Vec<String> = items.into_iter().collect();
        if n2 > 0 && rng.below(2) == 0 {
            let s = rng.below(n2);
            entries.push(match rng.below(3) {
                0 => format!("s{s}"),
                1 => format!("s{s}:r"),
                _ => format!("s{s}:g"),
            });
        }
        b.option(entries);
    }
    b.build()
}

/// Every set of options containing the forced ones that is a solution in the exact
/// sense of XCC/MCC: each primary item covered between `lo` and `hi` times; each
/// secondary item covered at most once, or only by options that give it the same color.
pub fn brute_force(p: &Problem, forced: &[OptionId]) -> BTreeSet<Vec<u32>> {
    let m = p.options.len();
    let mut out = BTreeSet::new();
    'subsets: for set in 0u32..(1 << m) {
        if forced.iter().any(|o| set & (1 << o.0) == 0) {
            continue;
        }
        let mut count = vec![0u32; p.items.len()];
        // Per secondary item: None = free, Some(None) = claimed outright, Some(c) = colored.
        let mut color: Vec<Option<Option<u32>>> = vec![None; p.items.len()];
        for k in 0..m {
            if set & (1 << k) == 0 {
                continue;
            }
            for e in p.options.get(k).entries {
                let i = e.item.index();
                count[i] += 1;
                if !p.items[i].kind.is_primary() {
                    let c = e.color.map(|c| c.number());
                    match color[i] {
                        None => color[i] = Some(c),
                        Some(had) if had.is_some() && had == c => {}
                        Some(_) => continue 'subsets,
                    }
                }
            }
        }
        for (i, item) in p.items.iter().enumerate() {
            if let ItemKind::Primary { bounds } = item.kind
                && (count[i] < bounds.lo || bounds.hi.is_some_and(|h| count[i] > h))
            {
                continue 'subsets;
            }
        }
        out.insert((0..m as u32).filter(|k| set & (1 << k) != 0).collect());
    }
    out
}
