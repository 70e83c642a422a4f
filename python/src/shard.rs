//! Parts of a search tree, for spreading a count over processes or machines.
//!
//! A part is a list of forced options, a node of the search tree; the parts made by
//! [`split`] are disjoint and together hold every solution (see
//! `dlxc::solve::parallel`). A [`Shard`] is some parts of one model; it pickles as the
//! model's text, parameters and record, and the parts' option ids, so another process
//! rebuilds the model and searches exactly those parts.

use std::sync::Arc;

use dlxc::problem::OptionId;
use dlxc::solve::{Clash, Solver, parallel};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::core::{Core, refused};
use crate::errors::Failure;
use crate::model::{Model, default_threads, restore_args};
use crate::search::{Limits, Solutions, count};

/// The parts under each of `roots`, about `want` in all: each root is split into
/// disjoint parts, at least two when its node branches. A solver that cannot branch
/// (multiplicities run on the links engines) keeps its roots whole.
pub fn split(
    solver: &mut Solver,
    roots: &[Vec<OptionId>],
    want: usize,
) -> Result<Vec<Vec<OptionId>>, Clash> {
    if !solver.can_branch() {
        return Ok(roots.to_vec());
    }
    let each = want.div_ceil(roots.len().max(1)).max(2);
    let mut out = Vec::new();
    for root in roots {
        out.extend(parallel::split(solver, root, each)?);
    }
    Ok(out)
}

/// Splits `roots` of `core` on this thread (splitting visits a few nodes per part).
pub fn split_core(
    py: Python<'_>,
    core: &Core,
    roots: &[Vec<OptionId>],
    want: usize,
) -> PyResult<Vec<Vec<OptionId>>> {
    let mut solver = core
        .matrix
        .solver()
        .map_err(|u| refused(core, &u).into_err(py))?;
    py.allow_threads(|| split(&mut solver, roots, want))
        .map_err(|c| {
            Failure::one(dlxc::session::reports::clash_report(
                &core.src,
                &core.matrix.problem,
                &c,
            ))
            .into_err(py)
        })
}

/// Some parts of a model's search tree: count them, list their solutions, split them
/// further, or pickle them to another process.
#[pyclass(frozen, module = "dlxc")]
pub struct Shard {
    core: Arc<Core>,
    parts: Vec<Vec<OptionId>>,
}

impl Shard {
    /// The shard of `parts` of `core`.
    pub fn new(core: Arc<Core>, parts: Vec<Vec<OptionId>>) -> Shard {
        Shard { core, parts }
    }
}

#[pymethods]
impl Shard {
    /// The parts, each a list of option ids (indexes into `Model.options`) forced on
    /// the way to its node.
    #[getter]
    fn parts(&self) -> Vec<Vec<u32>> {
        self.parts
            .iter()
            .map(|p| p.iter().map(|o| o.0).collect())
            .collect()
    }

    /// The model the parts belong to.
    #[getter]
    fn model(&self) -> Model {
        Model::from_core(Arc::clone(&self.core))
    }

    /// The exact number of solutions in these parts. `threads` (default 1) count each
    /// part; `time_limit` (seconds) and `node_limit` are for the whole shard and raise
    /// `LimitReached` when they cut it short.
    #[pyo3(signature = (threads = 1, *, time_limit = None, node_limit = None))]
    pub fn count(
        &self,
        py: Python<'_>,
        threads: Option<usize>,
        time_limit: Option<f64>,
        node_limit: Option<u64>,
    ) -> PyResult<u128> {
        let threads = threads.unwrap_or_else(default_threads);
        let limits = Limits::new(time_limit, node_limit);
        count(py, &self.core, self.parts.clone(), threads, &limits)
    }

    /// A lazy iterator over the solutions of these parts (at most `limit`); the
    /// limits are for the whole shard, and raise `LimitReached` at the end.
    #[pyo3(signature = (limit = None, *, time_limit = None, node_limit = None))]
    pub fn solutions(
        &self,
        py: Python<'_>,
        limit: Option<u128>,
        time_limit: Option<f64>,
        node_limit: Option<u64>,
    ) -> PyResult<Solutions> {
        let limits = Limits::new(time_limit, node_limit);
        Solutions::start(
            py,
            Arc::clone(&self.core),
            self.parts.clone(),
            limit,
            &limits,
        )
    }

    /// These parts split into at least `n` smaller ones when the tree allows (each node
    /// into its children, breadth first), one shard a part; their solutions are
    /// exactly this shard's.
    fn split(&self, py: Python<'_>, n: usize) -> PyResult<Vec<Shard>> {
        let parts = split_core(py, &self.core, &self.parts, n)?;
        Ok(parts
            .into_iter()
            .map(|p| Shard::new(Arc::clone(&self.core), vec![p]))
            .collect())
    }

    fn __len__(&self) -> usize {
        self.parts.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Shard({} part{} of {:?})",
            self.parts.len(),
            if self.parts.len() == 1 { "" } else { "s" },
            self.core.source.name
        )
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let load = py.import("dlxc")?.getattr("_load_shard")?;
        let args = restore_args(py, &self.core)?;
        let mut all: Vec<Bound<'py, PyAny>> = args.iter().collect();
        all.push(self.parts().into_pyobject(py)?.into_any());
        Ok((load, PyTuple::new(py, all)?))
    }
}

/// Checks option ids from outside (a pickle) against the model.
pub fn parts_from_ids(core: &Core, ids: Vec<Vec<u32>>) -> PyResult<Vec<Vec<OptionId>>> {
    let n = core.matrix.problem.options.len();
    ids.into_iter()
        .map(|part| {
            part.into_iter()
                .map(|o| {
                    if (o as usize) < n {
                        Ok(OptionId(o))
                    } else {
                        Err(PyValueError::new_err(format!(
                            "option id {o} does not exist: the model has {n} options"
                        )))
                    }
                })
                .collect()
        })
        .collect()
}
