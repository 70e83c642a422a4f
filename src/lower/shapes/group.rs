//! The hyperoctahedral group: the symmetries of the `d`-dimensional cube, as signed
//! permutation matrices.
//!
//! A symmetry sends coordinate `i` of a cell to `sign[i] * x[perm[i]]`. There are
//! `2^d * d!` of them (8 in 2D, 48 in 3D, 384 in 4D); the rotations (orientation
//! preserving, determinant `+1`) are half of them for `d >= 1`. The determinant of a
//! signed permutation matrix is the sign of the permutation times the product of the
//! signs, which is how rotations are told from reflections without any arithmetic on
//! matrices.

/// The most dimensions [`symmetries`] accepts: `2^5 * 5! = 3840` images of a shape per
/// call. Six dimensions would be 46,080 images of every piece, too many to be what a
/// model means, and no puzzle the language targets needs more than four.
pub const MAX_DIMENSIONS: usize = 5;

/// One symmetry: coordinate `i` of the image is `sign[i] * x[perm[i]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedPermutation {
    /// Where each coordinate of the image is read from.
    pub perm: Vec<usize>,
    /// The sign each coordinate of the image is multiplied by (`1` or `-1`).
    pub sign: Vec<i8>,
}

impl SignedPermutation {
    /// The determinant of the matrix, `+1` for a rotation, `-1` for a reflection.
    pub fn determinant(&self) -> i8 {
        let mut det = self.sign.iter().product::<i8>();
        // The sign of the permutation: each cycle of length `k` has `k - 1` inversions' worth.
        let mut seen = vec![false; self.perm.len()];
        for start in 0..self.perm.len() {
            let mut len = 0;
            let mut i = start;
            while !seen[i] {
                seen[i] = true;
                i = self.perm[i];
                len += 1;
            }
            if len > 0 && len % 2 == 0 {
                det = -det;
            }
        }
        det
    }

    /// The image of one cell.
    pub fn apply(&self, cell: &[i128]) -> Vec<i128> {
        self.perm
            .iter()
            .zip(&self.sign)
            .map(|(&p, &s)| i128::from(s) * cell[p])
            .collect()
    }
}

/// Every symmetry of the `d`-cube (the identity first), or only the rotations when
/// `rotations_only`. The caller keeps `d` at most [`MAX_DIMENSIONS`].
pub fn symmetries(d: usize, rotations_only: bool) -> Vec<SignedPermutation> {
    let mut out = Vec::new();
    for perm in permutations(d) {
        for mask in 0u32..1 << d {
            let sign = (0..d)
                .map(|i| if mask >> i & 1 == 1 { -1 } else { 1 })
                .collect();
            let g = SignedPermutation {
                perm: perm.clone(),
                sign,
            };
            if !rotations_only || g.determinant() == 1 {
                out.push(g);
            }
        }
    }
    out
}

/// The permutations of `0..d` in lexicographic order (the identity first).
fn permutations(d: usize) -> Vec<Vec<usize>> {
    if d == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for rest in permutations(d - 1) {
        // Insert `d - 1` at every position of each permutation of `0..d - 1`.
        for at in 0..=rest.len() {
            let mut p = rest.clone();
            p.insert(at, d - 1);
            out.push(p);
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_sizes() {
        // |B_d| = 2^d d!; rotations are half of them from d = 1 on.
        let sizes: Vec<(usize, usize)> = (0..=5)
            .map(|d| (symmetries(d, false).len(), symmetries(d, true).len()))
            .collect();
        assert_eq!(
            sizes,
            [(1, 1), (2, 1), (8, 4), (48, 24), (384, 192), (3840, 1920)]
        );
        assert_eq!(symmetries(3, false)[0].perm, [0, 1, 2]);
        assert_eq!(symmetries(3, false)[0].sign, [1, 1, 1]);
    }

    #[test]
    fn elements_are_distinct_and_closed_under_composition() {
        for d in 1..=3 {
            for only in [false, true] {
                let g = symmetries(d, only);
                let basis: Vec<Vec<i128>> = (0..d)
                    .map(|i| (0..d).map(|j| i128::from(i == j)).collect())
                    .collect();
                let matrix = |s: &SignedPermutation| -> Vec<Vec<i128>> {
                    basis.iter().map(|e| s.apply(e)).collect()
                };
                let all: Vec<_> = g.iter().map(matrix).collect();
                let distinct: std::collections::BTreeSet<_> = all.iter().collect();
                assert_eq!(distinct.len(), g.len());
                // Applying two in a row gives an element of the set.
                for a in &g {
                    for b in &g {
                        let ab: Vec<Vec<i128>> =
                            basis.iter().map(|e| a.apply(&b.apply(e))).collect();
                        assert!(distinct.contains(&ab), "d = {d}");
                    }
                }
            }
        }
    }

    #[test]
    fn determinant_tells_rotations_from_reflections() {
        let swap = SignedPermutation {
            perm: vec![1, 0],
            sign: vec![1, 1],
        };
        assert_eq!(swap.determinant(), -1);
        let quarter_turn = SignedPermutation {
            perm: vec![1, 0],
            sign: vec![1, -1],
        };
        assert_eq!(quarter_turn.determinant(), 1);
        let three_cycle = SignedPermutation {
            perm: vec![1, 2, 0],
            sign: vec![1, 1, 1],
        };
        assert_eq!(three_cycle.determinant(), 1);
        assert_eq!(three_cycle.apply(&[1, 2, 3]), [2, 3, 1]);
    }
}
