//! End-to-end tests of the jigsaw and killer sudoku models on janko.at's collections
//! (`../shared/data/variants/`), read by `--data` as the files are: `=== NAME` headers,
//! size lines, two grids of space-separated cells and a `--- solution` section.
//!
//! The files are read here by a parser of their own, which knows nothing of dlxc's
//! reader. Every record is solved for all its solutions; each solution is checked
//! against the rules independently of the model, the count against the one the file
//! states, and the published solution must be among them.

#[path = "common/cli.rs"]
mod cli;

use std::collections::{BTreeMap, BTreeSet};

use cli::{dlxc, shared_data};

/// One record of a janko file.
struct Janko {
    /// The id of its header (`93_9x9`).
    name: String,
    /// The number of solutions the header states under standard rules.
    counted: usize,
    /// The first grid: givens, or cage totals ('-' elsewhere).
    clues: Vec<Vec<String>>,
    /// The second grid: region or cage labels.
    labels: Vec<Vec<String>>,
    /// The published solution, when the source has one.
    solution: Option<Vec<String>>,
}

/// Reads a janko file: records start at `=== ID solutions_counted_here=N`, then a size
/// line `9 9`, 9 rows of clues and 9 rows of labels, then the solution section.
fn janko(path: &str) -> Vec<Janko> {
    let text = std::fs::read_to_string(shared_data(path))
        .unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let mut out = Vec::new();
    for chunk in text.split("\n=== ").skip(1) {
        let mut lines = chunk.lines();
        let header = lines.next().unwrap();
        let name = header.split(' ').next().unwrap().to_string();
        let counted = header
            .split("solutions_counted_here=")
            .nth(1)
            .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{name}: no count in {header:?}"));
        let body: Vec<&str> = lines.collect();
        let rows = |from: usize| -> Vec<Vec<String>> {
            body[from..from + 9]
                .iter()
                .map(|l| l.split(' ').map(str::to_string).collect())
                .collect()
        };
        // One size line, then the clue rows and the label rows.
        assert_eq!(body[0], "9 9", "{name}: size line");
        let (clues, labels) = (rows(1), rows(10));
        let solution = match body[19] {
            "--- solution" => {
                assert_eq!(body[20], "9 9", "{name}: size line of the solution");
                Some(rows(21).iter().map(|r| r.concat()).collect())
            }
            "--- solution missing in source" => None,
            other => panic!("{name}: unexpected {other:?}"),
        };
        out.push(Janko {
            name,
            counted,
            clues,
            labels,
            solution,
        });
    }
    out
}

/// Every solution of every record of `data` by `model`, by record name, from
/// `--all --json`; every record must be answered, in order.
fn solutions(model: &str, data: &str, records: &[Janko]) -> BTreeMap<String, Vec<Vec<String>>> {
    let path = shared_data(data);
    let r = dlxc(&[
        "run",
        model,
        "--data",
        path.to_str().unwrap(),
        "--all",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr, "");
    let mut out: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    let mut summaries = Vec::new();
    for line in r.stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let name = v["name"]
            .as_str()
            .expect("every record has its name")
            .to_string();
        if v["type"] == "summary" {
            assert_eq!(v["complete"], true, "{name}");
            summaries.push(name);
            continue;
        }
        let grid = v["grid"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row.as_str().unwrap().to_string())
            .collect();
        out.entry(name).or_default().push(grid);
    }
    let names: Vec<&str> = records.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(summaries, names, "one summary per record, in order");
    out
}

/// Every (row, column) of a 9x9 grid.
fn every_cell() -> impl Iterator<Item = (usize, usize)> {
    (0..9).flat_map(|r| (0..9).map(move |c| (r, c)))
}

/// The digits of a solution grid.
fn digits(grid: &[String]) -> Vec<Vec<u32>> {
    grid.iter()
        .map(|row| row.chars().map(|c| c.to_digit(10).unwrap()).collect())
        .collect()
}

/// Checks that every row, every column and every group of cells (cells with the same
/// label) of `grid` holds 1..=9 once.
fn assert_groups(name: &str, grid: &[Vec<u32>], labels: &[Vec<String>]) {
    let all: BTreeSet<u32> = (1..=9).collect();
    assert_eq!(grid.len(), 9, "{name}");
    for (i, row) in grid.iter().enumerate() {
        assert_eq!(
            row.iter().copied().collect::<BTreeSet<_>>(),
            all,
            "{name}: row {i}"
        );
        let col: BTreeSet<u32> = (0..9).map(|r| grid[r][i]).collect();
        assert_eq!(col, all, "{name}: column {i}");
    }
    let mut groups: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    for (r, c) in every_cell() {
        groups.entry(&labels[r][c]).or_default().push(grid[r][c]);
    }
    for (label, ds) in groups {
        let set: BTreeSet<u32> = ds.iter().copied().collect();
        assert_eq!((ds.len(), set), (9, all.clone()), "{name}: group {label}");
    }
}

#[test]
fn jigsaw_solves_every_janko_record_to_its_published_solution() {
    let records = janko("variants/janko_jigsaw_9x9.txt");
    assert_eq!(records.len(), 128);
    let got = solutions(
        "examples/jigsaw.dlx",
        "variants/janko_jigsaw_9x9.txt",
        &records,
    );
    let mut published = 0;
    for j in &records {
        let sols = &got[&j.name];
        assert_eq!((j.counted, sols.len()), (1, 1), "{}", j.name);
        let grid = digits(&sols[0]);
        assert_groups(&j.name, &grid, &j.labels);
        for (r, c) in every_cell() {
            if j.clues[r][c] != "-" {
                assert_eq!(j.clues[r][c], grid[r][c].to_string(), "{}: given", j.name);
            }
        }
        if let Some(s) = &j.solution {
            assert_eq!(&sols[0], s, "{}", j.name);
            published += 1;
        }
    }
    assert_eq!(published, 127, "669 alone has no published solution");
}

#[test]
fn killer_solves_every_janko_record_to_its_published_solution() {
    let records = janko("variants/janko_killer_9x9.txt");
    assert_eq!(records.len(), 155);
    let got = solutions(
        "examples/killer_janko.dlx",
        "variants/janko_killer_9x9.txt",
        &records,
    );
    let mut published = 0;
    for j in &records {
        let sols = &got[&j.name];
        // 196, 197 and 198 are diagonal killers: two solutions under standard rules.
        assert_eq!(sols.len(), j.counted, "{}", j.name);
        for sol in sols {
            let grid = digits(sol);
            let boxes: Vec<Vec<String>> = (0..9)
                .map(|r| (0..9).map(|c| (r / 3 * 3 + c / 3).to_string()).collect())
                .collect();
            assert_groups(&j.name, &grid, &boxes);
            // Cages: the total written in one cell, no digit twice.
            let mut cages: BTreeMap<&str, (Vec<u32>, Option<u32>)> = BTreeMap::new();
            for (r, c) in every_cell() {
                let cage = cages.entry(&j.labels[r][c]).or_default();
                cage.0.push(grid[r][c]);
                if j.clues[r][c] != "-" {
                    assert!(cage.1.is_none(), "{}: two totals", j.name);
                    cage.1 = Some(j.clues[r][c].parse().unwrap());
                }
            }
            for (label, (ds, total)) in cages {
                let set: BTreeSet<u32> = ds.iter().copied().collect();
                assert_eq!(set.len(), ds.len(), "{}: cage {label} repeats", j.name);
                assert_eq!(Some(ds.iter().sum()), total, "{}: cage {label}", j.name);
            }
        }
        if let Some(s) = &j.solution {
            assert!(sols.contains(s), "{}: published solution not found", j.name);
            published += 1;
        }
    }
    assert_eq!(
        published, 151,
        "143, 147, 171 and 176 have no published solution"
    );
}

#[test]
fn default_instances_are_the_first_records() {
    // The models' defaults are written as the records are, size lines included.
    for (model, first) in [
        ("examples/jigsaw.dlx", "variants/janko_jigsaw_9x9.txt"),
        ("examples/killer_janko.dlx", "variants/janko_killer_9x9.txt"),
    ] {
        let r = dlxc(&["run", model, "--all"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let grid: Vec<String> = r.stdout.lines().map(str::to_string).collect();
        let j = janko(first).remove(0);
        assert_eq!(Some(grid), j.solution, "{model}");
    }
}
