//! Counting on several threads: `cargo bench --bench threads [NAME...]`.
//!
//! Counts the shared instances of the parallel-search issue (`pento_6x10_raw`,
//! `langford_13`, `queens_15`; any instance of `../shared/bench/MANIFEST.tsv` when
//! named) on 1, 2, 4, ... threads up to every core (`DLXC_BENCH_THREADS` sets the most),
//! checks every count against the manifest, and prints the best of `DLXC_BENCH_RUNS`
//! (default 3) wall times and the speedup over one thread. Runs alternate between
//! thread counts, so a busy machine slows them alike.
//!
//! It also measures the overheads the issue bounds: the pool on one thread (what the
//! progress line and checkpoints use) against the plain sequential count, and a count
//! that takes a checkpoint every 100 ms against one that takes none.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use dlxc::format::knuth;
use dlxc::problem::Problem;
use dlxc::solve::parallel::{self, Frontier, Progress, Watch};
use dlxc::solve::share::Part;
use dlxc::solve::{End, SearchConfig, Solver};
use dlxc::source::SourceFile;

mod common;

const DEFAULT: [&str; 3] = ["pento_6x10_raw", "langford_13", "queens_15"];

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/bench");
    let Ok(manifest) = std::fs::read_to_string(root.join("MANIFEST.tsv")) else {
        println!("{}: not found, skipped", root.display());
        return;
    };
    let names = common::args();
    let runs = common::runs(3);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let most = std::env::var("DLXC_BENCH_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cores);
    let mut counts: Vec<usize> = std::iter::successors(Some(1usize), |t| Some(t * 2))
        .take_while(|&t| t < most)
        .collect();
    counts.push(most);
    println!("{cores} cores; threads {counts:?}; best of {runs} runs");
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [file, _class, expected, ..] = cols[..] else {
            continue;
        };
        let name = file.trim_end_matches(".dlx");
        let chosen = if names.is_empty() {
            DEFAULT.contains(&name)
        } else {
            names.iter().any(|n| name.contains(n.as_str()))
        };
        if !chosen {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(root.join(file)) else {
            println!("{file}: unreadable, skipped");
            continue;
        };
        let problem = knuth::read(&SourceFile::new(file, text)).expect("a shared instance reads");
        let want: u128 = expected.parse().expect("the manifest's count is a number");
        let mut best = vec![f64::INFINITY; counts.len()];
        for _ in 0..runs {
            for (i, &t) in counts.iter().enumerate() {
                let (n, secs) = timed(|| threads(&problem, t));
                assert_eq!(n, want, "{name} on {t} threads");
                best[i] = best[i].min(secs);
            }
        }
        let cells: Vec<String> = counts
            .iter()
            .zip(&best)
            .map(|(t, s)| format!("{t}: {s:.3} s ({:.2}x)", best[0] / s))
            .collect();
        println!("{name:<18} {}", cells.join("  "));
        overheads(name, &problem, want, runs);
    }
}

/// A count on `t` threads, as `dlxc solve --count --threads t` does it.
fn threads(problem: &Problem, t: usize) -> u128 {
    let mut solver = Solver::new(problem).unwrap();
    let out = parallel::count(&mut solver, &[], &SearchConfig::default(), t).unwrap();
    assert_eq!(out.end, End::Exhausted);
    out.stats.solutions
}

fn timed(f: impl FnOnce() -> u128) -> (u128, f64) {
    let start = Instant::now();
    let n = f();
    (n, start.elapsed().as_secs_f64())
}

/// Ticks every 100 ms, and takes a checkpoint at each when `checkpoints` (and keeps
/// nothing of it: the cost measured is the pause and the copy of the frontier).
struct Ticks {
    checkpoints: bool,
    taken: usize,
}

impl Watch for Ticks {
    fn tick(&mut self, _: &Progress) -> bool {
        self.checkpoints
    }
    fn checkpoint(&mut self, f: &Frontier) {
        self.taken += f.parts.len().min(1);
    }
    fn every(&self) -> Duration {
        Duration::from_millis(100)
    }
}

fn pooled(problem: &Problem, t: usize, checkpoints: bool) -> u128 {
    let solver = Solver::new(problem).unwrap();
    let whole = vec![Part::root(&[])];
    let mut watch = Ticks {
        checkpoints,
        taken: 0,
    };
    let f = parallel::count_parts(&solver, whole, &SearchConfig::default(), t, &mut watch).unwrap();
    f.counted.stats.solutions
}

/// The pool on one thread against the plain count, and checkpoints every 100 ms
/// against none, on two threads.
fn overheads(name: &str, problem: &Problem, want: u128, runs: usize) {
    let mut best = [f64::INFINITY; 4];
    for _ in 0..runs {
        let cases: [&dyn Fn() -> u128; 4] = [
            &|| threads(problem, 1),
            &|| pooled(problem, 1, false),
            &|| pooled(problem, 2, false),
            &|| pooled(problem, 2, true),
        ];
        for (b, case) in best.iter_mut().zip(cases) {
            let (n, secs) = timed(case);
            assert_eq!(n, want, "{name}");
            *b = b.min(secs);
        }
    }
    println!(
        "{:<18} pool on 1 thread: {:+.1}%   checkpoints every 100 ms on 2 threads: {:+.1}%",
        "",
        100.0 * (best[1] / best[0] - 1.0),
        100.0 * (best[3] / best[2] - 1.0)
    );
}
