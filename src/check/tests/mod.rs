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

const MATCHSTICKS: &str = "param n = 3
param missing = {}
let W = 2 * n + 1
fn h(r, c) = r * W + c + 1
fn v(r, c) = r * W + n + c + 1
fn sticks(s, r, c) = union({h(r, c+i), h(r+s, c+i), v(r+i, c), v(r+i, c+s)} for i in 0..s)
let squares = [(s, r, c) for s in 1..=n, r in 0..=n-s, c in 0..=n-s
               where disjoint(sticks(s, r, c), missing)]
item square[s, r, c] for (s, r, c) in squares : 1..
option take[m] for m in 1..=2*n*(n+1) where m not in missing
    covers square[s, r, c] for (s, r, c) in squares where m in sticks(s, r, c)
minimize count
";

fn matchsticks(b: &B) -> ast::Model {
    let add = |l, r| b.bin(l, Op::Add, r);
    let name = |n| b.name(n);
    let stick_fn = |f: &str, with_n: bool| {
        let id = b.id(f);
        let params = vec![b.id("r"), b.id("c")];
        let mut body = b.bin(name("r"), Op::Mul, name("W"));
        if with_n {
            body = add(body, name("n"));
        }
        let body = add(add(body, name("c")), b.int(1));
        b.fn_decl(id, params, body)
    };
    let mut decls = vec![b.param(b.id("n"), None, Some(b.int(3)))];
    decls.push(b.param(b.id("missing"), None, Some(b.set(vec![]))));
    decls.push(b.let_decl(
        b.id("W"),
        add(b.bin(b.int(2), Op::Mul, name("n")), b.int(1)),
    ));
    decls.push(stick_fn("h", false));
    decls.push(stick_fn("v", true));
    let id = b.id("sticks");
    let params = vec![b.id("s"), b.id("r"), b.id("c")];
    let union = b.id("union");
    let set = b.set(vec![
        {
            let f = b.id("h");
            let (x, y) = (name("r"), add(name("c"), name("i")));
            b.call(f, vec![x, y])
        },
        {
            let f = b.id("h");
            let x = add(name("r"), name("s"));
            let y = add(name("c"), name("i"));
            b.call(f, vec![x, y])
        },
        {
            let f = b.id("v");
            let x = add(name("r"), name("i"));
            b.call(f, vec![x, name("c")])
        },
        {
            let f = b.id("v");
            let x = add(name("r"), name("i"));
            let y = add(name("c"), name("s"));
            b.call(f, vec![x, y])
        },
    ]);
    let comp = b.list_comp(set, vec![b.for_(b.pat("i"), b.range(b.int(0), name("s")))]);
    decls.push(b.fn_decl(id, params, b.call(union, vec![comp])));
    let id = b.id("squares");
    let elem = b.tuple(vec![name("s"), name("r"), name("c")]);
    let upto = |b: &B| b.range_incl(b.int(0), b.bin(b.name("n"), Op::Sub, b.name("s")));
    let clauses = vec![
        b.for_(b.pat("s"), b.range_incl(b.int(1), name("n"))),
        b.for_(b.pat("r"), upto(b)),
        b.for_(b.pat("c"), upto(b)),
        b.where_({
            let d = b.id("disjoint");
            let st = b.id("sticks");
            let inner = b.call(st, vec![name("s"), name("r"), name("c")]);
            let x = name("missing");
            b.call(d, vec![inner, x])
        }),
    ];
    decls.push(b.let_decl(id, b.list_comp(elem, clauses)));
    let item = b.item(
        ItemClass::Primary,
        b.id("square"),
        vec![name("s"), name("r"), name("c")],
        vec![b.for_(b.pats(&["s", "r", "c"]), name("squares"))],
    );
    let bounds = ast::BoundsExpr::Range {
        lo: b.int(1),
        hi: None,
    };
    decls.push(b.with(item, Some(bounds), None, vec![]));
    let id = b.id("take");
    let index = vec![name("m")];
    let m = b.pat("m");
    let lo = b.int(1);
    let hi = b.bin(
        b.bin(b.int(2), Op::Mul, name("n")),
        Op::Mul,
        add(name("n"), b.int(1)),
    );
    let clauses = vec![
        b.for_(m, b.range_incl(lo, hi)),
        b.where_(b.bin(name("m"), Op::NotIn, name("missing"))),
    ];
    let fam = b.id("square");
    let idx = vec![name("s"), name("r"), name("c")];
    let cl = vec![
        b.for_(b.pats(&["s", "r", "c"]), name("squares")),
        b.where_(b.bin(name("m"), Op::In, {
            let st = b.id("sticks");
            b.call(st, vec![name("s"), name("r"), name("c")])
        })),
    ];
    let cover = b.cover(fam, idx, None, cl);
    decls.push(b.option(id, index, clauses, vec![cover]));
    decls.push(b.objective("minimize", ObjectiveKind::MinimizeCount));
    b.model(decls)
}

#[test]
fn matchsticks_checks_clean_and_stages_on_its_params() {
    let b = B::new(MATCHSTICKS);
    let m = matchsticks(&b);
    let c = check(&m, &b.file()).expect("no errors");
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    let at = |n: &str| c.lookup(n).unwrap();
    assert_eq!(
        c.value_order,
        vec![at("n"), at("missing"), at("W"), at("squares")]
    );
    assert_eq!(c.refs[at("sticks")], vec![at("h"), at("v")]);
    assert_eq!(c.objective, Some(m.decls.len() - 1));
    // `missing` changes which squares exist and which sticks can be taken.
    assert!(c.depends_on(at("square"), &[at("missing")]));
    assert!(c.depends_on(at("take"), &[at("missing")]));
    // The stick numbering reads `n` through `W`, not `missing`.
    assert!(c.depends_on(at("sticks"), &[at("n")]));
    assert!(!c.depends_on(at("sticks"), &[at("missing")]));
}
