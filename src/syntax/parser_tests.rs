//! Unit tests of the parser: precedence, spans, literals, the acceptance models, and
//! that no input makes it panic.

use super::*;

fn src(text: &str) -> SourceFile {
    SourceFile::new("test.dlx", text)
}

fn expr(text: &str) -> Expr {
    parse_expr(&src(text)).unwrap_or_else(|d| panic!("{text}: {d:?}"))
}

/// A compact prefix form of an expression, so precedence reads at a glance.
fn show(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(v) => v.to_string(),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Str(s) => format!("{s:?}"),
        ExprKind::Name(i) => i.name.clone(),
        ExprKind::Tuple(xs) => format!("(tuple {})", list(xs)),
        ExprKind::List(xs) => format!("(list {})", list(xs)),
        ExprKind::Set(xs) => format!("(set {})", list(xs)),
        ExprKind::Map(kv) => {
            let kv: Vec<String> = kv
                .iter()
                .map(|(k, v)| format!("{}:{}", show(k), show(v)))
                .collect();
            format!("(map {})", kv.join(" "))
        }
        ExprKind::ListComp { elem, clauses } => format!("(listc {} {})", show(elem), cl(clauses)),
        ExprKind::SetComp { elem, clauses } => format!("(setc {} {})", show(elem), cl(clauses)),
        ExprKind::MapComp {
            key,
            value,
            clauses,
        } => format!("(mapc {}:{} {})", show(key), show(value), cl(clauses)),
        ExprKind::Unary { op, expr } => {
            let op = if *op == UnaryOp::Neg { "neg" } else { "not" };
            format!("({op} {})", show(expr))
        }
        ExprKind::Binary { op, lhs, rhs, .. } => {
            format!("({} {} {})", op.symbol(), show(lhs), show(rhs))
        }
        ExprKind::Range { lo, hi, inclusive } => {
            let op = if *inclusive { "..=" } else { ".." };
            format!("({op} {} {})", show(lo), show(hi))
        }
        ExprKind::Call { func, args } => format!("({} {})", func.name, list(args)),
        ExprKind::Index { base, index } => format!("([] {} {})", show(base), show(index)),
        ExprKind::If {
            cond,
            then,
            otherwise,
        } => format!("(if {} {} {})", show(cond), show(then), show(otherwise)),
    }
}

fn list(xs: &[Expr]) -> String {
    xs.iter().map(show).collect::<Vec<_>>().join(" ")
}

fn cl(cs: &[Clause]) -> String {
    cs.iter()
        .map(|c| match c {
            Clause::For { pat, iter, .. } => format!("for {} in {}", pat_show(pat), show(iter)),
            Clause::Where(e) => format!("where {}", show(e)),
            Clause::Let { pat, value, .. } => format!("let {} = {}", pat_show(pat), show(value)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn pat_show(p: &Pattern) -> String {
    match p {
        Pattern::Name(i) => i.name.clone(),
        Pattern::Wildcard(_) => "_".into(),
        Pattern::Tuple(ps, _) => format!(
            "({})",
            ps.iter().map(pat_show).collect::<Vec<_>>().join(" ")
        ),
    }
}

#[track_caller]
fn check(text: &str, want: &str) {
    assert_eq!(show(&expr(text)), want, "parsing {text}");
}

#[test]
fn precedence() {
    check("a + b * c", "(+ a (* b c))");
    check("a * b + c", "(+ (* a b) c)");
    check("a - b - c", "(- (- a b) c)");
    check("not x in s", "(not (in x s))");
    check("not a and b", "(and (not a) b)");
    check("a or b and c", "(or a (and b c))");
    check("0..n-1", "(.. 0 (- n 1))");
    check("0..=n-s", "(..= 0 (- n s))");
    check("-x[i]", "(neg ([] x i))");
    check("puzzle[r][c]", "([] ([] puzzle r) c)");
    check("a | b & c", "(| a (& b c))");
    check("a & b + c", "(& a (+ b c))");
    check("m not in missing", "(not in m missing)");
    check("x in a | b", "(in x (| a b))");
    check("r / n * n + c / n", "(+ (* (/ r n) n) (/ c n))");
    check("if a then b else if c then d else e", "(if a b (if c d e))");
    check("-2 % 3", "(% (neg 2) 3)");
    check("f(x)[0]", "([] (f x) 0)");
}

#[test]
fn literals_and_brackets() {
    check("1_000_000", "1000000");
    check("-9_223_372_036_854_775_808", "-9223372036854775808");
    check("-9223372036854775807", "(neg 9223372036854775807)");
    assert!(parse_expr(&src("9223372036854775808")).is_err());
    assert!(parse_expr(&src("-(9223372036854775808)")).is_err());
    assert!(parse_expr(&src("1 - 9223372036854775808")).is_err());
    check(r#""a\tb""#, "\"a\\tb\"");
    check("(a)", "a");
    check("(a,)", "(tuple a)");
    check("(a, b)", "(tuple a b)");
    check("()", "(tuple )");
    check("[]", "(list )");
    check("[1, 2,]", "(list 1 2)");
    check("{}", "(set )");
    check("{1}", "(set 1)");
    check("{1, 2}", "(set 1 2)");
    check("{\"a\": 1, \"b\": 2,}", "(map \"a\":1 \"b\":2)");
    check(
        "[x * 2 for x in s where x > 1]",
        "(listc (* x 2) for x in s, where (> x 1))",
    );
    check(
        "{(r, c) for r in 0..10, c in 0..=r}",
        "(setc (tuple r c) for r in (.. 0 10), for c in (..= 0 r))",
    );
    check("{k: v for (k, v) in m}", "(mapc k:v for (k v) in m)");
    check(
        "all(x == 1 for x in s)",
        "(all (listc (== x 1) for x in s))",
    );
    check("f()", "(f )");
    check("f(a, b,)", "(f a b)");
    check(
        "[y for x in s let y = x + 1]",
        "(listc y for x in s, let y = (+ x 1))",
    );
    check("[1 for _ in s]", "(listc 1 for _ in s)");
    check("[x for (x) in s]", "(listc x for x in s)");
    check("[x for (x,) in s]", "(listc x for (x) in s)");
}

#[test]
fn spans_slice_to_their_text() {
    let text = "f(alpha, (b + c))[0]";
    let e = expr(text);
    assert_eq!(e.span.slice(text), text);
    let ExprKind::Index { base, .. } = &e.kind else {
        panic!()
    };
    let ExprKind::Call { func, args } = &base.kind else {
        panic!()
    };
    assert_eq!(func.span.slice(text), "f");
    assert_eq!(args[0].span.slice(text), "alpha");
    assert_eq!(args[1].span.slice(text), "(b + c)");
    let ExprKind::Binary { op_span, lhs, .. } = &args[1].kind else {
        panic!()
    };
    assert_eq!(op_span.slice(text), "+");
    assert_eq!(lhs.span.slice(text), "b");

    let model = "param n = 3\n\nitem cell[r]  for r in 0..n : 1..\n";
    let m = parse(&src(model)).unwrap();
    let Decl::Item(item) = &m.decls[1] else {
        panic!()
    };
    assert_eq!(item.name.span.slice(model), "cell");
    assert_eq!(item.span.slice(model), "item cell[r]  for r in 0..n : 1..");
    let Clause::For { span, pat, .. } = &item.clauses[0] else {
        panic!()
    };
    assert_eq!(span.slice(model), "r in 0..n");
    assert_eq!(pat.span().slice(model), "r");
    assert_eq!(m.decls[0].span().slice(model), "param n = 3");
}

#[test]
fn block_strings_are_dedented() {
    let text = "let s = \"\"\"\n    ..O\n    .OO\n    \"\"\"\nlet t = 1";
    let m = parse(&src(text)).unwrap();
    let Decl::Let(l) = &m.decls[0] else { panic!() };
    assert_eq!(l.value.kind, ExprKind::Str("..O\n.OO".into()));
    assert_eq!(m.decls.len(), 2);
    // Backslashes are plain text in a block.
    check("\"\"\"a\\qb\"\"\"", "\"a\\\\qb\"");
}

fn kinds(text: &str) -> Vec<&'static str> {
    let m = parse(&src(text)).unwrap_or_else(|d| panic!("{d:?}"));
    m.decls
        .iter()
        .map(|d| match d {
            Decl::Param(_) => "param",
            Decl::Let(_) => "let",
            Decl::Fn(_) => "fn",
            Decl::Item(_) => "item",
            Decl::Option(_) => "option",
            Decl::Force(_) => "force",
            Decl::Objective(_) => "objective",
            Decl::Canvas(_) => "canvas",
            Decl::Draw(_) => "draw",
            Decl::Assert(_) => "assert",
            Decl::Symmetry(_) => "symmetry",
        })
        .collect()
}

const SUDOKU: &str = include_str!("../../tests/fixtures/sudoku.dlx");
const PEARL: &str = include_str!("../../tests/fixtures/pearl.dlx");
const MATCHSTICKS: &str = include_str!("../../tests/fixtures/matchsticks.dlx");

#[test]
fn design_models_parse() {
    assert_eq!(
        kinds(SUDOKU),
        [
            "param", "param", "let", "param", "fn", "item", "item", "item", "item", "option",
            "force"
        ]
    );
    assert_eq!(
        kinds(PEARL),
        ["param", "let", "let", "fn", "item", "item", "option"]
    );
    assert_eq!(
        kinds(MATCHSTICKS),
        [
            "param",
            "param",
            "let",
            "fn",
            "fn",
            "fn",
            "let",
            "item",
            "option",
            "objective"
        ]
    );
}

#[test]
fn sudoku_details() {
    let m = parse(&src(SUDOKU)).unwrap();
    let Decl::Param(p) = &m.decls[3] else {
        panic!()
    };
    let ty = p.ty.as_ref().unwrap();
    assert_eq!(ty.name.name, "grid");
    assert_eq!(ty.args.len(), 2);
    let Decl::Option(o) = &m.decls[9] else {
        panic!()
    };
    assert_eq!(o.clauses.len(), 3);
    assert_eq!(o.covers.len(), 4);
    assert_eq!(o.paints.len(), 1);
    assert_eq!(show(&o.paints[0].cell), "(tuple r c)");
    let Decl::Force(f) = &m.decls[10] else {
        panic!()
    };
    assert_eq!(show(&f.index[2]), "([] ([] puzzle r) c)");
    assert_eq!(
        cl(&f.clauses),
        "for r in (.. 0 N), for c in (.. 0 N), where (in ([] ([] puzzle r) c) alphabet)"
    );
}

#[test]
fn pearl_details() {
    let m = parse(&src(PEARL)).unwrap();
    let Decl::Let(pieces) = &m.decls[2] else {
        panic!()
    };
    let ExprKind::Map(entries) = &pieces.value.kind else {
        panic!()
    };
    assert_eq!(entries.len(), 12);
    let Decl::Option(o) = &m.decls[6] else {
        panic!()
    };
    // Three generators, a let, a where.
    assert_eq!(o.clauses.len(), 5);
    assert!(matches!(o.clauses[3], Clause::Let { .. }));
    assert_eq!(o.covers.len(), 2);
    assert_eq!(cl(&o.covers[1].clauses), "for (x y) in at");
    assert_eq!(cl(&o.paints[0].clauses), "for (x y) in at");
}

#[test]
fn matchsticks_details() {
    let m = parse(&src(MATCHSTICKS)).unwrap();
    let Decl::Item(i) = &m.decls[7] else { panic!() };
    assert!(matches!(
        &i.bounds,
        Some(BoundsExpr::Range { hi: None, .. })
    ));
    let Decl::Option(o) = &m.decls[8] else {
        panic!()
    };
    assert_eq!(
        cl(&o.clauses),
        "for m in (..= 1 (* (* 2 n) (+ n 1))), where (not in m missing)"
    );
    assert_eq!(
        cl(&o.covers[0].clauses),
        "for (s r c) in squares, where (in m (sticks s r c))"
    );
    let Decl::Objective(obj) = &m.decls[9] else {
        panic!()
    };
    assert_eq!(obj.kind, ObjectiveKind::MinimizeCount);
}

#[test]
fn declarations() {
    let m = parse(&src(
        "secondary item a\ncolored item b[i] for i in s : 2\nitem c : 1..3\n\
         option o covers a = 1, b[i] for i in s let j = i, c cost 5 paint (0, 0) = \"x\"\n\
         maximize cost minimize cost\nlet x = 1",
    ))
    .unwrap();
    assert_eq!(m.decls.len(), 7);
    let Decl::Item(a) = &m.decls[0] else { panic!() };
    assert_eq!(a.class, ItemClass::Secondary);
    let Decl::Item(b) = &m.decls[1] else { panic!() };
    assert_eq!(b.class, ItemClass::Colored);
    assert!(matches!(&b.bounds, Some(BoundsExpr::Exactly(_))));
    let Decl::Option(o) = &m.decls[3] else {
        panic!()
    };
    assert_eq!(o.covers.len(), 3);
    assert!(o.covers[0].color.is_some());
    assert_eq!(o.covers[1].clauses.len(), 2);
    assert!(o.cost.is_some());
    let Decl::Objective(obj) = &m.decls[4] else {
        panic!()
    };
    assert_eq!(obj.kind, ObjectiveKind::MaximizeCost);
    // A trailing `let` is the next declaration, not a clause of the last one.
    let m = parse(&src("force f[i] for i in s\nlet y = 2")).unwrap();
    assert_eq!(m.decls.len(), 2);
    let Decl::Force(f) = &m.decls[0] else {
        panic!()
    };
    assert_eq!(f.clauses.len(), 1);
}

#[test]
fn collected_errors() {
    let text = "let a = \"\\q\" + 99999999999999999999\nlet b = \"\\z\"\nmaximize count";
    let d = parse(&src(text)).unwrap_err();
    assert_eq!(d.len(), 4);
    let d = parse(&src("let a = 1 < 2 < 3")).unwrap_err();
    assert_eq!(d.len(), 1);
    assert!(parse(&src("let a = (1 < 2) < 3")).is_ok());
    assert!(parse(&src("let a = 1 < 2 == true")).is_err());
    assert!(parse(&src("option o for i in s")).is_err());
    assert!(parse(&src("option o covers")).is_err());
}

#[test]
fn no_panic_on_prefixes_and_noise() {
    for end in 0..=SUDOKU.len() {
        if SUDOKU.is_char_boundary(end) {
            let _ = parse(&src(&SUDOKU[..end]));
        }
    }
    let mut rng = crate::testing::Rng(0x9E37_79B9_7F4A_7C15);
    let mut next = || rng.next_u64();
    let alphabet: Vec<char> = "()[]{}<>=!.,:;+-*/%|&\"\\#_ \n\tazAZ09 for in let not ééé"
        .chars()
        .collect();
    for _ in 0..300 {
        let len = (next() % 60) as usize;
        let text: String = (0..len)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect();
        let _ = parse(&src(&text));
        let _ = parse_expr(&src(&text));
    }
    let deep = "(".repeat(100_000);
    assert!(parse_expr(&src(&deep)).is_err());
    let negs = format!("{}1", "-".repeat(100_000));
    assert!(parse_expr(&src(&negs)).is_err());
    let nots = format!("{}1", "not ".repeat(10_000));
    assert!(parse_expr(&src(&nots)).is_err());
}

#[test]
fn lets_at_the_end_of_a_declaration() {
    // A trailing `let NAME` is the next declaration, not a clause of the last one.
    let m = parse(&src("force f[i] for i in s\nlet y = 2")).unwrap();
    assert_eq!(m.decls.len(), 2);
    // A `let` followed by a clause is a clause.
    let m = parse(&src(
        "item a[j] for i in s let j = i where j > 0\nlet y = 2",
    ))
    .unwrap();
    let Decl::Item(a) = &m.decls[0] else { panic!() };
    assert_eq!(a.clauses.len(), 3);
    // A destructuring `let` is always a clause.
    let text = "option o covers h[x, y] for p in at let (x, y) = p\nlet y = 2";
    let m = parse(&src(text)).unwrap();
    assert_eq!(m.decls.len(), 2);
    let Decl::Option(o) = &m.decls[0] else {
        panic!()
    };
    assert_eq!(cl(&o.covers[0].clauses), "for p in at, let (x y) = p");
}

#[test]
fn symmetry_declarations_parse_into_maps() {
    let text = "let symmetry = 2\n\
                symmetry cell[r, _] -> cell[r, symmetry - r] where r > 0,\n\
                \x20        piece[\"A\"] -> piece[\"B\"], mark -> mark\n";
    let m = parse(&src(text)).unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(m.decls.len(), 2, "`symmetry` is still a name elsewhere");
    let Decl::Symmetry(s) = &m.decls[1] else {
        panic!("{:?}", m.decls[1])
    };
    assert_eq!(s.maps.len(), 3);
    let first = &s.maps[0];
    assert_eq!(
        (first.from.name.as_str(), first.to.name.as_str()),
        ("cell", "cell")
    );
    let pats: Vec<String> = first
        .pattern
        .iter()
        .map(|p| match p {
            IndexPattern::Bind(p) => pat_show(p),
            IndexPattern::Literal(e) => show(e),
        })
        .collect();
    assert_eq!(pats, ["r", "_"]);
    assert_eq!(list(&first.index), "r (- symmetry r)");
    assert_eq!(first.filter.as_ref().map(show).as_deref(), Some("(> r 0)"));
    assert!(matches!(&s.maps[1].pattern[..], [IndexPattern::Literal(_)]));
    assert!(s.maps[2].pattern.is_empty() && s.maps[2].index.is_empty());
    assert_eq!(
        &text[s.span.start as usize..s.span.end as usize],
        text[17..].trim_end()
    );
}

#[test]
fn draw_declarations_set_the_shape_regions_and_notes() {
    let text = "draw cells hex\ndraw region (r, c) = r / 3 for r in 0..9, c in 0..9\ndraw note (0, 0) = 5\nparam cells = 3";
    assert_eq!(kinds(text), ["draw", "draw", "draw", "param"]);
    let m = parse(&src(text)).unwrap();
    let what: Vec<&Draw> = m
        .decls
        .iter()
        .filter_map(|d| match d {
            Decl::Draw(d) => Some(&d.what),
            _ => None,
        })
        .collect();
    assert!(matches!(what[0], Draw::Cells(shape, _) if shape == "hex"));
    assert!(matches!(what[1], Draw::Region(p) if p.clauses.len() == 2));
    assert!(matches!(what[2], Draw::Note(p) if p.clauses.is_empty()));
    // `cells` and `region` stay names elsewhere; `draw` is reserved.
    assert!(parse(&src("param draw = 1")).is_err());
}
