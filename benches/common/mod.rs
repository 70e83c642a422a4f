//! What the benchmark binaries share.

#![allow(dead_code)] // each benchmark uses a different part of this module

/// The arguments given on the command line that are not flags (cargo passes `--bench`).
pub fn args() -> Vec<String> {
    std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect()
}

/// The case names given on the command line (`cargo bench --bench engine -- queens`):
/// a case runs when no name is given or when its name contains one of them.
pub fn wanted() -> impl Fn(&str) -> bool {
    let filters = args();
    move |name| filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()))
}

/// Whether `name` itself was given on the command line: for cases that run only when
/// asked for by name.
pub fn asked_for(name: &str) -> bool {
    std::env::args().skip(1).any(|a| a == name)
}

/// How many times to run each case: `DLXC_BENCH_RUNS`, or `default` when it is unset.
///
/// # Panics
///
/// If `DLXC_BENCH_RUNS` is set to anything but a positive number: a benchmark must not
/// quietly measure something else than it was asked to.
pub fn runs(default: usize) -> usize {
    match std::env::var("DLXC_BENCH_RUNS") {
        Err(_) => default,
        Ok(v) => v
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .unwrap_or_else(|| panic!("DLXC_BENCH_RUNS={v}: expected a positive number")),
    }
}
