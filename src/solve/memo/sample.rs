//! Uniform random solutions, drawn by the memo counts.
//!
//! A solution is a path down the memo search: at each state, a branch is taken with
//! probability (solutions below it) / (solutions of the state), both exact counts, so
//! every solution is drawn with probability exactly 1 / (all solutions). The counts
//! come from the table (a count the table had no room for is counted again, just as
//! exactly), and the random numbers below a count are drawn without bias: Lemire's
//! multiply-and-reject below 2^64, rejection on random bits past it.

use num_bigint::BigUint;

use super::{Branch, Count, Counter, Step};
use crate::problem::OptionId;

/// SplitMix64 (Steele, Lea and Flood): small, fast and good enough for drawing
/// branches; the same seed gives the same draws on every machine.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number uniformly in `0..n` (`n > 0`), by Lemire's method.
    pub fn below(&mut self, n: u64) -> u64 {
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// A number uniformly in `0..n` (`n > 0`) of any size: random bits as many as
    /// `n` has, drawn again while they reach `n` (fewer than two tries on average).
    pub fn below_big(&mut self, n: &BigUint) -> BigUint {
        let bits = n.bits();
        let words = bits.div_ceil(64) as usize;
        let top = bits % 64;
        loop {
            let mut w: Vec<u64> = (0..words).map(|_| self.next_u64()).collect();
            if top != 0 {
                w[words - 1] &= (1 << top) - 1;
            }
            let x = BigUint::from_slice(
                &w.iter()
                    .flat_map(|&x| [x as u32, (x >> 32) as u32])
                    .collect::<Vec<u32>>(),
            );
            if &x < n {
                return x;
            }
        }
    }
}

/// Draws solutions from a counter whose count has run to its end.
pub struct Sampler<'c> {
    counter: &'c mut Counter,
    rng: SplitMix,
    /// The branches of a state and their counts, reused.
    branches: Vec<(u32, Branch, Count)>,
}

impl<'c> Sampler<'c> {
    /// A sampler over `counter` (counted), seeded with `seed`.
    pub fn new(counter: &'c mut Counter, seed: u64) -> Sampler<'c> {
        Sampler {
            counter,
            rng: SplitMix::new(seed),
            branches: Vec::new(),
        }
    }

    /// Draws one solution into `out` (the problem's options, in the order chosen);
    /// the problem must have one.
    pub fn draw(&mut self, out: &mut Vec<OptionId>) {
        out.clear();
        let c = &mut *self.counter;
        c.cur.copy_from_slice(&c.layout.init);
        let mut from = 0;
        let width = c.layout.width;
        let mut saved = vec![0u64; width];
        loop {
            let (pos, list, start, finish) = match c.layout.step(&c.cur, from) {
                Step::Solved => return,
                Step::Branch {
                    pos,
                    list,
                    start,
                    finish,
                } => (pos, list, start, finish),
            };
            self.branches.clear();
            let mut total = Count::Small(0);
            let len = c.layout.list(list).len() as u32;
            saved.copy_from_slice(&c.cur);
            for k in start..len {
                let o = c.layout.list(list)[k as usize];
                if !c.layout.fits(o, &c.cur) {
                    continue;
                }
                c.layout.follow(&mut c.cur, pos, k, Branch::Take(o));
                let n = c.count_here(pos);
                c.cur.copy_from_slice(&saved);
                if !n.is_zero() {
                    total.add(&n);
                    self.branches.push((k, Branch::Take(o), n));
                }
            }
            if finish {
                c.layout.follow(&mut c.cur, pos, 0, Branch::Finish);
                let n = c.count_here(pos);
                c.cur.copy_from_slice(&saved);
                if !n.is_zero() {
                    total.add(&n);
                    self.branches.push((0, Branch::Finish, n));
                }
            }
            let pick = match &total {
                Count::Small(t) => {
                    let mut r = self.rng.below(*t);
                    self.branches
                        .iter()
                        .position(|(_, _, n)| {
                            let n = match n {
                                Count::Small(n) => *n,
                                Count::Big(_) => unreachable!("a part is below the whole"),
                            };
                            if r < n {
                                true
                            } else {
                                r -= n;
                                false
                            }
                        })
                        .expect("the draw is below the total")
                }
                Count::Big(t) => {
                    let mut r = self.rng.below_big(t);
                    self.branches
                        .iter()
                        .position(|(_, _, n)| {
                            let n = n.to_big();
                            if r < n {
                                true
                            } else {
                                r -= n;
                                false
                            }
                        })
                        .expect("the draw is below the total")
                }
            };
            let (k, branch, _) = self.branches[pick].clone();
            if let Branch::Take(o) = branch {
                out.push(c.layout.option(o));
            }
            c.layout.follow(&mut c.cur, pos, k, branch);
            from = pos;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_below_the_bound() {
        let mut r = SplitMix::new(1);
        let mut seen = [0u32; 3];
        for _ in 0..3000 {
            seen[r.below(3) as usize] += 1;
        }
        assert!(seen.iter().all(|&s| s > 900), "{seen:?}");
        let n = BigUint::from(u64::MAX) * 5u32 + 7u32;
        for _ in 0..100 {
            assert!(r.below_big(&n) < n);
        }
    }
}
