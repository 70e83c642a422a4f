//! Happy paths, round trips and robustness of the Knuth-format reader and writer.

use super::*;
use crate::problem::{ColorId, OptionId, OptionRef};
use crate::testing::Rng;

const PAPER: &str = "| Knuth's 6x7 example from \"Dancing Links\"\n\
                     A B C D E F G\n\
                     C E F\nA D G\nB C F\nA D\nB G\nD E G\n";

fn parse(text: &str) -> Problem {
    match read(&SourceFile::new("test.dlx", text)) {
        Ok(p) => p,
        Err(d) => panic!("unexpected errors: {d:?}"),
    }
}

fn errors(text: &str) -> Vec<String> {
    match read(&SourceFile::new("test.dlx", text)) {
        Ok(p) => panic!("expected errors, read {p:?}"),
        Err(d) => d
            .iter()
            .map(|e| e.code().map(|c| c.to_string()).unwrap_or_default())
            .collect(),
    }
}

/// The problem with origins reset, for comparisons that ignore where things came from.
fn without_origins(mut p: Problem) -> Problem {
    for i in &mut p.items {
        i.origin = Origin::Synthetic;
    }
    p.options = p
        .options
        .iter()
        .map(|o| Opt {
            origin: Origin::Synthetic,
            ..o.to_opt()
        })
        .collect();
    p
}

fn round_trip(p: &Problem) -> (Problem, WriteReport, String) {
    let mut text = String::new();
    let report = write(p, &mut text).unwrap();
    (parse(&text), report, text)
}

#[test]
fn reads_the_paper_example() {
    let p = parse(PAPER);
    assert_eq!(p.items.len(), 7);
    assert_eq!(p.primary_count(), 7);
    assert_eq!(p.options.len(), 6);
    assert_eq!(p.option_label(OptionId(0)), "C E F");
    assert_eq!(p.items[0].origin, Origin::Line(2));
    assert_eq!(p.options.get(5).origin, Origin::Line(8));
    assert!(
        p.options
            .iter()
            .all(|o| o.name.is_none() && o.cost.is_none())
    );
    assert_eq!(p.entry_count(), 16);
}

#[test]
fn reads_colors() {
    // DLX2's example: two primary items, three secondary, colors on the secondary ones.
    let p = parse(
        "| DLX2 example\n p q r | x y\n\
         p q x y:A\np r x:A y\np x:B\nq x:A\nr y:B\n",
    );
    assert_eq!(p.primary_count(), 3);
    assert_eq!(p.items[3].kind, ItemKind::Secondary);
    assert_eq!(p.colors, ["A", "B"]);
    assert_eq!(p.options.get(0).entries[3].color, Some(ColorId::new(0)));
    assert_eq!(p.options.get(2).entries[1].color, Some(ColorId::new(1)));
    assert_eq!(p.option_label(OptionId(1)), "p r x:A y");
    assert!(p.has_colors());
}

#[test]
fn reads_bounds() {
    // DLX3's example.
    let p = parse("A B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n");
    assert_eq!(p.items[0].kind, ItemKind::PRIMARY);
    assert_eq!(
        p.items[2].kind,
        ItemKind::Primary {
            bounds: Bounds { lo: 2, hi: Some(3) }
        }
    );
    assert_eq!(p.items[2].name, "C");
    let p = parse("0|A 5|B 0:0|C\nA\n");
    let b = |k: usize| match p.items[k].kind {
        ItemKind::Primary { bounds } => (bounds.lo, bounds.hi),
        ItemKind::Secondary => panic!("primary expected"),
    };
    assert_eq!(
        (b(0), b(1), b(2)),
        ((0, Some(0)), (5, Some(5)), (0, Some(0)))
    );
}

#[test]
fn reads_costs() {
    let p = parse("a b c | x\na b |7\nc x |2 |3\nb c\na |0\n");
    let costs: Vec<_> = p.options.iter().map(|o| o.cost).collect();
    assert_eq!(costs, [Some(7), Some(5), None, Some(0)]);
    assert_eq!(p.options.get(1).entries.len(), 2);
}

#[test]
fn bar_may_be_omitted_and_names_may_be_long() {
    let p = parse("cell[3,4] put[0,0,5] é\ncell[3,4] é\n");
    assert_eq!(p.primary_count(), 3);
    assert_eq!(p.items[1].name, "put[0,0,5]");
    // A `|` with nothing after it declares no secondary item.
    assert_eq!(parse("a b |\na\n").items.len(), 2);
}

#[test]
fn collects_every_error_and_goes_on() {
    let codes = errors("a a b | x | y\nz a a\nb:red x: |x\n0:x|c\n");
    assert_eq!(
        codes,
        [
            "dlx::E0804",
            "dlx::E0805",
            "dlx::E0802",
            "dlx::E0803",
            "dlx::E0806",
            "dlx::E0809",
            "dlx::E0808",
            "dlx::E0809",
        ]
    );
    assert_eq!(errors(""), ["dlx::E0801"]);
    assert_eq!(errors("| only\n  | comments\n\n"), ["dlx::E0801"]);
    assert_eq!(errors("x|a b\n"), ["dlx::E0807"]);
    assert_eq!(errors("3:2|a b\n"), ["dlx::E0807"]);
    assert_eq!(errors("a |b\n"), ["dlx::E0807"]);
    assert_eq!(errors("a | 2|b\n"), ["dlx::E0807"]);
    assert_eq!(errors("a b:c\n"), ["dlx::E0809"]);
    assert_eq!(errors("a\na|3\n"), ["dlx::E0809"]);
    assert_eq!(errors("a\na |99999999999999999999\n"), ["dlx::E0808"]);
    assert_eq!(errors("a\na |9223372036854775807 |1\n"), ["dlx::E0808"]);
}

#[test]
fn round_trips_without_renaming() {
    for text in [
        PAPER,
        "p q r | x y\np q x y:A\np r x:A y\np x:B\nq x:A\nr y:B\n",
        "A B 2:3|C 0|D | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n",
        "a b c | x\na b |7\nc x:z |5\nb c\na |0\n",
    ] {
        let p = parse(text);
        let (back, report, out) = round_trip(&p);
        assert_eq!(without_origins(back), without_origins(p), "{out}");
        assert!(report.item_renames.is_empty() && report.color_renames.is_empty());
    }
}

#[test]
fn writes_for_the_right_program() {
    let program = |text: &str| round_trip(&parse(text)).1.features.program();
    assert_eq!(program(PAPER), Some("DLX1"));
    assert_eq!(program("a | x\na x:1\n"), Some("DLX2"));
    assert_eq!(program("2|a | x\na x:1\n"), Some("DLX3"));
    assert_eq!(program("a | x\na x:1 |3\n"), Some("DLX5"));
    assert_eq!(program("2|a\na |3\n"), None);
    let (_, _, out) = round_trip(&parse(PAPER));
    assert_eq!(
        out,
        "| exact cover problem for DLX1: 7 items, 6 options\n\
         A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n"
    );
}

#[test]
fn long_names_are_renamed_into_an_isomorphic_problem() {
    let mut p = Problem::new();
    let names = [
        "cell[3,4]",
        "cell[3,5]",
        "cell[10,12]",
        "cell[10,13]",
        "r:1",
    ];
    let ids: Vec<_> = names
        .iter()
        .map(|n| p.add_item(*n, ItemKind::PRIMARY, Origin::Synthetic))
        .collect();
    let s = p.add_item(
        "a very long secondary",
        ItemKind::Secondary,
        Origin::Synthetic,
    );
    p.items[2].kind = ItemKind::Primary {
        bounds: Bounds { lo: 1, hi: None },
    };
    let red = p.intern_color("reddish-brown");
    let entry = |item, color| Entry { item, color };
    for (k, pair) in ids.windows(2).enumerate() {
        p.add_option(Opt {
            name: Some(format!("put[{k}]")),
            entries: vec![
                entry(pair[0], None),
                entry(pair[1], None),
                entry(s, Some(red)),
            ],
            cost: Some(k as i64),
            origin: Origin::Synthetic,
        });
    }
    let (back, report, out) = round_trip(&p);
    assert_eq!(report.item_renames.len(), 6, "{out}");
    assert_eq!(report.item_renames[0].short, "cell3,4");
    assert_eq!(report.item_renames[2].full, "cell[10,12]");
    assert_eq!(report.color_renames.len(), 1);
    assert_eq!(report.unbounded_items, [ItemId(2)]);
    assert!(out.contains("|   cell3,4 = cell[3,4]\n"), "{out}");
    assert_eq!(report.notes().len(), 4, "{:?}", report.notes());
    assert!(round_trip(&parse(PAPER)).1.notes().is_empty());
    // Isomorphic: same shape, entries at the same positions, names mapped one to one.
    assert_eq!(back.items.len(), p.items.len());
    assert_eq!(back.options.len(), p.options.len());
    for (a, b) in p.options.iter().zip(&back.options) {
        let pos = |o: OptionRef<'_>| {
            o.entries
                .iter()
                .map(|e| (e.item, e.color))
                .collect::<Vec<_>>()
        };
        assert_eq!(pos(a), pos(b));
        assert_eq!(a.cost, b.cost);
    }
    for (a, b) in p.items.iter().zip(&back.items) {
        assert_eq!(a.kind.is_primary(), b.kind.is_primary());
        assert!(super::write::is_knuth_name(&b.name));
    }
    // The unbounded item is bounded by its number of options: two.
    assert_eq!(
        back.items[2].kind,
        ItemKind::Primary {
            bounds: Bounds { lo: 1, hi: Some(2) }
        }
    );
}

#[test]
fn writer_refuses_what_knuth_cannot_read() {
    let mut p = parse("a\na\n");
    p.options = p
        .options
        .iter()
        .map(|o| Opt {
            cost: Some(-1),
            ..o.to_opt()
        })
        .collect();
    assert!(matches!(
        write(&p, &mut String::new()),
        Err(WriteError::NegativeCost { cost: -1, .. })
    ));
    assert!(matches!(
        write(&Problem::new(), &mut String::new()),
        Err(WriteError::NoPrimaryItems)
    ));
    let mut p = parse("a | x\nx\na\n");
    p.add_option(Opt {
        name: None,
        entries: vec![],
        cost: None,
        origin: Origin::Synthetic,
    });
    let report = write(&p, &mut String::new()).unwrap();
    assert_eq!(report.options_without_primary, [OptionId(0)]);
    assert_eq!(report.empty_options, [OptionId(2)]);
}

#[test]
fn many_unknown_names_stay_fast() {
    // 20000 items and 5000 lines of unknown names: suggestions are cached and capped.
    let mut text: String = (0..20_000).map(|k| format!("item{k} ")).collect();
    text.push('\n');
    for k in 0..5_000 {
        text.push_str(&format!("itm{k} itm{} item1\n", k % 7));
    }
    let diags = read(&SourceFile::new("big", text)).unwrap_err();
    assert_eq!(diags.len(), 10_000);
}

#[test]
fn a_file_of_errors_keeps_a_bounded_few_and_counts_them_all() {
    // 200,000 lines naming an undeclared item: every one is an error, found and
    // counted, but only the first MAX_KEPT are held (all of them were: 5.1 GB for a
    // 73 MB file of such lines).
    let text = format!("a b\n{}", "a zz\n".repeat(200_000));
    let diags = read(&SourceFile::new("bad", text)).unwrap_err();
    assert_eq!((diags.len(), diags.error_count()), (200_000, 200_000));
    assert_eq!(diags.iter().count(), crate::diag::MAX_KEPT);
    assert_eq!(diags.omitted(), (200_000 - crate::diag::MAX_KEPT, 0));
    let shown = crate::diag::render_all(&diags, crate::diag::RenderStyle::GOLDEN);
    assert!(
        shown.ends_with("... and 199950 more errors, not shown\n"),
        "{}",
        &shown[shown.len() - 200..]
    );
}

#[test]
fn garbage_never_panics() {
    let inputs = [
        "\0\u{1}\u{7f}\n\u{feff}a\n",
        "|||\n| | |\n",
        "a|b|c:d|e\n:|:\n|\n",
        "4294967296:4294967297|a\n",
        "18446744073709551616|a\na |18446744073709551616\n",
        "a\r\nb\r\n",
        "a | b\nb:\u{1F600} a:\u{0} :\n",
        "ÿ\u{0}\u{fffd}\u{fffd} |\n\u{fffd}\n",
        "a\n\n\n\n a a a a a\n",
    ];
    for text in inputs {
        let _ = read(&SourceFile::new("garbage", text));
    }
    let long = "x ".repeat(10_000) + "\n" + &"x\n".repeat(100);
    assert!(read(&SourceFile::new("long", long)).is_err());
    for seed in 0..200u32 {
        // A cheap deterministic scramble of the paper example's bytes.
        let bytes: Vec<u8> = PAPER
            .bytes()
            .enumerate()
            .map(|(i, b)| {
                if (i as u32 * 31 + seed).is_multiple_of(7) {
                    b"|: \n9"[(seed % 5) as usize]
                } else {
                    b
                }
            })
            .collect();
        let text = String::from_utf8_lossy(&bytes);
        let _ = read(&SourceFile::new("scrambled", text.as_ref()));
    }
}

/// All solutions of a small problem by trying every subset of options: the costs of
/// the solutions, and the options of each. Knows colors, bounds and costs.
fn brute_force(p: &Problem) -> Vec<(Vec<usize>, i64)> {
    let n = p.options.len();
    assert!(n <= 16, "brute force is for small problems");
    let mut out = Vec::new();
    for set in 0u32..(1 << n) {
        let chosen: Vec<usize> = (0..n).filter(|k| set >> k & 1 == 1).collect();
        let mut count = vec![0u32; p.items.len()];
        let mut color: Vec<Option<Option<ColorId>>> = vec![None; p.items.len()];
        let mut ok = true;
        for &k in &chosen {
            for e in p.options.get(k).entries {
                let i = e.item.index();
                count[i] += 1;
                if !p.items[i].kind.is_primary() {
                    // A secondary item is shared only by options giving it one color.
                    ok &= match color[i] {
                        None => true,
                        Some(c) => c.is_some() && c == e.color,
                    };
                    color[i] = Some(e.color);
                }
            }
        }
        for (i, item) in p.items.iter().enumerate() {
            if let ItemKind::Primary { bounds } = item.kind {
                ok &= count[i] >= bounds.lo && bounds.hi.is_none_or(|hi| count[i] <= hi);
            }
        }
        if ok {
            let cost = chosen
                .iter()
                .map(|&k| p.options.get(k).cost.unwrap_or(0))
                .sum();
            out.push((chosen, cost));
        }
    }
    out
}

#[test]
fn shipped_examples_have_the_solutions_their_comments_claim() {
    let example = |name: &str, text: &str| {
        let p = read(&SourceFile::new(name, text)).unwrap();
        let sols = brute_force(&p);
        let labels: Vec<Vec<String>> = sols
            .iter()
            .map(|(s, _)| {
                s.iter()
                    .map(|&k| p.option_label(OptionId(k as u32)))
                    .collect()
            })
            .collect();
        (p, sols, labels)
    };
    let (paper, sols, labels) = example(
        "paper.dlx1",
        include_str!("../../../examples/knuth/paper.dlx1"),
    );
    assert_eq!(labels, [["C E F", "A D", "B G"]]);
    assert_eq!(sols.len(), 1);
    let (_, _, labels) = example(
        "colors.dlx2",
        include_str!("../../../examples/knuth/colors.dlx2"),
    );
    assert_eq!(labels, [["p r x:A y", "q x:A"]]);
    let (_, _, labels) = example(
        "bounds.dlx3",
        include_str!("../../../examples/knuth/bounds.dlx3"),
    );
    assert_eq!(labels, [["A C X:1 Y:1", "B X:1", "C Y:1"]]);
    let (_, sols, _) = example(
        "costs.dlx5",
        include_str!("../../../examples/knuth/costs.dlx5"),
    );
    assert_eq!(sols.iter().map(|s| s.1).collect::<Vec<_>>(), [7]);
    // The matrix example is the same problem with items c1..c7 and named options.
    let m = crate::format::matrix::read(&SourceFile::new(
        "paper.txt",
        include_str!("../../../examples/matrix/paper.txt"),
    ))
    .unwrap();
    assert_eq!(brute_force(&m), brute_force(&paper));
    for (a, b) in m.options.iter().zip(&paper.options) {
        assert_eq!(a.entries, b.entries);
    }
}

/// A random valid problem with names both short and long, kinds interleaved, bounds,
/// colors and costs.
fn random_problem(rng: &mut Rng) -> Problem {
    const STEMS: [&str; 6] = ["a", "cell[", "put[0,", "x y", "q:", "row"];
    let mut p = Problem::new();
    let n_items = 1 + rng.next(12) as usize;
    for k in 0..n_items {
        let name = format!(
            "{}{k}{}",
            STEMS[rng.next(6) as usize],
            "]".repeat(rng.next(2) as usize)
        );
        let kind = if k == 0 || rng.next(3) > 0 {
            let lo = rng.next(3) as u32;
            let hi = match rng.next(4) {
                0 => None,
                1 => Some(lo + rng.next(3) as u32),
                _ if lo == 0 => Some(1),
                _ => Some(lo),
            };
            ItemKind::Primary {
                bounds: Bounds { lo, hi },
            }
        } else {
            ItemKind::Secondary
        };
        p.add_item(name, kind, Origin::Synthetic);
    }
    let colors = ["red", "g", "blue green", "0", "nope:"];
    for _ in 0..rng.next(10) {
        let mut entries = Vec::new();
        for k in 0..n_items {
            if rng.next(3) == 0 {
                let color = (!p.items[k].kind.is_primary() && rng.next(2) == 0)
                    .then(|| p.intern_color(colors[rng.next(5) as usize]));
                entries.push(Entry {
                    item: ItemId(k as u32),
                    color,
                });
            }
        }
        let cost = (rng.next(3) == 0).then(|| rng.next(100) as i64);
        p.add_option(Opt {
            name: None,
            entries,
            cost,
            origin: Origin::Synthetic,
        });
    }
    p
}

#[test]
fn random_problems_survive_write_then_read() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..300 {
        let p = random_problem(&mut rng);
        let (back, report, out) = round_trip(&p);
        let full = |renames: &[Rename], short: &str| {
            renames
                .iter()
                .find(|r| r.short == short)
                .map_or(short.to_string(), |r| r.full.clone())
        };
        let by_name = p.item_index();
        let mut uses = vec![0u32; p.items.len()];
        for e in p.options.iter().flat_map(|o| o.entries) {
            uses[e.item.index()] += 1;
        }
        assert_eq!(back.items.len(), p.items.len(), "{out}");
        for item in &back.items {
            let orig = by_name[full(&report.item_renames, &item.name).as_str()];
            let expected = match p.item(orig).kind {
                ItemKind::Primary {
                    bounds: Bounds { lo, hi: None },
                } => ItemKind::Primary {
                    bounds: Bounds {
                        lo,
                        hi: Some(uses[orig.index()].max(lo)),
                    },
                },
                kind => kind,
            };
            assert_eq!(item.kind, expected, "{out}");
        }
        let described = |q: &Problem,
                         o: OptionRef<'_>,
                         renamed: bool|
         -> (Vec<(String, Option<String>)>, Option<i64>) {
            let entries = o
                .entries
                .iter()
                .map(|e| {
                    let mut item = q.item(e.item).name.clone();
                    let mut color = e.color.map(|c| q.colors[c.index()].clone());
                    if renamed {
                        item = full(&report.item_renames, &item);
                        color = color.map(|c| full(&report.color_renames, &c));
                    }
                    (item, color)
                })
                .collect();
            (entries, o.cost)
        };
        let kept: Vec<_> = p.options.iter().filter(|o| !o.entries.is_empty()).collect();
        assert_eq!(kept.len(), back.options.len(), "{out}");
        for (a, b) in kept.iter().zip(&back.options) {
            assert_eq!(described(&p, *a, false), described(&back, b, true), "{out}");
        }
    }
}
