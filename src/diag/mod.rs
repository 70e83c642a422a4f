//! Diagnostics: how every user mistake is reported.
//!
//! Each phase of the pipeline has its own error type (one `thiserror` + `miette`
//! enum or struct per phase, defined next to the phase) and its own range of stable
//! codes:
//!
//! | codes   | phase                                         |
//! |---------|-----------------------------------------------|
//! | `E00xx` | model syntax                                  |
//! | `E01xx` | names: undefined, duplicate, arity, cycles    |
//! | `E02xx` | types of values                               |
//! | `E03xx` | evaluation: ranges, indexing, overflow        |
//! | `E04xx` | model checks on the lowered problem           |
//! | `E05xx` | limits                                        |
//! | `E06xx` | parameters and data records                   |
//! | `E08xx` | Knuth's text format and 0/1 matrices          |
//! | `W0xxx` | warnings                                      |
//!
//! Every code has an explanation in `docs/errors/<CODE>.md`, compiled in by `build.rs`
//! and shown by `dlxc explain CODE`; the [`Code`] enum is made from those pages, so
//! they are the one list of codes. This module holds what the phases share: the
//! collected list of diagnostics of one run, and the renderer used both by the CLI and
//! by the golden tests (no colour, fixed width, so every sentence a user can read is
//! in a reviewed file).

use std::fmt;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};

mod clip;
pub mod code;
pub mod json;
pub mod report;
pub mod suggest;

include!(concat!(env!("OUT_DIR"), "/explanations.rs"));

pub use code::Code;

/// The explanation of a diagnostic code (`E0101` or `dlx::E0101`), if there is one.
pub fn explain(code: &str) -> Option<&'static str> {
    code.parse::<Code>().ok().map(Code::explanation)
}

/// A boxed diagnostic, as collected by the phases.
pub type Diag = Box<dyn Diagnostic + Send + Sync + 'static>;

/// All the diagnostics one phase produced: errors and warnings, in the order found.
#[derive(Default)]
pub struct Diagnostics {
    list: Vec<Diag>,
}

impl Diagnostics {
    /// An empty list.
    pub fn new() -> Diagnostics {
        Diagnostics::default()
    }

    /// Adds one diagnostic.
    pub fn push(&mut self, d: impl Diagnostic + Send + Sync + 'static) {
        self.list.push(Box::new(d));
    }

    /// Adds an already boxed diagnostic.
    pub fn push_boxed(&mut self, d: Diag) {
        self.list.push(d);
    }

    /// Moves every diagnostic of `other` to the end of this list.
    pub fn extend(&mut self, other: Diagnostics) {
        self.list.extend(other.list);
    }

    /// Whether any diagnostic is an error (not a warning or advice).
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(|d| is_error(d.as_ref()))
    }

    /// Number of errors.
    pub fn error_count(&self) -> usize {
        self.list.iter().filter(|d| is_error(d.as_ref())).count()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Number of diagnostics.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// The diagnostics in the order found.
    pub fn iter(&self) -> impl Iterator<Item = &(dyn Diagnostic + Send + Sync + 'static)> {
        self.list.iter().map(|d| d.as_ref())
    }

    /// Takes the diagnostics out.
    pub fn into_vec(self) -> Vec<Diag> {
        self.list
    }
}

impl fmt::Debug for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.list.iter().map(|d| d.to_string()))
            .finish()
    }
}

impl From<Diag> for Diagnostics {
    fn from(d: Diag) -> Diagnostics {
        Diagnostics { list: vec![d] }
    }
}

/// Whether a diagnostic is an error; diagnostics without a severity are errors.
pub fn is_error(d: &dyn Diagnostic) -> bool {
    matches!(d.severity(), None | Some(miette::Severity::Error))
}

/// How diagnostics are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderStyle {
    /// Use ANSI colours.
    pub color: bool,
    /// Use Unicode box-drawing characters rather than ASCII.
    pub unicode: bool,
    /// Wrap at this many columns.
    pub width: usize,
}

impl RenderStyle {
    /// The style of golden files: no colour, Unicode, 80 columns.
    pub const GOLDEN: RenderStyle = RenderStyle {
        color: false,
        unicode: true,
        width: 80,
    };
}

/// Renders one diagnostic as text, the way the CLI prints it.
pub fn render(d: &dyn Diagnostic, style: RenderStyle) -> String {
    let theme = match (style.unicode, style.color) {
        (true, true) => GraphicalTheme::unicode(),
        (true, false) => GraphicalTheme::unicode_nocolor(),
        (false, true) => GraphicalTheme::ascii(),
        (false, false) => GraphicalTheme::none(),
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false);
    let mut out = String::new();
    let drawn = match clip::clipped(d) {
        Some(c) => handler.render_report(&mut out, &c),
        None => handler.render_report(&mut out, d),
    };
    if drawn.is_err() {
        // Rendering only fails on a broken source span; the message alone still helps.
        out = format!("error: {d}\n");
    }
    out
}

/// How many diagnostics [`render_all`] draws. Drawing one reads the source from its
/// start to the label, so thousands of them on a large file took quadratic time; past
/// the first few dozen they tell the reader nothing new.
pub const MAX_RENDERED: usize = 50;

/// Renders every diagnostic of a list (the first [`MAX_RENDERED`] of them, then a line
/// counting the rest), separated as the CLI separates them.
pub fn render_all(diags: &Diagnostics, style: RenderStyle) -> String {
    let mut out = String::new();
    for d in diags.iter().take(MAX_RENDERED) {
        out.push_str(&render(d, style));
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    let rest: Vec<_> = diags.iter().skip(MAX_RENDERED).collect();
    if !rest.is_empty() {
        let errors = rest.iter().filter(|d| is_error(**d)).count();
        let warnings = rest.len() - errors;
        let plural =
            |n: usize, what: &str| format!("{n} more {what}{}", if n == 1 { "" } else { "s" });
        let what = match (errors, warnings) {
            (0, w) => plural(w, "warning"),
            (e, 0) => plural(e, "error"),
            (e, w) => format!("{} and {}", plural(e, "error"), plural(w, "warning")),
        };
        out.push_str(&format!("... and {what}, not shown\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_explanation_starts_with_its_code() {
        for (code, text) in EXPLANATIONS {
            assert!(
                text.starts_with(&format!("# {code}")),
                "docs/errors/{code}.md must start with `# {code}`"
            );
        }
        let mut codes: Vec<_> = EXPLANATIONS.iter().map(|(c, _)| *c).collect();
        codes.dedup();
        assert_eq!(codes.len(), EXPLANATIONS.len());
    }
}
