//! `examples/tetrahexes.dlx`: the seven tetrahexes in a 7x4 parallelogram of hexagons.
//! Its count is checked against a brute force written here, which generates the free
//! tetrahexes itself (growing shapes hexagon by hexagon) and knows nothing of the
//! model or of the library's hex symmetries.

#[path = "common/cli.rs"]
mod cli;

use std::collections::BTreeSet;

use cli::{dlxc, grids};

type Hex = (i32, i32);
type Shape = BTreeSet<Hex>;

const AROUND: [Hex; 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

fn normalized(s: &Shape) -> Shape {
    let q0 = s.iter().map(|h| h.0).min().unwrap_or(0);
    let r0 = s.iter().map(|h| h.1).min().unwrap_or(0);
    s.iter().map(|&(q, r)| (q - q0, r - r0)).collect()
}

/// The 12 images of a shape: 6 turns by 60 degrees, with and without the mirror.
fn images(s: &Shape) -> BTreeSet<Shape> {
    let mut out = BTreeSet::new();
    for mirror in [false, true] {
        let mut t: Shape = s
            .iter()
            .map(|&(q, r)| if mirror { (r, q) } else { (q, r) })
            .collect();
        for _ in 0..6 {
            out.insert(normalized(&t));
            t = t.iter().map(|&(q, r)| (-r, q + r)).collect();
        }
    }
    out
}

/// The free polyhexes of `n` hexagons, each as its least image.
fn free(n: usize) -> Vec<Shape> {
    let mut fixed: BTreeSet<Shape> = [Shape::from([(0, 0)])].into();
    for _ in 1..n {
        let mut grown = BTreeSet::new();
        for s in &fixed {
            for &(q, r) in s {
                for (dq, dr) in AROUND {
                    let mut t = s.clone();
                    if t.insert((q + dq, r + dr)) {
                        grown.insert(normalized(&t));
                    }
                }
            }
        }
        fixed = grown;
    }
    let classes: BTreeSet<Shape> = fixed
        .iter()
        .map(|s| images(s).into_iter().next().unwrap_or_default())
        .collect();
    classes.into_iter().collect()
}

/// Fillings of `board` by the pieces (each once, any image): the first empty hexagon
/// (by row, then column) is covered by the first hexagon of some image.
fn fillings(board: &Shape, pieces: &[BTreeSet<Shape>], filled: &mut Shape, used: u32) -> u64 {
    let Some(&(tq, tr)) = board
        .iter()
        .filter(|h| !filled.contains(h))
        .min_by_key(|&&(q, r)| (r, q))
    else {
        return 1;
    };
    let mut n = 0;
    for (i, imgs) in pieces.iter().enumerate() {
        if used >> i & 1 == 1 {
            continue;
        }
        for img in imgs {
            let &(aq, ar) = img.iter().min_by_key(|&&(q, r)| (r, q)).unwrap();
            let at: Vec<Hex> = img
                .iter()
                .map(|&(q, r)| (q - aq + tq, r - ar + tr))
                .collect();
            if at.iter().all(|h| board.contains(h) && !filled.contains(h)) {
                filled.extend(at.iter().copied());
                n += fillings(board, pieces, filled, used | 1 << i);
                at.iter().for_each(|h| {
                    filled.remove(h);
                });
            }
        }
    }
    n
}

#[test]
fn polyhexes_come_out_as_oeis_counts_them() {
    // A000228: free polyhexes with 1..5 cells.
    let counts: Vec<usize> = (1..=5).map(|n| free(n).len()).collect();
    assert_eq!(counts, [1, 1, 3, 7, 22]);
}

#[test]
fn tetrahexes_fill_the_parallelogram_as_the_brute_force_counts() {
    let board: Shape = (0..7).flat_map(|q| (0..4).map(move |r| (q, r))).collect();
    let pieces: Vec<BTreeSet<Shape>> = free(4).iter().map(images).collect();
    let brute = fillings(&board, &pieces, &mut Shape::new(), 0);
    assert_eq!(brute, 18);
    let run = dlxc(&["run", "examples/tetrahexes.dlx", "--count"]);
    assert_eq!((run.code, run.stdout.trim()), (0, "18"), "{}", run.stderr);
    // Every filling shown is a filling: 7 letters, 4 hexagons each, 28 in all.
    let run = dlxc(&["run", "examples/tetrahexes.dlx", "--all"]);
    let all = grids(&run.stdout);
    assert_eq!(all.len(), 18);
    for g in &all {
        let letters: String = g.concat();
        assert_eq!(letters.len(), 28);
        for p in "IJLOSCY".chars() {
            assert_eq!(letters.matches(p).count(), 4, "{g:?}");
        }
    }
}
