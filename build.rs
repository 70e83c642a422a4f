//! Collects the explain texts in `docs/errors/*.md` into a table compiled into the
//! library, so `dlxc explain E0101` works offline, and makes the crate's one list of
//! diagnostic codes from the same pages: the `Code` enum (`src/diag/code.rs`), one
//! variant per page. A code exists when its explanation does, so no diagnostic can be
//! emitted without one.

use std::fmt::Write as _;
use std::{env, fs, path::Path};

fn main() {
    let dir = Path::new("docs/errors");
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut codes: Vec<String> = fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .filter_map(|e| {
                    let name = e.file_name().into_string().ok()?;
                    name.strip_suffix(".md").map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default();
    codes.sort();
    let mut out = String::from("/// Every diagnostic code with its explanation, sorted by code.\n");
    out.push_str("pub static EXPLANATIONS: &[(&str, &str)] = &[\n");
    for code in &codes {
        let path = fs::canonicalize(dir.join(format!("{code}.md"))).expect("readable file");
        println!("cargo::rerun-if-changed={}", path.display());
        writeln!(
            out,
            "    ({code:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    out.push_str("];\n");
    let out_dir = env::var("OUT_DIR").unwrap();
    fs::write(Path::new(&out_dir).join("explanations.rs"), out).unwrap();
    fs::write(Path::new(&out_dir).join("codes.rs"), code_enum(dir, &codes)).unwrap();
}

/// The `Code` enum: a variant per page, documented by the page's title line
/// (`# E0401: option covers an undeclared item`), with its name and title as text.
fn code_enum(dir: &Path, codes: &[String]) -> String {
    let mut out = String::new();
    out.push_str(
        "/// A diagnostic code: one per page of `docs/errors`, where it is explained.\n\
         #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\n\
         pub enum Code {\n",
    );
    let mut titles = Vec::new();
    for code in codes {
        let text = fs::read_to_string(dir.join(format!("{code}.md"))).unwrap_or_default();
        let first = text.lines().next().unwrap_or("");
        let title = first
            .trim_start_matches('#')
            .trim()
            .trim_start_matches(code.as_str())
            .trim_start_matches(':')
            .trim()
            .to_string();
        writeln!(
            out,
            "    /// {}",
            if title.is_empty() { code } else { &title }
        )
        .unwrap();
        writeln!(out, "    {code},").unwrap();
        titles.push(title);
    }
    out.push_str(
        "}\n\nimpl Code {\n    /// Every code, in order.\n    pub const ALL: &[Code] = &[\n",
    );
    for code in codes {
        writeln!(out, "        Code::{code},").unwrap();
    }
    out.push_str("    ];\n\n    /// The code as written: `E0401`.\n    pub const fn as_str(self) -> &'static str {\n        match self {\n");
    for code in codes {
        writeln!(out, "            Code::{code} => {code:?},").unwrap();
    }
    out.push_str("        }\n    }\n\n    /// The title of its page: what the mistake is, in a few words.\n    pub const fn title(self) -> &'static str {\n        match self {\n");
    for (code, title) in codes.iter().zip(&titles) {
        writeln!(out, "            Code::{code} => {title:?},").unwrap();
    }
    out.push_str("        }\n    }\n}\n");
    out
}
