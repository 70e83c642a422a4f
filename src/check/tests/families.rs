//! Families, colors, cycles, recursion, objectives and parameter types.

use super::super::build::B;
use super::super::*;
use super::*;

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
            "expected an item family after `covers`, found an option family `put`",
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
            ("cell[r]".into(), "1 index given".into()),
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
                "the types are `int`, `bool`, `str`, `list`, `set`, `map`, `grid`, `ints` and `cells`"
                    .into()
            ),
        ]
    );
    assert_eq!(
        codes(&Err(d)),
        vec!["dlx::E0201", "dlx::E0202", "dlx::E0202", "dlx::E0201"]
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
