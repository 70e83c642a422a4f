//! Diagnostics as data for editors and scripts: `dlxc check --json` prints one object
//! per diagnostic, and the language server (`dlxc lsp`) builds its diagnostics from the
//! same [`Flat`] form, so both say the same thing as the rendered text.
//!
//! An object has the fields (documented in `docs/tooling.md`):
//!
//! ```json
//! {"code": "E0101", "severity": "error", "message": "...", "file": "m.dlx",
//!  "line": 3, "column": 7, "end_line": 3, "end_column": 12,
//!  "span": {"start": 41, "end": 46},
//!  "labels": [{"text": "...", "primary": true, "line": 3, "column": 7,
//!              "end_line": 3, "end_column": 12, "span": {"start": 41, "end": 46}}],
//!  "help": "..."}
//! ```
//!
//! Lines and columns count from 1, columns in characters; spans are byte offsets into
//! the file, end exclusive. A diagnostic without a place (a file that cannot be read)
//! has `null` for the file, line, column and span and no labels.

use miette::{Diagnostic, Severity, SourceCode, SourceSpan};
use serde_json::{Value, json};

/// A place in a source: its byte span and where it starts and ends, 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// Byte offset of the start.
    pub start: usize,
    /// Byte offset one past the end.
    pub end: usize,
    /// Line of the start.
    pub line: usize,
    /// Column (in characters) of the start.
    pub column: usize,
    /// Line of the end.
    pub end_line: usize,
    /// Column (in characters) of the end.
    pub end_column: usize,
}

/// One label of a diagnostic, with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlatLabel {
    /// What the label says, if anything.
    pub text: Option<String>,
    /// Whether it marks the diagnostic's main place.
    pub primary: bool,
    /// Where; `None` when the span does not fit the source.
    pub place: Option<Place>,
}

/// A diagnostic taken apart: what the JSON objects and the language server need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flat {
    /// The stable code without the `dlx::` prefix (`E0101`), if it has one.
    pub code: Option<String>,
    /// `error`, `warning` or `advice`.
    pub severity: &'static str,
    /// The one-line message.
    pub message: String,
    /// The name of the source the labels point into, if any.
    pub file: Option<String>,
    /// The labels, in the diagnostic's order.
    pub labels: Vec<FlatLabel>,
    /// The help line(s).
    pub help: Option<String>,
}

impl Flat {
    /// The main place: the first primary label's, else the first label's.
    pub fn place(&self) -> Option<Place> {
        self.labels
            .iter()
            .find(|l| l.primary)
            .or_else(|| self.labels.first())
            .and_then(|l| l.place)
    }

    /// The JSON object of `dlxc check --json`.
    pub fn to_json(&self) -> Value {
        let place = self.place();
        let span =
            |p: Option<Place>| p.map_or(Value::Null, |p| json!({"start": p.start, "end": p.end}));
        let labels: Vec<Value> = self
            .labels
            .iter()
            .map(|l| {
                json!({
                    "text": l.text,
                    "primary": l.primary,
                    "line": l.place.map(|p| p.line),
                    "column": l.place.map(|p| p.column),
                    "end_line": l.place.map(|p| p.end_line),
                    "end_column": l.place.map(|p| p.end_column),
                    "span": span(l.place),
                })
            })
            .collect();
        json!({
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "file": self.file,
            "line": place.map(|p| p.line),
            "column": place.map(|p| p.column),
            "end_line": place.map(|p| p.end_line),
            "end_column": place.map(|p| p.end_column),
            "span": span(place),
            "labels": labels,
            "help": self.help,
        })
    }
}

/// Takes a diagnostic apart.
pub fn flatten(d: &dyn Diagnostic) -> Flat {
    let severity = match d.severity() {
        None | Some(Severity::Error) => "error",
        Some(Severity::Warning) => "warning",
        Some(Severity::Advice) => "advice",
    };
    let code = d
        .code()
        .map(|c| c.to_string().trim_start_matches("dlx::").to_string());
    let src = d.source_code().and_then(whole);
    let labels = d
        .labels()
        .into_iter()
        .flatten()
        .map(|l| FlatLabel {
            text: l.label().map(str::to_string),
            primary: l.primary(),
            place: src
                .as_ref()
                .and_then(|(text, _)| place(text, l.offset(), l.offset() + l.len())),
        })
        .collect();
    let file = src.and_then(|(_, name)| name);
    Flat {
        code,
        severity,
        message: d.to_string(),
        file,
        labels,
        help: d.help().map(|h| h.to_string()),
    }
}

/// The whole text of a source and its name: miette hands back a span with the lines
/// around it, and from the start with every line after it is the whole text.
fn whole(src: &dyn SourceCode) -> Option<(&str, Option<String>)> {
    let contents = src
        .read_span(&SourceSpan::new(0.into(), 0), 0, usize::MAX)
        .ok()?;
    let text = std::str::from_utf8(contents.data()).ok()?;
    Some((text, contents.name().map(str::to_string)))
}

/// The place of a byte span in a text.
pub fn place(text: &str, start: usize, end: usize) -> Option<Place> {
    let (line, column) = line_col(text, start)?;
    let (end_line, end_column) = line_col(text, end)?;
    Some(Place {
        start,
        end,
        line,
        column,
        end_line,
        end_column,
    })
}

/// The 1-based line and character column of a byte offset.
fn line_col(text: &str, offset: usize) -> Option<(usize, usize)> {
    let before = text.get(..offset)?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Some((
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Code;
    use crate::diag::report::Report;
    use crate::source::{SourceFile, Span};

    #[test]
    fn a_report_becomes_an_object_with_its_places() {
        let src = SourceFile::new("m.dlx", "param n = 3\nlet é = nn + 1\n");
        let r = Report::error(Code::E0101, "`nn` is not defined")
            .label(Span::new(21, 23), "not defined")
            .secondary(Span::new(6, 7), "did you mean this?")
            .help("write `n`")
            .with_source(&src);
        let v = flatten(&r).to_json();
        assert_eq!(v["code"], "E0101");
        assert_eq!(v["severity"], "error");
        assert_eq!(v["file"], "m.dlx");
        // `é` is two bytes and one character: `nn` is at column 9 of line 2.
        assert_eq!(
            (v["line"].as_u64(), v["column"].as_u64()),
            (Some(2), Some(9))
        );
        assert_eq!(v["end_column"], 11);
        assert_eq!(v["span"], json!({"start": 21, "end": 23}));
        assert_eq!(v["labels"][1]["line"], 1);
        assert_eq!(v["labels"][1]["primary"], false);
        assert_eq!(v["help"], "write `n`");
    }

    #[test]
    fn a_diagnostic_without_a_source_has_no_place() {
        let r = Report::warning(Code::E0902, "cannot read x");
        let v = flatten(&r).to_json();
        assert_eq!(v["severity"], "warning");
        assert!(v["line"].is_null() && v["file"].is_null());
        assert_eq!(v["labels"], json!([]));
    }
}
