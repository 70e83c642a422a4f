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
//! The file is what Knuth's ZDD programs write (and SAPPOROBDD's
//! `importZBDDAsKnuth` reads): for each variable from the top, a line `#k` (k from 1),
//! then that variable's nodes, one a line, `id:lo,hi` in hexadecimal; 0 and 1 are
//! the sinks (the empty family and the family of the empty set), the root is node 2,
//! the first node written, and every node's children are written after it. A count
//! whose every state has no solution is the line `0`; one whose only solution is
//! empty, `1`.

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
    /// Writes the ZDD in Knuth's text format (see the module's docs).
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        if self.root < 2 {
            return writeln!(out, "{}", self.root);
        }
        // Number the nodes level by level, the root first: every child has a later
        // variable, so it comes after its parents.
        let mut order: Vec<usize> = (0..self.nodes.len()).collect();
        let root = (self.root - 2) as usize;
        order.sort_by_key(|&k| (self.nodes[k].0, k != root, k));
        let mut id = vec![0u64; self.nodes.len()];
        for (n, &k) in order.iter().enumerate() {
            id[k] = n as u64 + 2;
        }
        let map = |x: u64| if x < 2 { x } else { id[(x - 2) as usize] };
        let mut level = 0;
        for &k in &order {
            let (var, lo, hi) = self.nodes[k];
            while level <= var {
                level += 1;
                writeln!(out, "#{level}")?;
            }
            writeln!(out, "{:x}:{:x},{:x}", id[k], map(lo), map(hi))?;
        }
        Ok(())
    }
}

/// The number of sets in a ZDD written by [`Zdd::write`]: for tests, and for anyone
/// who reads one back. `None` when the text is not such a file.
pub fn count_text(text: &str) -> Option<num_bigint::BigUint> {
    use num_bigint::BigUint;
    let mut kids: Vec<(u64, u64)> = Vec::new();
    let mut lines = text.lines().filter(|l| !l.trim().is_empty()).peekable();
    match lines.peek().map(|l| l.trim()) {
        Some("0") => return Some(BigUint::ZERO),
        Some("1") => return Some(BigUint::from(1u32)),
        _ => {}
    }
    for l in lines {
        let l = l.trim();
        if l.starts_with('#') {
            continue;
        }
        let (id, rest) = l.split_once(':')?;
        let (lo, hi) = rest.split_once(',')?;
        let parse = |s: &str| u64::from_str_radix(s.trim(), 16).ok();
        if parse(id)? != kids.len() as u64 + 2 {
            return None;
        }
        kids.push((parse(lo)?, parse(hi)?));
    }
    let mut count = vec![BigUint::ZERO; kids.len() + 2];
    count[1] = BigUint::from(1u32);
    for k in (0..kids.len()).rev() {
        let (lo, hi) = kids[k];
        if lo as usize >= count.len() || hi as usize >= count.len() || lo <= k as u64 + 1 && lo > 1
        {
            return None;
        }
        count[k + 2] = &count[lo as usize] + &count[hi as usize];
    }
    Some(count.get(2)?.clone())
}
