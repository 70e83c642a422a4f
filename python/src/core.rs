//! A compiled instance that can cross threads: the lowered problem, what paints its
//! solutions, the forced options, and the text it was made from.
//!
//! The library's compiled matrix ([`Compiled`]) crosses threads as it is: a [`Matrix`]
//! shares it (no copy) and keeps a solver built on first use, shared between the
//! records of a data file when their matrix is the same.

use std::sync::{Arc, OnceLock};

use dlxc::diag::report::Report;
use dlxc::instance::{Compiled, Instance};
use dlxc::lower::data::parse_text;
use dlxc::lower::{Lowerer, RecordFailure};
use dlxc::problem::OptionId;
use dlxc::session::{Front, record_layout};
use dlxc::solve::{Objective, Solver, Unsupported};
use dlxc::source::SourceFile;
use pyo3::prelude::*;

use crate::errors::{Diag, Failure, plain};
use dlxc::diag::Code;

/// Largest family or comprehension the compiler builds: the command line's default
/// `--max-size`.
pub const MAX_SIZE: usize = 10_000_000;

/// What a model is made of: enough to build it again anywhere (a pickled shard is
/// this, a record's text and its option ids).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Source {
    /// The model's text.
    pub text: String,
    /// Its name in diagnostics (the path, for a file).
    pub name: String,
    /// `(name, value)` settings, as `-p name=value` takes them.
    pub params: Vec<(String, String)>,
    /// Whether `text` is a problem in Knuth's DLX format (`dlxc.Problem`) rather than
    /// a model.
    pub knuth: bool,
}

impl Source {
    /// The settings as the command line writes them.
    fn settings(&self) -> Vec<String> {
        self.params
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect()
    }
}

/// One data record an instance was lowered for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordText {
    /// 0-based index in its file.
    pub index: usize,
    /// 1-based line it starts on.
    pub line: usize,
    /// The record, cleaned as the data reader cleans it.
    pub text: String,
}

/// The compiled problem, what paints its solutions, and its solver.
pub struct Matrix {
    /// The problem, its paints and its symmetry group, shared with the lowering.
    pub compiled: Arc<Compiled>,
    /// A solver built on first use; every search runs on a copy of it.
    solver: OnceLock<Result<Solver, Unsupported>>,
    /// Every option's name, made the first time a solution's names are read.
    labels: OnceLock<Vec<String>>,
}

impl std::ops::Deref for Matrix {
    type Target = Compiled;
    fn deref(&self) -> &Compiled {
        &self.compiled
    }
}

impl Matrix {
    fn new(compiled: &Arc<Compiled>) -> Matrix {
        Matrix {
            compiled: Arc::clone(compiled),
            solver: OnceLock::new(),
            labels: OnceLock::new(),
        }
    }

    /// The name of every option, by id (as `dlxc run` prints a solution's options).
    pub fn labels(&self) -> &[String] {
        self.labels.get_or_init(|| {
            (0..self.problem.options.len())
                .map(|k| self.problem.option_label(OptionId(k as u32)))
                .collect()
        })
    }

    /// A fresh solver for this problem (a copy of the one built on first use).
    pub fn solver(&self) -> Result<Solver, Unsupported> {
        self.solver
            .get_or_init(|| Solver::new(&self.problem))
            .clone()
    }
}

/// One compiled instance: a model's defaults, or one record of a data file.
pub struct Core {
    /// What it was made from.
    pub source: Arc<Source>,
    /// The record, for an instance of a data file.
    pub record: Option<RecordText>,
    /// The model text, for diagnostics that point into it.
    pub src: SourceFile,
    /// The problem.
    pub matrix: Arc<Matrix>,
    /// The options every solution contains.
    pub forced: Vec<OptionId>,
    /// The objective, for a model that declares one.
    pub objective: Option<Objective>,
    /// Warnings of the checker and the lowering.
    pub warnings: Vec<Diag>,
}

/// A model parsed and checked, with the checker's warnings.
pub struct Loaded {
    front: Front,
    warnings: Vec<Diag>,
}

impl Loaded {
    /// Parses and checks `source`.
    pub fn new(source: &Source) -> Result<Loaded, Failure> {
        let src = SourceFile::new(source.name.clone(), source.text.clone());
        let front = Front::load(src).map_err(|d| Failure::new(&d))?;
        let warnings = front.checked.warnings.iter().map(plain).collect();
        Ok(Loaded { front, warnings })
    }

    /// Its lowerer (for records when `with_data`) and the lowering's warnings.
    pub fn lowerer(
        &self,
        source: &Source,
        with_data: bool,
    ) -> Result<(Lowerer<'_>, Vec<Diag>), Failure> {
        let mut l = self
            .front
            .lowerer(&source.settings(), with_data, MAX_SIZE)
            .map_err(|d| Failure::new(&d))?;
        let warnings = l.take_warnings().iter().map(plain).collect();
        Ok((l, warnings))
    }
}

/// Keeps the last matrix made, so records that share one share its copy.
#[derive(Default)]
pub struct MatrixCache(Option<Arc<Matrix>>);

impl MatrixCache {
    fn get(&mut self, c: &Arc<Compiled>) -> Arc<Matrix> {
        match &self.0 {
            Some(m) if Arc::ptr_eq(&m.compiled, c) => Arc::clone(m),
            _ => {
                let m = Arc::new(Matrix::new(c));
                self.0 = Some(Arc::clone(&m));
                m
            }
        }
    }
}

/// Why an instance could not be made: the diagnostics, and whether the instance is
/// simply unsolvable (a primary item no option covers) rather than wrong.
pub struct NotMade {
    /// The diagnostics.
    pub failure: Failure,
    /// Whether it is unsolvable rather than broken.
    pub unsolvable: bool,
}

impl From<Failure> for NotMade {
    fn from(failure: Failure) -> NotMade {
        NotMade {
            failure,
            unsolvable: false,
        }
    }
}

/// Lowers one instance: the defaults (`record` is `None`), or a record. `warnings`
/// are the lowerer's, reported with every instance.
pub fn instance(
    source: &Arc<Source>,
    loaded: &Loaded,
    warnings: &[Diag],
    lowerer: &mut Lowerer<'_>,
    record: Option<RecordText>,
    cache: &mut MatrixCache,
) -> Result<Core, NotMade> {
    let value = match (&record, lowerer.data_param()) {
        (Some(r), Some((name, ty))) => {
            let v = parse_text(&r.text, ty).map_err(|e| {
                Failure::one(
                    Report::error(
                        Code::E0605,
                        format!("record {} for `{name}`: {}", r.index, e.message),
                    )
                    .help(format!("each record must be {}", record_layout(ty))),
                )
            })?;
            Some(v)
        }
        _ => None,
    };
    let lowered = lowerer.instance(value);
    let mut all = loaded.warnings.clone();
    all.extend_from_slice(warnings);
    all.extend(lowerer.take_warnings().iter().map(plain));
    let inst = lowered.map_err(
        |RecordFailure {
             diagnostics,
             unsolvable,
         }| NotMade {
            failure: Failure::new(&diagnostics),
            unsolvable,
        },
    )?;
    Ok(Core {
        source: Arc::clone(source),
        record,
        src: loaded.front.src.clone(),
        matrix: cache.get(&inst.compiled),
        forced: inst.forced,
        objective: inst.objective,
        warnings: all,
    })
}

/// Compiles `source` (for `record`, when given) in one go.
pub fn compile(source: Arc<Source>, record: Option<RecordText>) -> Result<Core, NotMade> {
    if source.knuth {
        return Ok(knuth(source)?);
    }
    let loaded = Loaded::new(&source)?;
    let (mut lowerer, warnings) = loaded.lowerer(&source, record.is_some())?;
    instance(
        &source,
        &loaded,
        &warnings,
        &mut lowerer,
        record,
        &mut MatrixCache::default(),
    )
}

/// Reads the problem in Knuth's format that `source` holds, as `dlxc solve` does:
/// nothing forced, and least total cost its objective when an option has a cost.
fn knuth(source: Arc<Source>) -> Result<Core, Failure> {
    let src = SourceFile::new(source.name.clone(), source.text.clone());
    let problem = dlxc::format::knuth::read(&src).map_err(|d| Failure::new(&d))?;
    let inst = Instance::of_problem(problem);
    Ok(Core {
        source,
        record: None,
        src,
        matrix: Arc::new(Matrix::new(&inst.compiled)),
        forced: inst.forced,
        objective: inst.objective,
        warnings: Vec::new(),
    })
}

impl Core {
    /// A fresh solver for a search; a problem the engine refuses raises `ModelError`.
    pub fn solver(&self, py: Python<'_>) -> PyResult<Solver> {
        self.matrix.solver().map_err(|u| self.unsupported(py, &u))
    }

    /// The `ModelError` of a problem the engine refuses.
    pub fn unsupported(&self, py: Python<'_>, u: &Unsupported) -> PyErr {
        Failure::one(dlxc::session::reports::unsupported_report(
            &self.src,
            &self.matrix.problem,
            u,
        ))
        .into_err(py)
    }
}
