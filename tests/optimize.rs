//! The optimizing models (`matchsticks`, `setcover`, `target-sudoku`) through the `dlxc`
//! binary, against brute force written here from the problems' statements.
//!
//! Each test writes many cases into one data file and runs `dlxc run --json` once, so the
//! cost of starting a process is paid once per test.

#[path = "common/cli.rs"]
mod cli;

use cli::{dlxc, temp_file};
use serde_json::Value;

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

/// What `--json` printed for each record: (objective, optimal, solutions' options).
fn run_json(model: &str, data: &str, extra: &[&str]) -> Vec<(Option<i64>, bool, Vec<Vec<String>>)> {
    let path = temp_file("cases.txt", data);
    let path = path.display().to_string();
    let mut args = vec!["run", model, "--data", &path, "--json"];
    args.extend(extra);
    let r = dlxc(&args);
    assert!(r.code == 0 || r.code == 1, "exit {}: {}", r.code, r.stderr);
    let mut out: Vec<(Option<i64>, bool, Vec<Vec<String>>)> = Vec::new();
    let mut pending: Vec<Vec<String>> = Vec::new();
    for line in r.stdout.lines() {
        let v: Value = serde_json::from_str(line).expect("JSON line");
        if v["type"] == "summary" {
            assert_eq!(v["record"].as_u64(), Some(out.len() as u64));
            out.push((
                v["objective"].as_i64(),
                v["optimal"].as_bool().unwrap_or(false),
                std::mem::take(&mut pending),
            ));
        } else {
            let opts = v["options"].as_array().expect("options");
            pending.push(
                opts.iter()
                    .map(|o| o.as_str().unwrap_or_default().to_string())
                    .collect(),
            );
        }
    }
    out
}

/// The sticks (bit `m - 1` for stick `m`) of every square of an n x n grid, numbered as
/// in POJ 1084: a band of n horizontal sticks, then n+1 vertical ones.
fn squares(n: usize) -> Vec<u64> {
    let w = 2 * n + 1;
    let h = |r: usize, c: usize| 1u64 << (r * w + c);
    let v = |r: usize, c: usize| 1u64 << (r * w + n + c);
    let mut out = Vec::new();
    for s in 1..=n {
        for r in 0..=n - s {
            for c in 0..=n - s {
                let mut m = 0;
                for i in 0..s {
                    m |= h(r, c + i) | h(r + s, c + i) | v(r + i, c) | v(r + i, c + s);
                }
                out.push(m);
            }
        }
    }
    out
}

/// Fewest sticks to take (from `allowed`) so that every square in `alive` loses one: the
/// first unhit square must lose one of its sticks; try each, with a depth limit raised
/// one at a time (so the first success is the least).
fn fewest_sticks(alive: &[u64], allowed: u64) -> u32 {
    fn hit(alive: &[u64], allowed: u64, taken: u64, left: u32) -> bool {
        let Some(sq) = alive.iter().find(|&&s| s & taken == 0) else {
            return true;
        };
        if left == 0 {
            return false;
        }
        let mut choices = sq & allowed;
        while choices != 0 {
            let bit = choices & choices.wrapping_neg();
            choices ^= bit;
            if hit(alive, allowed, taken | bit, left - 1) {
                return true;
            }
        }
        false
    }
    (0..).find(|&k| hit(alive, allowed, 0, k)).unwrap_or(0)
}

fn stick_number(label: &str) -> u32 {
    label
        .strip_prefix("take[")
        .and_then(|s| s.strip_suffix(']'))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a take option: {label}"))
}

/// Random cases for grid sizes `sizes`, checked against [`fewest_sticks`]; also checks
/// that the listed sticks do destroy every square.
fn check_matchsticks(seed: u64, cases: usize, sizes: &[usize], missing_max: u64) {
    let mut rng = Rng(seed);
    let mut data = String::new();
    let mut want = Vec::new();
    for _ in 0..cases {
        let n = sizes[rng.below(sizes.len() as u64) as usize];
        let total = 2 * n * (n + 1);
        let k = rng.below(missing_max.min(total as u64) + 1);
        let mut missing = 0u64;
        for _ in 0..k {
            missing |= 1 << rng.below(total as u64);
        }
        let list: Vec<String> = (0..total)
            .filter(|m| missing >> m & 1 == 1)
            .map(|m| (m + 1).to_string())
            .collect();
        data.push_str(&format!("{n}\n{} {}\n\n", list.len(), list.join(" ")));
        let alive: Vec<u64> = squares(n)
            .into_iter()
            .filter(|s| s & missing == 0)
            .collect();
        want.push((fewest_sticks(&alive, !missing), alive));
    }
    let got = run_json("examples/matchsticks.dlx", &data, &[]);
    assert_eq!(got.len(), want.len());
    for (k, ((value, optimal, sols), (best, alive))) in got.iter().zip(&want).enumerate() {
        assert!(optimal, "case {k}");
        assert_eq!(*value, Some(i64::from(*best)), "case {k}");
        let taken: u64 = sols[0].iter().map(|l| 1u64 << (stick_number(l) - 1)).sum();
        assert_eq!(sols[0].len() as u32, *best, "case {k}");
        assert!(
            alive.iter().all(|s| s & taken != 0),
            "case {k}: a square is left"
        );
    }
}

#[test]
fn matchsticks_up_to_3_match_brute_force() {
    check_matchsticks(7, 400, &[1, 2, 3], 24);
}

#[test]
fn matchsticks_4_and_5_match_brute_force() {
    // Many sticks missing keeps the brute force quick; the intact grids have known
    // answers (OEIS A227116: 1, 3, 6, 9, 14).
    check_matchsticks(11, 40, &[4, 5], 60);
    let got = run_json(
        "examples/matchsticks.dlx",
        "1\n0\n\n2\n0\n\n3\n0\n\n4\n0\n\n5\n0\n",
        &[],
    );
    let values: Vec<Option<i64>> = got.iter().map(|g| g.0).collect();
    assert_eq!(values, [1, 3, 6, 9, 14].map(Some));
}

#[test]
fn matchsticks_sample_of_the_problem() {
    let r = dlxc(&[
        "run",
        "examples/matchsticks.dlx",
        "--data",
        "examples/data/matchsticks.txt",
        "--value",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.lines().take(2).collect::<Vec<_>>(), ["3", "3"]);
}

#[test]
fn setcover_matches_brute_force_and_lists_every_optimum() {
    let mut rng = Rng(3);
    let mut data = String::new();
    let mut want = Vec::new();
    for _ in 0..150 {
        let n = 1 + rng.below(10) as usize;
        let m = 1 + rng.below(8) as usize;
        let rows: Vec<u32> = (0..n)
            .map(|_| (0..m).map(|j| u32::from(rng.below(3) == 0) << j).sum())
            .collect();
        data.push_str(&format!("{n} {m}\n"));
        for r in &rows {
            let bits: Vec<String> = (0..m).map(|j| (r >> j & 1).to_string()).collect();
            data.push_str(&bits.join(" "));
            data.push('\n');
        }
        data.push('\n');
        let full = (1u32 << m) - 1;
        let covers = |s: u32| {
            (0..n)
                .filter(|i| s >> i & 1 == 1)
                .fold(0, |acc, i| acc | rows[i])
                == full
        };
        let best = (0u32..1 << n)
            .filter(|&s| covers(s))
            .map(u32::count_ones)
            .min();
        let optima: std::collections::BTreeSet<Vec<String>> = (0u32..1 << n)
            .filter(|&s| covers(s) && Some(s.count_ones()) == best)
            .map(|s| {
                (0..n)
                    .filter(|i| s >> i & 1 == 1)
                    .map(|i| format!("row[{}]", i + 1))
                    .collect()
            })
            .collect();
        want.push((best, optima));
    }
    let got = run_json("examples/setcover.dlx", &data, &["--all"]);
    assert_eq!(got.len(), want.len());
    for (k, ((value, _, sols), (best, optima))) in got.iter().zip(&want).enumerate() {
        assert_eq!(*value, best.map(i64::from), "case {k}");
        let mut listed: Vec<Vec<String>> = sols.clone();
        for s in &mut listed {
            s.sort();
        }
        let listed_set: std::collections::BTreeSet<Vec<String>> = listed.iter().cloned().collect();
        assert_eq!(listed.len(), listed_set.len(), "case {k}: a duplicate");
        // Row labels sort as strings ("row[10]" < "row[2]"); compare as sets of sets.
        let norm = |s: &std::collections::BTreeSet<Vec<String>>| {
            s.iter()
                .map(|v| v.iter().cloned().collect::<std::collections::BTreeSet<_>>())
                .collect::<std::collections::BTreeSet<_>>()
        };
        assert_eq!(norm(&listed_set), norm(optima), "case {k}");
    }
}

/// Every completion of a 9x9 sudoku (0 = empty), up to `cap`; `None` past the cap.
fn completions(grid: &mut [u8; 81], cap: usize, out: &mut Vec<[u8; 81]>) -> bool {
    let Some(at) = grid.iter().position(|&d| d == 0) else {
        // Clues are never checked on the way down: check the whole grid here.
        let ok = (0..9).all(|i| {
            let (mut row, mut col, mut bx) = (0u16, 0u16, 0u16);
            for k in 0..9 {
                row |= 1 << grid[i * 9 + k];
                col |= 1 << grid[k * 9 + i];
                bx |= 1 << grid[(i / 3 * 3 + k / 3) * 9 + i % 3 * 3 + k % 3];
            }
            row == 0x3fe && col == 0x3fe && bx == 0x3fe
        });
        if ok {
            out.push(*grid);
        }
        return out.len() <= cap;
    };
    let (r, c) = (at / 9, at % 9);
    for d in 1..=9u8 {
        let clash = (0..9).any(|k| {
            grid[r * 9 + k] == d
                || grid[k * 9 + c] == d
                || grid[(r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3] == d
        });
        if !clash {
            grid[at] = d;
            let more = completions(grid, cap, out);
            grid[at] = 0;
            if !more {
                return false;
            }
        }
    }
    true
}

fn score(grid: &[u8; 81]) -> i64 {
    (0..81)
        .map(|k| {
            let (r, c) = (k / 9, k % 9);
            let w = 6 + r.min(c).min(8 - r).min(8 - c);
            i64::from(grid[k]) * w as i64
        })
        .sum()
}

#[test]
fn target_sudoku_matches_full_enumeration() {
    let mut rng = Rng(5);
    let mut data = String::new();
    let mut want = Vec::new();
    while want.len() < 40 {
        // A solved grid: the classic pattern with shuffled digits.
        let mut perm: Vec<u8> = (1..=9).collect();
        for i in (1..9).rev() {
            perm.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut grid = [0u8; 81];
        for r in 0..9 {
            for c in 0..9 {
                grid[r * 9 + c] = perm[(r * 3 + r / 3 + c) % 9];
            }
        }
        let blanks = 30 + rng.below(25);
        for _ in 0..blanks {
            grid[rng.below(81) as usize] = 0;
        }
        if rng.below(6) == 0 {
            // A wrong clue often leaves no completion at all.
            let k = rng.below(81) as usize;
            grid[k] = 1 + rng.below(9) as u8;
        }
        let mut all = Vec::new();
        if !completions(&mut grid.clone(), 2000, &mut all) {
            continue;
        }
        let best = all.iter().map(score).max();
        for r in 0..9 {
            let row: Vec<String> = grid[r * 9..r * 9 + 9].iter().map(u8::to_string).collect();
            data.push_str(&row.join(" "));
            data.push('\n');
        }
        data.push('\n');
        want.push(best);
    }
    let path = temp_file("target.txt", &data);
    let path = path.display().to_string();
    let r = dlxc(&[
        "run",
        "examples/target-sudoku.dlx",
        "--data",
        &path,
        "--value",
        "--none=-1",
    ]);
    let got: Vec<i64> = r
        .stdout
        .lines()
        .map(|l| l.parse().expect("a number"))
        .collect();
    let want: Vec<i64> = want.iter().map(|b| b.unwrap_or(-1)).collect();
    assert_eq!(got, want, "{}", r.stderr);
    assert!(want.contains(&-1), "no unsolvable case was made");
}

#[test]
fn target_sudoku_samples_of_noip_2009() {
    let r = dlxc(&["run", "examples/target-sudoku.dlx", "--value"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "2829\n"), "{}", r.stderr);
}

/// The best score over every completion, by a plain backtracker with bit masks (the
/// most constrained cell first); `None` when there is no completion.
fn best_score(grid: &[u8; 81]) -> Option<i64> {
    fn go(
        g: &mut [u8; 81],
        rows: &mut [u16; 9],
        cols: &mut [u16; 9],
        boxes: &mut [u16; 9],
    ) -> Option<i64> {
        let mut pick: Option<(usize, u16)> = None;
        for (k, &d) in g.iter().enumerate() {
            if d == 0 {
                let (r, c) = (k / 9, k % 9);
                let free = !(rows[r] | cols[c] | boxes[r / 3 * 3 + c / 3]) & 0x3fe;
                if pick.is_none_or(|(_, f)| free.count_ones() < f.count_ones()) {
                    pick = Some((k, free));
                }
            }
        }
        let Some((k, free)) = pick else {
            return Some(score(g));
        };
        let (r, c) = (k / 9, k % 9);
        let b = r / 3 * 3 + c / 3;
        let mut best = None;
        for d in 1..=9u8 {
            let bit = 1u16 << d;
            if free & bit != 0 {
                g[k] = d;
                rows[r] |= bit;
                cols[c] |= bit;
                boxes[b] |= bit;
                best = best.max(go(g, rows, cols, boxes));
                rows[r] ^= bit;
                cols[c] ^= bit;
                boxes[b] ^= bit;
                g[k] = 0;
            }
        }
        best
    }
    let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    for (k, &d) in grid.iter().enumerate() {
        if d != 0 {
            let bit = 1u16 << d;
            let (r, c) = (k / 9, k % 9);
            let b = r / 3 * 3 + c / 3;
            if (rows[r] | cols[c] | boxes[b]) & bit != 0 {
                return None;
            }
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
    }
    go(&mut grid.clone(), &mut rows, &mut cols, &mut boxes)
}

#[test]
fn target_sudoku_data_file_matches_full_enumeration() {
    // The third record has 25 clues and 164,684 completions.
    let text = std::fs::read_to_string("examples/data/target-sudoku.txt").expect("data file");
    let mut want = Vec::new();
    for block in text.split("\n\n") {
        let digits: Vec<u8> = block
            .lines()
            .filter(|l| !l.starts_with('#'))
            .flat_map(|l| {
                l.split_whitespace()
                    .map(|w| w.parse::<u8>().expect("a digit"))
            })
            .collect();
        let grid: [u8; 81] = digits.try_into().expect("81 numbers");
        want.push(best_score(&grid).unwrap_or(-1).to_string());
    }
    let r = dlxc(&[
        "run",
        "examples/target-sudoku.dlx",
        "--data",
        "examples/data/target-sudoku.txt",
        "--value",
        "--none=-1",
    ]);
    assert_eq!(r.stdout.lines().collect::<Vec<_>>(), want, "{}", r.stderr);
    assert_eq!(want, ["2829", "2852", "2872", "-1"]);
}
