//! Counting by memo from the command line: exact counts of tilings past 2^64 and
//! 2^128 (checked against a closed form and published values), the memo against the
//! visiting count, random draws, and the refusals of the memo flags (golden files
//! under `tests/ui/memo/`, bless with `DLXC_BLESS=1`).

#[path = "common/cli.rs"]
mod cli;
#[path = "common/golden.rs"]
mod golden;

use std::path::Path;

use cli::dlxc;
use num_bigint::BigUint;

const UI: &str = "tests/ui/memo";

/// The count `dlxc` prints for `args` with `--count` and the memo setting `memo`.
fn count(args: &[&str], memo: &str) -> String {
    let mut all = args.to_vec();
    all.extend(["--count", "--memo", memo]);
    let r = dlxc(&all);
    assert!(r.code <= 1, "{all:?}: {}", r.stderr);
    r.stdout.trim().to_string()
}

fn dominoes(rows: u32, cols: u32) -> String {
    let (r, c) = (format!("rows={rows}"), format!("cols={cols}"));
    count(&["run", "examples/dominoes.dlx", "-p", &r, "-p", &c], "on")
}

/// The n-th Fibonacci number (F(1) = F(2) = 1), in big integers.
fn fibonacci(n: u32) -> BigUint {
    let (mut a, mut b) = (BigUint::from(0u32), BigUint::from(1u32));
    for _ in 0..n {
        let c = &a + &b;
        a = b;
        b = c;
    }
    a
}

#[test]
fn domino_tilings_are_exact_past_64_and_128_bits() {
    // OEIS A004003 (square boards) and A028468 (6 x 2n).
    assert_eq!(dominoes(8, 8), "12988816");
    assert_eq!(dominoes(6, 12), "106912793");
    assert_eq!(dominoes(10, 10), "258584046368");
    assert_eq!(dominoes(12, 12), "53060477521960000");
    // A 2 x n strip has F(n + 1) tilings: 2 x 200 is past 2^128, whichever way the
    // board is declared (the band order takes the short side).
    let want = fibonacci(201);
    assert!(want.bits() > 128);
    assert_eq!(dominoes(2, 200), want.to_string());
    assert_eq!(dominoes(200, 2), want.to_string());
}

#[test]
fn the_taocp_board_is_exact_past_64_bits() {
    // TAOCP 7.1.4: monominoes, dominoes and trominoes on the 8x8 board.
    let got = count(&["run", "examples/taocp-tiling.dlx"], "auto");
    assert_eq!(got, "92109458286284989468604");
    // A small board against the visiting count.
    let small = ["run", "examples/taocp-tiling.dlx", "-p", "n=4"];
    assert_eq!(count(&small, "on"), count(&small, "off"));
}

#[test]
fn memo_counts_equal_visiting_counts_on_the_examples() {
    for args in [
        &["run", "examples/queens.dlx", "-p", "n=7"][..],
        &["run", "examples/langford.dlx", "-p", "n=7"],
        &["run", "examples/graph-coloring.dlx"],
        &[
            "run",
            "examples/dominoes.dlx",
            "-p",
            "rows=4",
            "-p",
            "cols=5",
        ],
        &["run", "examples/exact-cover.dlx"],
    ] {
        for order in ["declared", "band", "mrv"] {
            let mut a = args.to_vec();
            a.extend(["--memo-order", order]);
            assert_eq!(count(&a, "on"), count(args, "off"), "{args:?} {order}");
        }
    }
}

#[test]
fn big_counts_are_strings_in_json_and_stats_say_memo() {
    let r = dlxc(&[
        "run",
        "examples/taocp-tiling.dlx",
        "--count",
        "--json",
        "--stats",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["solutions"], "92109458286284989468604");
    assert_eq!(v["complete"], true);
    assert_eq!(v["memo"]["order"], "declared");
    assert!(r.stderr.contains("engine: memo"), "{}", r.stderr);
    let small = dlxc(&["run", "examples/dominoes.dlx", "--count", "--json"]);
    let v: serde_json::Value = serde_json::from_str(small.stdout.trim()).unwrap();
    assert_eq!(v["solutions"], 12988816);
}

#[test]
fn a_cut_memo_count_is_a_lower_bound() {
    let r = dlxc(&[
        "run",
        "examples/taocp-tiling.dlx",
        "--count",
        "--memo",
        "on",
        "--node-limit",
        "1000",
    ]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stdout.trim().ends_with('+'), "{}", r.stdout);
    assert!(r.stderr.contains("incomplete"), "{}", r.stderr);
}

#[test]
fn samples_repeat_with_their_seed() {
    let run_on = |seed: &str, threads: &str| {
        let r = dlxc(&[
            "run",
            "examples/dominoes.dlx",
            "-p",
            "rows=4",
            "-p",
            "cols=4",
            "--sample",
            "5",
            "--seed",
            seed,
            "--json",
            "--threads",
            threads,
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        // The solutions, without the summary (its time differs from run to run).
        let mut lines: Vec<String> = r.stdout.lines().map(str::to_string).collect();
        let summary = lines.pop().unwrap();
        (lines, summary)
    };
    let run = |seed: &str| run_on(seed, "1");
    let ((a, summary), (b, _), (c, _)) = (run("1"), run("1"), run("2"));
    assert_eq!(a, b);
    // The draws follow the exact counts, which the threads do not change.
    assert_eq!(run_on("1", "8").0, a);
    assert_ne!(a, c);
    assert_eq!(a.len(), 5, "{a:?}");
    let summary: serde_json::Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(
        (summary["solutions"].clone(), summary["samples"].clone()),
        (36.into(), 5.into())
    );
}

#[test]
fn goldens_of_the_memo_refusals() {
    let cases: &[(&str, &[&str])] = &[
        (
            "E0950-memo-on-a-listing",
            &["run", "examples/dominoes.dlx", "--all", "--memo", "on"],
        ),
        (
            "E0950-zdd-with-mrv",
            &[
                "run",
                "examples/dominoes.dlx",
                "--count",
                "--zdd",
                "/nonexistent/never-written",
                "--memo-order",
                "mrv",
            ],
        ),
        (
            "E0951-zdd-with-a-shard",
            &[
                "run",
                "examples/dominoes.dlx",
                "--count",
                "--zdd",
                "/nonexistent/never-written",
                "--shard",
                "1/2",
            ],
        ),
        (
            "E0952-sample-with-objective",
            &["run", "examples/matchsticks.dlx", "--sample", "3"],
        ),
        (
            "E0953-seed-without-sample",
            &["run", "examples/dominoes.dlx", "--seed", "7"],
        ),
        (
            "E0955-zdd-not-written",
            &[
                "run",
                "examples/dominoes.dlx",
                "--count",
                "--zdd",
                "/nonexistent/dominoes.zdd",
            ],
        ),
        (
            "E0953-sample-with-memo-off",
            &[
                "run",
                "examples/dominoes.dlx",
                "--sample",
                "2",
                "--memo",
                "off",
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

/// Shards of a memo count (`--memo on --shard K/N`) merge to the count, past 2^128
/// too, on one thread or several; a shard of a plain count does not merge with them.
#[test]
fn memo_shards_merge_to_the_count() {
    let dir = std::env::temp_dir().join(format!("dlxc-memo-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A shard of the dominoes on `board`, counted with `--memo memo` and `more`.
    let shard_of = |board: [&str; 2], memo: &str, shard: &str, more: &[&str]| {
        let mut args = vec![
            "run",
            "examples/dominoes.dlx",
            "-p",
            board[0],
            "-p",
            board[1],
            "--count",
            "--memo",
            memo,
            "--shard",
            shard,
            "--json",
        ];
        args.extend_from_slice(more);
        dlxc(&args)
    };
    for (board, n, threads, want) in [
        (["rows=12", "cols=12"], 3, "1", "53060477521960000"),
        (["rows=10", "cols=10"], 8, "2", "258584046368"),
        (
            ["rows=2", "cols=200"],
            2,
            "2",
            "453973694165307953197296969697410619233826",
        ),
    ] {
        let mut files = Vec::new();
        for k in 1..=n {
            let shard = format!("{k}/{n}");
            let r = shard_of(board, "on", &shard, &["--threads", threads]);
            // A shard whose parts hold no solution exits 1, as a count of 0 does.
            assert!(r.code <= 1, "{}", r.stderr);
            let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
            assert_eq!(
                (v["engine"].as_str(), v["shard"].as_str()),
                (Some("memo"), Some(&*shard))
            );
            let file = dir.join(format!("{}-{k}.json", board[0]));
            std::fs::write(&file, &r.stdout).unwrap();
            files.push(file.to_str().unwrap().to_string());
        }
        let mut args = vec!["merge"];
        args.extend(files.iter().map(String::as_str));
        let r = dlxc(&args);
        assert_eq!((r.code, r.stdout.trim()), (0, want), "{}", r.stderr);
        // A shard of the visiting count is split otherwise.
        let plain = shard_of(board, "off", &format!("1/{n}"), &["--node-limit", "100"]);
        let file = dir.join("plain.json");
        std::fs::write(&file, &plain.stdout).unwrap();
        let mut args = vec!["merge", file.to_str().unwrap()];
        args.extend(files[1..].iter().map(String::as_str));
        let r = dlxc(&args);
        assert_eq!(r.code, 2, "{}", r.stdout);
        assert!(r.stderr.contains("E0914"), "{}", r.stderr);
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `--threads N` counts by memo on N threads sharing one table, to the same count;
/// without it the memo count runs on one thread. `--stats` and `--json` say which.
#[test]
fn threads_with_memo_count_on_threads() {
    for (threads, said, n) in [
        (Some("2"), "2 threads", 2),
        (Some("1"), "one thread", 1),
        (None, "one thread", 1),
    ] {
        let mut args = vec![
            "run",
            "examples/dominoes.dlx",
            "-p",
            "rows=12",
            "-p",
            "cols=12",
            "--count",
            "--memo",
            "on",
            "--stats",
        ];
        args.extend(threads.map(|t| ["--threads", t]).into_iter().flatten());
        let r = dlxc(&args);
        assert_eq!(
            (r.code, r.stdout.trim()),
            (0, "53060477521960000"),
            "{}",
            r.stderr
        );
        assert!(
            r.stderr.contains(&format!("declared order, {said})")),
            "{}",
            r.stderr
        );
        args.push("--json");
        let r = dlxc(&args);
        let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
        assert_eq!(v["memo"]["threads"], n, "{}", r.stdout);
    }
}

/// A memo count saved with `--checkpoint` and cut by a node limit, then resumed again
/// and again (each run saving where it got), ends with the uninterrupted count: of
/// the whole board and of each shard, whose counts still merge; on one thread and on
/// two. A checkpoint of the memo count is refused by the visiting count and by
/// another item order, and a visiting count's by the memo count (golden files).
#[test]
fn memo_checkpoints_resume_to_the_count() {
    let dir = std::env::temp_dir().join(format!("dlxc-memo-ck-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let want = "53060477521960000";
    let board = [
        "run",
        "examples/dominoes.dlx",
        "-p",
        "rows=12",
        "-p",
        "cols=12",
        "--count",
        "--memo",
        "on",
    ];
    for (n, threads) in [(1, "1"), (3, "1"), (2, "2")] {
        let mut files = Vec::new();
        for k in 1..=n {
            let ck = dir.join(format!("{n}-{k}-{threads}.ckpt"));
            let ck = ck.to_str().unwrap().to_string();
            let shard = format!("{k}/{n}");
            let mut args = board.to_vec();
            args.extend(["--threads", threads, "--checkpoint", &ck, "--json"]);
            if n > 1 {
                args.extend(["--shard", &shard]);
            }
            // The first run cut after 20,000 nodes (the whole count takes about
            // 60,000 on one thread); each run after it resumes the last checkpoint
            // with a node limit a little higher.
            let mut cuts = 0;
            let summary = loop {
                let limit = (20_000 + 5_000 * cuts).to_string();
                let mut run = args.clone();
                run.extend(["--node-limit", &limit]);
                if cuts > 0 {
                    run.extend(["--resume", &ck]);
                }
                let r = dlxc(&run);
                let v: serde_json::Value = serde_json::from_str(r.stdout.trim())
                    .unwrap_or_else(|e| panic!("{run:?}: {e}: {}{}", r.stdout, r.stderr));
                if r.code == 3 {
                    assert_eq!(v["complete"], false, "{}", r.stdout);
                    assert!(r.stderr.contains("--resume"), "{}", r.stderr);
                    cuts += 1;
                    assert!(cuts < 40, "{run:?} never ends");
                    continue;
                }
                assert!(r.code <= 1, "{run:?}: {}", r.stderr);
                break r.stdout;
            };
            if n == 1 {
                assert!(cuts >= 2, "the count was cut {cuts} times");
            }
            let file = dir.join(format!("{n}-{k}-{threads}.json"));
            std::fs::write(&file, &summary).unwrap();
            files.push(file.to_str().unwrap().to_string());
        }
        if n == 1 {
            let v: serde_json::Value =
                serde_json::from_str(std::fs::read_to_string(&files[0]).unwrap().trim()).unwrap();
            assert_eq!(v["solutions"], serde_json::json!(want));
        } else {
            let mut args = vec!["merge"];
            args.extend(files.iter().map(String::as_str));
            let r = dlxc(&args);
            assert_eq!((r.code, r.stdout.trim()), (0, want), "{}", r.stderr);
        }
    }
    // The refusals, of checkpoints kept beside the goldens: the dominoes cut by a
    // node limit, 8 queens counted plainly.
    let memo_ck = format!("{UI}/dominoes-12x12.ckpt");
    let resumed_as = |more: &[&str]| {
        let mut args = board[..7].to_vec();
        args.extend(["--resume", &memo_ck]);
        args.extend_from_slice(more);
        dlxc(&args).transcript()
    };
    let plain_ck = format!("{UI}/queens-8.ckpt");
    let plain = dlxc(&[
        "run",
        "examples/queens.dlx",
        "-p",
        "n=8",
        "--count",
        "--memo",
        "on",
        "--resume",
        &plain_ck,
    ])
    .transcript();
    // The memo checkpoint resumes to the count.
    let r = dlxc(&[&board[..], &["--resume", &memo_ck]].concat());
    assert_eq!((r.code, r.stdout.trim()), (0, want), "{}", r.stderr);
    let failures: Vec<String> = [
        ("E0921-memo-checkpoint-counted-plainly", resumed_as(&[])),
        (
            "E0921-memo-checkpoint-in-another-order",
            resumed_as(&["--memo", "on", "--memo-order", "band"]),
        ),
        ("E0921-plain-checkpoint-counted-by-memo", plain),
    ]
    .iter()
    .filter_map(|(name, got)| {
        golden::check(&Path::new(UI).join(format!("{name}.stderr")), got)
            .err()
            .map(|e| e.to_string())
    })
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `--zdd FILE` writes a ZDD that reads back to the count, and `FILE.vars` names its
/// variables, one option a line, every one an option of the model; a ZDD past the
/// memory budget is E0505, with neither file written.
#[test]
fn zdd_files_read_back_and_name_their_variables() {
    let dir = std::env::temp_dir().join(format!("dlxc-memo-zdd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let zdd = dir.join("d.zdd");
    let zdd_arg = zdd.to_str().unwrap();
    let r = dlxc(&[
        "run",
        "examples/dominoes.dlx",
        "-p",
        "rows=6",
        "-p",
        "cols=6",
        "--count",
        "--zdd",
        zdd_arg,
    ]);
    assert_eq!((r.code, r.stdout.trim()), (0, "6728"), "{}", r.stderr);
    let text = std::fs::read_to_string(&zdd).unwrap();
    assert_eq!(
        dlxc::solve::memo::zdd::count_text(&text),
        Some(BigUint::from(6728u32))
    );
    // Knuth's ZDDREAD format: `id: (~v?lo:hi)`, ids in hexadecimal.
    let mut used = std::collections::BTreeSet::new();
    for line in text.lines() {
        let (id, rest) = line.split_once(": (~").expect(line);
        let (v, rest) = rest.split_once('?').expect(line);
        let (lo, hi) = rest
            .strip_suffix(')')
            .and_then(|r| r.split_once(':'))
            .expect(line);
        for x in [id, lo, hi] {
            assert!(u64::from_str_radix(x, 16).is_ok(), "{line}");
        }
        used.insert(v.parse::<usize>().expect(line));
    }
    let levels = used.len();
    let vars = std::fs::read_to_string(dir.join("d.zdd.vars")).unwrap();
    let names: Vec<&str> = vars.lines().collect();
    // Every option of the 6x6 board is a variable: 30 across, 30 down.
    assert_eq!(names.len(), 60, "{vars}");
    assert!(levels <= names.len() && used.last() < Some(&names.len()));
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), 60, "a variable named twice: {vars}");
    assert!(
        names
            .iter()
            .all(|n| n.starts_with("across[") || n.starts_with("down[")),
        "{vars}"
    );
    // Too big for the budget.
    let big = dir.join("big.zdd");
    let r = dlxc(&[
        "run",
        "examples/dominoes.dlx",
        "-p",
        "rows=14",
        "-p",
        "cols=14",
        "--count",
        "--zdd",
        big.to_str().unwrap(),
        "--max-memory",
        "40M",
    ]);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("E0505"), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    assert!(!big.exists() && !dir.join("big.zdd.vars").exists());
    std::fs::remove_dir_all(&dir).ok();
}
