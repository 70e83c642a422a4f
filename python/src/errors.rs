//! Diagnostics as Python sees them: [`ModelError`] with the codes, the rendered report
//! and the spans of every diagnostic.
//!
//! Diagnostics are turned into plain data ([`Failure`]) where they are made, possibly
//! on a worker thread (the diagnostics themselves may hold values that cannot leave
//! it), and into an exception only on the Python thread.

use dlxc::diag::{Diagnostics, RenderStyle, is_error, render, render_all};
use miette::{Diagnostic, SourceSpan};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyList;

create_exception!(
    _dlxc,
    ModelError,
    PyException,
    "A model, its parameters or a data record is wrong, or the engine refuses it.\n\n\
     Attributes: `codes` (the diagnostic codes, `E0401`...), `report` (every diagnostic \
     rendered as the command line renders it, without colour), `diagnostics` (a list of \
     `Diagnostic`)."
);

create_exception!(
    _dlxc,
    LimitReached,
    PyException,
    "A time or node limit cut a search short. Attributes: `count` (solutions found \
     before it, a lower bound), `nodes`, `limit` (`\"time\"` or `\"nodes\"`)."
);

/// Where a label points: byte offsets into the source, and 1-based line and column of
/// its start.
#[pyclass(frozen, get_all, module = "dlxc")]
#[derive(Clone, Debug)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset just past the last byte.
    pub end: usize,
    /// 1-based line of `start`.
    pub line: usize,
    /// 1-based column (in characters) of `start`.
    pub col: usize,
    /// The label's text.
    pub label: Option<String>,
    /// Whether this is the label the message is about.
    pub primary: bool,
}

#[pymethods]
impl Span {
    fn __repr__(&self) -> String {
        format!(
            "Span(start={}, end={}, line={}, col={}, label={:?})",
            self.start, self.end, self.line, self.col, self.label
        )
    }
}

/// One diagnostic: code, severity, message, help and labelled spans.
#[pyclass(frozen, get_all, module = "dlxc")]
#[derive(Clone, Debug)]
pub struct Diag {
    /// The stable code (`E0401`, `W0101`).
    pub code: Option<String>,
    /// `"error"` or `"warning"`.
    pub severity: String,
    /// The message, one line.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
    /// The source's name (the path of the model), when the diagnostic shows source.
    pub source: Option<String>,
    /// The labelled places.
    pub spans: Vec<Span>,
    /// This diagnostic alone, rendered as the command line renders it (no colour).
    pub report: String,
}

#[pymethods]
impl Diag {
    fn __repr__(&self) -> String {
        format!(
            "Diagnostic(code={:?}, message={:?})",
            self.code.as_deref().unwrap_or(""),
            self.message
        )
    }

    fn __str__(&self) -> String {
        self.report.clone()
    }
}

/// Diagnostics made plain: what a [`ModelError`] carries, built on any thread.
#[derive(Clone, Debug)]
pub struct Failure {
    /// Every diagnostic, in the order found.
    pub diags: Vec<Diag>,
    /// All of them rendered as the command line prints them.
    pub report: String,
}

impl Failure {
    /// The plain form of `diags`.
    pub fn new(diags: &Diagnostics) -> Failure {
        Failure {
            diags: diags.iter().map(plain).collect(),
            report: render_all(diags, RenderStyle::GOLDEN),
        }
    }

    /// The plain form of one diagnostic.
    pub fn one(d: impl Diagnostic + Send + Sync + 'static) -> Failure {
        let mut all = Diagnostics::new();
        all.push(d);
        Failure::new(&all)
    }

    /// The exception.
    pub fn into_err(self, py: Python<'_>) -> PyErr {
        let first = self
            .diags
            .iter()
            .find(|d| d.severity == "error")
            .or(self.diags.first());
        let message = match first {
            Some(d) => match &d.code {
                Some(c) => format!("{c}: {}", d.message),
                None => d.message.clone(),
            },
            None => "the model failed".to_string(),
        };
        let err = ModelError::new_err(message);
        let value = err.value(py);
        let codes: Vec<String> = self.diags.iter().filter_map(|d| d.code.clone()).collect();
        let set = || -> PyResult<()> {
            value.setattr("codes", codes)?;
            value.setattr("report", self.report)?;
            let list = PyList::empty(py);
            for d in self.diags {
                list.append(Py::new(py, d)?)?;
            }
            value.setattr("diagnostics", list)?;
            Ok(())
        };
        match set() {
            Ok(()) => err,
            Err(e) => e,
        }
    }
}

/// One diagnostic as plain data.
pub fn plain(d: &(dyn Diagnostic + Send + Sync + 'static)) -> Diag {
    let code = d
        .code()
        .map(|c| c.to_string().trim_start_matches("dlx::").to_string());
    let severity = if is_error(d) { "error" } else { "warning" };
    let mut spans = Vec::new();
    let mut source = None;
    if let Some(labels) = d.labels() {
        for l in labels {
            let (line, col) = d
                .source_code()
                .and_then(|s| {
                    let at = SourceSpan::new(l.offset().into(), 0);
                    let c = s.read_span(&at, 0, 0).ok()?;
                    if source.is_none() {
                        source = c.name().map(str::to_string);
                    }
                    Some((c.line() + 1, c.column() + 1))
                })
                .unwrap_or((0, 0));
            spans.push(Span {
                start: l.offset(),
                end: l.offset() + l.len(),
                line,
                col,
                label: l.label().map(str::to_string),
                primary: l.primary(),
            });
        }
    }
    Diag {
        code,
        severity: severity.to_string(),
        message: d.to_string(),
        help: d.help().map(|h| h.to_string()),
        source,
        spans,
        report: render(d, RenderStyle::GOLDEN),
    }
}
