//! Optimizing-search benchmark: `cargo bench --bench optimize`.
//!
//! - The intact matchsticks grids n = 1..=5 (POJ 1084), then the worst case by nodes of
//!   a few thousand random sets of missing sticks for n = 4 and 5 (seeded, so the same
//!   cases every run).
//! - Target sudoku (NOIP 2009) on puzzles with 25 to 30 clues.
//!
//! The problems are built here directly (the same matrices the shipped models lower to),
//! so the figures are the engine's alone. Pass case names as arguments to run only
//! those (`cargo bench --bench optimize -- matchsticks`).

use std::time::Instant;

use dlxc::problem::{Bounds, OptionId, Problem, ProblemBuilder};
use dlxc::solve::{Objective, Optimizer, Optimum, SearchConfig};

mod common;
#[path = "../tests/common/rng.rs"]
mod rng;
use rng::Rng;

/// The matchsticks problem of `examples/matchsticks.dlx` for grid `n` without `missing`
/// (bit `m - 1` for stick `m`).
fn matchsticks(n: usize, missing: u64) -> Problem {
    let w = 2 * n + 1;
    let mut squares = Vec::new();
    for s in 1..=n {
        for r in 0..=n - s {
            for c in 0..=n - s {
                let mut m = 0u64;
                for i in 0..s {
                    m |= 1 << (r * w + c + i);
                    m |= 1 << ((r + s) * w + c + i);
                    m |= 1 << ((r + i) * w + n + c);
                    m |= 1 << ((r + i) * w + n + c + s);
                }
                if m & missing == 0 {
                    squares.push(m);
                }
            }
        }
    }
    let mut b = ProblemBuilder::new();
    for k in 0..squares.len() {
        b.primary_bounded(format!("q{k}"), Bounds { lo: 1, hi: None });
    }
    let useful = squares.iter().fold(0, |a, s| a | s);
    for m in 0..2 * n * (n + 1) {
        if useful >> m & 1 == 1 {
            let items: Vec<String> = (0..squares.len())
                .filter(|&k| squares[k] >> m & 1 == 1)
                .map(|k| format!("q{k}"))
                .collect();
            b.option_with(Some(format!("take[{}]", m + 1)), items, None);
        }
    }
    b.build()
}

/// The target-sudoku problem of `examples/target-sudoku.dlx` and the clue options.
fn target_sudoku(puzzle: &str) -> (Problem, Vec<OptionId>) {
    let mut b = ProblemBuilder::new();
    for r in 0..9 {
        for c in 0..9 {
            b.primary([format!("c{r}{c}")]);
        }
    }
    for x in 0..9 {
        for v in 1..=9 {
            b.primary([format!("r{x}{v}"), format!("k{x}{v}"), format!("b{x}{v}")]);
        }
    }
    let digits: Vec<u32> = puzzle.chars().filter_map(|ch| ch.to_digit(10)).collect();
    let mut forced = Vec::new();
    for r in 0..9 {
        for c in 0..9 {
            let w = 6 + r.min(c).min(8 - r).min(8 - c) as i64;
            for v in 1..=9u32 {
                let id = b.option_with(
                    None,
                    [
                        format!("c{r}{c}"),
                        format!("r{r}{v}"),
                        format!("k{c}{v}"),
                        format!("b{}{v}", r / 3 * 3 + c / 3),
                    ],
                    Some(i64::from(v) * w),
                );
                if digits[r * 9 + c] == v {
                    forced.push(id);
                }
            }
        }
    }
    (b.build(), forced)
}

fn solve(problem: &Problem, forced: &[OptionId], obj: Objective) -> (Optimum, f64) {
    let mut opt = Optimizer::new(problem, obj).expect("supported");
    let t = Instant::now();
    let out = opt
        .solve(forced, false, &SearchConfig::default(), &mut |_, _| {})
        .expect("no clash");
    (out, t.elapsed().as_secs_f64())
}

fn row(name: &str, out: &Optimum, wall: f64) {
    println!(
        "{name:<34} {:>7} {:>9} {:>11} {:>9.4} s",
        out.value.map_or("none".to_string(), |v| v.to_string()),
        out.stats.nodes,
        out.stats.updates,
        wall
    );
}

/// NOIP 2009 sample 2 (2852 points, 30 clues).
const NOIP_SAMPLE_2: &str =
    "000702453900008000740005010195080000070000025030579108000601000060900001000000006";

/// A puzzle with `clues` clues kept at random from a shuffled solved grid: few clues and
/// many completions, the hard case for the bound.
fn random_target(rng: &mut Rng, clues: usize) -> String {
    let mut perm: Vec<u8> = (1..=9).collect();
    for i in (1..9).rev() {
        perm.swap(i, rng.below(i as u64 + 1) as usize);
    }
    // Rows within a band and columns within a stack may be swapped freely.
    let mut rows: Vec<usize> = (0..9).collect();
    let mut cols: Vec<usize> = (0..9).collect();
    for band in 0..3 {
        for i in (1..3).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            rows.swap(band * 3 + i, band * 3 + j);
            let j = rng.below(i as u64 + 1) as usize;
            cols.swap(band * 3 + i, band * 3 + j);
        }
    }
    let mut keep = [false; 81];
    let mut kept = 0;
    while kept < clues {
        let k = rng.below(81) as usize;
        if !keep[k] {
            keep[k] = true;
            kept += 1;
        }
    }
    (0..81)
        .map(|k| {
            let (r, c) = (rows[k / 9], cols[k % 9]);
            if keep[k] {
                char::from(b'0' + perm[(r * 3 + r / 3 + c) % 9])
            } else {
                '0'
            }
        })
        .collect()
}

fn main() {
    let wanted = common::wanted();
    println!(
        "{:<34} {:>7} {:>9} {:>11} {:>11}",
        "case", "value", "nodes", "updates", "wall"
    );
    if wanted("matchsticks") {
        for n in 1..=5 {
            let (out, wall) = solve(&matchsticks(n, 0), &[], Objective::MinimizeCount);
            row(&format!("matchsticks-{n}-intact"), &out, wall);
        }
        for n in [4usize, 5] {
            let total = 2 * n * (n + 1);
            let mut rng = Rng(n as u64 * 7919);
            let mut worst: Option<(Optimum, f64, Vec<usize>)> = None;
            let t = Instant::now();
            let cases = 3000;
            for _ in 0..cases {
                let k = rng.below(8);
                let mut missing = 0u64;
                for _ in 0..k {
                    missing |= 1 << rng.below(total as u64);
                }
                let (out, wall) = solve(&matchsticks(n, missing), &[], Objective::MinimizeCount);
                if worst
                    .as_ref()
                    .is_none_or(|w| out.stats.nodes > w.0.stats.nodes)
                {
                    let list = (0..total).filter(|m| missing >> m & 1 == 1).map(|m| m + 1);
                    worst = Some((out, wall, list.collect()));
                }
            }
            if let Some((out, wall, list)) = worst {
                row(&format!("matchsticks-{n}-worst-of-{cases}"), &out, wall);
                println!(
                    "  missing {list:?}; all {cases} cases in {:.2} s",
                    t.elapsed().as_secs_f64()
                );
            }
        }
    }
    if wanted("target") {
        let (p, forced) = target_sudoku(NOIP_SAMPLE_2);
        let (out, wall) = solve(&p, &forced, Objective::MaximizeCost);
        row("target-noip-sample-2 (30 clues)", &out, wall);
        for clues in [30, 28, 25] {
            let mut rng = Rng(clues as u64 * 104_729);
            let mut worst: Option<(Optimum, f64, String)> = None;
            let cases = 20;
            for _ in 0..cases {
                let puzzle = random_target(&mut rng, clues);
                let (p, forced) = target_sudoku(&puzzle);
                let (out, wall) = solve(&p, &forced, Objective::MaximizeCost);
                if worst
                    .as_ref()
                    .is_none_or(|w| out.stats.nodes > w.0.stats.nodes)
                {
                    worst = Some((out, wall, puzzle));
                }
            }
            if let Some((out, wall, puzzle)) = worst {
                row(
                    &format!("target-{clues}-clues-worst-of-{cases}"),
                    &out,
                    wall,
                );
                println!("  {puzzle}");
            }
        }
    }
}
