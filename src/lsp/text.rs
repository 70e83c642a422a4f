//! Byte offsets and the protocol's positions: lines from 0, columns in UTF-16 code
//! units (the protocol's default encoding).

use lsp_types::{Position, Range};

/// The line starts of a text.
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    /// Indexes a text.
    pub fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    /// The position of a byte offset (clamped to the text, and to a character start).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let character = self.text[start..offset].encode_utf16().count();
        Position::new(line as u32, character as u32)
    }

    /// The range of a byte span.
    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end))
    }

    /// The byte offset of a position (past the end of its line: the line's end).
    pub fn offset(&self, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(pos.line as usize + 1)
            .map_or(self.text.len(), |&s| s - 1);
        let mut units = 0;
        for (i, c) in self.text[start..end].char_indices() {
            if units >= pos.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let l = Lines::new("ab\n\u{1F600}x\n");
        assert_eq!(l.position(0), Position::new(0, 0));
        assert_eq!(l.position(3), Position::new(1, 0));
        // The emoji is four bytes and two UTF-16 units.
        assert_eq!(l.position(7), Position::new(1, 2));
        assert_eq!(l.offset(Position::new(1, 2)), 7);
        assert_eq!(l.offset(Position::new(0, 9)), 2);
    }
}
