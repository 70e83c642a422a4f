//! Counting by memo: `cargo bench --bench memo`.
//!
//! Counts the tilings of the issue (dominoes 8x8, 6x12, 10x10, 12x12, the 2x200
//! strip, the TAOCP 8x8 board of monominoes, dominoes and trominoes) and the shared
//! `.ec` files `doublefact-29` and `bell-12` by memo, checks each count against its
//! published value, and prints the best of `DLXC_BENCH_RUNS` (default 3) wall times;
//! then the samples a second `--sample` draws on the 8x8 dominoes. Timings on a shared
//! machine are to be read as ratios of runs made side by side.
//!
//! With `DLXC_BENCH_KNUTH=DIR` it also writes each case as `DIR/NAME.dlx` in Knuth's
//! format, so that the same instances can be timed against Knuth's DLX6 (built
//! outside the repo) as whole processes, side by side with `dlxc solve NAME.dlx
//! --count`; docs/counting.md records such a comparison.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use dlxc::problem::{Problem, ProblemBuilder};
use dlxc::solve::memo::{self, Counter, Limits, Order, sample::Sampler};
use dlxc::source::SourceFile;

/// A rows x cols board tiled by the given pieces (each a list of (row, col) cells,
/// in every orientation given), cells declared row by row.
fn tiling(rows: usize, cols: usize, pieces: &[&[(usize, usize)]]) -> Problem {
    let mut b = ProblemBuilder::new();
    let cell = |r: usize, c: usize| format!("{r},{c}");
    for r in 0..rows {
        b.primary((0..cols).map(|c| cell(r, c)));
    }
    for r in 0..rows {
        for c in 0..cols {
            for p in pieces {
                if p.iter().all(|&(dr, dc)| r + dr < rows && c + dc < cols) {
                    b.option(p.iter().map(|&(dr, dc)| cell(r + dr, c + dc)));
                }
            }
        }
    }
    b.build()
}

/// With the dominoes and the trominoes, the pieces of TAOCP's 8x8 board.
const MONOMINO: [&[(usize, usize)]; 1] = [&[(0, 0)]];
const DOMINO: [&[(usize, usize)]; 2] = [&[(0, 0), (0, 1)], &[(0, 0), (1, 0)]];
const TROMINO: [&[(usize, usize)]; 6] = [
    &[(0, 0), (0, 1), (0, 2)],
    &[(0, 0), (1, 0), (2, 0)],
    &[(0, 0), (0, 1), (1, 0)],
    &[(0, 0), (0, 1), (1, 1)],
    &[(0, 0), (1, 0), (1, 1)],
    &[(0, 1), (1, 0), (1, 1)],
];

fn best(runs: usize, mut f: impl FnMut() -> String) -> (String, Duration) {
    let mut t = Duration::MAX;
    let mut out = String::new();
    for _ in 0..runs {
        let start = Instant::now();
        out = f();
        t = t.min(start.elapsed());
    }
    (out, t)
}

fn main() {
    let runs: usize = std::env::var("DLXC_BENCH_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let taocp: Vec<&[(usize, usize)]> = [&MONOMINO[..], &DOMINO, &TROMINO].concat();
    let mut cases: Vec<(&str, Problem, &str)> = vec![
        ("dominoes 8x8", tiling(8, 8, &DOMINO), "12988816"),
        ("dominoes 6x12", tiling(6, 12, &DOMINO), "106912793"),
        ("dominoes 10x10", tiling(10, 10, &DOMINO), "258584046368"),
        ("trominoes 3x18", tiling(3, 18, &TROMINO), "20279829"),
        (
            "dominoes 12x12",
            tiling(12, 12, &DOMINO),
            "53060477521960000",
        ),
        (
            "dominoes 2x200",
            tiling(2, 200, &DOMINO),
            "453973694165307953197296969697410619233826",
        ),
        ("taocp 8x8", tiling(8, 8, &taocp), "92109458286284989468604"),
    ];
    let data =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/exact_cover_benchmark");
    for (name, want) in [
        ("doublefact-29", "6190283353629375"),
        ("bell-12", "4213597"),
    ] {
        let path = data.join(format!("{name}.ec"));
        if let Ok(text) = std::fs::read_to_string(&path) {
            let src = SourceFile::new(path.display().to_string(), text);
            if let Ok(p) = dlxc::format::ec::read(&src) {
                cases.push((name, p, want));
            }
        }
    }
    if let Some(dir) = std::env::var_os("DLXC_BENCH_KNUTH") {
        let dir = PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("the DLXC_BENCH_KNUTH folder can be made");
        for (name, p, _) in &cases {
            let path = dir.join(format!("{}.dlx", name.replace(' ', "-")));
            let mut text = String::new();
            dlxc::format::knuth::write(p, &mut text).expect("the problem has a Knuth form");
            std::fs::write(&path, text).expect("a Knuth file can be written");
        }
    }
    for (name, p, want) in &cases {
        let order = memo::choose(p);
        let (got, t) = best(runs, || memo::count(p, order, 1 << 32).0.to_string());
        let ok = if got == *want { "ok" } else { "WRONG" };
        println!(
            "{name:16} {:>10.4} s  {} order  {got} {ok}",
            t.as_secs_f64(),
            order.name()
        );
    }
    let p = tiling(8, 8, &DOMINO);
    let mut c = Counter::new(
        &p,
        Order::Declared,
        Limits {
            max_bytes: 1 << 30,
            ..Limits::default()
        },
    );
    c.count().unwrap();
    let mut s = Sampler::new(&mut c, 1);
    let mut one = Vec::new();
    let n = 200_000;
    let start = Instant::now();
    for _ in 0..n {
        s.draw(&mut one);
    }
    let secs = start.elapsed().as_secs_f64();
    println!("sampling 8x8 dominoes: {:.0} samples/s", n as f64 / secs);
}
