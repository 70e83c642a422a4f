//! Engine benchmark: `cargo bench --bench engine`.
//!
//! Measures [`Solver::search`] alone (no parsing, lowering or printing) on matrices
//! built in code by `tests/common/problems.rs` in Knuth's item orders, so that the node
//! and update counts of the links engine can be compared with his DLX1 on the same
//! problems. Each row gives solutions, nodes, updates, nodes per second and wall time of
//! one run:
//!
//! - `queens12`, `queens13`: count the n-queens solutions (organ-pipe order).
//! - `pentomino6x10`: count the 6x10 pentomino packings with one piece restricted.
//! - `langford12`: count Langford pairs for n = 12, half (value 1 left of its mirror)
//!   and raw.
//! - `sudoku`: every solution of one hard puzzle (forced clues), the visitor called.
//! - `sudoku17`: the 49,158 17-clue puzzles of `../shared` with one solver, first
//!   solution only (the work of `dlxc run`) and all solutions (counting); skipped when
//!   the file is absent.
//! - `calibrate` (only when named): 8 and 12 queens in plain and organ-pipe order.
//!
//! `DLXC_ENGINE=links`, `cells` or `trail` (dancing cells with a trail of sizes) runs
//! that engine instead of the automatic choice (dancing cells); node and update counts
//! are DLX1's only with `links`. One run per case: the node counts, not the timings, are
//! what regressions are judged on; the times are for comparing engines, and with DLX1
//! (gcc -O3), on the same machine. Pass case names as arguments to run only those
//! (`cargo bench --bench engine -- queens12`).

mod common;
#[path = "../tests/common/problems.rs"]
mod problems;

use std::time::Instant;

use dlxc::problem::{OptionId, Problem};
use dlxc::solve::{EngineChoice, Flow, SearchConfig, Solver};
use problems::*;

/// The first puzzle of sudoku9/puzzles6_forum_hardest_1106.txt.
const HARD_SUDOKU: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

/// The engine named by `DLXC_ENGINE` (the automatic choice when it is unset).
///
/// # Panics
///
/// On any other name: a misspelt engine must not quietly measure the default one.
fn engine() -> EngineChoice {
    match std::env::var("DLXC_ENGINE").as_deref() {
        Err(_) => EngineChoice::Auto,
        Ok("links") => EngineChoice::Links,
        Ok("cells") => EngineChoice::Cells,
        Ok("bits") => EngineChoice::Bits,
        Ok("trail") => EngineChoice::CellsTrail,
        Ok(other) => panic!("DLXC_ENGINE={other}: expected links, cells, bits or trail"),
    }
}

fn run(name: &str, problem: &Problem, forced: &[OptionId], count_only: bool) {
    let mut solver = match Solver::with_engine(problem, engine()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{name}: {e}");
            return;
        }
    };
    let config = SearchConfig {
        count_only,
        ..SearchConfig::default()
    };
    let t = Instant::now();
    let out = solver.search(forced, &config, &mut |_| Flow::Continue);
    let wall = t.elapsed().as_secs_f64();
    match out {
        Ok(o) => println!(
            "{name:<22} {:>9} {:>11} {:>13} {:>10.2} M/s {:>8.3} s",
            o.stats.solutions,
            o.stats.nodes,
            o.stats.updates,
            o.stats.nodes as f64 / wall / 1e6,
            wall
        ),
        Err(c) => eprintln!("{name}: {c}"),
    }
}

fn main() {
    let wanted = common::wanted();
    println!(
        "{:<22} {:>9} {:>11} {:>13} {:>14} {:>10}",
        "case", "solutions", "nodes", "updates", "nodes/s", "wall"
    );
    if wanted("queens12") {
        run("queens12", &queens(12, QueensOrder::OrganPipe), &[], true);
    }
    if wanted("queens13") {
        run("queens13", &queens(13, QueensOrder::OrganPipe), &[], true);
    }
    if wanted("pentomino6x10") {
        run(
            "pentomino6x10-restrict",
            &pentominoes(10, 6, true),
            &[],
            true,
        );
    }
    if wanted("langford12") {
        // Knuth's figure is with value 1 kept left of its mirror image (half the count).
        run(
            "langford12-half",
            &langford_with(12, false, Some(1)),
            &[],
            true,
        );
        run("langford12-raw", &langford(12), &[], true);
    }
    if wanted("sudoku") {
        let clues = sudoku_clues(HARD_SUDOKU, 3);
        run("sudoku-hardest1106#1", &sudoku_empty(3), &clues, false);
    }
    if wanted("sudoku17") {
        sudoku17("sudoku17-first", Some(1));
        sudoku17("sudoku17-all", None);
    }
    if common::asked_for("calibrate") {
        // Item orders of queens: only organ-pipe order reproduces DLX1's node counts.
        for n in [8, 12] {
            run(
                &format!("queens{n}-plain"),
                &queens(n, QueensOrder::Plain),
                &[],
                true,
            );
            run(
                &format!("queens{n}-organ"),
                &queens(n, QueensOrder::OrganPipe),
                &[],
                true,
            );
        }
    }
}

/// All 49,158 17-clue puzzles with one solver, if the data set is present: shows that the
/// links are reused (and restored) across searches. `max_solutions: Some(1)` is the
/// work of `dlxc run` (the first solution); `None` also proves each solution unique.
fn sudoku17(name: &str, max_solutions: Option<u128>) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/sudoku9/puzzles2_17_clue.txt"
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        println!("sudoku17: {path} not found, skipped");
        return;
    };
    let mut solver = match Solver::with_engine(&sudoku_empty(3), engine()) {
        Ok(s) => s,
        Err(e) => return eprintln!("sudoku17: {e}"),
    };
    let config = SearchConfig {
        count_only: true,
        max_solutions,
        ..SearchConfig::default()
    };
    let (mut puzzles, mut solutions, mut nodes, mut updates) = (0u64, 0u128, 0u64, 0u64);
    let t = Instant::now();
    for line in text
        .lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
    {
        let clues = sudoku_clues(&line[..81], 3);
        if let Ok(o) = solver.search(&clues, &config, &mut |_| Flow::Continue) {
            puzzles += 1;
            solutions += o.stats.solutions;
            nodes += o.stats.nodes;
            updates += o.stats.updates;
        }
    }
    let wall = t.elapsed().as_secs_f64();
    println!(
        "{:<22} {:>9} {:>11} {:>13} {:>10.2} M/s {:>8.3} s  ({puzzles} puzzles)",
        name,
        solutions,
        nodes,
        updates,
        nodes as f64 / wall / 1e6,
        wall
    );
}
