//! `dlxc.Model`: a model compiled for its defaults (or for one data record), and the
//! searches on it.

use std::path::PathBuf;
use std::sync::Arc;

use dlxc::solve::parallel;
use dlxc::solve::share::Part;
use dlxc::task::{MAX_SHARDS, Memo, Request};
use pyo3::exceptions::{PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::core::{Core, Loaded, RecordText, Source, compile};
use crate::errors::{Diag, Failure};
use crate::estimate::Estimate;
use crate::handle::{Model, default_threads, restore_args};
use crate::records::Records;
use crate::runner::{limited, memo_arg, order_arg};
use crate::search::{
    Limits, Optimum, Solution, Solutions, count_classes, objective_name, optimize,
};
use crate::shard::{
    Shard, check_parts, one_part_each, parts_from_ids, split, too_many, with_solver,
};

impl Model {
    fn build(
        py: Python<'_>,
        source: Source,
        record: Option<RecordText>,
        for_records: bool,
    ) -> PyResult<Model> {
        let source = Arc::new(source);
        let shared = Arc::clone(&source);
        let made = py.detach(|| {
            if for_records {
                // The model must take records; its defaults need not compile.
                let loaded = Loaded::new(&shared)?;
                loaded.lowerer(&shared, true)?;
            }
            Ok(compile(shared, record))
        });
        match made {
            Err(f) => Err(Failure::into_err(f, py)),
            Ok(Ok(core)) => Ok(Model::from_core(Arc::new(core))),
            Ok(Err(not)) if for_records => Ok(Model {
                source,
                made: Err(not.failure),
            }),
            Ok(Err(not)) => Err(not.failure.into_err(py)),
        }
    }

    /// The compiled instance, or the error of its defaults.
    fn core(&self, py: Python<'_>) -> PyResult<&Arc<Core>> {
        self.made.as_ref().map_err(|f| f.clone().into_err(py))
    }

    /// The whole search tree, as one shard of one part.
    fn whole(&self, py: Python<'_>) -> PyResult<Shard> {
        let core = self.core(py)?;
        Ok(Shard::new(Arc::clone(core), vec![root(core)]))
    }
}

/// The whole tree of `core`: one part, of weight 1.
fn root(core: &Core) -> Part {
    Part::root(&core.forced)
}

/// Checks a shard `k` of `n`, as `--shard K/N` does.
fn check_shard(py: Python<'_>, k: usize, n: usize) -> PyResult<()> {
    if !(1..=n).contains(&k) {
        return Err(PyValueError::new_err(format!(
            "shard {k}/{n} does not exist: shards are numbered 1 to n, and n is at least 1"
        )));
    }
    // As `--shard K/N` is refused: a split into 10^9 shards made a list of 10^9 of
    // them, 32 GB, and the allocation failure aborted the interpreter.
    if n > MAX_SHARDS {
        return Err(too_many(
            py,
            format!("shard {k}/{n} splits into more than {MAX_SHARDS} shards"),
            format!(
                "split into at most {MAX_SHARDS} shards; each shard is many parts of the \
                 tree, so a few per machine is plenty"
            ),
        ));
    }
    Ok(())
}

#[pymethods]
impl Model {
    /// Compiles the model `text` with `params` (a mapping from parameter names to
    /// values: `bool`, `int`, `str`, `list`, `tuple`, `set`, `dict`; a `str` is taken
    /// as `-p name=TEXT` takes it). `name` is the file name diagnostics show.
    ///
    /// `for_records`: the model will get its data parameter from the records of a data
    /// file (`records`), so its defaults need not compile: their errors are raised by
    /// the searches on the defaults instead of here.
    #[new]
    #[pyo3(signature = (text, params = None, name = None, *, for_records = false))]
    fn new(
        py: Python<'_>,
        text: String,
        params: Option<&Bound<'_, PyAny>>,
        name: Option<String>,
        for_records: bool,
    ) -> PyResult<Model> {
        let source = Source {
            text,
            name: name.unwrap_or_else(|| "<string>".to_string()),
            params: crate::params::settings(params)?,
            knuth: false,
        };
        Model::build(py, source, None, for_records)
    }

    /// Reads and compiles the model file at `path`; diagnostics name the file as
    /// `path` is written, as the command line does. `for_records` as for `Model`.
    #[staticmethod]
    #[pyo3(signature = (path, params = None, *, for_records = false))]
    fn from_file(
        py: Python<'_>,
        path: PathBuf,
        params: Option<&Bound<'_, PyAny>>,
        for_records: bool,
    ) -> PyResult<Model> {
        let text = std::fs::read_to_string(&path)?;
        let source = Source {
            text,
            name: path.display().to_string(),
            params: crate::params::settings(params)?,
            knuth: false,
        };
        Model::build(py, source, None, for_records)
    }

    /// Builds a model from what `__reduce__` saved (for pickling).
    #[staticmethod]
    #[pyo3(signature = (text, name, params, record = None, kind = "model"))]
    fn _restore(
        py: Python<'_>,
        text: String,
        name: String,
        params: Vec<(String, String)>,
        record: Option<(usize, usize, String)>,
        kind: &str,
    ) -> PyResult<Model> {
        let record = record.map(|(index, line, text)| RecordText { index, line, text });
        let knuth = match kind {
            "model" => false,
            "knuth" => true,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "kind must be \"model\" or \"knuth\", not {kind:?}"
                )));
            }
        };
        let source = Source {
            text,
            name,
            params,
            knuth,
        };
        Model::build(py, source, record, false)
    }

    /// Reads a problem in Knuth's DLX format (DLX1, DLX2 colors, DLX3 multiplicities,
    /// DLX5 costs), as `dlxc solve` does: `text` is the problem itself, `name` what
    /// diagnostics call it. Errors raise `ModelError` with the codes of `dlxc solve`.
    /// A problem whose options have costs is optimized for the least total cost.
    #[staticmethod]
    #[pyo3(signature = (text, name = None))]
    fn _knuth(py: Python<'_>, text: String, name: Option<String>) -> PyResult<Model> {
        let source = Source {
            text,
            name: name.unwrap_or_else(|| "<problem>".to_string()),
            params: Vec::new(),
            knuth: true,
        };
        Model::build(py, source, None, false)
    }

    /// The model's text.
    #[getter]
    fn text(&self) -> &str {
        &self.source.text
    }

    /// The name diagnostics show.
    #[getter]
    fn name(&self) -> &str {
        &self.source.name
    }

    /// The parameter settings, as the text `-p name=TEXT` would carry.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.source.params {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// For a record of a data file: `(index, line)`, 0-based index and 1-based first
    /// line; `None` for the model's defaults.
    #[getter]
    fn record(&self) -> Option<(usize, usize)> {
        let core = self.made.as_ref().ok()?;
        core.record.as_ref().map(|r| (r.index, r.line))
    }

    /// The items' names: primary items, then secondary ones.
    #[getter]
    fn items(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let core = self.core(py)?;
        let p = &core.matrix.problem;
        Ok(p.items.iter().map(|i| i.name.clone()).collect())
    }

    /// The options' names; an option id is an index into this list.
    #[getter]
    fn options(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let core = self.core(py)?;
        let p = &core.matrix.problem;
        Ok((0..p.options.len())
            .map(|k| p.option_label(dlxc::problem::OptionId(k as u32)))
            .collect())
    }

    /// The ids of the options every solution contains (the `force`d ones).
    #[getter]
    fn forced(&self, py: Python<'_>) -> PyResult<Vec<u32>> {
        let core = self.core(py)?;
        Ok(core.forced.iter().map(|o| o.0).collect())
    }

    /// The objective (`"minimize count"`, ...), or `None`.
    #[getter]
    fn objective(&self, py: Python<'_>) -> PyResult<Option<&'static str>> {
        let core = self.core(py)?;
        Ok(core.objective.map(objective_name))
    }

    /// The warnings of compiling it (unused bindings, dropped options).
    #[getter]
    fn warnings(&self, py: Python<'_>) -> PyResult<Vec<Diag>> {
        let core = self.core(py)?;
        Ok(core.warnings.clone())
    }

    /// The lowered problem in Knuth's DLX format, as `dlxc compile --emit knuth`
    /// writes it (forced options in a comment at the top), objective included: costs
    /// for `minimize cost`, a cost of 1 on every option for `minimize count`, no costs
    /// without an objective; `maximize cost`, which the format cannot carry (DLX5
    /// minimizes), raises `ModelError` (E0917). What the command line prints as notes
    /// (how the objective was written, names shortened) is a `UserWarning`.
    fn to_knuth(&self, py: Python<'_>) -> PyResult<String> {
        let core = self.core(py)?;
        let k = dlxc::session::reports::knuth_text_for(
            &core.src,
            &core.matrix.problem,
            &core.forced,
            core.objective,
        )
        .map_err(|r| Failure::one(*r).into_err(py))?;
        let warning = py.get_type::<PyUserWarning>();
        for note in k.report.notes().into_iter().chain(k.objective_note) {
            // A note is the library's own text: it has no NUL byte to refuse.
            let text =
                std::ffi::CString::new(note).map_err(|e| PyValueError::new_err(e.to_string()))?;
            PyErr::warn(py, &warning, &text, 1)?;
        }
        Ok(k.text)
    }

    /// A lazy iterator over the solutions (at most `limit`): the search runs on a
    /// thread a few solutions ahead, and stops when the iterator is dropped or closed.
    #[pyo3(signature = (limit = None, *, time_limit = None, node_limit = None))]
    fn solutions(
        &self,
        py: Python<'_>,
        limit: Option<u128>,
        time_limit: Option<f64>,
        node_limit: Option<u64>,
    ) -> PyResult<Solutions> {
        self.whole(py)?.solutions(py, limit, time_limit, node_limit)
    }

    /// The exact number of solutions, as a Python `int` however large (past 2^64 and
    /// 2^128 too), counted as `dlxc run --count` counts: `memo="auto"` (the default)
    /// remembers the count of each subproblem when a short probe finds that they come
    /// back (tilings, matchings), else visits every solution on `threads` threads
    /// (default: every core); `memo=True` (`"on"`) always counts by memo, on one
    /// thread; `memo=False` (`"off"`) never. `memo_order` fixes the memo's item order
    /// (`"declared"`, `"band"`, `"mrv"`), as `--memo-order` does. With
    /// `up_to_symmetry`, one per class of solutions that the model's `symmetry`
    /// declarations turn into one another (never by memo). A model with an objective
    /// counts every solution, optimal or not, by visiting them. A `time_limit`
    /// (seconds) or `node_limit` that cuts the count short raises `LimitReached`
    /// (a node limit turns `memo="auto"` off, as `--node-limit` does); Ctrl-C raises
    /// `KeyboardInterrupt`. Combinations the command line refuses raise `ModelError`
    /// with its code (E0950-E0952).
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (threads = None, *, time_limit = None, node_limit = None, up_to_symmetry = false, memo = None, memo_order = None))]
    fn count<'py>(
        &self,
        py: Python<'py>,
        threads: Option<usize>,
        time_limit: Option<f64>,
        node_limit: Option<u64>,
        up_to_symmetry: bool,
        memo: Option<&Bound<'py, PyAny>>,
        memo_order: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let core = self.core(py)?;
        let limits = Limits::new(time_limit, node_limit);
        let request = limited(
            &limits,
            Request {
                count: true,
                threads: threads.unwrap_or_else(default_threads),
                threads_asked: threads.is_some(),
                up_to_symmetry,
                memo: memo_arg(memo)?,
                memo_order: order_arg(memo_order)?,
                ..Request::default()
            },
        )?;
        let task = crate::runner::task(py, core, &request)?;
        let threads = task.threads;
        if up_to_symmetry {
            return Ok(count_classes(py, core, threads, &limits)?
                .into_pyobject(py)?
                .into_any());
        }
        if task.memo == Memo::Off || core.objective.is_some() {
            // The count of every solution, by the parts of the whole tree (the runner
            // would count a model with an objective's optimal solutions).
            let whole = self.whole(py)?;
            return Ok(whole
                .count(py, Some(threads), time_limit, node_limit)?
                .into_pyobject(py)?
                .into_any());
        }
        crate::runner::count(py, core, task)
    }

    /// `k` solutions, each drawn uniformly at random from all the solutions (their
    /// exact memo counts weigh the draws), as `dlxc run --sample K --seed S` draws
    /// them: the same `seed` gives the same solutions, here and on the command line
    /// (default: the command line's). An empty list when there is no solution. A
    /// model with an objective raises `ModelError` (E0952), `k=0` too (E0953); a
    /// `time_limit` or `node_limit` that cuts the count short draws nothing and
    /// raises `LimitReached`.
    #[pyo3(signature = (k, seed = None, *, time_limit = None, node_limit = None))]
    fn sample(
        &self,
        py: Python<'_>,
        k: u64,
        seed: Option<u64>,
        time_limit: Option<f64>,
        node_limit: Option<u64>,
    ) -> PyResult<Vec<Solution>> {
        let core = self.core(py)?;
        let request = limited(
            &Limits::new(time_limit, node_limit),
            Request {
                sample: Some(k),
                seed,
                // The draws need the memo counts; `auto` would stand aside for a node
                // limit, and a plain search has no counts to weigh draws by.
                memo: Memo::On,
                ..Request::default()
            },
        )?;
        let task = crate::runner::task(py, core, &request)?;
        crate::runner::sample(py, core, task)
    }

    /// The optimum of the model's objective and a solution that reaches it. With
    /// `best=k`, the k best solutions (`solutions`, with their `values`), in order of
    /// value, as `dlxc run --best K` (and Knuth's DLX5 with `kK`) lists them; `best`
    /// raises `ModelError` (E0922) for a model without an objective or `best=0`.
    /// `threads` as `dlxc run --threads N`: by default every core, except for a cost
    /// objective on exactly-once items (and `best`), which runs on one thread unless
    /// `threads` is given; the value is the same on any number, and among equally good
    /// solutions the one shown on threads may differ from the one shown on one.
    #[pyo3(signature = (threads = None, *, time_limit = None, node_limit = None, best = None))]
    fn optimize(
        &self,
        py: Python<'_>,
        threads: Option<usize>,
        time_limit: Option<f64>,
        node_limit: Option<u64>,
        best: Option<u64>,
    ) -> PyResult<Optimum> {
        let core = self.core(py)?;
        let limits = Limits::new(time_limit, node_limit);
        let request = limited(
            &limits,
            Request {
                best,
                threads: threads.unwrap_or_else(default_threads),
                threads_asked: threads.is_some(),
                ..Request::default()
            },
        )?;
        if best.is_some() {
            let task = crate::runner::task(py, core, &request)?;
            return crate::runner::best(py, core, task);
        }
        // The request checks the number of threads as the command line does.
        let task = crate::runner::task(py, core, &request)?;
        optimize(py, core, &limits, &task)
    }

    /// The search tree cut into at least `n` disjoint parts when it allows (fewer
    /// when it is that small), one shard a part, each weighted by its share of the tree.
    fn parts(&self, py: Python<'_>, n: usize) -> PyResult<Vec<Shard>> {
        check_parts(py, "parts", n)?;
        let core = self.core(py)?;
        let parts = with_solver(py, core, |s| split(s, &[root(core)], n))?;
        Ok(one_part_each(core, parts))
    }

    /// Shard `k` of `n` (1-based): exactly the parts `dlxc run MODEL --count --shard
    /// K/N` counts, the same on every machine, so a shard can be counted here and the
    /// rest on the command line (multiplicities included: their parts also exclude
    /// options).
    fn shard(&self, py: Python<'_>, k: usize, n: usize) -> PyResult<Shard> {
        check_shard(py, k, n)?;
        let core = self.core(py)?;
        let parts = with_solver(py, core, |s| parallel::shard(s, &core.forced, k, n))?;
        Ok(Shard::new(Arc::clone(core), parts))
    }

    /// The `n` shards of `shard(k, n)`, for `k` from 1 to `n`: their solutions, over
    /// `k`, are the model's, each once.
    fn shards(&self, py: Python<'_>, n: usize) -> PyResult<Vec<Shard>> {
        check_shard(py, 1, n)?;
        let core = self.core(py)?;
        let all = with_solver(py, core, |s| parallel::shards(s, &core.forced, n))?;
        Ok(all
            .into_iter()
            .map(|parts| Shard::new(Arc::clone(core), parts))
            .collect())
    }

    /// The problem's fingerprint: the hash of what the engine sees and the forced
    /// options, which `dlxc run --count --shard K/N --json` writes as `"problem"` (and
    /// `dlxc merge` checks), so shards counted here and there can be matched.
    #[getter]
    fn fingerprint(&self, py: Python<'_>) -> PyResult<String> {
        let core = self.core(py)?;
        Ok(core.matrix.problem.fingerprint(&core.forced))
    }

    /// Knuth's estimate of the size of the count's search tree, as `dlxc estimate`
    /// makes it: a real search of 0.2 s first, whose counts are exact when it
    /// finishes (`exact`), and otherwise gives the speed that turns the estimated
    /// nodes into seconds; then random probes (`probes` of them, or as many as fit in
    /// 0.3 s) drawn from `seed`; every kind of problem can be probed. A model
    /// with an objective gets the tree `count` searches: `dlxc estimate` tries its
    /// branch and bound search for 0.2 s first, which is `optimize(time_limit=0.2)`.
    #[pyo3(signature = (probes = None, seed = 1))]
    fn estimate(&self, py: Python<'_>, probes: Option<usize>, seed: u64) -> PyResult<Estimate> {
        let core = self.core(py)?;
        crate::estimate::estimate(py, core, probes, seed)
    }

    /// The shard of the given parts (lists of option ids), their weights and their
    /// exclusions, as pickles carry them.
    #[pyo3(signature = (parts, weights = None, excluded = None))]
    fn _shard(
        &self,
        py: Python<'_>,
        parts: Vec<Vec<u32>>,
        weights: Option<Vec<f64>>,
        excluded: Option<Vec<Vec<u32>>>,
    ) -> PyResult<Shard> {
        let core = self.core(py)?;
        let parts = parts_from_ids(core, parts, weights, excluded)?;
        Ok(Shard::new(Arc::clone(core), parts))
    }

    /// The records of the data file at `path` (as `dlxc run MODEL --data FILE`
    /// reads them), one `dlxc.Record` each, read and compiled one at a time on a
    /// reader thread.
    fn records<'py>(&self, py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyAny>> {
        if self.source.knuth {
            return Err(PyValueError::new_err(
                "a problem in Knuth's format has no data parameter to read records into",
            ));
        }
        let file = std::fs::File::open(&path)?;
        let raw = Records::start(Arc::clone(&self.source), file, path.display().to_string())?;
        py.import("dlxc")?
            .getattr("_records")?
            .call1((Py::new(py, raw)?,))
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let restore = py.import("dlxc")?.getattr("_restore")?;
        Ok((restore, restore_args(py, self.core(py)?)?))
    }

    fn __repr__(&self) -> String {
        let Ok(core) = &self.made else {
            return format!("Model({:?}: for records)", self.source.name);
        };
        let p = &core.matrix.problem;
        let record = match &core.record {
            Some(r) => format!(", record {}", r.index),
            None => String::new(),
        };
        format!(
            "Model({:?}{record}: {} items, {} options)",
            self.source.name,
            p.items.len(),
            p.options.len()
        )
    }
}
