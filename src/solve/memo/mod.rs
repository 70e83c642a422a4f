//! Counting by memo: Knuth's Algorithm Z (TAOCP 7.2.2.1, DLX6), with whole keys and
//! counts that never wrap.
//!
//! The search chooses an item and branches on its options, as Algorithm X does, but
//! it remembers the number of solutions of every subproblem it has counted, under the
//! exact state of what is left: which primary items are still open, what each
//! secondary item holds (untouched, claimed, or purified to a color), and, with
//! multiplicities, how often each item is covered so far. A subproblem met again is
//! looked up, not searched. Tilings and matchings repeat their states endlessly (the
//! 8x8 dominoes have 12,988,816 tilings and a few thousand states), so counts that no
//! enumerator reaches come out in milliseconds.
//!
//! The state is packed in a few 64-bit words: one bit for an exactly-once primary
//! item, a small field for the others (a secondary item's color, a multiplicity's
//! count). With multiplicities an item is decided one option at a time, its options
//! taken in the order of its list, so that each set of options is counted once: the
//! key then holds which item is being decided and how far down its list. The whole
//! key is stored and compared (see [`table`]).
//!
//! The item order decides how many states there are. [`Order::Declared`] takes the
//! first open primary item in the order the items were declared (a board's cells row
//! by row), so the open items form a frontier, as in a profile dynamic program: the
//! TAOCP board of monominoes, dominoes and trominoes has a few hundred thousand
//! states that way, and tens of millions under [`Order::Mrv`] (the smallest-remaining
//! rule of the other engines). With the declared order only the options whose first
//! primary item is the chosen one can fit, so each item keeps just those.
//!
//! Counts add in 64 bits while they fit and go on in [`BigUint`] past that.

mod parts;
pub use parts::{SAVED_PARTS, STACK, Save, Tally};
pub mod sample;
mod table;
pub mod zdd;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use num_bigint::BigUint;

use crate::problem::{ItemKind, OptionId, Problem};
use parts::Team;
use table::{Shared, Store, Table, hash};

/// Which item the memo search branches on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Order {
    /// The first open primary item in declaration order (a frontier, as a profile DP
    /// walks a board): the default, and by far the fastest on boards.
    #[default]
    Declared,
    /// The first open primary item in an order that keeps the items of each option
    /// close (Cuthill and McKee's breadth-first order, from an item at the edge):
    /// a 2x200 strip declared row by row has a frontier of 200 cells, this order one
    /// of 2.
    Band,
    /// The primary item with the fewest options that fit (Knuth's MRV).
    Mrv,
}

impl Order {
    /// The order `--memo-order` names `name`.
    pub fn named(name: &str) -> Option<Order> {
        [Order::Declared, Order::Band, Order::Mrv]
            .into_iter()
            .find(|o| o.name() == name)
    }

    /// The name `--memo-order` takes.
    pub fn name(self) -> &'static str {
        match self {
            Order::Declared => "declared",
            Order::Band => "band",
            Order::Mrv => "mrv",
        }
    }
}

/// Options with more items than this tie their items to the first one only, not to
/// each other, in the graph the band order walks (a clique of them would cost too
/// much).
const CLIQUE: usize = 16;

/// The primary items in the order `order` branches on them (declaration order, or
/// the band order), then the secondary items.
fn sequence(problem: &Problem, order: Order) -> Vec<usize> {
    let primary: Vec<usize> = (0..problem.items.len())
        .filter(|&i| problem.items[i].kind.is_primary())
        .collect();
    let mut seq = if order == Order::Band {
        band(problem, &primary)
    } else {
        primary
    };
    seq.extend((0..problem.items.len()).filter(|&i| !problem.items[i].kind.is_primary()));
    seq
}

/// The primary items (`primary`, in declaration order) in Cuthill and McKee's order:
/// breadth first over the graph where two items are neighbors when an option covers
/// both, from an item at the far edge (the end of a second sweep from one of least
/// degree), neighbors by increasing degree.
fn band(problem: &Problem, primary: &[usize]) -> Vec<usize> {
    let n = problem.items.len();
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
    for o in problem.options.iter() {
        let items: Vec<usize> = o
            .entries
            .iter()
            .map(|e| e.item.index())
            .filter(|&i| problem.items[i].kind.is_primary())
            .collect();
        for (a, &x) in items.iter().enumerate() {
            for &y in &items[a + 1..] {
                if items.len() <= CLIQUE || a == 0 {
                    adj[x].push(y as u32);
                    adj[y].push(x as u32);
                }
            }
        }
    }
    for a in &mut adj {
        a.sort_unstable();
        a.dedup();
    }
    let bfs = |start: usize, seen: &mut Vec<bool>, out: &mut Vec<usize>| {
        let first = out.len();
        seen[start] = true;
        out.push(start);
        let mut k = first;
        while k < out.len() {
            let x = out[k];
            let mut next: Vec<usize> = adj[x]
                .iter()
                .map(|&y| y as usize)
                .filter(|&y| !seen[y])
                .collect();
            next.sort_by_key(|&y| (adj[y].len(), y));
            for y in next {
                seen[y] = true;
                out.push(y);
            }
            k += 1;
        }
    };
    let mut seen = vec![false; n];
    let mut out = Vec::with_capacity(primary.len());
    for &i in primary {
        if seen[i] {
            continue;
        }
        // The component of i: a sweep from its item of least degree, and the order
        // proper from the last item that sweep reached.
        let mut comp = Vec::new();
        let mut probe = vec![false; n];
        bfs(i, &mut probe, &mut comp);
        let low = *comp.iter().min_by_key(|&&x| (adj[x].len(), x)).unwrap();
        comp.clear();
        probe.iter_mut().for_each(|p| *p = false);
        bfs(low, &mut probe, &mut comp);
        let far = *comp.last().unwrap();
        bfs(far, &mut seen, &mut out);
    }
    out
}

/// The span of an item order: the most positions apart two primary items of one
/// option lie (`pos` of an item; `u32::MAX` for a secondary one). The declared order's
/// frontier, as the memo meets it, is about this wide.
fn span(problem: &Problem, pos: &[u32]) -> u32 {
    let mut worst = 0;
    for o in problem.options.iter() {
        let (mut lo, mut hi) = (u32::MAX, 0);
        for e in o.entries {
            let p = pos[e.item.index()];
            if p != u32::MAX {
                lo = lo.min(p);
                hi = hi.max(p);
            }
        }
        if lo != u32::MAX {
            worst = worst.max(hi - lo);
        }
    }
    worst
}

/// The order `--memo-order` leaves to the program: the declared one, unless the band
/// order makes the options' items at least twice as close (a board declared along its
/// long side).
pub fn choose(problem: &Problem) -> Order {
    let positions = |seq: &[usize]| {
        let mut pos = vec![u32::MAX; problem.items.len()];
        for (k, &i) in seq
            .iter()
            .filter(|&&i| problem.items[i].kind.is_primary())
            .enumerate()
        {
            pos[i] = k as u32;
        }
        pos
    };
    let declared = span(problem, &positions(&sequence(problem, Order::Declared)));
    let band = span(problem, &positions(&sequence(problem, Order::Band)));
    if band.saturating_mul(2) <= declared {
        Order::Band
    } else {
        Order::Declared
    }
}

/// A count: 64 bits while it fits, exact beyond.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Count {
    /// Below 2^64.
    Small(u64),
    /// Any size.
    Big(BigUint),
}

impl Default for Count {
    fn default() -> Count {
        Count::Small(0)
    }
}

impl Count {
    /// Adds `o`.
    #[inline]
    pub fn add(&mut self, o: &Count) {
        match (&mut *self, o) {
            (Count::Small(a), Count::Small(b)) => match a.checked_add(*b) {
                Some(s) => *a = s,
                None => *self = Count::Big(BigUint::from(*a) + *b),
            },
            (Count::Big(a), Count::Small(b)) => *a += *b,
            (Count::Big(a), Count::Big(b)) => *a += b,
            (Count::Small(a), Count::Big(b)) => *self = Count::Big(b + *a),
        }
    }

    /// The count as a big integer.
    pub fn to_big(&self) -> BigUint {
        match self {
            Count::Small(n) => BigUint::from(*n),
            Count::Big(b) => b.clone(),
        }
    }

    /// The count as a `u128`, if it fits.
    pub fn to_u128(&self) -> Option<u128> {
        match self {
            Count::Small(n) => Some(u128::from(*n)),
            Count::Big(b) => u128::try_from(b).ok(),
        }
    }

    /// The count as the nearest `f64` or a little below (for estimates, never for
    /// answers).
    pub fn approx(&self) -> f64 {
        match self {
            Count::Small(n) => *n as f64,
            Count::Big(b) => {
                let shift = b.bits().saturating_sub(64);
                let top = u64::try_from(b >> shift).unwrap_or(u64::MAX);
                top as f64 * 2f64.powi(shift.min(i32::MAX as u64) as i32)
            }
        }
    }

    /// The product with `o`.
    pub fn times(&self, o: &Count) -> Count {
        match (self, o) {
            (Count::Small(a), Count::Small(b)) => match a.checked_mul(*b) {
                Some(p) => Count::Small(p),
                None => Count::Big(BigUint::from(*a) * *b),
            },
            _ => Count::Big(self.to_big() * o.to_big()).normal(),
        }
    }

    /// Whether it is 0.
    pub fn is_zero(&self) -> bool {
        match self {
            Count::Small(n) => *n == 0,
            Count::Big(b) => *b == BigUint::ZERO,
        }
    }

    /// A count made small again when it fits.
    fn normal(self) -> Count {
        match self {
            Count::Big(b) => match u64::try_from(&b) {
                Ok(n) => Count::Small(n),
                Err(_) => Count::Big(b),
            },
            c => c,
        }
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Count::Small(n) => write!(f, "{n}"),
            Count::Big(b) => write!(f, "{b}"),
        }
    }
}

impl std::str::FromStr for Count {
    type Err = num_bigint::ParseBigIntError;

    /// Decimal digits, as [`Count`]'s `Display` writes them.
    fn from_str(s: &str) -> Result<Count, Self::Err> {
        Ok(Count::Big(s.parse::<BigUint>()?).normal())
    }
}

impl From<u64> for Count {
    fn from(n: u64) -> Count {
        Count::Small(n)
    }
}

/// Where an item's state lies in the key.
#[derive(Clone, Copy, Debug)]
struct Field {
    word: u32,
    shift: u32,
    /// The field's width as a mask (before the shift).
    mask: u64,
}

impl Field {
    #[inline]
    fn get(self, cur: &[u64]) -> u64 {
        (cur[self.word as usize] >> self.shift) & self.mask
    }

    #[inline]
    fn set(self, cur: &mut [u64], v: u64) {
        let w = &mut cur[self.word as usize];
        *w = (*w & !(self.mask << self.shift)) | (v << self.shift);
    }
}

/// What a primary item needs.
#[derive(Clone, Copy, Debug)]
enum Need {
    /// Exactly once: one bit, set when covered.
    Once,
    /// Between `lo` and `hi` times (`u32::MAX`: no upper bound). The field holds how
    /// often it is covered (with no upper bound, at most `lo`: more makes no
    /// difference), or `closed` once no option may cover it any more.
    Range { lo: u32, hi: u32, closed: u64 },
}

/// A primary item, in declaration order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Primary {
    field: Field,
    need: Need,
}

impl Primary {
    #[inline]
    fn closed(&self, cur: &[u64]) -> bool {
        match self.need {
            Need::Once => self.field.get(cur) != 0,
            Need::Range { closed, .. } => self.field.get(cur) == closed,
        }
    }

    /// Whether the item may be closed now (it is covered often enough).
    #[inline]
    fn may_finish(&self, cur: &[u64]) -> bool {
        match self.need {
            Need::Once => false,
            Need::Range { lo, closed, .. } => {
                let v = self.field.get(cur);
                v != closed && v >= u64::from(lo)
            }
        }
    }
}

/// What an option does to an item that is not a one-bit field.
#[derive(Clone, Copy, Debug)]
enum Op {
    /// Claims a secondary item that others color: it must be untouched; it becomes 1.
    Claim(Field),
    /// Colors a secondary item: it must be untouched or of this color (2 and up).
    Color(Field, u64),
    /// Covers the primary item at this position of the primaries once more.
    Cover(u32),
}

/// A branch of a state: an option, or closing the item being decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Branch {
    /// Take this option (an index into the layout's options).
    Take(u32),
    /// Close the item: no more options cover it.
    Finish,
}

/// How the state at hand goes on.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step {
    /// Every primary item is closed: one solution, the empty one.
    Solved,
    /// Branch on the item at position `pos` of the primaries, from `start` in `list`
    /// (an index into the layout's lists); `finish`: closing it is a branch too.
    Branch {
        pos: u32,
        list: u32,
        start: u32,
        finish: bool,
    },
}

/// The problem compiled for the memo search.
#[derive(Clone)]
pub struct Layout {
    /// Words of a key.
    width: usize,
    /// The word that says which item is being decided, and from where in its list
    /// (with multiplicities only).
    pend: Option<usize>,
    pub(crate) primaries: Vec<Primary>,
    /// Each option's one-bit fields, as (word, bits): `begin[o]..begin[o+1]`.
    masks: Vec<(u32, u64)>,
    mask_begin: Vec<u32>,
    ops: Vec<Op>,
    op_begin: Vec<u32>,
    /// For each option, the option of the problem it is.
    pub(crate) option: Vec<OptionId>,
    /// Per primary position, the options whose first primary item it is (the declared
    /// order's lists), then per position every option that covers it (MRV's).
    pub(crate) lists: Vec<Vec<u32>>,
    /// The state before anything is chosen.
    pub(crate) init: Vec<u64>,
    pub(crate) order: Order,
}

impl Layout {
    /// Compiles `problem` (forced options already committed: see
    /// [`crate::solve::reduce`]) for the memo search in `order`.
    pub fn new(problem: &Problem, order: Order) -> Layout {
        // Which secondary items get a color (they need more than one bit), and how
        // many colors each sees.
        let n = problem.items.len();
        let mut colors: Vec<Vec<u32>> = vec![Vec::new(); n];
        for o in problem.options.iter() {
            for e in o.entries {
                if let Some(c) = e.color {
                    let cs = &mut colors[e.item.index()];
                    if !cs.contains(&c.number()) {
                        cs.push(c.number());
                    }
                }
            }
        }
        let mut bit = 0u32;
        let mut place = |width: u32| -> Field {
            if bit % 64 + width > 64 {
                bit = bit.div_ceil(64) * 64;
            }
            let f = Field {
                word: bit / 64,
                shift: bit % 64,
                mask: if width == 64 {
                    u64::MAX
                } else {
                    (1 << width) - 1
                },
            };
            bit += width;
            f
        };
        let width_of = |values: u64| 64 - values.saturating_sub(1).leading_zeros().min(63);
        let mut fields: Vec<Option<Field>> = vec![None; n];
        let mut pos_of = vec![u32::MAX; n];
        let mut primaries = Vec::new();
        for i in sequence(problem, order) {
            match problem.items[i].kind {
                ItemKind::Primary { bounds } if bounds.is_exactly_once() => {
                    let f = place(1);
                    fields[i] = Some(f);
                    pos_of[i] = primaries.len() as u32;
                    primaries.push(Primary {
                        field: f,
                        need: Need::Once,
                    });
                }
                ItemKind::Primary { bounds } => {
                    let (lo, hi) = (bounds.lo, bounds.hi.unwrap_or(u32::MAX));
                    let closed = if hi == u32::MAX {
                        u64::from(lo) + 1
                    } else {
                        u64::from(hi)
                    };
                    let f = place(width_of(closed + 1).max(1));
                    fields[i] = Some(f);
                    pos_of[i] = primaries.len() as u32;
                    primaries.push(Primary {
                        field: f,
                        need: Need::Range { lo, hi, closed },
                    });
                    // hi == 0: closed from the start, which is value 0 already.
                }
                ItemKind::Secondary => {
                    let k = colors[i].len() as u64;
                    let f = place(if k == 0 { 1 } else { width_of(k + 2) });
                    fields[i] = Some(f);
                }
            }
        }
        let multiplicities = primaries
            .iter()
            .any(|p| matches!(p.need, Need::Range { .. }));
        let mut width = bit.div_ceil(64) as usize;
        let pend = multiplicities.then(|| {
            width += 1;
            width - 1
        });
        let width = width.max(1);
        let np = primaries.len();
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); 2 * np];
        let (mut masks, mut mask_begin, mut ops, mut op_begin, mut option) = (
            Vec::<(u32, u64)>::new(),
            vec![0],
            Vec::new(),
            vec![0],
            Vec::new(),
        );
        for (k, o) in problem.options.iter().enumerate() {
            let first = o
                .entries
                .iter()
                .filter(|e| pos_of[e.item.index()] != u32::MAX)
                .map(|e| pos_of[e.item.index()])
                .min();
            let Some(first) = first else {
                // No primary item: the search never chooses it.
                continue;
            };
            let id = option.len() as u32;
            option.push(OptionId(k as u32));
            lists[first as usize].push(id);
            let mut own: Vec<(u32, u64)> = Vec::new();
            for e in o.entries {
                let i = e.item.index();
                let f = fields[i].expect("every item has a field");
                let p = pos_of[i];
                if p != u32::MAX {
                    lists[np + p as usize].push(id);
                    match primaries[p as usize].need {
                        Need::Once => own.push((f.word, 1 << f.shift)),
                        Need::Range { .. } => ops.push(Op::Cover(p)),
                    }
                } else if colors[i].is_empty() {
                    own.push((f.word, 1 << f.shift));
                } else {
                    match e.color {
                        None => ops.push(Op::Claim(f)),
                        Some(c) => {
                            let v = colors[i].iter().position(|&x| x == c.number()).unwrap();
                            ops.push(Op::Color(f, v as u64 + 2));
                        }
                    }
                }
            }
            own.sort_unstable();
            let begin = masks.len();
            for (w, b) in own {
                let n = masks.len();
                if n > begin && masks[n - 1].0 == w {
                    masks[n - 1].1 |= b;
                } else {
                    masks.push((w, b));
                }
            }
            mask_begin.push(masks.len() as u32);
            op_begin.push(ops.len() as u32);
        }
        Layout {
            width,
            pend,
            primaries,
            masks,
            mask_begin,
            ops,
            op_begin,
            option,
            lists,
            init: vec![0; width],
            order,
        }
    }

    /// Words of a key.
    pub fn key_words(&self) -> usize {
        self.width
    }

    /// The option of the problem that option `o` of the layout is.
    pub(crate) fn option(&self, o: u32) -> OptionId {
        self.option[o as usize]
    }

    /// The list `list` (see [`Step::Branch`]).
    #[inline]
    pub(crate) fn list(&self, list: u32) -> &[u32] {
        &self.lists[list as usize]
    }

    /// Whether option `o` fits the state `cur`.
    #[inline]
    fn fits(&self, o: u32, cur: &[u64]) -> bool {
        let o = o as usize;
        for &(w, b) in &self.masks[self.mask_begin[o] as usize..self.mask_begin[o + 1] as usize] {
            if cur[w as usize] & b != 0 {
                return false;
            }
        }
        for op in &self.ops[self.op_begin[o] as usize..self.op_begin[o + 1] as usize] {
            let ok = match *op {
                Op::Claim(f) => f.get(cur) == 0,
                Op::Color(f, v) => {
                    let g = f.get(cur);
                    g == 0 || g == v
                }
                Op::Cover(p) => !self.primaries[p as usize].closed(cur),
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// Whether option `o` only sets one-bit fields (undone by clearing them).
    #[inline]
    fn plain(&self, o: u32) -> bool {
        self.op_begin[o as usize] == self.op_begin[o as usize + 1]
    }

    /// Takes option `o` (which fits) in `cur`.
    #[inline]
    fn take(&self, o: u32, cur: &mut [u64]) {
        let o = o as usize;
        for &(w, b) in &self.masks[self.mask_begin[o] as usize..self.mask_begin[o + 1] as usize] {
            cur[w as usize] |= b;
        }
        for op in &self.ops[self.op_begin[o] as usize..self.op_begin[o + 1] as usize] {
            match *op {
                Op::Claim(f) => f.set(cur, 1),
                Op::Color(f, v) => f.set(cur, v),
                Op::Cover(p) => {
                    let pr = self.primaries[p as usize];
                    if let Need::Range { lo, hi, closed } = pr.need {
                        let v = pr.field.get(cur) + 1;
                        let v = if hi != u32::MAX && v >= u64::from(hi) {
                            closed
                        } else if hi == u32::MAX {
                            v.min(u64::from(lo))
                        } else {
                            v
                        };
                        pr.field.set(cur, v);
                    }
                }
            }
        }
    }

    /// Clears what a plain option `o` set.
    #[inline]
    fn untake_plain(&self, o: u32, cur: &mut [u64]) {
        let o = o as usize;
        for &(w, b) in &self.masks[self.mask_begin[o] as usize..self.mask_begin[o + 1] as usize] {
            cur[w as usize] &= !b;
        }
    }

    /// How the state `cur` goes on; `from`: no primary item before this position is
    /// open (the declared order's hint).
    #[inline]
    pub(crate) fn step(&self, cur: &[u64], from: u32) -> Step {
        if let Some(pw) = self.pend {
            let pend = cur[pw];
            if pend != 0 {
                let pos = (pend >> 32) as u32 - 1;
                let list = match self.order {
                    Order::Declared | Order::Band => pos,
                    Order::Mrv => self.primaries.len() as u32 + pos,
                };
                let finish = self.primaries[pos as usize].may_finish(cur);
                return Step::Branch {
                    pos,
                    list,
                    start: pend as u32,
                    finish,
                };
            }
        }
        match self.order {
            Order::Declared | Order::Band => {
                let mut p = from as usize;
                while p < self.primaries.len() && self.primaries[p].closed(cur) {
                    p += 1;
                }
                if p == self.primaries.len() {
                    return Step::Solved;
                }
                Step::Branch {
                    pos: p as u32,
                    list: p as u32,
                    start: 0,
                    finish: self.primaries[p].may_finish(cur),
                }
            }
            Order::Mrv => {
                let np = self.primaries.len();
                let mut best: Option<(usize, usize)> = None;
                for (p, pr) in self.primaries.iter().enumerate() {
                    if pr.closed(cur) {
                        continue;
                    }
                    let mut k = usize::from(pr.may_finish(cur));
                    for &o in &self.lists[np + p] {
                        if best.is_some_and(|(_, b)| k >= b) {
                            break;
                        }
                        k += usize::from(self.fits(o, cur));
                    }
                    if best.is_none_or(|(_, b)| k < b) {
                        best = Some((p, k));
                        if k == 0 {
                            break;
                        }
                    }
                }
                match best {
                    None => Step::Solved,
                    Some((p, _)) => Step::Branch {
                        pos: p as u32,
                        list: (np + p) as u32,
                        start: 0,
                        finish: self.primaries[p].may_finish(cur),
                    },
                }
            }
        }
    }

    /// Follows `branch` of the state `cur` (at `step`, a [`Step::Branch`]), at index
    /// `k` of its list for an option: the new state in `cur` and the next `from`.
    #[inline]
    pub(crate) fn follow(&self, cur: &mut [u64], pos: u32, k: u32, branch: Branch) {
        match branch {
            Branch::Take(o) => {
                self.take(o, cur);
                if let Some(pw) = self.pend {
                    cur[pw] = if self.primaries[pos as usize].closed(cur)
                        || matches!(self.primaries[pos as usize].need, Need::Once)
                    {
                        0
                    } else {
                        (u64::from(pos + 1) << 32) | u64::from(k + 1)
                    };
                }
            }
            Branch::Finish => {
                let pr = self.primaries[pos as usize];
                if let Need::Range { closed, .. } = pr.need {
                    pr.field.set(cur, closed);
                }
                if let Some(pw) = self.pend {
                    cur[pw] = 0;
                }
            }
        }
    }
}

/// What a memo count did, for `--stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoStats {
    /// States entered (hits included).
    pub nodes: u64,
    /// States found in the table.
    pub hits: u64,
    /// States stored.
    pub states: u64,
    /// Bytes the table holds.
    pub bytes: u64,
    /// Whether the table filled and stopped storing.
    pub full: bool,
    /// Words of a key.
    pub key_words: u32,
    /// Threads the last count ran on.
    pub threads: u32,
    /// The item order.
    pub order: Order,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Limits of a memo count.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many nodes.
    pub node_limit: Option<u64>,
    /// Stop at this time.
    pub deadline: Option<Instant>,
    /// Stop when raised.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// The most bytes the table may take.
    pub max_bytes: usize,
}

/// A memo count: complete, or cut short by a limit with what it had counted (a lower
/// bound).
pub type Counted = Result<Count, (Stop, Count)>;

/// Which limit stopped a memo count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The node limit.
    Nodes,
    /// The deadline.
    Time,
    /// The interrupt.
    Interrupted,
}

/// A memo counter: the layout, the table and the state, kept between counts so that
/// sampling and the ZDD reuse what the count stored.
pub struct Counter {
    pub(crate) layout: Layout,
    table: Store,
    pub(crate) cur: Vec<u64>,
    limits: Limits,
    nodes: u64,
    hits: u64,
    next_check: u64,
    stop: Option<Stop>,
    /// Threads a count runs on (see [`parts`]).
    threads: usize,
    /// Parts a thread a count on threads is cut into.
    parts: usize,
    /// The other threads of a count on several, while it runs.
    team: Option<Arc<Team>>,
    /// Nodes already added to the team's.
    reported: u64,
    /// Threads the last count ran on.
    ran_on: usize,
}

impl Counter {
    /// A counter for `problem` (forced options committed), on one thread.
    pub fn new(problem: &Problem, order: Order, limits: Limits) -> Counter {
        Counter::on_threads(problem, order, limits, 1)
    }

    /// A counter for `problem` (forced options committed) whose counts run on
    /// `threads` threads sharing one table: the same exact count whatever the
    /// timing (see [`parts`]).
    pub fn on_threads(problem: &Problem, order: Order, limits: Limits, threads: usize) -> Counter {
        let layout = Layout::new(problem, order);
        let threads = threads.max(1);
        let table = if threads == 1 {
            Store::Own(Table::new(layout.width, limits.max_bytes))
        } else {
            Store::Shared(Arc::new(Shared::new(layout.width, limits.max_bytes)))
        };
        Counter::of(layout, table, limits, threads)
    }

    /// A counter of `layout` over `table`, nothing counted yet.
    fn of(layout: Layout, table: Store, limits: Limits, threads: usize) -> Counter {
        Counter {
            cur: layout.init.clone(),
            table,
            layout,
            limits,
            nodes: 0,
            hits: 0,
            next_check: 1024,
            stop: None,
            threads,
            parts: parts::PARTS_PER_THREAD,
            team: None,
            reported: 0,
            ran_on: 1,
        }
    }

    /// The counter with counts on threads cut into `parts` parts a thread (at least
    /// one; by default [`parts::PARTS_PER_THREAD`]): fewer parts leave the threads
    /// more of the tree to share (tests).
    pub fn with_parts(mut self, parts: usize) -> Counter {
        self.parts = parts.max(1);
        self
    }

    /// Sets new limits (a probe's, then the count's).
    pub fn set_limits(&mut self, node_limit: Option<u64>) {
        self.limits.node_limit = node_limit;
        self.stop = None;
        self.next_check = self.nodes + 1;
    }

    /// Counts the solutions; `Err` with what was counted (a lower bound) when a limit
    /// stopped it.
    pub fn count(&mut self) -> Counted {
        self.count_on(self.threads)
    }

    /// [`Counter::count`] on this thread alone, whatever the counter's threads (a
    /// probe, whose figures must not depend on how the threads met).
    pub fn count_alone(&mut self) -> Counted {
        self.count_on(1)
    }

    /// The count of shard `k` of `n` (from 1): the shards' counts add up to the count
    /// (see [`parts`]). On the counter's threads.
    pub fn count_shard(&mut self, k: usize, n: usize) -> Counted {
        assert!((1..=n).contains(&k), "shard {k} of {n}");
        self.ran_on = self.threads;
        let c = self.count_shard_by_parts(k, n).normal();
        self.ended(c)
    }

    /// A count that can be saved and resumed (a checkpoint of a memo count): of the
    /// whole problem or of shard `k` of `n` (`shard`, adding up with the other shards'
    /// counts as [`Counter::count_shard`]'s do), going on from `resumed` when given,
    /// with `save` called with the tally so far about every `every`. The count and the
    /// final tally; `Err` with why when `resumed` was made for another cut of the tree
    /// (another problem, order or number of shards).
    pub fn count_saving(
        &mut self,
        shard: Option<(usize, usize)>,
        resumed: Option<Tally>,
        every: Duration,
        save: &Save<'_>,
    ) -> Result<(Counted, Tally), String> {
        if let Some((k, n)) = shard {
            assert!((1..=n).contains(&k), "shard {k} of {n}");
        }
        self.cur.copy_from_slice(&self.layout.init);
        self.ran_on = self.threads;
        let (mut tally, c) = self.count_by_parts_saving(shard, resumed, every, save)?;
        tally.counted = tally.counted.normal();
        Ok((self.ended(c.normal()), tally))
    }

    fn count_on(&mut self, threads: usize) -> Counted {
        self.cur.copy_from_slice(&self.layout.init);
        self.ran_on = threads;
        let c = if threads > 1 {
            self.count_by_parts()
        } else {
            self.count_here(0)
        }
        .normal();
        self.ended(c)
    }

    /// The count `c`, complete or cut.
    fn ended(&self, c: Count) -> Counted {
        match self.stop {
            None => Ok(c),
            Some(s) => Err((s, c)),
        }
    }

    /// Statistics so far.
    pub fn stats(&self, elapsed: Duration) -> MemoStats {
        MemoStats {
            nodes: self.nodes,
            hits: self.hits,
            states: self.table.len() as u64,
            bytes: self.table.bytes() as u64,
            full: self.table.full(),
            key_words: self.layout.width as u32,
            threads: self.ran_on as u32,
            order: self.layout.order,
            elapsed,
        }
    }

    fn check(&mut self) {
        self.next_check = self.nodes + 1024;
        // On several threads the node limit is for all of them together, and the
        // first thread to stop stops the others.
        let nodes = match &self.team {
            Some(team) => {
                let all = team.add_nodes(self.nodes - self.reported);
                self.reported = self.nodes;
                all
            }
            None => self.nodes,
        };
        if self.limits.node_limit.is_some_and(|n| nodes >= n) {
            self.stop = Some(Stop::Nodes);
        } else if self.limits.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop = Some(Stop::Time);
        } else if self
            .limits
            .interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            self.stop = Some(Stop::Interrupted);
        }
        if let Some(team) = &self.team {
            self.stop = team.stop_with(self.stop);
        }
    }

    /// The number of solutions of the state in `cur` (left as it was found).
    pub(crate) fn count_here(&mut self, from: u32) -> Count {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check();
        }
        if self.stop.is_some() {
            return Count::Small(0);
        }
        let (pos, list, start, finish) = match self.layout.step(&self.cur, from) {
            Step::Solved => return Count::Small(1),
            Step::Branch {
                pos,
                list,
                start,
                finish,
            } => (pos, list, start, finish),
        };
        let h = hash(&self.cur);
        if let Some(c) = self.table.get(&self.cur, h) {
            self.hits += 1;
            return c;
        }
        let mut total = Count::Small(0);
        let width = self.layout.width;
        let mut saved = [0u64; 4];
        let mut saved_vec = Vec::new();
        let len = self.layout.lists[list as usize].len() as u32;
        for k in start..len {
            let o = self.layout.lists[list as usize][k as usize];
            if !self.layout.fits(o, &self.cur) {
                continue;
            }
            let c = if self.layout.plain(o) && self.layout.pend.is_none() {
                self.layout.take(o, &mut self.cur);
                let c = self.count_here(pos);
                self.layout.untake_plain(o, &mut self.cur);
                c
            } else {
                if width <= 4 {
                    saved[..width].copy_from_slice(&self.cur);
                } else {
                    saved_vec.clear();
                    saved_vec.extend_from_slice(&self.cur);
                }
                self.layout.follow(&mut self.cur, pos, k, Branch::Take(o));
                let c = self.count_here(pos);
                if width <= 4 {
                    self.cur.copy_from_slice(&saved[..width]);
                } else {
                    self.cur.copy_from_slice(&saved_vec);
                }
                c
            };
            total.add(&c);
        }
        if finish {
            let keep = self.cur.clone();
            self.layout.follow(&mut self.cur, pos, 0, Branch::Finish);
            let c = self.count_here(pos);
            self.cur.copy_from_slice(&keep);
            total.add(&c);
        }
        if self.stop.is_none() {
            self.table.put(&self.cur, h, &total);
        }
        total
    }
}

/// Counts `problem` (forced options committed) by memo, with no limits but the
/// table's `max_bytes`: for tests and benchmarks.
pub fn count(problem: &Problem, order: Order, max_bytes: usize) -> (Count, MemoStats) {
    let started = Instant::now();
    let mut c = Counter::new(
        problem,
        order,
        Limits {
            max_bytes,
            ..Limits::default()
        },
    );
    let n = match c.count() {
        Ok(n) => n,
        Err(_) => unreachable!("no limits"),
    };
    (n, c.stats(started.elapsed()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::{SearchConfig, Solver};
    use crate::testing::{Rng, random_problem};

    fn plain(p: &Problem) -> u128 {
        let mut s = Solver::new(p).unwrap();
        let config = SearchConfig {
            count_only: true,
            ..SearchConfig::default()
        };
        s.search(&[], &config, &mut |_| crate::solve::Flow::Continue)
            .unwrap()
            .stats
            .solutions
    }

    #[test]
    fn memo_counts_equal_plain_counts() {
        let mut rng = Rng(0x5eed_1234_abcd);
        for round in 0..3000 {
            let p = random_problem(&mut rng, round % 2 == 1);
            let want = plain(&p);
            for order in [Order::Declared, Order::Band, Order::Mrv] {
                for bytes in [1 << 20, 300] {
                    let (got, _) = count(&p, order, bytes);
                    assert_eq!(
                        got.to_u128(),
                        Some(want),
                        "{order:?} {bytes} round {round}: {p:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn approximate_counts_keep_their_size() {
        assert_eq!(Count::Small(12).approx(), 12.0);
        let big = Count::Big(BigUint::from(3u32) << 200u32);
        let want = 3.0 * 2f64.powi(200);
        assert!((big.approx() - want).abs() / want < 1e-12);
    }

    #[test]
    fn counts_go_past_64_bits() {
        let mut c = Count::Small(u64::MAX);
        c.add(&Count::Small(2));
        assert_eq!(c.to_u128(), Some(u128::from(u64::MAX) + 2));
        assert_eq!(c.to_string(), "18446744073709551617");
    }
}
