//! Cells of the hexagonal and triangular lattices, as integer pairs.
//!
//! **Hexagons** use axial coordinates `(q, r)`: the six neighbours of `(q, r)` are
//! `(q ± 1, r)`, `(q, r ± 1)`, `(q + 1, r - 1)` and `(q - 1, r + 1)`. A turn by 60
//! degrees is `(q, r) -> (-r, q + r)` (in cube coordinates `x = q, z = r, y = -q - r`
//! it is `(x, y, z) -> (-z, -x, -y)`), the mirror is `(q, r) -> (r, q)`, and any
//! `(dq, dr)` is a translation of the lattice, so hex shapes normalize like square ones.
//!
//! **Triangles** are `(row, col)`: row `r` is a strip of triangles side by side, and
//! the triangle `(r, c)` points up when `r + c` is even, down when it is odd. Its
//! neighbours are `(r, c ± 1)` and, across its horizontal side, `(r + 1, c)` if it
//! points up or `(r - 1, c)` if it points down. A translation of the lattice must keep
//! the parity of `r + c`, so a triangle shape is normalized to least row 0 and least
//! column 0 or 1, whichever keeps its triangles pointing the same way.
//!
//! The turns of triangles go through their centroids: with `X = c` and `Y = 3r + 2`
//! (up) or `3r + 1` (down), both integers, the centroid of a triangle is `(X/2, Y/3)` in
//! units of a side and of a row's height, a turn by 60 degrees about the lattice point
//! `(0, 0)` is `(X, Y) -> ((X - Y) / 2, (3X + Y) / 2)` (exact: `X - Y` is even for every
//! triangle), and the mirror is `X -> -X`.

/// A cell of a 2D lattice, widened so that transforms cannot overflow.
pub type Cell2 = (i128, i128);

/// The hex cell turned 60 degrees about `(0, 0)`.
pub fn hex_turn((q, r): Cell2) -> Cell2 {
    (-r, q + r)
}

/// The hex cell mirrored across the line `q == r`.
pub fn hex_mirror((q, r): Cell2) -> Cell2 {
    (r, q)
}

/// The six neighbours of a hex cell, from `(q + 1, r)` in the order [`hex_turn`] moves
/// them round `(0, 0)`.
pub fn hex_neighbors((q, r): Cell2) -> [Cell2; 6] {
    [
        (q + 1, r),
        (q, r + 1),
        (q - 1, r + 1),
        (q - 1, r),
        (q, r - 1),
        (q + 1, r - 1),
    ]
}

/// Whether the triangle `(r, c)` points up.
pub fn tri_up((r, c): Cell2) -> bool {
    (r + c).rem_euclid(2) == 0
}

/// The triangle turned 60 degrees about the lattice point at the apex of `(0, 0)`.
pub fn tri_turn(cell: Cell2) -> Cell2 {
    let (r, c) = cell;
    let (x, y) = (c, 3 * r + if tri_up(cell) { 2 } else { 1 });
    let (x2, y2) = ((x - y) / 2, (3 * x + y) / 2);
    // `y2 % 3` is 2 for a triangle pointing up and 1 for one pointing down (never 0:
    // no centroid lies on the line between two rows); the parity of the result's
    // `r + c` agrees, as the unit tests check.
    (y2.div_euclid(3), x2)
}

/// The triangle mirrored left to right across the vertical line `c == 0`.
pub fn tri_mirror((r, c): Cell2) -> Cell2 {
    (r, -c)
}

/// The three neighbours of a triangle: left, right, and across its horizontal side.
pub fn tri_neighbors(cell: Cell2) -> [Cell2; 3] {
    let (r, c) = cell;
    let across = if tri_up(cell) { r + 1 } else { r - 1 };
    [(r, c - 1), (r, c + 1), (across, c)]
}

/// Triangles moved to least row 0 and least column 0 or 1, by a translation of the
/// lattice (one that keeps the parity of `r + c`), sorted.
pub fn tri_normalized(mut cells: Vec<Cell2>) -> Vec<Cell2> {
    let r0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let c0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let (dr, dc) = (-r0, -c0 + (r0 + c0).rem_euclid(2));
    for cell in &mut cells {
        *cell = (cell.0 + dr, cell.1 + dc);
    }
    cells.sort_unstable();
    cells
}

/// Hexagons moved to least `q` 0 and least `r` 0, sorted.
pub fn hex_normalized(mut cells: Vec<Cell2>) -> Vec<Cell2> {
    let q0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let r0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    for cell in &mut cells {
        *cell = (cell.0 - q0, cell.1 - r0);
    }
    cells.sort_unstable();
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    fn power(f: fn(Cell2) -> Cell2, n: usize, mut x: Cell2) -> Cell2 {
        for _ in 0..n {
            x = f(x);
        }
        x
    }

    #[test]
    fn hex_turn_has_order_six_and_cycles_the_neighbours() {
        let ring = hex_neighbors((0, 0));
        for k in 0..6 {
            assert_eq!(hex_turn(ring[k]), ring[(k + 1) % 6]);
        }
        for cell in [(0, 0), (3, -2), (-5, 7)] {
            assert_eq!(power(hex_turn, 6, cell), cell);
            if cell != (0, 0) {
                assert_ne!(power(hex_turn, 3, cell), cell);
                assert_ne!(power(hex_turn, 2, cell), cell);
            }
            assert_eq!(hex_mirror(hex_mirror(cell)), cell);
        }
    }

    #[test]
    fn tri_turn_keeps_triangles_and_adjacency() {
        let cells: Vec<Cell2> = (-4..4).flat_map(|r| (-4..4).map(move |c| (r, c))).collect();
        for &cell in &cells {
            let t = tri_turn(cell);
            // A turn by 60 degrees flips the direction a triangle points.
            assert_ne!(tri_up(t), tri_up(cell), "{cell:?} -> {t:?}");
            assert_eq!(tri_up(tri_mirror(cell)), tri_up(cell));
            assert_eq!(power(tri_turn, 6, cell), cell);
            assert_ne!(power(tri_turn, 2, cell), cell);
            assert_ne!(power(tri_turn, 3, cell), cell);
            // Neighbours stay neighbours.
            for n in tri_neighbors(cell) {
                assert!(tri_neighbors(t).contains(&tri_turn(n)));
                assert!(tri_neighbors(tri_mirror(cell)).contains(&tri_mirror(n)));
                assert!(tri_neighbors(n).contains(&cell));
            }
        }
        // The six triangles around the lattice point (0, 0) go round it.
        let around = [(0, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)];
        for k in 0..6 {
            assert_eq!(tri_turn(around[k]), around[(k + 1) % 6]);
        }
    }

    #[test]
    fn tri_normalization_keeps_the_direction_of_every_triangle() {
        for shape in [vec![(3, 3)], vec![(3, 4)], vec![(-1, 2), (-1, 3), (0, 3)]] {
            let n = tri_normalized(shape.clone());
            assert_eq!(n.iter().map(|c| c.0).min(), Some(0));
            assert!(n.iter().map(|c| c.1).min().unwrap() <= 1);
            let mut sorted = shape.clone();
            sorted.sort();
            for (a, b) in sorted.iter().zip(&n) {
                assert_eq!(tri_up(*a), tri_up(*b));
            }
        }
        assert_eq!(tri_normalized(vec![(3, 4)]), [(0, 1)]);
        assert_eq!(tri_normalized(vec![(3, 3)]), [(0, 0)]);
    }
}
