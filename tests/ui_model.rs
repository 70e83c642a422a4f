//! Golden tests of the diagnostics of models, through the `dlxc` binary.
//!
//! Each `tests/ui/check/*.dlx` is run with `dlxc check`, each `tests/ui/run/*.dlx` with
//! `dlxc run`, each `tests/ui/compile/*.dlx` with `dlxc compile`; a first line `# args: ...` adds arguments (split at spaces). The golden
//! file `*.stderr` holds what the user reads on stderr (no colour, 80 columns) and the
//! exit code. Bless with `DLXC_BLESS=1` after reading the new output.

use std::path::Path;

#[path = "common/cli.rs"]
mod cli;
#[path = "common/golden.rs"]
mod golden;

fn run_ui(path: &Path, command: &str) -> datatest_stable::Result<()> {
    let text = std::fs::read_to_string(path)?;
    let mut args = vec![command.to_string(), path.display().to_string()];
    if let Some(extra) = text.lines().next().and_then(|l| l.strip_prefix("# args:")) {
        args.extend(extra.split_whitespace().map(str::to_string));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = cli::dlxc(&args);
    let mut actual = r.stderr;
    if command == "run" && !r.stdout.is_empty() {
        actual.push_str("--- stdout\n");
        actual.push_str(&r.stdout);
    }
    actual.push_str(&format!("--- exit code {}\n", r.code));
    golden::check(path, &actual)
}

fn check(path: &Path) -> datatest_stable::Result<()> {
    run_ui(path, "check")
}

fn run(path: &Path) -> datatest_stable::Result<()> {
    run_ui(path, "run")
}

fn compile(path: &Path) -> datatest_stable::Result<()> {
    run_ui(path, "compile")
}

/// `tests/ui/data/*.txt` are data files for a shipped model named on their first line,
/// `# model: examples/pearl.dlx` (more arguments may follow the path).
fn data(path: &Path) -> datatest_stable::Result<()> {
    let text = std::fs::read_to_string(path)?;
    let header = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# model:"))
        .ok_or("the first line must be `# model: PATH [ARGS]`")?;
    let mut words = header.split_whitespace();
    let model = words.next().ok_or("no model path")?;
    let data = path.display().to_string();
    let mut args = vec!["run", model, "--data", &data];
    args.extend(words);
    golden::check(path, &cli::dlxc(&args).transcript())
}

datatest_stable::harness! {
    { test = check, root = "tests/ui/check", pattern = r"\.dlx$" },
    { test = run, root = "tests/ui/run", pattern = r"\.dlx$" },
    { test = compile, root = "tests/ui/compile", pattern = r"\.dlx$" },
    { test = data, root = "tests/ui/data", pattern = r"\.txt$" },
}
