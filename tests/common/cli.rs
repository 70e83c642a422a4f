//! Running the `dlxc` binary from tests.

#![allow(dead_code)] // each test binary uses a different part of this helper

use std::path::PathBuf;
use std::process::Command;

/// What a run of `dlxc` printed and returned.
pub struct Run {
    /// The exit code (`-1` if killed by a signal).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// What a golden file holds: stderr, then stdout (if any) after `--- stdout`, then
    /// the exit code.
    pub fn transcript(&self) -> String {
        let mut t = self.stderr.clone();
        if !self.stdout.is_empty() {
            t.push_str("--- stdout\n");
            t.push_str(&self.stdout);
        }
        t.push_str(&format!("--- exit code {}\n", self.code));
        t
    }
}

/// Runs the `dlxc` binary built for this test run, from the crate root, without colour.
pub fn dlxc(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_dlxc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("dlxc runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A file of the shared data sets (`../shared/data/` beside the repository).
pub fn shared_data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(path)
}

/// Writes a file in this test run's scratch directory and returns its path. Names are
/// made unique per process and call, so tests running in parallel do not collide.
pub fn temp_file(name: &str, contents: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let k = COUNTER.fetch_add(1, Ordering::Relaxed);
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{}-{k}-{name}", std::process::id()));
    std::fs::write(&path, contents).expect("scratch file is writable");
    path
}

/// Splits text output into blocks (grids, option lists) separated by blank lines.
pub fn grids(stdout: &str) -> Vec<Vec<String>> {
    stdout
        .split("\n\n")
        .map(|b| b.lines().map(str::to_string).collect::<Vec<_>>())
        .filter(|g| !g.is_empty())
        .collect()
}
