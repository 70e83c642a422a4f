//! `dlxc compile --emit knuth|json` keeps the model's objective, or refuses: a file
//! solved with `dlxc solve` must optimize what the model optimizes (a `maximize cost`
//! model once came back as its minimum, and `minimize count` was dropped).

#[path = "common/cli.rs"]
mod cli;

use cli::{dlxc, temp_file};

/// `dlxc compile MODEL --emit knuth`, then `dlxc solve` of what it wrote.
fn through_knuth(model: &str, solve: &[&str]) -> (String, String) {
    let path = temp_file("m.dlx", model);
    let c = dlxc(&["compile", path.to_str().unwrap(), "--emit", "knuth"]);
    assert_eq!(c.code, 0, "{}", c.stderr);
    let file = temp_file("m.dlx5", &c.stdout);
    let mut args = vec!["solve", file.to_str().unwrap()];
    args.extend_from_slice(solve);
    let s = dlxc(&args);
    assert_eq!(s.code, 0, "{}", s.stderr);
    (c.stderr, s.stdout)
}

const FOUR: &str = "item a[i] for i in 0..4\n\
                    option p[i] for i in 0..4 covers a[i] COST1\n\
                    option q covers a[0], a[1], a[2], a[3] COST5\n";

#[test]
fn minimize_count_is_written_as_unit_costs() {
    let model = format!(
        "{}minimize count\n",
        FOUR.replace("COST1", "").replace("COST5", "")
    );
    let (notes, out) = through_knuth(&model, &[]);
    assert!(
        notes.contains("`minimize count` is written as a cost of 1"),
        "{notes}"
    );
    // The fewest options: q alone, not the first cover found (p[0]..p[3]).
    assert_eq!(out, "minimum cost: 1\na[0] a[1] a[2] a[3]\n");
}

#[test]
fn minimize_cost_keeps_the_costs() {
    let model = format!(
        "{}minimize cost\n",
        FOUR.replace("COST1", "cost 1").replace("COST5", "cost 5")
    );
    let (_, out) = through_knuth(&model, &[]);
    assert_eq!(out, "minimum cost: 4\na[0]\na[1]\na[2]\na[3]\n");
}

#[test]
fn costs_without_an_objective_are_left_out() {
    let model = FOUR.replace("COST1", "cost 1").replace("COST5", "cost 5");
    let (notes, out) = through_knuth(&model, &["--count"]);
    assert!(notes.contains("the options' costs are left out"), "{notes}");
    assert_eq!(out, "2\n");
}

#[test]
fn maximize_cost_is_refused_by_knuths_format_and_kept_by_json() {
    let r = dlxc(&["compile", "examples/target-sudoku.dlx", "--emit", "knuth"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("E0917"), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    let j = dlxc(&["compile", "examples/target-sudoku.dlx", "--emit", "json"]);
    assert_eq!(j.code, 0, "{}", j.stderr);
    let v: serde_json::Value = serde_json::from_str(j.stdout.trim()).unwrap();
    assert_eq!(v["objective"], "maximize cost");
    let j = dlxc(&["compile", "examples/queens.dlx", "--emit", "json"]);
    let v: serde_json::Value = serde_json::from_str(j.stdout.trim()).unwrap();
    assert!(v["objective"].is_null());
}
