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
    let painted = |id: &OptionId| {
        families
            .paints
            .get(id.index())
            .map_or(&[][..], Vec::as_slice)
    };
    // Later cells paint over earlier ones: the canvas first, then the options in order.
    // (The flattened iterator cannot tell its length, so the buffer is sized first.)
    let total = families.canvas.len() + chosen.iter().map(|id| painted(id).len()).sum::<usize>();
    let mut cells: Vec<(i64, i64, &str)> = Vec::with_capacity(total);
    cells.extend(
        families
            .canvas
            .iter()
            .chain(chosen.iter().flat_map(painted))
            .map(|p| (p.row, p.col, p.text.as_str())),
    );
    let min_row = cells.iter().map(|c| c.0).min()?;
    let max_row = cells.iter().map(|c| c.0).max()?;
    let min_col = cells.iter().map(|c| c.1).min()?;
    let width = cells
        .iter()
        .map(|c| c.2.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    // Bucket the cells by row, keeping the order painted within a row (a counting
    // sort: linear, where sorting the 81 cells of a sudoku was most of the rendering).
    let n_rows = usize::try_from(max_row - min_row).ok()? + 1;
    let mut start = vec![0usize; n_rows + 1];
    for c in &cells {
        start[(c.0 - min_row) as usize + 1] += 1;
    }
    for r in 0..n_rows {
        start[r + 1] += start[r];
    }
    let mut next = start.clone();
    let mut by_row = vec![0usize; cells.len()];
    for (k, c) in cells.iter().enumerate() {
        let r = (c.0 - min_row) as usize;
        by_row[next[r]] = k;
        next[r] += 1;
    }
    // Within a row, a stable sort by column keeps the order painted among cells at the
    // same place, so the last of each run is the one that shows; holes are what nobody
    // painted. (Rows hold few cells; the memory used is that of the printed text.)
    let mut rows = Vec::with_capacity(n_rows);
    for r in 0..n_rows {
        let row = &mut by_row[start[r]..start[r + 1]];
        row.sort_by_key(|&k| cells[k].1);
        let mut line = String::new();
        let mut next_col = min_col;
        for (j, &k) in row.iter().enumerate() {
            let (_, col, text) = cells[k];
            if row.get(j + 1).is_some_and(|&n| cells[n].1 == col) {
                continue; // painted over later
            }
            for hole in next_col..col {
                push_cell(&mut line, FILL, width, hole == min_col);
            }
            push_cell(&mut line, text, width, col == min_col);
            next_col = col + 1;
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
    fn later_cells_paint_over_earlier_ones_and_holes_show_fill() {
        let mut f = fam(vec![
            vec![(0, 0, "a"), (0, 3, "b")],
            vec![(0, 0, "c"), (2, 1, "d")],
        ]);
        f.canvas = vec![PaintCell {
            row: 0,
            col: 1,
            text: "#".into(),
        }];
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
