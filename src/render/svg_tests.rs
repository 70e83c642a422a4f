use super::*;
use crate::diag::Code;
use crate::instance::paint::{PaintCell, Paints};

fn cell(layer: Option<i32>, row: i32, col: i32, text: &str) -> PaintCell {
    PaintCell {
        layer,
        row,
        col,
        text: text.into(),
    }
}

fn plane(cells: &[(i32, i32, &str)]) -> Vec<PaintCell> {
    cells.iter().map(|&(r, c, t)| cell(None, r, c, t)).collect()
}

/// Paints of these options, with no canvas.
fn paints_of(options: Vec<Vec<PaintCell>>) -> Paints {
    Paints::from_options(options, Vec::new())
}

/// The `(name, attribute)` values of every element `name` in `svg`.
fn attrs<'a>(svg: &'a str, name: &str, attr: &str) -> Vec<&'a str> {
    svg.lines()
        .filter(|l| l.starts_with(&format!("<{name} ")))
        .filter_map(|l| {
            let at = l.find(&format!(" {attr}=\""))? + attr.len() + 3;
            Some(&l[at..at + l[at..].find('"')?])
        })
        .collect()
}

/// Every `<x` is closed by `</x>` or `/>`, in nesting order.
fn well_formed(svg: &str) -> bool {
    let mut open = Vec::new();
    let mut rest = svg;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let end = rest.find('>').expect("tag ends");
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            if open.pop() != Some(name.to_string()) {
                return false;
            }
        } else if !tag.ends_with('/') {
            open.push(tag.split_whitespace().next().unwrap_or("").to_string());
        }
    }
    open.is_empty() && svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>")
}

fn style(lattice: Lattice) -> Style {
    Style {
        lattice,
        labels: true,
    }
}

#[test]
fn one_polygon_per_shown_cell_colored_by_text() {
    // Two options paint A, one paints B; option 1 paints over a canvas cell.
    let options = vec![
        plane(&[(0, 0, "A"), (0, 1, "A")]),
        plane(&[(1, 0, "B"), (1, 1, "B")]),
        plane(&[(2, 0, "A")]),
    ];
    let bare = paints_of(options.clone());
    let paints = Paints::from_options(options, plane(&[(1, 1, "."), (2, 1, ".")]));
    let chosen = [OptionId(0), OptionId(1), OptionId(2)];
    let svg = draw(
        &paints,
        &chosen,
        &Palette::new(&paints),
        style(Lattice::Square),
    )
    .unwrap();
    assert!(well_formed(&svg), "{svg}");
    let fills = attrs(&svg, "polygon", "fill");
    let texts = attrs(&svg, "polygon", "data-text");
    assert_eq!(fills.len(), 6, "six places, one polygon each:\n{svg}");
    let fill_of = |t: &str| {
        let k = texts.iter().position(|x| *x == t).unwrap();
        fills[k]
    };
    assert_eq!(fill_of("A"), PALETTE[0]);
    assert_eq!(fill_of("B"), PALETTE[1]);
    assert_eq!(fill_of("."), CANVAS);
    // Same text, same color; the canvas hole is not labelled.
    for (t, f) in texts.iter().zip(&fills) {
        assert_eq!(*f, fill_of(t));
    }
    let labels: Vec<&str> = svg
        .lines()
        .filter_map(|l| {
            l.strip_prefix("<text ")
                .map(|l| &l[l.find('>').unwrap() + 1..])
        })
        .collect();
    assert_eq!(labels.len(), 5, "{svg}");
    // Without labels, no text at all.
    let plain = draw(
        &paints,
        &chosen,
        &Palette::new(&paints),
        Style {
            lattice: Lattice::Square,
            labels: false,
        },
    )
    .unwrap();
    assert!(!plain.contains("<text"));
    assert_eq!(
        draw(&paints, &[], &Palette::new(&paints), style(Lattice::Square))
            .map(|s| s.contains("data-text=\".\"")),
        Some(true)
    );
    assert_eq!(
        draw(&bare, &[], &Palette::new(&paints), style(Lattice::Square)),
        None
    );
}

#[test]
fn thick_borders_follow_options_not_colors() {
    // Two options of the same text side by side: one color, but a thick side between.
    let paints = paints_of(vec![plane(&[(0, 0, "x")]), plane(&[(0, 1, "x")])]);
    let both = [OptionId(0), OptionId(1)];
    let cells = plane_cells(&paints, &both, false);
    let polys: Vec<_> = cells
        .iter()
        .map(|c| corners(Lattice::Square, c.row, c.col))
        .collect();
    // 2 squares: 8 sides, the shared one counted once: 7, all thick.
    assert_eq!(thick_edges(&cells, &polys, |c| c.owner).len(), 7);
    // One option painting both: the shared side is thin.
    let one = paints_of(vec![plane(&[(0, 0, "x"), (0, 1, "x")])]);
    let cells = plane_cells(&one, &[OptionId(0)], false);
    let polys: Vec<_> = cells
        .iter()
        .map(|c| corners(Lattice::Square, c.row, c.col))
        .collect();
    assert_eq!(thick_edges(&cells, &polys, |c| c.owner).len(), 6);
}

#[test]
fn triangles_and_hexagons_share_their_sides() {
    // The hexagon of six triangles (docs/builtins.md): 12 sides, 6 of them inner.
    let six: Vec<(i32, i32, &str)> = (0..2)
        .flat_map(|r| (0..3).map(move |c| (r, c, "t")))
        .collect();
    let paints = paints_of(vec![plane(&six)]);
    let cells = plane_cells(&paints, &[OptionId(0)], true);
    let polys: Vec<_> = cells
        .iter()
        .map(|c| corners(Lattice::Triangle, c.row, c.col))
        .collect();
    assert!(polys.iter().all(|p| p.len() == 3));
    assert_eq!(
        thick_edges(&cells, &polys, |c| c.owner).len(),
        6,
        "only the rim is thick"
    );
    // (0, 0) points up (apex on top), (0, 1) down.
    let up = corners(Lattice::Triangle, 0, 0);
    let down = corners(Lattice::Triangle, 0, 1);
    assert!(up[0].1 < up[1].1 && down[2].1 > down[0].1);
    // A hex flower: the centre and its six neighbours, one option; the rim has 18 sides.
    let flower: Vec<(i32, i32, &str)> =
        [(0, 0), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]
            .iter()
            .map(|&(q, r)| (r, q, "h"))
            .collect();
    let paints = paints_of(vec![plane(&flower)]);
    let cells = plane_cells(&paints, &[OptionId(0)], false);
    let polys: Vec<_> = cells
        .iter()
        .map(|c| corners(Lattice::Hex, c.row, c.col))
        .collect();
    assert_eq!(thick_edges(&cells, &polys, |c| c.owner).len(), 18);
    let svg = draw(
        &paints,
        &[OptionId(0)],
        &Palette::new(&paints),
        style(Lattice::Hex),
    )
    .unwrap();
    assert!(well_formed(&svg));
    assert_eq!(attrs(&svg, "polygon", "points").len(), 7);
    assert!(
        attrs(&svg, "polygon", "points")
            .iter()
            .all(|p| p.split(' ').count() == 6)
    );
}

#[test]
fn layers_lie_side_by_side_with_a_gap() {
    // Two layers of a 1x2 box; the gap column is blank in text, absent in the picture.
    let paints = paints_of(vec![vec![
        cell(Some(0), 0, 0, "a"),
        cell(Some(0), 0, 1, "a"),
        cell(Some(1), 0, 0, "b"),
        cell(Some(1), 0, 1, "b"),
    ]]);
    assert_eq!(
        crate::render::paint(&paints, &[OptionId(0)]).unwrap(),
        ["aa bb"]
    );
    let svg = draw(
        &paints,
        &[OptionId(0)],
        &Palette::new(&paints),
        style(Lattice::Square),
    )
    .unwrap();
    assert_eq!(
        attrs(&svg, "polygon", "data-cell"),
        ["0,0", "0,1", "0,3", "0,4"]
    );
    // On triangles, layers are an even number of columns apart.
    let svg = draw(
        &paints,
        &[OptionId(0)],
        &Palette::new(&paints),
        style(Lattice::Triangle),
    )
    .unwrap();
    assert_eq!(
        attrs(&svg, "polygon", "data-cell"),
        ["0,0", "0,1", "0,4", "0,5"]
    );
    // Layers far apart are laid out next to each other.
    let far = paints_of(vec![vec![
        cell(Some(-5), 0, 0, "a"),
        cell(Some(i32::MAX), 0, 0, "b"),
    ]]);
    assert_eq!(crate::render::paint(&far, &[OptionId(0)]).unwrap(), ["a b"]);
}

#[test]
fn palette_is_by_sorted_text_and_stable() {
    let paints = paints_of(vec![plane(&[
        (0, 0, "10"),
        (0, 1, "9"),
        (0, 2, "Z"),
        (0, 3, "A"),
    ])]);
    let p = Palette::new(&paints);
    assert_eq!(p.color("9"), PALETTE[0]);
    assert_eq!(p.color("10"), PALETTE[1]);
    assert_eq!(p.color("A"), PALETTE[2]);
    assert_eq!(p.color("Z"), PALETTE[3]);
    // Beyond the palette: distinct generated colors.
    let many: Vec<PaintCell> = (0..60).map(|k| cell(None, 0, k, &k.to_string())).collect();
    let p = Palette::new(&paints_of(vec![many]));
    let mut colors: Vec<&str> = (0..60).map(|k| p.color(&k.to_string())).collect();
    colors.sort_unstable();
    colors.dedup();
    assert_eq!(colors.len(), 60);
    assert!(colors.iter().all(|c| c.len() == 7 && c.starts_with('#')));
}

#[test]
fn text_is_escaped_and_numbers_are_short() {
    let paints = paints_of(vec![plane(&[(0, 0, "<&\">")])]);
    let svg = draw(
        &paints,
        &[OptionId(0)],
        &Palette::new(&paints),
        style(Lattice::Square),
    )
    .unwrap();
    assert!(svg.contains("&lt;&amp;&quot;&gt;") && !svg.contains("<&"));
    assert!(well_formed(&svg));
    assert_eq!(num(12.0), "12");
    assert_eq!(num(12.5), "12.5");
    assert_eq!(num(-0.001), "0");
}

/// A 2x2 grid of one-cell options whose regions are its two columns.
fn columns_grid() -> Paints {
    let options = (0..2)
        .flat_map(|r| (0..2).map(move |c| plane(&[(r, c, if c == 0 { "1" } else { "2" })])))
        .collect();
    let mut paints = paints_of(options);
    let texts: Vec<_> = ["left", "right"].iter().map(|t| paints.intern(t)).collect();
    let region = (0..2)
        .flat_map(|r| (0..2).map(move |c| (r, c)))
        .map(|(r, c)| crate::instance::paint::Painted {
            layer: None,
            row: r,
            col: c,
            text: texts[c as usize],
        })
        .collect();
    paints.push_regions(region);
    paints
}

#[test]
fn a_grid_with_regions_is_in_one_ink_with_its_walls_and_bold_clues() {
    let paints = columns_grid();
    let chosen: Vec<OptionId> = (0..4).map(OptionId).collect();
    let svg = draw_with(
        &paints,
        &chosen,
        &[OptionId(0)],
        &Palette::new(&paints),
        style(Lattice::Square),
    )
    .unwrap();
    assert!(well_formed(&svg));
    let fills = attrs(&svg, "polygon", "fill");
    assert_eq!(fills, [CLUE, PAPER, PAPER, PAPER]);
    assert_eq!(attrs(&svg, "polygon", "data-clue"), ["1"]);
    assert_eq!(attrs(&svg, "text", "font-weight"), ["bold"]);
    // The wall between the columns (x = 40: the margin 8 plus one cell of 32) and the
    // outline; no line between the cells of one column.
    let walls = attrs(&svg, "path", "d");
    assert_eq!(attrs(&svg, "path", "data-lines"), ["regions"]);
    assert!(walls[0].contains("M40 8L40 40") && walls[0].contains("M40 40L40 72"));
    assert!(!walls[0].contains("M8 40L40 40"), "{}", walls[0]);
}

#[test]
fn twenty_five_symbols_get_twenty_five_colors_with_readable_labels() {
    let options = (0..25).map(|k| plane(&[(0, k, &k.to_string())])).collect();
    let paints = paints_of(options);
    let palette = Palette::new(&paints);
    let colors: std::collections::HashSet<&str> =
        (0..25).map(|k| palette.color(&k.to_string())).collect();
    assert_eq!(colors.len(), 25);
    assert_eq!(ink_on("#003380"), "white");
    assert_eq!(ink_on("#ffff80"), "black");
}

#[test]
fn a_shape_that_tears_the_pieces_apart_is_w0980() {
    // (1, 0) and (0, 1) touch on hexagons (axial coordinates), not on squares.
    let paints = paints_of(vec![plane(&[(1, 0, "A"), (0, 1, "A")])]);
    let w = misfit(&paints, Lattice::Square, "the default").expect("a warning");
    assert_eq!(w.code, Code::W0980);
    assert!(misfit(&paints, Lattice::Hex, "--cells").is_none());
    // One cell per option fits every shape.
    assert!(misfit(&columns_grid(), Lattice::Triangle, "--cells").is_none());
}
