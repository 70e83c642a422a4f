//! Unit tests of the checker, one or two per rule, on hand-built trees over real text.

use super::build::B;
use super::*;
use crate::diag::{RenderStyle, render};
use crate::syntax::ast::{BinaryOp as Op, ItemClass, ObjectiveKind};

/// The codes of the errors, in the order reported.
fn codes(r: &Result<Checked, Diagnostics>) -> Vec<String> {
    match r {
        Ok(_) => Vec::new(),
        Err(d) => d.iter().map(|d| d.code().map(|c| c.to_string()).unwrap_or_default()).collect(),
    }
}

fn only_error(r: Result<Checked, Diagnostics>) -> Diagnostics {
    let d = r.expect_err("an error");
    assert_eq!(d.len(), 1, "{d:?}");
    d
}

/// Every label of the first diagnostic, as (text under the label, label).
fn labels(src: &str, d: &Diagnostics) -> Vec<(String, String)> {
    let d = d.iter().next().unwrap();
    d.labels()
        .unwrap()
        .map(|l| {
            let s = &src[l.offset()..l.offset() + l.len()];
            (s.to_string(), l.label().unwrap_or("").to_string())
        })
        .collect()
}

fn help(d: &Diagnostics) -> String {
    d.iter().next().unwrap().help().map(|h| h.to_string()).unwrap_or_default()
}

fn message(d: &Diagnostics) -> String {
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
        b.param(b.id("puzzle"), Some(b.ty(b.id("grid"), vec![b.name("N"), b.name("N")])), None),
        b.fn_decl(
            b.id("box_of"),
            vec![b.id("r"), b.id("c")],
            b.bin(
                b.bin(b.bin(b.name("r"), Op::Div, b.name("n")), Op::Mul, b.name("n")),
                Op::Add,
                b.bin(b.name("c"), Op::Div, b.name("n")),
            ),
        ),
        b.item(ItemClass::Primary, b.id("cell"), vec![b.name("r"), b.name("c")], rc(b)),
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
                    vec![b.call(b.id("box_of"), vec![b.name("r"), b.name("c")]), b.name("v")],
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
    let (n, alphabet, big_n, puzzle, box_of) = (at("n"), at("alphabet"), at("N"), at("puzzle"), at("box_of"));
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

#[test]
fn undefined_name_suggests_a_name_in_scope() {
    let src = "param alphabet = \"12\"\nlet k = len(alphabte)\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.param(b.id("alphabet"), None, Some(b.str("12"))),
        b.let_decl(b.id("k"), b.call(b.id("len"), vec![b.name("alphabte")])),
    ]);
    let d = only_error(check(&m, &b.file()));
    assert_eq!(message(&d), "undefined name `alphabte`");
    assert_eq!(labels(src, &d), vec![("alphabte".into(), "not defined".into())]);
    assert_eq!(help(&d), "did you mean `alphabet`?");
}

#[test]
fn undefined_name_without_candidate_says_how_to_define_it() {
    let src = "let k = zzz + 1\n";
    let b = B::new(src);
    let m = b.model(vec![b.let_decl(b.id("k"), b.bin(b.name("zzz"), Op::Add, b.int(1)))]);
    let d = only_error(check(&m, &b.file()));
    assert_eq!(help(&d), "define it: `let zzz = ...` for a value, or `param zzz` for an input");
}

#[test]
fn locals_suggest_too_and_names_may_be_used_before_definition() {
    // `M` is defined after its use; `rr` is a typo of the local `r`... too short to
    // suggest, but `row` is not.
    let src = "let s = {rwo for row in 0..M}\nlet M = 2\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.let_decl(
            b.id("s"),
            b.set_comp(b.name("rwo"), vec![b.for_(b.pat("row"), b.range(b.int(0), b.name("M")))]),
        ),
        b.let_decl(b.id("M"), b.int(2)),
    ]);
    let d = only_error(check(&m, &b.file()));
    assert_eq!(help(&d), "did you mean `row`?");
}

#[test]
fn duplicate_definition_points_at_both() {
    let src = "param n = 3\nlet x = 1\nfn n(a) = a\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.param(b.id("n"), None, Some(b.int(3))),
        b.let_decl(b.id("x"), b.int(1)),
        b.fn_decl(b.id("n"), vec![b.id("a")], b.name("a")),
    ]);
    let d = only_error(check(&m, &b.file()));
    assert_eq!(codes(&Err(d)), vec!["dlx::E0102"]);
    let b2 = B::new(src);
    let m = b2.model(vec![
        b2.param(b2.id("n"), None, Some(b2.int(3))),
        b2.let_decl(b2.id("x"), b2.int(1)),
        b2.fn_decl(b2.id("n"), vec![b2.id("a")], b2.name("a")),
    ]);
    let d = only_error(check(&m, &b2.file()));
    let ls = labels(src, &d);
    assert_eq!(ls[0].1, "`n` defined again here");
    assert_eq!(ls[1].1, "first defined here");
    // The first label is on `fn n`, the second on `param n`.
    assert!(d.iter().next().unwrap().labels().unwrap().next().unwrap().offset() > 20);
}

#[test]
fn duplicate_names_in_one_pattern_or_parameter_list() {
    let src = "fn f(a, a) = a\nlet s = {x for (x, x) in p}\nparam p = {}\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.fn_decl(b.id("f"), vec![b.id("a"), b.id("a")], b.name("a")),
        b.let_decl(b.id("s"), b.set_comp(b.name("x"), vec![b.for_(b.pats(&["x", "x"]), b.name("p"))])),
        b.param(b.id("p"), None, Some(b.tuple(vec![]))),
    ]);
    let r = check(&m, &b.file());
    assert_eq!(codes(&r), vec!["dlx::E0102", "dlx::E0102"]);
}

#[test]
fn scopes_follow_clause_order_and_end_with_their_entry() {
    // `at` is bound by the family's let and visible in covers; `x`/`y` are bound by
    // the first cover entry only, so the second entry's `x` is undefined.
    let src = "item hole[x, y] for (x, y) in H\nitem piece[p] for p in H\nlet H = {}\n\
               option place[p] for p in H\n    let at = p\n    \
               covers hole[x, y] for (x, y) in at, piece[x]\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.item(ItemClass::Primary, b.id("hole"), vec![b.name("x"), b.name("y")], vec![b.for_(b.pats(&["x", "y"]), b.name("H"))]),
        b.item(ItemClass::Primary, b.id("piece"), vec![b.name("p")], vec![b.for_(b.pat("p"), b.name("H"))]),
        b.let_decl(b.id("H"), b.tuple(vec![])),
        b.option(
            b.id("place"),
            vec![b.name("p")],
            vec![b.for_(b.pat("p"), b.name("H")), b.let_(b.pat("at"), b.name("p"))],
            vec![
                b.cover(b.id("hole"), vec![b.name("x"), b.name("y")], None, vec![b.for_(b.pats(&["x", "y"]), b.name("at"))]),
                b.cover(b.id("piece"), vec![b.name("x")], None, vec![]),
            ],
        ),
    ]);
    let d = only_error(check(&m, &b.file()));
    assert_eq!(message(&d), "undefined name `x`");
    assert!(labels(src, &d)[0].0 == "x");
}

#[test]
fn inner_bindings_shadow_outer_ones_and_globals() {
    // `n` the loop variable shadows `param n`; no reference to the param is recorded.
    let src = "param n = 3\nlet s = {n for n in 0..2}\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.param(b.id("n"), None, Some(b.int(3))),
        b.let_decl(b.id("s"), b.set_comp(b.name("n"), vec![b.for_(b.pat("n"), b.range(b.int(0), b.int(2)))])),
    ]);
    let c = check(&m, &b.file()).unwrap();
    assert!(c.refs[1].is_empty());
}

#[test]
fn unknown_function_suggests_user_fns_and_builtins() {
    let src = "fn box_of(r, c) = r\nlet a = bxo_of(1, 2)\nlet b = lne(a)\nlet c = frob(a)\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.fn_decl(b.id("box_of"), vec![b.id("r"), b.id("c")], b.name("r")),
        b.let_decl(b.id("a"), b.call(b.id("bxo_of"), vec![b.int(1), b.int(2)])),
        b.let_decl(b.id("b"), b.call(b.id("lne"), vec![b.name("a")])),
        b.let_decl(b.id("c"), b.call(b.id("frob"), vec![b.name("a")])),
    ]);
    let d = check(&m, &b.file()).unwrap_err();
    let helps: Vec<String> = d.iter().map(|d| d.help().unwrap().to_string()).collect();
    assert_eq!(
        helps,
        vec!["did you mean `box_of`?", "did you mean `len`?", "define it: `fn frob(x) = ...`"]
    );
}

#[test]
fn wrong_argument_count_for_user_fns_and_builtins() {
    let src = "fn box_of(r, c) = r\nlet a = box_of(1, 2, 3)\nlet b = shift(a)\nlet c = max()\nlet d = max(1, 2, 3)\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.fn_decl(b.id("box_of"), vec![b.id("r"), b.id("c")], b.name("r")),
        b.let_decl(b.id("a"), b.call(b.id("box_of"), vec![b.int(1), b.int(2), b.int(3)])),
        b.let_decl(b.id("b"), b.call(b.id("shift"), vec![b.name("a")])),
        b.let_decl(b.id("c"), b.call(b.id("max"), vec![])),
        b.let_decl(b.id("d"), b.call(b.id("max"), vec![b.int(1), b.int(2), b.int(3)])),
    ]);
    let d = check(&m, &b.file()).unwrap_err();
    let msgs: Vec<String> = d.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        msgs,
        vec![
            "wrong number of arguments to `box_of`: expected 2, found 3",
            "wrong number of arguments to `shift`: expected 3, found 1",
            "wrong number of arguments to `max`: expected at least 1, found 0",
        ]
    );
    let ls = labels(src, &d);
    assert_eq!(ls[0], ("box_of(1, 2, 3)".into(), "3 arguments given".into()));
    assert_eq!(ls[1], ("box_of".into(), "`box_of` defined here with 2 parameters".into()));
    assert_eq!(help(&d), "call it as `box_of(r, c)`");
}

#[test]
fn calling_a_value_and_using_a_function_as_a_value() {
    let src = "let N = 9\nfn f(x) = x\nitem cell[r] for r in 0..N\n\
               let a = N(2)\nlet b = f + 1\nlet c = cell\nlet d = len\nlet e = cell(1)\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.let_decl(b.id("N"), b.int(9)),
        b.fn_decl(b.id("f"), vec![b.id("x")], b.name("x")),
        b.item(ItemClass::Primary, b.id("cell"), vec![b.name("r")], vec![b.for_(b.pat("r"), b.range(b.int(0), b.name("N")))]),
        b.let_decl(b.id("a"), b.call(b.id("N"), vec![b.int(2)])),
        b.let_decl(b.id("b"), b.bin(b.name("f"), Op::Add, b.int(1))),
        b.let_decl(b.id("c"), b.name("cell")),
        b.let_decl(b.id("d"), b.name("len")),
        b.let_decl(b.id("e"), b.call(b.id("cell"), vec![b.int(1)])),
    ]);
    let d = check(&m, &b.file()).unwrap_err();
    assert_eq!(
        codes(&Err(d)),
        vec!["dlx::E0105", "dlx::E0106", "dlx::E0106", "dlx::E0106", "dlx::E0105"]
    );
    let b = B::new(src);
    let m = b.model(vec![
        b.let_decl(b.id("N"), b.int(9)),
        b.fn_decl(b.id("f"), vec![b.id("x")], b.name("x")),
        b.item(ItemClass::Primary, b.id("cell"), vec![b.name("r")], vec![b.for_(b.pat("r"), b.range(b.int(0), b.name("N")))]),
        b.let_decl(b.id("a"), b.call(b.id("N"), vec![b.int(2)])),
        b.let_decl(b.id("b"), b.bin(b.name("f"), Op::Add, b.int(1))),
        b.let_decl(b.id("c"), b.name("cell")),
        b.let_decl(b.id("d"), b.name("len")),
        b.let_decl(b.id("e"), b.call(b.id("cell"), vec![b.int(1)])),
    ]);
    let d = check(&m, &b.file()).unwrap_err();
    let msgs: Vec<String> = d.iter().map(|d| d.to_string()).collect();
    assert_eq!(msgs[0], "expected a function, found a let `N`");
    assert_eq!(msgs[1], "expected a value, found a function `f`");
    assert_eq!(msgs[2], "expected a value, found an item family `cell`");
    assert_eq!(msgs[3], "expected a value, found the builtin function `len`");
    let helps: Vec<String> = d.iter().map(|d| d.help().unwrap().to_string()).collect();
    assert_eq!(helps[1], "call it: `f(x)`");
}
