//! Items and options by family and index values: what identifies them in a model.

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

use hashbrown::HashTable;

use crate::lower::value::Value;

/// Ids of items (or options, or anything else) by family and index values: what
/// identifies an item or option in a model.
///
/// A family's index values lie end to end in one arena (a family's index has the same
/// number of values for every member), as plain integers while every value is one. A
/// member costs its values and its id, not a boxed key and a map entry each: a family
/// of a million options is common. A lookup borrows the values it was given
/// (`&[Value]`) instead of building a key: forcing a sudoku's clues looks up 81 options
/// per record.
///
/// Most families are made by nested `for` loops over ranges, so their integer indexes
/// arrive in increasing order: such a family needs no hash table. Its members are found
/// by position when they fill a box (`cell[r, c]` for every `r` and `c` of two ranges)
/// and by binary search otherwise. The first index out of order builds the table.
#[derive(Clone, Debug)]
pub struct KeyIndex<V> {
    by_family: Vec<FamilyIndex<V>>,
}

/// The members of one family.
#[derive(Clone, Debug)]
struct FamilyIndex<V> {
    /// Values per member (the length of the family's index).
    width: usize,
    /// The index values of every member, `width` each, in insertion order.
    keys: Keys,
    /// The id of every member.
    ids: Vec<V>,
    /// Member numbers, hashed by their index values; `None` while the members are
    /// integer indexes in strictly increasing order.
    table: Option<HashTable<u32>>,
    /// The least and greatest value of each index position, while `table` is `None`.
    lo: Vec<i64>,
    hi: Vec<i64>,
}

/// The index values of a family's members, end to end.
#[derive(Clone, Debug)]
enum Keys {
    /// Every value so far is an integer (most families: `cell[r, c]`).
    Ints(Vec<i64>),
    /// Any values.
    Values(Vec<Value>),
}

impl<V> Default for FamilyIndex<V> {
    fn default() -> Self {
        FamilyIndex {
            width: 0,
            keys: Keys::Ints(Vec::new()),
            ids: Vec::new(),
            table: None,
            lo: Vec::new(),
            hi: Vec::new(),
        }
    }
}

impl<V: Copy> FamilyIndex<V> {
    /// Whether member `m` has the index `index` (of the family's width).
    fn is(&self, m: usize, index: &[Value]) -> bool {
        let at = m * self.width..(m + 1) * self.width;
        match &self.keys {
            Keys::Ints(xs) => xs[at]
                .iter()
                .zip(index)
                .all(|(x, v)| matches!(v, Value::Int(y) if x == y)),
            Keys::Values(vs) => &vs[at] == index,
        }
    }

    /// The index values of member `m`.
    fn key(&self, m: usize) -> Vec<Value> {
        let at = m * self.width..(m + 1) * self.width;
        match &self.keys {
            Keys::Ints(xs) => xs[at].iter().map(|&x| Value::Int(x)).collect(),
            Keys::Values(vs) => vs[at].to_vec(),
        }
    }

    /// The hash of member `m`'s index, equal to [`hash_of`] of its values.
    fn hash_member(keys: &Keys, width: usize, m: usize) -> u64 {
        let at = m * width..(m + 1) * width;
        match keys {
            Keys::Ints(xs) => hash_ints(&xs[at]),
            Keys::Values(vs) => hash_of(&vs[at]),
        }
    }

    fn find(&self, index: &[Value]) -> Option<usize> {
        if index.len() != self.width || self.ids.is_empty() {
            return None;
        }
        match &self.table {
            Some(table) => table
                .find(hash_of(index), |&m| self.is(m as usize, index))
                .map(|&m| m as usize),
            None => self.find_sorted(index),
        }
    }

    /// [`FamilyIndex::find`] while the members are increasing integer indexes: by
    /// position in their box when they fill it, by binary search otherwise.
    fn find_sorted(&self, index: &[Value]) -> Option<usize> {
        let Keys::Ints(xs) = &self.keys else {
            return None;
        };
        let in_box = index.iter().zip(&self.lo).zip(&self.hi);
        if !in_box
            .clone()
            .all(|((v, lo), hi)| matches!(v, Value::Int(x) if lo <= x && x <= hi))
        {
            return None;
        }
        if self.count_filled() {
            // The row-major place in the box: below the member count, so no overflow.
            let place = in_box.fold(0usize, |place, ((v, &lo), &hi)| {
                let x = v.as_int().unwrap_or(lo);
                place * (hi.abs_diff(lo) as usize + 1) + x.abs_diff(lo) as usize
            });
            return Some(place);
        }
        let w = self.width;
        let (mut a, mut b) = (0, self.ids.len());
        while a < b {
            let m = (a + b) / 2;
            match key_cmp(&xs[m * w..(m + 1) * w], index) {
                Ordering::Equal => return Some(m),
                Ordering::Less => a = m + 1,
                Ordering::Greater => b = m,
            }
        }
        None
    }

    /// Whether the members fill the box of their least and greatest values: then,
    /// being increasing, member `m` is the `m`-th point of the box in row-major order.
    fn count_filled(&self) -> bool {
        let mut size = 1usize;
        for (&lo, &hi) in self.lo.iter().zip(&self.hi) {
            let extent = usize::try_from(hi.abs_diff(lo))
                .ok()
                .and_then(|e| e.checked_add(1));
            match extent.and_then(|e| size.checked_mul(e)) {
                Some(s) => size = s,
                None => return false,
            }
        }
        size == self.ids.len()
    }

    /// Builds the hash table of the members, once: at the first index out of order.
    fn build_table(&mut self) {
        let (keys, width) = (&self.keys, self.width);
        self.table.get_or_insert_with(|| {
            let mut table = HashTable::with_capacity(self.ids.len());
            for m in 0..self.ids.len() {
                let h = Self::hash_member(keys, width, m);
                table.insert_unique(h, m as u32, |&m| Self::hash_member(keys, width, m as usize));
            }
            table
        });
    }

    /// Whether `index` is all integers and comes after the last member's.
    fn extends_sorted(&self, index: &[Value]) -> bool {
        let Keys::Ints(xs) = &self.keys else {
            return false;
        };
        if index.iter().any(|v| !matches!(v, Value::Int(_))) {
            return false;
        }
        match xs.len().checked_sub(self.width) {
            Some(at) => key_cmp(&xs[at..], index) == Ordering::Less,
            None => true,
        }
    }
}

/// How a member's integer index compares with `index`, all of whose values are
/// integers, in lexicographic order.
fn key_cmp(key: &[i64], index: &[Value]) -> Ordering {
    key.iter()
        .zip(index)
        .map(|(k, v)| k.cmp(&v.as_int().unwrap_or(i64::MIN)))
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// The hash of a family's index values. Integers hash alike whether they are stored as
/// values or as plain integers.
fn hash_of(index: &[Value]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    for v in index {
        match v {
            Value::Int(x) => h.write_i64(*x),
            // A character (a sudoku's digit): its byte, without the string hasher's
            // length and end marker. Strings of other lengths hash as below; a
            // one-byte string and a longer one are never equal, so they may collide.
            Value::Str(s) if s.len() == 1 => {
                h.write_u8(0xfe);
                h.write_u8(s.as_bytes()[0]);
            }
            other => {
                h.write_u8(0xff);
                other.hash(&mut h);
            }
        }
    }
    h.finish()
}

/// [`hash_of`] of integers.
fn hash_ints(xs: &[i64]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    for &x in xs {
        h.write_i64(x);
    }
    h.finish()
}

impl<V> Default for KeyIndex<V> {
    fn default() -> Self {
        KeyIndex {
            by_family: Vec::new(),
        }
    }
}

impl<V: Copy> KeyIndex<V> {
    /// The entry of `family` at `index`.
    pub fn get(&self, family: usize, index: &[Value]) -> Option<V> {
        let f = self.by_family.get(family)?;
        f.find(index).map(|m| f.ids[m])
    }

    /// Whether `family` has an entry at `index`.
    pub fn contains(&self, family: usize, index: &[Value]) -> bool {
        self.get(family, index).is_some()
    }

    /// An index of `family` that differs from `index` only in the kind of some
    /// components, a string where the family has an integer written the same (`"1"`
    /// for `1`) or the other way round: what a lookup that failed most likely meant.
    /// The least such index in value order, so the answer does not depend on hashing.
    /// Scans the family: call it only when a lookup has failed.
    pub fn near_miss(&self, family: usize, index: &[Value]) -> Option<Vec<Value>> {
        let f = self.by_family.get(family)?;
        if f.width != index.len() {
            return None;
        }
        (0..f.ids.len())
            .map(|m| f.key(m))
            .filter(|k| k.iter().zip(index).all(|(a, b)| same_but_kind(a, b)))
            .min()
    }

    /// Every entry of `family`, in the order they were added.
    pub fn entries(&self, family: usize) -> impl Iterator<Item = (Vec<Value>, V)> + '_ {
        self.by_family
            .get(family)
            .into_iter()
            .flat_map(|f| (0..f.ids.len()).map(move |m| (f.key(m), f.ids[m])))
    }

    /// How many entries `family` has.
    pub fn count(&self, family: usize) -> usize {
        self.by_family.get(family).map_or(0, |f| f.ids.len())
    }

    /// Makes room for `members` more entries of `family`, of `width` values each, when
    /// memory allows.
    pub fn reserve(&mut self, family: usize, members: usize, width: usize) {
        if self.by_family.len() <= family {
            self.by_family.resize_with(family + 1, FamilyIndex::default);
        }
        let f = &mut self.by_family[family];
        let _ = f.ids.try_reserve_exact(members);
        if let Keys::Ints(xs) = &mut f.keys {
            let _ = xs.try_reserve_exact(members.saturating_mul(width));
        }
    }

    /// Adds an entry, even when `index` is there already (then [`KeyIndex::get`] finds
    /// either). A family's indexes all have the length of its first one (the family's
    /// index list); an index of another length is not added.
    pub fn insert(&mut self, family: usize, index: &[Value], v: V) {
        self.add(family, index, v, false);
    }

    /// Adds an entry unless `index` is there already; whether it was added. One lookup
    /// where [`KeyIndex::contains`] and [`KeyIndex::insert`] would make two.
    pub fn insert_new(&mut self, family: usize, index: &[Value], v: V) -> bool {
        self.add(family, index, v, true)
    }

    fn add(&mut self, family: usize, index: &[Value], v: V, unique: bool) -> bool {
        if self.by_family.len() <= family {
            self.by_family.resize_with(family + 1, FamilyIndex::default);
        }
        let f = &mut self.by_family[family];
        if f.ids.is_empty() {
            f.width = index.len();
        } else if index.len() != f.width {
            return false;
        }
        let Ok(member) = u32::try_from(f.ids.len()) else {
            return false; // 2^32 members: the size limit and the memory budget stop far sooner
        };
        if f.table.is_none() && f.extends_sorted(index) {
            // In order: new, and no table to keep.
            let ints = index.iter().filter_map(Value::as_int);
            if f.ids.is_empty() {
                f.lo = ints.clone().collect();
                f.hi = f.lo.clone();
            } else {
                for ((x, lo), hi) in ints.clone().zip(&mut f.lo).zip(&mut f.hi) {
                    *lo = (*lo).min(x);
                    *hi = (*hi).max(x);
                }
            }
            if let Keys::Ints(xs) = &mut f.keys {
                xs.extend(ints);
            }
            f.ids.push(v);
            return true;
        }
        f.build_table();
        let hash = hash_of(index);
        if unique && f.find(index).is_some() {
            return false;
        }
        match &mut f.keys {
            Keys::Ints(xs) if index.iter().all(|v| matches!(v, Value::Int(_))) => {
                xs.extend(index.iter().filter_map(Value::as_int));
            }
            Keys::Ints(xs) => {
                let mut vs: Vec<Value> = xs.iter().map(|&x| Value::Int(x)).collect();
                vs.extend_from_slice(index);
                f.keys = Keys::Values(vs);
            }
            Keys::Values(vs) => vs.extend_from_slice(index),
        }
        f.ids.push(v);
        let (keys, width) = (&f.keys, f.width);
        if let Some(table) = &mut f.table {
            table.insert_unique(hash, member, |&m| {
                FamilyIndex::<V>::hash_member(keys, width, m as usize)
            });
        }
        true
    }
}

/// Whether two values are equal, or would be if every string and integer in them
/// that are written alike (`"1"`, `1`) were of one kind.
fn same_but_kind(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Str(s), Value::Int(i)) | (Value::Int(i), Value::Str(s)) => **s == *i.to_string(),
        (Value::Tuple(xs), Value::Tuple(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| same_but_kind(x, y))
        }
        _ => a == b,
    }
}

/// The note for a lookup of `index` that failed where `found` exists: which component
/// differs, and how, naming both kinds (strings quoted, as the language writes them).
pub fn kind_mismatch_note(family: &str, index: &[Value], found: &[Value]) -> String {
    let (k, (mine, theirs)) = index
        .iter()
        .zip(found)
        .enumerate()
        .find(|(_, (a, b))| a.kind() != b.kind() || a != b)
        .map_or((0, (&index[0], &found[0])), |(k, pair)| (k, pair));
    format!(
        "`{}` exists: its {} index is {} {theirs:#}, here it is {} {mine:#}; convert with `{}`",
        display_name(family, found),
        ordinal(k),
        article(theirs),
        article(mine),
        if theirs.as_int().is_some() {
            "int(...)"
        } else {
            "str(...)"
        },
    )
}

/// "an integer", "a string", or the kind of a compound component.
fn article(v: &Value) -> &'static str {
    match v {
        Value::Int(_) => "the integer",
        Value::Str(_) => "the string",
        other => other.kind().described(),
    }
}

/// "first", "second"... for the place of an index component.
fn ordinal(k: usize) -> String {
    match k {
        0 => "first".into(),
        1 => "second".into(),
        2 => "third".into(),
        3 => "fourth".into(),
        n => format!("number {}", n + 1),
    }
}

/// `family[a,b,c]`, the way items and options are named.
pub fn display_name(family: &str, index: &[Value]) -> String {
    let mut s = String::with_capacity(family.len() + 4 * index.len() + 2);
    write_display_name(&mut s, family, index);
    s
}

/// [`display_name`], written at the end of `out`: an option's name goes straight into
/// the problem's text of names.
pub fn write_display_name(out: &mut String, family: &str, index: &[Value]) {
    out.push_str(family);
    if index.is_empty() {
        return;
    }
    out.push('[');
    for (i, v) in index.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        v.write_name_part(out);
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    fn ints(xs: &[i64]) -> Vec<Value> {
        xs.iter().map(|&x| Value::Int(x)).collect()
    }

    /// Every lookup agrees with a plain list of what was added, whatever the mode.
    fn agrees(index: &KeyIndex<u32>, added: &[(Vec<Value>, u32)], probes: &[Vec<Value>]) {
        for probe in probes {
            let want = added.iter().find(|(k, _)| k == probe).map(|&(_, v)| v);
            assert_eq!(index.get(0, probe), want, "{probe:?}");
        }
        assert_eq!(index.count(0), added.len());
        let listed: Vec<(Vec<Value>, u32)> = index.entries(0).collect();
        assert_eq!(listed, added);
    }

    #[test]
    fn a_filled_box_is_found_by_position_without_a_table() {
        let mut index = KeyIndex::default();
        let mut added = Vec::new();
        for r in -2..3 {
            for c in 0..4 {
                let key = ints(&[r, c]);
                assert!(index.insert_new(0, &key, added.len() as u32));
                added.push((key, added.len() as u32));
            }
        }
        let f = &index.by_family[0];
        assert!(f.table.is_none() && f.count_filled());
        let probes: Vec<Vec<Value>> = (-4..5)
            .flat_map(|r| (-1..6).map(move |c| ints(&[r, c])))
            .chain([vec![Value::str("0"), Value::Int(0)], ints(&[0])])
            .collect();
        agrees(&index, &added, &probes);
        assert!(
            !index.insert_new(0, &ints(&[0, 0]), 99),
            "a repeat is refused"
        );
    }

    #[test]
    fn increasing_keys_with_holes_use_binary_search_then_a_table_when_out_of_order() {
        let mut rng = Rng(7);
        for _ in 0..50 {
            let mut index = KeyIndex::default();
            let mut added: Vec<(Vec<Value>, u32)> = Vec::new();
            // Increasing keys with holes: `where r != c` and the like.
            for r in 0..6 {
                for c in 0..6 {
                    if rng.next(3) > 0 {
                        let key = ints(&[r, c]);
                        assert!(index.insert_new(0, &key, added.len() as u32));
                        added.push((key, added.len() as u32));
                    }
                }
            }
            assert!(index.by_family[0].table.is_none());
            let probes: Vec<Vec<Value>> = (-1..7)
                .flat_map(|r| (-1..7).map(move |c| ints(&[r, c])))
                .collect();
            agrees(&index, &added, &probes);
            // Out of order: a table from now on, same answers.
            let key = ints(&[-5, rng.next(9) as i64]);
            assert!(index.insert_new(0, &key, 1000));
            added.push((key, 1000));
            assert!(index.by_family[0].table.is_some());
            agrees(&index, &added, &probes);
            for (k, _) in added.clone() {
                assert!(!index.insert_new(0, &k, 5));
            }
        }
    }

    #[test]
    fn strings_and_repeats_go_to_the_table() {
        let mut index = KeyIndex::default();
        index.insert(0, &[Value::str("b")], 1u32);
        index.insert(0, &[Value::str("a")], 2);
        index.insert(0, &ints(&[3]), 3);
        assert_eq!(index.get(0, &[Value::str("a")]), Some(2));
        assert_eq!(index.get(0, &ints(&[3])), Some(3));
        assert_eq!(index.get(0, &[Value::str("3")]), None);
        assert_eq!(index.near_miss(0, &[Value::str("3")]), Some(ints(&[3])));
        // `insert` keeps repeats; either is found.
        let mut rep = KeyIndex::default();
        rep.insert(0, &ints(&[1]), 1u32);
        rep.insert(0, &ints(&[1]), 2);
        assert!(matches!(rep.get(0, &ints(&[1])), Some(1 | 2)));
        assert_eq!(rep.count(0), 2);
    }
}
