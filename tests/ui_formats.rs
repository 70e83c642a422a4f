//! Golden tests of the diagnostics of the text formats: each file under
//! `tests/ui/knuth/`, `tests/ui/matrix/` and `tests/ui/ec/` is a malformed problem, and the `.stderr`
//! file next to it is what `dlxc` prints for it. Bless with `DLXC_BLESS=1`.

use std::path::Path;

use dlxc::diag::{Diagnostics, RenderStyle, render_all};
use dlxc::format::{ec, knuth, matrix};
use dlxc::source::SourceFile;

#[path = "common/golden.rs"]
mod golden;

/// Reads `path` with `read` and checks the rendered diagnostics.
fn check(
    path: &Path,
    text: String,
    read: fn(&SourceFile) -> Result<dlxc::problem::Problem, Diagnostics>,
) -> datatest_stable::Result<()> {
    // The display name is the path relative to `tests/ui`, so the golden files do not
    // depend on where the repository is checked out.
    let name = path
        .to_string_lossy()
        .replace('\\', "/")
        .rsplit("tests/ui/")
        .next()
        .unwrap_or_default()
        .to_string();
    let src = SourceFile::new(name, text);
    match read(&src) {
        Ok(_) => Err(format!("{} should not read without errors", path.display()).into()),
        Err(diags) => golden::check(path, &render_all(&diags, RenderStyle::GOLDEN)),
    }
}

fn knuth_file(path: &Path, text: String) -> datatest_stable::Result<()> {
    check(path, text, knuth::read)
}

fn matrix_file(path: &Path, text: String) -> datatest_stable::Result<()> {
    check(path, text, matrix::read)
}

fn ec_file(path: &Path, text: String) -> datatest_stable::Result<()> {
    check(path, text, ec::read)
}

datatest_stable::harness! {
    { test = knuth_file, root = "tests/ui/knuth", pattern = r"\.txt$" },
    { test = matrix_file, root = "tests/ui/matrix", pattern = r"\.txt$" },
    { test = ec_file, root = "tests/ui/ec", pattern = r"\.txt$" },
}
