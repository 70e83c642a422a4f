//! What a model paints: the cells of each option and of the canvas, for pictures of
//! solutions.
//!
//! A model of a million options paints a million cells, and its canvas as many again
//! (`queens -p n=1000`), so a cell is packed: 32-bit coordinates and the number of its
//! text, each text stored once.

use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashMap;

use crate::problem::OptionId;

/// The number of a painted text in its [`Paints`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TextId(u32);

impl TextId {
    /// The number as an index (of [`Paints::bytes`]).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One painted cell as stored: (layer,) row, column and its text's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Painted {
    /// The layer of a cell painted as `(layer, row, column)`; `None` for `(row, column)`.
    pub layer: Option<i32>,
    /// Row.
    pub row: i32,
    /// Column.
    pub col: i32,
    /// What it shows: [`Paints::text`].
    pub text: TextId,
}

/// One painted cell with its text, as tests and other makers write them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaintCell {
    /// The layer, or `None` for a plane cell.
    pub layer: Option<i32>,
    /// Row.
    pub row: i32,
    /// Column.
    pub col: i32,
    /// What it shows.
    pub text: Arc<str>,
}

/// The cells each option paints, by option id, end to end in one list (an option costs
/// its cells and an offset, not a list of its own), the canvas under them, and the
/// texts they show.
#[derive(Clone, Debug, Default)]
pub struct Paints {
    /// Where the cells of each option end in `cells`; they start where the previous
    /// option's end.
    ends: Vec<usize>,
    cells: Vec<Painted>,
    /// The background cells of every solution (`canvas` declarations).
    canvas: Vec<Painted>,
    /// The region of each cell, one list per `draw region`: pictures outline where it
    /// changes.
    regions: Vec<Vec<Painted>>,
    /// Small texts in cells' corners (`draw note`).
    notes: Vec<Painted>,
    texts: Vec<Arc<str>>,
    numbers: FxHashMap<Arc<str>, TextId>,
    /// Whether some text is longer than one byte (else every cell is one character
    /// wide, and drawing a grid needs no widths).
    wide: bool,
    /// The byte of each text, while every text is one byte other than 0 (see
    /// [`Paints::bytes`]).
    bytes: Vec<u8>,
    /// Whether some text is not one byte other than 0.
    not_bytes: bool,
    /// The least and greatest row and column of every cell, canvas included, while
    /// none is layered (see [`Paints::frame`]).
    frame: Option<Frame>,
    /// Whether some cell is layered.
    layered: bool,
    /// See [`Paints::places`]; made on first use, forgotten when cells are added.
    places: OnceLock<Vec<u32>>,
}

/// In [`Paints::places`]: an option that does not paint exactly one cell.
pub const NOT_ONE_CELL: u32 = u32::MAX;

/// The rows and columns that cells may be painted in: `rows.0..=rows.1` and
/// `cols.0..=cols.1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The least and greatest row.
    pub rows: (i32, i32),
    /// The least and greatest column.
    pub cols: (i32, i32),
}

impl Frame {
    /// How many columns and rows it spans.
    pub fn size(&self) -> (usize, usize) {
        let span = |(lo, hi): (i32, i32)| hi.abs_diff(lo) as usize + 1;
        (span(self.cols), span(self.rows))
    }

    /// Where `p` is in it, row by row.
    pub fn place(&self, p: &Painted) -> usize {
        p.row.abs_diff(self.rows.0) as usize * self.size().0 + p.col.abs_diff(self.cols.0) as usize
    }
}

impl Paints {
    /// Paints made of the cells of each option in turn and a canvas (for tests and
    /// other makers).
    pub fn from_options(
        options: impl IntoIterator<Item = Vec<PaintCell>>,
        canvas: Vec<PaintCell>,
    ) -> Paints {
        let mut p = Paints::default();
        let mut cells = Vec::new();
        for option in options {
            cells.clear();
            cells.extend(option.iter().map(|c| p.pack(c)));
            p.push(&mut cells);
        }
        let mut canvas: Vec<Painted> = canvas.iter().map(|c| p.pack(c)).collect();
        p.push_canvas(&mut canvas);
        p
    }

    fn pack(&mut self, c: &PaintCell) -> Painted {
        Painted {
            layer: c.layer,
            row: c.row,
            col: c.col,
            text: self.intern(&c.text),
        }
    }

    /// The number of a text, stored the first time it is seen.
    pub fn intern(&mut self, text: &str) -> TextId {
        if let Some(&t) = self.numbers.get(text) {
            return t;
        }
        // Texts are told apart by their number: far fewer than 2^32 texts fit in memory
        // next to the cells that show them.
        let t = TextId(self.texts.len() as u32);
        self.wide |= text.len() > 1;
        match text.as_bytes() {
            &[b] if b != 0 && !self.not_bytes => self.bytes.push(b),
            _ => {
                self.not_bytes = true;
                self.bytes = Vec::new();
            }
        }
        let text: Arc<str> = Arc::from(text);
        self.texts.push(Arc::clone(&text));
        self.numbers.insert(text, t);
        t
    }

    /// Whether some text is longer than one byte.
    pub fn has_wide_texts(&self) -> bool {
        self.wide
    }

    /// Widens the frame to `cells`.
    fn frame_cells(&mut self, cells: &[Painted]) {
        for c in cells {
            self.layered |= c.layer.is_some();
            let f = self.frame.get_or_insert(Frame {
                rows: (c.row, c.row),
                cols: (c.col, c.col),
            });
            f.rows = (f.rows.0.min(c.row), f.rows.1.max(c.row));
            f.cols = (f.cols.0.min(c.col), f.cols.1.max(c.col));
        }
    }

    /// The rows and columns of every cell that may be painted, when none is layered
    /// and there are some.
    pub fn frame(&self) -> Option<Frame> {
        self.frame.filter(|_| !self.layered)
    }

    /// For each option that paints one cell, where in the [`Paints::frame`] (row by
    /// row) and with which of [`Paints::bytes`]: `place << 8 | byte`, else
    /// [`NOT_ONE_CELL`]. `None` unless every text is a byte and the frame has at most
    /// `max` cells (below 2^24). Drawing a sudoku's 81 cells then reads 81 words of one
    /// table rather than 81 cells and their bounds, spread out in memory.
    pub fn places(&self, max: usize) -> Option<&[u32]> {
        let frame = self.frame()?;
        let bytes = self.bytes()?;
        let (across, height) = frame.size();
        if height.saturating_mul(across) > max.min(1 << 24) {
            return None;
        }
        let places = self.places.get_or_init(|| {
            (0..self.ends.len())
                .map(|k| match self.of(OptionId(k as u32)) {
                    [p] => (frame.place(p) as u32) << 8 | u32::from(bytes[p.text.index()]),
                    _ => NOT_ONE_CELL,
                })
                .collect()
        });
        Some(places)
    }

    /// The byte of each text by number, when every text is one byte (an ASCII
    /// character) other than 0: a grid of them is drawn byte by byte, with no text
    /// looked up (a sudoku record's 81 cells).
    pub fn bytes(&self) -> Option<&[u8]> {
        (!self.not_bytes).then_some(&self.bytes[..])
    }

    /// The text with this number.
    pub fn text(&self, t: TextId) -> &str {
        &self.texts[t.0 as usize]
    }

    /// The cells option `id` paints (none for an option beyond the list).
    pub fn of(&self, id: OptionId) -> &[Painted] {
        let k = id.index();
        match self.ends.get(k) {
            Some(&end) => {
                let start = if k == 0 { 0 } else { self.ends[k - 1] };
                &self.cells[start..end]
            }
            None => &[],
        }
    }

    /// The canvas: the cells under every solution.
    pub fn canvas(&self) -> &[Painted] {
        &self.canvas
    }

    /// The cells of each `draw region` declaration, whose texts name their regions.
    pub fn regions(&self) -> &[Vec<Painted>] {
        &self.regions
    }

    /// Adds the cells of one `draw region` declaration.
    pub fn push_regions(&mut self, cells: Vec<Painted>) {
        self.regions.push(cells);
    }

    /// The cells of the `draw note` declarations.
    pub fn notes(&self) -> &[Painted] {
        &self.notes
    }

    /// Adds cells of `draw note` declarations.
    pub fn push_notes(&mut self, cells: &mut Vec<Painted>) {
        self.notes.append(cells);
    }

    /// How many options the list covers.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no option is in the list.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Every cell of every option, option after option.
    pub fn all(&self) -> &[Painted] {
        &self.cells
    }

    /// Whether neither an option nor the canvas paints anything.
    pub fn paints_nothing(&self) -> bool {
        self.cells.is_empty() && self.canvas.is_empty()
    }

    /// Adds the cells of the next option, taking them from `cells`.
    pub fn push(&mut self, cells: &mut Vec<Painted>) {
        self.frame_cells(cells);
        self.places = OnceLock::new();
        self.cells.append(cells);
        self.ends.push(self.cells.len());
    }

    /// Makes room for `options` more options painting `cells` cells in all, when
    /// memory allows.
    pub fn reserve(&mut self, options: usize, cells: usize) {
        let _ = self.ends.try_reserve_exact(options);
        let _ = self.cells.try_reserve_exact(cells);
    }

    /// Adds cells to the canvas, taking them from `cells`.
    pub fn push_canvas(&mut self, cells: &mut Vec<Painted>) {
        self.frame_cells(cells);
        self.places = OnceLock::new();
        if self.canvas.is_empty() {
            // The usual case, one `canvas`: its cells as they are, not a copy.
            std::mem::swap(&mut self.canvas, cells);
        } else {
            self.canvas.append(cells);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(row: i32, col: i32, text: &str) -> PaintCell {
        PaintCell {
            layer: None,
            row,
            col,
            text: text.into(),
        }
    }

    #[test]
    fn texts_are_stored_once_and_cells_read_back() {
        let p = Paints::from_options(
            vec![
                vec![cell(0, 0, "A"), cell(0, 1, "A")],
                vec![],
                vec![cell(1, 0, "B")],
            ],
            vec![cell(5, 5, ".")],
        );
        assert_eq!(p.len(), 3);
        assert_eq!(p.texts.len(), 3);
        let a = p.of(OptionId(0));
        assert_eq!((a.len(), a[0].text), (2, a[1].text));
        assert_eq!(p.text(a[0].text), "A");
        assert!(p.of(OptionId(1)).is_empty());
        assert_eq!(p.text(p.of(OptionId(2))[0].text), "B");
        assert!(p.of(OptionId(7)).is_empty());
        assert_eq!((p.canvas()[0].row, p.text(p.canvas()[0].text)), (5, "."));
        assert!(!p.paints_nothing() && Paints::default().paints_nothing());
    }
}
