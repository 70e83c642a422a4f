//! Counting from the command line across shards, checkpoints and runs: `--shard K/N`
//! with `dlxc merge`, `--checkpoint` and `--resume` (also after a kill at a random
//! moment), `--progress`, and `dlxc estimate`. The diagnostics of merge and of
//! checkpoints are golden files under `tests/ui/count/` (bless with `DLXC_BLESS=1`).

#[path = "common/cli.rs"]
mod cli;
#[path = "common/golden.rs"]
mod golden;
#[path = "common/rng.rs"]
mod rng;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use cli::dlxc;

const UI: &str = "tests/ui/count";

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dlxc-count-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ui(file: &str) -> String {
    format!("{UI}/{file}")
}

#[test]
fn goldens_of_merge_and_checkpoints() {
    let cases: &[(&str, &[&str])] = &[
        (
            "merge-three-shards",
            &[
                "merge",
                &ui("queens6-2-of-3.json"),
                &ui("queens6-1-of-3.json"),
                &ui("queens6-3-of-3.json"),
            ],
        ),
        (
            "merge-cut-shard",
            &[
                "merge",
                &ui("queens6-1-of-3.json"),
                &ui("queens6-2-of-3.json"),
                &ui("queens6-3-of-3-cut.json"),
            ],
        ),
        (
            "E0910-not-a-shard",
            &[
                "merge",
                &ui("queens6-whole.json"),
                &ui("queens6-1-of-3.json"),
            ],
        ),
        (
            "E0911-other-problem",
            &[
                "merge",
                &ui("queens6-1-of-3.json"),
                &ui("queens7-2-of-3.json"),
                &ui("queens8-1-of-2.json"),
            ],
        ),
        (
            "E0912-E0913-twice-and-missing",
            &[
                "merge",
                &ui("queens6-1-of-3.json"),
                &ui("queens6-1-of-3.json"),
            ],
        ),
        (
            "E0914-engines-split-differently",
            &[
                "merge",
                &ui("langford8-1-of-2-cells.json"),
                &ui("langford8-2-of-2-bits.json"),
            ],
        ),
        (
            "E0915-counts-overflow",
            &[
                "merge",
                &ui("overflow-1-of-2.json"),
                &ui("overflow-2-of-2.json"),
            ],
        ),
        ("E0910-huge-split", &["merge", &ui("huge-n.json")]),
        ("E0910-no-engine", &["merge", &ui("no-engine.json")]),
        (
            "E0916-too-many-shards",
            &[
                "run",
                "examples/queens.dlx",
                "--count",
                "--shard",
                "1/18446744073709551615",
            ],
        ),
        (
            "E0920-truncated",
            &[
                "run",
                "examples/queens.dlx",
                "-p",
                "n=8",
                "--count",
                "--resume",
                &ui("truncated.ckpt"),
            ],
        ),
        (
            "E0920-bit-flip",
            &[
                "run",
                "examples/queens.dlx",
                "-p",
                "n=8",
                "--count",
                "--resume",
                &ui("bit-flip.ckpt"),
            ],
        ),
        (
            "E0920-duplicate-parts",
            &[
                "run",
                "examples/queens.dlx",
                "-p",
                "n=8",
                "--count",
                "--resume",
                &ui("duplicate-parts.ckpt"),
            ],
        ),
        (
            "E0920-nested-parts",
            &[
                "run",
                "examples/queens.dlx",
                "-p",
                "n=8",
                "--count",
                "--resume",
                &ui("nested-parts.ckpt"),
            ],
        ),
        (
            "E0920-huge-seconds",
            &[
                "run",
                "examples/queens.dlx",
                "-p",
                "n=8",
                "--count",
                "--resume",
                &ui("huge-seconds.ckpt"),
            ],
        ),
        (
            // An intact checksum over 2^128 - 6 solutions in 100 nodes: resumed, the
            // sum saturated at 2^128 - 1 and was printed as exact.
            "E0920-more-solutions-than-nodes",
            &[
                "run",
                "examples/queens.dlx",
                "-p",
                "n=8",
                "--count",
                "--resume",
                &ui("more-solutions-than-nodes.ckpt"),
            ],
        ),
        (
            "E0920-version-1",
            &[
                "run",
                "examples/queens.dlx",
                "-p",
                "n=8",
                "--count",
                "--resume",
                &ui("version-1.ckpt"),
            ],
        ),
        (
            "E0920-bad-option",
            &[
                "run",
                "examples/queens.dlx",
                "-p",
                "n=8",
                "--count",
                "--resume",
                &ui("bad-option.ckpt"),
            ],
        ),
        (
            "E0921-other-problem",
            &[
                "run",
                "examples/queens.dlx",
                "-p",
                "n=8",
                "--count",
                "--resume",
                &ui("other-problem.ckpt"),
            ],
        ),
        (
            "E0922-shard-with-objective",
            &[
                "run",
                "examples/matchsticks.dlx",
                "--count",
                "--shard",
                "1/2",
            ],
        ),
        (
            "E0922-checkpoint-on-links",
            &[
                "run",
                "examples/queens.dlx",
                "--count",
                "--engine",
                "links",
                "--checkpoint",
                "/nonexistent/never-written",
            ],
        ),
    ];
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(name, args)| {
            let path = Path::new(UI).join(format!("{name}.stderr"));
            golden::check(&path, &dlxc(args).transcript())
                .err()
                .map(|e| e.to_string())
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The count of `args` with `--count`, and its exit code.
fn count(args: &[&str]) -> (String, i32) {
    let mut all = args.to_vec();
    all.push("--count");
    let r = dlxc(&all);
    assert!(r.code == 0 || r.code == 1 || r.code == 3, "{}", r.stderr);
    (r.stdout.trim().to_string(), r.code)
}

#[test]
fn every_shard_split_adds_up_to_the_whole_count() {
    let dir = scratch("shards");
    for (model, params, want) in [
        ("examples/queens.dlx", "n=9", "352"),
        ("examples/langford.dlx", "n=8", "300"),
        // Colors: secondary items shared by options that agree on their color.
        ("examples/graph-coloring.dlx", "", "120"),
    ] {
        let mut base = vec!["run", model];
        if !params.is_empty() {
            base.extend(["-p", params]);
        }
        let (whole, code) = count(&base);
        assert_eq!((code, whole.as_str()), (0, want));
        for n in 1..=8 {
            let mut files = Vec::new();
            for k in 1..=n {
                let shard = format!("{k}/{n}");
                let mut args = base.clone();
                args.extend(["--count", "--json", "--shard", &shard, "--threads", "2"]);
                let r = dlxc(&args);
                assert!(r.code <= 1, "{shard}: {}", r.stderr);
                let file = dir.join(format!("{n}-{k}.json"));
                std::fs::write(&file, &r.stdout).unwrap();
                files.push(file.display().to_string());
            }
            let mut args = vec!["merge"];
            args.extend(files.iter().map(String::as_str));
            let r = dlxc(&args);
            assert_eq!(
                (r.code, r.stdout.trim()),
                (0, whole.as_str()),
                "{model}, {n} shards: {}",
                r.stderr
            );
        }
    }
}

#[test]
fn a_knuth_file_is_sharded_too() {
    let dir = scratch("knuth");
    let file = "examples/knuth/colors.dlx2";
    let mut files = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let r = dlxc(&["solve", file, "--count", "--json", "--shard", &shard]);
        assert!(r.code <= 1, "{}", r.stderr);
        let f = dir.join(format!("{k}.json"));
        std::fs::write(&f, &r.stdout).unwrap();
        files.push(f.display().to_string());
    }
    let r = dlxc(&["merge", &files[0], &files[1], &files[2]]);
    let whole = dlxc(&["solve", file, "--count"]);
    assert_eq!((r.code, &r.stdout), (0, &whole.stdout), "{}", r.stderr);
}

/// Starts `dlxc` with `args`, kills it (SIGKILL, no chance to clean up) after `after`.
fn kill_after(args: &[&str], after: Duration) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dlxc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn a_count_killed_at_random_moments_resumes_to_the_exact_count() {
    let dir = scratch("resume");
    let ck = dir.join("count.ckpt");
    let ck = ck.to_str().unwrap();
    let model = ["run", "examples/queens.dlx", "-p", "n=13"];
    let mut rng = rng::Rng(0x5EED_1234_ABCD_0001);
    let mut resumed_partway = 0;
    for round in 0..6 {
        let _ = std::fs::remove_file(ck);
        // Checkpoints every 20 ms, so the kills often land during a write.
        let threads = ["1", "2", "3"][round % 3];
        let mut args = model.to_vec();
        args.extend([
            "--count",
            "--checkpoint",
            ck,
            "--checkpoint-every",
            "0.02",
            "--threads",
            threads,
        ]);
        kill_after(&args, Duration::from_millis(60 + rng.below(250)));
        // Each kill leaves the last good checkpoint (or none, if killed before the
        // first): resume, get killed again, then finish on another number of threads.
        if Path::new(ck).exists() {
            let mut again = model.to_vec();
            again.extend([
                "--count",
                "--resume",
                ck,
                "--checkpoint",
                ck,
                "--checkpoint-every",
                "0.02",
            ]);
            kill_after(&again, Duration::from_millis(20 + rng.below(100)));
        }
        let mut last = model.to_vec();
        last.push("--count");
        if Path::new(ck).exists() {
            resumed_partway += 1;
            last.extend(["--resume", ck]);
        }
        last.extend(["--threads", ["2", "1", "4"][round % 3]]);
        let r = dlxc(&last);
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (0, "73712\n"),
            "round {round}: {}",
            r.stderr
        );
    }
    assert!(
        resumed_partway >= 3,
        "only {resumed_partway} rounds had a checkpoint"
    );
}

#[test]
fn a_time_limit_leaves_a_checkpoint_to_resume() {
    let dir = scratch("limit");
    let ck = dir.join("count.ckpt");
    let ck = ck.to_str().unwrap();
    // Langford 12 takes about 0.3 s on one core: a 50 ms limit cuts it on any
    // machine this runs on (Langford 11 finished within it on a quiet one).
    let model = ["run", "examples/langford.dlx", "-p", "n=12"];
    let mut first = model.to_vec();
    first.extend(["--count", "--checkpoint", ck, "--time-limit", "0.05"]);
    let r = dlxc(&first);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stdout.trim_end().ends_with('+'), "{}", r.stdout);
    assert!(r.stderr.contains("--resume"), "{}", r.stderr);
    let mut rest = model.to_vec();
    rest.extend(["--count", "--resume", ck, "--checkpoint", ck, "--json"]);
    let r = dlxc(&rest);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("\"solutions\":216288,"), "{}", r.stdout);
    // The final checkpoint is complete: resuming it again prints the count at once.
    let text = std::fs::read_to_string(ck).unwrap();
    assert!(text.contains("\"complete\":true"), "{text}");
    let mut done = model.to_vec();
    done.extend(["--count", "--resume", ck]);
    assert_eq!(dlxc(&done).stdout, "216288\n");
}

#[test]
fn progress_lines_show_on_a_pipe_only_when_asked() {
    let args = [
        "run",
        "examples/queens.dlx",
        "-p",
        "n=17",
        "--count",
        "--time-limit",
        "1.6",
    ];
    let quiet = dlxc(&args);
    assert_eq!(quiet.code, 3);
    assert!(!quiet.stderr.contains("progress:"), "{}", quiet.stderr);
    let mut asked = args.to_vec();
    asked.push("--progress");
    let shown = dlxc(&asked);
    assert_eq!(shown.code, 3);
    let line = shown
        .stderr
        .lines()
        .find(|l| l.starts_with("progress: "))
        .unwrap_or_else(|| panic!("no progress line in {}", shown.stderr));
    assert!(
        line.contains("% explored, ") && line.contains(" nodes/s, "),
        "{line}"
    );
}

/// The estimate of 16 queens from 20,000 probes of seed 3.
fn estimate_queens16() -> cli::Run {
    dlxc(&[
        "estimate",
        "examples/queens.dlx",
        "-p",
        "n=16",
        "--probes",
        "20000",
        "--seed",
        "3",
    ])
}

#[test]
fn estimates_count_small_trees_and_probe_large_ones() {
    let r = dlxc(&["estimate", "examples/queens.dlx", "-p", "n=8"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("exact: 92 solutions, "),
        "{}",
        r.stdout
    );
    // 16 queens: 14,772,512 solutions. Knuth's estimate is unbiased; with 20,000
    // probes of this seed it lands within 25%.
    let r = estimate_queens16();
    assert_eq!(r.code, 0, "{}", r.stderr);
    let line = r
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("solutions"))
        .unwrap();
    let value: f64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!((value / 14_772_512.0 - 1.0).abs() < 0.25, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("estimate from 20,000 random probes (seed 3):"),
        "{}",
        r.stdout
    );
    // The same seed repeats the estimate.
    let again = estimate_queens16();
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.contains("time"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&again.stdout), strip(&r.stdout));
}

#[test]
fn every_shipped_model_can_be_estimated() {
    let mut models: Vec<_> = std::fs::read_dir("examples")
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "dlx"))
        .collect();
    models.sort();
    assert!(models.len() >= 10);
    for m in models {
        let r = dlxc(&["estimate", m.to_str().unwrap()]);
        assert_eq!(r.code, 0, "{}: {}", m.display(), r.stderr);
        assert!(
            r.stdout.starts_with("exact: ") || r.stdout.starts_with("estimate from "),
            "{}: {}",
            m.display(),
            r.stdout
        );
    }
}
