//! The dance steps of Knuth's DLX3 (TAOCP 7.2.2.1, Algorithm M with Algorithm C's
//! colors): cover and uncover, hide and unhide, purify and unpurify, tweak and untweak,
//! commit and uncommit.
//!
//! The structure is DLX1's ([`Links`]) plus three arrays:
//!
//! - `color[x]` for every node: 0 when the option claims its (secondary) item
//!   exclusively, `c + 1` for color `c`, and `-1` while the item is *purified* and this
//!   node agrees with the purifying color (Knuth's convention). Nodes with `color < 0`
//!   are skipped by hide and unhide: their item's list is never walked while it is
//!   purified, except by `unpurify`, so leaving them in place is safe and saves work.
//! - `bound[i]` for every primary item: how many more chosen options may cover it
//!   (Knuth's BOUND, `hi` minus the options chosen so far).
//! - `slack[i]`: `hi - lo`, constant (Knuth's SLACK). `bound - slack` is how many more
//!   options *must* cover the item.
//!
//! Every operation here has an exact inverse, applied in last-in-first-out order.

use crate::solve::links::Links;

/// DLX1's links with DLX3's colors, bounds and slacks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Dance {
    /// LLINK/RLINK, ULINK/DLINK/TOP, LEN (`Links::len`).
    pub links: Links,
    /// COLOR of each node (see the module documentation).
    pub color: Vec<i32>,
    /// BOUND of each internal item `1..=n1` (index 0 and secondary items unused).
    pub bound: Vec<i32>,
    /// SLACK of each internal item `1..=n1`.
    pub slack: Vec<i32>,
}

impl Dance {
    /// Whether internal item `i` is primary.
    #[inline]
    pub fn is_primary(&self, i: u32) -> bool {
        i <= self.links.n_primary
    }

    /// LEN of item `i`: how many options remain in its list.
    #[inline]
    pub fn len(&self, i: u32) -> i32 {
        self.links.len[i as usize]
    }

    /// Removes item `i` from its horizontal list (the active list for a primary item,
    /// the list of secondary items otherwise).
    #[inline]
    pub fn deactivate(&mut self, i: u32) {
        let h = self.links.items[i as usize];
        self.links.items[h.llink as usize].rlink = h.rlink;
        self.links.items[h.rlink as usize].llink = h.llink;
    }

    /// Undoes [`Dance::deactivate`].
    #[inline]
    pub fn reactivate(&mut self, i: u32) {
        let h = self.links.items[i as usize];
        self.links.items[h.llink as usize].rlink = i;
        self.links.items[h.rlink as usize].llink = i;
    }

    /// Takes node `q` out of its item's list (unless it is purified).
    #[inline]
    fn unlink_node(&mut self, q: u32, updates: &mut u64) {
        if self.color[q as usize] < 0 {
            return;
        }
        let node = self.links.nodes[q as usize];
        self.links.nodes[node.ulink as usize].dlink = node.dlink;
        self.links.nodes[node.dlink as usize].ulink = node.ulink;
        self.links.len[node.top as usize] -= 1;
        *updates += 1;
    }

    /// Puts node `q` back into its item's list (unless it is purified).
    #[inline]
    fn relink_node(&mut self, q: u32) {
        if self.color[q as usize] < 0 {
            return;
        }
        let node = self.links.nodes[q as usize];
        self.links.nodes[node.ulink as usize].dlink = q;
        self.links.nodes[node.dlink as usize].ulink = q;
        self.links.len[node.top as usize] += 1;
    }

    /// hide(p): takes the nodes of `p`'s option other than `p` out of their lists.
    #[inline]
    pub fn hide(&mut self, p: u32, updates: &mut u64) {
        let mut q = p + 1;
        while q != p {
            let node = self.links.nodes[q as usize];
            if node.top <= 0 {
                // A spacer: wrap round to the first node of this option.
                q = node.ulink;
            } else {
                self.unlink_node(q, updates);
                q += 1;
            }
        }
    }

    /// unhide(p): undoes [`Dance::hide`], going left.
    #[inline]
    pub fn unhide(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let node = self.links.nodes[q as usize];
            if node.top <= 0 {
                q = node.dlink;
            } else {
                self.relink_node(q);
                q -= 1;
            }
        }
    }

    /// cover(i): deactivates item `i` and hides every option in its list.
    pub fn cover(&mut self, i: u32, updates: &mut u64) {
        self.deactivate(i);
        *updates += 1;
        let mut p = self.links.nodes[i as usize].dlink;
        while p != i {
            self.hide(p, updates);
            p = self.links.nodes[p as usize].dlink;
        }
    }

    /// uncover(i): undoes [`Dance::cover`], bottom-up.
    pub fn uncover(&mut self, i: u32) {
        let mut p = self.links.nodes[i as usize].ulink;
        while p != i {
            self.unhide(p);
            p = self.links.nodes[p as usize].ulink;
        }
        self.reactivate(i);
    }

    /// purify(p): the option of `p` gives its secondary item `i` the color `c`; hide every
    /// option that gives `i` another color or claims it outright, and mark the options
    /// that agree (color `-1`) so that they do not purify `i` again.
    pub fn purify(&mut self, p: u32, updates: &mut u64) {
        let i = self.links.nodes[p as usize].top as u32;
        let c = self.color[p as usize];
        *updates += 1;
        let mut q = self.links.nodes[i as usize].dlink;
        while q != i {
            if self.color[q as usize] == c {
                if q != p {
                    self.color[q as usize] = -1;
                }
            } else {
                self.hide(q, updates);
            }
            q = self.links.nodes[q as usize].dlink;
        }
    }

    /// unpurify(p): undoes [`Dance::purify`], bottom-up.
    pub fn unpurify(&mut self, p: u32) {
        let i = self.links.nodes[p as usize].top as u32;
        let c = self.color[p as usize];
        let mut q = self.links.nodes[i as usize].ulink;
        while q != i {
            if self.color[q as usize] < 0 {
                self.color[q as usize] = c;
            } else if q != p {
                self.unhide(q);
            }
            q = self.links.nodes[q as usize].ulink;
        }
    }

    /// commit(p): the option of `p` is chosen; account for its item. A primary item uses
    /// up one unit of its bound and is covered when none is left; a secondary item is
    /// covered when claimed outright and purified when colored (nothing to do when it is
    /// already purified with this color).
    pub fn commit(&mut self, p: u32, updates: &mut u64) {
        let i = self.links.nodes[p as usize].top as u32;
        if self.is_primary(i) {
            self.bound[i as usize] -= 1;
            if self.bound[i as usize] == 0 {
                self.cover(i, updates);
            }
        } else {
            match self.color[p as usize] {
                0 => self.cover(i, updates),
                c if c > 0 => self.purify(p, updates),
                _ => {}
            }
        }
    }

    /// uncommit(p): undoes [`Dance::commit`].
    pub fn uncommit(&mut self, p: u32) {
        let i = self.links.nodes[p as usize].top as u32;
        if self.is_primary(i) {
            if self.bound[i as usize] == 0 {
                self.uncover(i);
            }
            self.bound[i as usize] += 1;
        } else {
            match self.color[p as usize] {
                0 => self.uncover(i),
                c if c > 0 => self.unpurify(p),
                _ => {}
            }
        }
    }

    /// Commits the items of `x`'s option other than `TOP(x)`, going right (M6).
    pub fn commit_others(&mut self, x: u32, updates: &mut u64) {
        let mut p = x + 1;
        while p != x {
            let node = self.links.nodes[p as usize];
            if node.top <= 0 {
                p = node.ulink;
            } else {
                self.commit(p, updates);
                p += 1;
            }
        }
    }

    /// Undoes [`Dance::commit_others`], going left (M7).
    pub fn uncommit_others(&mut self, x: u32) {
        let mut p = x - 1;
        while p != x {
            let node = self.links.nodes[p as usize];
            if node.top <= 0 {
                p = node.dlink;
            } else {
                self.uncommit(p);
                p -= 1;
            }
        }
    }

    /// tweak(x, i): `x` is the first option in item `i`'s list; take it out of that list,
    /// and (unless `i` is covered, Knuth's tweak') hide it from its other items. The item
    /// stays active: the next option of its list becomes the first.
    #[inline]
    pub fn tweak(&mut self, x: u32, i: u32, covered: bool, updates: &mut u64) {
        if !covered {
            self.hide(x, updates);
        }
        let d = self.links.nodes[x as usize].dlink;
        self.links.nodes[i as usize].dlink = d;
        self.links.nodes[d as usize].ulink = i;
        self.links.len[i as usize] -= 1;
        *updates += 1;
    }

    /// untweak(a, i): restores item `i`'s list, whose options from `a` (the first one
    /// tweaked at this level) down to the current first were tweaked, and unhides them
    /// top-down (untweak'; when `covered`, the caller uncovers `i` afterwards). Tweaked
    /// options still point down at their successors, so `a` is all that must be saved.
    pub fn untweak(&mut self, a: u32, i: u32, covered: bool) {
        let z = self.links.nodes[i as usize].dlink;
        self.links.nodes[i as usize].dlink = a;
        let (mut x, mut y, mut k) = (a, i, 0);
        while x != z {
            self.links.nodes[x as usize].ulink = y;
            k += 1;
            if !covered {
                self.unhide(x);
            }
            y = x;
            x = self.links.nodes[x as usize].dlink;
        }
        self.links.nodes[z as usize].ulink = y;
        self.links.len[i as usize] += k;
    }

    /// Takes every node of a forced option out of its list (none is TOP of a level).
    pub fn remove_option(&mut self, first: u32, end: u32, updates: &mut u64) {
        for q in first..end {
            self.unlink_node(q, updates);
        }
    }

    /// Undoes [`Dance::remove_option`].
    pub fn restore_option(&mut self, first: u32, end: u32) {
        for q in (first..end).rev() {
            self.relink_node(q);
        }
    }
}
