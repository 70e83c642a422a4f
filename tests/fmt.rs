//! `dlxc fmt`: every model in the repository formatted twice, the second time changing
//! nothing, with the same tokens and comments, and (for the models that compile with
//! their defaults) the same matrix fingerprint; and the command line's `--check`.

#[path = "common/cli.rs"]
mod cli;

use std::path::{Path, PathBuf};

use cli::{dlxc, temp_file};
use dlxc::fmt::format;
use dlxc::fmt::lex::{Kind, lex};
use dlxc::session::Front;
use dlxc::source::SourceFile;

/// Every `.dlx` file of the repository (examples, fixtures, golden-test inputs).
fn models() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name();
            if p.is_dir() {
                if name != "target" && name != ".git" && name != "node_modules" {
                    walk(&p, out);
                }
            } else if p.extension().is_some_and(|x| x == "dlx") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for dir in ["examples", "tests", "python", "docs"] {
        walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), &mut out);
    }
    out.sort();
    out
}

/// The tokens' texts, comments without trailing whitespace.
fn words(text: &str) -> Vec<String> {
    lex(text)
        .into_iter()
        .map(|t| match t.kind {
            Kind::Comment => t.text(text).trim_end().to_string(),
            _ => t.text(text).to_string(),
        })
        .collect()
}

/// The fingerprint of the model's matrix with its defaults and its forced options,
/// when it compiles (small ones only: the test formats, it does not benchmark).
fn fingerprint(src: SourceFile) -> Option<String> {
    let front = Front::load(src).ok()?;
    let mut lowerer = front.lowerer(&[], false, 200_000).ok()?;
    let inst = lowerer.instance(None).ok()?;
    Some(inst.problem().fingerprint(&inst.forced))
}

#[test]
fn every_model_formats_to_a_fixed_point_with_the_same_matrix() {
    let (mut formatted, mut compiled) = (0, 0);
    for path in models() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue; // a golden test of a file that is not UTF-8
        };
        let name = path.display().to_string();
        let Ok(once) = format(&SourceFile::new(name.clone(), text.clone())) else {
            continue; // a golden test of a syntax error
        };
        formatted += 1;
        let twice = format(&SourceFile::new(name.clone(), once.clone())).unwrap();
        assert_eq!(twice, once, "{name}: formatting twice changed it");
        assert_eq!(words(&once), words(&text), "{name}: the tokens changed");
        let before = fingerprint(SourceFile::new(name.clone(), text));
        let after = fingerprint(SourceFile::new(name.clone(), once));
        assert_eq!(before, after, "{name}: the matrix changed");
        compiled += usize::from(before.is_some());
    }
    eprintln!("{formatted} models formatted twice, {compiled} of them compiled");
    // The examples alone are over twenty models that all compile.
    assert!(formatted >= 80, "only {formatted} models formatted");
    assert!(compiled >= 30, "only {compiled} models compiled");
}

#[test]
fn check_lists_the_files_that_would_change_and_exits_1() {
    let good = temp_file("good.dlx", "param n = 3\nitem x[i] for i in 0..n\n");
    let ugly = temp_file("ugly.dlx", "param n=3\nitem x[ i ] for i in 0..n\n");
    let (good, ugly) = (good.to_str().unwrap(), ugly.to_str().unwrap());
    let r = dlxc(&["fmt", "--check", good, ugly]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (1, format!("{ugly}\n").as_str())
    );
    let r = dlxc(&["fmt", "--check", good]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    // Without --check the file is rewritten, and then it passes.
    let r = dlxc(&["fmt", ugly]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(ugly).unwrap(),
        "param n = 3\nitem x[i] for i in 0..n\n"
    );
    assert_eq!(dlxc(&["fmt", "--check", ugly]).code, 0);
}

#[test]
fn a_file_that_does_not_parse_is_reported_and_left_alone() {
    let bad = temp_file("bad.dlx", "item x[\n");
    let r = dlxc(&["fmt", bad.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("E00"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "item x[\n");
}

#[test]
fn standard_input_is_formatted_to_standard_output() {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dlxc"))
        .args(["fmt", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"let a=1 # one\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "let a = 1 # one\n");
    assert!(out.status.success());
}
