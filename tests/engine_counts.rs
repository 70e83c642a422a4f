//! Published counts, DLX1's node counts, forced options and limits.

mod common {
    pub mod problems;
}

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use common::problems::*;
use dlxc::problem::{ItemId, OptionId, Problem};
use dlxc::solve::{
    Clash, ClashKind, End, EngineChoice, Flow, Limit, Outcome, SearchConfig, Solver,
};

fn count(problem: &Problem) -> Outcome {
    count_with(problem, EngineChoice::Auto)
}

/// DLX1's counters come from the links engine, the reference.
fn count_dlx1(problem: &Problem) -> Outcome {
    count_with(problem, EngineChoice::Links)
}

fn count_with(problem: &Problem, engine: EngineChoice) -> Outcome {
    let config = SearchConfig {
        count_only: true,
        ..SearchConfig::default()
    };
    let out = Solver::with_engine(problem, engine)
        .expect("supported")
        .search(&[], &config, &mut |_| Flow::Continue)
        .expect("no forced options");
    assert_eq!(out.end, End::Exhausted);
    out
}

/// The solver as shipped (small problems put their links back by copying a snapshot)
/// and one that undoes cover by cover, so that both ways back are checked.
fn both_ways(problem: &Problem) -> [Solver; 2] {
    let copying = Solver::new(problem).expect("supported");
    let mut undoing = copying.clone();
    undoing.undo_only();
    [copying, undoing]
}

fn all(solver: &mut Solver, forced: &[OptionId]) -> Result<Vec<Vec<OptionId>>, Clash> {
    search_all(solver, forced).map(|(found, _)| found)
}

#[test]
fn knuth_6x7_has_one_solution() {
    let mut s = Solver::new(&knuth_6x7()).unwrap();
    let sols = all(&mut s, &[]).unwrap();
    assert_eq!(sols.len(), 1);
    let mut sol = sols[0].clone();
    sol.sort();
    // Options 1, 4, 5 (1-based): {C E F}, {A D}, {B G}.
    assert_eq!(sol, [OptionId(0), OptionId(3), OptionId(4)]);
}

#[test]
fn queens_1_to_10() {
    let expected = [1u128, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    for (n, &want) in (1..=10).zip(&expected) {
        for order in [QueensOrder::Plain, QueensOrder::OrganPipe] {
            assert_eq!(
                count(&queens(n, order)).stats.solutions,
                want,
                "n={n} {order:?}"
            );
        }
    }
}

/// Deterministic counters: a change here is a change of the search. The figures are
/// DLX1's (Knuth's dlx1.w, which counts a node on entering each level, solutions
/// included). Queens match only with the primary items in organ-pipe order
/// (`r5 c5 r6 c6 r4 c4 r7 c7 ...` for n = 12; see `organ_pipe`); plain `r0..r11 c0..c11`
/// gives 14200 solutions in 327,813 nodes. Secondary items never affect the counts.
#[test]
fn queens_counters_match_dlx1() {
    let out = count_dlx1(&queens(12, QueensOrder::OrganPipe));
    assert_eq!(out.stats.solutions, 14200);
    assert_eq!((out.stats.nodes, out.stats.updates), (211_716, 3_641_627));
    let out = count_dlx1(&queens(13, QueensOrder::OrganPipe));
    assert_eq!(out.stats.solutions, 73712);
    assert_eq!(out.stats.nodes, 1_046_319);
}

/// Knuth's Langford figure (1,564,533 nodes for n = 12) is for the count up to
/// reversal, value 1 kept to the placements left of their mirror image, items in the
/// order `1..n s0..s(2n-1)`.
#[test]
fn langford_12_counters_match_dlx1() {
    let out = count_dlx1(&langford_with(12, false, Some(1)));
    assert_eq!(out.stats.solutions, 108_144);
    assert_eq!(
        (out.stats.nodes, out.stats.updates),
        (1_564_533, 21_839_525)
    );
}

#[test]
fn langford_raw_counts() {
    for (n, want) in [(3, 2u128), (4, 2), (5, 0), (7, 52), (8, 300)] {
        assert_eq!(count(&langford(n)).stats.solutions, want, "n={n}");
    }
}

#[test]
fn pentominoes_6x10_raw() {
    let p = pentominoes(10, 6, false);
    assert_eq!((p.options.len(), p.items.len()), (2056, 72));
    assert_eq!(count(&p).stats.solutions, 9356);
}

#[test]
fn pentominoes_6x10_one_piece_restricted() {
    // F restricted to rotations 0 and 1, board 10 wide and 6 high, cells row-major:
    // exactly DLX1's 1,722,566 nodes and 586,041,027 updates.
    let out = count_dlx1(&pentominoes(10, 6, true));
    assert_eq!(out.stats.solutions, 2339);
    assert_eq!(
        (out.stats.nodes, out.stats.updates),
        (1_722_566, 586_041_027)
    );
}

/// The dancing-cells engine's own counters, pinned so that a change to its choice rule
/// or its forced moves shows; and, since it never enters a node that a commit already
/// found dead, it visits fewer nodes than DLX1 on the same problem.
fn dancing_cells_counts(p: &Problem, solutions: u128, nodes: u64) {
    let out = count_with(p, EngineChoice::Cells);
    assert_eq!((out.stats.solutions, out.stats.nodes), (solutions, nodes));
    let dlx1 = count_dlx1(p);
    assert_eq!(dlx1.stats.solutions, solutions);
    assert!(nodes < dlx1.stats.nodes, "{nodes} >= {}", dlx1.stats.nodes);
}

#[test]
fn dancing_cells_counters() {
    dancing_cells_counts(&queens(12, QueensOrder::OrganPipe), 14_200, 172_134);
    dancing_cells_counts(&langford_with(12, false, Some(1)), 108_144, 1_212_854);
}

#[test]
fn dancing_cells_counters_pentominoes() {
    dancing_cells_counts(&pentominoes(10, 6, true), 2339, 589_650);
}

#[test]
fn all_288_shidoku_grids() {
    let p = sudoku_empty(2);
    let mut s = Solver::new(&p).unwrap();
    let grids: HashSet<Vec<OptionId>> = all(&mut s, &[])
        .unwrap()
        .into_iter()
        .map(|mut g| {
            g.sort();
            g
        })
        .collect();
    assert_eq!(grids.len(), 288);
    assert!(grids.iter().all(|g| g.len() == 16));
}

/// One solver, many searches with different clues, the structure unchanged after each.
#[test]
fn one_solver_many_forced_searches() {
    for s in both_ways(&sudoku_empty(2)) {
        many_forced_searches(s);
    }
}

fn many_forced_searches(mut s: Solver) {
    let pristine = s.structure_fingerprint();
    let grids = all(&mut s, &[]).unwrap();
    for (k, grid) in grids.iter().enumerate() {
        // Clues: a varying subset of the grid's cells. Each completion must contain the
        // clues first, and the grid itself must be among the completions.
        let clues: Vec<OptionId> = grid
            .iter()
            .copied()
            .filter(|o| (o.0 as usize + k).is_multiple_of(3))
            .collect();
        let sols = all(&mut s, &clues).unwrap();
        assert!(sols.iter().all(|s| s.starts_with(&clues)));
        let mut mine = grid.clone();
        mine.sort();
        assert!(sols.iter().any(|s| {
            let mut s = s.clone();
            s.sort();
            s == mine
        }));
        assert_eq!(s.structure_fingerprint(), pristine);
    }
    // The full grid as clues: one solution, one node (the solution itself).
    let out = s
        .search(&grids[0], &SearchConfig::default(), &mut |_| Flow::Continue)
        .unwrap();
    assert_eq!((out.stats.solutions, out.stats.nodes), (1, 1));
}

#[test]
fn hard_sudoku_has_one_solution() {
    let puzzle =
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
    let p = sudoku_empty(3);
    let clues = sudoku_clues(puzzle, 3);
    let mut s = Solver::new(&p).unwrap();
    let sols = all(&mut s, &clues).unwrap();
    assert_eq!(sols.len(), 1);
    assert_eq!(sols[0].len(), 81);
}

#[test]
fn clash_names_both_options_and_the_item() {
    for s in both_ways(&sudoku_empty(2)) {
        clashes_in_a_shidoku(s);
    }
}

fn clashes_in_a_shidoku(mut s: Solver) {
    let pristine = s.structure_fingerprint();
    // Digit 1 and digit 2 in cell (0,0): they share the cell item p0,0 (item 0).
    let err = all(&mut s, &[OptionId(0), OptionId(1)]).unwrap_err();
    assert_eq!(
        err,
        Clash {
            first: OptionId(0),
            second: OptionId(1),
            item: ItemId(0),
            kind: ClashKind::Shared,
        }
    );
    // Digit 1 in cells (0,0) and (0,1): they share r0,0 (item 16 + 0).
    let err = all(&mut s, &[OptionId(4), OptionId(0)]).unwrap_err();
    assert_eq!(
        (err.first, err.second, err.item),
        (OptionId(4), OptionId(0), ItemId(16))
    );
    assert_eq!(s.structure_fingerprint(), pristine);
    // Secondary items clash too: two queens on one diagonal (squares (0,0) and (1,1)).
    let q = queens(4, QueensOrder::Plain);
    let mut s = Solver::new(&q).unwrap();
    let err = all(&mut s, &[OptionId(0), OptionId(5)]).unwrap_err();
    assert_eq!(q.item(err.item).name, "b3");
}

#[test]
fn limits_cut_and_stop() {
    for s in both_ways(&queens(8, QueensOrder::Plain)) {
        cut_and_stop_8_queens(s);
    }
    for s in both_ways(&queens(10, QueensOrder::Plain)) {
        interrupt_and_time_10_queens(s);
    }
}

fn cut_and_stop_8_queens(mut s: Solver) {
    let pristine = s.structure_fingerprint();
    let cfg = SearchConfig {
        node_limit: Some(100),
        ..SearchConfig::default()
    };
    let out = s.search(&[], &cfg, &mut |_| Flow::Continue).unwrap();
    assert_eq!(out.end, End::Cut(Limit::Nodes));
    assert_eq!(out.stats.nodes, 100);
    assert_eq!(s.structure_fingerprint(), pristine);

    let mut seen = 0;
    let out = s
        .search(&[], &SearchConfig::default(), &mut |_| {
            seen += 1;
            if seen == 5 {
                Flow::Stop
            } else {
                Flow::Continue
            }
        })
        .unwrap();
    assert_eq!((out.end, out.stats.solutions, seen), (End::Stopped, 5, 5));
    assert_eq!(s.structure_fingerprint(), pristine);

    let cfg = SearchConfig {
        max_solutions: Some(7),
        count_only: true,
        ..SearchConfig::default()
    };
    let out = s.search(&[], &cfg, &mut |_| unreachable!()).unwrap();
    assert_eq!((out.end, out.stats.solutions), (End::Stopped, 7));
    assert_eq!(s.structure_fingerprint(), pristine);
    assert_eq!(all(&mut s, &[]).unwrap().len(), 92);
}

fn interrupt_and_time_10_queens(mut s: Solver) {
    let pristine = s.structure_fingerprint();
    // An interrupt already raised is seen at the 1024th node.
    let cfg = SearchConfig {
        interrupt: Some(Arc::new(AtomicBool::new(true))),
        ..SearchConfig::default()
    };
    let out = s.search(&[], &cfg, &mut |_| Flow::Continue).unwrap();
    assert_eq!(out.end, End::Cut(Limit::Interrupted));
    assert_eq!(out.stats.nodes, 1024);
    assert_eq!(s.structure_fingerprint(), pristine);
    let cfg = SearchConfig {
        time_limit: Some(std::time::Duration::ZERO),
        ..SearchConfig::default()
    };
    let out = s.search(&[], &cfg, &mut |_| Flow::Continue).unwrap();
    assert_eq!(out.end, End::Cut(Limit::Time));
    assert_eq!(s.structure_fingerprint(), pristine);
    // And the full search still gives the right answer afterwards.
    assert_eq!(all(&mut s, &[]).unwrap().len(), 724);
}
