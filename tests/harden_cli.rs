//! Answers that must never look complete or successful when they are not: a count
//! stopped at `--limit N`, output lost to a full disk, a data record that failed.

#[path = "common/cli.rs"]
mod cli;
#[path = "common/golden.rs"]
mod golden;

use std::path::Path;
use std::process::{Command, Stdio};

use cli::{dlxc, temp_file};

#[test]
fn a_count_stopped_at_its_limit_is_not_complete_in_json() {
    let r = dlxc(&[
        "run",
        "examples/queens.dlx",
        "--count",
        "--limit",
        "2",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["solutions"], 2);
    assert_eq!(v["complete"], false);
    assert_eq!(v["limited_by"], "limit");
    // An exact count says so, with no limit.
    let r = dlxc(&[
        "run",
        "examples/queens.dlx",
        "-p",
        "n=6",
        "--count",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(
        (v["solutions"].as_u64(), v["complete"].as_bool()),
        (Some(4), Some(true))
    );
    assert!(v.get("limited_by").is_none(), "{v}");
    // A count cut by the node limit names it.
    let r = dlxc(&[
        "run",
        "examples/queens.dlx",
        "-p",
        "n=10",
        "--count",
        "--json",
        "--node-limit",
        "50",
    ]);
    assert_eq!(r.code, 3);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(
        (v["complete"].as_bool(), v["limited_by"].as_str()),
        (Some(false), Some("node limit"))
    );
}

#[test]
fn output_to_a_full_disk_fails_with_e0918() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_dlxc"))
        .args(["run", "examples/queens.dlx", "-p", "n=8"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdout(Stdio::from(full))
        .output()
        .unwrap();
    let mut t = String::from_utf8_lossy(&out.stderr).into_owned();
    t.push_str(&format!(
        "--- exit code {}\n",
        out.status.code().unwrap_or(-1)
    ));
    golden::check(Path::new("tests/ui/harden/E0918-dev-full.txt"), &t).unwrap();
}

#[test]
fn a_failed_record_prints_error_not_the_no_solution_line() {
    let first = "7 0 0 9 0 0 0 0 1\n1 0 0 0 0 5 9 0 0\n0 0 0 2 0 0 0 8 0\n\
                 0 0 5 0 2 0 0 0 3\n0 0 0 0 0 0 6 4 8\n4 1 3 0 0 0 0 0 0\n\
                 0 0 7 0 0 2 0 9 0\n2 0 1 0 6 0 8 0 4\n0 8 0 5 0 4 0 1 2";
    let data = temp_file("ts.txt", &format!("{first}\n\n1 2 3\n"));
    let d = data.to_str().unwrap();
    let r = dlxc(&[
        "run",
        "examples/target-sudoku.dlx",
        "--data",
        d,
        "--value",
        "--none=-1",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.stdout);
    assert_eq!(lines[1], "error");
    let r = dlxc(&["run", "examples/target-sudoku.dlx", "--data", d, "--json"]);
    let last: serde_json::Value = serde_json::from_str(r.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(
        (last["failed"].as_bool(), last["complete"].as_bool()),
        (Some(true), Some(false))
    );
}

#[test]
fn check_says_one_line_on_success() {
    let r = dlxc(&["check", "examples/queens.dlx"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "ok: 4 item families, 1 option family; 46 items, 64 options with the defaults\n"
    );
}

#[test]
fn a_string_parameter_takes_digits_as_text() {
    let model = temp_file(
        "sp.dlx",
        "param code = \"ab\"\nitem a[i] for i in 0..len(code)\n\
         option p[i] for i in 0..len(code) covers a[i]\n",
    );
    let r = dlxc(&[
        "run",
        model.to_str().unwrap(),
        "-p",
        "code=1234",
        "--count",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["solutions"], 1);
}

#[test]
fn a_data_line_past_the_limit_fails_its_record_alone_with_e0607() {
    // A record of 3 MB on one line, between two good ones: it is E0607, shown by its
    // first bytes (the whole line was held and echoed in the message, 54 MB of stderr
    // for a 50 MB line), and the records after it are still solved.
    let long = format!("2\n0\n\n{}\n\n3\n3 12 17 23\n", "1 ".repeat(1_500_000));
    // A short path from the crate root, where dlxc runs: the golden shows it.
    let d = format!("target/long-line-{}.txt", std::process::id());
    std::fs::write(Path::new(env!("CARGO_MANIFEST_DIR")).join(&d), long).unwrap();
    let r = dlxc(&["run", "examples/matchsticks.dlx", "--data", &d, "--value"]);
    let _ = std::fs::remove_file(Path::new(env!("CARGO_MANIFEST_DIR")).join(&d));
    assert_eq!(r.stdout, "3\nerror\n3\n", "{}", r.stderr);
    assert!(r.stderr.len() < 2_000, "{} bytes of stderr", r.stderr.len());
    let mut t = r.stderr.replace(&d, "long-line.txt");
    t.push_str(&format!("--- exit code {}\n", r.code));
    golden::check(Path::new("tests/ui/harden/E0607-long-line.txt"), &t).unwrap();
}

#[test]
fn a_knuth_file_of_millions_of_errors_holds_a_few_in_bounded_memory() {
    // 200,000 option lines naming an undeclared item: each is an E0802. All of them
    // were held (5.1 GB for a 73 MB file), so under a 16 MB budget the read stopped
    // at the budget (E0505, behind the 50 errors shown) after 44,800 errors; now the
    // first are kept, the rest counted, and the read ends with all of them counted.
    let text = format!("a b\n{}", "a zz\n".repeat(200_000));
    let f = temp_file("many-errors.dlx", &text);
    let r = dlxc(&["--max-memory", "16M", "solve", f.to_str().unwrap()]);
    assert_eq!(
        r.code,
        2,
        "{}",
        &r.stderr[r.stderr.len().saturating_sub(500)..]
    );
    assert_eq!(r.stderr.matches("dlx::E0802").count(), 50);
    assert!(
        r.stderr
            .ends_with("... and 199950 more errors, not shown\n"),
        "{}",
        &r.stderr[r.stderr.len().saturating_sub(500)..]
    );
}
