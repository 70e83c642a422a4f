//! Text formats of exact cover, read into and written out of [`Problem`].
//!
//! - [`knuth`]: the input format of Knuth's DLX1, DLX2 (colors), DLX3 (multiplicity
//!   bounds) and DLX5 (costs), read and written, so that problems can be exchanged
//!   with his programs and the engine can be tested without the language;
//! - [`matrix`]: a plain 0/1 matrix with a `rows columns` header, read only;
//! - [`ec`]: the `.ec` files of exact-cover benchmarks (`p ec N`, then `s i j ...`),
//!   read only.
//!
//! Readers collect every error of a file, not just the first, and report each with a
//! label on the exact token; their codes are `E08xx`.
//!
//! [`Problem`]: crate::problem::Problem

pub mod ec;
pub mod knuth;
pub mod matrix;

use crate::diag::Code;
use crate::diag::report::Report;
use crate::lower::budget;
use crate::source::{SourceFile, Span};

/// How many lines a reader reads between two looks at the memory budget.
const BUDGET_EVERY: u32 = 256;

/// The error when a file's problem outgrows the memory budget at `line`, or `None`
/// while it fits. Looked at every [`BUDGET_EVERY`] lines: a file is read in one pass,
/// and its problem costs several times its text.
pub(crate) fn over_budget(src: &SourceFile, line: Line<'_>, what: &str) -> Option<Report> {
    if !line.number.is_multiple_of(BUDGET_EVERY) || !budget::exceeded() {
        return None;
    }
    Some(
        Report::error(
            Code::E0505,
            format!(
                "the {what} outgrew the memory budget of {}",
                budget::human(budget::budget())
            ),
        )
        .label(
            line.span(),
            format!("the budget ran out at line {}", line.number),
        )
        .help("split the problem, or raise the budget with `--max-memory SIZE` (such as 8G)")
        .with_source(src),
    )
}

/// A line of a text file: its 1-based number, its byte offset and its text (without
/// the line terminator).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line<'a> {
    pub number: u32,
    pub start: usize,
    pub text: &'a str,
}

impl<'a> Line<'a> {
    /// The whitespace-separated tokens of the line, each with its span in the file.
    pub fn tokens(self) -> impl Iterator<Item = Token<'a>> {
        let start = self.start;
        let text = self.text;
        let mut pos = 0;
        std::iter::from_fn(move || {
            let rest = &text[pos..];
            let skip = rest.len() - rest.trim_start().len();
            pos += skip;
            if pos >= text.len() {
                return None;
            }
            let rest = &text[pos..];
            let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let tok = Token {
                text: &rest[..len],
                offset: start + pos,
            };
            pos += len;
            Some(tok)
        })
    }

    /// The span of the line's text, without surrounding whitespace (empty at the line's
    /// start for a blank line).
    pub fn span(self) -> Span {
        let lead = self.text.len() - self.text.trim_start().len();
        let trimmed = self.text.trim();
        Span::new(self.start + lead, self.start + lead + trimmed.len())
    }

    /// Whether the line is blank or a `|` comment (Knuth's rule: the first non-blank
    /// character is `|`).
    pub fn is_blank_or_comment(self) -> bool {
        let t = self.text.trim_start();
        t.is_empty() || t.starts_with('|')
    }
}

/// A whitespace-separated token and its byte offset in the file.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token<'a> {
    pub text: &'a str,
    pub offset: usize,
}

impl Token<'_> {
    /// The token's span.
    pub fn span(self) -> Span {
        Span::new(self.offset, self.offset + self.text.len())
    }

    /// The span of `self.text[from..to]`.
    pub fn sub(self, from: usize, to: usize) -> Span {
        Span::new(self.offset + from, self.offset + to)
    }
}

/// The lines of a text, numbered from 1. Both `\n` and `\r\n` end a line.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    let mut start = 0;
    let mut number = 0u32;
    std::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        let rest = &text[start..];
        let len = rest.find('\n').unwrap_or(rest.len());
        let body = rest[..len].strip_suffix('\r').unwrap_or(&rest[..len]);
        number = number.saturating_add(1);
        let line = Line {
            number,
            start,
            text: body,
        };
        start += len + 1;
        Some(line)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_tokens_carry_offsets() {
        let text = "| c\r\n  ab  cd\n\nx";
        let ls: Vec<_> = lines(text).collect();
        assert_eq!(ls.len(), 4);
        assert!(ls[0].is_blank_or_comment() && ls[2].is_blank_or_comment());
        assert_eq!(ls[0].text, "| c");
        let toks: Vec<_> = ls[1].tokens().collect();
        assert_eq!(toks.len(), 2);
        assert_eq!(toks[1].span().slice(text), "cd");
        assert_eq!(ls[1].span().slice(text), "ab  cd");
        assert_eq!(ls[3].number, 4);
    }

    /// Every `E08xx` code has an explanation and a golden test, and every golden test
    /// shows codes that have explanations.
    #[test]
    fn every_format_code_is_explained_and_tested() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
        let mut tested = std::collections::BTreeSet::new();
        for dir in ["knuth", "matrix", "ec"] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "stderr") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    for line in text.lines() {
                        if let Some(code) = line.strip_prefix("dlx::") {
                            tested.insert(code.to_string());
                        }
                    }
                }
            }
        }
        let explained: std::collections::BTreeSet<String> = crate::diag::EXPLANATIONS
            .iter()
            .map(|(c, _)| c.to_string())
            .filter(|c| c.starts_with("E08"))
            .collect();
        assert_eq!(tested, explained);
        assert_eq!(explained.len(), 18);
    }

    #[test]
    fn matrix_garbage_never_panics() {
        for text in [
            "\0\u{1}",
            "99999999999 1\n",
            "1 99999999999\n",
            "4294967295 1048576\n",
            "0 1048576\n",
            "1 1048577\n",
            "2 2\n1 1 1 1 1\n\u{fffd}\n1\n1 1\n1 1\n",
            "0 0\n",
            "-1 2\n",
            "1 2\r\n1 0\r\n",
        ] {
            let _ = matrix::read(&crate::source::SourceFile::new("garbage", text));
        }
    }
}
