//! Damaged checkpoints never resume to a wrong count: a campaign of random single-bit
//! flips and random truncations of real checkpoints of five problems (one with
//! multiplicities, whose parts exclude options; one a memo count, whose checkpoint
//! lists the parts it counted). Every damaged
//! file either resumes to the uninterrupted count or is refused with E0920; nothing
//! else (a wrong count, "no solution", another error, a panic) is allowed.
//!
//! `DLXC_CAMPAIGN=N` sets the flips and truncations per problem (200 each by default);
//! the figures are printed (`cargo test --release --test harden_checkpoint -- --nocapture`).

#[path = "common/cli.rs"]
mod cli;
#[path = "common/rng.rs"]
mod rng;

use std::path::PathBuf;

use cli::dlxc;
use rng::Rng;

/// A scratch file of this process.
fn scratch(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("harden-ck-{}-{name}", std::process::id()))
}

/// What resuming `damaged` did: `Ok(true)` resumed to `whole`, `Ok(false)` refused
/// with E0920, `Err` anything else.
fn resume(model: &[&str], damaged: &[u8], file: &PathBuf, whole: &str) -> Result<bool, String> {
    std::fs::write(file, damaged).unwrap();
    let mut args = vec!["run"];
    args.extend_from_slice(model);
    args.extend(["--count", "--resume", file.to_str().unwrap()]);
    let r = dlxc(&args);
    if r.code == 0 && r.stdout.trim() == whole {
        Ok(true)
    } else if r.code == 2 && r.stderr.contains("E0920") && r.stdout.is_empty() {
        Ok(false)
    } else {
        Err(format!(
            "exit {}, stdout {:?}, stderr {}",
            r.code,
            r.stdout.trim(),
            r.stderr
        ))
    }
}

#[test]
fn damaged_checkpoints_resume_right_or_are_refused() {
    let per: usize = std::env::var("DLXC_CAMPAIGN")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    // Each problem with how its count is cut: a visiting count by a millisecond (each
    // whole count takes 40 ms or more on a fast machine: a count that ends before its
    // limit would make the campaign test nothing), the memo count by a node limit
    // where it has counted some of its parts (it takes about 60,000 nodes).
    let problems: [(&[&str], &[&str]); 5] = [
        (
            &["examples/queens.dlx", "-p", "n=14"],
            &["--time-limit", "0.001"],
        ),
        // Multiplicities: parts that exclude options.
        (
            &["tests/fixtures/rowcol.dlx", "-p", "n=7"],
            &["--time-limit", "0.001"],
        ),
        (
            &["examples/langford.dlx", "-p", "n=12"],
            &["--time-limit", "0.001"],
        ),
        (&["examples/soma.dlx"], &["--time-limit", "0.001"]),
        (
            &[
                "examples/dominoes.dlx",
                "-p",
                "rows=12",
                "-p",
                "cols=12",
                "--memo",
                "on",
            ],
            &["--node-limit", "50000"],
        ),
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut failures = Vec::new();
    for (i, (model, cut_by)) in problems.iter().enumerate() {
        let mut args = vec!["run"];
        args.extend_from_slice(model);
        args.push("--count");
        let whole = dlxc(&args);
        assert_eq!(whole.code, 0, "{model:?}: {}", whole.stderr);
        let whole = whole.stdout.trim().to_string();
        // A checkpoint of a count cut short, so that it has parts left.
        let ck = scratch(&format!("{i}.ckpt"));
        let _ = std::fs::remove_file(&ck);
        let mut cut = args.clone();
        let ck_arg = ck.to_str().unwrap().to_string();
        cut.extend(["--checkpoint", &ck_arg]);
        cut.extend_from_slice(cut_by);
        let r = dlxc(&cut);
        assert_eq!(r.code, 3, "{model:?} was not cut short: {}", r.stderr);
        let good = std::fs::read(&ck).unwrap();
        let file = scratch(&format!("{i}-damaged.ckpt"));
        // The intact checkpoint resumes to the whole count.
        assert_eq!(resume(model, &good, &file, &whole), Ok(true), "{model:?}");
        let (mut resumed, mut refused) = ([0usize; 2], [0usize; 2]);
        for kind in 0..2 {
            for _ in 0..per {
                let mut damaged = good.clone();
                let what = if kind == 0 {
                    let bit = rng.below(damaged.len() as u64 * 8) as usize;
                    damaged[bit / 8] ^= 1 << (bit % 8);
                    format!("bit {bit} flipped")
                } else {
                    let len = rng.below(damaged.len() as u64) as usize;
                    damaged.truncate(len);
                    format!("cut to {len} bytes")
                };
                match resume(model, &damaged, &file, &whole) {
                    Ok(true) => resumed[kind] += 1,
                    Ok(false) => refused[kind] += 1,
                    Err(e) => failures.push(format!("{model:?}, {what}: {e}")),
                }
            }
        }
        println!(
            "{model:?} ({} bytes, count {whole}): bit flips {} refused E0920, {} resumed right; \
             truncations {} refused E0920, {} resumed right",
            good.len(),
            refused[0],
            resumed[0],
            refused[1],
            resumed[1]
        );
    }
    assert!(
        failures.is_empty(),
        "{} damaged checkpoints did neither:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_checkpoint_that_cannot_be_written_is_never_claimed_as_saved() {
    let r = dlxc(&[
        "run",
        "examples/queens.dlx",
        "-p",
        "n=15",
        "--count",
        "--checkpoint",
        "/nonexistent-dir/q.ckpt",
        "--time-limit",
        "0.05",
    ]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("E0902"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("the last checkpoint could not be written to /nonexistent-dir/q.ckpt"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("`--resume"), "{}", r.stderr);
}

#[test]
fn sigterm_and_sighup_end_a_count_as_ctrl_c_does() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let queens: &[&str] = &["examples/queens.dlx", "-p", "n=16"];
    // A memo count of seconds and a gigabyte.
    let dominoes: &[&str] = &[
        "examples/dominoes.dlx",
        "-p",
        "rows=18",
        "-p",
        "cols=18",
        "--memo",
        "on",
    ];
    for (i, (signal, model)) in [("-TERM", queens), ("-HUP", queens), ("-TERM", dominoes)]
        .into_iter()
        .enumerate()
    {
        let ck = scratch(&format!("signal{i}.ckpt"));
        let _ = std::fs::remove_file(&ck);
        let mut child = Command::new(env!("CARGO_BIN_EXE_dlxc"))
            .arg("run")
            .args(model)
            .arg("--count")
            .arg("--checkpoint")
            .arg(&ck)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(500));
        let sent = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let start = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if start.elapsed() > Duration::from_secs(20) {
                let _ = child.kill();
                panic!("{signal}: still running");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(3), "{signal}: {status:?}");
        let saved = std::fs::read_to_string(&ck).unwrap();
        assert!(saved.contains("\"checksum\""), "{signal}: {saved}");
        assert!(saved.contains("\"complete\":false"), "{signal}: {saved}");
    }
}
