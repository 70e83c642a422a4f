//! Unit tests of the checker, one or two per rule, on hand-built trees over real text.

use super::build::B;
use super::*;
use crate::diag::{RenderStyle, render};
use crate::syntax::ast::{BinaryOp as Op, ItemClass, ObjectiveKind};

/// The codes of the errors, in the order reported.
fn codes(r: &Result<Checked, Diagnostics>) -> Vec<String> {
    match r {
        Ok(_) => Vec::new(),
        Err(d) => d
            .iter()
            .map(|d| d.code().map(|c| c.to_string()).unwrap_or_default())
            .collect(),
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
    d.iter()
        .next()
        .unwrap()
        .help()
        .map(|h| h.to_string())
        .unwrap_or_default()
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
    assert_eq!(
        labels(src, &d),
        vec![("alphabte".into(), "not defined".into())]
    );
    assert_eq!(help(&d), "did you mean `alphabet`?");
}

#[test]
fn undefined_name_without_candidate_says_how_to_define_it() {
    let src = "let k = zzz + 1\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.let_decl(b.id("k"), b.bin(b.name("zzz"), Op::Add, b.int(1))),
    ]);
    let d = only_error(check(&m, &b.file()));
    assert_eq!(
        help(&d),
        "define it: `let zzz = ...` for a value, or `param zzz` for an input"
    );
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
            b.set_comp(
                b.name("rwo"),
                vec![b.for_(b.pat("row"), b.range(b.int(0), b.name("M")))],
            ),
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
    assert!(
        d.iter()
            .next()
            .unwrap()
            .labels()
            .unwrap()
            .next()
            .unwrap()
            .offset()
            > 20
    );
}

#[test]
fn duplicate_names_in_one_pattern_or_parameter_list() {
    let src = "fn f(a, a) = a\nlet s = {x for (x, x) in p}\nparam p = {}\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.fn_decl(b.id("f"), vec![b.id("a"), b.id("a")], b.name("a")),
        b.let_decl(
            b.id("s"),
            b.set_comp(b.name("x"), vec![b.for_(b.pats(&["x", "x"]), b.name("p"))]),
        ),
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
        b.item(
            ItemClass::Primary,
            b.id("hole"),
            vec![b.name("x"), b.name("y")],
            vec![b.for_(b.pats(&["x", "y"]), b.name("H"))],
        ),
        b.item(
            ItemClass::Primary,
            b.id("piece"),
            vec![b.name("p")],
            vec![b.for_(b.pat("p"), b.name("H"))],
        ),
        b.let_decl(b.id("H"), b.tuple(vec![])),
        b.option(
            b.id("place"),
            vec![b.name("p")],
            vec![
                b.for_(b.pat("p"), b.name("H")),
                b.let_(b.pat("at"), b.name("p")),
            ],
            vec![
                b.cover(
                    b.id("hole"),
                    vec![b.name("x"), b.name("y")],
                    None,
                    vec![b.for_(b.pats(&["x", "y"]), b.name("at"))],
                ),
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
        b.let_decl(
            b.id("s"),
            b.set_comp(
                b.name("n"),
                vec![b.for_(b.pat("n"), b.range(b.int(0), b.int(2)))],
            ),
        ),
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
        vec![
            "did you mean `box_of`?",
            "did you mean `len`?",
            "define it: `fn frob(x) = ...`"
        ]
    );
}

#[test]
fn wrong_argument_count_for_user_fns_and_builtins() {
    let src = "fn box_of(r, c) = r\nlet a = box_of(1, 2, 3)\nlet b = shift(a)\nlet c = max()\nlet d = max(1, 2, 3)\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.fn_decl(b.id("box_of"), vec![b.id("r"), b.id("c")], b.name("r")),
        b.let_decl(
            b.id("a"),
            b.call(b.id("box_of"), vec![b.int(1), b.int(2), b.int(3)]),
        ),
        b.let_decl(b.id("b"), b.call(b.id("shift"), vec![b.name("a")])),
        b.let_decl(b.id("c"), b.call(b.id("max"), vec![])),
        b.let_decl(
            b.id("d"),
            b.call(b.id("max"), vec![b.int(1), b.int(2), b.int(3)]),
        ),
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
    assert_eq!(
        ls[0],
        ("box_of(1, 2, 3)".into(), "3 arguments given".into())
    );
    assert_eq!(
        ls[1],
        (
            "box_of".into(),
            "`box_of` defined here with 2 parameters".into()
        )
    );
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
        b.item(
            ItemClass::Primary,
            b.id("cell"),
            vec![b.name("r")],
            vec![b.for_(b.pat("r"), b.range(b.int(0), b.name("N")))],
        ),
        b.let_decl(b.id("a"), b.call(b.id("N"), vec![b.int(2)])),
        b.let_decl(b.id("b"), b.bin(b.name("f"), Op::Add, b.int(1))),
        b.let_decl(b.id("c"), b.name("cell")),
        b.let_decl(b.id("d"), b.name("len")),
        b.let_decl(b.id("e"), b.call(b.id("cell"), vec![b.int(1)])),
    ]);
    let d = check(&m, &b.file()).unwrap_err();
    assert_eq!(
        codes(&Err(d)),
        vec![
            "dlx::E0105",
            "dlx::E0106",
            "dlx::E0106",
            "dlx::E0106",
            "dlx::E0105"
        ]
    );
    let b = B::new(src);
    let m = b.model(vec![
        b.let_decl(b.id("N"), b.int(9)),
        b.fn_decl(b.id("f"), vec![b.id("x")], b.name("x")),
        b.item(
            ItemClass::Primary,
            b.id("cell"),
            vec![b.name("r")],
            vec![b.for_(b.pat("r"), b.range(b.int(0), b.name("N")))],
        ),
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
    assert_eq!(
        msgs[3],
        "expected a value, found the builtin function `len`"
    );
    let helps: Vec<String> = d.iter().map(|d| d.help().unwrap().to_string()).collect();
    assert_eq!(helps[1], "call it: `f(x)`");
}

#[test]
fn covers_and_force_name_families_of_the_right_kind() {
    let src = "item cell[r, c] for r in R, c in R\nlet R = 0..3\n\
               option put[r, c] for r in R, c in R\n    covers cel[r, c], put[r, c], cell[r]\n\
               force cell[0, 0]\nforce pt[0, 0]\n";
    let b = B::new(src);
    let rr = |b: &B| {
        vec![
            b.for_(b.pat("r"), b.name("R")),
            b.for_(b.pat("c"), b.name("R")),
        ]
    };
    let m = b.model(vec![
        b.item(
            ItemClass::Primary,
            b.id("cell"),
            vec![b.name("r"), b.name("c")],
            rr(&b),
        ),
        b.let_decl(b.id("R"), b.range(b.int(0), b.int(3))),
        b.option(
            b.id("put"),
            vec![b.name("r"), b.name("c")],
            rr(&b),
            vec![
                b.cover(b.id("cel"), vec![b.name("r"), b.name("c")], None, vec![]),
                b.cover(b.id("put"), vec![b.name("r"), b.name("c")], None, vec![]),
                b.cover(b.id("cell"), vec![b.name("r")], None, vec![]),
            ],
        ),
        b.force(b.id("cell"), vec![b.int(0), b.int(0)], vec![]),
        b.force(b.id("pt"), vec![b.int(0), b.int(0)], vec![]),
    ]);
    let d = check(&m, &b.file()).unwrap_err();
    let got: Vec<(String, String, String)> = d
        .iter()
        .map(|d| {
            (
                d.code().unwrap().to_string(),
                d.to_string(),
                d.help().unwrap().to_string(),
            )
        })
        .collect();
    let want = [
        (
            "dlx::E0107",
            "unknown item family `cel`",
            "did you mean `cell`?",
        ),
        (
            "dlx::E0107",
            "expected an item family after `cover`, found an option family `put`",
            "the item families are `cell`",
        ),
        (
            "dlx::E0109",
            "wrong number of indices for `cell`: expected 2, found 1",
            "write it as declared: `cell[r, c]`",
        ),
        (
            "dlx::E0108",
            "expected an option family after `force`, found an item family `cell`",
            "the option families are `put`",
        ),
        (
            "dlx::E0108",
            "unknown option family `pt`",
            "did you mean `put`?",
        ),
    ];
    let want: Vec<(String, String, String)> = want
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn index_count_points_at_the_declaration() {
    let src =
        "item cell[r, c] for r in 0..2, c in 0..2\noption o[r] for r in 0..2 covers cell[r]\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.item(
            ItemClass::Primary,
            b.id("cell"),
            vec![b.name("r"), b.name("c")],
            vec![
                b.for_(b.pat("r"), b.range(b.int(0), b.int(2))),
                b.for_(b.pat("c"), b.range(b.int(0), b.int(2))),
            ],
        ),
        b.option(
            b.id("o"),
            vec![b.name("r")],
            vec![b.for_(b.pat("r"), b.range(b.int(0), b.int(2)))],
            vec![b.cover(b.id("cell"), vec![b.name("r")], None, vec![])],
        ),
    ]);
    let d = only_error(check(&m, &b.file()));
    assert_eq!(
        labels(src, &d),
        vec![
            ("cell[r".into(), "1 index given".into()),
            ("cell".into(), "declared with 2 indices here".into())
        ]
    );
}

#[test]
fn colors_only_on_colored_item_families() {
    let src = "colored item sq[x] for x in 0..2\nsecondary item s[x] for x in 0..2\n\
               option o[x] for x in 0..2 covers sq[x] = 1, s[x] = 2\n";
    let b = B::new(src);
    let fam = |b: &B, class, n: &str| {
        b.item(
            class,
            b.id(n),
            vec![b.name("x")],
            vec![b.for_(b.pat("x"), b.range(b.int(0), b.int(2)))],
        )
    };
    let m = b.model(vec![
        fam(&b, ItemClass::Colored, "sq"),
        fam(&b, ItemClass::Secondary, "s"),
        b.option(
            b.id("o"),
            vec![b.name("x")],
            vec![b.for_(b.pat("x"), b.range(b.int(0), b.int(2)))],
            vec![
                b.cover(b.id("sq"), vec![b.name("x")], Some(b.int(1)), vec![]),
                b.cover(b.id("s"), vec![b.name("x")], Some(b.int(2)), vec![]),
            ],
        ),
    ]);
    let d = only_error(check(&m, &b.file()));
    assert_eq!(
        message(&d),
        "`s` is a secondary item family, so it cannot take a color"
    );
    assert_eq!(
        labels(src, &d),
        vec![
            ("2".into(), "color given here".into()),
            ("s".into(), "declared as a secondary item here".into())
        ]
    );
    assert!(help(&d).starts_with("declare it `colored item s[...]`"));
}

#[test]
fn cycles_are_named_in_order_with_a_label_per_reference() {
    let src = "let a = b + 1\nlet b = c * 2\nlet c = a\nparam p = p\nlet ok = a\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.let_decl(b.id("a"), b.bin(b.name("b"), Op::Add, b.int(1))),
        b.let_decl(b.id("b"), b.bin(b.name("c"), Op::Mul, b.int(2))),
        b.let_decl(b.id("c"), b.name("a")),
        b.param(b.id("p"), None, Some(b.name("p"))),
        b.let_decl(b.id("ok"), b.name("a")),
    ]);
    let d = check(&m, &b.file()).unwrap_err();
    let msgs: Vec<String> = d.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        msgs,
        vec![
            "`a` depends on itself: a -> b -> c -> a",
            "`p` depends on itself: p -> p"
        ]
    );
    assert_eq!(
        labels(src, &d),
        vec![
            ("b".into(), "`a` uses `b` here".into()),
            ("c".into(), "`b` uses `c` here".into()),
            ("a".into(), "`c` uses `a` here".into()),
        ]
    );
}

#[test]
fn cycles_through_functions_and_families_that_use_lets() {
    // `k` reads itself through `f`: a cycle. The item family reads `k` freely.
    let src = "let k = f(1)\nfn f(x) = x + k\nitem i[x] for x in 0..k\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.let_decl(b.id("k"), b.call(b.id("f"), vec![b.int(1)])),
        b.fn_decl(
            b.id("f"),
            vec![b.id("x")],
            b.bin(b.name("x"), Op::Add, b.name("k")),
        ),
        b.item(
            ItemClass::Primary,
            b.id("i"),
            vec![b.name("x")],
            vec![b.for_(b.pat("x"), b.range(b.int(0), b.name("k")))],
        ),
    ]);
    let d = only_error(check(&m, &b.file()));
    assert_eq!(message(&d), "`k` depends on itself: k -> f -> k");
    assert_eq!(labels(src, &d)[0].1, "`k` calls `f` here");
}

#[test]
fn recursion_is_reported_direct_and_mutual() {
    let src = "fn f(n) = f(n - 1)\nfn g(n) = h(n)\nfn h(n) = g(n)\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.fn_decl(
            b.id("f"),
            vec![b.id("n")],
            b.call(b.id("f"), vec![b.bin(b.name("n"), Op::Sub, b.int(1))]),
        ),
        b.fn_decl(
            b.id("g"),
            vec![b.id("n")],
            b.call(b.id("h"), vec![b.name("n")]),
        ),
        b.fn_decl(
            b.id("h"),
            vec![b.id("n")],
            b.call(b.id("g"), vec![b.name("n")]),
        ),
    ]);
    let d = check(&m, &b.file()).unwrap_err();
    let msgs: Vec<String> = d.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        msgs,
        vec![
            "function `f` calls itself",
            "functions call each other in a cycle: g -> h -> g"
        ]
    );
    assert_eq!(codes(&Err(d)), vec!["dlx::E0112", "dlx::E0112"]);
}

#[test]
fn at_most_one_objective() {
    let src = "minimize count\nmaximize cost\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.objective("minimize", ObjectiveKind::MinimizeCount),
        b.objective("maximize", ObjectiveKind::MaximizeCost),
    ]);
    let d = only_error(check(&m, &b.file()));
    assert_eq!(
        labels(src, &d),
        vec![
            ("maximize".into(), "second objective".into()),
            ("minimize".into(), "first objective here".into())
        ]
    );
    let b = B::new("minimize count\n");
    let m = b.model(vec![b.objective("minimize", ObjectiveKind::MinimizeCount)]);
    assert_eq!(check(&m, &b.file()).unwrap().objective, Some(0));
}

#[test]
fn parameter_types_are_known_names_with_fitting_arguments() {
    let src =
        "param a: itn\nparam b: grid[3]\nparam c: int[2]\nparam d: grid[3, 3]\nparam e: foo\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.param(b.id("a"), Some(b.ty(b.id("itn"), vec![])), None),
        b.param(b.id("b"), Some(b.ty(b.id("grid"), vec![b.int(3)])), None),
        b.param(b.id("c"), Some(b.ty(b.id("int"), vec![b.int(2)])), None),
        b.param(
            b.id("d"),
            Some(b.ty(b.id("grid"), vec![b.int(3), b.int(3)])),
            None,
        ),
        b.param(b.id("e"), Some(b.ty(b.id("foo"), vec![])), None),
    ]);
    let d = check(&m, &b.file()).unwrap_err();
    let got: Vec<(String, String)> = d
        .iter()
        .map(|d| (d.to_string(), d.help().unwrap().to_string()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("unknown type `itn`".into(), "did you mean `int`?".into()),
            (
                "wrong number of arguments to type `grid`: expected 0 or 2, found 1".into(),
                "write `grid` for any shape, or `grid[rows, cols]` for a fixed one".into()
            ),
            (
                "wrong number of arguments to type `int`: expected 0, found 1".into(),
                "write `int` without brackets".into()
            ),
            (
                "unknown type `foo`".into(),
                "the types are int, bool, str, list, set, map, grid, ints".into()
            ),
        ]
    );
    assert_eq!(
        codes(&Err(d)),
        vec!["dlx::E0201", "dlx::E0202", "dlx::E0202", "dlx::E0201"]
    );
}

#[test]
fn every_error_is_collected_and_sorted_by_position() {
    // The cycle is found last by the checker but its first reference comes first.
    let src = "let a = a\nlet b = undefined1\nlet b = 2\nlet c = nope(1)\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.let_decl(b.id("a"), b.name("a")),
        b.let_decl(b.id("b"), b.name("undefined1")),
        b.let_decl(b.id("b"), b.int(2)),
        b.let_decl(b.id("c"), b.call(b.id("nope"), vec![b.int(1)])),
    ]);
    let r = check(&m, &b.file());
    assert_eq!(
        codes(&r),
        vec!["dlx::E0111", "dlx::E0101", "dlx::E0102", "dlx::E0103"]
    );
}

#[test]
fn value_order_puts_dependencies_first_even_through_fns() {
    let src = "let a = f(1)\nfn f(x) = x + b\nlet b = c\nparam c = 1\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.let_decl(b.id("a"), b.call(b.id("f"), vec![b.int(1)])),
        b.fn_decl(
            b.id("f"),
            vec![b.id("x")],
            b.bin(b.name("x"), Op::Add, b.name("b")),
        ),
        b.let_decl(b.id("b"), b.name("c")),
        b.param(b.id("c"), None, Some(b.int(1))),
    ]);
    let c = check(&m, &b.file()).unwrap();
    assert_eq!(c.value_order, vec![3, 2, 0]);
    assert!(c.depends_on(0, &[3]));
    assert!(!c.depends_on(3, &[0]));
}

/// Rendered text, as the CLI and the golden files will show it.
#[test]
fn renders_undefined_name_for_people() {
    let src = "param alphabet = \"12\"\nlet k = len(alphabte)\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.param(b.id("alphabet"), None, Some(b.str("12"))),
        b.let_decl(b.id("k"), b.call(b.id("len"), vec![b.name("alphabte")])),
    ]);
    let d = check(&m, &b.file()).unwrap_err();
    let out = render(d.iter().next().unwrap(), RenderStyle::GOLDEN);
    assert!(out.contains("dlx::E0101"), "{out}");
    assert!(out.contains("undefined name `alphabte`"), "{out}");
    assert!(out.contains("[test.dlx:2:13]"), "{out}");
    assert!(out.contains("2 │ let k = len(alphabte)"), "{out}");
    assert!(out.contains("╰── not defined"), "{out}");
    assert!(out.contains("help: did you mean `alphabet`?"), "{out}");
}

#[test]
fn renders_argument_count_with_the_definition() {
    let src = "fn box_of(r, c) = r\nlet a = box_of(1, 2, 3)\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.fn_decl(b.id("box_of"), vec![b.id("r"), b.id("c")], b.name("r")),
        b.let_decl(
            b.id("a"),
            b.call(b.id("box_of"), vec![b.int(1), b.int(2), b.int(3)]),
        ),
    ]);
    let d = check(&m, &b.file()).unwrap_err();
    let out = render(d.iter().next().unwrap(), RenderStyle::GOLDEN);
    assert!(
        out.contains("wrong number of arguments to `box_of`: expected 2, found 3"),
        "{out}"
    );
    assert!(out.contains("1 │ fn box_of(r, c) = r"), "{out}");
    assert!(
        out.contains("`box_of` defined here with 2 parameters"),
        "{out}"
    );
    assert!(out.contains("3 arguments given"), "{out}");
    assert!(out.contains("help: call it as `box_of(r, c)`"), "{out}");
}

#[test]
fn every_code_has_an_explanation() {
    for code in Code::ALL {
        let text =
            crate::diag::explain(code.as_str()).unwrap_or_else(|| panic!("docs/errors/{code}.md"));
        assert!(text.starts_with(&format!("# {code}: ")), "{code}");
    }
}

#[test]
fn comprehension_bindings_end_with_the_comprehension() {
    let src = "let s = [x for x in 0..2 where x > 0]\nlet t = x\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.let_decl(
            b.id("s"),
            b.list_comp(
                b.name("x"),
                vec![
                    b.for_(b.pat("x"), b.range(b.int(0), b.int(2))),
                    b.where_(b.bin(b.name("x"), Op::Gt, b.int(0))),
                ],
            ),
        ),
        b.let_decl(b.id("t"), b.name("x")),
    ]);
    let d = only_error(check(&m, &b.file()));
    assert_eq!(message(&d), "undefined name `x`");
    assert_eq!(
        d.iter()
            .next()
            .unwrap()
            .labels()
            .unwrap()
            .next()
            .unwrap()
            .offset(),
        46
    );
}

#[test]
fn unused_bindings_are_warnings_and_underscore_silences_them() {
    let src =
        "let s = {r for (r, c) in P}\nlet t = {r for (r, _) in P}\nlet P = {}\nfn f(x, _y) = 1\n";
    let b = B::new(src);
    let m = b.model(vec![
        b.let_decl(
            b.id("s"),
            b.set_comp(b.name("r"), vec![b.for_(b.pats(&["r", "c"]), b.name("P"))]),
        ),
        b.let_decl(
            b.id("t"),
            b.set_comp(
                b.name("r"),
                vec![b.for_(
                    ast::Pattern::Tuple(
                        vec![b.pat("r"), ast::Pattern::Wildcard(b.tok("_"))],
                        Default::default(),
                    ),
                    b.name("P"),
                )],
            ),
        ),
        b.let_decl(b.id("P"), b.tuple(vec![])),
        b.fn_decl(b.id("f"), vec![b.id("x"), b.id("_y")], b.int(1)),
    ]);
    let c = check(&m, &b.file()).unwrap();
    let w: Vec<String> = c.warnings.iter().map(|d| d.to_string()).collect();
    assert_eq!(w, vec!["unused binding `c`", "unused binding `x`"]);
    assert!(!c.warnings.has_errors());
    assert_eq!(
        c.warnings
            .iter()
            .next()
            .unwrap()
            .code()
            .unwrap()
            .to_string(),
        "dlx::W0101"
    );
}
