//! Rendered text as the CLI and golden files show it, the order of errors, and
//! the explanation of every code.

use super::super::build::B;
use super::super::*;
use super::*;

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
