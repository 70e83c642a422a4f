//! Golden files: compare a rendered text with the file next to the input, or rewrite
//! that file when `DLXC_BLESS=1` is set.
//!
//! The golden file of `tests/ui/<dir>/<name>.<ext>` is `tests/ui/<dir>/<name>.stderr`.

use std::path::{Path, PathBuf};

/// The golden file that belongs to an input file.
pub fn golden_path(input: &Path) -> PathBuf {
    input.with_extension("stderr")
}

/// Checks `actual` against the golden file of `input` (or blesses it).
pub fn check(input: &Path, actual: &str) -> datatest_stable::Result<()> {
    let golden = golden_path(input);
    if std::env::var_os("DLXC_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&golden, actual)?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(&golden).map_err(|e| {
        format!(
            "cannot read {}: {e}\nrun with DLXC_BLESS=1 to create it; the output is:\n{actual}",
            golden.display()
        )
    })?;
    if expected != actual {
        return Err(format!(
            "{} differs from the output\n--- expected\n{expected}\n--- actual\n{actual}\n\
             (run with DLXC_BLESS=1 to accept the new output after reviewing it)",
            golden.display()
        )
        .into());
    }
    Ok(())
}
