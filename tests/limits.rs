//! Extreme inputs end in a coded diagnostic (exit 2), quickly: never a panic, a stack
//! overflow, a hang or the out-of-memory killer. The inputs are generated here; each
//! case found by fuzzing has its test.

use std::time::{Duration, Instant};

#[path = "common/cli.rs"]
mod cli;

/// Generous for a busy machine: queens with n = 100000 makes 600000 items (seconds)
/// before its options are refused; most cases take a fraction of a second.
const QUICK: Duration = Duration::from_secs(if cfg!(debug_assertions) { 60 } else { 20 });

/// Runs `dlxc` and checks it ends in time with exit 2 and the diagnostic `code`.
fn refused(args: &[&str], code: &str) -> String {
    let start = Instant::now();
    let r = cli::dlxc(args);
    let took = start.elapsed();
    // The arguments can be long: name the case by its first two.
    let case = &args[..2.min(args.len())];
    assert!(took < QUICK, "{case:?} took {took:?}");
    assert_eq!(r.code, 2, "{case:?}: {}", tail(&r.stderr));
    assert!(
        r.stderr.contains(&format!("dlx::{code}")),
        "{case:?} should report {code}: {}",
        tail(&r.stderr)
    );
    r.stderr
}

fn tail(s: &str) -> &str {
    // The rendered diagnostics hold box-drawing characters: cut on a boundary.
    let mut at = s.len().saturating_sub(3000);
    while !s.is_char_boundary(at) {
        at += 1;
    }
    &s[at..]
}

fn model(name: &str, text: &str) -> String {
    cli::temp_file(name, text).display().to_string()
}

const TAIL: &str = "\nitem a[i] for i in 0..2\noption o covers a[0]\n";

#[test]
fn a_label_past_column_65535_is_drawn_in_a_window() {
    let m = model(
        "wide.dlx",
        &format!("let x = 1\n{}nowhere{TAIL}", " ".repeat(66_000)),
    );
    let err = refused(&["check", &m], "E0001");
    assert!(err.contains(":2:66001]"), "{err}");
    assert!(err.contains("...") && err.contains("nowhere"), "{err}");
    assert!(err.len() < 3_000, "{err}");
    let m = model(
        "wide-name.dlx",
        &format!("let x = {}zzz{TAIL}", " ".repeat(70_000)),
    );
    let err = refused(&["check", &m], "E0101");
    assert!(err.contains("zzz") && err.len() < 3_000, "{err}");
}

#[test]
fn knuth_and_matrix_errors_on_very_long_lines_are_drawn_in_a_window() {
    let k = model("wide.dlx1", &format!("A B\nA{}Q\n", " ".repeat(70_000)));
    let err = refused(&["solve", &k], "E0802");
    assert!(err.contains('Q') && err.len() < 3_000, "{err}");
    let row = "0 ".repeat(40_000);
    let m = model("wide.txt", &format!("1 40001\n{row}7\n"));
    let err = refused(&["solve", "--matrix", &m], "E0822");
    assert!(err.len() < 3_000, "{err}");
}

#[test]
fn long_chains_are_refused_not_overflowed() {
    let sum = format!("let x = {}{TAIL}", vec!["1"; 130_000].join("+"));
    refused(&["check", &model("sum.dlx", &sum)], "E0011");
    let eq = format!("let x = {}{TAIL}", vec!["1"; 30_000].join("=="));
    refused(&["check", &model("eq.dlx", &eq)], "E0011");
    let range = format!("let x = {}{TAIL}", vec!["1"; 30_000].join(".."));
    refused(&["check", &model("range.dlx", &range)], "E0011");
    let ifs = format!("let x = {}1{TAIL}", "if true then 1 else ".repeat(30_000));
    refused(&["check", &model("ifs.dlx", &ifs)], "E0011");
    // A parameter's value must be a literal; a long sum is refused as one, quickly.
    let param = format!("n={}", vec!["1"; 20_000].join("+"));
    refused(&["check", "examples/queens.dlx", "-p", &param], "E0602");
}

#[test]
fn long_chains_of_definitions_are_refused_not_overflowed() {
    let mut lets: String = (0..10_000)
        .map(|i| format!("let x{i} = x{}\n", i + 1))
        .collect();
    lets.push_str("let x10000 = 1\nitem a[i] for i in 0..2\noption o covers a[x0]\n");
    refused(&["run", &model("lets.dlx", &lets)], "E0112");
    // A debug build parses slowly; the release build runs the full size.
    let n = if cfg!(debug_assertions) {
        5_000
    } else {
        75_000
    };
    let mut fns: String = (0..n)
        .map(|i| format!("fn f{i}(x) = f{}(x)\n", i + 1))
        .collect();
    fns.push_str(&format!(
        "fn f{n}(x) = x\nlet y = f0(1)\nitem a[i] for i in 0..2\noption o covers a[y]\n"
    ));
    refused(&["run", &model("fns.dlx", &fns)], "E0112");
    let clauses: String = (1..30_000)
        .map(|i| format!(" let y{i} = y{}", i - 1))
        .collect();
    let family = format!(
        "item a[i] for i in 0..1\noption o[i] for i in 0..1 let y0 = i{clauses} covers a[0]\n"
    );
    refused(&["check", &model("clauses.dlx", &family)], "E0011");
}

#[test]
fn a_long_unknown_name_gets_no_suggestion_search() {
    let name = "q".repeat(40_000);
    let m = model("name.dlx", &format!("let qq = 1\nlet x = {name}{TAIL}"));
    refused(&["check", &m], "E0101");
    // Many near names: each search for a suggestion is cut short. (Smaller in a debug
    // build, where the distance table is ten times slower.)
    let n = if cfg!(debug_assertions) { 500 } else { 2_000 };
    let items: Vec<String> = (0..n).map(|i| format!("{}{i}", "p".repeat(40))).collect();
    let mut k = items.join(" ");
    k.push('\n');
    for i in 0..n {
        k.push_str(&format!("{}{i}x\n", "p".repeat(40)));
    }
    refused(&["solve", &model("names.dlx1", &k)], "E0802");
}

#[test]
fn families_too_large_are_refused_before_the_work() {
    let both = "item a[i] for i in 0..2\noption o[i, j] for i in 0..100000, j in 0..100000 where i == j and i < 1 covers a[i]\n";
    refused(&["check", &model("filtered.dlx", both)], "E0501");
    let items = "item a[i, j] for i in 0..100000, j in 0..100000\noption o covers a[0, 0]\n";
    refused(&["check", &model("items.dlx", items)], "E0501");
    let nested = "let xs = [i * j for i in 0..100000 for j in 0..100000]\nitem a[i] for i in 0..2 where i < len(xs)\noption o covers a[0]\n";
    refused(&["check", &model("nested.dlx", nested)], "E0501");
    refused(&["check", "examples/queens.dlx", "-p", "n=100000"], "E0501");
    refused(&["check", "examples/sudoku.dlx", "-p", "n=100000"], "E0501");
    refused(
        &[
            "check",
            "examples/pentomino.dlx",
            "-p",
            "cols=9223372036854775807",
        ],
        "E0501",
    );
}

#[test]
fn bindings_tried_are_counted_per_family_not_per_run() {
    // Each record's force tries 400,000 bindings, under the limit of 1,000,000 that
    // `--max-size 100000` sets; four records together pass it, and must not be refused.
    let m = model(
        "per-record.dlx",
        "param ks: ints = [0]\nitem a[i] for i in 0..2\noption o[i] for i in 0..2 covers a[i]\nforce o[i] for i in 0..400000 where i == ks[0]\n",
    );
    let data = cli::temp_file("per-record.txt", "0\n\n1\n\n0\n\n1\n");
    let data = data.display().to_string();
    let r = cli::dlxc(&["run", &m, "--data", &data, "--max-size", "100000"]);
    assert!(!r.stderr.contains("E0501"), "{}", tail(&r.stderr));
    assert_eq!(r.code, 0, "{}", tail(&r.stderr));
}

#[test]
fn a_family_that_outgrows_the_memory_budget_is_named() {
    let items = "item cell[r, c] for r in 0..3000, c in 0..3000\noption o covers cell[0, 0]\n";
    let err = refused(
        &["check", &model("memory.dlx", items), "--max-memory", "64M"],
        "E0505",
    );
    assert!(err.contains("`cell`") && err.contains("64 MiB"), "{err}");
    refused(
        &[
            "check",
            "examples/queens.dlx",
            "-p",
            "n=3000",
            "--max-memory",
            "128M",
        ],
        "E0505",
    );
    let r = cli::dlxc(&["check", "examples/queens.dlx", "--max-memory", "lots"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[test]
fn a_wide_option_is_checked_for_repeated_items_in_linear_time() {
    // 400,000 entries: the search of the entries made so far took about 30 s (7 s for
    // 200,000, 200 s for a million); a mark per item takes a fraction of a second.
    let wide = "param n = 400000\nitem x[i] for i in 0..n\noption o covers x[i] for i in 0..n\n";
    let m = model("wide-option.dlx", wide);
    let start = Instant::now();
    let r = cli::dlxc(&["run", &m, "--count"]);
    let took = start.elapsed();
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "1\n"),
        "{}",
        tail(&r.stderr)
    );
    assert!(took < QUICK, "400,000 entries took {took:?}");
    // The last entry repeats the first: still found, and both places are named.
    let again =
        "param n = 400000\nitem x[i] for i in 0..n\noption o covers x[i] for i in 0..n, x[0]\n";
    let err = refused(&["check", &model("wide-again.dlx", again)], "E0402");
    assert!(
        err.contains("first covered here") && err.contains("covered again here"),
        "{err}"
    );
}

#[test]
fn the_default_budget_leaves_room_under_an_address_space_limit() {
    // 9 million strings of about 530 bytes under `ulimit -v` of 4 GiB: with the
    // budget equal to the limit (4 GiB either way, as `--max-memory 4G` still makes
    // it) the process aborts in an allocation (exit 134); half the address space
    // leaves room for everything the budget does not count, and it ends in E0505.
    let pad = "abcdefghij".repeat(26);
    let strings = format!(
        "let pad = \"{pad}\"\nlet xs = [pad + pad + str(i) for i in 0..9000000]\nitem a[i] for i in 0..2 where i < len(xs)\noption o covers a[0]\n"
    );
    let m = model("strings.dlx", &strings);
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 4194304 && exec {} check {m}",
            env!("CARGO_BIN_EXE_dlxc")
        ))
        .env("NO_COLOR", "1")
        .output()
        .expect("sh");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}", tail(&err));
    assert!(err.contains("dlx::E0505"), "{}", tail(&err));
}

#[test]
fn a_cover_filtered_by_membership_tries_its_loop_once_not_once_per_option() {
    // Matchsticks on a 20x20 grid: 840 options, each covering the squares whose sticks
    // hold it. Looped over in every option, that is 840 x 2870 = 2.4 million tests,
    // past the million bindings a family may try at `--max-size 100000` (E0501; at
    // n = 26, 8.7 million tests took 2 s of a 2.2 s lowering). By an index of the
    // squares' sticks, built once, the family tries its 840 bindings.
    let r = cli::dlxc(&[
        "compile",
        "examples/matchsticks.dlx",
        "-p",
        "case=[20, 0]",
        "--max-size",
        "100000",
        "--emit",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", tail(&r.stderr));
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    assert_eq!(v["options"].as_array().map(Vec::len), Some(840));
}

#[test]
fn a_builtin_result_past_the_size_limit_is_refused() {
    // A piece of 150,000 cells under `--max-size 100000`: `shape` made it whole, and
    // each of the 8 x 60 placements shifted a copy of it (a fuzzed pentomino, 13 s),
    // where a comprehension of that size is refused at once. Now `shape` is refused.
    let art = "O".repeat(150_000);
    let f = model(
        "huge-piece.dlx",
        &format!(
            "let piece = shape(\"{art}\")\n\
             item cell[r, c] for r in 0..6, c in 0..10\n\
             option put[k, r, c] for (k, v) in enumerate(variants(piece)), r in 0..6, c in 0..10\n\
             \x20   let at = shift(v, r, c)\n\
             \x20   where at <= {{(r, c) for r in 0..6, c in 0..10}}\n\
             \x20   covers cell[x, y] for (x, y) in at\n"
        ),
    );
    let err = refused(&["check", &f, "--max-size", "100000"], "E0501");
    assert!(
        err.contains("`shape` made 150000 elements, more than the size limit of 100000"),
        "{}",
        tail(&err)
    );
}

#[test]
fn functions_that_multiply_their_calls_meet_the_limit_on_bindings() {
    // No loop at all: each of 40 functions calls the next twice, with new arguments
    // (so the memo cannot answer), 2^40 calls that no limit counted: a hang. A body
    // evaluated now counts as a binding tried.
    let mut text = String::new();
    for k in 0..40 {
        text.push_str(&format!(
            "fn f{k}(x) = f{}(2 * x) + f{}(2 * x + 1)\n",
            k + 1,
            k + 1
        ));
    }
    text.push_str("fn f40(x) = x % 2\nlet z = f0(0)\nitem a\noption o where z > 0 covers a\n");
    let err = refused(
        &["check", &model("calls.dlx", &text), "--max-size", "100000"],
        "E0501",
    );
    assert!(
        err.contains("makes more than 1000000 function calls and loop bindings"),
        "{}",
        tail(&err)
    );
}
