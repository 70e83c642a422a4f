//! `dlxc.Model`: a model compiled for its defaults (or for one data record), and the
//! searches on it.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::core::{Core, Loaded, RecordText, Source, compile};
use crate::errors::{Diag, Failure};
use crate::records::Records;
use crate::search::{Limits, Optimum, Solutions, optimize};
use crate::shard::{Shard, parts_from_ids, split_core};

/// Threads a count uses when none are asked for: every core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A compiled model: the defaults of a `.dlx` model (with `params`), or one record of
/// a data file. Compiling raises `ModelError` with the same diagnostics as
/// `dlxc check`.
#[pyclass(frozen, module = "dlxc")]
pub struct Model {
    source: Arc<Source>,
    /// The compiled defaults (or record), or why they do not compile: kept, not
    /// raised, for a model made `for_records`.
    made: Result<Arc<Core>, Failure>,
}

impl Model {
    /// The Python object of a compiled instance.
    pub fn from_core(core: Arc<Core>) -> Model {
        Model {
            source: Arc::clone(&core.source),
            made: Ok(core),
        }
    }

    fn build(
        py: Python<'_>,
        source: Source,
        record: Option<RecordText>,
        for_records: bool,
    ) -> PyResult<Model> {
        let source = Arc::new(source);
        let shared = Arc::clone(&source);
        let made = py.allow_threads(|| {
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
        Ok(Shard::new(Arc::clone(core), vec![core.forced.clone()]))
    }
}

/// The arguments `dlxc._restore` takes to build `core` again.
pub fn restore_args<'py>(py: Python<'py>, core: &Core) -> PyResult<Bound<'py, PyTuple>> {
    let s = &core.source;
    let record = core
        .record
        .as_ref()
        .map(|r| (r.index, r.line, r.text.clone()));
    (s.text.clone(), s.name.clone(), s.params.clone(), record).into_pyobject(py)
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
        };
        Model::build(py, source, None, for_records)
    }

    /// Builds a model from what `__reduce__` saved (for pickling).
    #[staticmethod]
    #[pyo3(signature = (text, name, params, record = None))]
    fn _restore(
        py: Python<'_>,
        text: String,
        name: String,
        params: Vec<(String, String)>,
        record: Option<(usize, usize, String)>,
    ) -> PyResult<Model> {
        let record = record.map(|(index, line, text)| RecordText { index, line, text });
        Model::build(py, Source { text, name, params }, record, false)
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
        use dlxc::solve::Objective;
        let core = self.core(py)?;
        Ok(core.objective.map(|o| match o {
            Objective::MinimizeCount => "minimize count",
            Objective::MinimizeCost => "minimize cost",
            Objective::MaximizeCost => "maximize cost",
        }))
    }

    /// The warnings of compiling it (unused bindings, dropped options).
    #[getter]
    fn warnings(&self, py: Python<'_>) -> PyResult<Vec<Diag>> {
        let core = self.core(py)?;
        Ok(core.warnings.clone())
    }

    /// The lowered problem in Knuth's DLX format, as `dlxc compile --emit knuth`
    /// writes it (forced options in a comment at the top).
    fn to_knuth(&self, py: Python<'_>) -> PyResult<String> {
        let core = self.core(py)?;
        dlxc::session::reports::knuth_text(&core.src, &core.matrix.problem, &core.forced)
            .map(|k| k.text)
            .map_err(|r| Failure::one(*r).into_err(py))
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

    /// The exact number of solutions, counted on `threads` threads (default: every
    /// core). A `time_limit` (seconds) or `node_limit` that cuts the count short
    /// raises `LimitReached`; Ctrl-C raises `KeyboardInterrupt`.
    #[pyo3(signature = (threads = None, *, time_limit = None, node_limit = None))]
    fn count(
        &self,
        py: Python<'_>,
        threads: Option<usize>,
        time_limit: Option<f64>,
        node_limit: Option<u64>,
    ) -> PyResult<u128> {
        let threads = Some(threads.unwrap_or_else(default_threads));
        self.whole(py)?.count(py, threads, time_limit, node_limit)
    }

    /// The optimum of the model's objective and a solution that reaches it.
    #[pyo3(signature = (*, time_limit = None, node_limit = None))]
    fn optimize(
        &self,
        py: Python<'_>,
        time_limit: Option<f64>,
        node_limit: Option<u64>,
    ) -> PyResult<Optimum> {
        let core = self.core(py)?;
        optimize(py, core, &Limits::new(time_limit, node_limit))
    }

    /// The search tree cut into at least `n` disjoint parts when it allows (fewer
    /// when it is that small), one shard a part.
    fn parts(&self, py: Python<'_>, n: usize) -> PyResult<Vec<Shard>> {
        let core = self.core(py)?;
        let parts = split_core(py, core, std::slice::from_ref(&core.forced), n)?;
        Ok(parts
            .into_iter()
            .map(|p| Shard::new(Arc::clone(core), vec![p]))
            .collect())
    }

    /// `n` shards: the parts of the search tree dealt out in turn, so shard `k`'s
    /// solutions, over `k`, are the model's, each once. Deterministic: the same model
    /// gives the same shards in every process.
    fn shards(&self, py: Python<'_>, n: usize) -> PyResult<Vec<Shard>> {
        let core = self.core(py)?;
        let n = n.max(1);
        let parts = split_core(py, core, std::slice::from_ref(&core.forced), n)?;
        let mut dealt = vec![Vec::new(); n];
        for (k, p) in parts.into_iter().enumerate() {
            dealt[k % n].push(p);
        }
        Ok(dealt
            .into_iter()
            .map(|parts| Shard::new(Arc::clone(core), parts))
            .collect())
    }

    /// The shard of the given parts (lists of option ids), as pickles carry them.
    fn _shard(&self, py: Python<'_>, parts: Vec<Vec<u32>>) -> PyResult<Shard> {
        let core = self.core(py)?;
        let parts = parts_from_ids(core, parts)?;
        Ok(Shard::new(Arc::clone(core), parts))
    }

    /// The records of the data file at `path` (as `dlxc run MODEL --data FILE`
    /// reads them), one `dlxc.Record` each, read and compiled one at a time on a
    /// reader thread.
    fn records<'py>(&self, py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyAny>> {
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
