//! The examples of `docs/language.md`, `docs/builtins.md` and `docs/patterns.md` are
//! tests, so the reference cannot drift from the implementation.
//!
//! A ```` ```dlx ```` block followed by an ```` ```output ```` block is a model and
//! what `dlxc run` prints for it. Each line of a ```` ```dlx-expr ```` block is an
//! expression that must evaluate to `true`.

#[path = "common/cli.rs"]
mod cli;

use std::collections::HashMap;

use dlxc::lower::eval::Env;
use dlxc::lower::value::Value;
use dlxc::source::{SourceFile, Span};
use dlxc::syntax::ast::Model;

/// The fenced blocks of a markdown file: (info string, body, line of the fence).
fn blocks(text: &str) -> Vec<(String, String, usize)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String, usize)> = None;
    for (no, line) in text.lines().enumerate() {
        match (&mut current, line.strip_prefix("```")) {
            (None, Some(info)) => current = Some((info.trim().to_string(), String::new(), no + 1)),
            (Some(_), Some(_)) => out.extend(current.take()),
            (Some((_, body, _)), None) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    out
}

fn eval_true(expr: &str, where_: &str) {
    let src = SourceFile::new(where_, expr);
    let parsed = dlxc::syntax::parse_expr(&src)
        .unwrap_or_else(|d| panic!("{where_}: `{expr}` does not parse: {d:?}"));
    let empty = Model {
        decls: Vec::new(),
        span: Span::default(),
    };
    let mut env = Env::new(&empty, &src, HashMap::new());
    match env.eval(&parsed) {
        Ok(Value::Bool(true)) => {}
        Ok(other) => panic!("{where_}: `{expr}` is {other:#}, not true"),
        Err(e) => panic!("{where_}: `{expr}` fails: {}", e.message),
    }
}

fn check_doc(path: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let bs = blocks(&text);
    let mut checked = 0;
    for (k, (info, body, line)) in bs.iter().enumerate() {
        let at = format!("{path}:{line}");
        match info.as_str() {
            "dlx-expr" => {
                for (i, e) in body
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| !l.trim().is_empty())
                {
                    eval_true(e, &format!("{path}:{}", line + i + 1));
                    checked += 1;
                }
            }
            "dlx" => {
                let Some((next, expected, _)) = bs.get(k + 1) else {
                    continue;
                };
                if next != "output" {
                    continue;
                }
                let file = cli::temp_file("doc.dlx", body);
                let r = cli::dlxc(&["run", file.to_str().unwrap()]);
                assert_eq!(
                    &r.stdout, expected,
                    "{at}: the example prints something else\n{}",
                    r.stderr
                );
                checked += 1;
            }
            _ => {}
        }
    }
    checked
}

#[test]
fn language_reference_examples_hold() {
    assert!(check_doc("docs/language.md") >= 10);
}

#[test]
fn builtin_examples_hold() {
    assert!(check_doc("docs/builtins.md") >= 20);
}

#[test]
fn pattern_examples_hold() {
    assert!(check_doc("docs/patterns.md") >= 1);
}

#[test]
fn every_builtin_is_documented_with_an_example() {
    let doc = std::fs::read_to_string("docs/builtins.md").unwrap();
    let examples: Vec<String> = blocks(&doc)
        .into_iter()
        .filter(|(info, ..)| info == "dlx-expr")
        .flat_map(|(_, body, _)| body.lines().map(str::to_string).collect::<Vec<_>>())
        .collect();
    for &(name, ..) in dlxc::lower::builtins::SIGNATURES {
        assert!(
            doc.contains(&format!("| `{name}(")),
            "`{name}` has no row in the table"
        );
        let call = format!("{name}(");
        assert!(
            examples.iter().any(|l| l.starts_with(&call)),
            "`{name}` has no example line starting with it"
        );
    }
}
