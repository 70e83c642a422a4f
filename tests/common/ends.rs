//! Every way a search can end, on one solver, each followed by a check that the
//! structure is as the search found it: shared by the engine tests. Needs the test
//! crate's `rng` module (`tests/common/rng.rs`).

use dlxc::problem::OptionId;
use dlxc::solve::{End, Flow, SearchConfig, Solver};

use crate::rng::Rng;

/// How many times each kind of early end happened over the calls of [`every_end`].
#[derive(Debug, Default)]
pub struct Ends {
    /// Forced options that clashed.
    pub clashes: usize,
    /// Solution counts at which the visitor and `max_solutions` stopped a search.
    pub stops: usize,
    /// Node limits that cut a search short.
    pub cuts: usize,
}

/// The forced option sets to try on a problem of `m` options: none, one, and two drawn by
/// `rng` (perhaps the same option, perhaps clashing).
pub fn forced_sets(rng: &mut Rng, m: u64) -> Vec<Vec<OptionId>> {
    let mut sets = vec![vec![]];
    if m > 0 {
        sets.push(vec![OptionId(rng.below(m) as u32)]);
        sets.push(vec![
            OptionId(rng.below(m) as u32),
            OptionId(rng.below(m) as u32),
        ]);
    }
    sets
}

/// Ends searches of `s` with `forced` in every way: exhausted, a clash among the forced
/// options, stopped by the visitor and by `max_solutions` (counting or not) at each of
/// the first 6 solutions and a spread of later ones, cut by the node limit at each of
/// the first 40 nodes and a spread of later ones. Asserts that each left the structure
/// as `pristine` and that the search after all that finds what the first one found.
/// `at` names the case in failure messages.
///
/// `reorders`: the solver leaves its sets permuted (dancing cells without its pristine
/// copy, as for large problems), so a later search may take fewer nodes than the first
/// and find the same solutions in another order.
pub fn every_end(
    s: &mut Solver,
    forced: &[OptionId],
    pristine: u64,
    reorders: bool,
    at: &str,
    ends: &mut Ends,
) {
    let at = |what: &str| format!("{at}, forced {forced:?}, {what}: the structure changed");
    let mut first = Vec::new();
    let full = s.search(forced, &SearchConfig::default(), &mut |x| {
        first.push(x.to_vec());
        Flow::Continue
    });
    assert_eq!(s.structure_fingerprint(), pristine, "{}", at("full"));
    let Ok(full) = full else {
        ends.clashes += 1;
        return;
    };
    assert_eq!(full.end, End::Exhausted);
    let solutions = full.stats.solutions;
    let ks = (1..=solutions.min(6)).chain((7..=solutions).step_by(solutions as usize / 10 + 1));
    for k in ks {
        let mut seen = 0;
        let out = s
            .search(forced, &SearchConfig::default(), &mut |_| {
                seen += 1;
                if seen == k {
                    Flow::Stop
                } else {
                    Flow::Continue
                }
            })
            .unwrap();
        assert_eq!(out.end, End::Stopped);
        assert_eq!(s.structure_fingerprint(), pristine, "{}", at("stop"));
        for count_only in [false, true] {
            let cfg = SearchConfig {
                max_solutions: Some(k),
                count_only,
                ..SearchConfig::default()
            };
            let out = s.search(forced, &cfg, &mut |_| Flow::Continue).unwrap();
            assert_eq!((out.end, out.stats.solutions), (End::Stopped, k));
            assert_eq!(s.structure_fingerprint(), pristine, "{}", at("max"));
        }
        ends.stops += 1;
    }
    let nodes = full.stats.nodes;
    let limits = (0..nodes.min(40)).chain((40..nodes).step_by(nodes as usize / 20 + 1));
    for limit in limits {
        let cfg = SearchConfig {
            node_limit: Some(limit),
            ..SearchConfig::default()
        };
        let out = s.search(forced, &cfg, &mut |_| Flow::Continue).unwrap();
        assert!(matches!(out.end, End::Cut(_)) || reorders, "{}", at("cut"));
        assert_eq!(
            s.structure_fingerprint(),
            pristine,
            "{} (node limit {limit})",
            at("cut")
        );
        ends.cuts += 1;
    }
    let mut again = Vec::new();
    s.search(forced, &SearchConfig::default(), &mut |x| {
        again.push(x.to_vec());
        Flow::Continue
    })
    .unwrap();
    if reorders {
        for x in again.iter_mut().chain(first.iter_mut()) {
            x.sort();
        }
        again.sort();
        first.sort();
    }
    assert_eq!(again, first, "{}", at("the search after"));
}
