//! Values of the language.
//!
//! Values are immutable and cheap to clone: compound values share their contents
//! through `Rc`. Every value has a total order (first by kind, then by contents), which
//! gives sets and maps a deterministic iteration order, and so item and option order,
//! solution order and output order are the same on every run.
//!
//! Characters are one-character strings; a grid from a data record is a list of
//! strings, one per row; a shape is a set of `(row, col)` tuples.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Write as _};
use std::rc::Rc;

thread_local! {
    /// The one-character strings of the ASCII characters, shared by [`Value::str`].
    static ASCII: Rc<AsciiChars> = Rc::new(AsciiChars(std::array::from_fn(|b| {
        let c = char::from(b as u8);
        Rc::from(c.encode_utf8(&mut [0; 4]) as &str)
    })));
}

/// The shared one-character strings of the ASCII characters, held by a caller that
/// makes many of them (the compiled forces read a grid's cells): one look-up of the
/// thread's table instead of one per character.
#[derive(Debug)]
pub struct AsciiChars([Rc<str>; 128]);

impl AsciiChars {
    /// This thread's table.
    pub fn shared() -> Rc<AsciiChars> {
        ASCII.with(Rc::clone)
    }

    /// The one-character string of ASCII byte `b` (`b < 128`).
    #[inline]
    pub fn get(&self, b: u8) -> Value {
        Value::Str(self.rc(b))
    }

    /// The shared text of [`AsciiChars::get`].
    #[inline]
    pub fn rc(&self, b: u8) -> Rc<str> {
        debug_assert!(b.is_ascii());
        Rc::clone(&self.0[usize::from(b & 127)])
    }
}

/// A value of the language.
///
/// The discriminant is a whole word (`repr(u64)`): a value is then moved as three
/// aligned words. With a one-byte tag, moving a returned value read back bytes 1..8 in
/// pieces that straddled the callee's separate stores of tag and payload, a store
/// forwarding stall on every return of the evaluator (the hottest instructions of
/// lowering a sudoku record).
#[derive(Clone, Debug)]
#[repr(u64)]
pub enum Value {
    /// A 64-bit integer; arithmetic that overflows is an error, never a wrap.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A string; a one-character string doubles as a character.
    Str(Rc<str>),
    /// A tuple `(a, b, ...)`.
    Tuple(Rc<[Value]>),
    /// A list `[a, b, ...]`.
    List(Rc<Vec<Value>>),
    /// A set `{a, b, ...}`, ordered by the values' order.
    Set(Rc<BTreeSet<Value>>),
    /// A map `{k: v, ...}`, ordered by key.
    Map(Rc<BTreeMap<Value, Value>>),
    /// A range of integers `lo..hi` (half-open; `a..=b` is stored as `a..b+1`).
    Range(i64, i64),
}

/// The kind of a value, for messages ("expected a set, found an integer").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// An integer.
    Int,
    /// A boolean.
    Bool,
    /// A string.
    Str,
    /// A tuple.
    Tuple,
    /// A list.
    List,
    /// A set.
    Set,
    /// A map.
    Map,
    /// A range.
    Range,
}

impl Kind {
    /// The kind with its article, as used in messages: "an integer", "a set".
    pub fn described(self) -> &'static str {
        match self {
            Kind::Int => "an integer",
            Kind::Bool => "a boolean",
            Kind::Str => "a string",
            Kind::Tuple => "a tuple",
            Kind::List => "a list",
            Kind::Set => "a set",
            Kind::Map => "a map",
            Kind::Range => "a range",
        }
    }
}

impl Value {
    /// A string value. One-character ASCII strings (the characters of grids and
    /// alphabets) are shared from a table instead of allocated: evaluating
    /// `puzzle[r][c]` for every cell of every record makes a great many of them.
    pub fn str(s: &str) -> Value {
        if let &[b] = s.as_bytes()
            && b.is_ascii()
        {
            return Value::ascii(b);
        }
        Value::Str(Rc::from(s))
    }

    /// The one-character string of ASCII byte `b` (`b < 128`), shared.
    #[inline]
    pub fn ascii(b: u8) -> Value {
        ASCII.with(|t| t.get(b))
    }

    /// A tuple value.
    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(Rc::from(items))
    }

    /// A list value.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(items))
    }

    /// A set value.
    pub fn set(items: impl IntoIterator<Item = Value>) -> Value {
        Value::Set(Rc::new(items.into_iter().collect()))
    }

    /// The empty set, which is also what `{}` means.
    pub fn empty_set() -> Value {
        Value::Set(Rc::new(BTreeSet::new()))
    }

    /// The kind of this value.
    pub fn kind(&self) -> Kind {
        match self {
            Value::Int(_) => Kind::Int,
            Value::Bool(_) => Kind::Bool,
            Value::Str(_) => Kind::Str,
            Value::Tuple(_) => Kind::Tuple,
            Value::List(_) => Kind::List,
            Value::Set(_) => Kind::Set,
            Value::Map(_) => Kind::Map,
            Value::Range(..) => Kind::Range,
        }
    }

    /// The integer, if this is one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, if this value can be iterated: a list, tuple, set, range, string
    /// (its characters) or map (its `(key, value)` pairs). Ranges and strings are expanded.
    pub fn elements(&self) -> Option<Vec<Value>> {
        Some(match self {
            Value::List(xs) => xs.as_ref().clone(),
            Value::Tuple(xs) => xs.to_vec(),
            Value::Set(xs) => xs.iter().cloned().collect(),
            Value::Map(m) => m
                .iter()
                .map(|(k, v)| Value::tuple(vec![k.clone(), v.clone()]))
                .collect(),
            Value::Range(lo, hi) => (*lo..*hi).map(Value::Int).collect(),
            Value::Str(s) => s
                .chars()
                .map(|c| Value::str(c.encode_utf8(&mut [0; 4])))
                .collect(),
            Value::Int(_) | Value::Bool(_) => return None,
        })
    }

    /// Calls `f` on each element in order without building a vector (see
    /// [`Value::elements`] for what the elements are). Stops early when `f` returns
    /// `Err`. Returns `None` if the value cannot be iterated.
    pub fn try_for_each<E>(
        &self,
        mut f: impl FnMut(Value) -> Result<(), E>,
    ) -> Option<Result<(), E>> {
        let r = match self {
            Value::List(xs) => xs.iter().try_for_each(|x| f(x.clone())),
            Value::Tuple(xs) => xs.iter().try_for_each(|x| f(x.clone())),
            Value::Set(xs) => xs.iter().try_for_each(|x| f(x.clone())),
            Value::Map(m) => m
                .iter()
                .try_for_each(|(k, v)| f(Value::tuple(vec![k.clone(), v.clone()]))),
            Value::Range(lo, hi) => (*lo..*hi).try_for_each(|i| f(Value::Int(i))),
            Value::Str(s) => s
                .chars()
                .try_for_each(|c| f(Value::str(c.encode_utf8(&mut [0; 4])))),
            Value::Int(_) | Value::Bool(_) => return None,
        };
        Some(r)
    }

    /// The number of elements, if the value is a collection.
    pub fn len(&self) -> Option<usize> {
        Some(match self {
            Value::List(xs) => xs.len(),
            Value::Tuple(xs) => xs.len(),
            Value::Set(xs) => xs.len(),
            Value::Map(m) => m.len(),
            Value::Range(lo, hi) => usize::try_from(hi.saturating_sub(*lo)).unwrap_or(0),
            Value::Str(s) => s.chars().count(),
            Value::Int(_) | Value::Bool(_) => return None,
        })
    }

    /// Whether the value is an empty collection; `None` if it is not a collection.
    pub fn is_empty(&self) -> Option<bool> {
        self.len().map(|n| n == 0)
    }

    /// Whether `x` is an element of this collection (a key of a map, a substring of a
    /// string). `None` if this value is not a collection.
    pub fn contains(&self, x: &Value) -> Option<bool> {
        Some(match self {
            Value::List(xs) => xs.contains(x),
            Value::Tuple(xs) => xs.contains(x),
            Value::Set(xs) => xs.contains(x),
            Value::Map(m) => m.contains_key(x),
            Value::Range(lo, hi) => x.as_int().is_some_and(|i| *lo <= i && i < *hi),
            Value::Str(s) => x.as_str().is_some_and(|t| match t.as_bytes() {
                // `c in alphabet` is the common case, a byte search. Alphabets are
                // short, and a plain loop over them beats `memchr`'s setup.
                [b] if b.is_ascii() && s.len() <= 64 => s.bytes().any(|c| c == *b),
                [b] if b.is_ascii() => s.as_bytes().contains(b),
                _ => s.contains(t),
            }),
            Value::Int(_) | Value::Bool(_) => return None,
        })
    }

    /// Writes the value as an index component of an item or option name: integers and
    /// strings bare (`cell[3,4]`, `row[0,A]`), compound values as the language prints them.
    pub fn write_name_part(&self, out: &mut String) {
        match self {
            Value::Str(s) => out.push_str(s),
            // Names of a million options are mostly integers: written without `fmt`.
            Value::Int(i) => {
                let mut digits = [0u8; 20];
                let (mut n, mut at) = (i.unsigned_abs(), digits.len());
                loop {
                    at -= 1;
                    digits[at] = b'0' + (n % 10) as u8;
                    n /= 10;
                    if n == 0 {
                        break;
                    }
                }
                if *i < 0 {
                    out.push('-');
                }
                out.extend(digits[at..].iter().map(|&d| char::from(d)));
            }
            other => {
                let _ = write!(out, "{other}");
            }
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        // The common cases without the whole order (an option's index is looked up by
        // comparing integers and one-character strings).
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Str(a), Value::Str(b)) => Rc::ptr_eq(a, b) || a == b,
            _ => self.cmp(other) == Ordering::Equal,
        }
    }
}

impl Eq for Value {}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        use Value::*;
        match (self, other) {
            (Int(a), Int(b)) => a.cmp(b),
            (Bool(a), Bool(b)) => a.cmp(b),
            (Str(a), Str(b)) => a.cmp(b),
            (Tuple(a), Tuple(b)) => a.iter().cmp(b.iter()),
            (List(a), List(b)) => a.iter().cmp(b.iter()),
            (Set(a), Set(b)) => a.iter().cmp(b.iter()),
            (Map(a), Map(b)) => a.iter().cmp(b.iter()),
            (Range(a, b), Range(c, d)) => {
                // All empty ranges are equal, as the sets of integers they denote are.
                match (a >= b, c >= d) {
                    (true, true) => Ordering::Equal,
                    _ => (a, b).cmp(&(c, d)),
                }
            }
            _ => self.kind().cmp(&other.kind()),
        }
    }
}

impl std::hash::Hash for Value {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.kind().hash(state);
        match self {
            Value::Int(i) => i.hash(state),
            Value::Bool(b) => b.hash(state),
            Value::Str(s) => s.hash(state),
            Value::Tuple(xs) => xs.iter().for_each(|x| x.hash(state)),
            Value::List(xs) => xs.iter().for_each(|x| x.hash(state)),
            Value::Set(xs) => xs.iter().for_each(|x| x.hash(state)),
            Value::Map(m) => m.iter().for_each(|(k, v)| {
                k.hash(state);
                v.hash(state);
            }),
            Value::Range(a, b) => {
                if a < b {
                    (a, b).hash(state)
                }
            }
        }
    }
}

fn write_seq<'a>(
    f: &mut fmt::Formatter<'_>,
    open: &str,
    items: impl Iterator<Item = &'a Value>,
    close: &str,
) -> fmt::Result {
    f.write_str(open)?;
    for (i, x) in items.enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{x:#}")?;
    }
    f.write_str(close)
}

/// Values print as the language writes them. Strings print bare with `{}` and quoted
/// with `{:#}`; inside compound values they are always quoted.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Str(s) if f.alternate() => write!(f, "{:?}", &**s),
            Value::Str(s) => f.write_str(s),
            Value::Tuple(xs) if xs.len() == 1 => write!(f, "({:#},)", xs[0]),
            Value::Tuple(xs) => write_seq(f, "(", xs.iter(), ")"),
            Value::List(xs) => write_seq(f, "[", xs.iter(), "]"),
            Value::Set(xs) => write_seq(f, "{", xs.iter(), "}"),
            Value::Map(m) => {
                f.write_str("{")?;
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k:#}: {v:#}")?;
                }
                f.write_str("}")
            }
            Value::Range(lo, hi) => write!(f, "{lo}..{hi}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_total_and_by_kind_first() {
        let mut xs = [
            Value::str("b"),
            Value::Int(3),
            Value::Bool(true),
            Value::Int(-1),
            Value::str("a"),
        ];
        xs.sort();
        let shown: Vec<String> = xs.iter().map(|x| format!("{x:#}")).collect();
        assert_eq!(shown, ["-1", "3", "true", "\"a\"", "\"b\""]);
    }

    #[test]
    fn display_matches_the_language() {
        let v = Value::tuple(vec![Value::Int(1), Value::str("x")]);
        assert_eq!(v.to_string(), "(1, \"x\")");
        assert_eq!(
            Value::set([Value::Int(2), Value::Int(1)]).to_string(),
            "{1, 2}"
        );
        assert_eq!(Value::tuple(vec![Value::Int(1)]).to_string(), "(1,)");
        let mut name = String::new();
        Value::str("A").write_name_part(&mut name);
        Value::Int(3).write_name_part(&mut name);
        assert_eq!(name, "A3");
        // Integers are written by hand: every sign and size as `Display` writes them.
        for i in [0, 7, -7, 10, -105, i64::MAX, i64::MIN] {
            let mut name = String::new();
            Value::Int(i).write_name_part(&mut name);
            assert_eq!(name, i.to_string());
        }
    }

    #[test]
    fn collections_iterate_and_contain() {
        let r = Value::Range(0, 3);
        assert_eq!(r.len(), Some(3));
        assert_eq!(r.contains(&Value::Int(2)), Some(true));
        assert_eq!(r.contains(&Value::Int(3)), Some(false));
        assert_eq!(Value::str("abc").elements().unwrap().len(), 3);
        assert_eq!(Value::Int(1).elements(), None);
        assert_eq!(Value::Range(5, 2), Value::Range(0, 0));
    }
}
