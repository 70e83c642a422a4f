//! Knuth's estimate of the size of a search tree, by random probes.
//!
//! A probe walks from the root to a leaf, taking at each node one of the `d` options
//! the search would try, uniformly at random. The node at depth `k` stands for the
//! product of the branchings above it, and the sum of these products along the path is
//! an unbiased estimate of the number of nodes (Knuth, "Estimating the efficiency of
//! backtrack programs", 1975; TAOCP 7.2.2). A leaf that is a solution likewise
//! estimates the number of solutions. The mean over many probes converges slowly on
//! unbalanced trees, so the estimate comes with the standard error of the mean.

use crate::clock::Instant;
use std::time::Duration;

use super::{Clash, Solver};
use crate::problem::OptionId;

/// A mean over probes, and its standard error.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Mean {
    /// The estimate.
    pub mean: f64,
    /// The standard error of the mean: the spread of the estimate.
    pub std_error: f64,
}

/// Knuth's estimate of a tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Probes made.
    pub probes: usize,
    /// Estimated nodes (counted as `--stats` counts them).
    pub nodes: Mean,
    /// Estimated solutions.
    pub solutions: Mean,
}

/// How many probes to make.
#[derive(Clone, Copy, Debug)]
pub enum Probes {
    /// Exactly this many.
    Count(usize),
    /// As many as fit in this time (at least 100, at most a million).
    Within(Duration),
}

/// Estimates the tree under `forced` with probes drawn from `seed`; `None` when the
/// engine cannot probe (only dancing cells and bitsets can). The same seed gives the same estimate.
pub fn estimate(
    solver: &mut Solver,
    forced: &[OptionId],
    probes: Probes,
    seed: u64,
) -> Option<Result<Estimate, Clash>> {
    let mut rng = SplitMix(seed);
    let mut pick = |d: usize| rng.below(d);
    let (mut nodes, mut solutions) = (Moments::default(), Moments::default());
    let start = Instant::now();
    loop {
        let enough = match probes {
            Probes::Count(n) => nodes.n >= n,
            Probes::Within(t) => nodes.n >= 1_000_000 || (nodes.n >= 100 && start.elapsed() >= t),
        };
        if enough {
            break;
        }
        match solver.probe(forced, &mut pick)? {
            Ok((n, s)) => {
                nodes.add(n);
                solutions.add(s);
            }
            Err(c) => return Some(Err(c)),
        }
    }
    Some(Ok(Estimate {
        probes: nodes.n,
        nodes: nodes.mean(),
        solutions: solutions.mean(),
    }))
}

/// Running sums for a mean and its standard error.
#[derive(Default)]
struct Moments {
    n: usize,
    sum: f64,
    sum_sq: f64,
}

impl Moments {
    fn add(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }

    fn mean(&self) -> Mean {
        if self.n == 0 {
            return Mean::default();
        }
        let n = self.n as f64;
        let mean = self.sum / n;
        let variance = if self.n > 1 {
            ((self.sum_sq - n * mean * mean) / (n - 1.0)).max(0.0)
        } else {
            0.0
        };
        Mean {
            mean,
            std_error: (variance / n).sqrt(),
        }
    }
}

/// SplitMix64: a small, good generator, the same everywhere, so a seed repeats.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..d` (Lemire's multiply-shift; the bias is below 2^-32 for the
    /// branchings of a search).
    fn below(&mut self, d: usize) -> usize {
        ((u128::from(self.next()) * d as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::ProblemBuilder;
    use crate::solve::{Flow, SearchConfig};

    /// Every solution of four items covered by singletons and pairs.
    fn small() -> crate::problem::Problem {
        let mut b = ProblemBuilder::new();
        b.primary(["a", "b", "c", "d"]);
        for o in [
            &["a"][..],
            &["b"],
            &["c"],
            &["d"],
            &["a", "b"],
            &["c", "d"],
            &["a", "c"],
            &["b", "d"],
        ] {
            b.option(o.iter().copied());
        }
        b.build()
    }

    #[test]
    fn the_estimate_converges_on_the_true_counts() {
        let p = small();
        let mut solver = Solver::new(&p).unwrap();
        let config = SearchConfig {
            count_only: true,
            ..SearchConfig::default()
        };
        let exact = solver
            .search(&[], &config, &mut |_| Flow::Continue)
            .unwrap();
        let e = estimate(&mut solver, &[], Probes::Count(20_000), 7)
            .unwrap()
            .unwrap();
        assert_eq!(e.probes, 20_000);
        let close = |m: Mean, want: f64| (m.mean - want).abs() <= 4.0 * m.std_error.max(0.01);
        assert!(
            close(e.solutions, exact.stats.solutions as f64),
            "{e:?} vs {exact:?}"
        );
        assert!(
            close(e.nodes, exact.stats.nodes as f64),
            "{e:?} vs {exact:?}"
        );
        // The same seed gives the same estimate; another seed another one.
        let again = estimate(&mut solver, &[], Probes::Count(20_000), 7);
        assert_eq!(again.unwrap().unwrap(), e);
        let other = estimate(&mut solver, &[], Probes::Count(20_000), 8);
        assert_ne!(other.unwrap().unwrap(), e);
    }

    #[test]
    fn a_tree_with_one_path_is_estimated_exactly() {
        let mut b = ProblemBuilder::new();
        b.primary(["a", "b"]);
        b.option(["a"]);
        b.option(["b"]);
        let mut solver = Solver::new(&b.build()).unwrap();
        let e = estimate(&mut solver, &[], Probes::Count(10), 1)
            .unwrap()
            .unwrap();
        assert_eq!(e.solutions.mean, 1.0);
        assert_eq!(e.solutions.std_error, 0.0);
        assert_eq!(e.nodes.mean, 3.0);
    }
}
