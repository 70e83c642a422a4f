//! Rendering solutions: painted grids, option lists and JSON Lines.
//!
//! Everything here returns strings; the CLI decides where they go.

pub mod json;

use crate::lower::family::Families;
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
    // Later cells paint over earlier ones: the canvas first, then the options in order.
    // Sorting by (row, column, order painted) keeps that order among cells painted
    // more than once; the order makes every key distinct, so an unstable sort (no
    // scratch buffer, far cheaper on the 81 cells of a sudoku) gives the same result.
    let painted = |id: &OptionId| {
        families
            .paints
            .get(id.index())
            .map_or(&[][..], Vec::as_slice)
    };
    let total = families.canvas.len() + chosen.iter().map(|id| painted(id).len()).sum::<usize>();
    let mut cells: Vec<(i64, i64, u32, &str)> = Vec::with_capacity(total);
    let all = families
        .canvas
        .iter()
        .chain(chosen.iter().flat_map(painted));
    for (k, p) in all.enumerate() {
        cells.push((p.row, p.col, k as u32, p.text.as_str()));
    }
    if cells.is_empty() {
        return None;
    }
    cells.sort_unstable_by_key(|&(r, c, k, _)| (r, c, k));
    let min_row = cells.first()?.0;
    let max_row = cells.last()?.0;
    let min_col = cells.iter().map(|c| c.1).min()?;
    let width = cells
        .iter()
        .map(|c| c.3.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    let mut rows = Vec::with_capacity((max_row - min_row + 1) as usize);
    let mut k = 0;
    for r in min_row..=max_row {
        let mut line = String::with_capacity(width * 16);
        let mut next_col = min_col;
        while k < cells.len() && cells[k].0 == r {
            // The last cell painted at a position wins.
            let c = cells[k].1;
            while k + 1 < cells.len() && cells[k + 1].0 == r && cells[k + 1].1 == c {
                k += 1;
            }
            for hole in next_col..c {
                push_cell(&mut line, FILL, width, hole == min_col);
            }
            push_cell(&mut line, cells[k].3, width, c == min_col);
            next_col = c + 1;
            k += 1;
        }
        rows.push(line);
    }
    Some(rows)
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
    use crate::lower::family::PaintCell;

    fn fam(paints: Vec<Vec<(i64, i64, &str)>>) -> Families {
        Families {
            paints: paints
                .into_iter()
                .map(|v| {
                    v.into_iter()
                        .map(|(row, col, t)| PaintCell {
                            row,
                            col,
                            text: t.into(),
                        })
                        .collect()
                })
                .collect(),
            ..Families::default()
        }
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
    fn wide_values_are_aligned() {
        let f = fam(vec![vec![(0, 0, "10"), (0, 1, "9")]]);
        assert_eq!(paint_grid(&f, &[OptionId(0)]).unwrap(), ["10  9"]);
        assert_eq!(paint_grid(&f, &[]), None);
    }
}
