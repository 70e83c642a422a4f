//! Solutions as SVG pictures: the painted cells of a solution drawn as squares,
//! triangles or hexagons, colored by what they show, with thick borders between the
//! cells of different options, the way pictures of polyomino packings look.
//!
//! The picture is the text grid of [`super::paint`] drawn on a lattice: the same cells,
//! painted over in the same order, layers side by side in the same way. Each cell is
//! one `<polygon>` with its fill and a thin border; the borders of the options' pieces
//! are one `<path>` of thick strokes over them; labels (optional) are `<text>` at the
//! cells' centres. The writer is a few `format!`s: the output is small and its
//! structure fixed, so it needs no XML library.
//!
//! Colors follow the painted *text*, not the option: every cell that shows `F` is
//! the same color in every solution of a model, so pictures of many solutions can be
//! compared at a glance, and a sudoku's digits get nine colors rather than 81. The
//! pieces are told apart by the thick borders, which follow the options.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::instance::Compiled;
use crate::instance::paint::Paints;
use crate::problem::OptionId;

use super::{PlaneCell, plane_cells};

/// The shape of the cells a picture is drawn with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lattice {
    /// Squares: `(row, col)`, rows downwards.
    #[default]
    Square,
    /// Triangles: `(row, col)`, pointing up when `row + col` is even (docs/builtins.md).
    Triangle,
    /// Hexagons in axial coordinates `(q, r)`: `q` along a row, `r` the row.
    Hex,
}

/// How a picture is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// The shape of the cells.
    pub lattice: Lattice,
    /// Whether cells show their text.
    pub labels: bool,
}

/// Twenty colors for the painted texts, in order: light enough for black labels,
/// far enough apart to tell neighbours apart (ColorBrewer's Set3 and Set2, the greys
/// left out, since grey is the canvas).
const PALETTE: [&str; 20] = [
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
    "#bc80bd", "#ccebc5", "#ffed6f", "#e5c494", "#66c2a5", "#fc8d62", "#8da0cb", "#e78ac3",
    "#a6d854", "#ffd92f", "#c7a0e8", "#7fc97f",
];
/// Canvas cells (the board under the pieces).
const CANVAS: &str = "#eeeeee";
/// The picture's background.
const BACKGROUND: &str = "#ffffff";
/// Thin borders inside a piece, thick ones around it.
const THIN: &str = "#9a9a9a";
const THICK: &str = "#202020";

/// The color of each painted text of a model: its texts sorted (numbers by value
/// first, then the rest as strings), the first twenty taking [`PALETTE`] in order and
/// the others hues spread by the golden angle. It depends on the texts the model's
/// options can paint, not on the solution, so a text keeps its color across
/// solutions.
#[derive(Clone, Debug, Default)]
pub struct Palette {
    colors: HashMap<String, String>,
}

impl Palette {
    /// The palette of every text the options of `paints` can paint.
    pub fn new(paints: &Paints) -> Palette {
        let mut texts: Vec<&str> = paints.all().iter().map(|p| paints.text(p.text)).collect();
        texts.sort_unstable_by(|a, b| text_order(a).cmp(&text_order(b)));
        texts.dedup();
        let colors = texts
            .into_iter()
            .enumerate()
            .map(|(k, t)| (t.to_string(), color(k)))
            .collect();
        Palette { colors }
    }

    /// The color of a painted text.
    pub fn color(&self, text: &str) -> &str {
        self.colors.get(text).map_or(PALETTE[0], String::as_str)
    }
}

/// Numbers first, by value; then other texts as strings.
fn text_order(t: &str) -> (bool, i128, &str) {
    match t.trim().parse::<i128>() {
        Ok(n) => (false, n, t),
        Err(_) => (true, 0, t),
    }
}

/// The `k`-th color: [`PALETTE`], then golden-angle hues at a fixed light tone.
fn color(k: usize) -> String {
    if let Some(c) = PALETTE.get(k) {
        return (*c).to_string();
    }
    let hue = (k as f64 * 137.507_764) % 360.0;
    let (r, g, b) = hsl_to_rgb(hue, 0.55, 0.72);
    format!("#{r:02x}{g:02x}{b:02x}")
}

fn hsl_to_rgb(h: f64, s: f64, l: f64) -> (u8, u8, u8) {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let x = c * (1.0 - ((h / 60.0) % 2.0 - 1.0).abs());
    let m = l - c / 2.0;
    let (r, g, b) = match (h / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let byte = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    (byte(r), byte(g), byte(b))
}

/// The SVG picture of a solution, or `None` when nothing is painted.
pub fn picture(families: &Compiled, chosen: &[OptionId], style: Style) -> Option<String> {
    let palette = Palette::new(&families.paints);
    draw(&families.paints, chosen, &palette, style)
}

/// [`picture`] from its parts, with a palette made once for many solutions.
pub fn draw(
    paints: &Paints,
    chosen: &[OptionId],
    palette: &Palette,
    style: Style,
) -> Option<String> {
    let even = style.lattice == Lattice::Triangle;
    let mut cells = plane_cells(paints, chosen, even);
    // The last cell painted at a place shows; blank canvas cells (the gaps between
    // layers, spacing) are not drawn.
    let mut shown: HashMap<(i64, i64), usize> = HashMap::with_capacity(cells.len());
    for (k, c) in cells.iter().enumerate() {
        shown.insert((c.row, c.col), k);
    }
    let mut keep: Vec<usize> = shown.into_values().collect();
    keep.sort_unstable_by_key(|&k| (cells[k].row, cells[k].col));
    cells = keep
        .into_iter()
        .map(|k| cells[k])
        .filter(|c| c.owner.is_some() || !c.text.trim().is_empty())
        .collect();
    if cells.is_empty() {
        return None;
    }
    let polygons: Vec<Vec<(f64, f64)>> = cells
        .iter()
        .map(|c| corners(style.lattice, c.row, c.col))
        .collect();
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in polygons.iter().flatten() {
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let margin = 8.0;
    let (w, h) = (x1 - x0 + 2.0 * margin, y1 - y0 + 2.0 * margin);
    let (dx, dy) = (margin - x0, margin - y0);
    let mut svg = String::with_capacity(200 + 120 * cells.len());
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}">"#,
        num(w.ceil()),
        num(h.ceil()),
        num(w.ceil()),
        num(h.ceil())
    );
    let _ = writeln!(
        svg,
        r#"<rect width="100%" height="100%" fill="{BACKGROUND}"/>"#
    );
    let _ = writeln!(
        svg,
        r#"<g stroke="{THIN}" stroke-width="1" stroke-linejoin="round">"#
    );
    for (c, poly) in cells.iter().zip(&polygons) {
        let fill = match c.owner {
            Some(_) => palette.color(c.text),
            None => CANVAS,
        };
        let _ = writeln!(
            svg,
            r#"<polygon points="{}" fill="{fill}" data-cell="{},{}" data-text="{}"/>"#,
            points(poly, dx, dy),
            c.row,
            c.col,
            escape(c.text)
        );
    }
    svg.push_str("</g>\n");
    let borders = thick_edges(&cells, &polygons);
    if !borders.is_empty() {
        let mut d = String::with_capacity(24 * borders.len());
        for ((ax, ay), (bx, by)) in borders {
            let _ = write!(
                d,
                "M{} {}L{} {}",
                num(ax + dx),
                num(ay + dy),
                num(bx + dx),
                num(by + dy)
            );
        }
        let _ = writeln!(
            svg,
            r#"<path d="{d}" fill="none" stroke="{THICK}" stroke-width="3" stroke-linecap="round"/>"#
        );
    }
    if style.labels {
        let size = match style.lattice {
            Lattice::Square => 16,
            Lattice::Triangle => 12,
            Lattice::Hex => 15,
        };
        let _ = writeln!(
            svg,
            r#"<g font-family="DejaVu Sans, Arial, sans-serif" font-size="{size}" text-anchor="middle" dominant-baseline="central" fill="black">"#
        );
        for (c, poly) in cells.iter().zip(&polygons) {
            if c.text.trim().is_empty() || (c.owner.is_none() && c.text == super::FILL) {
                continue;
            }
            let (cx, cy) = centre(poly);
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\">{}</text>",
                num(cx + dx),
                num(cy + dy),
                escape(c.text)
            );
        }
        svg.push_str("</g>\n");
    }
    svg.push_str("</svg>\n");
    Some(svg)
}

/// The side of a square, of a triangle, and the radius of a hexagon, in pixels.
const SQUARE: f64 = 32.0;
const TRIANGLE: f64 = 40.0;
const HEX: f64 = 20.0;

/// The corners of the cell at `(row, col)`, clockwise on the screen.
fn corners(lattice: Lattice, row: i64, col: i64) -> Vec<(f64, f64)> {
    let (r, c) = (row as f64, col as f64);
    match lattice {
        Lattice::Square => {
            let (x, y) = (c * SQUARE, r * SQUARE);
            vec![
                (x, y),
                (x + SQUARE, y),
                (x + SQUARE, y + SQUARE),
                (x, y + SQUARE),
            ]
        }
        Lattice::Triangle => {
            let h = TRIANGLE * 3f64.sqrt() / 2.0;
            let (x, top, bottom) = (c * TRIANGLE / 2.0, r * h, (r + 1.0) * h);
            let up = (row.rem_euclid(2) + col.rem_euclid(2)) % 2 == 0;
            if up {
                vec![
                    (x + TRIANGLE / 2.0, top),
                    (x + TRIANGLE, bottom),
                    (x, bottom),
                ]
            } else {
                vec![(x, top), (x + TRIANGLE, top), (x + TRIANGLE / 2.0, bottom)]
            }
        }
        Lattice::Hex => {
            // Pointy-topped: `q` along the row, each row half a cell to the right of
            // the one above, so `(q + 1, r - 1)` is up and to the right.
            let (q, rr) = (col as f64, row as f64);
            let (cx, cy) = (HEX * 3f64.sqrt() * (q + rr / 2.0), HEX * 1.5 * rr);
            (0..6)
                .map(|k| {
                    let a = (-90.0 + 60.0 * k as f64).to_radians();
                    (cx + HEX * a.cos(), cy + HEX * a.sin())
                })
                .collect()
        }
    }
}

/// Where a label goes: the mean of the corners (the centroid, for these polygons).
fn centre(poly: &[(f64, f64)]) -> (f64, f64) {
    let n = poly.len().max(1) as f64;
    let (sx, sy) = poly
        .iter()
        .fold((0.0, 0.0), |(sx, sy), &(x, y)| (sx + x, sy + y));
    (sx / n, sy / n)
}

/// A point rounded to hundredths of a pixel, so that the sides two cells share
/// compare equal.
fn key((x, y): (f64, f64)) -> (i64, i64) {
    ((x * 100.0).round() as i64, (y * 100.0).round() as i64)
}

/// The sides to draw thick: those on the outside of the picture, and those between
/// cells of different owners (two options, or an option and the canvas), in a fixed
/// order.
fn thick_edges(cells: &[PlaneCell<'_>], polygons: &[Vec<(f64, f64)>]) -> Vec<Side> {
    let mut sides: HashMap<SideKey, (Side, Vec<Option<OptionId>>)> = HashMap::new();
    for (c, poly) in cells.iter().zip(polygons) {
        for k in 0..poly.len() {
            let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
            let (ka, kb) = (key(a), key(b));
            let id = if ka <= kb { (ka, kb) } else { (kb, ka) };
            sides
                .entry(id)
                .or_insert_with(|| ((a, b), Vec::new()))
                .1
                .push(c.owner);
        }
    }
    let mut thick: Vec<(SideKey, Side)> = sides
        .into_iter()
        .filter(|(_, (_, owners))| owners.len() == 1 || owners.iter().any(|o| *o != owners[0]))
        .map(|(id, (side, _))| (id, side))
        .collect();
    thick.sort_unstable_by_key(|(id, _)| *id);
    thick.into_iter().map(|(_, side)| side).collect()
}

/// One side of a cell: its two ends.
type Side = ((f64, f64), (f64, f64));
/// A side's ends rounded by [`key`], the lesser first: the same for both cells.
type SideKey = ((i64, i64), (i64, i64));

fn points(poly: &[(f64, f64)], dx: f64, dy: f64) -> String {
    let mut s = String::with_capacity(16 * poly.len());
    for (k, &(x, y)) in poly.iter().enumerate() {
        if k > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{},{}", num(x + dx), num(y + dy));
    }
    s
}

/// A coordinate with at most two decimals and no trailing zeros (`12`, `12.5`).
fn num(x: f64) -> String {
    let s = format!("{:.2}", x);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// Text as XML character data or attribute value.
fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            c if c.is_control() => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

#[cfg(test)]
#[path = "svg_tests.rs"]
mod tests;
