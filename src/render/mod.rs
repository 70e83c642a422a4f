//! Rendering solutions: painted grids, option lists and JSON Lines.
//!
//! Everything here returns strings; the CLI decides where they go.

pub mod json;
pub mod svg;

use crate::lower::family::Families;
use crate::lower::paint::{Painted, Paints};
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
pub fn paint_grid(families: &Families, chosen: &[OptionId]) -> Option<Vec<String>> {
    paint(&families.paints, chosen)
}

/// [`paint_grid`] from what it needs: the cells each option paints (by option id) and
/// the canvas. For callers that keep these without the rest of the families (whose
/// index of values cannot leave its thread).
pub fn paint(paints: &Paints, chosen: &[OptionId]) -> Option<Vec<String>> {
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

    use crate::lower::paint::PaintCell;

    fn cell((row, col, t): (i32, i32, &str)) -> PaintCell {
        PaintCell {
            layer: None,
            row,
            col,
            text: t.into(),
        }
    }

    fn fam_on(paints: Vec<Vec<(i32, i32, &str)>>, canvas: Vec<(i32, i32, &str)>) -> Families {
        let options = paints
            .into_iter()
            .map(|v| v.into_iter().map(cell).collect());
        Families {
            paints: Paints::from_options(options, canvas.into_iter().map(cell).collect()),
            ..Families::default()
        }
    }

    fn fam(paints: Vec<Vec<(i32, i32, &str)>>) -> Families {
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

    #[test]
    fn wide_values_are_aligned() {
        let f = fam(vec![vec![(0, 0, "10"), (0, 1, "9")]]);
        assert_eq!(paint_grid(&f, &[OptionId(0)]).unwrap(), ["10  9"]);
        assert_eq!(paint_grid(&f, &[]), None);
    }
}
