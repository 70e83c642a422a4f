//! Unit tests of the checker, one or two per rule, on hand-built trees over real text.
//!
//! This file holds the helpers and a whole model; the rules are split by concern.

mod families;
mod names;
mod render;

use super::build::B;
use super::*;
use crate::diag::{RenderStyle, render};
use crate::syntax::ast::{BinaryOp as Op, ItemClass, ObjectiveKind};

/// The codes of the errors, in the order reported.
pub(super) fn codes(r: &Result<Checked, Diagnostics>) -> Vec<String> {
    match r {
        Ok(_) => Vec::new(),
        Err(d) => d
            .iter()
            .map(|d| d.code().map(|c| c.to_string()).unwrap_or_default())
            .collect(),
    }
}

pub(super) fn only_error(r: Result<Checked, Diagnostics>) -> Diagnostics {
    let d = r.expect_err("an error");
    assert_eq!(d.len(), 1, "{d:?}");
    d
}

/// Every label of the first diagnostic, as (text under the label, label).
pub(super) fn labels(src: &str, d: &Diagnostics) -> Vec<(String, String)> {
    let d = d.iter().next().unwrap();
    d.labels()
        .unwrap()
        .map(|l| {
            let s = &src[l.offset()..l.offset() + l.len()];
            (s.to_string(), l.label().unwrap_or("").to_string())
        })
        .collect()
}

pub(super) fn help(d: &Diagnostics) -> String {
    d.iter()
        .next()
        .unwrap()
        .help()
        .map(|h| h.to_string())
        .unwrap_or_default()
}

pub(super) fn message(d: &Diagnostics) -> String {
    d.iter().next().unwrap().to_string()
}

const SUDOKU: &str = r#"param n = 3
param alphabet = "123456789"
let N = n * n
param puzzle: grid[N, N]
fn box_of(r, c) = r / n * n + c / n
item cell[r, c] for r in 0..N, c in 0..N
item box[b, v] for b in 0..N, v in alphabet
option put[r, c, v] for r in 0..N, c in 0..N, v in alphabet
    covers cell[r, c], box[box_of(r, c), v]
force put[r, c, puzzle[r][c]] for r in 0..N, c in 0..N where puzzle[r][c] in alphabet
"#;

fn sudoku(b: &B) -> ast::Model {
    let rc = |b: &B| {
        vec![
            b.for_(b.pat("r"), b.range(b.int(0), b.name("N"))),
            b.for_(b.pat("c"), b.range(b.int(0), b.name("N"))),
        ]
    };
    b.model(vec![
        b.param(b.id("n"), None, Some(b.int(3))),
        b.param(b.id("alphabet"), None, Some(b.str("123456789"))),
        b.let_decl(b.id("N"), b.bin(b.name("n"), Op::Mul, b.name("n"))),
        b.param(
            b.id("puzzle"),
            Some(b.ty(b.id("grid"), vec![b.name("N"), b.name("N")])),
            None,
        ),
        b.fn_decl(
            b.id("box_of"),
            vec![b.id("r"), b.id("c")],
            b.bin(
                b.bin(
                    b.bin(b.name("r"), Op::Div, b.name("n")),
                    Op::Mul,
                    b.name("n"),
                ),
                Op::Add,
                b.bin(b.name("c"), Op::Div, b.name("n")),
            ),
        ),
        b.item(
            ItemClass::Primary,
            b.id("cell"),
            vec![b.name("r"), b.name("c")],
            rc(b),
        ),
        b.item(
            ItemClass::Primary,
            b.id("box"),
            vec![b.name("b"), b.name("v")],
            vec![
                b.for_(b.pat("b"), b.range(b.int(0), b.name("N"))),
                b.for_(b.pat("v"), b.name("alphabet")),
            ],
        ),
        b.option(
            b.id("put"),
            vec![b.name("r"), b.name("c"), b.name("v")],
            {
                let mut cl = rc(b);
                cl.push(b.for_(b.pat("v"), b.name("alphabet")));
                cl
            },
            vec![
                b.cover(b.id("cell"), vec![b.name("r"), b.name("c")], None, vec![]),
                b.cover(
                    b.id("box"),
                    vec![
                        b.call(b.id("box_of"), vec![b.name("r"), b.name("c")]),
                        b.name("v"),
                    ],
                    None,
                    vec![],
                ),
            ],
        ),
        b.force(
            b.id("put"),
            vec![
                b.name("r"),
                b.name("c"),
                b.index(b.index(b.name("puzzle"), b.name("r")), b.name("c")),
            ],
            {
                let mut cl = rc(b);
                cl.push(b.where_(b.bin(
                    b.index(b.index(b.name("puzzle"), b.name("r")), b.name("c")),
                    Op::In,
                    b.name("alphabet"),
                )));
                cl
            },
        ),
    ])
}

#[test]
fn sudoku_checks_and_reports_its_structure() {
    let b = B::new(SUDOKU);
    let m = sudoku(&b);
    let c = check(&m, &b.file()).expect("no errors");
    let at = |n: &str| c.lookup(n).unwrap();
    let (n, alphabet, big_n, puzzle, box_of) =
        (at("n"), at("alphabet"), at("N"), at("puzzle"), at("box_of"));
    let (cell, bx, put) = (at("cell"), at("box"), at("put"));
    assert_eq!(c.refs[big_n], vec![n]);
    assert_eq!(c.refs[puzzle], vec![big_n]);
    assert_eq!(c.refs[box_of], vec![n]);
    assert_eq!(c.refs[put], vec![alphabet, big_n, box_of, cell, bx]);
    assert_eq!(c.refs[8], vec![alphabet, big_n, puzzle, put]);
    // `N` needs `n`; `puzzle` needs `N`.
    assert_eq!(c.value_order, vec![n, alphabet, big_n, puzzle]);
    // Only the force reads the record: the matrix is built once.
    assert!(c.depends_on(8, &[puzzle]));
    assert!(!c.depends_on(put, &[puzzle]));
    assert!(!c.depends_on(cell, &[puzzle]));
    // `put` reads `n` through `box_of`.
    assert!(c.depends_on(put, &[n]));
    assert!(c.objective.is_none());
    assert!(c.warnings.is_empty());
}
