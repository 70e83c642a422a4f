//! Shapes beyond the plane, and the hexagonal and triangular lattices: group sizes,
//! orientation counts of known pieces, and polyform counts against OEIS.

use std::collections::BTreeSet;

use super::*;
use crate::diag::Code;

fn int(i: i64) -> Value {
    Value::Int(i)
}

fn cell(xs: &[i64]) -> Value {
    Value::tuple(xs.iter().copied().map(int).collect())
}

fn shape_of(cells: &[&[i64]]) -> Value {
    Value::set(cells.iter().map(|c| cell(c)).collect::<Vec<_>>())
}

fn art(s: &str) -> Value {
    shape(&Value::str(s)).unwrap()
}

fn count(v: Result<Value, BuiltinError>) -> usize {
    v.unwrap().len().unwrap()
}

/// A shape with no symmetry in its own dimension: a staircase of cells whose steps grow,
/// `(0, ..., 0)`, then `k + 1` steps along axis `k` (on a line, cells 0, 1 and 3).
fn asymmetric(dim: usize) -> Value {
    if dim == 1 {
        return shape_of(&[&[0], &[1], &[3]]);
    }
    let mut cells = vec![vec![0i64; dim]];
    let mut at = vec![0i64; dim];
    for k in 0..dim {
        for _ in 0..=k {
            at[k] += 1;
            cells.push(at.clone());
        }
    }
    Value::set(cells.iter().map(|c| cell(c)).collect::<Vec<_>>())
}

#[test]
fn group_sizes_by_dimension() {
    for (dim, rots, syms) in [(1, 1, 2), (2, 4, 8), (3, 24, 48), (4, 192, 384)] {
        let s = asymmetric(dim);
        assert_eq!(count(rotations(&s)), rots, "dimension {dim}");
        assert_eq!(count(symmetries(&s)), syms, "dimension {dim}");
        assert_eq!(variants(&s).unwrap(), symmetries(&s).unwrap());
    }
    // A lone cell has one orientation in any dimension, also with no coordinates at all.
    assert_eq!(count(symmetries(&shape_of(&[&[0, 0, 0, 0, 0]]))), 1);
    assert_eq!(count(symmetries(&shape_of(&[&[]]))), 1);
    // Hexagons and triangles: 6 turns, 12 with mirrors.
    let hex = shape_of(&[
        &[0, 0],
        &[1, 0],
        &[2, 0],
        &[2, 1],
        &[0, 1],
        &[0, 2],
        &[-1, 3],
    ]);
    assert_eq!(count(hex_rotations(&hex)), 6);
    assert_eq!(count(hex_symmetries(&hex)), 12);
    let tri = shape_of(&[&[0, 0], &[0, 1], &[0, 2], &[1, 2], &[1, 3], &[1, 1]]);
    assert_eq!(count(tri_rotations(&tri)), 6);
    assert_eq!(count(tri_symmetries(&tri)), 12);
}

#[test]
fn layers_read_as_layer_row_col() {
    let s = art("OO/O.|O./..");
    assert_eq!(
        s,
        shape_of(&[&[0, 0, 0], &[0, 0, 1], &[0, 1, 0], &[1, 0, 0]])
    );
    // A `"""` block with `|` on lines of its own reads the same.
    assert_eq!(art("OO\nO.\n|\nO.\n..\n"), s);
    // Blank leading layers, rows and columns are normalized away; a blank layer between
    // two others is a gap.
    assert_eq!(art("..|.O"), shape_of(&[&[0, 0, 0]]));
    assert_eq!(art("O||O"), shape_of(&[&[0, 0, 0], &[2, 0, 0]]));
    assert!(shape(&Value::str("..|..")).is_err());
    // A trailing `|` makes a flat piece three-dimensional.
    assert_eq!(art("OO|"), shape_of(&[&[0, 0, 0], &[0, 0, 1]]));
}

/// The seven Soma pieces, each drawn as layers.
fn soma() -> Vec<(&'static str, Value)> {
    vec![
        ("V", art("OO/O.|")),
        ("L", art("OOO/O..|")),
        ("T", art("OOO/.O.|")),
        ("Z", art("OO./.OO|")),
        ("A", art("OO/O.|.O/..")),
        ("B", art("OO/O.|../O.")),
        ("P", art("OO/O.|O./..")),
    ]
}

#[test]
fn soma_pieces_have_their_known_numbers_of_orientations() {
    let (mut rots, mut syms) = (Vec::new(), Vec::new());
    for (_, s) in soma() {
        rots.push(count(rotations(&s)));
        syms.push(count(symmetries(&s)));
    }
    // Rotations: 24 / the order of each piece's own rotation group. The branch P (a
    // corner with three arms) has a 3-fold axis; the screws A and B a 2-fold one.
    assert_eq!(rots, [12, 24, 12, 12, 12, 12, 8]);
    // With mirrors: the flat pieces and P are their own mirror images, the screws are
    // each other's, so they double.
    assert_eq!(syms, [12, 24, 12, 12, 24, 24, 8]);
    let s = soma();
    assert_eq!(symmetries(&s[4].1).unwrap(), symmetries(&s[5].1).unwrap());
    assert_ne!(rotations(&s[4].1).unwrap(), rotations(&s[5].1).unwrap());
    // 27 cells in all: they fill the 3x3x3 cube.
    let cells: usize = s.iter().map(|(_, v)| v.len().unwrap()).sum();
    assert_eq!(cells, 27);
}

/// The rotations of a 3D shape made by quarter turns about two axes, closed by search:
/// the 24 rotations of the cube, reached without the group module.
#[test]
fn quarter_turns_generate_the_rotations() {
    for (_, s) in soma() {
        let mut seen = BTreeSet::from([normalize(&s).unwrap()]);
        let mut todo = vec![normalize(&s).unwrap()];
        while let Some(v) = todo.pop() {
            for (i, j) in [(0, 1), (1, 2)] {
                let w = rotate(&[v.clone(), int(i), int(j)]).unwrap();
                if seen.insert(w.clone()) {
                    todo.push(w);
                }
            }
        }
        let listed: BTreeSet<Value> = rotations(&s)
            .unwrap()
            .elements()
            .unwrap()
            .into_iter()
            .collect();
        assert_eq!(seen, listed);
        // And with a mirror along any axis, the symmetries.
        let mirrored = reflect(&[s.clone(), int(0)]).unwrap();
        let both: BTreeSet<Value> = rotations(&mirrored)
            .unwrap()
            .elements()
            .unwrap()
            .into_iter()
            .chain(seen)
            .collect();
        let all: BTreeSet<Value> = symmetries(&s)
            .unwrap()
            .elements()
            .unwrap()
            .into_iter()
            .collect();
        assert_eq!(both, all);
    }
}

#[test]
fn orientations_do_not_depend_on_the_drawing() {
    for (_, s) in soma() {
        let turned = rotate(&[s.clone(), int(2), int(0)]).unwrap();
        let moved = super::shift(&[turned.clone(), cell(&[5, -3, 7])]).unwrap();
        assert_eq!(rotations(&moved).unwrap(), rotations(&s).unwrap());
        assert_eq!(symmetries(&moved).unwrap(), symmetries(&s).unwrap());
        let list = symmetries(&s).unwrap().elements().unwrap();
        assert!(list.windows(2).all(|w| w[0] < w[1]));
        for v in &list {
            assert_eq!(&normalize(v).unwrap(), v);
        }
    }
}

#[test]
fn shift_size_and_normalize_in_any_dimension() {
    let s = art("OO/O.|O./..");
    let by_tuple = super::shift(&[s.clone(), cell(&[1, 2, 3])]).unwrap();
    let by_args = super::shift(&[s.clone(), int(1), int(2), int(3)]).unwrap();
    assert_eq!(by_tuple, by_args);
    assert!(by_tuple.contains(&cell(&[1, 2, 3])).unwrap());
    assert_eq!(normalize(&by_tuple).unwrap(), s);
    assert_eq!(size(&s).unwrap(), cell(&[2, 2, 2]));
    assert_eq!(size(&shape_of(&[&[4]])).unwrap(), cell(&[1]));
    assert_eq!(
        super::shift(&[shape_of(&[&[1]]), int(-3)]).unwrap(),
        shape_of(&[&[-2]])
    );
    // The empty shape moves by anything.
    let empty = Value::empty_set();
    assert_eq!(
        super::shift(&[empty.clone(), cell(&[1, 2, 3])]).unwrap(),
        empty
    );
    // Six dimensions are fine for everything but the symmetry groups.
    let six = shape_of(&[&[1, 2, 3, 4, 5, 6], &[2, 2, 3, 4, 5, 6]]);
    assert_eq!(
        normalize(&six).unwrap(),
        shape_of(&[&[0, 0, 0, 0, 0, 0], &[1, 0, 0, 0, 0, 0]])
    );
    assert_eq!(size(&six).unwrap(), cell(&[2, 1, 1, 1, 1, 1]));
    // Rotate and reflect along chosen axes.
    let rod = shape_of(&[&[0, 0, 0], &[0, 0, 1]]);
    assert_eq!(
        rotate(&[rod.clone(), int(0), int(2)]).unwrap(),
        shape_of(&[&[0, 0, 0], &[1, 0, 0]])
    );
    assert_eq!(reflect(&[rod.clone(), int(2)]).unwrap(), rod);
}

#[test]
fn mixed_dimensions_are_an_error_of_their_own() {
    let mixed = shape_of(&[&[0, 0], &[0, 0, 1]]);
    for f in [normalize, rotations, symmetries, variants, size] {
        let e = f(&mixed).unwrap_err();
        assert_eq!(e.code, Some(Code::E0215));
        assert_eq!(e.arg, Some(0));
        assert_eq!(
            e.message,
            "the cells of a shape have different dimensions: (0, 0) has 2 coordinates, (0, 0, 1) has 3"
        );
        assert!(e.help.unwrap().contains("(layer, row, col)"));
    }
    let s = art("OO");
    let e = super::shift(&[s.clone(), int(1), int(2), int(3)]).unwrap_err();
    assert_eq!(e.code, Some(Code::E0215));
    assert_eq!(
        e.message,
        "the shape's cells have 2 coordinates, but 3 offsets were given"
    );
    let e = super::shift(&[s.clone(), cell(&[1])]).unwrap_err();
    assert_eq!(
        e.message,
        "the shape's cells have 2 coordinates, but 1 offset was given"
    );
    let e = super::shift(&[s, Value::tuple(vec![int(1), Value::str("x")])]).unwrap_err();
    assert_eq!(e.arg, Some(1));
    assert_eq!(e.code, None);
}

#[test]
fn too_many_dimensions_for_a_symmetry_group() {
    let six = asymmetric(6);
    for f in [rotations, symmetries, variants] {
        let e = f(&six).unwrap_err();
        assert_eq!(e.code, Some(Code::E0216));
        assert!(e.message.contains("46080 symmetries"), "{}", e.message);
        assert!(e.message.contains("stops at 5 dimensions"), "{}", e.message);
    }
    // Five dimensions work: 3840 symmetries of a lone pair of cells give 5 images.
    assert_eq!(
        count(symmetries(&shape_of(&[&[0; 5], &[0, 0, 0, 0, 1]]))),
        5
    );
}

#[test]
fn bad_axes_and_cells_are_argument_errors() {
    let s = art("OO/O.|O./..");
    let e = rotate(&[s.clone(), int(0), int(3)]).unwrap_err();
    assert_eq!((e.arg, e.code), (Some(2), None));
    assert_eq!(e.message, "expected an axis from 0 to 2, found 3");
    let e = rotate(&[s.clone(), int(1), int(1)]).unwrap_err();
    assert_eq!(
        e.message,
        "the two axes of a turn must differ, found 1 twice"
    );
    let e = rotate(&[shape_of(&[&[0], &[1]])]).unwrap_err();
    assert!(e.message.contains("at least 2 dimensions"), "{}", e.message);
    let e = reflect(&[s, Value::str("x")]).unwrap_err();
    assert_eq!(e.arg, Some(1));
    let e = hex_rotations(&art("O|O")).unwrap_err();
    assert_eq!(
        e.message,
        "expected a shape of (q, r) pairs, found cells of 3 coordinates"
    );
    let e = tri_neighbors(&cell(&[1, 2, 3])).unwrap_err();
    assert_eq!(e.message, "expected a cell (row, col), found (1, 2, 3)");
    let e = neighbors(&Value::str("x")).unwrap_err();
    assert_eq!(
        e.message,
        "expected a cell (a tuple of integers), found \"x\""
    );
}

#[test]
fn neighbours_of_a_cell() {
    assert_eq!(neighbors(&cell(&[0, 0, 0])).unwrap().len(), Some(6));
    assert_eq!(
        neighbors(&cell(&[2, 5])).unwrap(),
        shape_of(&[&[1, 5], &[3, 5], &[2, 4], &[2, 6]])
    );
    assert_eq!(
        hex_neighbors(&cell(&[0, 0])).unwrap(),
        shape_of(&[&[1, 0], &[1, -1], &[0, -1], &[-1, 0], &[-1, 1], &[0, 1]])
    );
    // (0, 0) points up: its third neighbour is below; (0, 1) points down.
    assert_eq!(
        tri_neighbors(&cell(&[0, 0])).unwrap(),
        shape_of(&[&[0, -1], &[0, 1], &[1, 0]])
    );
    assert_eq!(
        tri_neighbors(&cell(&[0, 1])).unwrap(),
        shape_of(&[&[0, 0], &[0, 2], &[-1, 1]])
    );
}

/// A lattice for polyform counting: a cell's neighbours and the translation-normal form.
struct Lattice {
    start: Value,
    neighbors: fn(&Value) -> Result<Value, BuiltinError>,
    fixed_form: fn(&Value) -> Value,
    rotations: fn(&Value) -> Result<Value, BuiltinError>,
    symmetries: fn(&Value) -> Result<Value, BuiltinError>,
}

/// (fixed, one-sided, free) counts of the polyforms of 1..=n cells, grown cell by cell
/// from one cell through `neighbors`. Two forms are the same one-sided (free) form when
/// their lists of rotations (symmetries) are equal: the lists are the whole orbits.
fn polyforms(l: &Lattice, n: usize) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    let mut fixed: BTreeSet<Value> = BTreeSet::new();
    for size in 1..=n {
        fixed = if size == 1 {
            // One cell of every kind the lattice has (up and down triangles).
            (l.symmetries)(&Value::set([l.start.clone()]))
                .unwrap()
                .elements()
                .unwrap()
                .into_iter()
                .collect()
        } else {
            let mut next = BTreeSet::new();
            for form in &fixed {
                for c in form.elements().unwrap() {
                    for nb in (l.neighbors)(&c).unwrap().elements().unwrap() {
                        if !form.contains(&nb).unwrap() {
                            let mut cells = form.elements().unwrap();
                            cells.push(nb);
                            next.insert((l.fixed_form)(&Value::set(cells)));
                        }
                    }
                }
            }
            next
        };
        let one_sided: BTreeSet<Value> = fixed.iter().map(|f| (l.rotations)(f).unwrap()).collect();
        let free: BTreeSet<Value> = fixed.iter().map(|f| (l.symmetries)(f).unwrap()).collect();
        // Orbit sizes add up: every fixed form is in exactly one orbit.
        let orbit_total: usize = free.iter().map(|o| o.len().unwrap()).sum();
        assert_eq!(orbit_total, fixed.len());
        out.push((fixed.len(), one_sided.len(), free.len()));
    }
    out
}

fn tri_fixed_form(s: &Value) -> Value {
    let cells = cells2(0, s, "").unwrap();
    pairs_to_value(lattice::tri_normalized(cells)).unwrap()
}

fn normalized_value(s: &Value) -> Value {
    normalize(s).unwrap()
}

fn transpose(v: Vec<(usize, usize, usize)>) -> [Vec<usize>; 3] {
    [
        v.iter().map(|t| t.0).collect(),
        v.iter().map(|t| t.1).collect(),
        v.iter().map(|t| t.2).collect(),
    ]
}

/// Polyominoes: OEIS A001168 (fixed), A000988 (one-sided), A000105 (free).
#[test]
fn polyomino_counts() {
    let l = Lattice {
        start: cell(&[0, 0]),
        neighbors,
        fixed_form: normalized_value,
        rotations,
        symmetries,
    };
    let [fixed, one_sided, free] = transpose(polyforms(&l, 6));
    assert_eq!(fixed, [1, 2, 6, 19, 63, 216]);
    assert_eq!(one_sided, [1, 1, 2, 7, 18, 60]);
    assert_eq!(free, [1, 1, 2, 5, 12, 35]);
}

/// Polycubes: OEIS A001931 (fixed), A000162 (up to rotation: the 8 tetracubes, the
/// screws counted twice), A038119 (up to rotation and mirror: 7 tetracubes).
#[test]
fn polycube_counts() {
    let l = Lattice {
        start: cell(&[0, 0, 0]),
        neighbors,
        fixed_form: normalized_value,
        rotations,
        symmetries,
    };
    let [fixed, one_sided, free] = transpose(polyforms(&l, 5));
    assert_eq!(fixed, [1, 3, 15, 86, 534]);
    assert_eq!(one_sided, [1, 1, 2, 8, 29]);
    assert_eq!(free, [1, 1, 2, 7, 23]);
}

/// Polyhexes: OEIS A001207 (fixed), A006535 (one-sided), A000228 (free).
#[test]
fn polyhex_counts() {
    let l = Lattice {
        start: cell(&[0, 0]),
        neighbors: hex_neighbors,
        fixed_form: normalized_value,
        rotations: hex_rotations,
        symmetries: hex_symmetries,
    };
    let [fixed, one_sided, free] = transpose(polyforms(&l, 5));
    assert_eq!(fixed, [1, 3, 11, 44, 186]);
    assert_eq!(one_sided, [1, 1, 3, 10, 33]);
    assert_eq!(free, [1, 1, 3, 7, 22]);
}

/// Polyiamonds: OEIS A001420 (fixed), A006534 (one-sided), A000577 (free).
#[test]
fn polyiamond_counts() {
    let l = Lattice {
        start: cell(&[0, 0]),
        neighbors: tri_neighbors,
        fixed_form: tri_fixed_form,
        rotations: tri_rotations,
        symmetries: tri_symmetries,
    };
    let [fixed, one_sided, free] = transpose(polyforms(&l, 6));
    assert_eq!(fixed, [2, 3, 6, 14, 36, 94]);
    assert_eq!(one_sided, [1, 1, 1, 4, 6, 19]);
    assert_eq!(free, [1, 1, 1, 3, 4, 12]);
}
