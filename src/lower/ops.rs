//! The operators of the language on values.
//!
//! Integer arithmetic is checked (overflow is an error, never a wrap); `/` rounds toward
//! negative infinity and `%` takes the sign of the divisor, so that `r / n * n + r % n
//! == r` and `%` of a negative number still indexes a board. Comparisons of sets are
//! inclusion (`a <= b`: a is a subset of b); of tuples, lists and strings, the
//! lexicographic order.

use std::collections::BTreeSet;
use std::rc::Rc;

use crate::lower::value::Value;
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
}

/// An operator failure, turned into a report by the evaluator.
#[derive(Clone, Debug)]
pub struct OpError {
    /// What kind of failure.
    pub kind: OpErrorKind,
    /// The diagnostic code.
    pub code: &'static str,
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
        code: "E0210",
        message,
        help: help.map(str::to_string),
    }
}

fn overflow() -> OpError {
    OpError {
        kind: OpErrorKind::Overflow,
        code: "E0301",
        message: "integer overflow".into(),
        help: Some("the result does not fit in a 64-bit integer".into()),
    }
}

fn division_by_zero() -> OpError {
    OpError {
        kind: OpErrorKind::DivisionByZero,
        code: "E0302",
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
        (BinaryOp::Eq, _, _) => Ok(Bool(a == b)),
        (BinaryOp::Ne, _, _) => Ok(Bool(a != b)),
        (BinaryOp::In, _, _) => b.contains(a).map(Bool).ok_or_else(|| types(op, a, b)),
        (BinaryOp::NotIn, _, _) => b
            .contains(a)
            .map(|x| Bool(!x))
            .ok_or_else(|| types(op, a, b)),
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
        assert_eq!(e.code, "E0301");
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
}
