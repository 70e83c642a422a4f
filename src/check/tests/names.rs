//! Names, scopes, calls and unused bindings.

use super::super::build::B;
use super::super::*;
use super::*;

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
    let first = d.iter().next().unwrap();
    assert_eq!(first.code().unwrap().to_string(), "dlx::E0102");
    let spans: Vec<(usize, String)> = first
        .labels()
        .unwrap()
        .map(|l| (l.offset(), l.label().unwrap().to_string()))
        .collect();
    // The primary label is on `fn n`, the secondary on `param n`.
    assert_eq!(
        spans,
        vec![
            (25, "`n` defined again here".into()),
            (6, "first defined here".into())
        ]
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
            "wrong number of arguments to `shift`: expected at least 2, found 1",
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
    assert_eq!(
        helps[0],
        "`N` is a value: index it with `N[...]`, or define a function with `fn name(x) = ...`"
    );
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

#[test]
fn family_bindings_reach_cost_and_paint_but_entry_bindings_do_not() {
    let src = "let holes = {}\nitem hole[x, y] for (x, y) in holes\n\
               option place[p] for p in holes\n    let at = p\n    covers hole[x, y] for (x, y) in at\n    \
               cost len(at)\n    paint (x, y) = p for (x, y) in at\n    paint (x, y) = p\n";
    let b = B::new(src);
    let holes = b.let_decl(b.id("holes"), b.set(vec![]));
    let item = b.item(
        ItemClass::Primary,
        b.id("hole"),
        vec![b.name("x"), b.name("y")],
        vec![b.for_(b.pats(&["x", "y"]), b.name("holes"))],
    );
    let option = b.option(
        b.id("place"),
        vec![b.name("p")],
        vec![
            b.for_(b.pat("p"), b.name("holes")),
            b.let_(b.pat("at"), b.name("p")),
        ],
        vec![b.cover(
            b.id("hole"),
            vec![b.name("x"), b.name("y")],
            None,
            vec![b.for_(b.pats(&["x", "y"]), b.name("at"))],
        )],
    );
    let cost = b.call(b.id("len"), vec![b.name("at")]);
    let paints = vec![
        b.paint(
            b.tuple(vec![b.name("x"), b.name("y")]),
            b.name("p"),
            vec![b.for_(b.pats(&["x", "y"]), b.name("at"))],
        ),
        b.paint(b.tuple(vec![b.name("x"), b.name("y")]), b.name("p"), vec![]),
    ];
    let option = b.with(option, None, Some(cost), paints);
    let m = b.model(vec![holes, item, option]);
    let d = check(&m, &b.file()).unwrap_err();
    let msgs: Vec<String> = d.iter().map(|d| d.to_string()).collect();
    assert_eq!(msgs, vec!["undefined name `x`", "undefined name `y`"]);
    let offsets: Vec<usize> = d
        .iter()
        .map(|d| d.labels().unwrap().next().unwrap().offset())
        .collect();
    let last_paint = src.rfind("paint (x, y)").unwrap();
    assert_eq!(offsets, vec![last_paint + 7, last_paint + 10]);
}

#[test]
fn undefined_name_in_a_function_suggests_a_parameter() {
    let src = "fn box_of(r) = r / n + c\n";
    let b = B::new(src);
    let (name, params) = (b.id("box_of"), vec![b.id("r")]);
    let body = b.bin(
        b.bin(b.name("r"), Op::Div, b.name("n")),
        Op::Add,
        b.name("c"),
    );
    let m = b.model(vec![b.fn_decl(name, params, body)]);
    let d = check(&m, &b.file()).unwrap_err();
    let helps: Vec<String> = d.iter().map(|d| d.help().unwrap().to_string()).collect();
    // A one-letter name is not "corrected" into another one-letter name.
    assert!(helps[0].starts_with("define it: `let n = ...`"));
    assert_eq!(
        helps[1],
        "define it: `let c = ...` for a value, `param c` for an input, or add `c` to the \
         parameters of `box_of`"
    );
}
