//! Branch and bound by parts, as checkpoints and shards of an optimization search
//! (`solve::optimize::parts`): on random small problems with objectives (exactly-once,
//! at-least-once, other multiplicities and secondary items, colors, costs of both signs,
//! forced options), on each of the three engines,
//! every split into N = 1..=5 shards, on one thread or three, merged as `dlxc merge`
//! merges them (the best value, ties to the earliest part), gives the sequential answer: the value and the
//! solution of `solve_exact`, the search each part runs (and the value of `solve`). A
//! search cut by a small node limit and resumed from what it kept, again and again
//! until it ends, gives it too. Seeded, so a failure names the seed that reproduces it.

use dlxc::problem::{OptionId, Problem};
use dlxc::solve::optimize::parts::{Cut, Done, Found, solve_parts};
use dlxc::solve::{End, Limit, Objective, Optimizer, SearchConfig};

#[path = "common/costed.rs"]
mod costed;
#[path = "common/mcc.rs"]
mod mcc;
#[path = "common/rng.rs"]
mod rng;
use costed::{forced_for, random_colored_problem, random_problem};
use mcc::random_priced_problem;

/// Random problems per kind of problem and objective.
const CASES: u64 = 600;

/// The kinds of problem: a generator and an objective.
type Kind = (&'static str, fn(u64) -> Problem, Objective);

fn kinds() -> Vec<Kind> {
    vec![
        (
            "count, exactly once",
            |s| random_problem(s, false, 0, 0),
            Objective::MinimizeCount,
        ),
        (
            "count, at least once",
            |s| random_problem(s, true, 0, 0),
            Objective::MinimizeCount,
        ),
        (
            "least cost",
            |s| random_problem(s, false, -9, 9),
            Objective::MinimizeCost,
        ),
        (
            "greatest cost",
            |s| random_problem(s, false, -9, 9),
            Objective::MaximizeCost,
        ),
        (
            "least cost, at least once",
            |s| random_problem(s, true, 0, 3),
            Objective::MinimizeCost,
        ),
        (
            "least cost, colors",
            |s| random_colored_problem(s, -5, 5),
            Objective::MinimizeCost,
        ),
        (
            "count, colors",
            |s| random_colored_problem(s, 0, 0),
            Objective::MinimizeCount,
        ),
        (
            "count, any bounds",
            |s| random_priced_problem(s, s % 2 == 1, true, None),
            Objective::MinimizeCount,
        ),
        (
            "least cost, any bounds",
            |s| random_priced_problem(s, s % 2 == 1, true, Some((0, 5))),
            Objective::MinimizeCost,
        ),
        (
            "greatest cost, any bounds",
            |s| random_priced_problem(s, false, true, Some((-5, 0))),
            Objective::MaximizeCost,
        ),
    ]
}

/// Searches the parts `which`, continuing `done`, within `config`.
fn search(
    opt: &mut Optimizer,
    forced: &[OptionId],
    cut: &Cut,
    which: &[usize],
    done: &mut Done,
    config: &SearchConfig,
    threads: usize,
) -> dlxc::solve::Optimum {
    solve_parts(
        opt,
        forced,
        cut,
        which,
        done,
        config,
        threads,
        &mut |_| {},
        &mut |_, _| {},
    )
    .expect("the forced options were checked by the cut")
}

/// The best of `found`, as `dlxc merge` picks it.
fn best_of(found: impl IntoIterator<Item = Found>, sign: i64) -> Option<Found> {
    found
        .into_iter()
        .fold(None, |best: Option<Found>, f| match best {
            Some(b) if !f.better_than(&b, sign) => Some(b),
            _ => Some(f),
        })
}

#[test]
fn shards_merged_and_resumed_checkpoints_give_the_sequential_answer() {
    let mut cases = 0;
    let mut split = 0;
    let mut resumed_runs = 0;
    for (name, make, goal) in kinds() {
        for seed in 0..CASES {
            let p = make(seed);
            let forced = forced_for(&p, seed);
            let Ok(mut opt) = Optimizer::new(&p, goal) else {
                continue; // a cost that rewards an extra option: refused, as it should
            };
            let at = format!("{name}, seed {seed}");
            let cfg = SearchConfig::default();
            let want = opt.solve_exact(&forced, false, &cfg, &mut |_, _| {});
            let cut = Cut::new(&mut opt, &forced);
            let (want, cut) = match (want, cut) {
                (Err(a), Err(b)) => {
                    assert_eq!(a, b, "{at}");
                    continue;
                }
                (Ok(w), Ok(c)) => (w, c),
                (w, c) => panic!("{at}: {w:?} against {c:?}"),
            };
            cases += 1;
            split += usize::from(cut.len() > 1);
            let alone = opt.solve(&forced, false, &cfg, &mut |_, _| {}).unwrap();
            assert_eq!(alone.value, want.value, "{at}");
            let sign = goal.sign();
            let answer = |f: Option<Found>| f.map(|f| (f.value, f.solution));
            let expected = want.value.zip(want.solutions.first().cloned());
            // Shards: each searched alone (its own incumbent), then merged; on one
            // thread and on three (the parts then end in any order).
            for (n, threads) in (1..=5).flat_map(|n| [(n, 1), (n, 3)]) {
                let mut found = Vec::new();
                for k in 1..=n {
                    let which = cut.shard(k, n);
                    let mut done = Done::default();
                    let out = search(&mut opt, &forced, &cut, &which, &mut done, &cfg, threads);
                    assert!(out.optimal && out.end == End::Exhausted, "{at} {k}/{n}");
                    assert_eq!(done.parts.len(), which.len(), "{at} {k}/{n}");
                    assert_eq!(out.value, done.best.as_ref().map(|b| b.value), "{at}");
                    found.extend(done.best);
                }
                assert_eq!(
                    answer(best_of(found, sign)),
                    expected,
                    "{at}, {n} shards, {threads} threads"
                );
            }
            // A checkpoint: cut short by a node limit, resumed from what it kept until
            // it ends; a limit smaller than the next part makes no progress, so a run
            // that made none is given twice the nodes.
            for (k, n) in [(1, 1), (2, 3)] {
                let which = cut.shard(k, n);
                let mut done = Done::default();
                let mut limit = 2 + seed % 5;
                let mut runs = 0;
                let out = loop {
                    let before = done.parts.len();
                    let cfg = SearchConfig {
                        node_limit: Some(limit),
                        ..SearchConfig::default()
                    };
                    let out = search(&mut opt, &forced, &cut, &which, &mut done, &cfg, 1);
                    runs += 1;
                    assert!(runs < 200, "{at}: no end");
                    if out.end == End::Exhausted {
                        break out;
                    }
                    assert_eq!(out.end, End::Cut(Limit::Nodes), "{at}");
                    assert!(!out.optimal, "{at}");
                    // The best so far is a solution of the value it claims.
                    if let (Some(v), Some(s)) = (out.value, out.solutions.first()) {
                        assert_eq!(goal.value_of(&p, s), v, "{at}");
                    }
                    if done.parts.len() == before {
                        limit *= 2;
                    }
                };
                resumed_runs += runs - 1;
                assert!(out.optimal, "{at}");
                let whole = if n == 1 {
                    answer(done.best.clone())
                } else {
                    // The shard resumed is the shard searched at once.
                    let mut at_once = Done::default();
                    search(&mut opt, &forced, &cut, &which, &mut at_once, &cfg, 2);
                    assert_eq!(done.best, at_once.best, "{at}");
                    continue;
                };
                assert_eq!(whole, expected, "{at}, resumed {runs} times");
                assert_eq!(answer(best_of(done.best.clone(), sign)), expected);
            }
        }
    }
    eprintln!("{cases} cases, {split} split, {resumed_runs} resumed runs");
    assert!(cases > 3000, "only {cases} cases");
    assert!(
        split > 1000,
        "only {split} cases were cut into several parts"
    );
    assert!(resumed_runs > 1500, "only {resumed_runs} resumed runs");
}

/// The cut depends on the problem, the forced options and the objective alone: made
/// twice, it is the same (so are its digest and its shards), and its shards are
/// disjoint and cover every part.
#[test]
fn the_cut_is_the_same_every_time() {
    for seed in 0..CASES {
        let p = random_problem(seed, seed % 2 == 0, 0, 3);
        let forced = forced_for(&p, seed);
        for goal in [Objective::MinimizeCount, Objective::MinimizeCost] {
            let Ok(mut opt) = Optimizer::new(&p, goal) else {
                continue;
            };
            let (Ok(a), Ok(b)) = (
                Cut::new(&mut opt, &forced),
                Cut::new(&mut opt.clone(), &forced),
            ) else {
                continue;
            };
            assert_eq!((a.len(), a.digest()), (b.len(), b.digest()), "seed {seed}");
            for n in 1..=5 {
                let mut all: Vec<usize> = (1..=n).flat_map(|k| a.shard(k, n)).collect();
                all.sort_unstable();
                assert_eq!(all, (0..a.len()).collect::<Vec<_>>(), "seed {seed}");
            }
        }
    }
}
