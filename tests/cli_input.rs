//! Golden tests of input that cannot be read: not UTF-8 (E0901), for every kind of file
//! dlxc reads, or not there at all (E0902, a data file whose model is missing).
//!
//! Each file under `tests/ui/input/` is run by its extension: `.dlx` with `dlxc run`,
//! `.dlx1` with `dlxc solve`, `.mat` with `dlxc solve --matrix`, and `.txt` as a data
//! file for the model named on its first line (`# model: PATH [ARGS]`). The golden file
//! `*.stderr` holds stderr, stdout and the exit code. Bless with `DLXC_BLESS=1`.
//!
//! The inputs are not UTF-8, which the datatest harness of the other golden tests
//! cannot read, so this is one test that walks the folder.

use std::path::Path;

#[path = "common/cli.rs"]
mod cli;
#[path = "common/golden.rs"]
mod golden;

fn run_input(path: &Path) -> Result<(), String> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let args: Vec<String> = match path.extension().and_then(|e| e.to_str()) {
        Some("dlx") => vec!["run".into(), file],
        Some("dlx1") => vec!["solve".into(), file],
        Some("mat") => vec!["solve".into(), "--matrix".into(), file],
        Some("txt") => {
            let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
            let header = std::str::from_utf8(first)
                .ok()
                .and_then(|l| l.strip_prefix("# model:"))
                .ok_or("the first line must be `# model: PATH [ARGS]`")?;
            let mut words = header.split_whitespace().map(str::to_string);
            let model = words.next().ok_or("no model path")?;
            let mut args = vec!["run".into(), model, "--data".into(), file];
            args.extend(words);
            args
        }
        _ => return Ok(()),
    };
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    golden::check(path, &cli::dlxc(&args).transcript()).map_err(|e| e.to_string())
}

#[test]
fn input_that_is_not_utf8_gets_e0901() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui/input");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/ui/input exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e != "stderr"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 4, "{paths:?}");
    // Paths relative to the crate root, so the golden files do not depend on where
    // the repository is checked out.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let failures: Vec<String> = paths
        .iter()
        .filter_map(|p| run_input(p.strip_prefix(root).unwrap_or(p)).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
