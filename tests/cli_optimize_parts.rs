//! Shards and checkpoints of an optimization from the command line: `--shard K/N` with
//! `dlxc merge`, `--checkpoint` with a node limit then `--resume` until the end, on
//! shipped models and files with an objective; what stays refused, damaged and
//! mismatched checkpoints, and merges of mixed summaries (golden files under
//! `tests/ui/optimize/`, bless with `DLXC_BLESS=1`).

#[path = "common/cli.rs"]
mod cli;
#[path = "common/golden.rs"]
mod golden;

use std::path::{Path, PathBuf};

use cli::dlxc;

const UI: &str = "tests/ui/optimize";

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dlxc-oparts-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ui(file: &str) -> String {
    format!("{UI}/{file}")
}

/// The runs compared: a command (`run MODEL ...` or `solve FILE`) and the flags of the
/// run whose answer the shards and checkpoints must give. The least-cost search of a
/// file (DLX5's, on one thread) may pick another of several optimal solutions than
/// the parts do; on threads it searches as they do.
const CASES: [(&[&str], &[&str]); 6] = [
    (&["run", "examples/matchsticks.dlx"], &[]),
    (
        &["run", "examples/matchsticks.dlx", "-p", "case=[5,0]"],
        &[],
    ),
    (&["run", "examples/setcover.dlx"], &[]),
    (&["run", "examples/target-sudoku.dlx"], &["--threads", "2"]),
    (&["solve", "examples/knuth/costs.dlx5"], &["--threads", "2"]),
    // Items covered two or three times: the optimizer of other multiplicities.
    (&["run", "tests/ui/run/objective-multiplicity.dlx"], &[]),
];

fn with(base: &[&str], more: &[&str]) -> Vec<String> {
    base.iter().chain(more).map(|s| s.to_string()).collect()
}

fn run(args: &[String]) -> cli::Run {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    dlxc(&args)
}

/// The objective and the options of the first solution line of a `--json` output.
fn answer(stdout: &str) -> (String, String) {
    let v: serde_json::Value =
        serde_json::from_str(stdout.lines().next().unwrap_or("")).unwrap_or_default();
    (v["objective"].to_string(), v["options"].to_string())
}

#[test]
fn shards_merge_to_the_optimum_and_its_solution() {
    let dir = scratch("shards");
    for (base, flags) in CASES {
        let whole = run(&with(
            &with(base, flags)
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
            &["--json"],
        ));
        assert_eq!(whole.code, 0, "{base:?}: {}", whole.stderr);
        let want = answer(&whole.stdout);
        assert_ne!(want.1, "null");
        for n in 1..=4usize {
            let mut files = Vec::new();
            for k in 1..=n {
                let shard = format!("{k}/{n}");
                // Odd shards on two threads: the same answer as on one.
                let threads = if k % 2 == 1 { "2" } else { "1" };
                let r = run(&with(
                    base,
                    &["--shard", &shard, "--json", "-q", "--threads", threads],
                ));
                assert!(r.code == 0 || r.code == 1, "{base:?} {shard}: {}", r.stderr);
                let summary = r.stdout.lines().last().unwrap_or("");
                assert!(
                    summary.contains(&format!("\"shard\":\"{shard}\""))
                        && summary.contains("\"goal\":"),
                    "{base:?} {shard}: {summary}"
                );
                let file = dir.join(format!("shard-{k}-of-{n}.json"));
                std::fs::write(&file, &r.stdout).unwrap();
                files.push(file.display().to_string());
            }
            // Given in any order.
            files.reverse();
            let mut args = vec!["merge", "--json"];
            args.extend(files.iter().map(String::as_str));
            let merged = dlxc(&args);
            assert_eq!(merged.code, 0, "{base:?}, {n} shards: {}", merged.stderr);
            assert_eq!(answer(&merged.stdout), want, "{base:?}, {n} shards");
            assert!(
                merged.stdout.contains("\"optimal\":true"),
                "{}",
                merged.stdout
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// How many parts the checkpoint at `path` lists as done.
fn parts_done(path: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["optimize"]["done"].as_array().map_or(0, Vec::len)
}

/// Runs `args` with `--checkpoint ck` and a node limit, then with `--resume ck` until
/// the search ends; a checkpoint saves whole parts, so a run that finished none is given
/// twice the nodes. Checks every run cut short, and returns the last run and how many
/// runs it took.
fn resume_until_done(args: &[&str], ck: &str, mut limit: u64) -> (cli::Run, usize) {
    let mut runs = 0;
    let mut done = 0;
    loop {
        let nodes = limit.to_string();
        let mut all = with(args, &["--checkpoint", ck, "--node-limit", &nodes]);
        if runs > 0 {
            all.extend(["--resume".to_string(), ck.to_string()]);
        }
        let r = run(&all);
        runs += 1;
        assert!(runs < 300, "{args:?}: no end");
        if r.code != 3 {
            return (r, runs);
        }
        // Cut short: the best so far is marked, and the checkpoint is named.
        assert!(
            !r.stdout.contains("minimum") && !r.stdout.contains("maximum"),
            "{args:?}: {}",
            r.stdout
        );
        assert!(r.stderr.contains("node limit reached"), "{}", r.stderr);
        assert!(r.stderr.contains(&format!("--resume {ck}")), "{}", r.stderr);
        let now = parts_done(ck);
        if now == done {
            limit *= 2;
        }
        done = now;
    }
}

#[test]
fn a_checkpoint_cut_by_a_node_limit_resumes_to_the_optimum() {
    let dir = scratch("resume");
    for (i, (base, flags)) in CASES.iter().enumerate() {
        let whole = run(&with(base, flags));
        let ck = dir.join(format!("ck-{i}.json")).display().to_string();
        let (end, runs) = resume_until_done(base, &ck, 20);
        assert_eq!(
            (end.code, &end.stdout),
            (0, &whole.stdout),
            "{base:?} after {runs} runs: {}",
            end.stderr
        );
        // A finished checkpoint resumes to the answer at once.
        let again = run(&with(base, &["--resume", &ck]));
        assert_eq!((again.code, &again.stdout), (0, &whole.stdout), "{base:?}");
        if i == 1 {
            assert!(runs > 5, "matchsticks 5x5 took {runs} runs");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_shard_with_a_checkpoint_resumes_to_the_shards_answer() {
    let dir = scratch("shard-resume");
    let base = [
        "run",
        "examples/matchsticks.dlx",
        "-p",
        "case=[5,0]",
        "--shard",
        "2/3",
        "--json",
        "-q",
    ];
    let at_once = run(&with(&base, &[]));
    let ck = dir.join("ck.json").display().to_string();
    let (end, runs) = resume_until_done(&base, &ck, 50);
    assert!(runs > 2, "{runs} runs");
    // The same best, part and solution; the counters are the runs' own.
    let fields = |out: &str| -> Vec<String> {
        let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap_or("")).unwrap();
        [
            "objective",
            "part",
            "chosen",
            "solution",
            "complete",
            "shard",
        ]
        .iter()
        .map(|k| v[k].to_string())
        .collect()
    };
    assert_eq!(fields(&end.stdout), fields(&at_once.stdout));
    // Another shard's checkpoint is refused.
    let r = run(&with(&base[..4], &["--shard", "1/3", "--resume", &ck]));
    assert!(r.code == 2 && r.stderr.contains("E0921"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_optimization_saves_and_resumes() {
    // SIGTERM ends the search as Ctrl-C does: a final checkpoint and exit 3, here on
    // two threads, whose parts end in any order. A search long enough to be
    // interrupted: the 7x7 matchsticks grid with nothing taken (seconds).
    let dir = scratch("interrupt");
    let ck = dir.join("ck.json").display().to_string();
    let base = ["run", "examples/matchsticks.dlx", "-p", "case=[7,0]"];
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_dlxc"))
        .args(base)
        .args(["--checkpoint", &ck, "--value", "--threads", "2"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .is_ok_and(|s| s.success());
    let out = child.wait_with_output().unwrap();
    if !killed || out.status.code() == Some(0) {
        // It ended before the signal: nothing to resume.
        return;
    }
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(Path::new(&ck).exists(), "no checkpoint on SIGTERM");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("interrupted"), "{stderr}");
    let r = run(&with(
        &base,
        &["--resume", &ck, "--value", "--time-limit", "120"],
    ));
    let whole = run(&with(&base, &["--value"]));
    assert_eq!(
        (r.code, &r.stdout),
        (whole.code, &whole.stdout),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn checkpoints_written_on_the_way_survive_a_kill() {
    // SIGKILL leaves no last checkpoint: what is there was written on the way, every
    // --checkpoint-every seconds after a part ended, and resumes to the optimum.
    let dir = scratch("kill");
    let ck = dir.join("ck.json").display().to_string();
    let base = [
        "run",
        "examples/matchsticks.dlx",
        "-p",
        "case=[7,0]",
        "--value",
    ];
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_dlxc"))
        .args(base)
        .args([
            "--checkpoint",
            &ck,
            "--checkpoint-every",
            "0.05",
            "--threads",
            "1",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(800));
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &child.id().to_string()])
        .status()
        .is_ok_and(|s| s.success());
    let out = child.wait_with_output().unwrap();
    if !killed || out.status.code().is_some() {
        // It ended before the signal.
        return;
    }
    let done = parts_done(&ck);
    assert!(done > 0, "no part saved on the way");
    let r = run(&with(&base, &["--resume", &ck]));
    let whole = run(&with(&base, &[]));
    assert_eq!((r.code, &r.stdout), (0, &whole.stdout), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn goldens_of_what_stays_refused_and_of_bad_checkpoints() {
    let dir = scratch("goldens");
    // Summaries kept beside the goldens (`dlxc run tests/ui/optimize/fewest.dlx
    // --shard K/2 --json`, and cover.dlx's with --count): their paths are in the
    // messages.
    let (opt1, opt2, count2) = (
        ui("fewest-1-of-2.json"),
        ui("fewest-2-of-2.json"),
        ui("cover-2-of-2.json"),
    );
    // They are what this dlxc writes.
    for (file, count) in [(&opt1, false), (&opt2, false), (&count2, true)] {
        let model = if count { "cover" } else { "fewest" };
        let k = if file == &opt1 { "1/2" } else { "2/2" };
        let mut args = vec!["run", "", "--shard", k, "--json", "-q"];
        let path = ui(&format!("{model}.dlx"));
        args[1] = &path;
        if count {
            args.push("--count");
        }
        let r = dlxc(&args);
        let strip = |t: &str| {
            t.lines()
                .map(|l| {
                    let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                    v.as_object_mut().map(|o| o.remove("seconds"));
                    v
                })
                .collect::<Vec<_>>()
        };
        let kept = std::fs::read_to_string(file).unwrap();
        assert_eq!(strip(&r.stdout), strip(&kept), "{file}");
    }
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (
            "E0920-damaged",
            vec![
                "run",
                "tests/ui/optimize/fewest.dlx",
                "--resume",
                "tests/ui/optimize/damaged.ckpt",
            ],
        ),
        (
            "E0920-wrong-best",
            vec![
                "run",
                "tests/ui/optimize/fewest.dlx",
                "--resume",
                "tests/ui/optimize/wrong-best.ckpt",
            ],
        ),
        (
            "E0921-count-checkpoint-to-optimum",
            vec![
                "run",
                "tests/ui/optimize/fewest.dlx",
                "--resume",
                "tests/ui/optimize/cover-count.ckpt",
            ],
        ),
        (
            "E0921-optimum-checkpoint-to-count",
            vec![
                "run",
                "tests/ui/optimize/cover.dlx",
                "--count",
                "--resume",
                "tests/ui/optimize/fewest.ckpt",
            ],
        ),
        (
            "E0922-shard-with-all",
            vec!["run", "examples/matchsticks.dlx", "--all", "--shard", "1/2"],
        ),
        (
            "E0922-checkpoint-with-count",
            vec![
                "run",
                "examples/matchsticks.dlx",
                "--count",
                "--checkpoint",
                "never.json",
            ],
        ),
        (
            "E0922-checkpoint-with-best",
            vec![
                "solve",
                "examples/knuth/costs.dlx5",
                "--best",
                "2",
                "--checkpoint",
                "never.json",
            ],
        ),
        (
            "E0922-progress",
            vec![
                "run",
                "examples/matchsticks.dlx",
                "--progress",
                "--checkpoint",
                "never.json",
            ],
        ),
        (
            "E0922-shard-without-objective",
            vec!["run", "tests/ui/optimize/cover.dlx", "--shard", "1/2"],
        ),
        ("merge-optimum-shards", vec!["merge", &opt2, &opt1]),
        ("E0913-merge-optimum-missing", vec!["merge", &opt2]),
        // A shard of another release's cut of the tree (its hash edited).
        (
            "E0914-merge-optimum-other-cut",
            vec![
                "merge",
                &opt1,
                "tests/ui/optimize/fewest-2-of-2-other-cut.json",
            ],
        ),
        (
            "E0911-merge-count-with-optimum",
            vec!["merge", &opt1, &count2],
        ),
    ];
    assert!(!Path::new("never.json").exists());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(name, args)| {
            let path = Path::new(UI).join(format!("{name}.stderr"));
            let got = dlxc(args)
                .transcript()
                .replace(&dir.display().to_string(), "DIR");
            golden::check(&path, &got).err().map(|e| e.to_string())
        })
        .collect();
    assert!(
        !Path::new("never.json").exists(),
        "a refused run wrote a checkpoint"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    let _ = std::fs::remove_dir_all(&dir);
}
