//! Every diagnostic code the sources can emit has an explanation (`dlxc explain`) and
//! appears in at least one golden test, so every message a user can read was reviewed.

use std::collections::BTreeSet;
use std::path::Path;

/// Files below `dir` (recursively) whose names end in `ext`.
fn files(dir: &Path, ext: &str, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, ext, out);
        } else if path.to_string_lossy().ends_with(ext) {
            out.push(path);
        }
    }
}

/// The codes (`E0101`, `W0401`) written in a text.
fn codes_in(text: &str) -> BTreeSet<String> {
    let bytes = text.as_bytes();
    let mut out = BTreeSet::new();
    for i in 0..bytes.len().saturating_sub(4) {
        let lead = bytes[i];
        if (lead == b'E' || lead == b'W')
            && bytes[i + 1..i + 5].iter().all(u8::is_ascii_digit)
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
            && bytes.get(i + 5).is_none_or(|b| !b.is_ascii_alphanumeric())
        {
            out.insert(text[i..i + 5].to_string());
        }
    }
    out
}

/// Codes used by the library: quoted in string literals (`"E0401"`) or named as enum
/// codes in the diagnostic derive attributes (`code(dlx::E0001)`).
fn emitted_codes() -> BTreeSet<String> {
    let mut sources = Vec::new();
    files(Path::new("src"), ".rs", &mut sources);
    let mut out = BTreeSet::new();
    for path in sources {
        if path.components().any(|c| c.as_os_str() == "tests") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // Only code outside `#[cfg(test)]` modules counts.
        let text = text.split("#[cfg(test)]").next().unwrap_or("");
        for line in text.lines() {
            let l = line.trim_start();
            if l.starts_with("//") {
                continue;
            }
            if line.contains("\"E")
                || line.contains("\"W")
                || line.contains("dlx::")
                || line.contains("=> \"")
            {
                out.extend(codes_in(line));
            }
        }
    }
    out
}

#[test]
fn every_emitted_code_is_explained() {
    let emitted = emitted_codes();
    assert!(emitted.len() > 40, "found only {emitted:?}");
    for code in &emitted {
        assert!(
            dlxc::diag::explain(code).is_some(),
            "{code} has no docs/errors/{code}.md"
        );
    }
}

#[test]
fn every_emitted_code_has_a_golden_test() {
    let mut goldens = Vec::new();
    files(Path::new("tests/ui"), ".stderr", &mut goldens);
    let mut tested = BTreeSet::new();
    for g in goldens {
        tested.extend(codes_in(&std::fs::read_to_string(g).unwrap()));
    }
    let missing: Vec<String> = emitted_codes()
        .into_iter()
        .filter(|c| !tested.contains(c))
        .collect();
    assert!(
        missing.is_empty(),
        "codes with no golden test under tests/ui: {missing:?}"
    );
}
