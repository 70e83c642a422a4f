//! `dlxc solve` on Knuth's DLX5 files (options with `|n` costs): optimized for the least
//! total cost, never searched as plain exact cover. Checked against a brute force over
//! every subset of options on random problems.

mod common {
    pub mod cli;
}
#[path = "common/rng.rs"]
mod rng;

use common::cli::{dlxc, temp_file};
use rng::Rng;

/// A random DLX5 problem: its text, and per option (item mask, cost).
fn random_dlx5(seed: u64) -> (String, u32, Vec<(u32, i64)>) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let n = 2 + rng.below(6) as u32;
    let names: Vec<String> = (0..n).map(|i| format!("i{i}")).collect();
    let mut text = names.join(" ") + "\n";
    let mut options = Vec::new();
    for _ in 0..(1 + rng.below(12)) {
        let mut mask = 0u32;
        for _ in 0..(1 + rng.below(3)) {
            mask |= 1 << rng.below(u64::from(n));
        }
        let cost = rng.below(10) as i64;
        let items: Vec<&str> = (0..n)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| names[i as usize].as_str())
            .collect();
        text += &format!("{} |{cost}\n", items.join(" "));
        options.push((mask, cost));
    }
    (text, (1 << n) - 1, options)
}

/// The least total cost of an exact cover, and how many covers reach it.
fn brute_force(full: u32, options: &[(u32, i64)]) -> Option<(i64, usize)> {
    let mut best: Option<(i64, usize)> = None;
    for subset in 0u32..(1 << options.len()) {
        let (mut used, mut cost, mut ok) = (0u32, 0i64, true);
        for (k, &(mask, c)) in options.iter().enumerate() {
            if subset & (1 << k) != 0 {
                ok &= used & mask == 0;
                used |= mask;
                cost += c;
            }
        }
        if ok && used == full {
            best = match best {
                Some((b, _)) if cost > b => best,
                Some((b, k)) if cost == b => Some((b, k + 1)),
                _ => Some((cost, 1)),
            };
        }
    }
    best
}

#[test]
fn least_cost_and_the_number_of_optimal_covers_match_brute_force() {
    let mut solvable = 0;
    for seed in 0..60 {
        let (text, full, options) = random_dlx5(seed);
        let file = temp_file("random.dlx5", &text);
        let path = file.to_str().unwrap();
        let value = dlxc(&["solve", "--value", path]);
        let count = dlxc(&["solve", "--count", path]);
        match brute_force(full, &options) {
            Some((cost, covers)) => {
                solvable += 1;
                assert_eq!(
                    value.stdout.trim(),
                    cost.to_string(),
                    "seed {seed}:\n{text}"
                );
                assert_eq!(value.code, 0, "seed {seed}");
                assert_eq!(
                    count.stdout.trim(),
                    covers.to_string(),
                    "seed {seed}:\n{text}"
                );
            }
            None => assert_eq!(value.code, 1, "seed {seed}: {}", value.stdout),
        }
    }
    assert!(solvable > 15, "only {solvable} problems had a cover");
}

#[test]
fn a_dlx5_file_prints_its_optimum_then_a_cheapest_cover() {
    let file = temp_file("t.dlx5", "a b c\na b |5\nc |1\na |1\nb |1\nb c |1\n");
    let r = dlxc(&["solve", file.to_str().unwrap()]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "minimum cost: 2\na\nb c\n")
    );
}

/// `--best K` lists the costs DLX5 lists with `kK` (recorded from Knuth's program on
/// these files, which `benches/instances/costs.py` made: the shared `queens_08.dlx`
/// with seed 7, and `wordrect_4x4_60_1.dlx` of `benches/instances/gen.py`, colored, with
/// seed 3), on one thread and on two.
#[test]
fn the_k_best_costs_are_those_dlx5_lists() {
    for (file, k, dlx5) in [
        (
            "tests/fixtures/queens_08_cost.dlx5",
            "12",
            "21 22 23 24 25 26 26 27 27 27 27 29",
        ),
        (
            "tests/fixtures/wordrect_4x4_cost.dlx5",
            "10",
            "18 18 24 24 26 26 28 30 30 30",
        ),
    ] {
        for threads in ["1", "2"] {
            let r = dlxc(&["solve", file, "--best", k, "--value", "--threads", threads]);
            assert_eq!((r.code, r.stdout.trim()), (0, dlx5), "{file} {threads}");
        }
        // The listing shows each solution after its rank and cost, cheapest first.
        let r = dlxc(&["solve", file, "--best", k]);
        let costs: Vec<&str> = r
            .stdout
            .lines()
            .filter_map(|l| l.strip_prefix('#'))
            .map(|l| l.split(' ').nth(2).unwrap_or("").trim_end_matches(':'))
            .collect();
        assert_eq!(costs.join(" "), dlx5, "{file}");
    }
}

/// `--best` is refused where it cannot apply, with what to do instead.
#[test]
fn best_is_refused_without_an_objective_and_with_other_listings() {
    let plain = temp_file("plain.dlx", "a b\na\nb\na b\n");
    let costs = temp_file("costs.dlx5", "a b\na |1\nb |2\na b |4\n");
    for (file, args, says) in [
        (&plain, vec!["--best", "2"], "this problem has none"),
        (&costs, vec!["--best", "2", "--all"], "--best with --all"),
        (
            &costs,
            vec!["--best", "2", "--count"],
            "--best with --count",
        ),
        (&costs, vec!["--best", "0"], "--best 0"),
    ] {
        let mut all = vec!["solve", file.to_str().unwrap()];
        all.extend(args.iter().copied());
        let r = dlxc(&all);
        assert_eq!(r.code, 2, "{args:?}");
        assert!(
            r.stderr.contains("E0922") && r.stderr.contains(says),
            "{args:?}: {}",
            r.stderr
        );
    }
    let r = dlxc(&["solve", costs.to_str().unwrap(), "--best", "5"]);
    // Two covers only: both, in order of cost.
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "minimum cost: 3\n#1 cost 3:\na\nb\n\n#2 cost 4:\na b\n")
    );
}
