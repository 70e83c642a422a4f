//! The diagnostic codes are the `Code` enum, made by `build.rs` from the pages of
//! `docs/errors` (so every code has its explanation by construction). What is left to
//! check: every code is one a user can meet (the sources emit it) and was reviewed (a
//! golden test shows its message), and the codes that miette's derive attributes write
//! as paths (`code(dlx::E0001)`, the one place a code cannot be a `Code` value) are
//! codes of the enum.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use dlxc::diag::Code;

/// Files below `dir` (recursively) whose names end in `ext`.
fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, ext, out);
        } else if path.to_string_lossy().ends_with(ext) {
            out.push(path);
        }
    }
}

/// The library's sources, without their `#[cfg(test)]` modules and test files: the
/// code a user's run goes through.
fn library_sources() -> String {
    let mut paths = Vec::new();
    files(Path::new("src"), ".rs", &mut paths);
    let mut all = String::new();
    for path in paths {
        let name = path.to_string_lossy();
        if path.components().any(|c| c.as_os_str() == "tests") || name.ends_with("_tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // The test module, which by the crate's habit closes the file.
        let tests = text.find("#[cfg(test)]\nmod ").unwrap_or(text.len());
        all.push_str(&text[..tests]);
        all.push('\n');
    }
    all
}

/// The codes written in a text as `prefix` + code (`Code::E0401`, `dlx::E0001`).
fn named(text: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in text.match_indices(prefix) {
        let code: String = text[at + prefix.len()..].chars().take(5).collect();
        let b = code.as_bytes();
        if b.len() == 5 && (b[0] == b'E' || b[0] == b'W') && b[1..].iter().all(u8::is_ascii_digit) {
            out.insert(code);
        }
    }
    out
}

#[test]
fn derive_attributes_name_codes_of_the_enum() {
    let derived = named(&library_sources(), "code(dlx::");
    assert!(derived.len() > 10, "found only {derived:?}");
    for code in &derived {
        assert!(
            code.parse::<Code>().is_ok(),
            "code(dlx::{code}) has no docs/errors/{code}.md, so it is no Code"
        );
    }
}

#[test]
fn every_code_is_emitted() {
    let src = library_sources();
    let emitted: BTreeSet<String> = named(&src, "Code::")
        .union(&named(&src, "code(dlx::"))
        .cloned()
        .collect();
    let unused: Vec<&str> = Code::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|c| !emitted.contains(*c))
        .collect();
    assert!(
        unused.is_empty(),
        "codes with a page in docs/errors that nothing emits: {unused:?}"
    );
}

#[test]
fn every_code_has_a_golden_test() {
    let mut goldens = Vec::new();
    files(Path::new("tests/ui"), ".stderr", &mut goldens);
    let mut shown = String::new();
    for g in goldens {
        shown.push_str(&std::fs::read_to_string(g).unwrap());
    }
    let missing: Vec<&str> = Code::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|c| !shown.contains(*c))
        .collect();
    assert!(
        missing.is_empty(),
        "codes with no golden test under tests/ui: {missing:?}"
    );
}
