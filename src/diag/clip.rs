//! Very long source lines, clipped to a window around the labels before rendering.
//!
//! miette draws a label by padding to its column with `{:width$}`, and Rust's
//! formatter refuses widths past 65,535 (it panics with "Formatting argument out of
//! range"). A generated model or Knuth file can have a line that long, and even when it
//! does not panic, a diagnostic that reprints a megabyte of one line helps no one. So a
//! diagnostic whose source has a line longer than [`MAX_LINE`] is rendered from a copy
//! of the source in which each long line keeps only [`MARGIN`] bytes either side of
//! every label end, the cuts shown as `...`. Line numbers are unchanged, and the
//! `file:line:column` header still gives the column in the real line.

use std::fmt;

use miette::{
    Diagnostic, LabeledSpan, MietteError, MietteSpanContents, Severity, SourceCode, SourceSpan,
    SpanContents,
};

/// Lines up to this many bytes are rendered whole.
pub const MAX_LINE: usize = 400;

/// Bytes kept on each side of a label's start and end on a clipped line.
pub const MARGIN: usize = 40;

/// What replaces each cut.
const CUT: &str = "...";

/// A diagnostic rendered from a clipped copy of its source.
pub struct Clipped<'d> {
    inner: &'d dyn Diagnostic,
    source: ClipSource,
    labels: Vec<LabeledSpan>,
}

/// The clipped text, and how its offsets map back to the original.
struct ClipSource {
    name: Option<String>,
    text: String,
    original: String,
    /// The pieces of the original, in order.
    pieces: Vec<Piece>,
}

/// `original[from..to]`, at `at` in the clipped text: copied, or replaced by [`CUT`].
struct Piece {
    from: usize,
    to: usize,
    at: usize,
    cut: bool,
}

/// The clipped text and its pieces as they are built.
#[derive(Default)]
struct Pieces {
    text: String,
    pieces: Vec<Piece>,
}

impl Pieces {
    fn copy(&mut self, original: &str, from: usize, to: usize) {
        self.add(from, to, false, &original[from..to]);
    }

    fn cut(&mut self, from: usize, to: usize) {
        self.add(from, to, true, CUT);
    }

    fn add(&mut self, from: usize, to: usize, cut: bool, text: &str) {
        if from < to {
            let at = self.text.len();
            self.pieces.push(Piece { from, to, at, cut });
            self.text.push_str(text);
        }
    }
}

impl ClipSource {
    /// The offset in the clipped text of an original offset: the start of the cut
    /// marker if the offset was cut, or its end when `end` is set.
    fn map(&self, offset: usize, end: bool) -> usize {
        let i = self
            .pieces
            .partition_point(|p| p.from <= offset)
            .saturating_sub(1);
        match self.pieces.get(i) {
            Some(p) if p.cut && offset > p.from => p.at + if end { CUT.len() } else { 0 },
            Some(p) => p.at + (offset - p.from).min(self.text.len() - p.at),
            None => offset.min(self.text.len()),
        }
    }

    /// The original offset of an offset in the clipped text.
    fn unmap(&self, offset: usize) -> usize {
        let i = self
            .pieces
            .partition_point(|p| p.at <= offset)
            .saturating_sub(1);
        match self.pieces.get(i) {
            Some(p) => (p.from + (offset - p.at)).min(p.to),
            None => offset,
        }
    }
}

impl SourceCode for ClipSource {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let c = self
            .text
            .as_str()
            .read_span(span, context_lines_before, context_lines_after)?;
        let column = if context_lines_before == 0 {
            // The header's column: count it in the real line.
            let at = self.unmap(span.offset());
            at - start_of_line(&self.original, at)
        } else {
            c.column()
        };
        let (data, span, line, count) = (c.data(), *c.span(), c.line(), c.line_count());
        Ok(Box::new(match &self.name {
            Some(n) => MietteSpanContents::new_named(n.clone(), data, span, line, column, count),
            None => MietteSpanContents::new(data, span, line, column, count),
        }))
    }
}

/// The diagnostic with its long lines clipped, or `None` when it has no source, no
/// labels, or no line longer than [`MAX_LINE`] (then it renders as it is).
pub fn clipped(d: &dyn Diagnostic) -> Option<Clipped<'_>> {
    let src = d.source_code()?;
    let labels: Vec<LabeledSpan> = d.labels()?.collect();
    if labels.is_empty() {
        return None;
    }
    let whole = src
        .read_span(&SourceSpan::from((0, 0)), 0, usize::MAX)
        .ok()?;
    let original = std::str::from_utf8(whole.data()).ok()?.to_string();
    let name = whole.name().map(str::to_string);
    let mut points: Vec<usize> = labels
        .iter()
        .flat_map(|l| [l.offset(), l.offset() + l.len()])
        .filter(|&p| p <= original.len())
        .collect();
    points.sort_unstable();
    // Only the lines around the labels are drawn; the rest is kept as it is, so a file
    // of many long lines costs one copy, not a window per line.
    let line_of = |p: usize| (start_of_line(&original, p), end_of_line(&original, p));
    let mut shown: Vec<(usize, usize)> = Vec::new();
    for &p in &points {
        let (start, end) = line_of(p);
        shown.push((start, end));
        if start > 0 {
            shown.push(line_of(start - 1));
        }
        if end < original.len() {
            shown.push(line_of(end));
        }
    }
    shown.sort_unstable();
    shown.dedup();
    if !shown.iter().any(|&(a, b)| b - a > MAX_LINE) {
        return None;
    }
    let mut out = Pieces::default();
    let mut done = 0;
    for (line_start, line_end) in shown {
        if line_start < done {
            continue;
        }
        out.copy(&original, done, line_start);
        done = line_end;
        let line = &original[line_start..line_end];
        if line.len() <= MAX_LINE {
            out.copy(&original, line_start, line_end);
            continue;
        }
        let lo = points.partition_point(|&p| p < line_start);
        let hi = points.partition_point(|&p| p <= line_end);
        let here = &points[lo..hi];
        let windows: Vec<(usize, usize)> = if here.is_empty() {
            vec![(line_start, line_start + 2 * MARGIN)]
        } else {
            here.iter()
                .map(|&p| (p.saturating_sub(MARGIN), p + MARGIN))
                .collect()
        };
        let mut keep: Vec<(usize, usize)> = Vec::new();
        for (a, b) in windows {
            let a = floor_char(&original, a.max(line_start));
            let b = ceil_char(&original, b.min(line_end));
            match keep.last_mut() {
                Some(last) if a <= last.1 => last.1 = last.1.max(b),
                _ => keep.push((a, b)),
            }
        }
        let mut at = line_start;
        for (a, b) in keep {
            out.cut(at, a);
            out.copy(&original, a, b);
            at = b;
        }
        // Keep the newline, so that line numbers do not move.
        let newline = line_end - usize::from(line.ends_with('\n'));
        out.cut(at, newline);
        out.copy(&original, at.max(newline), line_end);
    }
    out.copy(&original, done, original.len());
    let source = ClipSource {
        name,
        text: out.text,
        original,
        pieces: out.pieces,
    };
    let labels = labels
        .iter()
        .map(|l| {
            let start = source.map(l.offset(), false);
            let end = source.map(l.offset() + l.len(), true).max(start);
            let span = SourceSpan::from((start, end - start));
            let text = l.label().map(str::to_string);
            if l.primary() {
                LabeledSpan::new_primary_with_span(text, span)
            } else {
                LabeledSpan::new_with_span(text, span)
            }
        })
        .collect();
    Some(Clipped {
        inner: d,
        source,
        labels,
    })
}

/// The start of the line holding byte `at`. Bytes, not `str` slicing: a label's
/// offset need not fall on a character boundary.
fn start_of_line(s: &str, at: usize) -> usize {
    let at = at.min(s.len());
    s.as_bytes()[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1)
}

/// The end of the line holding byte `at`, past its newline.
fn end_of_line(s: &str, at: usize) -> usize {
    let at = at.min(s.len());
    s.as_bytes()[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(s.len(), |i| at + i + 1)
}

fn floor_char(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

impl fmt::Debug for Clipped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Clipped({})", self.inner)
    }
}

impl fmt::Display for Clipped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.inner, f)
    }
}

impl std::error::Error for Clipped<'_> {}

impl Diagnostic for Clipped<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.inner.code()
    }

    fn severity(&self) -> Option<Severity> {
        self.inner.severity()
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.inner.help()
    }

    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.inner.url()
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::report::Report;
    use crate::diag::{Code, RenderStyle, render};
    use crate::source::{SourceFile, Span};

    fn report_at(text: &str, at: usize, len: usize) -> Report {
        let src = SourceFile::new("long.dlx", text);
        Report::error(Code::E0101, "undefined name `zz`")
            .label(Span::new(at, at + len), "not defined")
            .with_source(&src)
    }

    #[test]
    fn a_label_past_column_65535_renders_in_a_window() {
        let text = format!("let a = 1\n{}zz\nlet b = 2\n", " ".repeat(66_000));
        let at = 10 + 66_000;
        let out = render(&report_at(&text, at, 2), RenderStyle::GOLDEN);
        assert!(out.contains("[long.dlx:2:66001]"), "{out}");
        assert!(out.contains("...") && out.contains("zz"), "{out}");
        assert!(out.contains("not defined"), "{out}");
        assert!(out.len() < 2_000, "{out}");
        // The label still points at `zz`: its underline starts under the name.
        let line = out.lines().find(|l| l.starts_with(" 2 │")).unwrap();
        let under = out.lines().find(|l| l.contains("┬")).unwrap();
        assert_eq!(
            line.chars().position(|c| c == 'z'),
            under.chars().position(|c| c == '─' || c == '┬'),
            "{out}"
        );
    }

    #[test]
    fn a_long_label_and_two_far_labels_on_one_line_are_cut_between() {
        let mut text = "x".repeat(100_000);
        text.push('\n');
        let src = SourceFile::new("m", text.as_str());
        let r = Report::error(Code::E0101, "two")
            .label(Span::new(10, 90_000), "long")
            .secondary(Span::new(95_000, 95_001), "far")
            .with_source(&src);
        let out = render(&r, RenderStyle::GOLDEN);
        assert!(out.contains("long") && out.contains("far"), "{out}");
        assert!(out.len() < 4_000, "{out}");
    }

    #[test]
    fn short_lines_are_left_alone_and_multibyte_cuts_are_on_char_boundaries() {
        let r = report_at("let a = b\n", 8, 1);
        assert!(clipped(&r).is_none());
        let text = format!("{}zz\n", "é".repeat(40_000));
        let out = render(&report_at(&text, 80_000, 2), RenderStyle::GOLDEN);
        assert!(out.contains("zz") && out.contains("not defined"), "{out}");
    }

    #[test]
    fn a_label_inside_a_character_of_a_long_line_does_not_panic() {
        let text = format!("{}zz\n", "é".repeat(40_000));
        let out = render(&report_at(&text, 40_001, 2), RenderStyle::GOLDEN);
        assert!(out.contains("not defined"), "{out}");
    }
}
