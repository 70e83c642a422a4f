//! Optimizing-search benchmark: `cargo bench --bench optimize`.
//!
//! Measures the branch and bound of [`Optimizer::solve`] alone (wall time, nodes and
//! updates of the search, not parsing or lowering) on the problems the shipped models
//! lower to:
//!
//! - `examples/matchsticks.dlx` (POJ 1084): the intact grids n = 1..=5, then the worst
//!   case by nodes of 3000 random sets of missing sticks for n = 4 and 5 (seeded, so the
//!   same cases every run), with the time of all 3000 searches.
//! - `examples/target-sudoku.dlx` (NOIP 2009): its sample 2, then the worst case by
//!   nodes of 20 random puzzles with 30, 28 and 25 clues.
//! - `costs`: DLX5 files, least cost on one thread: the shared pentomino, sudoku and
//!   queens files (`../shared/bench`) with costs 0-9 drawn as `benches/instances/costs.py`
//!   draws them, and the colored fixtures `tests/fixtures/*_cost.dlx5` (Knuth's format, as DLX5 reads it)
//!   (`DLXC_SHARED_BENCH=DIR` for the shared files elsewhere).
//!
//! - `bounds`: `examples/double-cover.dlx` (cells covered at least twice, `: 2..`, the
//!   optimizer of other multiplicities) for n = 5..=8.
//!
//! Each case is lowered through the library exactly as `dlxc run MODEL --data FILE`
//! lowers a record (same items, options and order, so the node counts are those of the
//! shipped models), before the clock starts. Pass case names as arguments to run only
//! those (`cargo bench --bench optimize -- matchsticks`).

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use dlxc::check::{Checked, check};
use dlxc::lower::Lowerer;
use dlxc::lower::data::parse_text;
use dlxc::lower::value::Value;
use dlxc::problem::{OptionId, Problem};
use dlxc::solve::{Objective, Optimizer, Optimum, SearchConfig};
use dlxc::source::SourceFile;
use dlxc::syntax::ast::Model;
use dlxc::syntax::parse;

mod common;
#[path = "../tests/common/rng.rs"]
mod rng;
use rng::Rng;

/// A shipped model, parsed and checked once.
struct Shipped {
    src: SourceFile,
    model: Model,
    checked: Checked,
}

impl Shipped {
    fn load(path: &str) -> Shipped {
        let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        let text = std::fs::read_to_string(&full).expect("a shipped model");
        let src = SourceFile::new(path, text);
        let model = parse(&src).expect("the model parses");
        let checked = check(&model, &src).expect("the model checks");
        Shipped {
            src,
            model,
            checked,
        }
    }

    /// The problem and forced options of the model with the parameters `params`, as
    /// `dlxc run MODEL -p name=value` lowers it.
    fn with_params(&self, params: &[(&str, i64)]) -> (Problem, Vec<OptionId>) {
        let overrides = params
            .iter()
            .map(|&(k, v)| (k.to_string(), Value::Int(v)))
            .collect();
        let depends = |i: usize, p: usize| self.checked.depends_on(i, &[p]);
        let mut lowerer = Lowerer::new(
            &self.model,
            &self.src,
            &depends,
            overrides,
            false,
            usize::MAX,
        )
        .unwrap_or_else(|_| panic!("{} lowers", self.src.name()));
        let inst = lowerer
            .instance(None)
            .unwrap_or_else(|_| panic!("{} lowers with {params:?}", self.src.name()));
        (inst.compiled.problem.clone(), inst.forced)
    }

    /// A lowerer for records of the model's data parameter, as with `--data`.
    fn lowerer(&self) -> Lowerer<'_> {
        let depends = |i: usize, p: usize| self.checked.depends_on(i, &[p]);
        Lowerer::new(
            &self.model,
            &self.src,
            &depends,
            HashMap::new(),
            true,
            usize::MAX,
        )
        .unwrap_or_else(|_| panic!("{} lowers", self.src.name()))
    }
}

/// The problem and forced options of one record, given as the text of a data file's
/// record.
fn instance(lowerer: &mut Lowerer<'_>, record: &str) -> (Problem, Vec<OptionId>) {
    let (_, ty) = lowerer.data_param().expect("a data parameter").clone();
    let value = parse_text(record, &ty).expect("a valid record");
    let inst = lowerer
        .instance(Some(value))
        .unwrap_or_else(|_| panic!("the record {record:?} lowers"));
    (inst.compiled.problem.clone(), inst.forced)
}

/// The record of `examples/matchsticks.dlx` for grid `n` without `missing` (bit `m - 1`
/// for stick `m`): `n`, the number of missing sticks, then the sticks.
fn matchsticks_record(n: usize, missing: u64) -> String {
    let list: Vec<String> = (0..64)
        .filter(|m| missing >> m & 1 == 1)
        .map(|m| (m + 1).to_string())
        .collect();
    format!("{n} {} {}", list.len(), list.join(" "))
}

/// The record of `examples/target-sudoku.dlx` for a puzzle of 81 digits (0: empty).
fn target_record(puzzle: &str) -> String {
    puzzle
        .as_bytes()
        .chunks(9)
        .map(|row| {
            row.iter()
                .map(|&d| char::from(d).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
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

/// Knuth's file `text` with a cost `|c`, c in 0..=9, appended to each option line, drawn
/// exactly as `benches/instances/costs.py` draws them from `seed` (so the files this
/// bench solves are the ones docs/benchmarks.md times against DLX5).
fn with_costs(text: &str, seed: u64) -> String {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1);
    let mut draw = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % 10
    };
    let mut seen_items = false;
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if line.trim().is_empty() || t.starts_with('|') {
            out.push_str(line);
        } else if !seen_items {
            seen_items = true;
            out.push_str(line);
        } else {
            out.push_str(&format!("{} |{}", line.trim_end(), draw()));
        }
        out.push('\n');
    }
    out
}

/// The least cost of a DLX5 file, on one thread (as `dlxc solve F`).
fn solve_file(name: &str, text: &str) {
    let src = SourceFile::new(name, text.to_string());
    let problem = dlxc::format::knuth::read(&src).expect("a valid file");
    let (out, wall) = solve(&problem, &[], Objective::MinimizeCost);
    row(name, &out, wall);
}

fn main() {
    let wanted = common::wanted();
    println!(
        "{:<34} {:>7} {:>9} {:>11} {:>11}",
        "case", "value", "nodes", "updates", "wall"
    );
    if wanted("matchsticks") {
        let model = Shipped::load("examples/matchsticks.dlx");
        let mut lowerer = model.lowerer();
        let mut matchsticks = |n, missing| instance(&mut lowerer, &matchsticks_record(n, missing));
        for n in 1..=5 {
            let (p, forced) = matchsticks(n, 0);
            let (out, wall) = solve(&p, &forced, Objective::MinimizeCount);
            row(&format!("matchsticks-{n}-intact"), &out, wall);
        }
        for n in [4usize, 5] {
            let total = 2 * n * (n + 1);
            let mut rng = Rng(n as u64 * 7919);
            let mut worst: Option<(Optimum, f64, Vec<usize>)> = None;
            let mut searching = 0.0;
            let cases = 3000;
            for _ in 0..cases {
                let k = rng.below(8);
                let mut missing = 0u64;
                for _ in 0..k {
                    missing |= 1 << rng.below(total as u64);
                }
                let (p, forced) = matchsticks(n, missing);
                let (out, wall) = solve(&p, &forced, Objective::MinimizeCount);
                searching += wall;
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
                println!("  missing {list:?}; the {cases} searches took {searching:.2} s");
            }
        }
    }
    if wanted("costs") {
        // The shared files with costs 0-9 from seed 1, then the colored fixtures.
        // `DLXC_SHARED_BENCH` names the folder when the checkout is not beside it.
        let shared = std::env::var_os("DLXC_SHARED_BENCH").map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench"),
            std::path::PathBuf::from,
        );
        for name in [
            "pento_6x10_raw",
            "pento_5x12_raw",
            "pento_6x10",
            "pento_8x8-2x2",
            "sudoku_inkala_minus2",
            "sudoku_inkala_minus3",
            "queens_14",
            "queens_16",
        ] {
            match std::fs::read_to_string(shared.join(format!("{name}.dlx"))) {
                Ok(text) => solve_file(&format!("costs-{name}"), &with_costs(&text, 1)),
                Err(_) => println!("costs-{name}: {name}.dlx not found in {shared:?}, skipped"),
            }
        }
        for name in ["queens_08_cost", "wordrect_4x4_cost"] {
            let path =
                Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/{name}.dlx5"));
            let text = std::fs::read_to_string(path).expect("a fixture");
            solve_file(&format!("costs-{name}"), &text);
        }
    }
    if wanted("bounds") {
        let model = Shipped::load("examples/double-cover.dlx");
        for n in 5..=8 {
            let (p, forced) = model.with_params(&[("n", n)]);
            let (out, wall) = solve(&p, &forced, Objective::MinimizeCount);
            row(&format!("double-cover-{n}x{n}"), &out, wall);
        }
    }
    if wanted("target") {
        let model = Shipped::load("examples/target-sudoku.dlx");
        let mut lowerer = model.lowerer();
        let mut target_sudoku = |puzzle: &str| instance(&mut lowerer, &target_record(puzzle));
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
