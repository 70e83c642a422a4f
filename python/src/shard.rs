//! Parts of a search tree, for spreading a count over processes or machines.
//!
//! A part is a list of forced options, a node of the search tree; the parts made by
//! [`split`] are disjoint and together hold every solution (see
//! `dlxc::solve::parallel`). A [`Shard`] is some parts of one model; it pickles as the
//! model's text, parameters and record, and the parts' option ids and weights, so
//! another process rebuilds the model and searches exactly those parts.

use std::sync::Arc;

use dlxc::diag::Code;
use dlxc::diag::report::Report;
use dlxc::problem::OptionId;
use dlxc::solve::share::Part;
use dlxc::solve::{Clash, Solver, parallel};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::core::Core;
use crate::errors::Failure;
use crate::handle::{Model, default_threads, restore_args};
use crate::search::{Limits, Solutions, clash, count, count_for};

/// The most parts `Model.parts(n)` and `Shard.split(n)` make: as many as the command
/// line's largest split (`--shard K/10000`, 64 parts a shard). Every part is held in
/// memory: `parts(10**9)` of a large tree aborted the interpreter.
pub const MAX_PARTS: usize = dlxc::task::MAX_SHARDS * 64;

/// E0916, as the command line refuses `--shard K/N` past 10,000 shards: `asked` says
/// what was asked for, `help` what to ask instead.
pub fn too_many(py: Python<'_>, asked: String, help: String) -> PyErr {
    Failure::one(Report::error(Code::E0916, asked).help(help)).into_err(py)
}

/// Refuses `call(n)` asking for more than [`MAX_PARTS`] parts.
pub fn check_parts(py: Python<'_>, call: &str, n: usize) -> PyResult<()> {
    if n <= MAX_PARTS {
        return Ok(());
    }
    Err(too_many(
        py,
        format!("{call}({n}) asks for more than {MAX_PARTS} parts"),
        format!(
            "ask for at most {MAX_PARTS} parts: a few for each processor are plenty, and a \
             part can be split again later (`Shard.split`)"
        ),
    ))
}

/// The parts under each of `roots`, about `want` in all: each root is split into
/// disjoint parts, at least two when its node branches, each weighted by its share of
/// the whole tree (its root's weight times its share of the root; dead ends met while
/// splitting are in no part, so the weights add up to at most the roots'). A solver that cannot
/// branch keeps its roots whole.
pub fn split(solver: &mut Solver, roots: &[Part], want: usize) -> Result<Vec<Part>, Clash> {
    if !solver.can_branch() {
        return Ok(roots.to_vec());
    }
    let each = want.div_ceil(roots.len().max(1)).max(2);
    let mut out = Vec::new();
    for root in roots {
        out.extend(
            parallel::split_part(solver, root, each)?
                .into_iter()
                .map(|p| Part {
                    weight: root.weight * p.weight,
                    ..p
                }),
        );
    }
    Ok(out)
}

/// Runs `work` on a copy of `core`'s solver on this thread, without the GIL (splitting
/// and probing visit few nodes); the engine's refusal and a clash of forced options
/// raise `ModelError`.
pub fn with_solver<T: Send>(
    py: Python<'_>,
    core: &Core,
    work: impl FnOnce(&mut Solver) -> Result<T, Clash> + Send,
) -> PyResult<T> {
    let mut solver = core.solver(py)?;
    py.detach(|| work(&mut solver))
        .map_err(|c| clash(py, core, &c))
}

/// Some parts of a model's search tree: count them, list their solutions, split them
/// further, or pickle them to another process.
#[pyclass(frozen, module = "dlxc")]
pub struct Shard {
    core: Arc<Core>,
    parts: Vec<Part>,
}

impl Shard {
    /// The shard of `parts` of `core`.
    pub fn new(core: Arc<Core>, parts: Vec<Part>) -> Shard {
        Shard { core, parts }
    }
}

#[pymethods]
impl Shard {
    /// The parts, each a list of option ids (indexes into `Model.options`) forced on
    /// the way to its node.
    #[getter]
    fn parts(&self) -> Vec<Vec<u32>> {
        self.parts.iter().map(|p| ids(&p.forced)).collect()
    }

    /// For each part, the option ids excluded on the way to its node: at an item with
    /// a multiplicity interval, the options that the part's earlier siblings took
    /// (empty lists where no item has one). A part's solutions are those with its
    /// `parts` options and none of these.
    #[getter]
    fn excluded(&self) -> Vec<Vec<u32>> {
        self.parts.iter().map(|p| ids(&p.excluded)).collect()
    }

    /// Each part's share of the model's whole search tree, by Knuth's estimate (the
    /// product of 1/(options tried) over the branchings above it): for progress and
    /// ETAs only, since trees are seldom balanced; counts never depend on it.
    #[getter]
    fn weights(&self) -> Vec<f64> {
        self.parts.iter().map(|p| p.weight).collect()
    }

    /// The parts' share of the whole tree: the sum of `weights`.
    #[getter]
    fn weight(&self) -> f64 {
        self.parts.iter().map(|p| p.weight).sum()
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

    /// Counts these parts for at most `seconds`, on `threads` threads (default 1;
    /// `None`: every core), and returns `(count, finished, rest)`: the exact number of
    /// solutions counted, whether that is all of them, and a shard of the exact parts
    /// left unexplored (empty when finished). The solutions of `rest` and the `count`
    /// together are exactly this shard's, none lost or counted twice, so a long count
    /// can go on later, elsewhere, or in pieces (`rest.deal(n)`, `rest.split(n)`). The
    /// share of the tree explored is `self.weight - rest.weight`. Ctrl-C raises
    /// `KeyboardInterrupt`.
    #[pyo3(signature = (seconds, threads = 1))]
    pub fn count_for(
        &self,
        py: Python<'_>,
        seconds: f64,
        threads: Option<usize>,
    ) -> PyResult<(u128, bool, Shard)> {
        let threads = threads.unwrap_or_else(default_threads);
        let (n, rest) = count_for(py, &self.core, self.parts.clone(), seconds, threads)?;
        Ok((n, rest.is_empty(), Shard::new(Arc::clone(&self.core), rest)))
    }

    /// These parts dealt round-robin into `n` shards (fewer when there are fewer
    /// parts; none when there are none): the first parts, which a cut count leaves
    /// largest, go to different shards. Together they are exactly this shard.
    fn deal(&self, n: usize) -> PyResult<Vec<Shard>> {
        if n == 0 {
            return Err(PyValueError::new_err("cannot deal parts into 0 shards"));
        }
        let mut hands = vec![Vec::new(); n.min(self.parts.len())];
        for (i, p) in self.parts.iter().enumerate() {
            hands[i % n].push(p.clone());
        }
        Ok(hands
            .into_iter()
            .map(|parts| Shard::new(Arc::clone(&self.core), parts))
            .collect())
    }

    /// These parts split into at least `n` smaller ones when the tree allows (each node
    /// into its children, breadth first), one shard a part; their solutions are
    /// exactly this shard's. Their weights add up to its weight less that of the dead
    /// ends met while splitting, which are in no part.
    fn split(&self, py: Python<'_>, n: usize) -> PyResult<Vec<Shard>> {
        check_parts(py, "split", n)?;
        let parts = with_solver(py, &self.core, |s| split(s, &self.parts, n))?;
        Ok(one_part_each(&self.core, parts))
    }

    fn __len__(&self) -> usize {
        self.parts.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Shard({} part{} of {:?}, weight {:.3})",
            self.parts.len(),
            if self.parts.len() == 1 { "" } else { "s" },
            self.core.source.name,
            self.weight()
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
        all.push(self.weights().into_pyobject(py)?.into_any());
        all.push(self.excluded().into_pyobject(py)?.into_any());
        Ok((load, PyTuple::new(py, all)?))
    }
}

/// Option ids as Python sees them.
fn ids(options: &[OptionId]) -> Vec<u32> {
    options.iter().map(|o| o.0).collect()
}

/// One shard a part.
pub fn one_part_each(core: &Arc<Core>, parts: Vec<Part>) -> Vec<Shard> {
    parts
        .into_iter()
        .map(|p| Shard::new(Arc::clone(core), vec![p]))
        .collect()
}

/// Checks parts from outside (a pickle: option ids, and weights and exclusions or
/// none) against the model. Parts without weights share the whole tree equally.
pub fn parts_from_ids(
    core: &Core,
    ids: Vec<Vec<u32>>,
    weights: Option<Vec<f64>>,
    excluded: Option<Vec<Vec<u32>>>,
) -> PyResult<Vec<Part>> {
    let n = core.matrix.problem.options.len();
    let excluded = match excluded {
        Some(e) if e.len() == ids.len() => e,
        Some(e) => {
            return Err(PyValueError::new_err(format!(
                "{} exclusion lists for {} parts",
                e.len(),
                ids.len()
            )));
        }
        None => vec![Vec::new(); ids.len()],
    };
    let options = |part: Vec<u32>| -> PyResult<Vec<OptionId>> {
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
    };
    if !excluded.iter().all(Vec::is_empty) && !core.matrix.problem.has_multiplicities() {
        return Err(PyValueError::new_err(
            "parts of a model without multiplicity intervals exclude no options",
        ));
    }
    let weights = match weights {
        Some(w) if w.len() == ids.len() => w,
        Some(w) => {
            return Err(PyValueError::new_err(format!(
                "{} weights for {} parts",
                w.len(),
                ids.len()
            )));
        }
        None => vec![1.0 / ids.len().max(1) as f64; ids.len()],
    };
    ids.into_iter()
        .zip(weights)
        .zip(excluded)
        .map(|((part, weight), out)| {
            Ok(Part {
                forced: options(part)?,
                excluded: options(out)?,
                weight,
            })
        })
        .collect()
}
