//! `dlxc check`: the line it says on success and its diagnostics as JSON (`--json`).

#[path = "common/cli.rs"]
mod cli;

use cli::{dlxc, temp_file};

#[test]
fn check_says_what_a_model_makes() {
    let r = dlxc(&["check", "examples/sudoku.dlx"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "ok: 4 item families, 1 option family; 324 items, 729 options with the defaults\n"
    );
    let r = dlxc(&["check", "examples/queens.dlx", "-p", "n=1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("ok: "), "{}", r.stdout);
}

#[test]
fn json_diagnostics_carry_code_place_labels_and_help() {
    let m = temp_file(
        "bad.dlx",
        "param n = 3\nitem x[i] for i in 0..nn\noption o[i] for i in 0..n covers x[i]\n",
    );
    let r = dlxc(&["check", "--json", m.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr, "");
    let lines: Vec<_> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{}", r.stdout);
    let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(v["code"], "E0101");
    assert_eq!(v["severity"], "error");
    assert_eq!(v["file"], m.to_str().unwrap());
    assert_eq!(
        (v["line"].as_u64(), v["column"].as_u64()),
        (Some(2), Some(23))
    );
    assert_eq!(v["span"]["start"], 34);
    assert_eq!(v["span"]["end"], 36);
    assert_eq!(v["labels"][0]["text"], "not defined");
    assert_eq!(v["help"], "did you mean `n`?");
}

#[test]
fn json_reports_lowering_errors_and_nothing_on_success() {
    let r = dlxc(&["check", "--json", "examples/sudoku.dlx"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
    let r = dlxc(&["check", "--json", "examples/queens.dlx", "-p", "n=100000"]);
    assert_eq!(r.code, 2);
    let v: serde_json::Value = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(v["code"], "E0501");
}
