//! The polycube models: the Soma cube and the Slothouber-Graatsma puzzle, with counts
//! checked against published values and against a brute-force search written here,
//! which knows nothing of the models or of the library's symmetry groups.

#[path = "common/cli.rs"]
mod cli;

use std::collections::{BTreeMap, BTreeSet};

use cli::{dlxc, grids};

type Cell = [i32; 3];
type Cells = BTreeSet<Cell>;

/// The 48 symmetries of the cube, as 3x3 matrices: every permutation matrix with every
/// choice of signs. Each comes with its determinant (+1 for a rotation), computed by the
/// cofactor formula.
fn cube_symmetries() -> Vec<([[i32; 3]; 3], i32)> {
    let perms = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = Vec::new();
    for p in perms {
        for signs in 0..8 {
            let mut m = [[0; 3]; 3];
            for i in 0..3 {
                m[i][p[i]] = if signs >> i & 1 == 1 { -1 } else { 1 };
            }
            let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
            out.push((m, det));
        }
    }
    out
}

fn apply(m: &[[i32; 3]; 3], c: Cell) -> Cell {
    let mut out = [0; 3];
    for i in 0..3 {
        out[i] = (0..3).map(|j| m[i][j] * c[j]).sum();
    }
    out
}

fn normalized(cells: &Cells) -> Cells {
    let least = |k: usize| cells.iter().map(|c| c[k]).min().unwrap_or(0);
    let (a, b, c) = (least(0), least(1), least(2));
    cells
        .iter()
        .map(|x| [x[0] - a, x[1] - b, x[2] - c])
        .collect()
}

/// The distinct normalized images of a piece under the rotations of the cube.
fn orientations(piece: &Cells) -> Vec<Cells> {
    let all: BTreeSet<Cells> = cube_symmetries()
        .iter()
        .filter(|(_, det)| *det == 1)
        .map(|(m, _)| normalized(&piece.iter().map(|&c| apply(m, c)).collect()))
        .collect();
    all.into_iter().collect()
}

/// Cells of a piece written as layers of rows: `layers[x][y]` has a character per `z`.
fn piece(layers: &[&[&str]]) -> Cells {
    let mut out = Cells::new();
    for (x, layer) in layers.iter().enumerate() {
        for (y, row) in layer.iter().enumerate() {
            for (z, ch) in row.chars().enumerate() {
                if ch == 'O' {
                    out.insert([x as i32, y as i32, z as i32]);
                }
            }
        }
    }
    out
}

/// The Soma pieces, drawn independently of the model's art.
fn soma_pieces() -> BTreeMap<char, Cells> {
    [
        ('V', piece(&[&["OO", "O."]])),
        ('L', piece(&[&["OOO", "O.."]])),
        ('T', piece(&[&["OOO", ".O."]])),
        ('Z', piece(&[&["OO.", ".OO"]])),
        ('A', piece(&[&["OO", "O."], &[".O", ".."]])),
        ('B', piece(&[&["OO", "O."], &["..", "O."]])),
        ('P', piece(&[&["OO", "O."], &["O.", ".."]])),
    ]
    .into_iter()
    .collect()
}

fn full_cube() -> Cells {
    let mut out = Cells::new();
    for x in 0..3 {
        for y in 0..3 {
            for z in 0..3 {
                out.insert([x, y, z]);
            }
        }
    }
    out
}

/// A cell of the cube as a bit: `x * 9 + y * 3 + z`, so the least bit is the least
/// cell in `(x, y, z)` order.
fn bit(c: Cell) -> Option<u32> {
    c.iter()
        .all(|k| (0..3).contains(k))
        .then(|| 1 << (c[0] * 9 + c[1] * 3 + c[2]))
}

/// A filling: the places taken, each a piece's name and its cells as bits.
type Filling = Vec<(char, u32)>;

/// Every filling of the cube by pieces with these orientations, `count` of each name
/// (alike pieces are not told apart, so each set of places is found once): the least
/// empty cell gets every orientation of every piece left whose least cell lands on it.
fn fillings(pieces: &[(char, usize, Vec<Cells>)]) -> Vec<Filling> {
    // fits[k][i]: the places of piece k in the cube whose least cell is cell i.
    let mut fits = vec![vec![Vec::new(); 27]; pieces.len()];
    for (k, (_, _, shapes)) in pieces.iter().enumerate() {
        for shape in shapes {
            for start in full_cube() {
                let mask = shape
                    .iter()
                    .map(|c| bit([start[0] + c[0], start[1] + c[1], start[2] + c[2]]))
                    .try_fold(0, |m, b| b.map(|b| m | b));
                if let Some(m) = mask {
                    fits[k][m.trailing_zeros() as usize].push(m);
                }
            }
        }
    }
    fn go(
        filled: u32,
        left: &mut Vec<usize>,
        fits: &[Vec<Vec<u32>>],
        names: &[char],
        at: &mut Filling,
        out: &mut Vec<Filling>,
    ) {
        if filled == (1 << 27) - 1 {
            out.push(at.clone());
            return;
        }
        let first = (!filled).trailing_zeros() as usize;
        for k in 0..fits.len() {
            if left[k] == 0 {
                continue;
            }
            for &m in &fits[k][first] {
                if m & filled == 0 {
                    left[k] -= 1;
                    at.push((names[k], m));
                    go(filled | m, left, fits, names, at, out);
                    at.pop();
                    left[k] += 1;
                }
            }
        }
    }
    let names: Vec<char> = pieces.iter().map(|p| p.0).collect();
    let mut out = Vec::new();
    let mut left = pieces.iter().map(|p| p.1).collect();
    go(0, &mut left, &fits, &names, &mut Vec::new(), &mut out);
    out
}

/// The number of classes of fillings under the 48 symmetries of the cube, a filling
/// taken as its set of places; a mirror turns each piece into its mirror image, which
/// `mirror` names (the Soma screws swap).
fn classes(fillings: &[Filling], mirror: impl Fn(char) -> char) -> usize {
    // Each symmetry as a map of bits, about the centre of the cube.
    let maps: Vec<([u32; 27], bool)> = cube_symmetries()
        .iter()
        .map(|(m, det)| {
            let mut to = [0; 27];
            for c in full_cube() {
                let moved = apply(m, [c[0] - 1, c[1] - 1, c[2] - 1]);
                let i = bit(c).unwrap().trailing_zeros() as usize;
                to[i] = bit([moved[0] + 1, moved[1] + 1, moved[2] + 1]).unwrap();
            }
            (to, *det == 1)
        })
        .collect();
    let canonical: BTreeSet<Filling> = fillings
        .iter()
        .map(|f| {
            maps.iter()
                .map(|(to, rotation)| {
                    let mut img: Filling = f
                        .iter()
                        .map(|&(p, mut m)| {
                            let mut out = 0;
                            while m != 0 {
                                out |= to[m.trailing_zeros() as usize];
                                m &= m - 1;
                            }
                            (if *rotation { p } else { mirror(p) }, out)
                        })
                        .collect();
                    img.sort();
                    img
                })
                .min()
                .unwrap()
        })
        .collect();
    canonical.len()
}

/// The cells of a printed solution: three layers side by side, separated by a space.
fn layers(grid: &[String]) -> BTreeMap<Cell, char> {
    let mut out = BTreeMap::new();
    for (y, row) in grid.iter().enumerate() {
        for (x, layer) in row.split(' ').enumerate() {
            for (z, ch) in layer.chars().enumerate() {
                out.insert([x as i32, y as i32, z as i32], ch);
            }
        }
    }
    out
}

#[test]
fn soma_orientation_counts() {
    let counts: BTreeMap<char, usize> = soma_pieces()
        .iter()
        .map(|(&p, s)| (p, orientations(s).len()))
        .collect();
    let expected = [
        ('A', 12),
        ('B', 12),
        ('L', 24),
        ('P', 8),
        ('T', 12),
        ('V', 12),
        ('Z', 12),
    ];
    assert_eq!(counts, expected.into_iter().collect());
}

/// 11520 fillings (Conway and Guy; Berlekamp, Conway and Guy, "Winning Ways", ch. 24:
/// 240 up to the symmetries of the cube, none of them symmetric, so 240 x 48), found by
/// the brute force here and by the model.
#[test]
fn soma_has_11520_fillings_240_up_to_symmetry() {
    let pieces: Vec<(char, usize, Vec<Cells>)> = soma_pieces()
        .iter()
        .map(|(&p, s)| (p, 1, orientations(s)))
        .collect();
    let all = fillings(&pieces);
    assert_eq!(all.len(), 11520);
    let swap = |p: char| match p {
        'A' => 'B',
        'B' => 'A',
        other => other,
    };
    assert_eq!(classes(&all, swap), 240);
    let r = dlxc(&["run", "examples/soma.dlx", "--count"]);
    assert_eq!(r.stdout.trim(), "11520", "{}", r.stderr);
    // The model declares the cube's symmetries (the mirror swapping the screws).
    let r = dlxc(&["run", "examples/soma.dlx", "--count", "--up-to-symmetry"]);
    assert_eq!(r.stdout.trim(), "240", "{}", r.stderr);
}

#[test]
fn soma_printed_fillings_are_packings_of_the_pieces() {
    let r = dlxc(&["run", "examples/soma.dlx", "--limit", "20"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let blocks = grids(&r.stdout);
    assert_eq!(blocks.len(), 20);
    let pieces = soma_pieces();
    for g in &blocks {
        let cells = layers(g);
        assert_eq!(
            cells.keys().copied().collect::<Cells>(),
            full_cube(),
            "{g:?}"
        );
        for (&p, shape) in &pieces {
            let placed: Cells = cells
                .iter()
                .filter(|(_, q)| **q == p)
                .map(|(c, _)| *c)
                .collect();
            // A turned piece, never a mirrored one: the screws keep their hand.
            assert!(
                orientations(shape).contains(&normalized(&placed)),
                "piece {p} in {g:?}"
            );
        }
    }
}

/// The Slothouber-Graatsma puzzle: six 1x2x2 blocks (alike) and three unit cubes. The
/// published answer is one solution up to the symmetries of the cube; the brute force
/// finds 8 fillings in one class (so 6 symmetries keep the solution), the unit cubes on
/// a space diagonal, and the model counts the same 8.
#[test]
fn slothouber_graatsma_has_one_solution_up_to_symmetry() {
    let pieces = [
        ('#', 6, orientations(&piece(&[&["OO", "OO"]]))),
        ('o', 3, orientations(&piece(&[&["O"]]))),
    ];
    let all = fillings(&pieces);
    assert_eq!(all.len(), 8);
    assert_eq!(classes(&all, |p| p), 1);
    // The 6 symmetries that keep a solution: the 3 turns about the diagonal of its unit
    // cubes (the identity among them), each also composed with the point reflection
    // through the centre of the cube.
    let kept: Vec<([[i32; 3]; 3], i32)> = cube_symmetries()
        .into_iter()
        .filter(|(m, _)| {
            let moved = all[0].iter().map(|&(p, cells)| {
                let img = full_cube()
                    .into_iter()
                    .filter(|&c| cells & bit(c).unwrap() != 0)
                    .map(|c| {
                        let d = apply(m, [c[0] - 1, c[1] - 1, c[2] - 1]);
                        bit([d[0] + 1, d[1] + 1, d[2] + 1]).unwrap()
                    })
                    .fold(0, |a, b| a | b);
                (p, img)
            });
            let a: BTreeSet<(char, u32)> = moved.collect();
            a == all[0].iter().copied().collect()
        })
        .collect();
    let turns: BTreeSet<[[i32; 3]; 3]> = kept.iter().filter(|k| k.1 == 1).map(|k| k.0).collect();
    let others: BTreeSet<[[i32; 3]; 3]> = kept.iter().filter(|k| k.1 == -1).map(|k| k.0).collect();
    assert_eq!(turns.len(), 3);
    let inverted: BTreeSet<[[i32; 3]; 3]> =
        turns.iter().map(|m| m.map(|row| row.map(|x| -x))).collect();
    assert_eq!(others, inverted);
    for f in &all {
        let mut units: Vec<Cell> = full_cube()
            .into_iter()
            .filter(|&c| f.iter().any(|&(p, m)| p == 'o' && m == bit(c).unwrap()))
            .collect();
        units.sort();
        assert!(units.contains(&[1, 1, 1]), "{units:?}");
        let (a, b) = (units[0], units[2]);
        assert!((0..3).all(|k| (a[k] - b[k]).abs() == 2), "{units:?}");
    }
    let r = dlxc(&["run", "examples/slothouber-graatsma.dlx", "--count"]);
    assert_eq!(r.stdout.trim(), "8", "{}", r.stderr);
}
