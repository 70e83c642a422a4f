//! The operators of the language on values.
//!
//! Integer arithmetic is checked (overflow is an error, never a wrap); `/` rounds toward
//! negative infinity and `%` takes the sign of the divisor, so that `r / n * n + r % n
//! == r` and `%` of a negative number still indexes a board. Comparisons of sets are
//! inclusion (`a <= b`: a is a subset of b); of tuples, lists and strings, the
//! lexicographic order.

use std::collections::BTreeSet;
use std::rc::Rc;

use crate::diag::Code;
use crate::lower::value::{Kind, Value};
use crate::syntax::ast::BinaryOp;

/// Why an operator failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpErrorKind {
    /// The operand kinds do not fit the operator.
    Types,
    /// The integer result does not fit in 64 bits.
    Overflow,
    /// Division or remainder by zero.
    DivisionByZero,
    /// A string and an integer compared, or one looked for among the other kind: the
    /// answer would be "never", which is always a mistake (`"1" == 1`).
    StrInt,
}

/// An operator failure, turned into a report by the evaluator.
#[derive(Clone, Debug)]
pub struct OpError {
    /// What kind of failure.
    pub kind: OpErrorKind,
    /// The diagnostic code.
    pub code: Code,
    /// The message.
    pub message: String,
    /// A hint on what to write instead.
    pub help: Option<String>,
}

fn types(op: BinaryOp, a: &Value, b: &Value) -> OpError {
    let (verb, help) = match op {
        BinaryOp::Add => (
            "add",
            match (a, b) {
                (Value::Set(_), _) | (_, Value::Set(_)) => Some(
                    "to add an element to a set write `s | {x}`; to join two sets write `a | b`",
                ),
                _ => Some("`+` adds integers and joins two strings, two lists or two tuples"),
            },
        ),
        BinaryOp::Sub => (
            "subtract",
            Some("`-` subtracts integers, or removes the elements of one set from another"),
        ),
        BinaryOp::Mul => ("multiply", None),
        BinaryOp::Div => ("divide", None),
        BinaryOp::Rem => ("take the remainder of", None),
        BinaryOp::Union => ("take the union of", Some("`|` joins two sets or two maps")),
        BinaryOp::Intersect => ("intersect", Some("`&` intersects two sets")),
        BinaryOp::In | BinaryOp::NotIn => (
            "look for an element in",
            Some("the right side of `in` is a collection: a range, list, set, map or string"),
        ),
        _ => (
            "compare",
            Some("only values of the same kind can be ordered"),
        ),
    };
    let message = match op {
        BinaryOp::In | BinaryOp::NotIn => {
            format!("cannot look for an element in {}", b.kind().described())
        }
        _ => format!(
            "cannot {verb} {} and {}",
            a.kind().described(),
            b.kind().described()
        ),
    };
    OpError {
        kind: OpErrorKind::Types,
        code: Code::E0210,
        message,
        help: help.map(str::to_string),
    }
}

/// Whether `x` is a string and `y` an integer, or the other way round.
fn str_int(x: &Value, y: &Value) -> bool {
    matches!(
        (x, y),
        (Value::Str(_), Value::Int(_)) | (Value::Int(_), Value::Str(_))
    )
}

fn compared_str_int() -> OpError {
    OpError {
        kind: OpErrorKind::StrInt,
        code: Code::E0210,
        message: "cannot compare a string with an integer".into(),
        help: Some(STR_INT_HELP.into()),
    }
}

/// What to write when a string meets an integer.
const STR_INT_HELP: &str = "a string and an integer are never equal (`\"1\" != 1`), so this would \
     silently be false; convert one side: `int(s)` reads a string of digits, `str(i)` writes \
     an integer";

/// Whether `x` is in the collection `c` (`x in c`): `None` when `c` is not a
/// collection, an error when `x` is not there because it is a string and `c` holds
/// only integers, or the other way round (see [`never_there`]).
#[inline]
pub fn member(x: &Value, c: &Value) -> Option<Result<bool, OpError>> {
    let found = c.contains(x)?;
    Some(if !found && never_there(x, c) {
        Err(looked_for_str_int(x, c))
    } else {
        Ok(found)
    })
}

/// Whether `x`, not found in the collection `c`, could never have been there because
/// one is a string and the other holds only integers, or the other way round (`"5" in
/// 1..=9`). Cheap: ranges and strings hold one kind; sets and maps are ordered by kind
/// first, so their first and last elements tell; lists and tuples are scanned, which
/// only happens on this path (the element was not found).
fn never_there(x: &Value, c: &Value) -> bool {
    let only = |k: Kind| -> bool {
        match c {
            Value::Range(lo, hi) => k == Kind::Int && lo < hi,
            Value::Str(s) => k == Kind::Str && !s.is_empty(),
            Value::Set(xs) => match (xs.first(), xs.last()) {
                (Some(f), Some(l)) => f.kind() == k && l.kind() == k,
                _ => false,
            },
            Value::Map(m) => match (m.keys().next(), m.keys().next_back()) {
                (Some(f), Some(l)) => f.kind() == k && l.kind() == k,
                _ => false,
            },
            Value::List(xs) => !xs.is_empty() && xs.iter().all(|e| e.kind() == k),
            Value::Tuple(xs) => !xs.is_empty() && xs.iter().all(|e| e.kind() == k),
            Value::Int(_) | Value::Bool(_) => false,
        }
    };
    match x {
        Value::Str(_) => only(Kind::Int),
        Value::Int(_) => only(Kind::Str),
        _ => false,
    }
}

fn looked_for_str_int(x: &Value, c: &Value) -> OpError {
    let what = x.kind().described();
    let among = match (x, c) {
        (_, Value::Str(_)) => "characters",
        (Value::Str(_), _) => "integers",
        _ => "strings",
    };
    OpError {
        kind: OpErrorKind::StrInt,
        code: Code::E0210,
        message: format!("cannot look for {what} among {among}: it is never there"),
        help: Some(STR_INT_HELP.into()),
    }
}

fn overflow() -> OpError {
    OpError {
        kind: OpErrorKind::Overflow,
        code: Code::E0301,
        message: "integer overflow".into(),
        help: Some("the result does not fit in a 64-bit integer".into()),
    }
}

fn division_by_zero() -> OpError {
    OpError {
        kind: OpErrorKind::DivisionByZero,
        code: Code::E0302,
        message: "division by zero".into(),
        help: None,
    }
}

/// Floor division: rounds toward negative infinity.
fn div_floor(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q.checked_sub(1)
    } else {
        Some(q)
    }
}

/// Remainder with the sign of the divisor.
fn rem_floor(a: i64, b: i64) -> Option<i64> {
    let r = a.checked_rem(b)?;
    Some(if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    })
}

/// Applies a binary operator other than `and` / `or` (which the evaluator
/// short-circuits).
pub fn binary(op: BinaryOp, a: &Value, b: &Value) -> Result<Value, OpError> {
    use Value::*;
    let int = |r: Option<i64>| r.map(Int).ok_or_else(overflow);
    match (op, a, b) {
        (BinaryOp::Add, Int(x), Int(y)) => int(x.checked_add(*y)),
        (BinaryOp::Sub, Int(x), Int(y)) => int(x.checked_sub(*y)),
        (BinaryOp::Mul, Int(x), Int(y)) => int(x.checked_mul(*y)),
        (BinaryOp::Div | BinaryOp::Rem, Int(_), Int(0)) => Err(division_by_zero()),
        (BinaryOp::Div, Int(x), Int(y)) => int(div_floor(*x, *y)),
        (BinaryOp::Rem, Int(x), Int(y)) => int(rem_floor(*x, *y)),
        (BinaryOp::Add, Str(x), Str(y)) => Ok(Value::str(&format!("{x}{y}"))),
        (BinaryOp::Add, List(x), List(y)) => {
            Ok(Value::list(x.iter().chain(y.iter()).cloned().collect()))
        }
        (BinaryOp::Add, Tuple(x), Tuple(y)) => {
            Ok(Value::tuple(x.iter().chain(y.iter()).cloned().collect()))
        }
        (BinaryOp::Sub, Set(x), Set(y)) => Ok(Set(Rc::new(x.difference(y).cloned().collect()))),
        (BinaryOp::Union, Set(x), Set(y)) => {
            let (big, small) = if x.len() >= y.len() { (x, y) } else { (y, x) };
            let mut out: BTreeSet<Value> = big.as_ref().clone();
            out.extend(small.iter().cloned());
            Ok(Set(Rc::new(out)))
        }
        (BinaryOp::Union, Map(x), Map(y)) => {
            let mut out = x.as_ref().clone();
            out.extend(y.iter().map(|(k, v)| (k.clone(), v.clone())));
            Ok(Map(Rc::new(out)))
        }
        (BinaryOp::Intersect, Set(x), Set(y)) => {
            Ok(Set(Rc::new(x.intersection(y).cloned().collect())))
        }
        (
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge,
            _,
            _,
        ) if str_int(a, b) => Err(compared_str_int()),
        (BinaryOp::Eq, _, _) => Ok(Bool(a == b)),
        (BinaryOp::Ne, _, _) => Ok(Bool(a != b)),
        (BinaryOp::In | BinaryOp::NotIn, _, _) => {
            let found = member(a, b).ok_or_else(|| types(op, a, b))??;
            Ok(Bool(found == (op == BinaryOp::In)))
        }
        (BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge, Set(x), Set(y)) => {
            Ok(Bool(match op {
                BinaryOp::Le => x.is_subset(y),
                BinaryOp::Lt => x.len() < y.len() && x.is_subset(y),
                BinaryOp::Ge => x.is_superset(y),
                _ => x.len() > y.len() && x.is_superset(y),
            }))
        }
        (BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge, _, _)
            if a.kind() == b.kind()
                && matches!(a, Int(_) | Str(_) | Tuple(_) | List(_) | Bool(_)) =>
        {
            let ord = a.cmp(b);
            Ok(Bool(match op {
                BinaryOp::Lt => ord.is_lt(),
                BinaryOp::Le => ord.is_le(),
                BinaryOp::Gt => ord.is_gt(),
                _ => ord.is_ge(),
            }))
        }
        _ => Err(types(op, a, b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i(x: i64) -> Value {
        Value::Int(x)
    }

    #[test]
    fn floor_division_and_remainder() {
        assert_eq!(binary(BinaryOp::Div, &i(-7), &i(2)).unwrap(), i(-4));
        assert_eq!(binary(BinaryOp::Rem, &i(-7), &i(2)).unwrap(), i(1));
        assert_eq!(binary(BinaryOp::Rem, &i(7), &i(-2)).unwrap(), i(-1));
        assert_eq!(binary(BinaryOp::Div, &i(7), &i(2)).unwrap(), i(3));
        let e = binary(BinaryOp::Div, &i(1), &i(0)).unwrap_err();
        assert_eq!(e.kind, OpErrorKind::DivisionByZero);
        let e = binary(BinaryOp::Div, &i(i64::MIN), &i(-1)).unwrap_err();
        assert_eq!(e.kind, OpErrorKind::Overflow);
    }

    #[test]
    fn overflow_is_an_error() {
        let e = binary(BinaryOp::Mul, &i(i64::MAX), &i(2)).unwrap_err();
        assert_eq!(e.code, Code::E0301);
    }

    #[test]
    fn sets_compare_by_inclusion() {
        let a = Value::set([i(1)]);
        let b = Value::set([i(1), i(2)]);
        assert_eq!(binary(BinaryOp::Le, &a, &b).unwrap(), Value::Bool(true));
        assert_eq!(binary(BinaryOp::Lt, &b, &b).unwrap(), Value::Bool(false));
        assert_eq!(binary(BinaryOp::Sub, &b, &a).unwrap(), Value::set([i(2)]));
        assert_eq!(binary(BinaryOp::Union, &a, &b).unwrap(), b);
    }

    #[test]
    fn type_mismatch_says_what_to_write() {
        let e = binary(BinaryOp::Add, &Value::set([i(1)]), &i(2)).unwrap_err();
        assert_eq!(e.message, "cannot add a set and an integer");
        assert!(e.help.unwrap().contains("s | {x}"));
        let e = binary(BinaryOp::In, &i(1), &i(2)).unwrap_err();
        assert_eq!(e.message, "cannot look for an element in an integer");
    }

    #[test]
    fn strings_and_integers_do_not_compare() {
        let one = Value::str("1");
        for op in [BinaryOp::Eq, BinaryOp::Ne, BinaryOp::Lt, BinaryOp::Ge] {
            let e = binary(op, &one, &i(1)).unwrap_err();
            assert_eq!(e.kind, OpErrorKind::StrInt, "{op:?}");
            let e = binary(op, &i(1), &one).unwrap_err();
            assert_eq!(e.kind, OpErrorKind::StrInt, "{op:?}");
        }
        // Other mixed kinds still compare as values.
        let t = Value::tuple(vec![i(1)]);
        assert_eq!(binary(BinaryOp::Eq, &t, &i(1)).unwrap(), Value::Bool(false));
        assert_eq!(binary(BinaryOp::Eq, &one, &one).unwrap(), Value::Bool(true));
    }

    #[test]
    fn a_string_is_never_among_integers() {
        let five = Value::str("5");
        let e = binary(BinaryOp::In, &five, &Value::Range(1, 10)).unwrap_err();
        assert_eq!(e.kind, OpErrorKind::StrInt);
        assert_eq!(
            e.message,
            "cannot look for a string among integers: it is never there"
        );
        let e = binary(BinaryOp::NotIn, &i(5), &Value::str("123")).unwrap_err();
        assert_eq!(
            e.message,
            "cannot look for an integer among characters: it is never there"
        );
        let ints = Value::set([i(1), i(2)]);
        assert!(binary(BinaryOp::In, &five, &ints).is_err());
        let e = binary(BinaryOp::In, &i(5), &Value::list(vec![Value::str("a")])).unwrap_err();
        assert_eq!(e.kind, OpErrorKind::StrInt);
        // Found, mixed, or empty: answered as before.
        let mixed = Value::set([i(1), Value::str("5")]);
        assert_eq!(
            binary(BinaryOp::In, &five, &mixed).unwrap(),
            Value::Bool(true)
        );
        assert_eq!(
            binary(BinaryOp::In, &i(7), &mixed).unwrap(),
            Value::Bool(false)
        );
        let none = Value::empty_set();
        assert_eq!(
            binary(BinaryOp::NotIn, &five, &none).unwrap(),
            Value::Bool(true)
        );
        assert_eq!(
            binary(BinaryOp::In, &i(3), &Value::Range(1, 10)).unwrap(),
            Value::Bool(true)
        );
    }
}

/// Why `base[index]` has no value, turned into a report by the evaluator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexFault {
    /// An integer index past the end (or negative) of a collection of `len` elements.
    OutOfBounds {
        /// The number of elements.
        len: usize,
    },
    /// A slice `a..b` not within `0..len`.
    SliceOutOfBounds {
        /// The slice's start.
        a: i64,
        /// The slice's end.
        b: i64,
        /// The number of elements.
        len: usize,
    },
    /// A key the map does not have.
    MissingKey,
    /// A sequence indexed by something other than an integer or a range.
    NotAnIndex,
    /// A value that cannot be indexed.
    NotIndexable,
}

/// `base[index]` when it is an element held by `base` (a list's or a tuple's, at an
/// index within bounds), borrowed.
#[inline]
pub fn element<'v>(base: &'v Value, index: &Value) -> Option<&'v Value> {
    let k = usize::try_from(index.as_int()?).ok()?;
    match base {
        Value::List(xs) => xs.get(k),
        Value::Tuple(xs) => xs.get(k),
        _ => None,
    }
}

/// The byte of character `k` of `s` when `s` is ASCII (a row of a grid): `s[k]` read
/// as one byte, with no scan of the characters before it.
#[inline]
pub fn ascii_at(s: &str, k: i64) -> Option<u8> {
    let b = *usize::try_from(k).ok().and_then(|k| s.as_bytes().get(k))?;
    s.is_ascii().then_some(b)
}

/// `base[index]`: an element of a list, tuple, string (a one-character string) or
/// range, a slice of a list, tuple or string, or a map's value.
pub fn index(base: &Value, index: &Value) -> Result<Value, IndexFault> {
    let out_of_bounds = |len: usize| IndexFault::OutOfBounds { len };
    if let Some(x) = element(base, index) {
        return Ok(x.clone());
    }
    match (base, index) {
        (Value::List(xs), Value::Int(_)) => Err(out_of_bounds(xs.len())),
        (Value::Tuple(xs), Value::Int(_)) => Err(out_of_bounds(xs.len())),
        (Value::Str(s), Value::Int(i)) => {
            let ch = match ascii_at(s, *i) {
                Some(b) => Some(Value::ascii(b)),
                None if s.is_ascii() => None,
                None => usize::try_from(*i)
                    .ok()
                    .and_then(|k| s.chars().nth(k))
                    .map(|c| Value::str(c.encode_utf8(&mut [0; 4]))),
            };
            ch.ok_or_else(|| out_of_bounds(s.chars().count()))
        }
        (Value::Range(lo, hi), Value::Int(i)) => lo
            .checked_add(*i)
            .filter(|v| *i >= 0 && v < hi)
            .map(Value::Int)
            .ok_or_else(|| out_of_bounds(base.len().unwrap_or(0))),
        (Value::Map(m), k) => m.get(k).cloned().ok_or(IndexFault::MissingKey),
        (Value::List(_) | Value::Tuple(_) | Value::Str(_), Value::Range(a, b)) => {
            let len = base.len().unwrap_or(0);
            let (a, b) = (*a, *b);
            // Ranges made by the language have `a <= b`; check both ends anyway,
            // since `xs[a..a]` with `a` past the end would panic.
            if a < 0 || b < 0 || a as u64 > len as u64 || b as u64 > len as u64 {
                return Err(IndexFault::SliceOutOfBounds { a, b, len });
            }
            let (a, b) = (a as usize, (b as usize).max(a as usize));
            Ok(match base {
                Value::List(xs) => Value::list(xs[a..b].to_vec()),
                Value::Tuple(xs) => Value::tuple(xs[a..b].to_vec()),
                Value::Str(s) => Value::str(&s.chars().skip(a).take(b - a).collect::<String>()),
                _ => unreachable!("matched above"),
            })
        }
        (Value::List(_) | Value::Tuple(_) | Value::Str(_) | Value::Range(..), _) => {
            Err(IndexFault::NotAnIndex)
        }
        _ => Err(IndexFault::NotIndexable),
    }
}
