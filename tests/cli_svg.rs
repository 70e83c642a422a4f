//! `dlxc run --svg FILE` and `--svg-dir DIR` end to end, on the SVG text (the pixels,
//! as a browser draws them, are checked by `tests/svg/check.sh`, which needs Chromium).

#[path = "common/cli.rs"]
mod cli;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use cli::dlxc;

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dlxc-svg-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The `(data-text, fill)` of every cell polygon of a picture, and its number of
/// labels.
fn cells(path: &Path) -> (Vec<(String, String)>, usize) {
    let svg = std::fs::read_to_string(path).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    let attr = |line: &str, name: &str| {
        let at = line.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        line[at..at + line[at..].find('"').unwrap()].to_string()
    };
    let polys = svg
        .lines()
        .filter(|l| l.starts_with("<polygon "))
        .map(|l| (attr(l, "data-text"), attr(l, "fill")))
        .collect();
    (polys, svg.matches("<text ").count())
}

fn arg(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn a_pentomino_packing_is_sixty_squares_in_twelve_colors() {
    let dir = scratch("pentomino");
    let file = dir.join("p.svg");
    let r = dlxc(&["run", "examples/pentomino.dlx", "--svg", &arg(&file)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (polys, labels) = cells(&file);
    assert_eq!(polys.len(), 60);
    assert_eq!(labels, 60);
    // One color per letter, the same for every cell of that letter.
    let letters: BTreeSet<&str> = polys.iter().map(|(t, _)| t.as_str()).collect();
    let pairs: BTreeSet<(&str, &str)> = polys
        .iter()
        .map(|(t, f)| (t.as_str(), f.as_str()))
        .collect();
    let fills: BTreeSet<&str> = polys.iter().map(|(_, f)| f.as_str()).collect();
    assert_eq!((letters.len(), pairs.len(), fills.len()), (12, 12, 12));
    // The text printed is the same with and without a picture.
    let plain = dlxc(&["run", "examples/pentomino.dlx"]);
    assert_eq!(r.stdout, plain.stdout);
    // --svg-plain: no labels.
    let r = dlxc(&[
        "run",
        "examples/pentomino.dlx",
        "--svg",
        &arg(&file),
        "--svg-plain",
    ]);
    assert_eq!(r.code, 0);
    assert_eq!(cells(&file).1, 0);
}

#[test]
fn svg_dir_draws_every_solution_shown_and_letters_keep_their_colors() {
    let dir = scratch("dir");
    let r = dlxc(&[
        "run",
        "examples/soma.dlx",
        "--limit",
        "4",
        "--svg-dir",
        &arg(&dir.join("soma")),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut colors: BTreeSet<(String, String)> = BTreeSet::new();
    for k in 1..=4 {
        let (polys, _) = cells(&dir.join(format!("soma/solution-{k}.svg")));
        assert_eq!(polys.len(), 27, "a cube of 27 cells, drawn as three layers");
        colors.extend(polys);
    }
    assert!(!dir.join("soma/solution-5.svg").exists());
    assert_eq!(
        colors.len(),
        7,
        "seven pieces, one color each in every picture: {colors:?}"
    );
}

#[test]
fn with_data_each_record_is_drawn_and_svg_takes_the_first() {
    let dir = scratch("data");
    let r = dlxc(&[
        "run",
        "examples/pearl.dlx",
        "--data",
        "examples/data/pearl.txt",
        "--svg-dir",
        &arg(&dir),
    ]);
    // Some records of the file have no solution (and one is refused, exit 2, printed as
    // `error`): they get no picture, and the run answers as it does without pictures.
    let plain = dlxc(&[
        "run",
        "examples/pearl.dlx",
        "--data",
        "examples/data/pearl.txt",
    ]);
    assert_eq!(
        (r.code, &r.stdout, &r.stderr),
        (plain.code, &plain.stdout, &plain.stderr)
    );
    let shown = r
        .stdout
        .split("\n\n")
        .filter(|b| !b.trim().is_empty() && b.trim() != "No solution" && b.trim() != "error")
        .count();
    assert!(shown >= 2);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), shown);
    assert!(
        names.contains(&"record-1-solution-1.svg".to_string()),
        "{names:?}"
    );
    assert_eq!(cells(&dir.join("record-1-solution-1.svg")).0.len(), 55);
    let file = dir.join("first.svg");
    let r = dlxc(&[
        "run",
        "examples/pearl.dlx",
        "--data",
        "examples/data/pearl.txt",
        "--svg",
        &arg(&file),
    ]);
    assert_eq!(r.stdout, plain.stdout);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        std::fs::read_to_string(dir.join("record-1-solution-1.svg")).unwrap()
    );
}

#[test]
fn hexagons_triangles_and_canvas() {
    let dir = scratch("lattices");
    let hex = dir.join("h.svg");
    let r = dlxc(&[
        "run",
        "examples/tetrahexes.dlx",
        "--cells",
        "hex",
        "--svg",
        &arg(&hex),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let svg = std::fs::read_to_string(&hex).unwrap();
    let corners = |l: &str| {
        l.split("points=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .split(' ')
            .count()
    };
    let polys: Vec<&str> = svg.lines().filter(|l| l.starts_with("<polygon ")).collect();
    assert_eq!(polys.len(), 28);
    assert!(polys.iter().all(|l| corners(l) == 6));
    let tri = dir.join("t.svg");
    let r = dlxc(&[
        "run",
        "tests/svg/triamonds.dlx",
        "--cells",
        "triangle",
        "--svg",
        &arg(&tri),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let svg = std::fs::read_to_string(&tri).unwrap();
    let polys: Vec<&str> = svg.lines().filter(|l| l.starts_with("<polygon ")).collect();
    assert_eq!(polys.len(), 9);
    assert!(polys.iter().all(|l| corners(l) == 3));
    // Queens: the board is the canvas (grey, unlabelled), the queens one color.
    let q = dir.join("q.svg");
    let r = dlxc(&["run", "examples/queens.dlx", "--svg", &arg(&q)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (polys, labels) = cells(&q);
    assert_eq!(polys.len(), 64);
    assert_eq!(labels, 8, "only the queens are labelled");
    let fills: BTreeSet<&str> = polys.iter().map(|(_, f)| f.as_str()).collect();
    assert_eq!(fills.len(), 2);
}

#[test]
fn optimized_and_json_runs_draw_too() {
    let dir = scratch("optimize");
    let file = dir.join("o.svg");
    let model = cli::temp_file(
        "cheapest.dlx",
        "item cell[c] for c in 0..2\n\
         option one[c] for c in 0..2 covers cell[c] cost 2\n    paint (0, c) = \"o\"\n\
         option two covers cell[0], cell[1] cost 3\n    paint (0, c) = \"t\" for c in 0..2\n\
         minimize cost\n",
    );
    let r = dlxc(&["run", &arg(&model), "--svg", &arg(&file)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (polys, _) = cells(&file);
    // Texts sorted: "o" takes the first color, "t" the second.
    assert_eq!(
        polys,
        [
            ("t".into(), "#0075dc".into()),
            ("t".into(), "#0075dc".into())
        ]
    );
    let file = dir.join("j.svg");
    let r = dlxc(&[
        "run",
        "examples/pentomino.dlx",
        "--json",
        "--svg",
        &arg(&file),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(cells(&file).0.len(), 60);
}

#[test]
fn svg_is_refused_where_it_cannot_apply() {
    // --count shows no solution: clap refuses the pair (exit 2, usage).
    let r = dlxc(&["run", "examples/pentomino.dlx", "--count", "--svg", "x.svg"]);
    assert_eq!(r.code, 2);
    assert!(!Path::new("x.svg").exists());
    // `solve` reads Knuth's format, which paints nothing: the flag is not there.
    let r = dlxc(&["solve", "examples/knuth/paper.dlx1", "--svg", "x.svg"]);
    assert_eq!(r.code, 2);
    // A directory where the file should be: E0940, the solution still printed.
    let dir = scratch("refused");
    let r = dlxc(&["run", "examples/pentomino.dlx", "--svg", &arg(&dir)]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("E0940"), "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 6);
}
