//! The solutions as a ZDD, in the text format of Knuth's ZDD programs.
//!
//! The memo search is a decision diagram already: a state, its options and the
//! states they lead to. A ZDD has one variable an option, and its variables must come
//! in one order on every path; the declared and band orders give one, since the item
//! branched on only moves forward: option `o` of the item at position `p` is variable
//! (the options of the items before `p`) + (its place in `p`'s list). A state with
//! item `p` becomes a chain of nodes, one for each option that fits and leads to a
//! solution: `hi` to the state the option leaves, `lo` to the next option of the
//! chain (or, with multiplicities, to the state where the item is closed, or to 0).
//! Equal nodes are merged.
//!
//! The file is what Knuth's ZDDREAD programs read (and his DLX6 writes): a node a
//! line, `id: (~v?lo:hi)`, the ids in hexadecimal and the variable `v` (from 0) in
//! decimal; 0 and 1 are the sinks (the empty family and the family of the empty set),
//! and the root is the node of least variable, here node 2, written first, every
//! node's children after it. A count with no solution is the one node `2: (~0?0:0)`,
//! one whose only solution is empty `2: (~0?1:0)`.

use std::collections::HashMap;
use std::io::{self, Write};

use super::{Branch, Counter, Order, Step};
use crate::problem::OptionId;

/// A ZDD of the solutions: its nodes (variable, lo, hi) and its root.
pub struct Zdd {
    /// The option of each variable (from 0).
    pub vars: Vec<OptionId>,
    /// The nodes: variable, lo, hi. Ids 0 and 1 are the sinks; node `k` of the vector
    /// is id `k + 2`.
    pub nodes: Vec<(u32, u64, u64)>,
    /// The root's id.
    pub root: u64,
}

/// How often (new nodes and states) the builder looks at the memory budget.
const CHECK_EVERY: usize = 1 << 12;

/// The ZDD did not fit in the memory budget (`--max-memory`): its nodes so far.
#[derive(Clone, Copy, Debug)]
pub struct TooBig {
    /// Nodes built when the budget was used up.
    pub nodes: usize,
}

/// Builds the ZDD of a counter whose count has run to its end (with the declared or
/// band order), within the memory budget: its nodes and the states it has met grow
/// with the diagram, which may be far larger than the memo table.
pub fn build(counter: &mut Counter) -> Result<Zdd, TooBig> {
    assert!(
        counter.layout.order != Order::Mrv,
        "a ZDD needs a fixed item order"
    );
    let np = counter.layout.primaries.len();
    let mut rank = vec![u32::MAX; counter.layout.option.len()];
    let mut vars = Vec::new();
    for list in &counter.layout.lists[..np] {
        for &o in list {
            rank[o as usize] = vars.len() as u32;
            vars.push(counter.layout.option(o));
        }
    }
    let mut b = Builder {
        rank,
        nodes: Vec::new(),
        unique: HashMap::new(),
        states: HashMap::new(),
        next_check: CHECK_EVERY,
        too_big: false,
    };
    counter.cur.copy_from_slice(&counter.layout.init);
    let root = b.state(counter, 0);
    if b.too_big {
        return Err(TooBig {
            nodes: b.nodes.len(),
        });
    }
    Ok(Zdd {
        vars,
        nodes: b.nodes,
        root,
    })
}

struct Builder {
    rank: Vec<u32>,
    nodes: Vec<(u32, u64, u64)>,
    unique: HashMap<(u32, u64, u64), u64>,
    states: HashMap<Vec<u64>, u64>,
    /// When (nodes and states together) to look at the budget next.
    next_check: usize,
    /// Whether the budget was used up: the build unwinds, its result dropped.
    too_big: bool,
}

impl Builder {
    fn node(&mut self, var: u32, lo: u64, hi: u64) -> u64 {
        if hi == 0 {
            return lo;
        }
        *self.unique.entry((var, lo, hi)).or_insert_with(|| {
            self.nodes.push((var, lo, hi));
            self.nodes.len() as u64 + 1
        })
    }

    /// Whether the budget is used up, looked at every [`CHECK_EVERY`] entries.
    fn over_budget(&mut self) -> bool {
        let entries = self.nodes.len() + self.states.len();
        if entries >= self.next_check {
            self.next_check = entries + CHECK_EVERY;
            self.too_big = crate::lower::budget::exceeded();
        }
        self.too_big
    }

    /// The node of the state in the counter's `cur` (0 once the budget is used up).
    fn state(&mut self, c: &mut Counter, from: u32) -> u64 {
        let (pos, list, start, finish) = match c.layout.step(&c.cur, from) {
            Step::Solved => return 1,
            Step::Branch {
                pos,
                list,
                start,
                finish,
            } => (pos, list, start, finish),
        };
        if let Some(&id) = self.states.get(&c.cur) {
            return id;
        }
        if self.over_budget() {
            return 0;
        }
        let key = c.cur.clone();
        let mut his = Vec::new();
        let len = c.layout.list(list).len() as u32;
        for k in start..len {
            let o = c.layout.list(list)[k as usize];
            if !c.layout.fits(o, &c.cur) {
                continue;
            }
            c.layout.follow(&mut c.cur, pos, k, Branch::Take(o));
            let hi = if c.count_here(pos).is_zero() {
                0
            } else {
                self.state(c, pos)
            };
            c.cur.copy_from_slice(&key);
            if hi != 0 {
                his.push((self.rank[o as usize], hi));
            }
        }
        let mut lo = 0;
        if finish {
            c.layout.follow(&mut c.cur, pos, 0, Branch::Finish);
            lo = self.state(c, pos);
            c.cur.copy_from_slice(&key);
        }
        for &(var, hi) in his.iter().rev() {
            lo = self.node(var, lo, hi);
        }
        self.states.insert(key, lo);
        lo
    }
}

impl Zdd {
    /// Writes the ZDD in the text format of Knuth's ZDDREAD programs (see the module's
    /// docs).
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        if self.root < 2 {
            // A family with no set, or only the empty set: one node whose branches
            // say so (Knuth's readers take the node of least variable as the root).
            return writeln!(out, "2: (~0?{:x}:0)", self.root);
        }
        // Numbered level by level, the root first.
        let mut order: Vec<usize> = (0..self.nodes.len()).collect();
        let root = (self.root - 2) as usize;
        order.sort_by_key(|&k| (self.nodes[k].0, k != root, k));
        let mut id = vec![0u64; self.nodes.len()];
        for (n, &k) in order.iter().enumerate() {
            id[k] = n as u64 + 2;
        }
        let map = |x: u64| if x < 2 { x } else { id[(x - 2) as usize] };
        for &k in &order {
            let (var, lo, hi) = self.nodes[k];
            writeln!(out, "{:x}: (~{var}?{:x}:{:x})", id[k], map(lo), map(hi))?;
        }
        Ok(())
    }
}

/// The number of sets in a ZDD in the text format of Knuth's ZDDREAD programs, as
/// [`Zdd::write`] writes it (and DLX6 does): for tests, and for anyone who reads one
/// back. `None` when the text is not such a file (a line of another form, a node
/// defined twice, a child that is not defined, a cycle).
pub fn count_text(text: &str) -> Option<num_bigint::BigUint> {
    use num_bigint::BigUint;
    use std::collections::HashMap;
    let mut nodes: HashMap<u64, (u64, u64, u64)> = HashMap::new();
    for l in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (id, rest) = l.split_once(": (~")?;
        let (var, rest) = rest.split_once('?')?;
        let (lo, hi) = rest.strip_suffix(')')?.split_once(':')?;
        let hex = |s: &str| u64::from_str_radix(s.trim(), 16).ok();
        let node = (var.trim().parse().ok()?, hex(lo)?, hex(hi)?);
        if nodes.insert(hex(id)?, node).is_some() {
            return None;
        }
    }
    // The root: the node of least variable, as Knuth's readers take it.
    let (&root, _) = nodes.iter().min_by_key(|&(&id, &(v, _, _))| (v, id))?;
    // Counted children first, without recursion: a node is counted once its children
    // are; one met again while open is a cycle.
    let mut count: HashMap<u64, BigUint> = HashMap::new();
    count.insert(0, BigUint::ZERO);
    count.insert(1, BigUint::from(1u32));
    let mut open = std::collections::HashSet::new();
    let mut stack = vec![root];
    while let Some(&x) = stack.last() {
        if count.contains_key(&x) {
            stack.pop();
            continue;
        }
        let &(_, lo, hi) = nodes.get(&x)?;
        let waiting: Vec<u64> = [lo, hi]
            .into_iter()
            .filter(|c| !count.contains_key(c))
            .collect();
        if waiting.is_empty() {
            let c = &count[&lo] + &count[&hi];
            count.insert(x, c);
            open.remove(&x);
            stack.pop();
        } else {
            if !open.insert(x) {
                return None;
            }
            stack.extend(waiting);
        }
    }
    count.remove(&root)
}

#[cfg(test)]
mod tests {
    use super::count_text;
    use num_bigint::BigUint;

    #[test]
    fn knuths_text_is_counted_and_bad_text_refused() {
        let n = |k: u32| Some(BigUint::from(k));
        // {a}, {b}: a node of a with lo to a node of b.
        assert_eq!(count_text("2: (~0?3:1)\n3: (~1?0:1)\n"), n(2));
        // Written in any order: the root is the node of least variable.
        assert_eq!(count_text("3: (~1?0:1)\n2: (~0?3:1)\n"), n(2));
        assert_eq!(count_text("2: (~0?0:0)\n"), n(0));
        assert_eq!(count_text("2: (~0?1:0)\n"), n(1));
        // A child never defined, a node defined twice, a cycle, another format.
        assert_eq!(count_text("2: (~0?3:1)\n"), None);
        assert_eq!(count_text("2: (~0?0:1)\n2: (~0?0:1)\n"), None);
        assert_eq!(count_text("2: (~0?3:1)\n3: (~1?2:1)\n"), None);
        assert_eq!(count_text("#1\n2:0,1\n"), None);
        assert_eq!(count_text(""), None);
    }
}
