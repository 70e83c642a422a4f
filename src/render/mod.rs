//! Rendering solutions: painted grids, option lists and JSON Lines.
//!
//! Everything here returns strings; the CLI decides where they go.

pub mod json;
pub mod svg;

use crate::instance::Compiled;
use crate::instance::paint::{NOT_ONE_CELL, Painted, Paints};
use crate::problem::{OptionId, Problem};

/// What an unpainted hole of a painted grid shows.
pub const FILL: &str = ".";

/// The painted grid of a solution, one string per row, or `None` when nothing is
/// painted. The canvas (background) is drawn first, then the cells of the chosen options.
///
/// Rows run from the least painted row to the greatest; each row runs from the least
/// painted column of the whole grid to the greatest painted column of that row, so a
/// triangular board prints as a triangle. Holes inside a row show [`FILL`]. When every
/// painted text is one character the cells are written side by side (`534678912`);
/// otherwise they are right-aligned to the widest text and separated by spaces.
pub fn paint_grid(families: &Compiled, chosen: &[OptionId]) -> Option<Vec<String>> {
    paint(&families.paints, chosen)
}

/// [`paint_grid`] from what it needs: the cells each option paints (by option id) and
/// the canvas. For callers that keep these without the rest of the families (whose
/// index of values cannot leave its thread).
pub fn paint(paints: &Paints, chosen: &[OptionId]) -> Option<Vec<String>> {
    match Dense::lay_out(paints, chosen) {
        Some(dense) => dense.map(|d| d.rows().collect()),
        None => paint_sorted(paints, chosen),
    }
}

/// [`paint_grid`] as text: each row and a line end, appended to `out`. Returns false
/// (and writes nothing) when nothing is painted. The same rows as [`paint_grid`], with
/// no string per row: printing a sudoku record's grid is then one buffer.
pub fn write_grid(families: &Compiled, chosen: &[OptionId], out: &mut String) -> bool {
    let paints = &families.paints;
    if let Some(written) = write_bytes(paints, chosen, out) {
        return written;
    }
    let rows = match Dense::lay_out(paints, chosen) {
        Some(Some(dense)) => {
            dense.write(out);
            return true;
        }
        Some(None) => return false,
        None => paint_sorted(paints, chosen),
    };
    for row in rows.iter().flatten() {
        out.push_str(row);
        out.push('\n');
    }
    rows.is_some()
}

/// [`write_grid`] when every text is one byte ([`Paints::bytes`]) and the cells that
/// may be painted fill a small box ([`Paints::frame`]): the chosen cells are drawn onto
/// a grid of bytes the size of that box (0 where nothing is painted), and the rows and
/// columns they reach are written. `None` otherwise.
fn write_bytes(paints: &Paints, chosen: &[OptionId], out: &mut String) -> Option<bool> {
    let places = paints.places(MAX_FRAME)?;
    let (frame, bytes) = (paints.frame()?, paints.bytes()?);
    let (across, height) = frame.size();
    let mut grid = vec![0u8; height * across];
    let place = |grid: &mut [u8], p: &Painted| grid[frame.place(p)] = bytes[p.text.index()];
    for p in paints.canvas() {
        place(&mut grid, p);
    }
    for &id in chosen {
        match places.get(id.index()) {
            Some(&at) if at != NOT_ONE_CELL => grid[(at >> 8) as usize] = at as u8,
            _ => paints.of(id).iter().for_each(|p| place(&mut grid, p)),
        }
    }
    // The rows and columns reached, as the cells themselves would give them.
    let painted = |row: &[u8]| row.iter().any(|&b| b != 0);
    let Some(first) = grid.chunks_exact(across).position(painted) else {
        return Some(false);
    };
    let last = grid
        .chunks_exact(across)
        .rposition(painted)
        .unwrap_or(first);
    let rows = &grid[first * across..(last + 1) * across];
    let left = rows
        .chunks_exact(across)
        .filter_map(|row| row.iter().position(|&b| b != 0))
        .min()
        .unwrap_or(0);
    out.reserve(rows.len() + (last + 1 - first));
    for row in rows.chunks_exact(across) {
        let row = &row[left..];
        let used = row.iter().rposition(|&b| b != 0).map_or(0, |k| k + 1);
        // Every byte of a text of one byte is an ASCII character.
        out.extend(row[..used].iter().map(|&b| match b {
            0 => FILL_BYTE as char,
            b => b as char,
        }));
        out.push('\n');
    }
    Some(true)
}

/// Most cells of a frame drawn by [`write_bytes`]: its grid is allocated and zeroed
/// for every solution.
const MAX_FRAME: usize = 1 << 14;

/// [`FILL`] as a byte.
const FILL_BYTE: u8 = FILL.as_bytes()[0];

/// [`paint`] for any cells: sorted by place.
fn paint_sorted(paints: &Paints, chosen: &[OptionId]) -> Option<Vec<String>> {
    // Later cells paint over earlier ones: the canvas first, then the options in order.
    // Sorting by (row, column, order painted) keeps that order among cells painted at
    // one place; the order makes every key distinct, so an unstable sort (no scratch
    // buffer) gives the same result as a stable one.
    let mut cells: Vec<(i64, i64, usize, &str)> = plane_cells(paints, chosen, false)
        .into_iter()
        .enumerate()
        .map(|(k, p)| (p.row, p.col, k, p.text))
        .collect();
    cells.sort_unstable_by_key(|&(r, c, k, _)| (r, c, k));
    let (min_row, max_row) = (cells.first()?.0, cells.last()?.0);
    let min_col = cells.iter().map(|c| c.1).min()?;
    let width = cells
        .iter()
        .map(|c| c.3.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    let mut rows = Vec::new();
    let mut cells = cells.iter().peekable();
    for r in min_row..=max_row {
        let mut line = String::new();
        let mut next_col = min_col;
        while let Some(&(_, col, _, text)) = cells.next_if(|c| c.0 == r) {
            if cells.peek().is_some_and(|n| (n.0, n.1) == (r, col)) {
                continue; // painted over later
            }
            for hole in next_col..col {
                push_cell(&mut line, FILL, width, hole == min_col);
            }
            push_cell(&mut line, text, width, col == min_col);
            next_col = col.saturating_add(1);
        }
        rows.push(line);
    }
    Some(rows)
}

/// The least and greatest rows and columns of painted cells.
struct Bounds {
    rows: (i32, i32),
    cols: (i32, i32),
}

/// Plane cells in a box not much larger than their number (a sudoku record, a
/// packing), drawn onto a grid in painting order, later cells over earlier ones, with
/// no sort.
struct Dense<'a> {
    /// What each place of the box shows, row after row.
    grid: Vec<Option<&'a str>>,
    /// Places per row.
    across: usize,
    /// The widest text, in characters.
    width: usize,
}

impl<'a> Dense<'a> {
    /// The grid of the cells; `None` when they are layered or too spread out for a
    /// grid, `Some(None)` when there are none.
    fn lay_out(paints: &'a Paints, chosen: &[OptionId]) -> Option<Option<Dense<'a>>> {
        let Some(Bounds { rows, cols }) = Dense::bounds(paints, chosen)? else {
            return Some(None);
        };
        let width = match paints.has_wide_texts() {
            false => 1,
            true => {
                let mut width = 1;
                each_painted(paints, chosen, |p| {
                    width = width.max(paints.text(p.text).chars().count());
                });
                width
            }
        };
        let height = rows.1.abs_diff(rows.0) as usize + 1;
        let across = cols.1.abs_diff(cols.0) as usize + 1;
        let mut grid: Vec<Option<&str>> = vec![None; height * across];
        each_painted(paints, chosen, |p| {
            let at = (p.row - rows.0) as usize * across + (p.col - cols.0) as usize;
            grid[at] = Some(paints.text(p.text));
        });
        Some(Some(Dense {
            grid,
            across,
            width,
        }))
    }

    /// The least and greatest painted row and column (`None` when nothing is
    /// painted); `None` when cells are layered, or too spread out for a grid (the box
    /// more than four times the cells, past a thousand).
    fn bounds(paints: &Paints, chosen: &[OptionId]) -> Option<Option<Bounds>> {
        let (mut n, mut flat) = (0usize, true);
        let (mut rows, mut cols) = ((i32::MAX, i32::MIN), (i32::MAX, i32::MIN));
        each_painted(paints, chosen, |p| {
            flat &= p.layer.is_none();
            n += 1;
            rows = (rows.0.min(p.row), rows.1.max(p.row));
            cols = (cols.0.min(p.col), cols.1.max(p.col));
        });
        if !flat {
            return None;
        }
        if n == 0 {
            return Some(None);
        }
        let height = rows.1.abs_diff(rows.0) as usize + 1;
        let across = cols.1.abs_diff(cols.0) as usize + 1;
        if height.saturating_mul(across) > n.saturating_mul(4).saturating_add(1024) {
            return None;
        }
        Some(Some(Bounds { rows, cols }))
    }

    /// Appends row `row` (without its line end).
    fn push_row(&self, row: &[Option<&str>], line: &mut String) {
        let used = row.iter().rposition(Option::is_some).map_or(0, |k| k + 1);
        for (k, text) in row[..used].iter().enumerate() {
            push_cell(line, text.unwrap_or(FILL), self.width, k == 0);
        }
    }

    fn rows(&self) -> impl Iterator<Item = String> + '_ {
        self.grid.chunks_exact(self.across).map(|row| {
            let mut line = String::with_capacity(row.len() * (self.width + 1));
            self.push_row(row, &mut line);
            line
        })
    }

    fn write(&self, out: &mut String) {
        out.reserve(self.grid.len() * (self.width + 1) + self.grid.len() / self.across);
        for row in self.grid.chunks_exact(self.across) {
            self.push_row(row, out);
            out.push('\n');
        }
    }
}

/// Calls `f` on the canvas's cells, then on each chosen option's, in painting order.
/// Plain loops: a sudoku record prints 81 cells, and chained iterators or a call
/// through a pointer per cell cost more than the drawing.
#[inline]
fn each_painted<'a>(paints: &'a Paints, chosen: &[OptionId], mut f: impl FnMut(&'a Painted)) {
    for p in paints.canvas() {
        f(p);
    }
    for &id in chosen {
        for p in paints.of(id) {
            f(p);
        }
    }
}

/// One cell of a solution's picture in the plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlaneCell<'a> {
    /// Row.
    pub row: i64,
    /// Column (for layered cells, the column in the row of layers side by side).
    pub col: i64,
    /// What it shows.
    pub text: &'a str,
    /// The option that painted it; `None` for the canvas and the gaps between layers.
    pub owner: Option<OptionId>,
}

/// The cells of a solution in painting order (the canvas first, then the chosen
/// options in order), laid out in the plane. Cells painted as `(layer, row, column)`
/// are drawn layer by layer from left to right, the least layer first, with one blank
/// column between two layers: each gap gets a canvas cell showing a space, under
/// everything, so the text shows a space there and not [`FILL`]. Only layers and rows
/// that hold a cell are laid out, so far-apart coordinates cost nothing. With
/// `even_step` the layers are an even number of columns apart (the triangular
/// lattice: an odd shift would turn its triangles upside down).
pub fn plane_cells<'a>(
    paints: &'a Paints,
    chosen: &[OptionId],
    even_step: bool,
) -> Vec<PlaneCell<'a>> {
    let painted = |&id: &OptionId| paints.of(id).iter().map(move |p| (p, Some(id)));
    let cells = || {
        paints
            .canvas()
            .iter()
            .map(|p| (p, None))
            .chain(chosen.iter().flat_map(painted))
    };
    let plane = |(p, owner): (&'a Painted, Option<OptionId>), col: i64| PlaneCell {
        row: p.row.into(),
        col,
        text: paints.text(p.text),
        owner,
    };
    // A plane picture (every solution of a 2D model, one per sudoku record) is the
    // cells as they are, gathered once.
    if cells().all(|(p, _)| p.layer.is_none()) {
        return cells().map(|c| plane(c, c.0.col.into())).collect();
    }
    let all: Vec<(&Painted, Option<OptionId>)> = cells().collect();
    let mut layers: Vec<i64> = all
        .iter()
        .filter_map(|(p, _)| p.layer.map(i64::from))
        .collect();
    layers.sort_unstable();
    layers.dedup();
    let mut rows: Vec<i64> = all.iter().map(|(p, _)| i64::from(p.row)).collect();
    rows.sort_unstable();
    rows.dedup();
    let min_col = all.iter().map(|(p, _)| i64::from(p.col)).min().unwrap_or(0);
    let max_col = all.iter().map(|(p, _)| i64::from(p.col)).max().unwrap_or(0);
    let width = max_col.saturating_sub(min_col).saturating_add(1);
    let mut step = width.saturating_add(1);
    if even_step && step % 2 != 0 {
        step = step.saturating_add(1);
    }
    let place = |layer: i64, col: i64| {
        let k = layers.partition_point(|&l| l < layer) as i64;
        k.saturating_mul(step)
            .saturating_add(col.saturating_sub(min_col))
    };
    let mut out = Vec::with_capacity(all.len() + rows.len() * layers.len());
    for k in 1..layers.len() as i64 {
        for &row in &rows {
            for gap in width..step {
                out.push(PlaneCell {
                    row,
                    col: (k - 1).saturating_mul(step).saturating_add(gap),
                    text: " ",
                    owner: None,
                });
            }
        }
    }
    out.extend(
        all.into_iter()
            .map(|c| plane(c, place(c.0.layer.unwrap_or(0).into(), c.0.col.into()))),
    );
    out
}

/// Where [`plane_cells`] lays out each layer of a layered picture: `(layer, first
/// column, last column)`, the least layer first; empty for a plane picture.
pub fn layer_captions(
    paints: &Paints,
    chosen: &[OptionId],
    even_step: bool,
) -> Vec<(i64, i64, i64)> {
    let all = || {
        paints
            .canvas()
            .iter()
            .chain(chosen.iter().flat_map(|&id| paints.of(id).iter()))
    };
    if all().all(|p| p.layer.is_none()) {
        return Vec::new();
    }
    let mut layers: Vec<i64> = all().filter_map(|p| p.layer.map(i64::from)).collect();
    layers.sort_unstable();
    layers.dedup();
    let min_col = all().map(|p| i64::from(p.col)).min().unwrap_or(0);
    let max_col = all().map(|p| i64::from(p.col)).max().unwrap_or(0);
    let width = max_col.saturating_sub(min_col).saturating_add(1);
    let mut step = width.saturating_add(1);
    if even_step && step % 2 != 0 {
        step = step.saturating_add(1);
    }
    layers
        .iter()
        .enumerate()
        .map(|(k, &l)| {
            let first = (k as i64).saturating_mul(step);
            (l, first, first.saturating_add(width - 1))
        })
        .collect()
}

/// Appends one cell: side by side when every text is one character wide, otherwise
/// right-aligned and separated by spaces.
fn push_cell(line: &mut String, text: &str, width: usize, first: bool) {
    if width == 1 {
        line.push_str(text);
    } else {
        if !first {
            line.push(' ');
        }
        let pad = width.saturating_sub(text.chars().count());
        line.extend(std::iter::repeat_n(' ', pad));
        line.push_str(text);
    }
}

/// The chosen options, one label per line, in declaration order (so the same solution
/// always prints the same way, whatever order the search found its options in).
pub fn option_lines(problem: &Problem, chosen: &[OptionId]) -> Vec<String> {
    let mut ids = chosen.to_vec();
    ids.sort_unstable();
    ids.iter().map(|&id| problem.option_label(id)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::instance::paint::PaintCell;

    fn cell((row, col, t): (i32, i32, &str)) -> PaintCell {
        PaintCell {
            layer: None,
            row,
            col,
            text: t.into(),
        }
    }

    fn fam_on(paints: Vec<Vec<(i32, i32, &str)>>, canvas: Vec<(i32, i32, &str)>) -> Compiled {
        let options = paints
            .into_iter()
            .map(|v| v.into_iter().map(cell).collect());
        Compiled {
            paints: Paints::from_options(options, canvas.into_iter().map(cell).collect()),
            ..Compiled::default()
        }
    }

    fn fam(paints: Vec<Vec<(i32, i32, &str)>>) -> Compiled {
        fam_on(paints, Vec::new())
    }

    #[test]
    fn triangles_print_as_triangles() {
        let f = fam(vec![
            vec![(0, 0, "A"), (1, 0, "A")],
            vec![(1, 1, "B"), (2, 2, "B")],
        ]);
        let g = paint_grid(&f, &[OptionId(0), OptionId(1)]).unwrap();
        assert_eq!(g, ["A", "AB", "..B"]);
    }

    #[test]
    fn later_cells_paint_over_earlier_ones_and_holes_show_fill() {
        let f = fam_on(
            vec![
                vec![(0, 0, "a"), (0, 3, "b")],
                vec![(0, 0, "c"), (2, 1, "d")],
            ],
            vec![(0, 1, "#")],
        );
        // The canvas is under everything; option 1 paints over option 0 at (0, 0) when
        // it comes later in the solution, and not when it comes first.
        let g = paint_grid(&f, &[OptionId(0), OptionId(1)]).unwrap();
        assert_eq!(g, ["c#.b", "", ".d"]);
        let g = paint_grid(&f, &[OptionId(1), OptionId(0)]).unwrap();
        assert_eq!(g, ["a#.b", "", ".d"]);
    }

    #[test]
    fn negative_and_distant_coordinates_keep_their_places() {
        let f = fam(vec![vec![
            (-1, 3, "10"),
            (1, -1, "x"),
            (1, 1, "7"),
            (-1, 3, "11"),
        ]]);
        let g = paint_grid(&f, &[OptionId(0)]).unwrap();
        assert_eq!(g, [" .  .  .  . 11", "", " x  .  7"]);
        let far = fam(vec![vec![(0, 0, "a"), (0, 1000, "b")]]);
        let g = paint_grid(&far, &[OptionId(0)]).unwrap();
        assert_eq!(g[0].len(), 1001);
        assert!(g[0].starts_with("a.") && g[0].ends_with(".b"));
    }

    /// The grid drawn without sorting equals the sorted drawing, on random pictures
    /// with cells painted over, holes, empty rows, negative places and wide texts; and
    /// with texts of one byte, drawn byte by byte ([`write_bytes`]), some options not
    /// chosen, so that the frame is larger than what is painted.
    #[test]
    fn the_dense_grid_draws_what_the_sorted_cells_draw() {
        let mut rng = crate::testing::Rng(0x5EED_CE11);
        let wide = ["a", "b", "7", "10", "xyz", "é"];
        let narrow = ["a", "b", "7", "#"];
        for case in 0..1000 {
            let texts: &[&str] = if case % 2 == 0 { &wide } else { &narrow };
            let place =
                |rng: &mut crate::testing::Rng| (rng.next(7) as i32 - 3, rng.next(9) as i32 - 2);
            let mut options = Vec::new();
            for _ in 0..1 + case % 5 {
                let cells = (0..rng.next(6))
                    .map(|_| {
                        let (r, c) = place(&mut rng);
                        (r, c, texts[rng.next(texts.len() as u64) as usize])
                    })
                    .collect();
                options.push(cells);
            }
            let canvas = (0..rng.next(3))
                .map(|_| {
                    let (r, c) = place(&mut rng);
                    (r, c, "#")
                })
                .collect();
            let f = fam_on(options.clone(), canvas);
            let mut chosen: Vec<OptionId> = (0..options.len() as u32).map(OptionId).collect();
            chosen.rotate_left(case % options.len());
            if case % 4 == 3 {
                chosen.truncate(rng.next(chosen.len() as u64 + 1) as usize);
            }
            let bytes =
                options.iter().flatten().all(|c| c.2.len() == 1) && f.paints.frame().is_some();
            assert_eq!(f.paints.places(MAX_FRAME).is_some(), bytes, "case {case}");
            let dense = Dense::lay_out(&f.paints, &chosen).expect("a small box");
            let sorted = paint_sorted(&f.paints, &chosen);
            let rows = dense.map(|d| d.rows().collect::<Vec<_>>());
            assert_eq!(rows, sorted, "case {case}");
            // The text written in one buffer is the same rows, each with its line end.
            let mut text = String::new();
            let painted = write_grid(&f, &chosen, &mut text);
            let expected: String = sorted.iter().flatten().map(|r| format!("{r}\n")).collect();
            assert_eq!((painted, text), (sorted.is_some(), expected), "case {case}");
        }
    }

    #[test]
    fn wide_values_are_aligned() {
        let f = fam(vec![vec![(0, 0, "10"), (0, 1, "9")]]);
        assert_eq!(paint_grid(&f, &[OptionId(0)]).unwrap(), ["10  9"]);
        assert_eq!(paint_grid(&f, &[]), None);
    }
}
