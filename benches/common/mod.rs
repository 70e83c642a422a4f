//! What the benchmark binaries share.

/// The case names given on the command line (`cargo bench --bench engine -- queens`):
/// a case runs when no name is given or when its name contains one of them.
pub fn wanted() -> impl Fn(&str) -> bool {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    move |name| filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()))
}

/// Whether `name` itself was given on the command line: for cases that run only when
/// asked for by name.
#[allow(dead_code)] // not every benchmark has such cases
pub fn asked_for(name: &str) -> bool {
    std::env::args().skip(1).any(|a| a == name)
}
