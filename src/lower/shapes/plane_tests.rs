//! The plane: ASCII art, the 8 symmetries of the square, polyomino counts.

use super::*;

fn sh(art: &str) -> Value {
    shape(&Value::str(art)).unwrap()
}

fn pairs(v: &Value) -> Vec<(i64, i64)> {
    cells(0, v)
        .unwrap()
        .cells
        .into_iter()
        .map(|c| (c[0] as i64, c[1] as i64))
        .collect()
}

fn rotate(v: &Value) -> Result<Value, BuiltinError> {
    super::rotate(std::slice::from_ref(v))
}

fn reflect(v: &Value) -> Result<Value, BuiltinError> {
    super::reflect(std::slice::from_ref(v))
}

fn shift(v: &Value, dr: &Value, dc: &Value) -> Result<Value, BuiltinError> {
    super::shift(&[v.clone(), dr.clone(), dc.clone()])
}

fn count(art: &str) -> usize {
    variants(&sh(art)).unwrap().len().unwrap()
}

#[test]
fn shape_reads_rows_by_slash_or_newline() {
    assert_eq!(pairs(&sh("OO/O")), [(0, 0), (0, 1), (1, 0)]);
    assert_eq!(sh("OO\nO."), sh("OO/O"));
    assert_eq!(sh("OO\r\nO"), sh("OO/O"));
    // Blank leading rows and columns are normalized away.
    assert_eq!(sh("/..X/. X"), sh("X/X"));
    assert_eq!(
        pairs(&sh(".O/OOO/.O")),
        [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]
    );
    // Any non-blank character is a cell, also digits and letters.
    assert_eq!(sh("a1"), sh("OO"));
}

#[test]
fn shape_rejects_empty_art_and_non_strings() {
    for art in ["", "...", " / ", "/"] {
        let e = shape(&Value::str(art)).unwrap_err();
        assert_eq!(e.arg, Some(0));
        assert!(e.message.contains("no cells"), "{}", e.message);
        assert!(e.help.unwrap().contains("shape(\"OO/O.\")"));
    }
    let e = shape(&Value::Int(3)).unwrap_err();
    assert_eq!(e.message, "expected a string, found an integer");
}

#[test]
fn wrong_kinds_are_errors_naming_the_argument() {
    let bad = [
        Value::Int(1),
        Value::list(vec![]),
        Value::set([Value::Int(1)]),
        Value::set([Value::tuple(vec![Value::Int(1), Value::str("x")])]),
    ];
    for v in &bad {
        for f in [normalize, rotate, reflect, variants, size] {
            let e = f(v).unwrap_err();
            assert_eq!(e.arg, Some(0));
            assert!(
                e.message
                    .starts_with("expected a shape (a set of integer tuples), found "),
                "{}",
                e.message
            );
        }
        assert!(shift(v, &Value::Int(0), &Value::Int(0)).is_err());
    }
    let e = normalize(&Value::set([Value::str("x")])).unwrap_err();
    assert_eq!(
        e.message,
        "expected a shape (a set of integer tuples), found a set with the element \"x\""
    );
    let e = shift(&sh("O"), &Value::Int(0), &Value::str("1")).unwrap_err();
    assert_eq!(e.arg, Some(2));
    assert_eq!(e.message, "expected an integer, found a string");
}

#[test]
fn transforms() {
    // Clockwise: the top row becomes the right column.
    assert_eq!(rotate(&sh("OO/O.")).unwrap(), sh("OO/.O"));
    assert_eq!(rotate(&sh("OOO")).unwrap(), sh("O/O/O"));
    assert_eq!(rotate(&sh("O../OOO")).unwrap(), sh("OO/O./O."));
    assert_eq!(reflect(&sh("O../OOO")).unwrap(), sh("..O/OOO"));
    let s = sh("OO/.O/.OO");
    let mut r = s.clone();
    for _ in 0..4 {
        r = rotate(&r).unwrap();
    }
    assert_eq!(r, s);
    assert_eq!(reflect(&reflect(&s).unwrap()).unwrap(), s);
    let moved = shift(&s, &Value::Int(3), &Value::Int(-2)).unwrap();
    assert_eq!(pairs(&moved)[0], (3, -2));
    assert_eq!(normalize(&moved).unwrap(), s);
    assert_eq!(
        size(&s).unwrap(),
        Value::tuple(vec![Value::Int(3), Value::Int(3)])
    );
    assert_eq!(size(&sh("OOOO")).unwrap().to_string(), "(1, 4)");
    let empty = Value::empty_set();
    assert_eq!(size(&empty).unwrap().to_string(), "(0, 0)");
    assert_eq!(normalize(&empty).unwrap(), empty);
    assert_eq!(rotate(&empty).unwrap(), empty);
    assert_eq!(variants(&empty).unwrap(), Value::list(vec![empty.clone()]));
    assert_eq!(
        shift(&empty, &Value::Int(1), &Value::Int(1)).unwrap(),
        empty
    );
}

#[test]
fn coordinates_that_do_not_fit_are_overflow_errors() {
    let far = Value::set([
        Value::tuple(vec![Value::Int(i64::MIN), Value::Int(0)]),
        Value::tuple(vec![Value::Int(i64::MAX), Value::Int(0)]),
    ]);
    assert!(normalize(&far).unwrap_err().message.contains("overflow"));
    assert!(size(&far).unwrap_err().message.contains("overflow"));
    let e = shift(&sh("O"), &Value::Int(i64::MAX), &Value::Int(0));
    assert!(e.is_ok());
    let e = shift(
        &shift(&sh("O"), &Value::Int(i64::MAX), &Value::Int(0)).unwrap(),
        &Value::Int(1),
        &Value::Int(0),
    );
    assert!(e.unwrap_err().message.contains("overflow"));
    // A lone cell at i64::MIN rotates fine: normalization brings it back to 0.
    let lone = Value::set([Value::tuple(vec![
        Value::Int(i64::MIN),
        Value::Int(i64::MIN),
    ])]);
    assert_eq!(rotate(&lone).unwrap(), sh("O"));
}

#[test]
fn variant_counts() {
    assert_eq!(count("OOO/O"), 8); // L tetromino
    assert_eq!(count("OOO/.O"), 4); // T tetromino
    assert_eq!(count("OO/OO"), 1); // square
    assert_eq!(count("OOOOO"), 2); // I pentomino
    assert_eq!(count(".O/OOO/.O"), 1); // X pentomino
    assert_eq!(count(".OO/OO/.O"), 8); // F pentomino
}

#[test]
fn variants_are_sorted_and_independent_of_the_drawing() {
    let l = sh("OOO/O");
    let vs = variants(&l).unwrap();
    let list = vs.elements().unwrap();
    assert!(list.windows(2).all(|w| w[0] < w[1]));
    // The order, drawn: sets compare by their least cells first.
    let drawn = [
        "OOO/O", "OOO/..O", "OO/O/O", "OO/.O/.O", "O/OOO", "O/O/OO", ".O/.O/OO", "..O/OOO",
    ];
    let expected: Vec<Value> = drawn.iter().map(|art| sh(art)).collect();
    assert_eq!(list, expected);
    assert!(list.contains(&l));
    assert_eq!(variants(&rotate(&l).unwrap()).unwrap(), vs);
    assert_eq!(variants(&reflect(&l).unwrap()).unwrap(), vs);
    // Every variant is normalized.
    for v in &list {
        assert_eq!(normalize(v).unwrap(), *v);
    }
}

/// The 12 pentominoes have 63 fixed orientations in all.
#[test]
fn pentominoes_have_63_fixed_orientations() {
    let pentominoes = [
        ("F", ".OO/OO./.O."),
        ("I", "OOOOO"),
        ("L", "OOOO/O"),
        ("N", "OO../.OOO"),
        ("P", "OO/OO/O"),
        ("T", "OOO/.O./.O."),
        ("U", "O.O/OOO"),
        ("V", "O/O/OOO"),
        ("W", "O/OO/.OO"),
        ("X", ".O/OOO/.O"),
        ("Y", "OOOO/.O"),
        ("Z", "OO/.O/.OO"),
    ];
    let counts: Vec<usize> = pentominoes.iter().map(|(_, art)| count(art)).collect();
    assert_eq!(counts, [8, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4]);
    assert_eq!(counts.iter().sum::<usize>(), 63);
    for (_, art) in pentominoes {
        assert_eq!(cells(0, &sh(art)).unwrap().cells.len(), 5);
    }
}

/// Orientations counted independently of `rotate`/`reflect`: the 8 symmetries
/// written out as explicit coordinate formulas, each image normalized by hand.
fn brute_force_orientations(cells: &[(i64, i64)]) -> usize {
    type Symmetry = fn(i64, i64) -> (i64, i64);
    let maps: [Symmetry; 8] = [
        |r, c| (r, c),
        |r, c| (c, -r),
        |r, c| (-r, -c),
        |r, c| (-c, r),
        |r, c| (r, -c),
        |r, c| (c, r),
        |r, c| (-r, c),
        |r, c| (-c, -r),
    ];
    let mut seen = std::collections::HashSet::new();
    for m in maps {
        let img: Vec<(i64, i64)> = cells.iter().map(|&(r, c)| m(r, c)).collect();
        let r0 = img.iter().map(|p| p.0).min().unwrap();
        let c0 = img.iter().map(|p| p.1).min().unwrap();
        let mut norm: Vec<(i64, i64)> = img.iter().map(|&(r, c)| (r - r0, c - c0)).collect();
        norm.sort();
        seen.insert(norm);
    }
    seen.len()
}

/// The pieces of NOI 2005 "pearl", as in DESIGN.md.
#[test]
fn pearl_pieces() {
    let pieces = [
        ("A", "OO/O"),
        ("B", "OOOO"),
        ("C", "OOO/O"),
        ("D", "OO/OO"),
        ("E", "O/O/OOO"),
        ("F", "OOOO/.O"),
        ("G", "OOO/O.O"),
        ("H", "OOO/OO"),
        ("I", "OOO/..OO"),
        ("J", ".O/OOO/.O"),
        ("K", "O/OO/.OO"),
        ("L", "OOOO/O"),
    ];
    let mut counts = Vec::new();
    for (name, art) in pieces {
        // Cells read by hand from the art, not through `shape`.
        let mut raw = Vec::new();
        for (r, row) in art.split('/').enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch == 'O' {
                    raw.push((r as i64, c as i64));
                }
            }
        }
        let n = count(art);
        assert_eq!(n, brute_force_orientations(&raw), "piece {name}");
        counts.push(n);
    }
    assert_eq!(counts, [4, 2, 8, 1, 4, 8, 4, 8, 8, 1, 4, 8]);
    // 55 holes: the pieces' cells add up to the board.
    let total: usize = pieces
        .iter()
        .map(|(_, art)| cells(0, &sh(art)).unwrap().cells.len())
        .sum();
    assert_eq!(total, 55);
}
