//! The memo table: the count of every subproblem met, under its whole state.
//!
//! Open addressing with linear probing. A slot holds the whole key (the state's words)
//! and its count; the hash only picks where the probe starts, and a hit compares every
//! word of the key, so two states that share a hash are never confused (the DXD code
//! and xcover key their memo on an unchecked hash and print wrong counts).
//!
//! The table doubles while the memory budget allows; when it may not grow, it stops
//! storing new states. What it holds stays right, so the count stays exact: states not
//! stored are counted again when they come back.

use std::sync::{Arc, Mutex};

use num_bigint::BigUint;

use super::Count;

/// Where a memo count keeps its counts: a [`Table`] of its own (one thread), or a
/// [`Shared`] table (threads). One thread takes no lock; the match costs a predicted
/// branch next to a lookup's hashing and memory traffic.
pub(super) enum Store {
    Own(Table),
    Shared(Arc<Shared>),
}

impl Store {
    /// The count stored under `key` (of hash `h`), if any.
    #[inline]
    pub fn get(&self, key: &[u64], h: u64) -> Option<Count> {
        match self {
            Store::Own(t) => t.get(key, h),
            Store::Shared(s) => s.stripe(h).get(key, h),
        }
    }

    /// Stores `count` under `key` (not stored before, or stored by another thread
    /// with the same count), unless there is no room.
    #[inline]
    pub fn put(&mut self, key: &[u64], h: u64, count: &Count) {
        match self {
            Store::Own(t) => t.put(key, h, count),
            Store::Shared(s) => {
                // Two threads may have counted the same state at once: the second
                // finds the first's count (the same) and keeps the one slot.
                let mut t = s.stripe(h);
                if t.find(key, h).is_none() {
                    t.put(key, h, count);
                }
            }
        }
    }

    /// States stored.
    pub fn len(&self) -> usize {
        match self {
            Store::Own(t) => t.len,
            Store::Shared(s) => s.sum(|t| t.len),
        }
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        match self {
            Store::Own(t) => t.bytes(),
            Store::Shared(s) => s.sum(Table::bytes),
        }
    }

    /// Whether it stopped storing for want of room.
    pub fn full(&self) -> bool {
        match self {
            Store::Own(t) => t.full,
            Store::Shared(s) => s.sum(|t| usize::from(t.full)) > 0,
        }
    }
}

/// A table that threads share: stripes, each a [`Table`] under its own lock, chosen by
/// the low bits of the hash (a stripe's slots by the high ones). A thread holds one
/// lock at a time, for one lookup or one store, never across a search. Every stored
/// count is exact, so whichever thread stores a state first, every thread's count is
/// the same.
pub(crate) struct Shared {
    stripes: Vec<Mutex<Table>>,
}

/// Stripes of a [`Shared`] table: many more than threads, so that two threads rarely
/// want the same lock.
const STRIPES: usize = 64;

impl Shared {
    /// An empty table for keys of `width` words, within `max_bytes` in all.
    pub fn new(width: usize, max_bytes: usize) -> Shared {
        Shared {
            stripes: (0..STRIPES)
                .map(|_| Mutex::new(Table::with_slots(width, max_bytes / STRIPES, 8)))
                .collect(),
        }
    }

    #[inline]
    fn stripe(&self, h: u64) -> std::sync::MutexGuard<'_, Table> {
        // A thread that panicked holding a stripe left it whole (a store is one
        // copy after the checks), so its lock is taken over.
        self.stripes[h as usize % STRIPES]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    fn sum(&self, f: impl Fn(&Table) -> usize) -> usize {
        self.stripes
            .iter()
            .map(|s| f(&s.lock().unwrap_or_else(|e| e.into_inner())))
            .sum()
    }
}

/// An empty slot's value.
const EMPTY: u64 = u64::MAX;
/// A value with this bit set is an index into the big counts.
const BIG: u64 = 1 << 63;

/// The table.
pub(super) struct Table {
    /// Words of a key.
    width: usize,
    /// `slots * width` words: the keys.
    keys: Vec<u64>,
    /// One value a slot: `EMPTY`, a count below 2^63, or `BIG | index` of `bigs`.
    vals: Vec<u64>,
    /// Counts of 2^63 and more.
    bigs: Vec<BigUint>,
    /// Slots in use.
    len: usize,
    /// log2 of the number of slots.
    bits: u32,
    /// The most bytes the table may take.
    max_bytes: usize,
    /// Whether it stopped storing because it may not grow.
    pub full: bool,
}

/// The hash of a key: a multiply-rotate over the words, mixed at the end.
#[inline]
pub(super) fn hash(key: &[u64]) -> u64 {
    let mut h: u64 = 0x243F_6A88_85A3_08D3;
    for &w in key {
        h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }
    h ^= h >> 32;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^ (h >> 29)
}

impl Table {
    /// An empty table for keys of `width` words, within `max_bytes`.
    pub fn new(width: usize, max_bytes: usize) -> Table {
        Table::with_slots(width, max_bytes, 12)
    }

    /// An empty table of at most `2^bits` slots to begin with.
    fn with_slots(width: usize, max_bytes: usize, bits: u32) -> Table {
        let mut t = Table {
            width,
            keys: Vec::new(),
            vals: Vec::new(),
            bigs: Vec::new(),
            len: 0,
            bits: 0,
            max_bytes,
            full: false,
        };
        let mut bits = bits;
        while bits > 4 && Table::bytes_for(width, bits) > max_bytes {
            bits -= 1;
        }
        if Table::bytes_for(width, bits) <= max_bytes {
            t.bits = bits;
            t.keys = vec![0; width << bits];
            t.vals = vec![EMPTY; 1 << bits];
        } else {
            t.full = true;
        }
        t
    }

    fn bytes_for(width: usize, bits: u32) -> usize {
        (width + 1).saturating_mul(8).saturating_mul(1 << bits)
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        Table::bytes_for(self.width, self.bits) * usize::from(!self.vals.is_empty())
            + self.bigs.len() * 32
    }

    /// The count stored under `key`, if any.
    #[inline]
    pub fn get(&self, key: &[u64], h: u64) -> Option<Count> {
        let v = self.vals[self.find(key, h)?];
        Some(if v & BIG == 0 {
            Count::Small(v)
        } else {
            Count::Big(self.bigs[(v & !BIG) as usize].clone())
        })
    }

    /// The slot that holds `key`, if any.
    #[inline]
    fn find(&self, key: &[u64], h: u64) -> Option<usize> {
        if self.vals.is_empty() {
            return None;
        }
        let mask = (1usize << self.bits) - 1;
        let mut s = (h >> (64 - self.bits)) as usize;
        loop {
            if self.vals[s] == EMPTY {
                return None;
            }
            if &self.keys[s * self.width..(s + 1) * self.width] == key {
                return Some(s);
            }
            s = (s + 1) & mask;
        }
    }

    /// Stores `count` under `key` (not stored before), unless the table is full.
    pub fn put(&mut self, key: &[u64], h: u64, count: &Count) {
        if self.full {
            return;
        }
        if (self.len + 1) * 4 > (3usize << self.bits) && !self.grow() {
            self.full = true;
            return;
        }
        let v = match count {
            Count::Small(n) if n & BIG == 0 => *n,
            c => {
                self.bigs.push(c.to_big());
                BIG | (self.bigs.len() - 1) as u64
            }
        };
        let s = self.free_slot(h);
        self.keys[s * self.width..(s + 1) * self.width].copy_from_slice(key);
        self.vals[s] = v;
        self.len += 1;
    }

    fn free_slot(&self, h: u64) -> usize {
        let mask = (1usize << self.bits) - 1;
        let mut s = (h >> (64 - self.bits)) as usize;
        while self.vals[s] != EMPTY {
            s = (s + 1) & mask;
        }
        s
    }

    /// Doubles the table if the budget allows: old and new are held together while
    /// the states move, so both must fit.
    fn grow(&mut self) -> bool {
        let bits = self.bits + 1;
        let need = Table::bytes_for(self.width, bits);
        let held = self.bytes();
        if need.saturating_add(held) > self.max_bytes || bits >= 48 {
            return false;
        }
        let gauge = crate::lower::budget::measured();
        if gauge
            && crate::lower::budget::in_use().saturating_add(need)
                > crate::lower::budget::budget() / 10 * 9
        {
            return false;
        }
        let (old_keys, old_vals) = (
            std::mem::replace(&mut self.keys, vec![0; self.width << bits]),
            std::mem::replace(&mut self.vals, vec![EMPTY; 1 << bits]),
        );
        self.bits = bits;
        for (s, &v) in old_vals.iter().enumerate() {
            if v != EMPTY {
                let key = &old_keys[s * self.width..(s + 1) * self.width];
                let t = self.free_slot(hash(key));
                self.keys[t * self.width..(t + 1) * self.width].copy_from_slice(key);
                self.vals[t] = v;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_whole_keys_and_stops_when_full() {
        let mut t = Table::new(2, 1 << 20);
        for i in 0..5000u64 {
            let key = [i, i * 7];
            t.put(&key, hash(&key), &Count::Small(i));
        }
        let big = Count::Big(BigUint::from(u64::MAX) * 3u32);
        t.put(&[9, 9], hash(&[9, 9]), &big);
        for i in 0..5000u64 {
            let key = [i, i * 7];
            assert_eq!(t.get(&key, hash(&key)), Some(Count::Small(i)));
            // Same hash, other key: a miss.
            assert_eq!(t.get(&[i, i * 7 + 1], hash(&key)), None);
        }
        assert_eq!(t.get(&[9, 9], hash(&[9, 9])), Some(big));
        let mut tiny = Table::new(1, 600);
        for i in 0..100u64 {
            tiny.put(&[i], hash(&[i]), &Count::Small(i));
        }
        assert!(tiny.full && tiny.len < 100);
        for i in 0..100u64 {
            let got = tiny.get(&[i], hash(&[i]));
            assert!(got.is_none() || got == Some(Count::Small(i)));
        }
    }
}
