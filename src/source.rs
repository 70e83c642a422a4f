//! Source files and byte spans.
//!
//! Every syntax node, every lowered item and option, and every diagnostic refers to
//! text through a [`Span`]: two `u32` byte offsets into one [`SourceFile`]. A span is
//! `Copy` and eight bytes, so it can be stored everywhere without thinking about it;
//! the file it belongs to is known from context (one model file per compilation, one
//! Knuth-format file per `dlxc solve`).

use std::sync::Arc;

use miette::{NamedSource, SourceCode, SourceSpan};

/// A half-open byte range `start..end` in a source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// Offset of the first byte.
    pub start: u32,
    /// Offset one past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from byte offsets; offsets past `u32::MAX` saturate (inputs that large are
    /// refused before parsing, so this never happens in practice).
    pub fn new(start: usize, end: usize) -> Span {
        let clamp = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
        Span {
            start: clamp(start),
            end: clamp(end.max(start)),
        }
    }

    /// The smallest span that covers both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// Length in bytes.
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    /// Whether the span covers no bytes.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The text this span covers in `text` (empty if the span does not fit).
    pub fn slice(self, text: &str) -> &str {
        text.get(self.start as usize..self.end as usize)
            .unwrap_or("")
    }
}

impl From<Span> for SourceSpan {
    fn from(span: Span) -> SourceSpan {
        SourceSpan::new((span.start as usize).into(), span.len())
    }
}

/// A named text: a model file, a data file or a Knuth-format problem.
///
/// Cheap to clone (the text is shared), so every diagnostic can carry its own copy
/// for miette to render.
#[derive(Clone, Debug)]
pub struct SourceFile {
    name: Arc<str>,
    text: Arc<str>,
    named: Arc<NamedSource<Arc<str>>>,
}

impl SourceFile {
    /// A source file with a display name (usually its path) and its text.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let name: Arc<str> = Arc::from(name.into());
        let text: Arc<str> = Arc::from(text.into());
        let named = Arc::new(NamedSource::new(&name, Arc::clone(&text)));
        SourceFile { name, text, named }
    }

    /// The display name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let offset = (offset as usize).min(self.text.len());
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before[line_start..].chars().count() + 1;
        (line, col)
    }

    /// The source as miette reads it, for `Diagnostic::source_code`.
    pub fn source_code(&self) -> &dyn SourceCode {
        &*self.named
    }

    /// The source in the form miette renders: name plus text.
    pub fn named(&self) -> NamedSource<Arc<str>> {
        NamedSource::new(&self.name, Arc::clone(&self.text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_join_and_slice() {
        let a = Span::new(2, 4);
        let b = Span::new(6, 9);
        assert_eq!(a.to(b), Span::new(2, 9));
        assert_eq!(Span::new(0, 5).slice("hello world"), "hello");
        assert_eq!(Span::new(5, 50).slice("hello"), "");
    }

    #[test]
    fn line_and_column_count_characters() {
        let f = SourceFile::new("x", "ab\ncé d\n");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        // 'é' is two bytes; the 'd' after "cé " is the fourth character.
        assert_eq!(f.line_col(7), (2, 4));
    }
}
