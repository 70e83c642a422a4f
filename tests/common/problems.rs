//! Problem generators shared by the engine tests and the bench (`#[path]`-included).
//!
//! Everything is generated in code so that the matrices are easy to audit and to vary.

#![allow(dead_code)]

use dlxc::problem::{OptionId, Problem, ProblemBuilder};
use dlxc::solve::{Clash, Flow, Outcome, SearchConfig, Solver};

/// Every solution that contains `forced`, in the order found, and the outcome.
pub fn search_all(
    solver: &mut Solver,
    forced: &[OptionId],
) -> Result<(Vec<Vec<OptionId>>, Outcome), Clash> {
    let mut found = Vec::new();
    let outcome = solver.search(forced, &SearchConfig::default(), &mut |s| {
        found.push(s.to_vec());
        Flow::Continue
    })?;
    Ok((found, outcome))
}

/// Knuth's 6x7 example from "Dancing Links" (items A..G; one solution: options 1, 4, 5).
pub fn knuth_6x7() -> Problem {
    let mut b = ProblemBuilder::new();
    b.primary(["A", "B", "C", "D", "E", "F", "G"]);
    for o in [
        &["C", "E", "F"][..],
        &["A", "D", "G"],
        &["B", "C", "F"],
        &["A", "D"],
        &["B", "G"],
        &["D", "E", "G"],
    ] {
        b.option(o.iter().copied());
    }
    b.build()
}

/// The order in which the primary items of [`queens`] are listed.
#[derive(Clone, Copy, Debug)]
pub enum QueensOrder {
    /// `r0 .. r(n-1) c0 .. c(n-1)`.
    Plain,
    /// Knuth's "organ-pipe" order, from the middle outwards, rows and columns
    /// interleaved: for n = 8, `r3 c3 r4 c4 r2 c2 r5 c5 r1 c1 r6 c6 r0 c0 r7 c7`.
    OrganPipe,
}

/// The organ-pipe order of `0..n`: middle first, then alternately just after and just
/// before what has been taken (`3 4 2 5 1 6 0 7` for n = 8, `2 3 1 4 0` for n = 5).
pub fn organ_pipe(n: usize) -> Vec<usize> {
    let mut order = Vec::with_capacity(n);
    for k in 0..n {
        // Offsets 0, +1, -1, +2, -2, ... around (n-1)/2.
        let m = (n - 1) / 2;
        let half = k.div_ceil(2);
        let i = if k % 2 == 1 { m + half } else { m - half };
        order.push(i);
    }
    order
}

/// The n-queens problem in Knuth's formulation: ranks `r_i` and files `c_j` primary,
/// diagonals `a_s` (s = i + j) and `b_d` (d = i - j + n - 1) secondary, one option
/// `r_i c_j a_(i+j) b_(i-j+n-1)` per square in row-major order.
pub fn queens(n: usize, order: QueensOrder) -> Problem {
    let mut b = ProblemBuilder::new();
    match order {
        QueensOrder::Plain => {
            b.primary((0..n).map(|i| format!("r{i}")));
            b.primary((0..n).map(|j| format!("c{j}")));
        }
        QueensOrder::OrganPipe => {
            for i in organ_pipe(n) {
                b.primary([format!("r{i}"), format!("c{i}")]);
            }
        }
    }
    b.secondary((0..2 * n - 1).map(|s| format!("a{s}")));
    b.secondary((0..2 * n - 1).map(|d| format!("b{d}")));
    for i in 0..n {
        for j in 0..n {
            b.option([
                format!("r{i}"),
                format!("c{j}"),
                format!("a{}", i + j),
                format!("b{}", i + n - 1 - j),
            ]);
        }
    }
    b.build()
}

/// Langford pairs: items `1..n` then positions `s0 .. s(2n-1)`; one option
/// `k s_i s_(i+k+1)` per placement. The raw count is twice the number up to reversal.
pub fn langford(n: usize) -> Problem {
    langford_with(n, false, None)
}

/// [`langford`] with the positions listed before the values, and optionally with value
/// `half` kept to the placements not right of their mirror image (`i <= 2n - 2 - half - i`),
/// which halves the count when `half` is odd (no placement of it is its own mirror).
pub fn langford_with(n: usize, positions_first: bool, half: Option<usize>) -> Problem {
    let mut b = ProblemBuilder::new();
    if positions_first {
        b.primary((0..2 * n).map(|i| format!("s{i}")));
        b.primary((1..=n).map(|k| k.to_string()));
    } else {
        b.primary((1..=n).map(|k| k.to_string()));
        b.primary((0..2 * n).map(|i| format!("s{i}")));
    }
    for k in 1..=n {
        for i in 0..2 * n {
            if half == Some(k) && 2 * i + k + 2 > 2 * n {
                continue;
            }
            if i + k + 1 < 2 * n {
                b.option([k.to_string(), format!("s{i}"), format!("s{}", i + k + 1)]);
            }
        }
    }
    b.build()
}

/// The twelve pentominoes in Conway's letters, each as cells (x, y) of one orientation.
pub const PENTOMINOES: [(char, [(i32, i32); 5]); 12] = [
    ('F', [(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)]),
    ('I', [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]),
    ('L', [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)]),
    ('N', [(1, 0), (1, 1), (0, 2), (1, 2), (0, 3)]),
    ('P', [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]),
    ('T', [(0, 0), (1, 0), (2, 0), (1, 1), (1, 2)]),
    ('U', [(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)]),
    ('V', [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)]),
    ('W', [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)]),
    ('X', [(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)]),
    ('Y', [(1, 0), (0, 1), (1, 1), (1, 2), (1, 3)]),
    ('Z', [(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)]),
];

/// The distinct orientations of a piece, normalised (min x = min y = 0, cells sorted),
/// in the order: the 4 rotations of the piece, then the 4 rotations of its mirror image,
/// duplicates dropped. Rotation k and rotation k+2 differ by a half turn.
pub fn orientations(cells: &[(i32, i32)]) -> Vec<Vec<(i32, i32)>> {
    let mut out: Vec<Vec<(i32, i32)>> = Vec::new();
    for mirror in [false, true] {
        for rot in 0..4 {
            let mut v: Vec<(i32, i32)> = cells
                .iter()
                .map(|&(x, y)| {
                    let (mut x, mut y) = if mirror { (-x, y) } else { (x, y) };
                    for _ in 0..rot {
                        (x, y) = (-y, x);
                    }
                    (x, y)
                })
                .collect();
            let mx = v.iter().map(|c| c.0).min().unwrap_or(0);
            let my = v.iter().map(|c| c.1).min().unwrap_or(0);
            for c in &mut v {
                *c = (c.0 - mx, c.1 - my);
            }
            v.sort();
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// Which piece [`pentominoes`] restricts when asked to: an asymmetric piece (8
/// orientations) kept to a quarter of them.
pub const RESTRICTED_PIECE: char = 'F';

/// The 12 pentominoes on a `w` x `h` board: items are the 12 piece names, then the cells
/// `x,y` in row-major order; options are every placement of every orientation,
/// piece by piece.
///
/// With `restrict_one_piece`, piece [`RESTRICTED_PIECE`] keeps only 2 of its 8
/// orientations: rotations 0 and 1 (a quarter turn apart). Why that gives exactly the
/// count up to symmetry on a non-square rectangle: the board's symmetry group K = {id,
/// half turn, two mirror flips} has order 4 and acts freely on the 8 orientations of an
/// asymmetric piece, splitting them into two K-orbits of 4 — {rotations 0, 2 and two
/// mirrors} and {rotations 1, 3 and the other two mirrors}. A solution's 4 images under
/// K (all distinct, since no 6x10 packing is symmetric) show the piece in the 4
/// orientations of one orbit, so exactly one image shows it in rotation 0 or 1 — the
/// one kept from that orbit. Hence raw / 4 = 9356 / 4 = 2339.
pub fn pentominoes(w: i32, h: i32, restrict_one_piece: bool) -> Problem {
    pentominoes_restricting(w, h, restrict_one_piece.then_some(RESTRICTED_PIECE))
}

/// [`pentominoes`] with a choice of the restricted piece (which must be asymmetric).
pub fn pentominoes_restricting(w: i32, h: i32, restricted: Option<char>) -> Problem {
    let mut b = ProblemBuilder::new();
    b.primary(PENTOMINOES.iter().map(|p| p.0.to_string()));
    for y in 0..h {
        for x in 0..w {
            b.primary([format!("{x},{y}")]);
        }
    }
    for (name, cells) in PENTOMINOES {
        let mut orients = orientations(&cells);
        if restricted == Some(name) {
            assert_eq!(orients.len(), 8, "the restricted piece must be asymmetric");
            orients.truncate(2);
        }
        for o in &orients {
            let ow = o.iter().map(|c| c.0).max().unwrap_or(0) + 1;
            let oh = o.iter().map(|c| c.1).max().unwrap_or(0) + 1;
            for dy in 0..=h - oh {
                for dx in 0..=w - ow {
                    let mut opt = vec![name.to_string()];
                    opt.extend(o.iter().map(|&(x, y)| format!("{},{}", x + dx, y + dy)));
                    b.option(opt);
                }
            }
        }
    }
    b.build()
}

/// An empty sudoku of box side `s` (n = s^2 cells a side): items `p r c` (cell), `r r d`,
/// `c c d`, `b x d`; option `(r * n + c) * n + (d - 1)` puts digit d in cell (r, c).
pub fn sudoku_empty(s: usize) -> Problem {
    let n = s * s;
    let mut b = ProblemBuilder::new();
    for kind in ["p", "r", "c", "b"] {
        for i in 0..n {
            for j in 0..n {
                b.primary([format!("{kind}{i},{j}")]);
            }
        }
    }
    for r in 0..n {
        for c in 0..n {
            let x = (r / s) * s + c / s;
            for d in 0..n {
                b.option([
                    format!("p{r},{c}"),
                    format!("r{r},{d}"),
                    format!("c{c},{d}"),
                    format!("b{x},{d}"),
                ]);
            }
        }
    }
    b.build()
}

/// The forced options of a puzzle for [`sudoku_empty`]: one character a cell, row-major,
/// digits `1..9` then letters for larger grids, anything else (`.`, `0`) empty.
pub fn sudoku_clues(puzzle: &str, s: usize) -> Vec<OptionId> {
    let n = s * s;
    puzzle
        .chars()
        .filter(|c| !c.is_whitespace())
        .take(n * n)
        .enumerate()
        .filter_map(|(cell, ch)| {
            let d = ch.to_digit(36)? as usize;
            (d >= 1 && d <= n).then(|| OptionId((cell * n + d - 1) as u32))
        })
        .collect()
}
