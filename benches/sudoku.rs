//! End-to-end sudoku throughput: the whole of `dlxc run examples/sudoku.dlx --data FILE`
//! (read, parse, lower each record, solve, render), in process, printing into memory.
//!
//! `cargo bench --bench sudoku [FILE...]` — with no file, three sets of `../shared`:
//! the 49,158 17-clue puzzles, 375 of the forum's hardest and the 1465 of magictour's
//! top. Each file is run `DLXC_BENCH_RUNS` times (default 5); the best and the median
//! wall time are reported, with puzzles per second (one core) for both. On a shared
//! virtual machine single runs of the same work vary by 30% or more, and the best run
//! is the one least disturbed by other tenants.

use std::path::PathBuf;
use std::time::Instant;

use dlxc::cli::{Command, ModelArgs, SearchArgs, execute};
use dlxc::diag::RenderStyle;

mod common;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = common::args().into_iter().map(PathBuf::from).collect();
    if files.is_empty() {
        let shared = root.join("../shared/data/sudoku9");
        files = [
            "puzzles2_17_clue.txt",
            "puzzles6_forum_hardest_1106.txt",
            "puzzles3_magictour_top1465.txt",
        ]
        .iter()
        .map(|f| shared.join(f))
        .collect();
    }
    let runs = common::runs(5);
    println!(
        "{:<34} {:>8} {:>5} {:>9} {:>10} {:>9} {:>10}",
        "file", "puzzles", "runs", "best", "puzzles/s", "median", "puzzles/s"
    );
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            println!("{}: not found, skipped", file.display());
            continue;
        };
        let puzzles = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        let mut walls: Vec<f64> = (0..runs).map(|_| run_once(&root, &file, puzzles)).collect();
        walls.sort_by(f64::total_cmp);
        let (best, median) = (walls[0], walls[runs / 2]);
        let name = file
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        println!(
            "{name:<34} {puzzles:>8} {runs:>5} {best:>8.3}s {:>10.0} {median:>8.3}s {:>10.0}",
            puzzles as f64 / best,
            puzzles as f64 / median,
        );
    }
}

/// One end-to-end run over `file`; returns the wall time in seconds after checking
/// that every puzzle printed a 9x9 grid.
fn run_once(root: &std::path::Path, file: &std::path::Path, puzzles: usize) -> f64 {
    let args = ModelArgs {
        model: root.join("examples/sudoku.dlx"),
        params: Vec::new(),
        data: Some(file.to_path_buf()),
        max_size: 10_000_000,
    };
    let mut out = Vec::with_capacity(puzzles * 100);
    let mut err = Vec::new();
    let start = Instant::now();
    let code = execute(
        Command::Run(args, SearchArgs::default()),
        &mut out,
        &mut err,
        RenderStyle::GOLDEN,
    );
    let wall = start.elapsed().as_secs_f64();
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    let solved = out.split(|&b| b == b'\n').filter(|l| l.len() == 9).count() / 9;
    assert_eq!(solved, puzzles);
    wall
}
