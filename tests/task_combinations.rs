//! Every combination of the mode flags (first solution, `--all`, `--limit`, `--count`,
//! `--count --limit`, `--up-to-symmetry`) with the spread flags (`--threads`,
//! `--shard`, `--checkpoint`, `--resume`) on a plain model, a model with symmetries and
//! a model with an objective is either refused with a code, before any output, or
//! supported: then every spread flag given shows its effect (a shard's summary names
//! the shard, a checkpoint file is written, a resume of a missing file is an error).
//! No flag is silently ignored. The model with an objective takes `--shard`,
//! `--checkpoint` and `--resume` when it searches for one optimal solution (on any
//! number of threads), and refuses them with `--all`, `--limit` and `--count`.

#[path = "common/cli.rs"]
mod cli;

use cli::dlxc;

/// The modes, as flags.
const MODES: [&[&str]; 5] = [
    &[],
    &["--all"],
    &["--limit", "2"],
    &["--count"],
    &["--count", "--limit", "2"],
];

#[test]
fn every_combination_is_supported_or_refused() {
    let dir = std::env::temp_dir().join(format!("dlxc-combos-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let models: [(&str, &[&str]); 3] = [
        ("examples/queens.dlx", &["-p", "n=6"]),
        (
            "examples/pentomino.dlx",
            &["-p", "rows=3", "-p", "cols=5", "-p", "hole={}"],
        ),
        ("examples/matchsticks.dlx", &[]),
    ];
    let mut supported = 0;
    let mut refused = 0;
    let mut optimized_by_parts = 0;
    for (model, params) in models {
        for mode in MODES {
            for symmetry in [false, true] {
                for threads in ["1", "2"] {
                    for spread in 0..8u32 {
                        let ck = dir.join(format!("ck-{supported}-{refused}.json"));
                        let _ = std::fs::remove_file(&ck);
                        let missing = dir.join("missing.json");
                        let ck_s = ck.display().to_string();
                        let missing_s = missing.display().to_string();
                        let mut args: Vec<&str> = vec!["run", model];
                        args.extend_from_slice(params);
                        args.extend_from_slice(mode);
                        args.extend(["--threads", threads, "--json", "-q"]);
                        if symmetry {
                            args.push("--up-to-symmetry");
                        }
                        let shard = spread & 1 != 0;
                        let checkpoint = spread & 2 != 0;
                        let resume = spread & 4 != 0;
                        if shard {
                            args.extend(["--shard", "1/2"]);
                        }
                        if checkpoint {
                            args.extend(["--checkpoint", &ck_s]);
                        }
                        if resume {
                            args.extend(["--resume", &missing_s]);
                        }
                        let r = dlxc(&args);
                        let what = args.join(" ");
                        // An optimum searched by parts: the first solution of the
                        // model with an objective, with shards or checkpoints.
                        let by_parts = model.contains("matchsticks")
                            && mode.is_empty()
                            && !symmetry
                            && (shard || checkpoint);
                        if by_parts && !resume {
                            assert_eq!(r.code, 0, "{what}: {}", r.stderr);
                            assert!(summary_has_goal(&r.stdout, shard), "{what}: {}", r.stdout);
                            optimized_by_parts += 1;
                        }
                        if r.code == 2 {
                            assert!(
                                r.stderr.contains("E09") || r.stderr.contains("E05"),
                                "{what}: refused without a code:\n{}",
                                r.stderr
                            );
                            assert!(r.stdout.is_empty(), "{what}: refused after output");
                            refused += 1;
                            continue;
                        }
                        assert!(
                            r.code == 0 || r.code == 1,
                            "{what}: exit {}\n{}",
                            r.code,
                            r.stderr
                        );
                        assert!(!resume, "{what}: resumed a missing checkpoint");
                        let summary = r.stdout.lines().last().unwrap_or("");
                        if shard {
                            assert!(summary.contains("\"shard\":\"1/2\""), "{what}: {summary}");
                        }
                        if checkpoint {
                            assert!(ck.exists(), "{what}: no checkpoint written");
                        }
                        if symmetry {
                            assert!(
                                summary.contains("\"up_to_symmetry\":true"),
                                "{what}: {summary}"
                            );
                        }
                        supported += 1;
                    }
                }
            }
        }
    }
    // Both kinds occur: the plain count takes every spread flag, a listing none.
    assert!(
        supported > 20 && refused > 100,
        "{supported} supported, {refused} refused"
    );
    // Shard, checkpoint, both; on one thread and two.
    assert_eq!(optimized_by_parts, 6);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_listing_with_a_count_flag_is_a_coded_usage_error() {
    for flag in [
        &["--shard", "1/4"][..],
        &["--checkpoint", "never-written.json"],
        &["--resume", "missing.json"],
        &["--progress"],
        &["--checkpoint-every", "5"],
    ] {
        let mut args = vec!["run", "examples/queens.dlx", "-p", "n=5", "--all"];
        args.extend_from_slice(flag);
        let r = dlxc(&args);
        assert_eq!(r.code, 2, "{args:?}");
        assert!(r.stderr.contains("E0922"), "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty());
    }
    assert!(!std::path::Path::new("never-written.json").exists());
}

/// Whether the JSON summary of an optimization names its objective, and, for a shard,
/// the shard and its best part (what `dlxc merge` needs).
fn summary_has_goal(stdout: &str, shard: bool) -> bool {
    let summary = stdout.lines().last().unwrap_or("");
    summary.contains("\"objective\":")
        && (!shard || (summary.contains("\"goal\":") && summary.contains("\"part\":")))
}
