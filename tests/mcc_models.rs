//! The shipped models that need colors or multiplicities: crossword, star battle and
//! graph coloring, through the `dlxc` binary. Every answer is checked by code that
//! knows nothing of the model (the rules of the puzzle, written again here), and every
//! count against a brute force or a known value. Each model also goes through Knuth's
//! format: `dlxc compile --emit knuth`, then `dlxc solve`, gives the same count.

#[path = "common/cli.rs"]
mod cli;

use std::collections::{BTreeSet, HashMap};

use cli::{dlxc, temp_file};

/// The solutions printed by `dlxc run --all` (painted grids separated by blank lines).
fn grids(stdout: &str) -> Vec<Vec<String>> {
    stdout
        .split("\n\n")
        .map(|g| g.lines().map(str::to_string).collect::<Vec<_>>())
        .filter(|g| !g.is_empty())
        .collect()
}

/// The lines of a `"""` block that follows `param NAME` in a model, unindented.
fn default_grid(model: &str, name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(model).unwrap();
    let start = text.find(&format!("param {name}")).unwrap();
    let body = &text[start..];
    let open = body.find("\"\"\"").unwrap() + 3;
    let close = open + body[open..].find("\"\"\"").unwrap();
    body[open..close]
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// The strings of the list that follows `param NAME =` in a model.
fn default_strings(model: &str, name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(model).unwrap();
    let start = text.find(&format!("param {name} = [")).unwrap();
    let body = &text[start..];
    let list = &body[..body.find(']').unwrap()];
    list.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

fn count(args: &[&str]) -> u64 {
    let mut a = vec!["run"];
    a.extend_from_slice(args);
    a.push("--count");
    let r = dlxc(&a);
    r.stdout
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("{args:?}: {}{}", r.stdout, r.stderr))
}

/// `dlxc compile --emit knuth` then `dlxc solve --count` gives `want`.
fn knuth_round_trip(args: &[&str], want: u64) {
    let mut a = vec!["compile"];
    a.extend_from_slice(args);
    a.extend(["--emit", "knuth"]);
    let r = dlxc(&a);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let path = temp_file("model.txt", &r.stdout);
    let s = dlxc(&["solve", "--count", path.to_str().unwrap()]);
    assert_eq!(s.stdout.trim(), want.to_string(), "{}", s.stderr);
}

// ---------------------------------------------------------------- crossword

/// The slots of a grid (`.` open): maximal runs of two or more open cells.
fn slots(grid: &[String]) -> Vec<Vec<(usize, usize)>> {
    let cells: Vec<Vec<char>> = grid.iter().map(|r| r.chars().collect()).collect();
    let open = |r: isize, c: isize| {
        r >= 0
            && c >= 0
            && (r as usize) < cells.len()
            && (c as usize) < cells[r as usize].len()
            && cells[r as usize][c as usize] == '.'
    };
    let mut out = Vec::new();
    for (dr, dc) in [(0isize, 1isize), (1, 0)] {
        for r in 0..cells.len() as isize {
            for c in 0..cells[r as usize].len() as isize {
                if !open(r, c) || open(r - dr, c - dc) {
                    continue;
                }
                let mut run = Vec::new();
                let (mut a, mut b) = (r, c);
                while open(a, b) {
                    run.push((a as usize, b as usize));
                    a += dr;
                    b += dc;
                }
                if run.len() >= 2 {
                    out.push(run);
                }
            }
        }
    }
    out
}

/// Checks a filled grid: every slot holds a word of the list, no word twice, blocks
/// kept.
fn assert_valid_fill(grid: &[String], fill: &[String], words: &[String]) {
    let f: Vec<Vec<char>> = fill.iter().map(|r| r.chars().collect()).collect();
    assert_eq!(f.len(), grid.len(), "{fill:?}");
    let mut used = BTreeSet::new();
    for slot in slots(grid) {
        let w: String = slot.iter().map(|&(r, c)| f[r][c]).collect();
        assert!(words.contains(&w), "`{w}` is not a word: {fill:?}");
        assert!(used.insert(w.clone()), "`{w}` used twice: {fill:?}");
    }
    for (r, row) in grid.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            assert_eq!(ch == '.', f[r][c].is_ascii_lowercase(), "{fill:?}");
        }
    }
}

/// Number of fills, by backtracking over the slots in order.
fn count_fills(grid: &[String], words: &[String]) -> u64 {
    fn go(
        k: usize,
        slots: &[Vec<(usize, usize)>],
        words: &[String],
        at: &mut HashMap<(usize, usize), char>,
        used: &mut BTreeSet<String>,
    ) -> u64 {
        if k == slots.len() {
            return 1;
        }
        let mut total = 0;
        for w in words {
            if w.len() != slots[k].len() || used.contains(w) {
                continue;
            }
            let fits = slots[k]
                .iter()
                .zip(w.chars())
                .all(|(p, ch)| at.get(p).is_none_or(|&x| x == ch));
            if !fits {
                continue;
            }
            let mut placed = Vec::new();
            for (p, ch) in slots[k].iter().zip(w.chars()) {
                if at.insert(*p, ch).is_none() {
                    placed.push(*p);
                }
            }
            used.insert(w.clone());
            total += go(k + 1, slots, words, at, used);
            used.remove(w);
            for p in placed {
                at.remove(&p);
            }
        }
        total
    }
    let words: Vec<String> = words
        .iter()
        .cloned()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    // Across and down slots interleaved, by their first cell, so that crossing letters
    // prune early.
    let mut slots = slots(grid);
    slots.sort_by_key(|s| (s[0].0 + s[0].1, s[0]));
    go(0, &slots, &words, &mut HashMap::new(), &mut BTreeSet::new())
}

#[test]
fn crossword_default_grid() {
    let model = "examples/crossword.dlx";
    let grid: Vec<String> = default_grid(model, "board")
        .iter()
        .map(|r| r.replace(|c: char| c != '.', "#"))
        .collect();
    let words = default_strings(model, "words");
    let r = dlxc(&["run", model]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let fills = grids(&r.stdout);
    assert_eq!(fills.len(), 1);
    assert_valid_fill(&grid, &fills[0], &words);
    let want = count_fills(&grid, &words);
    assert_eq!(want, 4);
    assert_eq!(count(&[model]), want);
    let all = dlxc(&["run", model, "--all"]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    let fills = grids(&all.stdout);
    for fill in &fills {
        assert_valid_fill(&grid, fill, &words);
    }
    // Every fill, each once.
    assert_eq!(fills.len() as u64, want, "{}", all.stdout);
    assert_eq!(fills.iter().collect::<BTreeSet<_>>().len(), fills.len());
    knuth_round_trip(&[model], want);
}

#[test]
fn crossword_with_blocks_from_data() {
    let model = "examples/crossword.dlx";
    let grid: Vec<String> = ["*...", "....", "....", "...*"].map(String::from).to_vec();
    let data = temp_file("grid.txt", &(grid.join("\n") + "\n"));
    let words: Vec<String> = [
        "off", "able", "road", "met", "arm", "oboe", "flat", "fed", "load", "let", "made", "bit",
        "dye", "tab", "rod", "ode", "bled", "mead", "lead", "dot",
    ]
    .map(String::from)
    .to_vec();
    let list = format!(
        "words=[{}]",
        words
            .iter()
            .map(|w| format!("\"{w}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let data = data.to_str().unwrap();
    let r = dlxc(&["run", model, "--data", data, "-p", &list, "--all"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let dotted: Vec<String> = grid.iter().map(|r| r.replace('*', "#")).collect();
    let fills: Vec<Vec<String>> = grids(&r.stdout)
        .into_iter()
        .map(|g| g.iter().map(|r| r.replace('*', "#")).collect())
        .collect();
    for fill in &fills {
        assert_valid_fill(
            &dotted
                .iter()
                .map(|r| r.replace('#', "*"))
                .collect::<Vec<_>>(),
            fill,
            &words,
        );
    }
    assert_eq!(fills.len() as u64, count_fills(&grid, &words));
    assert_eq!(fills.len(), 2);
}

// ---------------------------------------------------------------- star battle

/// Checks a star battle solution: `k` stars (`*`) in every row, column and region, no
/// two touching; the other cells show the region letters.
fn assert_valid_stars(regions: &[String], shown: &[String], k: usize) {
    let n = regions.len();
    let reg: Vec<Vec<char>> = regions.iter().map(|r| r.chars().collect()).collect();
    let s: Vec<Vec<char>> = shown.iter().map(|r| r.chars().collect()).collect();
    assert_eq!(s.len(), n, "{shown:?}");
    let stars: Vec<(usize, usize)> = (0..n)
        .flat_map(|r| (0..n).map(move |c| (r, c)))
        .filter(|&(r, c)| s[r][c] == '*')
        .collect();
    for &(r, c) in &stars {
        for &(a, b) in &stars {
            if (r, c) != (a, b) {
                assert!(
                    r.abs_diff(a) > 1 || c.abs_diff(b) > 1,
                    "stars touch: {shown:?}"
                );
            }
        }
    }
    for i in 0..n {
        assert_eq!(
            stars.iter().filter(|s| s.0 == i).count(),
            k,
            "row {i}: {shown:?}"
        );
        assert_eq!(
            stars.iter().filter(|s| s.1 == i).count(),
            k,
            "column {i}: {shown:?}"
        );
    }
    let letters: BTreeSet<char> = reg.iter().flatten().copied().collect();
    for g in letters {
        let in_g = stars.iter().filter(|&&(r, c)| reg[r][c] == g).count();
        assert_eq!(in_g, k, "region {g}: {shown:?}");
    }
    for r in 0..n {
        for c in 0..n {
            if s[r][c] != '*' {
                assert_eq!(s[r][c], reg[r][c]);
            }
        }
    }
}

/// Number of star battle solutions, row by row.
fn count_stars(regions: &[String], k: usize) -> u64 {
    let n = regions.len();
    let reg: Vec<Vec<char>> = regions.iter().map(|r| r.chars().collect()).collect();
    fn go(
        r: usize,
        n: usize,
        k: usize,
        reg: &[Vec<char>],
        prev: &[usize],
        cols: &mut Vec<usize>,
        regs: &mut HashMap<char, usize>,
    ) -> u64 {
        if r == n {
            return u64::from(cols.iter().all(|&x| x == k) && regs.values().all(|&x| x == k));
        }
        let mut total = 0;
        // Every set of k columns of this row, as a bit mask.
        for mask in 0u32..(1 << n) {
            if mask.count_ones() as usize != k || mask & (mask >> 1) != 0 {
                continue;
            }
            let row: Vec<usize> = (0..n).filter(|c| mask & (1 << c) != 0).collect();
            if row
                .iter()
                .any(|&c| prev.iter().any(|&p| p.abs_diff(c) <= 1))
            {
                continue;
            }
            if row.iter().any(|&c| cols[c] == k) {
                continue;
            }
            for &c in &row {
                cols[c] += 1;
                *regs.entry(reg[r][c]).or_default() += 1;
            }
            if regs.values().all(|&x| x <= k) {
                total += go(r + 1, n, k, reg, &row, cols, regs);
            }
            for &c in &row {
                cols[c] -= 1;
                *regs.get_mut(&reg[r][c]).unwrap() -= 1;
            }
        }
        total
    }
    go(0, n, k, &reg, &[], &mut vec![0; n], &mut HashMap::new())
}

#[test]
fn star_battle_default_puzzle() {
    let model = "examples/star-battle.dlx";
    let regions = default_grid(model, "regions");
    let r = dlxc(&["run", model]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let sols = grids(&r.stdout);
    assert_eq!(sols.len(), 1);
    assert_valid_stars(&regions, &sols[0], 2);
    assert_eq!(count_stars(&regions, 2), 1);
    assert_eq!(count(&[model]), 1);
    knuth_round_trip(&[model], 1);
}

#[test]
fn star_battle_one_star_from_data() {
    let model = "examples/star-battle.dlx";
    let regions: Vec<String> = ["AABBB", "AABCC", "DDBCC", "DDECC", "DEEEE"]
        .map(String::from)
        .to_vec();
    let data = temp_file("stars.txt", &(regions.join("\n") + "\n"));
    let r = dlxc(&[
        "run",
        model,
        "-p",
        "k=1",
        "--data",
        data.to_str().unwrap(),
        "--all",
    ]);
    let sols = grids(&r.stdout);
    for s in &sols {
        assert_valid_stars(&regions, s, 1);
    }
    assert_eq!(sols.len() as u64, count_stars(&regions, 1), "{}", r.stderr);
    assert!(!sols.is_empty());
}

// ---------------------------------------------------------------- graph coloring

const PETERSEN: [(usize, usize); 15] = [
    (0, 1),
    (1, 2),
    (2, 3),
    (3, 4),
    (4, 0),
    (5, 7),
    (7, 9),
    (9, 6),
    (6, 8),
    (8, 5),
    (0, 5),
    (1, 6),
    (2, 7),
    (3, 8),
    (4, 9),
];

/// Proper colorings of the Petersen graph with `k` colors, by brute force.
fn petersen_colorings(k: usize) -> u64 {
    let mut total = 0;
    let mut c = [0usize; 10];
    for code in 0..k.pow(10) {
        let mut x = code;
        for v in &mut c {
            *v = x % k;
            x /= k;
        }
        total += u64::from(PETERSEN.iter().all(|&(u, v)| c[u] != c[v]));
    }
    total
}

#[test]
fn graph_coloring_petersen() {
    let model = "examples/graph-coloring.dlx";
    let r = dlxc(&["run", model]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Lines `vertex color`, one per vertex.
    let color: HashMap<usize, String> = r
        .stdout
        .lines()
        .map(|l| {
            let mut w = l.split_whitespace();
            (
                w.next().unwrap().parse().unwrap(),
                w.next().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(color.len(), 10, "{}", r.stdout);
    for (u, v) in PETERSEN {
        assert_ne!(color[&u], color[&v], "edge {u}-{v}: {}", r.stdout);
    }
    assert!(
        color
            .values()
            .all(|c| ["red", "green", "blue"].contains(&c.as_str()))
    );
    assert_eq!(petersen_colorings(3), 120);
    assert_eq!(count(&[model]), 120);
    assert_eq!(count(&[model, "-p", "colors=[\"red\", \"green\"]"]), 0);
    assert_eq!(
        count(&[model, "-p", "colors=[1, 2, 3, 4]"]),
        petersen_colorings(4)
    );
    knuth_round_trip(&[model], 120);
}

/// A model with more colors than Knuth's one-character names allow cannot be written
/// in his format, and `dlxc compile` says so.
#[test]
fn too_many_colors_for_knuth_format() {
    let model = temp_file(
        "colors.dlx",
        "item a[k] for k in 0..200\ncolored item c\noption o[k] for k in 0..200 covers a[k], c = k\n",
    );
    let r = dlxc(&["compile", model.to_str().unwrap(), "--emit", "knuth"]);
    assert_eq!(r.code, 2);
    // The message is a diagnostic now, wrapped at 80 columns: read it as one line.
    let flat = r
        .stderr
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(flat.contains("200 colors"), "{}", r.stderr);
    assert!(flat.contains("one character"), "{}", r.stderr);
}
