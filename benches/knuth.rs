//! The shared benchmark instances (`../shared/bench`, Knuth's DLX format) counted by each
//! engine: `cargo bench --bench knuth [NAME...]`.
//!
//! For every instance of `MANIFEST.tsv` (or those whose file name contains one of the
//! NAMEs), reads the file, counts every solution with dancing links (DLX1's Algorithm
//! X, the reference) and with the default engine (bitsets up to 4096 options, dancing
//! cells above), checks both counts
//! against the manifest, and prints nodes, updates and the best of `DLXC_BENCH_RUNS`
//! (default 3) CPU-bound wall times per engine, with the ratio default/links and their
//! geometric mean. The engines alternate, so a busy machine slows both alike.
//! `langford_16` (hours) is run only when named; `sudoku_empty_first100k` counts to
//! its manifest's limit of 100,000.
//!
//! Knuth's own programs are not part of the repository: to compare with them, build
//! DLX1 and SSXCC from his CWEB sources and time `dlxc solve --count FILE` beside
//! them on the same files (the closing notes of the engine work give such figures).

use std::path::PathBuf;
use std::time::Instant;

use dlxc::format::knuth;
use dlxc::solve::{End, EngineChoice, Flow, Outcome, SearchConfig, Solver};
use dlxc::source::SourceFile;

mod common;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/bench");
    let Ok(manifest) = std::fs::read_to_string(root.join("MANIFEST.tsv")) else {
        println!("{}: not found, skipped", root.display());
        return;
    };
    let wanted = common::wanted();
    let runs = common::runs(3);
    println!(
        "{:<28} {:>10} {:>11} {:>13} {:>9} {:>11} {:>13} {:>9} {:>6}",
        "instance",
        "solutions",
        "links nodes",
        "links updates",
        "links s",
        "auto nodes",
        "auto updates",
        "auto s",
        "ratio"
    );
    let (mut log_sum, mut measured) = (0.0f64, 0usize);
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [file, _class, expected, _source, extra, ..] = cols[..] else {
            continue;
        };
        let named = common::asked_for(file.trim_end_matches(".dlx"));
        if !wanted(file) || (file.starts_with("langford_16") && !named) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(root.join(file)) else {
            println!("{file}: unreadable, skipped");
            continue;
        };
        let problem = match knuth::read(&SourceFile::new(file, text)) {
            Ok(p) => p,
            Err(_) => {
                println!("{file}: not in Knuth's format, skipped");
                continue;
            }
        };
        // `t100000`: stop after that many solutions, as Knuth's programs do.
        let limit = extra.strip_prefix('t').and_then(|t| t.parse::<u128>().ok());
        let config = SearchConfig {
            count_only: true,
            max_solutions: limit,
            ..SearchConfig::default()
        };
        let mut best = [f64::INFINITY; 2];
        let mut outcomes: [Option<Outcome>; 2] = [None, None];
        for _ in 0..runs {
            for (k, engine) in [EngineChoice::Links, EngineChoice::Auto].iter().enumerate() {
                let mut solver = Solver::with_engine(&problem, *engine).expect("plain problem");
                let t = Instant::now();
                let out = solver
                    .search(&[], &config, &mut |_| Flow::Continue)
                    .expect("nothing forced");
                best[k] = best[k].min(t.elapsed().as_secs_f64());
                outcomes[k] = Some(out);
            }
        }
        let [Some(links), Some(cells)] = outcomes else {
            continue;
        };
        for (name, out) in [("links", &links), ("auto", &cells)] {
            let complete = out.end == End::Exhausted || limit.is_some();
            assert!(
                complete && out.stats.solutions.to_string() == expected,
                "{file}: {name} counted {} ({:?}), the manifest says {expected}",
                out.stats.solutions,
                out.end
            );
        }
        let ratio = best[1] / best[0];
        // Times under 10 ms are mostly start-up noise: shown, not averaged.
        if best[0] >= 0.01 {
            log_sum += ratio.ln();
            measured += 1;
        }
        println!(
            "{:<28} {:>10} {:>11} {:>13} {:>9.3} {:>11} {:>13} {:>9.3} {:>6.2}",
            file,
            cells.stats.solutions,
            links.stats.nodes,
            links.stats.updates,
            best[0],
            cells.stats.nodes,
            cells.stats.updates,
            best[1],
            ratio
        );
    }
    if measured > 0 {
        println!(
            "geometric mean of auto/links over {measured} instances of 10 ms or more: {:.2}",
            (log_sum / measured as f64).exp()
        );
    }
}
