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

use crate::diag::report::Report;
use crate::instance::Compiled;
use crate::instance::paint::Paints;
use crate::problem::OptionId;

use super::{PlaneCell, plane_cells};
use crate::diag::Code;

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

/// Twenty-five colors for the painted texts, in order: Paul Green-Armytage's "colour
/// alphabet" (2010), made so that 26 symbols stay apart, without its near-black ebony
/// (the borders' color). Labels on the dark ones are white ([`ink_on`]).
const PALETTE: [&str; 25] = [
    "#f0a3ff", "#0075dc", "#993f00", "#4c005c", "#005c31", "#2bce48", "#ffcc99", "#808080",
    "#94ffb5", "#8f7c00", "#9dcc00", "#c20088", "#003380", "#ffa405", "#ffa8bb", "#426600",
    "#ff0010", "#5ef1f2", "#00998f", "#e0ff66", "#740aff", "#990000", "#ffff80", "#ffff00",
    "#ff5005",
];
/// The fill of every cell of a grid of symbols in one ink (a sudoku), and of its clues.
const PAPER: &str = "#ffffff";
const CLUE: &str = "#d9d9d9";
/// Canvas cells whose text is `#`: the black cells of a crossword or a kakuro.
const BLOCK: &str = "#303030";
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
    draw_with(paints, chosen, &[], palette, style)
}

/// The black or white ink that reads on `fill` (`#rrggbb`): white on dark colors.
fn ink_on(fill: &str) -> &'static str {
    let channel = |k: usize| {
        u8::from_str_radix(fill.get(1 + 2 * k..3 + 2 * k).unwrap_or("ff"), 16).unwrap_or(255)
    };
    let (r, g, b) = (
        f64::from(channel(0)),
        f64::from(channel(1)),
        f64::from(channel(2)),
    );
    // Rec. 601 luma: below the middle, the label is white.
    if 0.299 * r + 0.587 * g + 0.114 * b < 128.0 {
        "white"
    } else {
        "black"
    }
}

/// [`draw`] with the solution's clues: the cells of `clues` (its forced options) are
/// drawn as given, in bold on a shaded cell, apart from the cells the search filled.
///
/// A model that declares regions (`draw region`) is drawn with their borders thick;
/// when each option paints one cell (a sudoku, a jigsaw) the grid is in one ink,
/// black on white, with thin lines between cells, and otherwise the pieces (a killer
/// sudoku's cages) keep their colors and get dashed outlines. Layers of a 3D model are
/// captioned, the bottom (least) layer first.
pub fn draw_with(
    paints: &Paints,
    chosen: &[OptionId],
    clues: &[OptionId],
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
    let groups: Vec<HashMap<(i64, i64), usize>> = paints
        .regions()
        .iter()
        .map(|g| {
            g.iter()
                .filter(|p| p.layer.is_none())
                .map(|p| ((i64::from(p.row), i64::from(p.col)), p.text.index()))
                .collect()
        })
        .collect();
    let no_regions = HashMap::new();
    let regions = groups.first().unwrap_or(&no_regions);
    let clue = |c: &PlaneCell<'_>| c.owner.is_some_and(|o| clues.contains(&o));
    // One ink: a grid of symbols whose regions the model declares.
    let ink = !regions.is_empty() && chosen.iter().all(|&o| paints.of(o).len() <= 1);
    let layers = super::layer_captions(paints, chosen, even);
    let polygons: Vec<Vec<(f64, f64)>> = cells
        .iter()
        .map(|c| corners(style.lattice, c.row, c.col))
        .collect();
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in polygons.iter().flatten() {
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let margin = 8.0;
    // Room above the layers for their captions.
    let top = if layers.is_empty() {
        margin
    } else {
        margin + 18.0
    };
    let (w, h) = (x1 - x0 + 2.0 * margin, y1 - y0 + margin + top);
    let (dx, dy) = (margin - x0, top - y0);
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
    let fill_of = |c: &PlaneCell<'_>| -> &str {
        match c.owner {
            Some(_) if ink && clue(c) => CLUE,
            Some(_) if ink => PAPER,
            Some(_) => palette.color(c.text),
            None if c.text == "#" => BLOCK,
            None => CANVAS,
        }
    };
    for (c, poly) in cells.iter().zip(&polygons) {
        let fill = fill_of(c);
        let _ = writeln!(
            svg,
            r#"<polygon points="{}" fill="{fill}" data-cell="{},{}" data-text="{}"{}/>"#,
            points(poly, dx, dy),
            c.row,
            c.col,
            escape(c.text),
            if clue(c) { r#" data-clue="1""# } else { "" }
        );
    }
    svg.push_str("</g>\n");
    let path = |svg: &mut String, sides: &[Side], attrs: &str| {
        if sides.is_empty() {
            return;
        }
        let mut d = String::with_capacity(24 * sides.len());
        for &((ax, ay), (bx, by)) in sides {
            let _ = write!(
                d,
                "M{} {}L{} {}",
                num(ax + dx),
                num(ay + dy),
                num(bx + dx),
                num(by + dy)
            );
        }
        let _ = writeln!(svg, r#"<path d="{d}" fill="none" {attrs}/>"#);
    };
    if regions.is_empty() {
        let borders = thick_edges(&cells, &polygons, |c| c.owner);
        path(&mut svg, &borders, &thick_attrs("pieces"));
    } else {
        // The first regions' borders thick; the pieces' own borders (unless each is
        // one cell) and the other regions' (a killer sudoku's cages) dashed.
        let region = |c: &PlaneCell<'_>| regions.get(&(c.row, c.col)).copied();
        let walls = thick_edges(&cells, &polygons, |c| region(c).map_or(0, |r| r + 1));
        let wall_keys: std::collections::HashSet<SideKey> =
            walls.iter().map(|&s| side_key(s)).collect();
        let mut cages: Vec<Side> = if ink {
            Vec::new()
        } else {
            thick_edges(&cells, &polygons, |c| c.owner)
        };
        for g in &groups[1..] {
            cages.extend(thick_edges(&cells, &polygons, |c| {
                g.get(&(c.row, c.col)).map_or(0, |r| r + 1)
            }));
        }
        {
            let mut seen = std::collections::HashSet::new();
            cages.retain(|&s| !wall_keys.contains(&side_key(s)) && seen.insert(side_key(s)));
            path(
                &mut svg,
                &cages,
                &format!(
                    r#"stroke="{THICK}" stroke-width="1.5" stroke-dasharray="4 3" data-lines="pieces""#
                ),
            );
        }
        path(&mut svg, &walls, &thick_attrs("regions"));
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
            if c.text.trim().is_empty()
                || (c.owner.is_none() && (c.text == super::FILL || c.text == "#"))
            {
                continue;
            }
            let (cx, cy) = centre(poly);
            let mut attrs = String::new();
            if ink_on(fill_of(c)) == "white" {
                attrs.push_str(r#" fill="white""#);
            }
            if clue(c) {
                attrs.push_str(r#" font-weight="bold""#);
            }
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\"{attrs}>{}</text>",
                num(cx + dx),
                num(cy + dy),
                escape(c.text)
            );
        }
        svg.push_str("</g>\n");
    }
    if style.labels && !paints.notes().is_empty() {
        // Notes of one cell joined, in declaration order, at its top left corner.
        let mut notes: Vec<((i64, i64), String)> = Vec::new();
        for p in paints.notes().iter().filter(|p| p.layer.is_none()) {
            let at = (i64::from(p.row), i64::from(p.col));
            let text = paints.text(p.text);
            match notes.iter_mut().find(|(k, _)| *k == at) {
                Some((_, t)) => {
                    t.push(' ');
                    t.push_str(text);
                }
                None => notes.push((at, text.to_string())),
            }
        }
        let _ = writeln!(
            svg,
            r#"<g font-family="DejaVu Sans, Arial, sans-serif" font-size="9" fill="black">"#
        );
        for ((row, col), text) in notes {
            let poly = corners(style.lattice, row, col);
            let (x, y) = poly.iter().fold((f64::MAX, f64::MAX), |(x, y), &(px, py)| {
                (x.min(px), y.min(py))
            });
            let fill = cells
                .iter()
                .find(|c| (c.row, c.col) == (row, col))
                .map_or(BACKGROUND, |c| fill_of(c));
            let ink = if ink_on(fill) == "white" {
                r#" fill="white""#
            } else {
                ""
            };
            let _ = writeln!(
                svg,
                r#"<text x="{}" y="{}"{ink} data-note="{row},{col}">{}</text>"#,
                num(x + 2.0 + dx),
                num(y + 9.0 + dy),
                escape(&text)
            );
        }
        svg.push_str("</g>\n");
    }
    if !layers.is_empty() {
        let _ = writeln!(
            svg,
            r#"<g font-family="DejaVu Sans, Arial, sans-serif" font-size="13" text-anchor="middle" fill="black">"#
        );
        let n = layers.len();
        for (k, &(layer, first, last)) in layers.iter().enumerate() {
            let left = corners(style.lattice, 0, first)[0].0;
            let right = corners(style.lattice, 0, last)[1].0;
            let which = match k {
                0 => " (bottom)",
                _ if k + 1 == n => " (top)",
                _ => "",
            };
            let _ = writeln!(
                svg,
                r#"<text x="{}" y="{}" data-layer="{layer}">layer {layer}{which}</text>"#,
                num((left + right) / 2.0 + dx),
                num(top - 6.0)
            );
        }
        svg.push_str("</g>\n");
    }
    svg.push_str("</svg>\n");
    Some(svg)
}

/// The cells next to `(row, col)` across a side, on `lattice` (docs/builtins.md's
/// coordinates).
fn neighbours(lattice: Lattice, row: i64, col: i64) -> Vec<(i64, i64)> {
    match lattice {
        Lattice::Square => vec![
            (row - 1, col),
            (row + 1, col),
            (row, col - 1),
            (row, col + 1),
        ],
        Lattice::Triangle => {
            // An upward triangle shares its base with the one below, a downward one its
            // top with the one above.
            let up = (row.rem_euclid(2) + col.rem_euclid(2)) % 2 == 0;
            let across = if up { row + 1 } else { row - 1 };
            vec![(row, col - 1), (row, col + 1), (across, col)]
        }
        Lattice::Hex => vec![
            (row, col - 1),
            (row, col + 1),
            (row - 1, col),
            (row - 1, col + 1),
            (row + 1, col),
            (row + 1, col - 1),
        ],
    }
}

/// Whether the cells of every option (the first 100,000) are connected on `lattice`.
fn connected(paints: &Paints, lattice: Lattice) -> bool {
    (0..paints.len().min(100_000)).all(|k| {
        let cells = paints.of(OptionId(k as u32));
        if cells.len() < 2 || cells.iter().any(|p| p.layer.is_some()) {
            return true;
        }
        let all: std::collections::HashSet<(i64, i64)> = cells
            .iter()
            .map(|p| (i64::from(p.row), i64::from(p.col)))
            .collect();
        let start = (i64::from(cells[0].row), i64::from(cells[0].col));
        let mut seen = std::collections::HashSet::from([start]);
        let mut todo = vec![start];
        while let Some((r, c)) = todo.pop() {
            for n in neighbours(lattice, r, c) {
                if all.contains(&n) && seen.insert(n) {
                    todo.push(n);
                }
            }
        }
        seen.len() == all.len()
    })
}

/// W0980 when the pieces are not connected on the cells they are drawn with: a model
/// painted for hexagons drawn on squares, or `--cells triangle` for a square board.
/// `whence`: where the shape came from (`--cells`, the model's `draw cells`, the
/// default).
pub fn misfit(paints: &Paints, lattice: Lattice, whence: &str) -> Option<Report> {
    if connected(paints, lattice) {
        return None;
    }
    let name = |l: Lattice| match l {
        Lattice::Square => "square",
        Lattice::Triangle => "triangle",
        Lattice::Hex => "hex",
    };
    let fits = [Lattice::Square, Lattice::Hex, Lattice::Triangle]
        .into_iter()
        .find(|&l| l != lattice && connected(paints, l));
    let r = Report::warning(
        Code::W0980,
        format!(
            "the pieces are drawn on {} cells ({whence}), where some of them fall apart",
            name(lattice)
        ),
    );
    Some(match fits {
        Some(l) => r.help(format!(
            "on {} cells every piece is connected: declare `draw cells {}` in the model, or give --cells {}",
            name(l),
            name(l),
            name(l)
        )),
        None => r.help(
            "no cell shape keeps every piece connected: check the painted coordinates (docs/builtins.md)",
        ),
    })
}

/// The attributes of the thick lines: around the pieces, or between regions.
fn thick_attrs(what: &str) -> String {
    format!(r#"stroke="{THICK}" stroke-width="3" stroke-linecap="round" data-lines="{what}""#)
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

/// A side's key: its ends rounded, the lesser first.
fn side_key((a, b): Side) -> SideKey {
    let (ka, kb) = (key(a), key(b));
    if ka <= kb { (ka, kb) } else { (kb, ka) }
}

/// The sides to draw thick: those on the outside of the picture, and those between
/// cells of different groups (`group`: the owner, or the region), in a fixed order.
fn thick_edges<G: PartialEq>(
    cells: &[PlaneCell<'_>],
    polygons: &[Vec<(f64, f64)>],
    group: impl Fn(&PlaneCell<'_>) -> G,
) -> Vec<Side> {
    let mut sides: HashMap<SideKey, (Side, Vec<G>)> = HashMap::new();
    for (c, poly) in cells.iter().zip(polygons) {
        for k in 0..poly.len() {
            let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
            sides
                .entry(side_key((a, b)))
                .or_insert_with(|| ((a, b), Vec::new()))
                .1
                .push(group(c));
        }
    }
    let mut thick: Vec<(SideKey, Side)> = sides
        .into_iter()
        .filter(|(_, (_, groups))| groups.len() == 1 || groups.iter().any(|g| *g != groups[0]))
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
