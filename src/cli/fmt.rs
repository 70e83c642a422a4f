//! `dlxc fmt`: models rewritten in the house style (see [`crate::fmt`]).

use std::path::{Path, PathBuf};

use crate::cli::{EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_SOLVED, Out, read_source, report};

/// Formats each file in place (or standard input to standard output, for none or
/// `-`). With `check`, writes nothing: prints the name of each file that would change
/// and exits with 1 if there is one. A file that does not parse is reported and left
/// alone (exit 2).
pub fn fmt(o: &mut Out<'_>, files: &[PathBuf], check: bool) -> u8 {
    let stdin = [PathBuf::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    let mut bad = false;
    let mut changed = false;
    for path in files {
        let Some(src) = read_source(o, Some(path)) else {
            bad = true;
            continue;
        };
        let formatted = match crate::fmt::format(&src) {
            Ok(f) => f,
            Err(d) => {
                report(o, &d);
                bad = true;
                continue;
            }
        };
        let to_stdout = path == Path::new("-");
        if formatted == src.text() {
            if to_stdout && !check {
                o.text(&formatted);
            }
            continue;
        }
        changed = true;
        if check {
            o.line(src.name());
        } else if to_stdout {
            o.text(&formatted);
        } else if let Err(e) = std::fs::write(path, &formatted) {
            o.error(&format!("cannot write {}: {e}", path.display()));
            bad = true;
        }
    }
    if bad {
        EXIT_BAD_INPUT
    } else if check && changed {
        EXIT_NO_SOLUTION
    } else {
        EXIT_SOLVED
    }
}
