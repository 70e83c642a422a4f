//! Counting up to symmetry (`symmetry` declarations, `--up-to-symmetry`): published
//! counts of the shipped pentomino model and of the queens, and random small packings
//! whose orbit count is checked against a brute-force count of orbits (every solution,
//! canonicalized by trying every element of the group).

#[path = "common/cli.rs"]
mod cli;
#[path = "common/rng.rs"]
mod rng;

use std::collections::BTreeSet;

use cli::{dlxc, temp_file};
use dlxc::lower::Instance;
use dlxc::problem::OptionId;
use dlxc::session::Front;
use dlxc::solve::{Flow, SearchConfig, Solver};
use dlxc::source::SourceFile;
use dlxc::symmetry::Group;
use dlxc::symmetry::orbits::Plan;
use rng::Rng;

const CENTRE: &str = "hole={(3,3),(3,4),(4,3),(4,4)}";

fn pentomino(args: &[&str]) -> cli::Run {
    let mut all = vec!["run", "examples/pentomino.dlx"];
    all.extend_from_slice(args);
    dlxc(&all)
}

/// Compiles a model with `-p` settings into its instance.
fn instance(name: &str, text: &str, params: &[String]) -> Instance {
    let front = Front::load(SourceFile::new(name, text)).unwrap_or_else(|d| {
        panic!("{name} does not check: {d:?}\n{text}");
    });
    let mut lowerer = front
        .lowerer(params, false, 1_000_000)
        .unwrap_or_else(|d| panic!("{name} does not lower: {d:?}\n{text}"));
    lowerer
        .instance(None)
        .unwrap_or_else(|f| panic!("{name}: {:?}\n{text}", f.diagnostics))
}

fn shipped(path: &str, params: &[&str]) -> Instance {
    let text = std::fs::read_to_string(path).unwrap();
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    instance(path, &text, &params)
}

#[test]
fn the_pentomino_boards_have_the_groups_of_their_shapes() {
    let order = |params: &[&str]| {
        let inst = shipped("examples/pentomino.dlx", params);
        inst.compiled.symmetry.as_ref().map(Group::order)
    };
    assert_eq!(order(&[]), Some(4), "a rectangle: two mirrors");
    let square = ["rows=8", "cols=8", CENTRE];
    assert_eq!(order(&square), Some(8), "a square with a centred hole");
    // A hole off every axis but the diagonal leaves the diagonal mirror only.
    assert_eq!(
        order(&["rows=8", "cols=8", "hole={(0,0),(1,1),(2,2),(3,3)}"]),
        Some(2)
    );
}

#[test]
fn pentomino_counts_up_to_symmetry_on_small_boards() {
    for (args, count) in [
        (vec!["-p", "rows=3", "-p", "cols=20"], 2),
        (vec!["-p", "rows=8", "-p", "cols=8", "-p", CENTRE], 65),
    ] {
        let mut a = args.clone();
        a.extend(["--up-to-symmetry", "--count"]);
        let r = pentomino(&a);
        assert_eq!(r.stdout.trim(), count.to_string(), "{args:?}: {}", r.stderr);
        assert_eq!(r.code, 0);
    }
}

/// Published: 2339, 1010 and 368 (Wikipedia, "Pentomino"); a few seconds each in a
/// release build, far longer in a debug one.
#[test]
#[cfg_attr(debug_assertions, ignore = "seconds in release, minutes in debug")]
fn pentomino_counts_up_to_symmetry_on_large_boards() {
    for (rows, cols, count) in [(6, 10, 2339), (5, 12, 1010), (4, 15, 368)] {
        let (r, c) = (format!("rows={rows}"), format!("cols={cols}"));
        let out = pentomino(&["-p", &r, "-p", &c, "--up-to-symmetry", "--count"]);
        assert_eq!(out.stdout.trim(), count.to_string(), "{rows}x{cols}");
        // The same on one thread, and listed one per line of a JSON summary.
        let one = pentomino(&[
            "-p",
            &r,
            "-p",
            &c,
            "--up-to-symmetry",
            "--count",
            "--threads",
            "1",
        ]);
        assert_eq!(one.stdout.trim(), count.to_string(), "{rows}x{cols}");
    }
}

#[test]
fn listing_up_to_symmetry_prints_one_solution_of_each_class() {
    let args = [
        "-p",
        "rows=8",
        "-p",
        "cols=8",
        "-p",
        CENTRE,
        "--up-to-symmetry",
    ];
    let mut all = args.to_vec();
    all.extend(["--all", "--json"]);
    let r = pentomino(&all);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 66, "65 solutions and a summary");
    let summary: serde_json::Value = serde_json::from_str(lines[65]).unwrap();
    assert_eq!(summary["solutions"], 65);
    assert_eq!(summary["up_to_symmetry"], true);
    assert_eq!(summary["symmetries"], 8);
    // No two listed solutions are images of each other: their grids, turned and
    // mirrored every way, are all different.
    let mut seen = BTreeSet::new();
    for line in &lines[..65] {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let grid: Vec<Vec<char>> = v["grid"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row.as_str().unwrap().chars().collect())
            .collect();
        let canonical = (0..8).map(|k| transform(&grid, k)).min().unwrap();
        assert!(seen.insert(canonical), "two listed solutions are alike");
    }
    // --limit stops at that many classes.
    let mut limited = args.to_vec();
    limited.extend(["--count", "--limit", "10"]);
    assert_eq!(pentomino(&limited).stdout.trim(), "10+");
}

/// A square grid under the k-th of its 8 symmetries.
fn transform(g: &[Vec<char>], k: usize) -> Vec<Vec<char>> {
    let n = g.len();
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let (a, b) = match k {
                        0 => (r, c),
                        1 => (c, n - 1 - r),
                        2 => (n - 1 - r, n - 1 - c),
                        3 => (n - 1 - c, r),
                        4 => (r, n - 1 - c),
                        5 => (n - 1 - r, c),
                        6 => (c, r),
                        _ => (n - 1 - c, n - 1 - r),
                    };
                    g[a][b]
                })
                .collect()
        })
        .collect()
}

/// The queens declare their board's 8 symmetries by what they do to ranks, files and
/// diagonals: OEIS A002562 counts the solutions up to them.
#[test]
fn queens_up_to_the_symmetries_of_the_board() {
    let mut model = std::fs::read_to_string("examples/queens.dlx").unwrap();
    model.push_str(
        "\nsymmetry rank[r] -> rank[n - 1 - r],\n\
         \x20        diag[d] -> anti[2 * n - 2 - d], anti[d] -> diag[2 * n - 2 - d]\n\
         symmetry rank[r] -> file[r], file[c] -> rank[c], anti[d] -> anti[2 * n - 2 - d]\n",
    );
    let path = temp_file("queens-symmetry.dlx", &model);
    let path = path.to_str().unwrap();
    for (n, count) in [(4, 1), (5, 2), (6, 1), (7, 6), (8, 12)] {
        let p = format!("n={n}");
        let r = dlxc(&["run", path, "-p", &p, "--up-to-symmetry", "--count"]);
        assert_eq!(r.stdout.trim(), count.to_string(), "n = {n}: {}", r.stderr);
    }
}

/// The Soma cube, written out with its own rotations (the shipped model may use
/// builtins): 688 options on 34 items, 11520 solutions, 240 up to the cube's 48
/// symmetries, two quarter turns and a mirror that swaps the two screw pieces.
const SOMA: &str = r#"let cube = {(x, y, z) for x in 0..3, y in 0..3, z in 0..3}
let pieces = {
    "V": {(0,0,0), (1,0,0), (0,1,0)},
    "L": {(0,0,0), (1,0,0), (2,0,0), (0,1,0)},
    "T": {(0,0,0), (1,0,0), (2,0,0), (1,1,0)},
    "Z": {(0,0,0), (1,0,0), (1,1,0), (2,1,0)},
    "A": {(0,0,0), (1,0,0), (0,1,0), (0,1,1)},
    "B": {(0,0,0), (1,0,0), (0,1,0), (1,0,1)},
    "P": {(0,0,0), (1,0,0), (0,1,0), (0,0,1)},
}
fn rz(p) = (p[1], -p[0], p[2])
fn rx(p) = (p[0], p[2], -p[1])
fn ry(p) = (-p[2], p[1], p[0])
fn spin(j, p) = if j == 0 then p else if j == 1 then rz(p) else if j == 2 then rz(rz(p)) else rz(rz(rz(p)))
fn face(i, p) = if i == 0 then p else if i == 1 then rx(p) else if i == 2 then rx(rx(p))
    else if i == 3 then rx(rx(rx(p))) else if i == 4 then ry(p) else ry(ry(ry(p)))
fn moved(s, a, b, c) = {(x - a, y - b, z - c) for (x, y, z) in s}
fn norm(s) = moved(s, min(x for (x, _, _) in s), min(y for (_, y, _) in s), min(z for (_, _, z) in s))
fn turns(s) = {norm({face(i, spin(j, p)) for p in s}) for i in 0..6, j in 0..4}

item cell[x, y, z] for (x, y, z) in cube
item piece[p] for (p, _) in pieces
option place[p, v, dx, dy, dz] for (p, s) in pieces, v in turns(s), dx in 0..3, dy in 0..3, dz in 0..3
    let at = moved(v, -dx, -dy, -dz)
    where at <= cube
    covers piece[p], cell[x, y, z] for (x, y, z) in at

symmetry cell[x, y, z] -> cell[y, 2 - x, z]
symmetry cell[x, y, z] -> cell[x, z, 2 - y]
symmetry cell[x, y, z] -> cell[2 - x, y, z], piece["A"] -> piece["B"], piece["B"] -> piece["A"]
"#;

#[test]
fn the_soma_cube_has_240_solutions_up_to_its_48_symmetries() {
    let inst = instance("soma.dlx", SOMA, &[]);
    assert_eq!(inst.compiled.problem.options.len(), 688);
    assert_eq!(inst.compiled.symmetry.as_ref().map(Group::order), Some(48));
    let path = temp_file("soma.dlx", SOMA);
    let path = path.to_str().unwrap();
    let r = dlxc(&["run", path, "--up-to-symmetry", "--count", "--json"]);
    let summary: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(summary["solutions"], 240, "{}", r.stderr);
    assert_eq!(summary["symmetries"], 48);
}

/// Every solution of the instance, as sorted option lists.
fn all_solutions(inst: &Instance) -> Vec<Vec<OptionId>> {
    let mut solver = Solver::new(&inst.compiled.problem).unwrap();
    let mut out = Vec::new();
    solver
        .search(&inst.forced, &SearchConfig::default(), &mut |s| {
            let mut v = s.to_vec();
            v.sort_unstable();
            out.push(v);
            Flow::Continue
        })
        .unwrap();
    out
}

/// The number of orbits, by brute force: each solution's least image under the
/// elements that keep the forced options, counted once.
fn brute_force_orbits(inst: &Instance, group: &Group) -> usize {
    let mut forced = inst.forced.clone();
    forced.sort_unstable();
    let mut image = Vec::new();
    let keeps: Vec<usize> = (0..group.order())
        .filter(|&e| {
            group.image_of_set(e, &forced, &mut image);
            image == forced
        })
        .collect();
    let mut classes = BTreeSet::new();
    for s in all_solutions(inst) {
        let least = keeps
            .iter()
            .map(|&e| {
                let mut im = Vec::new();
                group.image_of_set(e, &s, &mut im);
                im
            })
            .min()
            .unwrap();
        classes.insert(least);
    }
    classes.len()
}

/// The orbits the plan keeps, on one thread.
fn planned_orbits(inst: &Instance, group: &Group) -> usize {
    let plan = Plan::new(&inst.compiled.problem, group, &inst.forced);
    let mut solver = Solver::new(&plan.problem).unwrap();
    let mut kept = 0;
    let mut ids = Vec::new();
    solver
        .search(&plan.forced, &SearchConfig::default(), &mut |s| {
            kept += usize::from(plan.keep(s, &mut ids));
            Flow::Continue
        })
        .unwrap();
    kept
}

const SHAPES: [&str; 8] = [
    "O", "OO", "OOO", "OO/O.", "OOOO", "OO/OO", "OOO/.O.", "OO./.OO",
];

/// A random packing of small polyominoes into a small board with holes, with a random
/// choice of the board's symmetries (each guarded, as in the pentomino model, so that
/// it moves nothing when the holes do not have it), sometimes a swap of two pieces of
/// one shape, and sometimes a forced placement.
fn random_model(rng: &mut Rng) -> String {
    let rows = 1 + rng.below(4);
    let cols = 1 + rng.below(4);
    let mut holes = BTreeSet::new();
    if rng.below(2) == 0 {
        for _ in 0..=rng.below(2) {
            holes.insert((rng.below(rows), rng.below(cols)));
        }
    }
    let holes: Vec<String> = holes.iter().map(|(r, c)| format!("({r}, {c})")).collect();
    // Pieces of the board's area, so that most boards have solutions.
    let sizes = [1, 2, 3, 3, 4, 4, 4, 4];
    let mut left = (rows * cols) as usize - holes.len();
    let mut pieces = Vec::new();
    while left > 0 {
        let fitting: Vec<usize> = (0..SHAPES.len()).filter(|&k| sizes[k] <= left).collect();
        let k = fitting[rng.below(fitting.len() as u64) as usize];
        pieces.push(k);
        left -= sizes[k];
    }
    let list: Vec<String> = pieces
        .iter()
        .enumerate()
        .map(|(i, &k)| format!("\"p{i}\": shape(\"{}\")", SHAPES[k]))
        .collect();
    let mut m = format!(
        "param rows = {rows}\nparam cols = {cols}\n\
         let board = {{(r, c) for r in 0..rows, c in 0..cols}} - {{{}}}\n\
         let pieces = {{{}}}\n\
         item cell[r, c] for (r, c) in board\n\
         secondary item piece[p] for (p, _) in pieces\n\
         option place[p, k, r, c] for (p, s) in pieces, (k, v) in enumerate(variants(s)),\n\
         \x20   r in 0..rows, c in 0..cols\n\
         \x20   let at = shift(v, r, c)\n\
         \x20   where at <= board\n\
         \x20   covers piece[p], cell[x, y] for (x, y) in at\n\
         let across = {{(r, cols - 1 - c) for (r, c) in board}} == board\n\
         let down = {{(rows - 1 - r, c) for (r, c) in board}} == board\n\
         let diagonal = {{(c, r) for (r, c) in board}} == board\n\
         let turn = {{(c, rows - 1 - r) for (r, c) in board}} == board\n",
        holes.join(", "),
        list.join(", ")
    );
    // Pieces are primary (each used once) but, one time in four, secondary: used at
    // most once, so other pieces fill in.
    if rng.below(4) != 0 {
        m = m.replace("secondary item piece", "item piece");
    }
    let generators = [
        "symmetry cell[r, c] -> cell[r, cols - 1 - c] where across",
        "symmetry cell[r, c] -> cell[rows - 1 - r, c] where down",
        "symmetry cell[r, c] -> cell[c, r] where diagonal",
        "symmetry cell[r, c] -> cell[c, rows - 1 - r] where turn",
    ];
    for g in generators {
        if rng.below(2) == 0 {
            m.push_str(g);
            m.push('\n');
        }
    }
    // Two pieces of one shape are interchangeable.
    for i in 0..pieces.len() {
        if let Some(j) = (i + 1..pieces.len()).find(|&j| pieces[j] == pieces[i])
            && rng.below(2) == 0
        {
            m.push_str(&format!(
                "symmetry piece[\"p{i}\"] -> piece[\"p{j}\"], piece[\"p{j}\"] -> piece[\"p{i}\"]\n"
            ));
            break;
        }
    }
    if rng.below(4) == 0 {
        m.push_str("force place[\"p0\", 0, 0, 0] where (0, 0) in board\n");
    }
    m
}

#[test]
fn random_packings_count_as_many_orbits_as_brute_force() {
    let mut rng = Rng(0x5EED_0F5A_11E5);
    let (mut checked, mut nontrivial) = (0, 0);
    // Plans that restrict a pivot item, and plans that check every solution.
    let (mut pivoted, mut canonical) = (0, 0);
    for case in 0..300 {
        let model = random_model(&mut rng);
        let front = Front::load(SourceFile::new("random.dlx", model.as_str())).unwrap();
        // A forced placement that does not exist, or a cell no option covers, is no
        // test of symmetry; a symmetry the lowering refuses is a failure.
        let lowered = front
            .lowerer(&[], false, 1_000_000)
            .and_then(|mut l| l.instance(None).map_err(|f| f.diagnostics));
        let inst = match lowered {
            Ok(inst) => inst,
            Err(d) => {
                let codes: Vec<String> = d
                    .iter()
                    .filter_map(|e| e.code().map(|c| c.to_string()))
                    .collect();
                assert!(
                    !codes.iter().any(|c| ["E0410", "E0411", "E0412", "E0506"]
                        .iter()
                        .any(|s| c.ends_with(s))),
                    "case {case}: {codes:?}\n{model}"
                );
                continue;
            }
        };
        let Some(group) = inst.compiled.symmetry.clone() else {
            continue;
        };
        let expected = brute_force_orbits(&inst, &group);
        let got = planned_orbits(&inst, &group);
        assert_eq!(got, expected, "case {case}:\n{model}");
        checked += 1;
        if group.order() > 1 && expected > 0 {
            nontrivial += 1;
            match Plan::new(&inst.compiled.problem, &group, &inst.forced).pivot {
                Some(_) => pivoted += 1,
                None => canonical += 1,
            }
        }
    }
    assert!(
        checked > 200 && nontrivial > 80 && pivoted > 40 && canonical > 15,
        "{checked} checked, {nontrivial} with a group ({pivoted} pivoted, {canonical} canonical)"
    );
}
