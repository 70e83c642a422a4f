//! Collects the explain texts in `docs/errors/*.md` into a table compiled into the
//! library, so `dlxc explain E0101` works offline and a test can check that every
//! diagnostic code has its text.

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
    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("explanations.rs");
    fs::write(dest, out).unwrap();
}
