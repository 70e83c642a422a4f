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
///
/// A list made by [`Diagnostics::keeping`] holds only its first few diagnostics and
/// counts the others: a file read line by line can have an error on each of millions
/// of lines, and holding them all took gigabytes (a 73 MB Knuth file held 5.1 GB)
/// where no one reads past the first screenful.
pub struct Diagnostics {
    list: Vec<Diag>,
    /// How many diagnostics `list` holds at most.
    keep: usize,
    /// Errors pushed past `keep`, counted and dropped.
    dropped_errors: usize,
    /// Warnings (and advice) pushed past `keep`, counted and dropped.
    dropped_warnings: usize,
}

impl Default for Diagnostics {
    fn default() -> Diagnostics {
        Diagnostics::keeping(usize::MAX)
    }
}

/// How many diagnostics a reader of a file of lines keeps (Knuth's format, `.ec`
/// files, 0/1 matrices): twice what [`render_all`] draws, so the JSON and Python
/// lists hold a little more than the screen, and the rest is a count.
pub const MAX_KEPT: usize = 2 * MAX_RENDERED;

impl Diagnostics {
    /// An empty list that keeps everything pushed.
    pub fn new() -> Diagnostics {
        Diagnostics::default()
    }

    /// An empty list that keeps the first `keep` diagnostics pushed and only counts
    /// the later ones ([`Diagnostics::omitted`]), in bounded memory.
    pub fn keeping(keep: usize) -> Diagnostics {
        Diagnostics {
            list: Vec::new(),
            keep,
            dropped_errors: 0,
            dropped_warnings: 0,
        }
    }

    /// Adds one diagnostic.
    pub fn push(&mut self, d: impl Diagnostic + Send + Sync + 'static) {
        if self.list.len() < self.keep {
            self.list.push(Box::new(d));
        } else {
            self.drop_one(&d);
        }
    }

    /// Adds an already boxed diagnostic.
    pub fn push_boxed(&mut self, d: Diag) {
        if self.list.len() < self.keep {
            self.list.push(d);
        } else {
            self.drop_one(d.as_ref());
        }
    }

    fn drop_one(&mut self, d: &dyn Diagnostic) {
        if is_error(d) {
            self.dropped_errors += 1;
        } else {
            self.dropped_warnings += 1;
        }
    }

    /// Moves every diagnostic of `other` to the end of this list (as far as this list
    /// keeps them; the others, and those `other` only counted, are counted).
    pub fn extend(&mut self, other: Diagnostics) {
        for d in other.list {
            self.push_boxed(d);
        }
        self.dropped_errors += other.dropped_errors;
        self.dropped_warnings += other.dropped_warnings;
    }

    /// Whether any diagnostic is an error (not a warning or advice).
    pub fn has_errors(&self) -> bool {
        self.dropped_errors > 0 || self.list.iter().any(|d| is_error(d.as_ref()))
    }

    /// Number of errors, kept or not.
    pub fn error_count(&self) -> usize {
        self.dropped_errors + self.list.iter().filter(|d| is_error(d.as_ref())).count()
    }

    /// Whether nothing was pushed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of diagnostics pushed, kept or not.
    pub fn len(&self) -> usize {
        self.list.len() + self.dropped_errors + self.dropped_warnings
    }

    /// The errors and the warnings pushed past the list's limit: counted, not kept.
    pub fn omitted(&self) -> (usize, usize) {
        (self.dropped_errors, self.dropped_warnings)
    }

    /// The diagnostics kept, in the order found.
    pub fn iter(&self) -> impl Iterator<Item = &(dyn Diagnostic + Send + Sync + 'static)> {
        self.list.iter().map(|d| d.as_ref())
    }

    /// Takes the diagnostics kept out.
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
        let mut all = Diagnostics::new();
        all.push_boxed(d);
        all
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
    let (omitted_errors, omitted_warnings) = diags.omitted();
    let errors = rest.iter().filter(|d| is_error(**d)).count() + omitted_errors;
    let warnings = rest.len() + omitted_warnings + omitted_errors - errors;
    if errors + warnings > 0 {
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

    fn error(n: usize) -> report::Report {
        report::Report::error(Code::E0801, format!("error {n}"))
    }

    fn warning(n: usize) -> report::Report {
        report::Report::warning(Code::W0410, format!("warning {n}"))
    }

    #[test]
    fn a_bounded_list_keeps_the_first_and_counts_the_rest() {
        let mut d = Diagnostics::keeping(3);
        for n in 0..10 {
            if n % 4 == 3 {
                d.push(warning(n));
            } else {
                d.push(error(n));
            }
        }
        let kept: Vec<String> = d.iter().map(|d| d.to_string()).collect();
        assert_eq!(kept, ["error 0", "error 1", "error 2"]);
        // Of the seven dropped (3 to 9), 3 and 7 are warnings.
        assert_eq!(d.omitted(), (5, 2));
        assert_eq!((d.len(), d.error_count()), (10, 8));
        assert!(d.has_errors());
        // Only warnings dropped: still no error.
        let mut w = Diagnostics::keeping(0);
        w.push(warning(0));
        assert!(!w.has_errors() && !w.is_empty());
        // Extending a bounded list keeps its bound and the other list's counts.
        let mut e = Diagnostics::keeping(1);
        e.extend(d);
        assert_eq!((e.iter().count(), e.len(), e.error_count()), (1, 10, 8));
    }

    #[test]
    fn the_count_of_what_is_not_shown_includes_what_was_not_kept() {
        let mut d = Diagnostics::keeping(MAX_RENDERED + 5);
        for n in 0..MAX_RENDERED + 1000 {
            d.push(error(n));
        }
        d.push(warning(0));
        let text = render_all(&d, RenderStyle::GOLDEN);
        assert!(
            text.ends_with("... and 1000 more errors and 1 more warning, not shown\n"),
            "{}",
            &text[text.len().saturating_sub(200)..]
        );
    }
}
