//! Lowering throughput and memory: parse, check and lower a model to its `Problem`, as
//! `dlxc check MODEL` does, without a search.
//!
//! `cargo bench --bench lowering [CASE...]` — the headline case is `queens-1000` (one
//! million options, four million entries). Each case runs `DLXC_BENCH_RUNS` times
//! (default 3), each run in a fresh child process so that its peak resident memory
//! (`VmHWM`, what `/usr/bin/time -v` calls "Maximum resident set size") is its own.
//! Reported: the best and the median CPU time of the lowering (on a shared machine the
//! wall time also counts other tenants' work; the wall time of the best run is shown
//! too), the peak memory, the heap still held by the lowered problem, and bytes per
//! entry of each.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use dlxc::lower::budget;
use dlxc::session::Front;
use dlxc::source::SourceFile;

mod common;

/// The cases: a name, a model and its `-p` settings.
const CASES: &[(&str, &str, &[&str])] = &[
    ("queens-1000", "examples/queens.dlx", &["n=1000"]),
    ("queens-300", "examples/queens.dlx", &["n=300"]),
    ("pentomino", "examples/pentomino.dlx", &[]),
    ("crossword", "examples/crossword.dlx", &[]),
    ("langford-16", "examples/langford.dlx", &["n=16"]),
];

/// The environment variable that makes a child process run one case.
const CHILD: &str = "DLXC_LOWERING_CASE";

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if let Ok(name) = std::env::var(CHILD) {
        child(&root, &name);
        return;
    }
    let wanted = common::wanted();
    let runs = common::runs(3);
    println!(
        "{:<12} {:>8} {:>9} {:>10} {:>5} {:>9} {:>9} {:>9} {:>10} {:>9} {:>9}",
        "case",
        "items",
        "options",
        "entries",
        "runs",
        "cpu best",
        "cpu med",
        "wall",
        "peak MB",
        "B/entry",
        "held B/e"
    );
    let me = std::env::current_exe().expect("the benchmark knows its own path");
    for &(name, _, _) in CASES.iter().filter(|c| wanted(c.0)) {
        let mut results: Vec<Measured> = (0..runs).map(|_| run_child(&me, name)).collect();
        results.sort_by(|a, b| a.cpu.total_cmp(&b.cpu));
        let (best, median) = (&results[0], &results[runs / 2]);
        let peak = results.iter().map(|r| r.peak_kb).max().unwrap_or(0);
        let per = |bytes: f64| bytes / best.entries.max(1) as f64;
        println!(
            "{name:<12} {:>8} {:>9} {:>10} {runs:>5} {:>8.3}s {:>8.3}s {:>8.3}s {:>10.1} {:>9.0} {:>9.0}",
            best.items,
            best.options,
            best.entries,
            best.cpu,
            median.cpu,
            best.seconds,
            peak as f64 / 1024.0,
            per(peak as f64 * 1024.0),
            per(best.held as f64),
        );
    }
}

/// What one child run measured.
struct Measured {
    items: usize,
    options: usize,
    entries: usize,
    seconds: f64,
    /// Peak resident memory of the process, in KiB.
    peak_kb: u64,
    /// Heap bytes held after lowering (the problem and what maps it to the model).
    held: usize,
    /// CPU seconds of the lowering.
    cpu: f64,
}

fn run_child(me: &Path, name: &str) -> Measured {
    let out = Command::new(me)
        .env(CHILD, name)
        .output()
        .expect("the benchmark can run itself");
    let text = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name}: {stderr}");
    let fields: Vec<&str> = text.split_whitespace().collect();
    let num = |i: usize| -> f64 {
        fields
            .get(i)
            .and_then(|f| f.parse().ok())
            .unwrap_or_else(|| panic!("{name}: unexpected output {text:?}"))
    };
    Measured {
        items: num(0) as usize,
        options: num(1) as usize,
        entries: num(2) as usize,
        seconds: num(3),
        peak_kb: num(4) as u64,
        held: num(5) as usize,
        cpu: num(6),
    }
}

/// Runs one case in this process and prints its figures on one line.
fn child(root: &Path, name: &str) {
    let &(_, model, params) = CASES
        .iter()
        .find(|c| c.0 == name)
        .unwrap_or_else(|| panic!("no case {name}"));
    let path = root.join(model);
    let text = std::fs::read_to_string(&path).expect("the model is readable");
    let before = budget::in_use();
    let cpu_before = cpu_seconds();
    let started = Instant::now();
    let front = Front::load(SourceFile::new(model, &text)).expect("the model checks");
    let params: Vec<String> = params.iter().map(|p| p.to_string()).collect();
    let mut lowerer = front
        .lowerer(&params, false, 10_000_000)
        .expect("the model lowers");
    let inst = lowerer.instance(None).expect("the model lowers");
    let seconds = started.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu_before;
    let held = budget::in_use().saturating_sub(before);
    let p = &inst.compiled.problem;
    println!(
        "{} {} {} {seconds} {} {held} {cpu}",
        p.items.len(),
        p.options.len(),
        p.entry_count(),
        peak_kb()
    );
}

/// CPU time this thread has run, in seconds (`/proc/thread-self/schedstat`; 0 where
/// there is none): on a shared machine the wall time also counts other tenants' work.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

/// The peak resident memory of this process, in KiB (`VmHWM` of `/proc/self/status`;
/// 0 where there is none).
fn peak_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}
