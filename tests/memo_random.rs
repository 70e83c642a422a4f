//! The memo count against the visiting count on thousands of random problems (plain,
//! colored, with multiplicities, with forced options, with a table so small that it
//! fills), big counts against a closed form, the uniformity of `--sample`'s draws (a
//! chi-square test with a fixed seed: deterministic), and the ZDD read back.

#[path = "common/golden.rs"]
mod golden;
#[path = "common/rng.rs"]
mod rng;

use std::path::Path;

use dlxc::instance::Instance;
use dlxc::problem::{Bounds, OptionId, Problem, ProblemBuilder};
use dlxc::run::{Answer, Failure, Runner, Sink};
use dlxc::solve::Flow;
use dlxc::solve::memo::{self, Counter, Limits, Order};
use dlxc::task::{Memo, Request, Task};
use num_bigint::BigUint;
use rng::Rng;

/// A random problem: 2 to 7 primary items (some with multiplicities when `bounds`),
/// up to 3 secondary items, some options coloring them.
fn random(rng: &mut Rng, bounds: bool) -> Problem {
    let mut b = ProblemBuilder::new();
    let np = 2 + rng.below(6) as usize;
    let ns = rng.below(4) as usize;
    for i in 0..np {
        let name = format!("p{i}");
        match if bounds { rng.below(6) } else { 5 } {
            0 => b.primary_bounded(name, Bounds { lo: 0, hi: Some(2) }),
            1 => b.primary_bounded(name, Bounds { lo: 1, hi: Some(3) }),
            2 => b.primary_bounded(name, Bounds { lo: 2, hi: Some(2) }),
            3 => b.primary_bounded(name, Bounds { lo: 1, hi: None }),
            _ => b.primary([name]),
        };
    }
    b.secondary((0..ns).map(|i| format!("s{i}")));
    for _ in 0..3 + rng.below(12) {
        let mut items = Vec::new();
        for i in 0..np {
            if rng.below(3) == 0 {
                items.push(format!("p{i}"));
            }
        }
        if items.is_empty() {
            items.push(format!("p{}", rng.below(np as u64)));
        }
        for i in 0..ns {
            match rng.below(4) {
                0 => items.push(format!("s{i}")),
                1 => items.push(format!("s{i}:{}", ["red", "blue"][rng.below(2) as usize])),
                _ => {}
            }
        }
        b.option(items);
    }
    b.build()
}

/// The count of `inst` by `task`'s settings.
fn count(inst: &Instance, memo: Memo, threads: usize) -> Result<String, Failure> {
    let task = Task::new(&Request {
        count: true,
        memo,
        threads,
        threads_asked: true,
        ..Request::default()
    })
    .unwrap();
    Ok(match Runner::new(task).run(inst, &mut dlxc::run::Quiet)? {
        Answer::Memo(m) => m.count.to_string(),
        Answer::Searched { outcome, .. } => outcome.stats.solutions.to_string(),
        Answer::Optimized(_) => unreachable!("no objective"),
    })
}

#[test]
fn memo_counts_equal_visiting_counts_on_random_problems() {
    let mut rng = Rng(0x00de_c0de_5eed);
    let mut nonzero = 0;
    for round in 0..4000 {
        let p = random(&mut rng, round % 2 == 1);
        let mut inst = Instance::of_problem(p);
        // Forced options, now and then (clashing ones too).
        if round % 3 == 0 {
            let n = inst.problem().options.len() as u64;
            inst.forced = vec![OptionId(rng.below(n) as u32)];
            if round % 9 == 0 {
                inst.forced.push(OptionId(rng.below(n) as u32));
            }
        }
        let plain = count(&inst, Memo::Off, 1);
        let threads = [1, 2, 8][round % 3];
        let memo = count(&inst, Memo::On, threads);
        match (&plain, &memo) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "round {round}: {:?}", inst.forced),
            (Err(Failure::Clash(a)), Err(Failure::Clash(b))) => {
                assert_eq!((a.first, a.second), (b.first, b.second), "round {round}")
            }
            _ => panic!("round {round}: {plain:?} against {memo:?}"),
        }
        nonzero += usize::from(plain.as_ref().is_ok_and(|c| c != "0"));
        // Every order, and a table so small it fills.
        if inst.forced.is_empty() {
            for order in [Order::Declared, Order::Band, Order::Mrv] {
                for bytes in [1 << 16, 200] {
                    let (c, _) = memo::count(inst.problem(), order, bytes);
                    assert_eq!(
                        Ok(c.to_string()),
                        plain.as_ref().map(String::clone).map_err(|_| ()),
                        "round {round} {order:?} {bytes}"
                    );
                }
            }
        }
    }
    assert!(nonzero > 1000, "only {nonzero} problems had solutions");
}

/// A memo count on `threads` threads, cut into `parts` parts a thread.
fn count_on(p: &Problem, order: Order, bytes: usize, threads: usize, parts: usize) -> memo::Count {
    let limits = Limits {
        max_bytes: bytes,
        ..Limits::default()
    };
    let mut c = Counter::on_threads(p, order, limits, threads).with_parts(parts);
    let n = c.count().unwrap();
    assert_eq!(c.stats(Default::default()).threads, threads as u32);
    n
}

/// The threads share one table and take the parts in turn: whatever the timing, the
/// count is the one-thread count. One part a thread leaves most of the tree to the
/// table the threads share; 64 cut it finer than these small problems go.
#[test]
fn memo_counts_on_threads_equal_one_thread_counts() {
    let mut rng = Rng(0x7ead_5eed);
    for round in 0..1500 {
        let p = random(&mut rng, round % 2 == 1);
        let order = [Order::Declared, Order::Band, Order::Mrv][round % 3];
        let (want, _) = memo::count(&p, order, 1 << 16);
        for threads in [2, 8] {
            for parts in [1, 64] {
                for bytes in [1 << 16, 200] {
                    assert_eq!(
                        count_on(&p, order, bytes, threads, parts),
                        want,
                        "round {round}: {threads} threads, {parts} parts, {bytes} bytes, {p:?}"
                    );
                }
            }
        }
    }
}

/// The shards of a memo count add up to it, for every split 1..=8, on one thread and
/// two, with a table that fills.
#[test]
fn memo_shards_add_up_to_the_count() {
    let mut rng = Rng(0x5a4d_5eed);
    let mut split = 0;
    for round in 0..600 {
        let p = if round % 50 == 0 {
            dominoes(4, 4 + round / 50)
        } else {
            random(&mut rng, round % 2 == 1)
        };
        let order = [Order::Declared, Order::Band, Order::Mrv][round % 3];
        let (want, _) = memo::count(&p, order, 1 << 16);
        for n in 1..=8 {
            let (threads, bytes) = [(1, 1 << 16), (2, 1 << 16), (2, 200)][n % 3];
            let mut sum = memo::Count::Small(0);
            for k in 1..=n {
                let limits = Limits {
                    max_bytes: bytes,
                    ..Limits::default()
                };
                let mut c = Counter::on_threads(&p, order, limits, threads);
                let part = c.count_shard(k, n).unwrap();
                split += usize::from(k > 1 && !part.is_zero());
                sum.add(&part);
            }
            assert_eq!(
                sum, want,
                "round {round}: shards of {n}, {threads} threads, {p:?}"
            );
        }
    }
    // Shards other than the first had solutions of their own, often.
    assert!(split > 30, "only {split} later shards counted anything");
}

/// The dominoes on an r x c board, cells declared row by row.
fn dominoes(rows: usize, cols: usize) -> Problem {
    let mut b = ProblemBuilder::new();
    let cell = |r: usize, c: usize| format!("c{r}_{c}");
    for r in 0..rows {
        b.primary((0..cols).map(|c| cell(r, c)));
    }
    for r in 0..rows {
        for c in 0..cols {
            if c + 1 < cols {
                b.option([cell(r, c), cell(r, c + 1)]);
            }
            if r + 1 < rows {
                b.option([cell(r, c), cell(r + 1, c)]);
            }
        }
    }
    b.build()
}

/// Boards big enough that every thread counts parts (OEIS A004003 and A028469), small
/// ones with a table that fills, and a count on threads cut short by its node limit: a lower
/// bound, and every thread stopped.
#[test]
fn tilings_counted_on_threads_are_exact() {
    for (rows, cols, bytes, want) in [
        (8, 8, 1 << 24, "12988816"),
        (10, 10, 1 << 24, "258584046368"),
        (6, 12, 1 << 24, "106912793"),
        // A table of 16 KiB fills: most states are counted again, as without memo.
        (6, 6, 1 << 14, "6728"),
        (4, 9, 1 << 14, "6336"),
    ] {
        let p = dominoes(rows, cols);
        for threads in [2, 8] {
            for parts in [1, 4, 64] {
                let got = count_on(&p, Order::Declared, bytes, threads, parts);
                assert_eq!(
                    got.to_string(),
                    want,
                    "{rows}x{cols} {threads} {parts} {bytes}"
                );
            }
        }
    }
    let p = dominoes(12, 12);
    let limits = Limits {
        max_bytes: 1 << 24,
        node_limit: Some(20_000),
        ..Limits::default()
    };
    let mut c = Counter::on_threads(&p, Order::Declared, limits, 4).with_parts(2);
    let Err((memo::Stop::Nodes, partial)) = c.count() else {
        panic!("20,000 nodes do not count the 12 x 12 board");
    };
    assert!(partial.to_big() < "53060477521960000".parse::<BigUint>().unwrap());
    // Each thread stops within its next check (1,024 nodes) of the limit.
    let nodes = c.stats(Default::default()).nodes;
    assert!(
        (20_000..20_000 + 5 * 1024).contains(&nodes),
        "{nodes} nodes"
    );
}

/// The 2 x n strip of dominoes, its cells declared column by column.
fn strip(n: usize) -> Problem {
    let mut b = ProblemBuilder::new();
    for c in 0..n {
        b.primary([format!("a{c}"), format!("b{c}")]);
    }
    for c in 0..n {
        b.option([format!("a{c}"), format!("b{c}")]);
        if c + 1 < n {
            b.option([format!("a{c}"), format!("a{}", c + 1)]);
            b.option([format!("b{c}"), format!("b{}", c + 1)]);
        }
    }
    b.build()
}

#[test]
fn strips_count_fibonacci_numbers_past_128_bits() {
    let (mut a, mut b) = (BigUint::from(1u32), BigUint::from(2u32));
    for n in 1..=300 {
        // a = F(n + 1): the tilings of the 2 x n strip.
        let (c, _) = memo::count(&strip(n), Order::Declared, 1 << 24);
        assert_eq!(c.to_big(), a, "2 x {n}");
        let next = &a + &b;
        a = std::mem::replace(&mut b, next);
    }
    assert!(a.bits() > 200);
}

#[test]
fn a_count_past_128_bits_is_refused_by_the_u128_count() {
    let inst = Instance::of_problem(strip(200));
    let Err(Failure::Report(r)) = dlxc::run::count(&inst, 1) else {
        panic!("the count past 2^128 was not refused");
    };
    let text = format!("{}\n{r}\n", miette::Diagnostic::code(&*r).unwrap());
    golden::check(
        Path::new("tests/ui/memo/E0954-count-past-128-bits.txt"),
        &text,
    )
    .unwrap();
    let (whole, complete) = dlxc::run::count_exact(&inst, 1).unwrap();
    assert!(complete);
    assert_eq!(
        whole.to_string(),
        "453973694165307953197296969697410619233826"
    );
}

/// Collects the solutions drawn.
struct Draws(Vec<Vec<OptionId>>);

impl Sink for Draws {
    fn solution(&mut self, chosen: &[OptionId]) -> Flow {
        let mut s = chosen.to_vec();
        s.sort_unstable();
        self.0.push(s);
        Flow::Continue
    }
}

/// A 4 x 4 board of dominoes (36 tilings) with a free cell covered by a monomino or
/// not: a problem with a secondary item, so its solutions are not all the same size.
fn board() -> Problem {
    let mut b = ProblemBuilder::new();
    let cell = |r: usize, c: usize| format!("c{r}{c}");
    for r in 0..4 {
        b.primary((0..4).map(|c| cell(r, c)));
    }
    b.secondary(["extra"]);
    for r in 0..4 {
        for c in 0..4 {
            if c + 1 < 4 {
                b.option([cell(r, c), cell(r, c + 1)]);
            }
            if r + 1 < 4 {
                b.option([cell(r, c), cell(r + 1, c)]);
            }
        }
    }
    b.option([cell(0, 0), "extra".into()]);
    b.build()
}

#[test]
fn samples_are_uniform() {
    let inst = Instance::of_problem(board());
    let total: usize = count(&inst, Memo::Off, 1).unwrap().parse().unwrap();
    let draws = 200 * total;
    let task = Task::new(&Request {
        sample: Some(draws as u64),
        seed: Some(2026),
        ..Request::default()
    })
    .unwrap();
    let mut got = Draws(Vec::new());
    Runner::new(task).run(&inst, &mut got).unwrap();
    assert_eq!(got.0.len(), draws);
    let mut freq = std::collections::BTreeMap::new();
    for s in &got.0 {
        *freq.entry(s.clone()).or_insert(0u64) += 1;
    }
    // Every solution drawn, each a solution (checked by the visiting search).
    assert_eq!(freq.len(), total);
    let mut all = Draws(Vec::new());
    let list = Task::new(&Request {
        all: true,
        ..Request::default()
    })
    .unwrap();
    Runner::new(list).run(&inst, &mut all).unwrap();
    all.0.sort();
    assert_eq!(freq.keys().cloned().collect::<Vec<_>>(), all.0);
    // Chi-square with total - 1 degrees of freedom; the 0.1% point for 36 to 60
    // degrees of freedom is below 2 * df + 30.
    let e = 200.0;
    let chi: f64 = freq.values().map(|&n| (n as f64 - e).powi(2) / e).sum();
    let df = (total - 1) as f64;
    assert!(
        chi < 2.0 * df + 30.0,
        "chi-square {chi} with {df} degrees of freedom"
    );
}

#[test]
fn the_zdd_reads_back_to_the_count() {
    for p in [board(), strip(40), strip(1)] {
        let mut c = Counter::new(
            &p,
            Order::Declared,
            Limits {
                max_bytes: 1 << 24,
                ..Limits::default()
            },
        );
        let n = c.count().unwrap();
        let z = memo::zdd::build(&mut c).unwrap();
        let mut text = Vec::new();
        z.write(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert_eq!(memo::zdd::count_text(&text), Some(n.to_big()), "{text}");
    }
}

/// A memo count that saves its tally (a checkpoint's contents) and is resumed from any
/// tally it saved, or from where a limit cut it, on any number of threads, ends with
/// the uninterrupted count; of the whole problem and of shards, which still add up.
/// Tables that fill make the small boards take many nodes, so limits cut them.
#[test]
fn saved_memo_counts_resume_to_the_whole_count() {
    use std::sync::Mutex;
    use std::time::Duration;
    let mut rng = Rng(0x5a7e_d5ee);
    let boards = [(6, 6), (4, 9), (5, 6), (3, 12)];
    let mut all_cuts = 0;
    for round in 0..40 {
        let (rows, cols) = boards[round % boards.len()];
        let p = dominoes(rows, cols);
        let (want, _) = memo::count(&p, Order::Declared, 1 << 20);
        let n = 1 + round % 4;
        let mut sum = memo::Count::Small(0);
        for k in 1..=n {
            let shard = (n > 1).then_some((k, n));
            let counter = |threads: usize, node_limit: Option<u64>| {
                let limits = Limits {
                    max_bytes: 1 << 12,
                    node_limit,
                    ..Limits::default()
                };
                // A part a shard, 16 for the whole: small boards have parts.
                Counter::on_threads(&p, Order::Declared, limits, threads).with_parts(1)
            };
            // Every tally saved, each part's end (`every` zero).
            let saved = Mutex::new(Vec::new());
            let keep = |t: &memo::Tally| saved.lock().unwrap().push(t.clone());
            let (whole, last) = counter(1 + round % 3, None)
                .count_saving(shard, None, Duration::ZERO, &keep)
                .unwrap();
            let whole = whole.unwrap();
            assert_eq!(
                last.done.len(),
                last.done
                    .iter()
                    .collect::<std::collections::BTreeSet<_>>()
                    .len()
            );
            let saved = saved.into_inner().unwrap();
            assert!(!saved.is_empty(), "round {round}: nothing saved");
            // Resumed from a tally saved on the way.
            let from = saved[rng.below(saved.len() as u64) as usize].clone();
            let (again, _) = counter([1, 2, 8][round % 3], None)
                .count_saving(shard, Some(from), Duration::MAX, &|_| {})
                .unwrap();
            assert_eq!(
                again.unwrap(),
                whole,
                "round {round}: shard {k}/{n} resumed"
            );
            // Cut by a node limit again and again, each run resuming the last.
            let mut tally = None;
            let mut limit = 1500 + rng.below(3000);
            let mut cuts = 0;
            let got = loop {
                let (c, t) = counter([2, 1, 8][round % 3], Some(limit))
                    .count_saving(shard, tally.take(), Duration::MAX, &|_| {})
                    .unwrap();
                match c {
                    Ok(c) => break c,
                    Err((memo::Stop::Nodes, lower)) => {
                        assert!(lower.to_big() <= whole.to_big());
                        cuts += 1;
                        tally = Some(t);
                        limit = limit * 3 / 2;
                    }
                    Err(e) => panic!("round {round}: {e:?}"),
                }
            };
            assert_eq!(got, whole, "round {round}: shard {k}/{n} after {cuts} cuts");
            all_cuts += cuts;
            sum.add(&whole);
        }
        assert_eq!(sum, want, "round {round}: {rows}x{cols} in {n} shards");
    }
    // The limits cut the counts, and the tallies took them on.
    assert!(all_cuts > 40, "only {all_cuts} cuts");
}

/// A tally made for another cut, or damaged so that it would count a part twice or
/// count another shard's, is refused; it never resumes to a wrong count.
#[test]
fn tallies_of_another_cut_are_refused() {
    use std::time::Duration;
    let p = dominoes(4, 6);
    let counter = || Counter::new(&p, Order::Declared, Limits::default()).with_parts(2);
    let (_, t) = counter()
        .count_saving(Some((2, 3)), None, Duration::MAX, &|_| {})
        .unwrap();
    assert!(t.done.len() > 2, "{t:?}");
    let refused = |shard: Option<(usize, usize)>, t: memo::Tally| {
        counter()
            .count_saving(shard, Some(t), Duration::MAX, &|_| {})
            .err()
    };
    // Another number of shards, another shard, the whole count.
    assert!(refused(Some((2, 4)), t.clone()).is_some());
    assert!(
        refused(Some((1, 3)), t.clone())
            .unwrap()
            .contains("not one of this count's")
    );
    assert!(refused(None, t.clone()).is_some());
    let mut twice = t.clone();
    twice.done.push(*t.done.last().unwrap());
    assert!(refused(Some((2, 3)), twice).unwrap().contains("increasing"));
    let mut other = t.clone();
    other.parts += 1;
    assert!(refused(Some((2, 3)), other).is_some());
    // The tally as saved resumes to itself: nothing left to count.
    let (c, again) = counter()
        .count_saving(Some((2, 3)), Some(t.clone()), Duration::MAX, &|_| {})
        .unwrap();
    assert_eq!(c.unwrap(), t.counted);
    assert_eq!(again, t);
}
