//! The shape builtins: pieces as sets of integer tuples, in any number of dimensions.
//!
//! A shape is an ordinary [`Value::Set`] of integer tuples, all of the same length (its
//! dimension), so models can also build and compare shapes with set comprehensions and
//! operators. In the plane a cell is `(row, col)`, rows growing downwards and columns to
//! the right, as in the ASCII art that `shape` reads; in space `shape` reads layers and
//! gives `(layer, row, col)`. The symmetries of the square, the cube and the
//! `d`-dimensional cube come from [`group`]; the hexagonal and triangular lattices, whose
//! cells are pairs with their own turns, from [`lattice`].
//!
//! Every list of orientations is normalized and **sorted by the value order of shapes**,
//! so it does not depend on how a piece was written: option names built from positions
//! in it stay the same when a piece is redrawn in another orientation.
//!
//! Coordinates are transformed in `i128` and converted back at the end, so a shape with
//! cells near the ends of the `i64` range reports "integer overflow" instead of wrapping.

pub mod group;
pub mod lattice;

use std::collections::BTreeSet;

use super::args::BuiltinError;
use super::value::Value;
use crate::diag::Code;
use lattice::Cell2;

/// A cell, widened so that negating and subtracting cannot overflow.
type Cell = Vec<i128>;

/// The code of a shape whose cells, or whose offsets, have different dimensions.
const MIXED_DIMENSIONS: Code = Code::E0215;
/// The code of a symmetry group asked for in more than [`group::MAX_DIMENSIONS`].
const TOO_MANY_DIMENSIONS: Code = Code::E0216;

/// The cells of a shape and their dimension (`None` for the empty shape).
struct Shape {
    dim: Option<usize>,
    cells: Vec<Cell>,
}

/// The cells of argument `arg`, which must be a set of integer tuples of one length.
fn cells(arg: usize, v: &Value) -> Result<Shape, BuiltinError> {
    let Value::Set(xs) = v else {
        return Err(not_a_shape(arg, v.kind().described().to_string()));
    };
    let mut out = Vec::with_capacity(xs.len());
    let mut first: Option<&Value> = None;
    for x in xs.iter() {
        let cell = int_tuple(x)
            .ok_or_else(|| not_a_shape(arg, format!("a set with the element {x:#}")))?;
        match first {
            None => first = Some(x),
            Some(f) if out.first().is_some_and(|c: &Cell| c.len() != cell.len()) => {
                return Err(mixed(arg, f, x));
            }
            Some(_) => {}
        }
        out.push(cell);
    }
    Ok(Shape {
        dim: out.first().map(Vec::len),
        cells: out,
    })
}

/// The coordinates of a tuple of integers.
fn int_tuple(x: &Value) -> Option<Cell> {
    match x {
        Value::Tuple(t) => t.iter().map(|c| c.as_int().map(i128::from)).collect(),
        _ => None,
    }
}

fn not_a_shape(arg: usize, found: String) -> BuiltinError {
    BuiltinError::at(
        arg,
        format!("expected a shape (a set of integer tuples), found {found}"),
    )
    .with_help("a shape is a set of integer tuples, such as shape(\"OO/O.\") or {(0, 0), (0, 1)}")
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn mixed(arg: usize, a: &Value, b: &Value) -> BuiltinError {
    let (n, m) = (a.len().unwrap_or(0), b.len().unwrap_or(0));
    BuiltinError::at(
        arg,
        format!(
            "the cells of a shape have different dimensions: {a:#} has {n} coordinate{}, {b:#} has {m}",
            plural(n)
        ),
    )
    .with_code(MIXED_DIMENSIONS)
    .with_help(
        "write every cell of a shape with the same number of coordinates: (row, col) in the plane, (layer, row, col) in space",
    )
}

/// The cells of a shape on a 2D lattice (hexagons or triangles), named `what` in errors.
fn cells2(arg: usize, v: &Value, what: &str) -> Result<Vec<Cell2>, BuiltinError> {
    let shape = cells(arg, v)?;
    match shape.dim {
        None | Some(2) => Ok(shape.cells.iter().map(|c| (c[0], c[1])).collect()),
        Some(d) => Err(BuiltinError::at(
            arg,
            format!(
                "expected a shape of {what} pairs, found cells of {d} coordinate{}",
                plural(d)
            ),
        )
        .with_help(format!(
            "a cell of this lattice is a pair {what}; see docs/builtins.md"
        ))),
    }
}

/// One coordinate back as an integer value.
fn fit(x: i128) -> Result<Value, BuiltinError> {
    i64::try_from(x)
        .map(Value::Int)
        .map_err(|_| BuiltinError::call("integer overflow in a shape coordinate"))
}

/// The shape with these cells; fails if a coordinate does not fit in an integer.
fn to_value(cells: impl IntoIterator<Item = Cell>) -> Result<Value, BuiltinError> {
    let mut out = Vec::new();
    for cell in cells {
        out.push(Value::tuple(
            cell.into_iter().map(fit).collect::<Result<_, _>>()?,
        ));
    }
    Ok(Value::set(out))
}

fn pairs_to_value(cells: impl IntoIterator<Item = Cell2>) -> Result<Value, BuiltinError> {
    to_value(cells.into_iter().map(|(a, b)| vec![a, b]))
}

/// The cells moved so that every coordinate's least value is 0, sorted.
fn normalized(mut cells: Vec<Cell>) -> Vec<Cell> {
    let dim = cells.first().map_or(0, Vec::len);
    for k in 0..dim {
        let least = cells.iter().map(|c| c[k]).min().unwrap_or(0);
        for cell in &mut cells {
            cell[k] -= least;
        }
    }
    cells.sort_unstable();
    cells
}

/// Distinct images, as a list of shapes sorted by the value order (the documented
/// order, independent of the drawing; a sorted vector of cells orders as its set value
/// does, but the values are sorted again so the order cannot drift from `Value`'s).
fn sorted_shapes(images: BTreeSet<Vec<Cell>>) -> Result<Value, BuiltinError> {
    let mut out = images
        .into_iter()
        .map(to_value)
        .collect::<Result<Vec<_>, _>>()?;
    out.sort();
    Ok(Value::list(out))
}

/// `shape(art)`: the cells of ASCII art. Rows are split by `/` or by line breaks; every
/// character other than `.`, space and carriage return is a cell; columns count
/// characters from 0. Art with `|` is a stack of layers, read as `(layer, row, col)`.
/// The result is normalized, so leading blank rows or columns do not matter.
pub fn shape(art: &Value) -> Result<Value, BuiltinError> {
    let Some(s) = art.as_str() else {
        return Err(BuiltinError::at(
            0,
            format!("expected a string, found {}", art.kind().described()),
        )
        .with_help("draw the shape as a string, such as shape(\"OO/O.\")"));
    };
    let layers: Vec<&str> = s.split('|').collect();
    let mut out: Vec<Cell> = Vec::new();
    for (z, layer) in (0i128..).zip(&layers) {
        // Line breaks around a `|` are not rows, so that a `"""` block can put the `|`
        // on a line of its own and every layer still starts at row 0.
        let layer = if layers.len() > 1 {
            layer.trim_matches(['\n', '\r'])
        } else {
            layer
        };
        for (r, row) in (0i128..).zip(layer.split(['/', '\n'])) {
            for (c, ch) in (0i128..).zip(row.chars()) {
                // `\r` is skipped so that art pasted with Windows line ends reads the same.
                if !matches!(ch, '.' | ' ' | '\r') {
                    out.push(if layers.len() > 1 {
                        vec![z, r, c]
                    } else {
                        vec![r, c]
                    });
                }
            }
        }
    }
    if out.is_empty() {
        return Err(BuiltinError::at(0, format!("the shape {s:?} has no cells"))
            .with_help("every character other than `.` and space is a cell, and `/` starts a new row: shape(\"OO/O.\")"));
    }
    to_value(normalized(out))
}

/// `normalize(s)`: `s` moved so that the least value of each coordinate is 0.
pub fn normalize(s: &Value) -> Result<Value, BuiltinError> {
    to_value(normalized(cells(0, s)?.cells))
}

/// An axis argument of `rotate`/`reflect`: an integer in `0..dim`.
fn axis(args: &[Value], arg: usize, dim: usize, default: usize) -> Result<usize, BuiltinError> {
    let Some(v) = args.get(arg) else {
        return Ok(default);
    };
    match v.as_int() {
        Some(i) if usize::try_from(i).is_ok_and(|i| i < dim) => Ok(i as usize),
        _ => Err(BuiltinError::at(
            arg,
            format!(
                "expected an axis from 0 to {}, found {v:#}",
                dim.saturating_sub(1)
            ),
        )
        .with_help(
            "axes count the coordinates of a cell from 0: in (layer, row, col), 0 is the layer",
        )),
    }
}

/// `rotate(s)` / `rotate(s, i, j)`: `s` turned a quarter turn in the plane of axes `i`
/// and `j` (by default 0 and 1), axis `j` going to axis `i`: in the plane, clockwise, the
/// top row becoming the right column. Normalized.
pub fn rotate(args: &[Value]) -> Result<Value, BuiltinError> {
    let shape = cells(0, &args[0])?;
    let Some(dim) = shape.dim else {
        return Ok(Value::empty_set());
    };
    if dim < 2 {
        return Err(BuiltinError::at(
            0,
            format!(
                "expected a shape of at least 2 dimensions, found cells of {dim} coordinate{}",
                plural(dim)
            ),
        )
        .with_help("a turn needs a plane; a shape on a line only has `reflect`"));
    }
    let (i, j) = (axis(args, 1, dim, 0)?, axis(args, 2, dim, 1)?);
    if i == j {
        return Err(BuiltinError::at(
            2,
            format!("the two axes of a turn must differ, found {i} twice"),
        )
        .with_help("rotate(s, 0, 1) turns in the plane of the first two coordinates"));
    }
    let turned = shape.cells.into_iter().map(|mut c| {
        let (a, b) = (c[i], c[j]);
        c[i] = b;
        c[j] = -a;
        c
    });
    to_value(normalized(turned.collect()))
}

/// `reflect(s)` / `reflect(s, k)`: `s` mirrored along axis `k` (by default the last:
/// left to right in the plane), normalized.
pub fn reflect(args: &[Value]) -> Result<Value, BuiltinError> {
    let shape = cells(0, &args[0])?;
    let Some(dim) = shape.dim else {
        return Ok(Value::empty_set());
    };
    let k = axis(args, 1, dim, dim.saturating_sub(1))?;
    let mirrored = shape.cells.into_iter().map(|mut c| {
        if let Some(x) = c.get_mut(k) {
            *x = -*x;
        }
        c
    });
    to_value(normalized(mirrored.collect()))
}

/// The distinct normalized images of `s` under the symmetries of the cube of its
/// dimension (or its rotations only), sorted. `name` is the builtin, for errors.
fn orbit(s: &Value, rotations_only: bool, name: &str) -> Result<Value, BuiltinError> {
    let shape = cells(0, s)?;
    let dim = shape.dim.unwrap_or(0);
    if dim > group::MAX_DIMENSIONS {
        return Err(BuiltinError::at(
            0,
            format!(
                "a shape in {dim} dimensions has {} symmetries; `{name}` stops at {} dimensions",
                symmetry_count(dim),
                group::MAX_DIMENSIONS
            ),
        )
        .with_code(TOO_MANY_DIMENSIONS)
        .with_help("list the orientations you need with `rotate(s, i, j)` and `reflect(s, k)`"));
    }
    let mut seen = BTreeSet::new();
    for g in group::symmetries(dim, rotations_only) {
        seen.insert(normalized(shape.cells.iter().map(|c| g.apply(c)).collect()));
    }
    sorted_shapes(seen)
}

/// `2^d * d!` as text (it overflows nothing up to d = 20, and `d` here is small anyway).
fn symmetry_count(d: usize) -> String {
    (1..=d as u128)
        .try_fold(1u128 << d.min(100), |acc, k| acc.checked_mul(k))
        .map_or_else(|| "too many".to_string(), |n| n.to_string())
}

/// `rotations(s)`: the distinct normalized images of `s` under the rotations of the
/// square (4), the cube (24) or the `d`-cube (`2^d d! / 2`), sorted by value order.
pub fn rotations(s: &Value) -> Result<Value, BuiltinError> {
    orbit(s, true, "rotations")
}

/// `symmetries(s)`: as `rotations`, with the mirror images too (8 in the plane, 48 in
/// space, `2^d d!` in `d` dimensions).
pub fn symmetries(s: &Value) -> Result<Value, BuiltinError> {
    orbit(s, false, "symmetries")
}

/// `variants(s)`: the older name of `symmetries(s)`, kept with the same results: the
/// distinct normalized orientations of `s`, sorted. Sorting rather than generation order
/// makes the list independent of how `s` was drawn: `variants(rotate(s)) ==
/// variants(s)`, so option names such as `place[p, k, r, c]` do not change when a piece
/// is redrawn.
pub fn variants(s: &Value) -> Result<Value, BuiltinError> {
    orbit(s, false, "variants")
}

/// `shift(s, d1, ..., dn)` or `shift(s, (d1, ..., dn))`: every cell of `s` moved by the
/// offsets, one per coordinate (no normalization).
pub fn shift(args: &[Value]) -> Result<Value, BuiltinError> {
    let shape = cells(0, &args[0])?;
    let offsets: Vec<i128> = match &args[1..] {
        [Value::Tuple(t)] => t
            .iter()
            .map(|x| x.as_int().map(i128::from))
            .collect::<Option<_>>()
            .ok_or_else(|| {
                BuiltinError::at(
                    1,
                    format!("expected a tuple of integers, found {:#}", args[1]),
                )
            })?,
        rest => rest
            .iter()
            .enumerate()
            .map(|(k, v)| {
                v.as_int().map(i128::from).ok_or_else(|| {
                    BuiltinError::at(
                        k + 1,
                        format!("expected an integer, found {}", v.kind().described()),
                    )
                })
            })
            .collect::<Result<_, _>>()?,
    };
    if let Some(dim) = shape.dim
        && dim != offsets.len()
    {
        // The label goes on the first offset: the shape may be right and the offsets not.
        return Err(BuiltinError::at(1, format!(
            "the shape's cells have {dim} coordinate{}, but {} offset{} {} given",
            plural(dim),
            offsets.len(),
            plural(offsets.len()),
            if offsets.len() == 1 { "was" } else { "were" }
        ))
        .with_code(MIXED_DIMENSIONS)
        .with_help("give one offset per coordinate: shift(s, dr, dc) in the plane, shift(s, dz, dr, dc) or shift(s, (dz, dr, dc)) in space"));
    }
    to_value(
        shape
            .cells
            .into_iter()
            .map(|c| c.iter().zip(&offsets).map(|(x, d)| x + d).collect()),
    )
}

/// `size(s)`: the extent of the bounding box of `s` along each coordinate (`(rows,
/// cols)` in the plane); `(0, 0)` for the empty shape.
pub fn size(s: &Value) -> Result<Value, BuiltinError> {
    let shape = cells(0, s)?;
    let Some(dim) = shape.dim else {
        return Ok(Value::tuple(vec![Value::Int(0), Value::Int(0)]));
    };
    let mut out = Vec::with_capacity(dim);
    for k in 0..dim {
        let lo = shape.cells.iter().map(|c| c[k]).min().unwrap_or(0);
        let hi = shape.cells.iter().map(|c| c[k]).max().unwrap_or(0);
        out.push(
            fit(hi - lo + 1)
                .map_err(|_| BuiltinError::call("integer overflow in the size of a shape"))?,
        );
    }
    Ok(Value::tuple(out))
}

/// A cell argument: a tuple of integers.
fn cell_arg(v: &Value) -> Result<Cell, BuiltinError> {
    int_tuple(v).ok_or_else(|| {
        BuiltinError::at(
            0,
            format!("expected a cell (a tuple of integers), found {v:#}"),
        )
        .with_help("a cell is a tuple of integers, such as (2, 3)")
    })
}

fn pair_arg(v: &Value, what: &str) -> Result<Cell2, BuiltinError> {
    match int_tuple(v).as_deref() {
        Some(&[a, b]) => Ok((a, b)),
        _ => Err(
            BuiltinError::at(0, format!("expected a cell {what}, found {v:#}")).with_help(format!(
                "a cell of this lattice is a pair of integers {what}"
            )),
        ),
    }
}

/// `neighbors(cell)`: the `2d` cells that share a side (a face in space) with a cell of
/// the square, cubic or `d`-dimensional lattice.
pub fn neighbors(cell: &Value) -> Result<Value, BuiltinError> {
    let c = cell_arg(cell)?;
    let mut out = Vec::with_capacity(2 * c.len());
    for k in 0..c.len() {
        for d in [-1, 1] {
            let mut n = c.clone();
            n[k] += d;
            out.push(n);
        }
    }
    to_value(out)
}

/// The distinct images of a 2D lattice shape under the 6 powers of `turn` (and their
/// compositions with `mirror`, if given), each normalized by `norm`, sorted by value order.
fn lattice_orbit(
    cells: Vec<Cell2>,
    turn: fn(Cell2) -> Cell2,
    mirror: Option<fn(Cell2) -> Cell2>,
    norm: fn(Vec<Cell2>) -> Vec<Cell2>,
) -> Result<Value, BuiltinError> {
    let mut seen = BTreeSet::new();
    let starts = match mirror {
        Some(m) => vec![cells.iter().map(|&c| m(c)).collect(), cells],
        None => vec![cells],
    };
    for mut cur in starts {
        for _ in 0..6 {
            let n: Vec<Cell> = norm(cur.clone())
                .into_iter()
                .map(|(a, b)| vec![a, b])
                .collect();
            seen.insert(n);
            cur = cur.into_iter().map(turn).collect();
        }
    }
    sorted_shapes(seen)
}

const HEX: &str = "(q, r)";
const TRI: &str = "(row, col)";

/// `hex_rotations(s)`: the distinct images of a shape of hexagons (axial `(q, r)`)
/// under the 6 turns of the hexagonal lattice, normalized, sorted.
pub fn hex_rotations(s: &Value) -> Result<Value, BuiltinError> {
    lattice_orbit(
        cells2(0, s, HEX)?,
        lattice::hex_turn,
        None,
        lattice::hex_normalized,
    )
}

/// `hex_symmetries(s)`: as `hex_rotations`, with the mirror images (12 symmetries).
pub fn hex_symmetries(s: &Value) -> Result<Value, BuiltinError> {
    lattice_orbit(
        cells2(0, s, HEX)?,
        lattice::hex_turn,
        Some(lattice::hex_mirror),
        lattice::hex_normalized,
    )
}

/// `hex_neighbors(cell)`: the 6 hexagons around an axial `(q, r)`.
pub fn hex_neighbors(cell: &Value) -> Result<Value, BuiltinError> {
    pairs_to_value(lattice::hex_neighbors(pair_arg(cell, HEX)?))
}

/// `tri_rotations(s)`: the distinct images of a shape of triangles (`(row, col)`, up
/// when `row + col` is even) under the 6 turns of the triangular lattice, each moved to
/// least row 0 and least column 0 or 1 (keeping the way every triangle points), sorted.
pub fn tri_rotations(s: &Value) -> Result<Value, BuiltinError> {
    lattice_orbit(
        cells2(0, s, TRI)?,
        lattice::tri_turn,
        None,
        lattice::tri_normalized,
    )
}

/// `tri_symmetries(s)`: as `tri_rotations`, with the mirror images (12 symmetries).
pub fn tri_symmetries(s: &Value) -> Result<Value, BuiltinError> {
    lattice_orbit(
        cells2(0, s, TRI)?,
        lattice::tri_turn,
        Some(lattice::tri_mirror),
        lattice::tri_normalized,
    )
}

/// `tri_neighbors(cell)`: the 3 triangles that share a side with `(row, col)`.
pub fn tri_neighbors(cell: &Value) -> Result<Value, BuiltinError> {
    pairs_to_value(lattice::tri_neighbors(pair_arg(cell, TRI)?))
}

#[cfg(test)]
mod plane_tests;

#[cfg(test)]
mod any_dimension_tests;
