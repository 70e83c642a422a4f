//! The `dlxc.Model` object itself: a compiled instance, or why its defaults do not
//! compile. Its methods are in [`crate::model`]; the object and what the other Python
//! classes need to make one (a shard's model, a record's model) live here, below all of
//! them, so that `model`, `records` and `shard` import it one way.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::core::{Core, Source};
use crate::errors::Failure;

/// Threads a count uses when none are asked for: every core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A compiled model: the defaults of a `.dlx` model (with `params`), or one record of
/// a data file. Compiling raises `ModelError` with the same diagnostics as
/// `dlxc check`.
#[pyclass(frozen, module = "dlxc")]
pub struct Model {
    pub(crate) source: Arc<Source>,
    /// The compiled defaults (or record), or why they do not compile: kept, not
    /// raised, for a model made `for_records`.
    pub(crate) made: Result<Arc<Core>, Failure>,
}

impl Model {
    /// The Python object of a compiled instance.
    pub fn from_core(core: Arc<Core>) -> Model {
        Model {
            source: Arc::clone(&core.source),
            made: Ok(core),
        }
    }
}

/// The arguments `dlxc._restore` takes to build `core` again.
pub fn restore_args<'py>(py: Python<'py>, core: &Core) -> PyResult<Bound<'py, PyTuple>> {
    let s = &core.source;
    let record = core
        .record
        .as_ref()
        .map(|r| (r.index, r.line, r.text.clone()));
    let kind = if s.knuth { "knuth" } else { "model" };
    (
        s.text.clone(),
        s.name.clone(),
        s.params.clone(),
        record,
        kind,
    )
        .into_pyobject(py)
}
