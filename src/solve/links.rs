//! The flat link structure of Knuth's DLX1, built once from a [`Problem`].
//!
//! Two arrays, indexed by `u32` and never reallocated during a search:
//!
//! - `items`: one [`Header`] per item with LLINK/RLINK of a doubly linked circular list.
//!   Index 0 is the root of the *active list* of primary items `1..=n1`; the secondary
//!   items `n1+1..=n` live in a second circular list rooted at `n+1`, so that covering
//!   one is the same unlink as for a primary item, but the search never picks one.
//! - `nodes`: one [`Node`] per matrix entry, plus the item heads and the spacers. Node `i`
//!   for `1 <= i <= n` is the head of item `i`'s vertical list and keeps LEN in its TOP
//!   field. Then come the options, each preceded by a spacer and the last one followed by
//!   one. A spacer has TOP `<= 0` (minus the number of the option that follows it), ULINK
//!   pointing at the first node of the option before it and DLINK at the last node of the
//!   option after it, so the search can walk round an option cyclically.
//!
//! Internally primary items come first (Knuth's format demands it; the `Problem` does
//! not), keeping their relative order so that ties in the item choice break exactly as in
//! DLX1. `item_id` maps back to the caller's [`ItemId`].

use crate::problem::{ItemId, OptionId, Problem};

/// Added to LEN of an item while it is covered, so that [`Links::choose`] can scan the
/// primary item heads by index instead of following the list of active items. A
/// covered item's LEN does not change until it is uncovered (every option through it
/// is hidden), so the offset is removed exactly.
///
/// Why: the item list is a chain of dependent loads, one cache-latency per item; on a
/// sudoku (324 items, a few hundred active) that walk was most of the time per node.
/// Scanning the heads in index order visits the same items in the same order, so the
/// choice — and every node count — is DLX1's.
pub(crate) const COVERED: i32 = 1 << 30;

/// LLINK and RLINK of an item: its neighbours in the active (or secondary) list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Header {
    /// LLINK: the previous item in the list.
    pub llink: u32,
    /// RLINK: the next item in the list.
    pub rlink: u32,
}

/// One node: 12 bytes per matrix entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Node {
    /// ULINK: the node above in the item's vertical list (for a spacer: the first node of
    /// the previous option).
    pub ulink: u32,
    /// DLINK: the node below (for a spacer: the last node of the next option).
    pub dlink: u32,
    /// TOP: the item of a matrix entry (`>= 1`); LEN for an item head; `-k` for the
    /// spacer before option `k`.
    pub top: i32,
}

/// The whole structure, plus the maps between internal and caller numbering.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Links {
    /// Item headers, `0..=n+1` (0 and `n+1` are list roots).
    pub items: Vec<Header>,
    /// Item heads `1..=n` (node 0 unused), then spacers and option nodes.
    pub nodes: Vec<Node>,
    /// LEN of each item `1..=n` (index 0 unused), plus [`COVERED`]
    /// while the item is covered. Kept apart from the nodes so that choosing an item
    /// scans one dense array.
    pub len: Vec<i32>,
    /// Number of items `n`.
    pub n_items: u32,
    /// Number of primary items `n1`.
    pub n_primary: u32,
    /// Internal item number minus one -> the caller's item id.
    pub item_id: Vec<ItemId>,
    /// The caller's item index -> internal item number.
    pub internal: Vec<u32>,
    /// Option `k` occupies nodes `option_start[k] .. option_start[k+1] - 1`; one extra
    /// entry at the end.
    pub option_start: Vec<u32>,
}

/// Why a problem does not fit in the 32-bit indices of the structure.
#[derive(Debug)]
pub(crate) struct TooLarge;

impl Links {
    /// Builds the structure. The problem is assumed valid (see [`Problem::validate`]);
    /// the only failure is a problem too large for 31-bit indices (30-bit option counts,
    /// since a covered item's LEN carries [`COVERED`]).
    pub fn new(problem: &Problem) -> Result<Links, TooLarge> {
        let n = problem.items.len();
        let total = n + 1 + problem.entry_count() + problem.options.len() + 1;
        let limit = COVERED as usize;
        if total >= i32::MAX as usize || problem.options.len() >= limit {
            return Err(TooLarge);
        }
        // Primary items first, in order, then secondary items, in order.
        let (item_id, n_primary) = problem.primary_first();
        let mut internal = vec![0u32; n];
        for (k, id) in item_id.iter().enumerate() {
            internal[id.index()] = k as u32 + 1;
        }

        let n32 = n as u32;
        let mut items = Vec::with_capacity(n + 2);
        for i in 0..=n32 + 1 {
            items.push(Header {
                llink: i.wrapping_sub(1),
                rlink: i + 1,
            });
        }
        // Close the two circular lists: 0, 1..=n1 and n+1, n1+1..=n (either may be
        // just its root).
        let (n1, s) = (n_primary, n32 + 1);
        items[0].llink = n1;
        items[n1 as usize].rlink = 0;
        items[s as usize].llink = if n1 == n32 { s } else { n32 };
        items[s as usize].rlink = if n1 == n32 { s } else { n1 + 1 };
        if n1 < n32 {
            items[n1 as usize + 1].llink = s;
            items[n].rlink = s;
        }

        let mut nodes = Vec::with_capacity(total);
        for i in 0..=n32 {
            nodes.push(Node {
                ulink: i,
                dlink: i,
                top: 0,
            });
        }
        let mut option_start = Vec::with_capacity(problem.options.len() + 1);
        let mut len = vec![0i32; n + 1];
        let mut last_spacer = n + 1;
        nodes.push(Node {
            ulink: 0,
            dlink: 0,
            top: 0,
        });
        for (k, opt) in problem.options.iter().enumerate() {
            let first = nodes.len() as u32;
            option_start.push(first);
            for e in opt.entries {
                let i = internal[e.item.index()];
                let x = nodes.len() as u32;
                let head = &mut nodes[i as usize];
                let up = head.ulink;
                head.ulink = x;
                len[i as usize] += 1;
                nodes[up as usize].dlink = x;
                nodes.push(Node {
                    ulink: up,
                    dlink: i,
                    top: i as i32,
                });
            }
            let last = nodes.len() as u32 - 1;
            // Empty options have no nodes: their spacers point at themselves.
            let (f, l) = if opt.entries.is_empty() {
                (nodes.len() as u32, last_spacer as u32)
            } else {
                (first, last)
            };
            nodes[last_spacer].dlink = l;
            last_spacer = nodes.len();
            nodes.push(Node {
                ulink: f,
                dlink: 0,
                top: -(k as i32 + 1),
            });
            if opt.entries.is_empty() {
                nodes[last_spacer].ulink = last_spacer as u32;
            }
        }
        option_start.push(nodes.len() as u32);
        nodes[last_spacer].dlink = last_spacer as u32;
        Ok(Links {
            items,
            nodes,
            len,
            n_items: n32,
            n_primary,
            item_id,
            internal,
            option_start,
        })
    }

    /// The option that node `x` (a matrix entry) belongs to: walk left to its spacer.
    pub fn option_of(&self, mut x: u32) -> OptionId {
        while self.nodes[x as usize].top > 0 {
            x -= 1;
        }
        // The spacer before option k has TOP = -k.
        OptionId(self.nodes[x as usize].top.unsigned_abs())
    }

    /// The caller's id of the first item of option `o`, if it has any.
    pub fn first_item(&self, o: OptionId) -> Option<ItemId> {
        let p = self.option_nodes(o).next()?;
        Some(self.item_id[self.nodes[p as usize].top as usize - 1])
    }

    /// The node range of an option.
    pub fn option_nodes(&self, o: OptionId) -> std::ops::Range<u32> {
        self.option_start[o.index()]..self.option_start[o.index() + 1] - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::ProblemBuilder;

    fn sample() -> Problem {
        let mut b = ProblemBuilder::new();
        b.primary(["a"]).secondary(["x"]).primary(["b"]);
        b.option(["a", "x"]);
        b.option(Vec::<&str>::new());
        b.option(["b", "a"]);
        b.build()
    }

    #[test]
    fn primary_items_come_first_and_lists_are_circular() {
        let l = Links::new(&sample()).unwrap();
        assert_eq!(l.n_items, 3);
        assert_eq!(l.n_primary, 2);
        assert_eq!(l.item_id, vec![ItemId(0), ItemId(2), ItemId(1)]);
        assert_eq!(l.internal, vec![1, 3, 2]);
        // Active list 0 -> 1 -> 2 -> 0; secondary list 4 -> 3 -> 4.
        let next: Vec<u32> = l.items.iter().map(|h| h.rlink).collect();
        let prev: Vec<u32> = l.items.iter().map(|h| h.llink).collect();
        assert_eq!(next, vec![1, 2, 0, 4, 3]);
        assert_eq!(prev, vec![2, 0, 1, 4, 3]);
    }

    #[test]
    fn nodes_follow_dlx1_layout() {
        let l = Links::new(&sample()).unwrap();
        // Heads 1..=3, spacer 4, option 0 at 5..=6, spacer 7, option 1 empty,
        // spacer 8, option 2 at 9..=10, spacer 11.
        assert_eq!(l.option_start, vec![5, 8, 9, 12]);
        let tops: Vec<i32> = l.nodes.iter().map(|n| n.top).collect();
        assert_eq!(tops, vec![0, 0, 0, 0, 0, 1, 3, -1, -2, 2, 1, -3]);
        assert_eq!(l.len, vec![0, 2, 1, 1]);
        // Item a (1): 1 -> 5 -> 10 -> 1.
        assert_eq!(l.nodes[1].dlink, 5);
        assert_eq!(l.nodes[5].dlink, 10);
        assert_eq!(l.nodes[10].dlink, 1);
        assert_eq!(l.nodes[1].ulink, 10);
        // Spacers: ULINK = first node of the option before, DLINK = last of the next.
        assert_eq!(l.nodes[4].dlink, 6);
        assert_eq!(l.nodes[7].ulink, 5);
        assert_eq!(l.nodes[8].dlink, 10);
        assert_eq!(l.nodes[11].ulink, 9);
        assert_eq!(l.option_of(10), OptionId(2));
        assert_eq!(l.option_of(5), OptionId(0));
        assert_eq!(l.option_nodes(OptionId(1)), 8..8);
        assert_eq!(l.option_nodes(OptionId(2)), 9..11);
    }

    #[test]
    fn node_is_twelve_bytes() {
        assert_eq!(std::mem::size_of::<Node>(), 12);
    }
}
