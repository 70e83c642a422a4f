//! Python bindings of dlxc: the `dlxc._dlxc` extension module, wrapped by the `dlxc`
//! package (`pysrc/dlxc`).
//!
//! Models load through `dlxc::session`, as on the command line, so diagnostics are the
//! same; searches run on worker threads ([`search`]) so the GIL is free while they run
//! and Ctrl-C stops them.

#![forbid(unsafe_code)]

mod core;
mod errors;
mod estimate;
mod handle;
mod model;
mod params;
mod queue;
mod records;
mod runner;
mod search;
mod shard;

use pyo3::prelude::*;

/// The Rust side's allocations counted, so that the library's memory budget holds in
/// Python as on the command line: the library chooses no allocator of its own.
#[global_allocator]
static ALLOCATOR: cap::Cap<std::alloc::System> = cap::Cap::new(std::alloc::System, usize::MAX);

/// The extension module.
#[pymodule]
fn _dlxc(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    dlxc::lower::budget::set_gauge(|| ALLOCATOR.allocated());
    m.add_class::<handle::Model>()?;
    m.add_class::<search::Solution>()?;
    m.add_class::<search::Solutions>()?;
    m.add_class::<search::Optimum>()?;
    m.add_class::<shard::Shard>()?;
    m.add_class::<estimate::Estimate>()?;
    m.add_class::<records::Records>()?;
    m.add_class::<errors::Diag>()?;
    m.add_class::<errors::Span>()?;
    m.add("ModelError", py.get_type::<errors::ModelError>())?;
    m.add("LimitReached", py.get_type::<errors::LimitReached>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
