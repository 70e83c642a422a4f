//! The reference the optimizing searches are checked against: every subset of the
//! options of a small problem, tried one by one (`#[path]`-included).

#![allow(dead_code)] // each test binary uses a different part of this helper

use dlxc::problem::{ItemKind, OptionId, Problem};

/// A cover found by [`covers`]: its options sorted, how many there are, their cost.
pub type Cover = (Vec<u32>, i64, i64);

/// Every valid subset of the options (fewer than 32) containing `forced`, in the order
/// of their bit masks. Valid: each primary item covered within its bounds, each
/// secondary item either claimed by one option without a color or given one color by
/// all the options that have it, and every option that is not forced covering a
/// primary item (the searches choose options only from the lists of primary items).
pub fn covers(p: &Problem, forced: &[OptionId]) -> Vec<Cover> {
    let n = p.options.len();
    let forced_mask: u32 = forced.iter().map(|o| 1u32 << o.0).sum();
    let mut out = Vec::new();
    'subsets: for s in 0u32..(1 << n) {
        if s & forced_mask != forced_mask {
            continue;
        }
        let mut times = vec![0u32; p.items.len()];
        // Per secondary item: claimed outright, or the color given.
        let mut plain = vec![false; p.items.len()];
        let mut color = vec![None; p.items.len()];
        let mut cost = 0;
        for k in 0..n {
            if s >> k & 1 == 0 {
                continue;
            }
            let opt = p.options.get(k);
            if forced_mask >> k & 1 == 0
                && !opt.entries.iter().any(|e| p.item(e.item).kind.is_primary())
            {
                continue 'subsets;
            }
            cost += opt.cost.unwrap_or(0);
            for e in opt.entries {
                let i = e.item.index();
                times[i] += 1;
                match e.color {
                    None => plain[i] = true,
                    Some(c) => {
                        if color[i].is_some_and(|had| had != c) {
                            continue 'subsets;
                        }
                        color[i] = Some(c);
                    }
                }
            }
        }
        for (i, item) in p.items.iter().enumerate() {
            let ok = match item.kind {
                ItemKind::Primary { bounds } => {
                    times[i] >= bounds.lo && bounds.hi.is_none_or(|h| times[i] <= h)
                }
                ItemKind::Secondary => !plain[i] || times[i] == 1,
            };
            if !ok {
                continue 'subsets;
            }
        }
        let list: Vec<u32> = (0..n as u32).filter(|k| s >> k & 1 == 1).collect();
        out.push((list, s.count_ones() as i64, cost));
    }
    out
}

/// A solution as its option numbers, sorted: how [`covers`] lists it.
pub fn sorted(sol: &[OptionId]) -> Vec<u32> {
    let mut v: Vec<u32> = sol.iter().map(|o| o.0).collect();
    v.sort_unstable();
    v
}
