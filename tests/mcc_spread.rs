//! Multiplicities spread over threads, shards and checkpoints: counts of random problems
//! with multiplicity intervals (with and without colors, with forced options) on 1 to 8
//! threads, in every shard split 1..=8, and resumed from every checkpoint a count takes,
//! against brute force and Algorithm M (the links engine, which never splits), on both
//! engines that split them (bitsets and dancing cells); and from the command line, a
//! multiplicity count cut short, saved and resumed, and shards that merge. Larger
//! problems (bounds up to `4..10`, bitsets of several words) are checked engine against
//! engine.

mod common {
    pub mod cli;
    pub mod mcc;
}
#[path = "common/rng.rs"]
mod rng;

use std::time::Duration;

use common::cli::{dlxc, temp_file};
use common::mcc::{brute_force, larger_problem, random_problem};
use dlxc::problem::{OptionId, Problem};
use dlxc::solve::parallel::{self, Frontier, Progress, Watch};
use dlxc::solve::share::Part;
use dlxc::solve::{End, EngineChoice, Flow, SearchConfig, Solver};
use rng::Rng;

fn counting() -> SearchConfig {
    SearchConfig {
        count_only: true,
        ..SearchConfig::default()
    }
}

/// The solutions of `part` counted by `solver` on one thread.
fn count_part(solver: &mut Solver, part: &Part) -> u128 {
    solver
        .search_part(&part.forced, &part.excluded, &counting(), &mut |_| {
            Flow::Continue
        })
        .unwrap()
        .stats
        .solutions
}

/// The engines that split a multiplicity problem: bitsets (the default for small
/// problems; on the smallest their counts are tallied, and `BitsKept` keeps them) and
/// dancing cells with multiplicities.
const SPLITTING: [EngineChoice; 3] = [
    EngineChoice::Bits,
    EngineChoice::BitsKept,
    EngineChoice::Cells,
];

#[test]
fn threads_and_shards_of_random_multiplicity_problems_match_brute_force() {
    let (mut split, mut nonzero, mut clashes) = (0, 0, 0);
    for seed in 0..1500u64 {
        let p = random_problem(seed, seed % 2 == 0, true);
        if !p.has_multiplicities() {
            continue;
        }
        let mut rng = Rng(seed ^ 0x5eed);
        let m = p.options.len() as u64;
        let mut forced_sets = vec![vec![]];
        if m > 0 {
            forced_sets.push(vec![OptionId(rng.below(m) as u32)]);
            forced_sets.push(vec![
                OptionId(rng.below(m) as u32),
                OptionId(rng.below(m) as u32),
            ]);
        }
        for forced in &forced_sets {
            // Algorithm M decides a clash; brute force the count.
            let reference = Solver::general(&p)
                .unwrap()
                .search(forced, &counting(), &mut |_| Flow::Continue);
            let want = match reference {
                Ok(out) => {
                    let n = brute_force(&p, forced).len() as u128;
                    assert_eq!(out.stats.solutions, n, "seed {seed}, forced {forced:?}");
                    Some(n)
                }
                Err(_) => {
                    clashes += 1;
                    None
                }
            };
            nonzero += usize::from(want.is_some_and(|n| n > 0));
            for choice in SPLITTING {
                let mut solver = Solver::with_engine(&p, choice).unwrap();
                let pristine = solver.structure_fingerprint();
                for threads in [1, 2, 3, 5, 8] {
                    // Checks at every node, so that work moves even on tiny trees.
                    let got = parallel::count_tuned(
                        &mut solver,
                        forced,
                        &SearchConfig::default(),
                        threads,
                        0,
                        0,
                    )
                    .ok()
                    .map(|o| {
                        assert_eq!(o.end, End::Exhausted);
                        o.stats.solutions
                    });
                    assert_eq!(
                        got, want,
                        "seed {seed}, {choice:?}, forced {forced:?}, {threads} threads"
                    );
                }
                if want.is_none() {
                    continue;
                }
                for n in 1..=8 {
                    let shards = parallel::shards(&mut solver, forced, n).unwrap();
                    let total: u128 = shards
                        .iter()
                        .flatten()
                        .map(|part| count_part(&mut solver, part))
                        .sum();
                    assert_eq!(
                        Some(total),
                        want,
                        "seed {seed}, {choice:?}, forced {forced:?}, {n} shards"
                    );
                    split +=
                        usize::from(n == 8 && shards.iter().filter(|s| !s.is_empty()).count() > 1);
                }
                assert_eq!(solver.structure_fingerprint(), pristine, "seed {seed}");
            }
        }
    }
    assert!(
        nonzero > 300 && split > 300 && clashes > 50,
        "{nonzero} nonzero counts, {split} split, {clashes} clashes"
    );
}

/// Checkpoints at every tick, and checks each: the count so far plus a count of the
/// frontier's parts (forced and excluded options) is the whole count.
struct CheckEvery {
    problem: Problem,
    want: u128,
    checkpoints: usize,
    excluding: usize,
}

impl Watch for CheckEvery {
    fn tick(&mut self, _: &Progress) -> bool {
        true
    }
    fn checkpoint(&mut self, f: &Frontier) {
        self.checkpoints += 1;
        self.excluding += f.parts.iter().filter(|p| !p.excluded.is_empty()).count();
        let mut solver = Solver::general(&self.problem).unwrap_or_else(|e| panic!("{e}"));
        // Algorithm M takes no exclusions: count each part on a splitting engine.
        let mut cells = Solver::with_engine(&self.problem, EngineChoice::Cells).unwrap();
        let rest: u128 = f
            .parts
            .iter()
            .map(|part| {
                if part.excluded.is_empty() {
                    solver
                        .search(&part.forced, &counting(), &mut |_| Flow::Continue)
                        .unwrap()
                        .stats
                        .solutions
                } else {
                    count_part(&mut cells, part)
                }
            })
            .sum();
        assert_eq!(f.counted.stats.solutions + rest, self.want);
    }
    fn every(&self) -> Duration {
        Duration::from_millis(1)
    }
    fn check_mask(&self) -> u64 {
        15
    }
}

/// Larger bounds (up to `4..10`) and more options (bitsets of several words) than brute
/// force can check: bitsets and dancing cells (copies and trails) on 1 to 3 threads,
/// with work handed over every 16 nodes, count what Algorithm M counts. Problems whose
/// count takes Algorithm M more than a million nodes are left out (about half).
/// `DLXC_LARGER_SEEDS` sets the number of problems (of 2,000, 1,026 compared, all equal).
#[test]
fn larger_multiplicity_problems_agree_across_engines_and_threads() {
    let seeds: u64 = std::env::var("DLXC_LARGER_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(240);
    let mut compared = 0;
    for seed in 0..seeds {
        let p = larger_problem(seed);
        let mut links = Solver::with_engine(&p, EngineChoice::Links).unwrap();
        let limited = SearchConfig {
            node_limit: Some(1_000_000),
            ..counting()
        };
        let want = links
            .search(&[], &limited, &mut |_| Flow::Continue)
            .unwrap();
        if want.end != End::Exhausted {
            continue;
        }
        compared += 1;
        for engine in [
            EngineChoice::Bits,
            EngineChoice::BitsKept,
            EngineChoice::Cells,
            EngineChoice::CellsTrail,
        ] {
            let mut s = Solver::with_engine(&p, engine).unwrap();
            for threads in 1..=3 {
                let got = parallel::count_tuned(&mut s, &[], &counting(), threads, 0, 15).unwrap();
                assert_eq!(
                    got.stats.solutions, want.stats.solutions,
                    "seed {seed}, {engine:?}, {threads} threads: {p:#?}"
                );
            }
        }
    }
    assert!(
        compared >= seeds / 3,
        "only {compared} of {seeds} problems compared"
    );
    eprintln!("{compared} of {seeds} problems compared");
}

/// A multiplicity model: 0/1 n x n matrices with two 1s in every row and column.
fn two_per_line(n: usize) -> Problem {
    let mut b = dlxc::problem::ProblemBuilder::new();
    let two = dlxc::problem::Bounds { lo: 2, hi: Some(2) };
    for k in 0..n {
        b.primary_bounded(format!("r{k}"), two);
        b.primary_bounded(format!("c{k}"), two);
    }
    for r in 0..n {
        for c in 0..n {
            b.option([format!("r{r}"), format!("c{c}")]);
        }
    }
    b.build()
}

#[test]
fn the_frontier_of_a_multiplicity_count_completes_it() {
    let (mut checkpoints, mut excluding) = (0, 0);
    for (n, want) in [(5, 2040u128), (6, 67950)] {
        let p = two_per_line(n);
        for choice in SPLITTING {
            for threads in [1, 2, 3] {
                let solver = Solver::with_engine(&p, choice).unwrap();
                let mut watch = CheckEvery {
                    problem: p.clone(),
                    want,
                    checkpoints: 0,
                    excluding: 0,
                };
                let f = parallel::count_parts(
                    &solver,
                    vec![Part::root(&[])],
                    &counting(),
                    threads,
                    &mut watch,
                )
                .unwrap();
                assert_eq!(
                    (f.counted.stats.solutions, f.counted.end),
                    (want, End::Exhausted)
                );
                checkpoints += watch.checkpoints;
                excluding += watch.excluding;
            }
        }
    }
    // The frontiers held parts with exclusions: the tweaking levels were cut.
    assert!(
        checkpoints >= 10 && excluding > 0,
        "{checkpoints} checkpoints, {excluding} parts with exclusions"
    );
}

/// From the command line: a multiplicity count cut short by a time limit, saved, and
/// resumed (again and again) to the whole count; its checkpoint's parts exclude options;
/// shards of it merge to the count.
#[test]
fn a_multiplicity_count_is_saved_resumed_and_sharded() {
    let ck = temp_file("rowcol.ckpt", "");
    let ck = ck.to_str().unwrap().to_string();
    let _ = std::fs::remove_file(&ck);
    let model = ["run", "tests/fixtures/rowcol.dlx", "-p", "n=7", "--count"];
    let mut excluded_seen = false;
    let mut runs = 0;
    let out = loop {
        let mut args = model.to_vec();
        args.extend(["--checkpoint", &ck, "--time-limit", "0.05"]);
        if runs > 0 {
            args.extend(["--resume", &ck]);
        }
        let r = dlxc(&args);
        runs += 1;
        if r.code == 3 {
            let text = std::fs::read_to_string(&ck).unwrap();
            let saved: serde_json::Value = serde_json::from_str(&text).unwrap();
            // A part with exclusions is [weight, [forced], [excluded]].
            excluded_seen |= saved["parts"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p.as_array().is_some_and(|a| a.len() == 3));
            assert!(runs < 200, "the count never ends");
            continue;
        }
        assert_eq!(r.code, 0, "{}", r.stderr);
        break r.stdout;
    };
    assert_eq!(out.trim(), "3110940");
    // On a fast machine the first run may finish: then nothing was saved midway.
    assert!(
        runs == 1 || excluded_seen,
        "no checkpoint held an exclusion"
    );
    // Shards merge.
    let mut files = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let mut args = model.to_vec();
        args.extend(["--shard", &shard, "--json", "--threads", "2"]);
        let r = dlxc(&args);
        assert!(r.code <= 1, "{}", r.stderr);
        files.push(temp_file("rowcol-shard.json", &r.stdout));
    }
    let mut args = vec!["merge"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let r = dlxc(&args);
    assert_eq!((r.code, r.stdout.trim()), (0, "3110940"), "{}", r.stderr);
}
