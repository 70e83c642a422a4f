//! The dance steps of Knuth's DLX3 (TAOCP 7.2.2.1, Algorithm M with Algorithm C's
//! colors): cover and uncover, hide and unhide, purify and unpurify, tweak and untweak,
//! commit and uncommit.
//!
//! The structure is DLX1's ([`Links`]), copied into two arrays laid out for the loops
//! that walk them, as in DLX3: every field one step of the search reads together sits in
//! one struct, so that a node or an item costs one cache line, not one per array.
//!
//! - `nodes[x]` ([`Node`]): ULINK, DLINK, TOP and COLOR of a node, 16 bytes. Item heads
//!   `1..=n` and spacers are nodes too (color 0). COLOR is 0 when the option claims its
//!   (secondary) item exclusively, `c + 1` for color `c`, and `-1` while the item is
//!   *purified* and this node agrees with the purifying color (Knuth's convention). Nodes
//!   with `color < 0` are skipped by hide and unhide: their item's list is never walked
//!   while it is purified, except by `unpurify`, so leaving them in place is safe and
//!   saves work.
//! - `items[i]` ([`Item`]): LLINK/RLINK of the active list (roots 0 for primary items,
//!   `n+1` for secondary ones), LEN, and for a primary item BOUND (how many more chosen
//!   options may cover it: `hi` minus the options chosen so far) and SLACK (`hi - lo`,
//!   constant; `bound - slack` is how many more options *must* cover the item). Choosing
//!   an item reads nothing else.
//!
//! The [`Links`] the structure came from stay alongside for what does not move (where
//! each option's nodes start, the caller's item ids), without their nodes: those live
//! on here only, so a matrix entry costs 16 bytes, not 16 plus DLX1's 12.
//!
//! Every operation here has an exact inverse, applied in last-in-first-out order.

use crate::solve::links::Links;

/// One node of the dancing structure (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Node {
    /// ULINK: the node above (for a spacer: the first node of the previous option).
    pub ulink: u32,
    /// DLINK: the node below (for a spacer: the last node of the next option).
    pub dlink: u32,
    /// TOP: the item of a matrix entry (`>= 1`), `<= 0` for a spacer, 0 for a head.
    pub top: i32,
    /// COLOR (see the module documentation); 0 for heads and spacers.
    pub color: i32,
}

/// One item of the dancing structure (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Item {
    /// LLINK: the previous item in the active (or secondary) list.
    pub llink: u32,
    /// RLINK: the next item.
    pub rlink: u32,
    /// LEN: how many options remain in the item's list.
    pub len: i32,
    /// BOUND of a primary item (unused for secondary items).
    pub bound: i32,
    /// SLACK of a primary item (unused for secondary items).
    pub slack: i32,
}

/// DLX3's nodes and items, plus the [`Links`] they were copied from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Dance {
    /// The static structure: where options start, item ids. Its nodes were moved to
    /// `nodes` (so `links.nodes` is empty); its lengths are not updated by the dance.
    pub links: Links,
    /// The nodes, numbered as DLX1 numbers them.
    pub nodes: Vec<Node>,
    /// The items `0..=n+1`, indexed as in `links.items`.
    pub items: Vec<Item>,
}

impl Dance {
    /// Copies `links` into the dancing layout, with each node's `color` and each primary
    /// item's `bound` and `slack` (indexed by node and internal item number).
    pub fn new(mut links: Links, color: &[i32], bound: &[i32], slack: &[i32]) -> Dance {
        let nodes = std::mem::take(&mut links.nodes)
            .iter()
            .zip(color)
            .map(|(n, &color)| Node {
                ulink: n.ulink,
                dlink: n.dlink,
                top: n.top,
                color,
            })
            .collect();
        let items = links
            .items
            .iter()
            .enumerate()
            .map(|(i, h)| Item {
                llink: h.llink,
                rlink: h.rlink,
                len: links.len.get(i).copied().unwrap_or(0),
                bound: bound.get(i).copied().unwrap_or(0),
                slack: slack.get(i).copied().unwrap_or(0),
            })
            .collect();
        Dance {
            links,
            nodes,
            items,
        }
    }

    /// The option node `x` belongs to: the spacer before option `k` has TOP = -k.
    pub fn option_of(&self, mut x: u32) -> crate::problem::OptionId {
        while self.nodes[x as usize].top > 0 {
            x -= 1;
        }
        crate::problem::OptionId(self.nodes[x as usize].top.unsigned_abs())
    }

    /// The internal item of node `x`.
    #[inline]
    pub fn item_of(&self, x: u32) -> u32 {
        self.nodes[x as usize].top as u32
    }

    /// Whether internal item `i` is primary.
    #[inline]
    pub fn is_primary(&self, i: u32) -> bool {
        i <= self.links.n_primary
    }

    /// LEN of item `i`: how many options remain in its list.
    #[inline]
    pub fn len(&self, i: u32) -> i32 {
        self.items[i as usize].len
    }

    /// Removes item `i` from its horizontal list (the active list for a primary item,
    /// the list of secondary items otherwise).
    #[inline]
    pub fn deactivate(&mut self, i: u32) {
        let h = self.items[i as usize];
        self.items[h.llink as usize].rlink = h.rlink;
        self.items[h.rlink as usize].llink = h.llink;
    }

    /// Undoes [`Dance::deactivate`].
    #[inline]
    pub fn reactivate(&mut self, i: u32) {
        let h = self.items[i as usize];
        self.items[h.llink as usize].rlink = i;
        self.items[h.rlink as usize].llink = i;
    }

    /// hide(p): takes the nodes of `p`'s option other than `p` out of their lists;
    /// returns how many.
    #[inline]
    pub fn hide(&mut self, p: u32) -> u64 {
        hide(&mut self.nodes, &mut self.items, p)
    }

    /// unhide(p): undoes [`Dance::hide`], going left.
    #[inline]
    pub fn unhide(&mut self, p: u32) {
        unhide(&mut self.nodes, &mut self.items, p);
    }

    /// cover(i): deactivates item `i` and hides every option in its list. Returns the
    /// updates made (one for the item, one per node unlinked): counted in a register
    /// and returned, not added through a pointer at every node.
    pub fn cover(&mut self, i: u32) -> u64 {
        self.deactivate(i);
        let mut updates = 1;
        let (nodes, items) = (&mut self.nodes[..], &mut self.items[..]);
        let mut p = nodes[i as usize].dlink;
        while p != i {
            updates += hide(nodes, items, p);
            p = nodes[p as usize].dlink;
        }
        updates
    }

    /// uncover(i): undoes [`Dance::cover`], bottom-up.
    pub fn uncover(&mut self, i: u32) {
        let (nodes, items) = (&mut self.nodes[..], &mut self.items[..]);
        let mut p = nodes[i as usize].ulink;
        while p != i {
            unhide(nodes, items, p);
            p = nodes[p as usize].ulink;
        }
        self.reactivate(i);
    }

    /// purify(p): the option of `p` gives its secondary item `i` the color `c`; hide every
    /// option that gives `i` another color or claims it outright, and mark the options
    /// that agree (color `-1`) so that they do not purify `i` again. Returns the
    /// updates made (one for the purification, one per node unlinked).
    pub fn purify(&mut self, p: u32) -> u64 {
        let Node { top, color: c, .. } = self.nodes[p as usize];
        let i = top as u32;
        let mut updates = 1;
        let mut q = self.nodes[i as usize].dlink;
        while q != i {
            if self.nodes[q as usize].color == c {
                if q != p {
                    self.nodes[q as usize].color = -1;
                }
            } else {
                updates += self.hide(q);
            }
            q = self.nodes[q as usize].dlink;
        }
        updates
    }

    /// unpurify(p): undoes [`Dance::purify`], bottom-up.
    pub fn unpurify(&mut self, p: u32) {
        let Node { top, color: c, .. } = self.nodes[p as usize];
        let i = top as u32;
        let mut q = self.nodes[i as usize].ulink;
        while q != i {
            if self.nodes[q as usize].color < 0 {
                self.nodes[q as usize].color = c;
            } else if q != p {
                self.unhide(q);
            }
            q = self.nodes[q as usize].ulink;
        }
    }

    /// commit(p): the option of `p` is chosen; account for its item `i`. A primary item
    /// uses up one unit of its bound and is covered when none is left; a secondary item
    /// is covered when claimed outright and purified when colored (nothing to do when it
    /// is already purified with this color). Returns the updates made.
    #[inline(always)]
    pub fn commit(&mut self, p: u32, i: u32, color: i32) -> u64 {
        if self.is_primary(i) {
            self.items[i as usize].bound -= 1;
            if self.items[i as usize].bound == 0 {
                return self.cover(i);
            }
        } else if color == 0 {
            return self.cover(i);
        } else if color > 0 {
            return self.purify(p);
        }
        0
    }

    /// uncommit(p): undoes [`Dance::commit`].
    #[inline(always)]
    pub fn uncommit(&mut self, p: u32, i: u32, color: i32) {
        if self.is_primary(i) {
            if self.items[i as usize].bound == 0 {
                self.uncover(i);
            }
            self.items[i as usize].bound += 1;
        } else if color == 0 {
            self.uncover(i);
        } else if color > 0 {
            self.unpurify(p);
        }
    }

    /// Commits the items of `x`'s option other than `TOP(x)`, going right (M6); returns
    /// the updates made.
    #[inline]
    pub fn commit_others(&mut self, x: u32) -> u64 {
        let mut updates = 0;
        let mut p = x + 1;
        while p != x {
            let node = self.nodes[p as usize];
            if node.top <= 0 {
                p = node.ulink;
            } else {
                updates += self.commit(p, node.top as u32, node.color);
                p += 1;
            }
        }
        updates
    }

    /// Undoes [`Dance::commit_others`], going left (M7).
    #[inline]
    pub fn uncommit_others(&mut self, x: u32) {
        let mut p = x - 1;
        while p != x {
            let node = self.nodes[p as usize];
            if node.top <= 0 {
                p = node.dlink;
            } else {
                self.uncommit(p, node.top as u32, node.color);
                p -= 1;
            }
        }
    }

    /// tweak(x, i): `x` is the first option in item `i`'s list; take it out of that list,
    /// and (unless `i` is covered, Knuth's tweak') hide it from its other items. The item
    /// stays active: the next option of its list becomes the first. Returns the
    /// updates made.
    #[inline]
    pub fn tweak(&mut self, x: u32, i: u32, covered: bool) -> u64 {
        let mut updates = 1;
        if !covered {
            updates += self.hide(x);
        }
        let d = self.nodes[x as usize].dlink;
        self.nodes[i as usize].dlink = d;
        self.nodes[d as usize].ulink = i;
        self.items[i as usize].len -= 1;
        updates
    }

    /// untweak(a, i): restores item `i`'s list, whose options from `a` (the first one
    /// tweaked at this level) down to the current first were tweaked, and unhides them
    /// top-down (untweak'; when `covered`, the caller uncovers `i` afterwards). Tweaked
    /// options still point down at their successors, so `a` is all that must be saved.
    pub fn untweak(&mut self, a: u32, i: u32, covered: bool) {
        let z = self.nodes[i as usize].dlink;
        self.nodes[i as usize].dlink = a;
        let (mut x, mut y, mut k) = (a, i, 0);
        while x != z {
            self.nodes[x as usize].ulink = y;
            k += 1;
            if !covered {
                self.unhide(x);
            }
            y = x;
            x = self.nodes[x as usize].dlink;
        }
        self.nodes[z as usize].ulink = y;
        self.items[i as usize].len += k;
    }

    /// Takes every node of a forced option out of its list (none is TOP of a level).
    pub fn remove_option(&mut self, first: u32, end: u32) {
        for q in first..end {
            let node = self.nodes[q as usize];
            if node.color >= 0 {
                unlink(&mut self.nodes, &mut self.items, node);
            }
        }
    }

    /// Undoes [`Dance::remove_option`].
    pub fn restore_option(&mut self, first: u32, end: u32) {
        for q in (first..end).rev() {
            let node = self.nodes[q as usize];
            if node.color >= 0 {
                relink(&mut self.nodes, &mut self.items, q, node);
            }
        }
    }
}

/// Takes a node whose fields are `node` out of its item's list.
#[inline]
fn unlink(nodes: &mut [Node], items: &mut [Item], node: Node) {
    nodes[node.ulink as usize].dlink = node.dlink;
    nodes[node.dlink as usize].ulink = node.ulink;
    items[node.top as usize].len -= 1;
}

/// Puts node `q`, whose fields are `node`, back into its item's list.
#[inline]
fn relink(nodes: &mut [Node], items: &mut [Item], q: u32, node: Node) {
    nodes[node.ulink as usize].dlink = q;
    nodes[node.dlink as usize].ulink = q;
    items[node.top as usize].len += 1;
}

/// hide(p): takes the nodes of `p`'s option other than `p` out of their lists (going
/// right, round the option), skipping purified ones. One load of a node decides
/// everything: purified, spacer, or a node to unlink. Returns how many were unlinked.
#[inline]
fn hide(nodes: &mut [Node], items: &mut [Item], p: u32) -> u64 {
    let mut updates = 0;
    let mut q = p + 1;
    while q != p {
        let node = nodes[q as usize];
        if node.color >= 0 {
            if node.top <= 0 {
                // A spacer: wrap round to the first node of this option.
                q = node.ulink;
                continue;
            }
            unlink(nodes, items, node);
            updates += 1;
        }
        q += 1;
    }
    updates
}

/// unhide(p): undoes [`hide`], going left.
#[inline]
fn unhide(nodes: &mut [Node], items: &mut [Item], p: u32) {
    let mut q = p - 1;
    while q != p {
        let node = nodes[q as usize];
        if node.color >= 0 {
            if node.top <= 0 {
                q = node.dlink;
                continue;
            }
            relink(nodes, items, q, node);
        }
        q -= 1;
    }
}
