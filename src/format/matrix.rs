//! The 0/1 matrix format: a header `n m`, then `n` rows of `m` entries, each 0 or 1.
//!
//! ```text
//! 3 4
//! 1 0 0 1
//! 0 1 1 0
//! 1 1 0 0
//! ```
//!
//! Columns become primary items named `c1` … `cm`; rows become options named by their
//! 1-based row number (`"3"`), covering the columns where they have a 1. Entries are
//! separated by blanks, and each row is one line: a row split over two lines is
//! reported as two short rows, because accepting it would also hide a missing entry.
//! Blank lines and lines whose first non-blank character is `|` or `#` are skipped, as
//! comments, anywhere in the file. An all-zero row is kept as an option with no items.
//!
//! [`read`] finds every error of the file (codes `E0820`–`E0824`, see
//! [`MatrixError`]), keeping the first [`MAX_KEPT`] and counting the others.

use std::sync::Arc;

use miette::{Diagnostic, NamedSource, SourceSpan};

use crate::diag::{Diagnostics, MAX_KEPT};
use crate::format::{Line, lines};
use crate::problem::{Entry, ItemId, ItemKind, Opt, Origin, Problem};
use crate::source::{SourceFile, Span};

/// The most columns a matrix may declare: each column becomes an item, so without a
/// cap a two-line file `0 4000000000` would allocate hundreds of gigabytes.
pub const MAX_COLUMNS: u32 = 1 << 20;

/// A mistake in a 0/1 matrix file.
#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum MatrixError {
    /// The first line is not two counts.
    #[error("expected a header `rows columns`, found {found}")]
    #[diagnostic(code(dlx::E0820))]
    BadHeader {
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The header line or the bad token.
        #[label("{label}")]
        span: Option<SourceSpan>,
        /// What was found instead.
        found: String,
        /// The label.
        label: String,
        /// What to write instead.
        #[help]
        help: String,
    },
    /// A row has the wrong number of entries.
    #[error("expected {expected} entries in row {row}, found {found}")]
    #[diagnostic(code(dlx::E0821))]
    RowLength {
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The row.
        #[label("{found} entries")]
        span: SourceSpan,
        /// The header.
        #[label("the header says {expected} columns")]
        header: SourceSpan,
        /// Its 1-based number.
        row: usize,
        /// The number of columns.
        expected: u32,
        /// The number of entries found.
        found: usize,
        /// What to write instead.
        #[help]
        help: String,
    },
    /// An entry is neither 0 nor 1.
    #[error("expected 0 or 1, found `{found}`")]
    #[diagnostic(
        code(dlx::E0822),
        help("each entry says whether the row covers the column: write 1 if it does, 0 if not")
    )]
    BadEntry {
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The entry.
        #[label("row {row}, column {column}")]
        span: SourceSpan,
        /// What was found.
        found: String,
        /// 1-based row.
        row: usize,
        /// 1-based column.
        column: usize,
    },
    /// The file ends before the declared number of rows.
    #[error("expected {expected} rows, found only {found}")]
    #[diagnostic(code(dlx::E0823))]
    TooFewRows {
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The header.
        #[label("the header says {expected} rows")]
        header: SourceSpan,
        /// Declared rows.
        expected: u32,
        /// Rows found.
        found: usize,
        /// What to write instead.
        #[help]
        help: String,
    },
    /// The file has more rows than declared.
    #[error("expected {expected} rows, found {found}")]
    #[diagnostic(code(dlx::E0824))]
    TooManyRows {
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The first extra row.
        #[label("row {row} is beyond the declared count")]
        span: SourceSpan,
        /// The header.
        #[label("the header says {expected} rows")]
        header: SourceSpan,
        /// Declared rows.
        expected: u32,
        /// The number of the first extra row.
        row: usize,
        /// The number of rows in the file.
        found: usize,
        /// What to write instead.
        #[help]
        help: String,
    },
}

/// Reads a 0/1 matrix, reporting every error found.
pub fn read(src: &SourceFile) -> Result<Problem, Diagnostics> {
    let mut diags = Diagnostics::keeping(MAX_KEPT);
    let mut body = lines(src.text()).filter(|l| !is_skipped(*l));
    let Some(header_line) = body.next() else {
        diags.push(MatrixError::BadHeader {
            src: src.named(),
            span: None,
            found: "an empty file".into(),
            label: String::new(),
            help: "write the number of rows, a space and the number of columns: `6 7`, \
                   then the rows"
                .into(),
        });
        return Err(diags);
    };
    let Some((n, m, spans)) = header(src, header_line, &mut diags) else {
        return Err(diags);
    };
    let mut problem = Problem::new();
    let mut rows = 0usize;
    for line in body {
        rows += 1;
        if rows > n as usize {
            let found = n as usize + body_rows_after(src, line);
            diags.push(MatrixError::TooManyRows {
                src: src.named(),
                span: line.span().into(),
                header: spans[0].into(),
                expected: n,
                row: rows,
                found,
                help: format!("remove the extra rows, or make the header `{found} {m}`"),
            });
            break;
        }
        if let Some(e) = super::over_budget(src, line, "matrix") {
            diags.push(e);
            return Err(diags);
        }
        row(src, line, rows, m, spans[1], &mut problem, &mut diags);
    }
    if rows < n as usize {
        diags.push(MatrixError::TooFewRows {
            src: src.named(),
            header: spans[0].into(),
            expected: n,
            found: rows,
            help: format!(
                "add the missing rows, or make the header `{rows} {m}`; each row is one line"
            ),
        });
    }
    if diags.has_errors() {
        return Err(diags);
    }
    // Items are made last, so that a bad file with a huge column count is refused
    // without allocating its items. Column `k` (0-based) is item `k`, as the rows assumed.
    let options = std::mem::take(&mut problem.options);
    for c in 1..=m {
        problem.add_item(
            format!("c{c}"),
            ItemKind::PRIMARY,
            Origin::Line(header_line.number),
        );
    }
    problem.options = options;
    Ok(problem)
}

/// Lines that hold no row: blank lines and comments.
fn is_skipped(line: Line<'_>) -> bool {
    let t = line.text.trim_start();
    t.is_empty() || t.starts_with('|') || t.starts_with('#')
}

/// How many rows the file has from `line` on, for the "make the header" help.
fn body_rows_after(src: &SourceFile, line: Line<'_>) -> usize {
    lines(src.text())
        .filter(|l| l.start >= line.start && !is_skipped(*l))
        .count()
}

/// Parses the header `n m`; returns the counts and the spans of the two numbers.
fn header(
    src: &SourceFile,
    line: Line<'_>,
    diags: &mut Diagnostics,
) -> Option<(u32, u32, [Span; 2])> {
    let toks: Vec<_> = line.tokens().collect();
    let mut bad = |span: Span, found: String, label: &str, help: &str| {
        diags.push(MatrixError::BadHeader {
            src: src.named(),
            span: Some(span.into()),
            found,
            label: label.into(),
            help: help.into(),
        });
        None
    };
    if toks.len() != 2 {
        return bad(
            line.span(),
            format!("`{}`", line.text.trim()),
            &format!("{} tokens, not two numbers", toks.len()),
            "write the number of rows, a space and the number of columns: `6 7`",
        );
    }
    let mut counts = [0u32; 2];
    for (k, tok) in toks.iter().enumerate() {
        match tok.text.parse::<u32>() {
            Ok(v) if k == 1 && v > MAX_COLUMNS => {
                return bad(
                    tok.span(),
                    format!("{v} columns"),
                    "too many columns",
                    "dlxc reads matrices of at most 1048576 columns",
                );
            }
            Ok(v) => counts[k] = v,
            Err(_) if tok.text.bytes().all(|b| b.is_ascii_digit()) => {
                return bad(
                    tok.span(),
                    format!("`{}`", tok.text),
                    "too large",
                    "the counts must be at most 4294967295 rows and 1048576 columns",
                );
            }
            Err(_) => {
                return bad(
                    tok.span(),
                    format!("`{}`", tok.text),
                    "not a nonnegative integer",
                    "write the number of rows, a space and the number of columns: `6 7`",
                );
            }
        }
    }
    Some((counts[0], counts[1], [toks[0].span(), toks[1].span()]))
}

/// Parses row number `r` and adds it as an option if it is well formed.
fn row(
    src: &SourceFile,
    line: Line<'_>,
    r: usize,
    m: u32,
    header: Span,
    problem: &mut Problem,
    diags: &mut Diagnostics,
) {
    let before = diags.len();
    let mut entries = Vec::new();
    let mut count = 0usize;
    for (k, tok) in line.tokens().enumerate() {
        count += 1;
        match tok.text {
            "0" => {}
            "1" if k < m as usize => entries.push(Entry {
                item: ItemId(k as u32),
                color: None,
            }),
            "1" => {}
            _ => diags.push(MatrixError::BadEntry {
                src: src.named(),
                span: tok.span().into(),
                found: tok.text.to_string(),
                row: r,
                column: k + 1,
            }),
        }
    }
    if count != m as usize {
        let help = if count < m as usize {
            format!(
                "write all {m} entries of the row on one line, with 0 for the columns it \
                 does not cover"
            )
        } else {
            format!("remove the extra entries, or make the header's column count {count}")
        };
        diags.push(MatrixError::RowLength {
            src: src.named(),
            span: line.span().into(),
            header: header.into(),
            row: r,
            expected: m,
            found: count,
            help,
        });
    }
    if diags.len() == before {
        problem.add_option(Opt {
            name: Some(r.to_string()),
            entries,
            cost: None,
            origin: Origin::Line(line.number),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_paper_example() {
        let text = "6 7\n0 0 1 0 1 1 0\n1 0 0 1 0 0 1\n0 1 1 0 0 1 0\n\
                    1 0 0 1 0 0 0\n0 1 0 0 0 0 1\n0 0 0 1 1 0 1\n";
        let p = read(&SourceFile::new("paper.txt", text)).unwrap();
        assert_eq!(p.items.len(), 7);
        assert_eq!(p.items[6].name, "c7");
        assert_eq!(p.options.len(), 6);
        assert_eq!(p.option_items_text(crate::problem::OptionId(0)), "c3 c5 c6");
        assert_eq!(p.options.get(5).name, Some("6"));
        assert_eq!(p.options.get(5).origin, Origin::Line(7));
        assert_eq!(p.entry_count(), 16);
    }

    #[test]
    fn empty_matrices_and_zero_rows() {
        let p = read(&SourceFile::new("m", "0 3\n")).unwrap();
        assert_eq!((p.items.len(), p.options.len()), (3, 0));
        let p = read(&SourceFile::new("m", "| c\n2 2\n\n0 0\n# c\n1 1\n")).unwrap();
        assert_eq!(p.options.get(0).entries.len(), 0);
        assert_eq!(p.options.get(1).origin, Origin::Line(6));
    }

    #[test]
    fn collects_every_error() {
        let e = read(&SourceFile::new("m", "3 2\n1 2\n1\n")).unwrap_err();
        // `2` is not 0/1; row 2 is short; row 3 is missing.
        assert_eq!(e.len(), 3);
    }
}
