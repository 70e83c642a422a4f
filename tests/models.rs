//! End-to-end tests of the shipped models through the `dlxc` binary.
//!
//! Every answer is checked by code that knows nothing of the model: sudoku grids are
//! validated as sudoku grids and compared with published or independently derived
//! solutions; counts are compared with published values.

#[path = "common/cli.rs"]
mod cli;

use cli::{dlxc, grids, shared_data, temp_file};

/// Non-comment, non-blank lines of a data file.
fn data_lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(shared_data(path))
        .unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// Checks that `grid` (row strings) is a valid sudoku over `alphabet` with boxes of
/// side `n`, and that it agrees with every clue of `puzzle` (one line, row-major).
fn assert_valid_sudoku(grid: &[String], puzzle: &str, alphabet: &str, n: usize) {
    let size = n * n;
    assert_eq!(grid.len(), size, "grid has {} rows: {grid:?}", grid.len());
    let cells: Vec<Vec<char>> = grid.iter().map(|r| r.chars().collect()).collect();
    let symbols: std::collections::BTreeSet<char> = alphabet.chars().collect();
    let sorted = |v: Vec<char>| v.into_iter().collect::<std::collections::BTreeSet<char>>();
    for i in 0..size {
        assert_eq!(cells[i].len(), size);
        assert_eq!(sorted(cells[i].clone()), symbols, "row {i} of {grid:?}");
        assert_eq!(
            sorted((0..size).map(|r| cells[r][i]).collect()),
            symbols,
            "column {i}"
        );
        let (br, bc) = (i / n * n, i % n * n);
        let bx = (0..size).map(|k| cells[br + k / n][bc + k % n]).collect();
        assert_eq!(sorted(bx), symbols, "box {i}");
    }
    for (k, ch) in puzzle.chars().enumerate() {
        if symbols.contains(&ch) {
            assert_eq!(cells[k / size][k % size], ch, "clue at {k} of {puzzle}");
        }
    }
}

#[test]
fn sudoku_default_instance_runs_with_no_flags() {
    let r = dlxc(&["run", "examples/sudoku.dlx"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let puzzle =
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
    let solution =
        "953168742862734951417952836746893125281645397395271468138529674574386219629417583";
    let grid: Vec<String> = r.stdout.lines().map(str::to_string).collect();
    assert_valid_sudoku(&grid, puzzle, "123456789", 3);
    assert_eq!(grid.concat(), solution);
}

/// Runs the sudoku model on the first `take` puzzles of a shared set and checks every
/// grid it prints: a valid sudoku that keeps its clues and equals the known solution.
fn check_sudoku_set(
    puzzles: &str,
    solutions: &str,
    take: usize,
    params: &[&str],
    alphabet: &str,
    n: usize,
) {
    let puzzles = data_lines(puzzles);
    let solutions = data_lines(solutions);
    let take = take.min(puzzles.len());
    let file = temp_file("set.txt", &puzzles[..take].join("\n"));
    let mut args = vec!["run", "examples/sudoku.dlx"];
    args.extend_from_slice(params);
    args.extend(["--data", file.to_str().unwrap()]);
    let r = dlxc(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = grids(&r.stdout);
    assert_eq!(out.len(), take);
    for (k, grid) in out.iter().enumerate() {
        assert_valid_sudoku(grid, &puzzles[k], alphabet, n);
        assert_eq!(grid.concat(), solutions[k], "puzzle {k}");
    }
}

#[test]
fn sudoku_17_clue_puzzles_match_their_known_solutions() {
    check_sudoku_set(
        "sudoku9/puzzles2_17_clue.txt",
        "sudoku9/derived/puzzles2_17_clue.solutions.txt",
        500,
        &[],
        "123456789",
        3,
    );
}

#[test]
fn sudoku_hardest_puzzles_match_their_known_solutions() {
    let puzzles = data_lines("sudoku9/puzzles6_forum_hardest_1106.txt");
    let solutions = data_lines("sudoku9/derived/puzzles6_forum_hardest_1106.solutions.txt");
    let file = temp_file("hardest.txt", &puzzles.join("\n"));
    let r = dlxc(&[
        "run",
        "examples/sudoku.dlx",
        "--data",
        file.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut k = 0;
    for line in r.stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v.get("type").is_some() {
            assert_eq!(v["solutions"], 1);
            assert_eq!(v["complete"], true);
            continue;
        }
        assert_eq!(v["record"], k);
        let grid: Vec<String> = v["grid"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        assert_valid_sudoku(&grid, &puzzles[k], "123456789", 3);
        assert_eq!(grid.concat(), solutions[k]);
        assert_eq!(v["options"].as_array().unwrap().len(), 81);
        k += 1;
    }
    assert_eq!(k, puzzles.len());
}

#[test]
fn sudoku_counts_match_tdoku_published_answers() {
    // `puzzle:count` or `puzzle:1:solution`; counts 0, 1, or several.
    for line in data_lines("sudoku9/tdoku_test_puzzles.txt") {
        let mut parts = line.split(':');
        let puzzle = parts.next().unwrap();
        let count: u64 = parts.next().unwrap().parse().unwrap();
        let file = temp_file("tdoku.txt", puzzle);
        let r = dlxc(&[
            "run",
            "examples/sudoku.dlx",
            "--data",
            file.to_str().unwrap(),
            "--count",
        ]);
        let expected_code = if count == 0 { 1 } else { 0 };
        assert_eq!(r.code, expected_code, "{puzzle}: {}", r.stderr);
        assert_eq!(r.stdout.trim(), count.to_string(), "{puzzle}");
        if let Some(solution) = parts.next() {
            let r = dlxc(&[
                "run",
                "examples/sudoku.dlx",
                "--data",
                file.to_str().unwrap(),
            ]);
            let grid: Vec<String> = r
                .stdout
                .lines()
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect();
            assert_eq!(grid.concat(), solution);
        }
    }
}

#[test]
fn sudoku_16x16_spoj_sample_in_both_layouts() {
    let solution = data_lines("sudoku16/spoj_SUDOKU_sample.solution.txt").concat();
    let puzzle = data_lines("sudoku16/spoj_SUDOKU_sample.txt").concat();
    let alphabet = "ABCDEFGHIJKLMNOP";
    for data in [
        "examples/data/sudoku16-spoj.txt".to_string(),
        shared_data("sudoku16/spoj_SUDOKU_sample.txt")
            .display()
            .to_string(),
    ] {
        let r = dlxc(&[
            "run",
            "examples/sudoku.dlx",
            "-p",
            "n=4",
            "-p",
            "alphabet=ABCDEFGHIJKLMNOP",
            "--data",
            &data,
        ]);
        assert_eq!(r.code, 0, "{data}: {}", r.stderr);
        let grid: Vec<String> = r
            .stdout
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect();
        assert_valid_sudoku(&grid, &puzzle, alphabet, 4);
        assert_eq!(grid.concat(), solution.replace(char::is_whitespace, ""));
    }
}

#[test]
fn sudoku_16x16_janko_puzzles_match_published_solutions() {
    check_sudoku_set(
        "sudoku16/janko_16x16_puzzlesolver.txt",
        "sudoku16/janko_16x16_puzzlesolver.solutions.txt",
        10,
        &["-p", "n=4", "-p", "alphabet=123456789ABCDEFG"],
        "123456789ABCDEFG",
        4,
    );
}

#[test]
fn queens_counts_match_oeis() {
    for (n, count) in [
        (1, 1),
        (2, 0),
        (3, 0),
        (4, 2),
        (5, 10),
        (6, 4),
        (8, 92),
        (12, 14200),
    ] {
        let r = dlxc(&[
            "run",
            "examples/queens.dlx",
            "-p",
            &format!("n={n}"),
            "--count",
        ]);
        assert_eq!(r.stdout.trim(), count.to_string(), "n = {n}: {}", r.stderr);
        assert_eq!(r.code, if count == 0 { 1 } else { 0 });
    }
}

#[test]
fn langford_counts_match_oeis() {
    for (n, raw) in [(3, 2), (4, 2), (5, 0), (7, 52), (8, 300)] {
        let r = dlxc(&[
            "run",
            "examples/langford.dlx",
            "-p",
            &format!("n={n}"),
            "--count",
        ]);
        assert_eq!(r.stdout.trim(), raw.to_string(), "n = {n}: {}", r.stderr);
    }
    let r = dlxc(&["run", "examples/langford.dlx", "--all"]);
    let mut seqs: Vec<&str> = r.stdout.split_whitespace().collect();
    seqs.sort_unstable();
    assert_eq!(seqs, ["23421314", "41312432"]);
}

#[test]
fn exact_cover_paper_example_has_one_solution() {
    let r = dlxc(&["run", "examples/exact-cover.dlx", "--all"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut rows: Vec<&str> = r.stdout.lines().collect();
    rows.sort_unstable();
    assert_eq!(rows, ["row[0]", "row[3]", "row[4]"]);
}

#[test]
fn every_shipped_model_checks_clean() {
    for entry in std::fs::read_dir("examples").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "dlx") {
            let r = dlxc(&["check", path.to_str().unwrap()]);
            assert_eq!(r.code, 0, "{}: {}", path.display(), r.stderr);
            assert_eq!(r.stderr, "", "{}", path.display());
        }
    }
}

#[test]
fn compiled_knuth_format_solves_to_the_same_counts() {
    for (model, params, count) in [
        ("examples/queens.dlx", vec!["-p", "n=8"], "92"),
        ("examples/langford.dlx", vec!["-p", "n=7"], "52"),
        ("examples/exact-cover.dlx", vec![], "1"),
        (
            "examples/pentomino.dlx",
            vec!["-p", "rows=3", "-p", "cols=20"],
            "8",
        ),
    ] {
        let mut args = vec!["compile", model, "--emit", "knuth"];
        args.extend(&params);
        let compiled = dlxc(&args);
        assert_eq!(compiled.code, 0, "{model}: {}", compiled.stderr);
        let file = temp_file("compiled.dlx1", &compiled.stdout);
        let solved = dlxc(&["solve", file.to_str().unwrap(), "--count"]);
        assert_eq!(solved.stdout.trim(), count, "{model}: {}", solved.stderr);
        let mut run = vec!["run", model, "--count"];
        run.extend(&params);
        assert_eq!(dlxc(&run).stdout.trim(), count, "{model}");
    }
}

#[test]
fn compile_emits_json_with_items_options_and_forced() {
    let r = dlxc(&["compile", "examples/sudoku.dlx", "--emit", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["items"].as_array().unwrap().len(), 324);
    assert_eq!(v["options"].as_array().unwrap().len(), 729);
    assert_eq!(v["forced"].as_array().unwrap().len(), 17);
    assert_eq!(v["symmetries"], serde_json::json!([]));
}

#[test]
fn compile_emits_the_declared_symmetries_as_item_permutations() {
    let r = dlxc(&["compile", "examples/pentomino.dlx", "--emit", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let names: Vec<&str> = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    let group = v["symmetries"].as_array().unwrap();
    // The 6x10 rectangle: identity, two mirrors and the half turn.
    assert_eq!(group.len(), 4);
    let perms: Vec<Vec<usize>> = group
        .iter()
        .map(|g| {
            g.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as usize)
                .collect()
        })
        .collect();
    assert!(
        perms[0].iter().enumerate().all(|(i, &j)| i == j),
        "identity first"
    );
    let at = |n: &str| names.iter().position(|x| *x == n).unwrap();
    for p in &perms {
        let mut sorted = p.clone();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            (0..names.len()).collect::<Vec<_>>(),
            "a permutation"
        );
        // Pieces stay themselves; the corner cell goes to a corner.
        assert_eq!(p[at("piece[F]")], at("piece[F]"));
        let corner = names[p[at("cell[0,0]")]];
        assert!(
            ["cell[0,0]", "cell[0,9]", "cell[5,0]", "cell[5,9]"].contains(&corner),
            "{corner}"
        );
    }
}

#[test]
fn limits_cut_the_search_short_and_say_so() {
    let r = dlxc(&[
        "run",
        "examples/queens.dlx",
        "-p",
        "n=12",
        "--count",
        "--node-limit",
        "1000",
    ]);
    assert_eq!(
        r.code, 3,
        "solutions were found before the limit, but the count is incomplete: {}",
        r.stderr
    );
    assert!(r.stdout.trim().ends_with('+'), "{}", r.stdout);
    assert!(
        r.stderr
            .contains("search cut short (node limit reached) after 1000 nodes"),
        "{}",
        r.stderr
    );
    let r = dlxc(&[
        "run",
        "examples/queens.dlx",
        "-p",
        "n=12",
        "--node-limit",
        "5",
    ]);
    assert_eq!(r.code, 3, "no solution before the limit: {}", r.stderr);
    assert_eq!(r.stdout, "");
    let r = dlxc(&[
        "run",
        "examples/queens.dlx",
        "-p",
        "n=12",
        "--json",
        "--node-limit",
        "1000",
        "--all",
    ]);
    let last = r.stdout.lines().last().unwrap();
    let v: serde_json::Value = serde_json::from_str(last).unwrap();
    assert_eq!(v["complete"], false);
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_dlxc"))
        .args(["run", "examples/queens.dlx", "-p", "n=10", "--all"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The fewest pluses (a cell and its on-board neighbours) that cover every cell of an
/// n x n board at least twice, by brute force over every set of pluses in order of size.
fn least_double_cover(n: usize) -> usize {
    let plus = |r: usize, c: usize| -> Vec<usize> {
        let mut cells = vec![r * n + c];
        if r > 0 {
            cells.push((r - 1) * n + c);
        }
        if r + 1 < n {
            cells.push((r + 1) * n + c);
        }
        if c > 0 {
            cells.push(r * n + c - 1);
        }
        if c + 1 < n {
            cells.push(r * n + c + 1);
        }
        cells
    };
    let pluses: Vec<Vec<usize>> = (0..n * n).map(|k| plus(k / n, k % n)).collect();
    (0u32..1 << (n * n))
        .filter(|set| {
            let mut times = vec![0; n * n];
            for (k, p) in pluses.iter().enumerate() {
                if set >> k & 1 == 1 {
                    p.iter().for_each(|&x| times[x] += 1);
                }
            }
            times.iter().all(|&t| t >= 2)
        })
        .map(|set| set.count_ones() as usize)
        .min()
        .expect("every plus taken covers each cell twice")
}

/// `examples/double-cover.dlx` (items `: 2..`, `minimize count`): the least covers of
/// brute force for n = 2..=4, and the same optimum on one thread and on two for n = 6.
#[test]
fn double_cover_by_pluses_matches_brute_force() {
    for n in 2..=4 {
        let r = dlxc(&["run", "examples/double-cover.dlx", "-p", &format!("n={n}")]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let want = format!("minimum count: {}", least_double_cover(n));
        assert_eq!(r.stdout.lines().next(), Some(want.as_str()), "n = {n}");
    }
    let first_line = |threads: &str| {
        let r = dlxc(&["run", "examples/double-cover.dlx", "--threads", threads]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout.lines().next().unwrap_or_default().to_string()
    };
    assert_eq!(first_line("1"), "minimum count: 18");
    assert_eq!(first_line("2"), "minimum count: 18");
}
