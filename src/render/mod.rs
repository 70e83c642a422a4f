//! Rendering solutions: painted grids, option lists and JSON Lines.
//!
//! Everything here returns strings; the CLI decides where they go.

pub mod json;

use std::collections::BTreeMap;

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
    let mut cells: BTreeMap<(i64, i64), &str> = BTreeMap::new();
    for p in &families.canvas {
        cells.insert((p.row, p.col), p.text.as_str());
    }
    for id in chosen {
        if let Some(paints) = families.paints.get(id.index()) {
            for p in paints {
                cells.insert((p.row, p.col), p.text.as_str());
            }
        }
    }
    if cells.is_empty() {
        return None;
    }
    let min_row = cells.keys().map(|k| k.0).min()?;
    let max_row = cells.keys().map(|k| k.0).max()?;
    let min_col = cells.keys().map(|k| k.1).min()?;
    let width = cells
        .values()
        .map(|t| t.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    let mut rows = Vec::new();
    for r in min_row..=max_row {
        let last = cells
            .range((r, i64::MIN)..=(r, i64::MAX))
            .map(|(k, _)| k.1)
            .max();
        let mut line = String::new();
        if let Some(last) = last {
            for c in min_col..=last {
                let text = cells.get(&(r, c)).copied().unwrap_or(FILL);
                if width == 1 {
                    line.push_str(text);
                } else {
                    if c > min_col {
                        line.push(' ');
                    }
                    line.push_str(&format!("{text:>width$}"));
                }
            }
        }
        rows.push(line);
    }
    Some(rows)
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
