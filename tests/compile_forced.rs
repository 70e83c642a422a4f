//! `dlxc compile --emit knuth` of a model with forced options writes the problem left
//! after taking them, so that solving the compiled file counts what `dlxc run` counts.
//! Checked on the shipped sudoku with its clues, and on small models with forced
//! options drawn at random (plain, colored and multiplicity items, clashes included).

#[path = "common/cli.rs"]
mod cli;

use cli::{dlxc, temp_file};

/// `run --count` and `compile --emit knuth | solve --count` on `model` (a path), with
/// `args` for the model (`-p`, `--data`) and `search` for both searches. `Err` with
/// its stderr when compile refused.
fn both_counts(
    model: &str,
    args: &[&str],
    search: &[&str],
    name: &str,
) -> (String, Result<String, String>) {
    let mut run = vec!["run", model, "--count"];
    run.extend(args);
    run.extend(search);
    let ran = dlxc(&run);
    let mut compile = vec!["compile", model, "--emit", "knuth"];
    compile.extend(args);
    let compiled = dlxc(&compile);
    if compiled.code != 0 {
        return (ran.stdout.trim().to_string(), Err(compiled.stderr));
    }
    let file = temp_file(name, &compiled.stdout);
    let mut solve = vec!["solve", file.to_str().unwrap(), "--count"];
    solve.extend(search);
    let solved = dlxc(&solve);
    assert!(solved.code <= 1, "{model}: {}", solved.stderr);
    (
        ran.stdout.trim().to_string(),
        Ok(solved.stdout.trim().to_string()),
    )
}

#[test]
fn sudoku_with_clues_compiles_to_the_problem_left() {
    let (ran, solved) = both_counts("examples/sudoku.dlx", &[], &[], "sudoku-clues.dlx1");
    assert_eq!(ran, "1");
    assert_eq!(solved.unwrap(), "1");
    let compiled = dlxc(&["compile", "examples/sudoku.dlx", "--emit", "knuth"]);
    // 17 clues: 17 cells, and 17 values of a row, a column and a box taken.
    assert!(
        compiled.stdout.contains("256 items"),
        "{}",
        &compiled.stdout[..300.min(compiled.stdout.len())]
    );
    assert!(compiled.stdout.contains("|   put[8,5,7]"));
    // A puzzle with several solutions counts the same both ways.
    let loose = "1................................................................................";
    let data = temp_file("loose-sudoku.txt", &format!("{loose}\n"));
    let (ran, solved) = both_counts(
        "examples/sudoku.dlx",
        &["--data", data.to_str().unwrap()],
        &["--limit", "50"],
        "sudoku-loose.dlx1",
    );
    assert_eq!(ran, "50+");
    assert_eq!(solved.unwrap(), "50+");
}

/// A small deterministic generator, so every failure replays.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Small models with forced options at random: queens (secondary diagonals), a word
/// square (colored cells, words used at most once) and a multiplicity model. Whatever
/// the forced options, compiling and solving counts what running counts; forced
/// options that clash are refused by both with E0404.
#[test]
fn random_forced_options_count_the_same_compiled_or_run() {
    let mut rng = Lcg(13);
    let (mut agreed, mut clashed, mut solvable) = (0, 0, 0);
    for case in 0..24 {
        let text = match case % 3 {
            0 => {
                let n = 5 + rng.next(3);
                let forced: Vec<String> = (0..1 + rng.next(2))
                    .map(|_| format!("force queen[{}, {}]", rng.next(n), rng.next(n)))
                    .collect();
                format!(
                    "param n = {n}\n\
                     item rank[r] for r in 0..n\n\
                     item file[c] for c in 0..n\n\
                     secondary item diag[d] for d in 0..2 * n - 1\n\
                     secondary item anti[d] for d in 0..2 * n - 1\n\
                     option queen[r, c] for r in 0..n, c in 0..n\n\
                     \x20   covers rank[r], file[c], diag[r + c], anti[r - c + n - 1]\n{}\n",
                    forced.join("\n")
                )
            }
            1 => {
                let words = ["AB", "BA", "CD", "DC", "AC", "BD", "CA", "DB"];
                let forced: Vec<String> = (0..1 + rng.next(2))
                    .map(|_| {
                        let w = words[rng.next(words.len() as u64) as usize];
                        match rng.next(2) {
                            0 => format!("force row[{}, \"{w}\"]", rng.next(2)),
                            _ => format!("force col[{}, \"{w}\"]", rng.next(2)),
                        }
                    })
                    .collect();
                format!(
                    "let words = {words:?}\n\
                     item across[r] for r in 0..2\n\
                     item down[c] for c in 0..2\n\
                     item used[w] for w in words : 0..1\n\
                     colored item cell[r, c] for r in 0..2, c in 0..2\n\
                     option row[r, w] for r in 0..2, w in words\n\
                     \x20   covers across[r], used[w], cell[r, c] = w[c] for c in 0..2\n\
                     option col[c, w] for c in 0..2, w in words\n\
                     \x20   covers down[c], used[w], cell[r, c] = w[r] for r in 0..2\n{}\n",
                    forced.join("\n")
                )
            }
            _ => {
                let forced: Vec<String> = (0..1 + rng.next(3))
                    .map(|_| format!("force one[{}, {}]", rng.next(4), rng.next(4)))
                    .collect();
                format!(
                    "item row[r] for r in 0..4 : 2\n\
                     item col[c] for c in 0..4 : 1..2\n\
                     option one[r, c] for r in 0..4, c in 0..4 covers row[r], col[c]\n{}\n",
                    forced.join("\n")
                )
            }
        };
        let model = temp_file(&format!("forced-{case}.dlx"), &text);
        let (ran, solved) = both_counts(
            model.to_str().unwrap(),
            &[],
            &[],
            &format!("forced-{case}.dlx1"),
        );
        match solved {
            Ok(solved) => {
                assert_eq!(solved, ran, "case {case}:\n{text}");
                agreed += 1;
                solvable += usize::from(ran != "0");
            }
            Err(stderr) if stderr.contains("E0404") => {
                assert_eq!(
                    ran, "0",
                    "case {case}: run counted despite a clash:\n{text}"
                );
                clashed += 1;
            }
            Err(stderr) => panic!("case {case}: compile refused:\n{stderr}\n{text}"),
        }
    }
    assert!(
        agreed >= 12 && clashed >= 2 && solvable >= 6,
        "{agreed} agreed ({solvable} with solutions), {clashed} clashed"
    );
}
