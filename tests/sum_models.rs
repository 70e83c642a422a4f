//! End-to-end tests of the shipped models with sum constraints, killer sudoku and
//! kakuro, through the `dlxc` binary.
//!
//! Each default instance is a published puzzle; its solution is checked against the
//! published one and, independently of the model, against the rules (every sum, no
//! digit twice), and the count proves it unique.

#[path = "common/cli.rs"]
mod cli;

use std::collections::BTreeSet;

use cli::dlxc;

/// Runs `model` with no flags for all its solutions: there must be one, `solution`,
/// and the count must say 1. The grid, for further checks.
fn unique_published_solution(model: &str, solution: &[&str]) -> Vec<String> {
    let r = dlxc(&["run", model, "--all"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr, "");
    let grid: Vec<String> = r.stdout.lines().map(str::to_string).collect();
    assert_eq!(grid, solution, "one solution, the published one");
    let count = dlxc(&["run", model, "--count"]);
    assert_eq!(count.stdout.trim(), "1");
    grid
}

/// The solution of Wikipedia's killer sudoku example (the default of the model).
const KILLER_SOLUTION: [&str; 9] = [
    "215647398",
    "368952174",
    "794381652",
    "586274931",
    "142593867",
    "973816425",
    "821739546",
    "659428713",
    "437165289",
];

#[test]
fn killer_sudoku_default_is_wikipedias_puzzle_and_unique() {
    let grid = unique_published_solution("examples/killer_sudoku.dlx", &KILLER_SOLUTION);
    let cells: Vec<Vec<u32>> = grid
        .iter()
        .map(|row| row.chars().map(|c| c.to_digit(10).unwrap()).collect())
        .collect();
    // Sudoku rules.
    let all: BTreeSet<u32> = (1..=9).collect();
    for i in 0..9 {
        assert_eq!(cells[i].iter().copied().collect::<BTreeSet<_>>(), all);
        assert_eq!((0..9).map(|r| cells[r][i]).collect::<BTreeSet<_>>(), all);
        let (br, bc) = (i / 3 * 3, i % 3 * 3);
        let bx: BTreeSet<u32> = (0..9).map(|k| cells[br + k / 3][bc + k % 3]).collect();
        assert_eq!(bx, all);
    }
    // Cage rules, read from the model's own default (letters and totals).
    let model = std::fs::read_to_string("examples/killer_sudoku.dlx").unwrap();
    let cages: Vec<&str> = model
        .lines()
        .map(str::trim)
        .filter(|l| l.len() == 9 && l.chars().all(|c| c.is_ascii_alphabetic()))
        .collect();
    assert_eq!(cages.len(), 9, "the cage grid of the model");
    let mut sums = std::collections::BTreeMap::<char, Vec<u32>>::new();
    for (r, row) in cages.iter().enumerate() {
        for (c, k) in row.chars().enumerate() {
            sums.entry(k).or_default().push(cells[r][c]);
        }
    }
    assert_eq!(sums.len(), 29);
    for (k, digits) in &sums {
        let distinct: BTreeSet<&u32> = digits.iter().collect();
        assert_eq!(distinct.len(), digits.len(), "cage {k} repeats a digit");
        let total = format!("\"{k}\": {},", digits.iter().sum::<u32>());
        let total_last = format!("\"{k}\": {}\n", digits.iter().sum::<u32>());
        assert!(
            model.contains(&total) || model.contains(&total_last),
            "cage {k} adds up to {}, not its total",
            digits.iter().sum::<u32>()
        );
    }
}

/// The solution of Wikipedia's kakuro example ("Kakuro black box"), as the model paints
/// it: `#` for black cells.
const KAKURO_SOLUTION: [&str; 8] = [
    "########", "#97##879", "#89#8957", "#68597##", "##61#26#", "###46132", "#8931#14", "#312##21",
];

#[test]
fn kakuro_default_is_wikipedias_puzzle_and_unique() {
    let grid = unique_published_solution("examples/kakuro.dlx", &KAKURO_SOLUTION);
    // Every run of white cells, across and down, has distinct digits; the sums are
    // those of the published clues, listed here independently of the model.
    let cells: Vec<Vec<char>> = grid.iter().map(|r| r.chars().collect()).collect();
    let mut across = Vec::new();
    let mut down = Vec::new();
    for r in 0..8 {
        for c in 0..8 {
            if cells[r][c] != '#' {
                continue;
            }
            let run = |dr: usize, dc: usize| -> Vec<u32> {
                (1..8)
                    .map(|i| (r + i * dr, c + i * dc))
                    .take_while(|&(y, x)| y < 8 && x < 8 && cells[y][x] != '#')
                    .map(|(y, x)| cells[y][x].to_digit(10).unwrap())
                    .collect()
            };
            for (digits, out) in [(run(0, 1), &mut across), (run(1, 0), &mut down)] {
                if digits.len() > 1 {
                    let distinct: BTreeSet<&u32> = digits.iter().collect();
                    assert_eq!(distinct.len(), digits.len(), "a run repeats a digit");
                    out.push(digits.iter().sum::<u32>());
                }
            }
        }
    }
    assert_eq!(across, [16, 24, 17, 29, 35, 7, 8, 16, 21, 5, 6, 3]);
    assert_eq!(down, [23, 30, 27, 12, 16, 17, 15, 12, 7, 7, 11, 10]);
}
