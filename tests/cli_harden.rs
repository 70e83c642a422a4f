//! The command line under stress: bad limits, answers cut short, Ctrl-C, a closed
//! output pipe, and records streamed through a pipe. Every spawned process is bounded
//! in time, so a regression fails the test instead of hanging it.

#[path = "common/cli.rs"]
mod cli;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use cli::{Run, dlxc, temp_file};

/// Starts `dlxc` with piped standard streams.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_dlxc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dlxc starts")
}

/// Waits for `child` to end, killing it and failing after `limit`; returns its exit
/// code and everything it wrote to stderr.
fn ended(child: &mut Child, limit: Duration, what: &str) -> (Option<i32>, String) {
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait works") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr is piped")
        .read_to_string(&mut err)
        .expect("stderr is text");
    (status.code(), err)
}

/// Sends SIGINT (what Ctrl-C sends) to `child`.
fn interrupt(child: &Child) {
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs")
        .success();
    assert!(ok, "kill -INT failed");
}

/// The lines `child` writes to stdout, delivered by a thread so a test can wait for
/// each with a timeout.
fn stdout_lines(child: &mut Child) -> mpsc::Receiver<String> {
    let out = child.stdout.take().expect("stdout is piped");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { return };
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

/// The next line from `lines`, failing after `limit`.
fn next_line(lines: &mpsc::Receiver<String>, limit: Duration) -> String {
    lines
        .recv_timeout(limit)
        .unwrap_or_else(|e| panic!("no line within {limit:?}: {e}"))
}

/// `dlxc run examples/queens.dlx -p n=N` with more flags.
fn queens(n: u32, flags: &[&str]) -> Run {
    let n = format!("n={n}");
    let mut args = vec!["run", "examples/queens.dlx", "-p", &n];
    args.extend_from_slice(flags);
    dlxc(&args)
}

const PUZZLES: [&str; 3] = [
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    ".................1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.7.....",
    ".................1.....2.3......425...6.......17....8.....7...64...6....9..8...1.",
];

#[test]
fn time_limits_that_are_not_positive_numbers_are_usage_errors() {
    for bad in ["NaN", "-1", "inf", "0", "-inf", "ten"] {
        let r = dlxc(&["run", "examples/queens.dlx", &format!("--time-limit={bad}")]);
        assert_eq!(r.code, 2, "{bad}: {}", r.stderr);
        assert!(
            r.stderr.contains("expected a positive number of seconds"),
            "{bad}: {}",
            r.stderr
        );
    }
}

#[test]
fn huge_time_limits_saturate_instead_of_panicking() {
    for huge in ["1e20", "1e300", "18446744073709551616"] {
        let r = queens(6, &["--count", "--time-limit", huge]);
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (0, "4\n"),
            "{huge}: {}",
            r.stderr
        );
    }
}

#[test]
fn a_count_cut_short_is_a_lower_bound_and_exits_3() {
    let r = queens(10, &["--count", "--node-limit", "1000"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    let n: u64 = r
        .stdout
        .trim()
        .strip_suffix('+')
        .unwrap_or_else(|| panic!("not marked: {}", r.stdout))
        .parse()
        .unwrap();
    assert!(n > 0 && n < 724, "{n}");
    // The same through `solve` and in JSON.
    let knuth = dlxc(&["compile", "examples/queens.dlx", "-p", "n=10"]);
    let f = temp_file("queens10.dlx1", &knuth.stdout);
    let r = dlxc(&[
        "solve",
        f.to_str().unwrap(),
        "--count",
        "--node-limit",
        "1000",
    ]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stdout.trim().ends_with('+'), "{}", r.stdout);
    let r = queens(10, &["--count", "--json", "--node-limit", "1000"]);
    assert_eq!(r.code, 3);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["complete"], false);
    // A complete count is a plain number.
    let r = queens(6, &["--count"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "4\n"));
}

#[test]
fn all_solutions_cut_short_exit_3_even_after_finding_some() {
    let r = queens(10, &["--all", "--node-limit", "2000"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(!r.stdout.is_empty());
    assert!(
        r.stderr.contains("the answer is incomplete"),
        "{}",
        r.stderr
    );
}

#[test]
fn count_with_a_limit_answers_whether_there_are_at_least_n() {
    let count = |limit: &str| {
        let r = queens(6, &["--count", "--limit", limit]);
        (r.code, r.stdout.trim().to_string())
    };
    // n = 6 has 4 solutions.
    assert_eq!(count("2"), (0, "2+".to_string()));
    assert_eq!(count("4"), (0, "4+".to_string()));
    assert_eq!(count("5"), (0, "4".to_string()));
    let r = queens(3, &["--count", "--limit", "2"]);
    assert_eq!((r.code, r.stdout.trim()), (1, "0"));
    let r = dlxc(&["run", "examples/queens.dlx", "--count", "--limit", "0"]);
    assert_eq!(r.code, 2, "a limit of 0 is a usage error");
}

#[test]
fn value_prints_one_marked_line_per_record_when_cut_short() {
    let data = "examples/data/matchsticks.txt";
    let full = dlxc(&["run", "examples/matchsticks.dlx", "--data", data, "--value"]);
    assert_eq!(full.code, 0, "{}", full.stderr);
    let records = full.stdout.lines().count();
    assert!(records >= 2);
    assert!(full.stdout.lines().all(|l| l.parse::<i64>().is_ok()));
    let cut = dlxc(&[
        "run",
        "examples/matchsticks.dlx",
        "--data",
        data,
        "--value",
        "--node-limit",
        "2",
    ]);
    assert_eq!(cut.code, 3, "{}", cut.stderr);
    let lines: Vec<&str> = cut.stdout.lines().collect();
    assert_eq!(lines.len(), records, "{}", cut.stdout);
    for (line, done) in lines.iter().zip(full.stdout.lines()) {
        // Either the proven optimum, or a marked value not proven (or `?` for none).
        let ok = *line == done
            || *line == "?"
            || line
                .strip_suffix('?')
                .is_some_and(|v| v.parse::<i64>().is_ok());
        assert!(ok, "{line} (optimum {done})");
    }
    assert!(lines.iter().any(|l| l.ends_with('?')), "{lines:?}");
}

#[test]
fn ctrl_c_during_compilation_says_so() {
    // The model comes through a fifo: once our write end opens, dlxc has opened the
    // read end, so it is running and Ctrl-C is its to handle. Then two million options
    // take many seconds to lower in a debug build.
    let fifo = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{}-slow.dlx", std::process::id()));
    let _ = std::fs::remove_file(&fifo);
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let mut child = spawn(&["run", fifo.to_str().unwrap(), "--count"]);
    std::fs::write(
        &fifo,
        "item x[i] for i in 0..2000000\noption o[i] for i in 0..2000000\n    covers x[i]\n",
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    interrupt(&child);
    let (status, err) = ended(&mut child, Duration::from_secs(20), "interrupted compile");
    let _ = std::fs::remove_file(&fifo);
    assert_eq!(status, Some(3), "{err}");
    assert!(
        err.contains("interrupted while compiling") && err.contains("nothing was solved"),
        "{err}"
    );
}

#[test]
fn ctrl_c_during_a_search_reports_what_it_found() {
    let mut child = spawn(&["run", "examples/queens.dlx", "-p", "n=16", "--all"]);
    let lines = stdout_lines(&mut child);
    // Solutions coming out means the search is under way.
    next_line(&lines, Duration::from_secs(20));
    interrupt(&child);
    let (status, err) = ended(&mut child, Duration::from_secs(20), "interrupted search");
    assert_eq!(status, Some(3), "{err}");
    assert!(
        err.contains("search cut short (interrupted)") && err.contains("the answer is incomplete"),
        "{err}"
    );
}

#[test]
fn records_stream_through_a_pipe_one_answer_per_record() {
    let mut child = spawn(&["run", "examples/sudoku.dlx", "--data", "-"]);
    let mut stdin = child.stdin.take().unwrap();
    let lines = stdout_lines(&mut child);
    let limit = Duration::from_secs(20);
    for (k, puzzle) in PUZZLES.iter().enumerate() {
        // The answer must come before the next record is written.
        writeln!(stdin, "{puzzle}").unwrap();
        stdin.flush().unwrap();
        let grid: Vec<String> = (0..9).map(|_| next_line(&lines, limit)).collect();
        assert_eq!(next_line(&lines, limit), "", "record {k}");
        for (i, c) in puzzle.chars().enumerate() {
            if c != '.' {
                assert_eq!(grid[i / 9].as_bytes()[i % 9], c as u8, "record {k}");
            }
        }
    }
    // A malformed record fails alone, with its line; the next is still answered.
    writeln!(stdin, "# a comment line\n12345").unwrap();
    stdin.flush().unwrap();
    // `error`, not "No solution": the record was not answered.
    assert_eq!(next_line(&lines, limit), "error");
    assert_eq!(next_line(&lines, limit), "");
    writeln!(stdin, "{}", PUZZLES[0]).unwrap();
    drop(stdin);
    let rest: Vec<String> = (0..10).map(|_| next_line(&lines, limit)).collect();
    assert_eq!(rest[9], "");
    let (status, err) = ended(&mut child, limit, "stream");
    assert_eq!(status, Some(2), "a record failed: {err}");
    assert!(
        err.contains("<stdin>, line 5: record 3: expected a row of 9 characters or a line of 81"),
        "{err}"
    );
}

#[test]
fn ctrl_c_while_waiting_for_records_says_how_many_were_done() {
    let mut child = spawn(&["run", "examples/sudoku.dlx", "--data", "-", "--count"]);
    let mut stdin = child.stdin.take().unwrap();
    let lines = stdout_lines(&mut child);
    let limit = Duration::from_secs(20);
    for puzzle in &PUZZLES[..2] {
        writeln!(stdin, "{puzzle}").unwrap();
        stdin.flush().unwrap();
        assert_eq!(next_line(&lines, limit), "1");
    }
    // dlxc now waits for the third record.
    interrupt(&child);
    let (status, err) = ended(&mut child, limit, "interrupted stream");
    assert_eq!(status, Some(3), "{err}");
    assert!(
        err.contains("interrupted after 2 records of <stdin> (up to line 2)"),
        "{err}"
    );
    drop(stdin);
}

#[test]
fn a_closed_output_pipe_stops_the_search_at_once() {
    // All 365,596 solutions of 14 queens take minutes in a debug build; a reader that
    // stops after the first line must not wait for them.
    let mut child = spawn(&["run", "examples/queens.dlx", "-p", "n=14", "--all"]);
    let mut first = [0u8; 15];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let (status, err) = ended(&mut child, Duration::from_secs(20), "closed pipe");
    assert_eq!(status, Some(0), "{err}");
    assert_eq!(err, "", "a closed pipe is not an error");
}

#[test]
fn a_time_limit_stops_a_run_of_dead_ends() {
    // Knuth's 6x7 example with each option 20,000 times: at the second level, each of
    // 20,000 copies of `B C F` leaves `E` with no option after hiding 40,000 others.
    // Those dead ends are no nodes, and the clock was looked at only between nodes:
    // 800 million updates (about 5 s here) ran past a limit of 0.2 s. On one thread and
    // on two (where the parts left are handed back), the limit now holds.
    let options = ["C E F", "A D G", "B C F", "A D", "B G", "D E G"];
    let mut text = String::from("A B C D E F G\n");
    for _ in 0..20_000 {
        for o in options {
            text.push_str(o);
            text.push('\n');
        }
    }
    let f = temp_file("dead-ends.dlx", &text);
    for threads in ["1", "2"] {
        let start = Instant::now();
        let mut child = spawn(&[
            "solve",
            f.to_str().unwrap(),
            "--count",
            "--time-limit",
            "0.2",
            "--engine",
            "cells",
            "--threads",
            threads,
        ]);
        let (code, err) = ended(&mut child, Duration::from_secs(60), "dead ends");
        let took = start.elapsed();
        assert_eq!(code, Some(3), "{threads} threads: {err}");
        assert!(err.contains("time limit"), "{threads} threads: {err}");
        assert!(
            took < Duration::from_secs(2),
            "{threads} threads: {took:?} for a limit of 0.2 s"
        );
    }
}

/// The most memory `pid` has held, from `/proc` (Linux), in kB.
fn peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn an_endless_line_on_standard_input_is_read_in_bounded_memory() {
    // `--data -` fed 64 MB without a line break: the line was held whole, growing
    // with the input. Now past 1 MiB only its length is kept: the process's peak stays
    // far below the input, the record fails alone (E0607), and the next is answered.
    let mut child = spawn(&["run", "examples/matchsticks.dlx", "--data", "-", "--value"]);
    let mut stdin = child.stdin.take().unwrap();
    let lines = stdout_lines(&mut child);
    let limit = Duration::from_secs(30);
    write!(stdin, "2\n0\n\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(next_line(&lines, limit), "3");
    let chunk = "1 ".repeat(1 << 19);
    for _ in 0..64 {
        stdin.write_all(chunk.as_bytes()).unwrap();
    }
    stdin.flush().unwrap();
    // Written through a pipe of a few blocks, so most of it has been read by now.
    if let Some(kb) = peak_kb(child.id()) {
        assert!(kb < 48 * 1024, "peak {kb} kB while reading a line of 64 MB");
    }
    write!(stdin, "\n\n3\n3 12 17 23\n").unwrap();
    drop(stdin);
    assert_eq!(next_line(&lines, limit), "error");
    assert_eq!(next_line(&lines, limit), "3");
    let (status, err) = ended(&mut child, limit, "endless line");
    assert_eq!(status, Some(2), "{err}");
    assert!(err.contains("dlx::E0607"), "{err}");
    assert!(err.len() < 2_000, "{} bytes of stderr", err.len());
}
