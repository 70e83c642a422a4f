//! The combinatorial builtins: `combinations(s, k)`, `permutations(s)`, `subsets(s)`.
//!
//! Each takes a collection and lists selections of its elements, taken in the
//! collection's own order (a list's order, a set's value order, a range ascending, a
//! string's characters). The order of the results is fixed and documented, so option
//! names built from them are stable from run to run:
//!
//! - `combinations(s, k)`: the k-element selections in lexicographic order of the
//!   positions chosen (as Python's `itertools.combinations`);
//! - `permutations(s)`: every ordering, in lexicographic order of positions;
//! - `subsets(s)`: every selection, by size, then as `combinations`.
//!
//! A selection from a set is a set; from anything else, a list (so duplicates in a list
//! give repeated selections, as positions are chosen, not values). The results are
//! counted before any is built: more than [`MAX_EXPANSION`] values in all is an error,
//! not an allocation that ends the process.

use std::collections::BTreeSet;
use std::rc::Rc;

use super::args::{BuiltinError, MAX_EXPANSION, elements};
use super::value::Value;

/// `combinations(s, k)`.
pub fn combinations(s: &Value, k: &Value) -> Result<Value, BuiltinError> {
    let xs = elements(0, s)?;
    let k = match k {
        Value::Int(k) => usize::try_from(*k).map_err(|_| {
            BuiltinError::at(1, format!("expected a size of 0 or more, found {k}"))
                .with_help("`combinations(s, k)` lists the selections of k elements of s")
        })?,
        other => {
            return Err(BuiltinError::at(
                1,
                format!("expected an integer, found {}", other.kind().described()),
            ));
        }
    };
    let n = xs.len();
    if k > n {
        return Ok(Value::list(Vec::new()));
    }
    check_size(binomial(n, k).saturating_mul(k.max(1) as u128))?;
    let as_set = matches!(s, Value::Set(_));
    let mut out = Vec::new();
    // The positions chosen, ascending; advanced like an odometer from the right.
    let mut pos: Vec<usize> = (0..k).collect();
    loop {
        out.push(selection(&xs, &pos, as_set));
        let Some(i) = (0..k).rev().find(|&i| pos[i] != i + n - k) else {
            break;
        };
        pos[i] += 1;
        for j in i + 1..k {
            pos[j] = pos[j - 1] + 1;
        }
    }
    Ok(Value::list(out))
}

/// `permutations(s)`.
pub fn permutations(s: &Value) -> Result<Value, BuiltinError> {
    let xs = elements(0, s)?;
    let n = xs.len();
    let count = (1..=n as u128).try_fold(1u128, |acc, i| acc.checked_mul(i));
    check_size(count.unwrap_or(u128::MAX).saturating_mul(n.max(1) as u128))?;
    let mut pos: Vec<usize> = (0..n).collect();
    let mut out = Vec::new();
    loop {
        out.push(selection(&xs, &pos, false));
        // The next permutation of the positions in lexicographic order.
        let Some(i) = (1..n).rev().find(|&i| pos[i - 1] < pos[i]) else {
            break;
        };
        let j = (i..n).rev().find(|&j| pos[j] > pos[i - 1]).unwrap_or(i);
        pos.swap(i - 1, j);
        pos[i..].reverse();
    }
    Ok(Value::list(out))
}

/// `subsets(s)`.
pub fn subsets(s: &Value) -> Result<Value, BuiltinError> {
    let n = elements(0, s)?.len();
    // 2^n subsets of n/2 elements on average.
    let count = u32::try_from(n)
        .ok()
        .and_then(|n| 1u128.checked_shl(n))
        .unwrap_or(u128::MAX);
    check_size(count.saturating_mul((n as u128).div_ceil(2).max(1)))?;
    let mut out = Vec::new();
    for k in 0..=n {
        if let Value::List(xs) = combinations(s, &Value::Int(k as i64))? {
            out.extend(xs.iter().cloned());
        }
    }
    Ok(Value::list(out))
}

/// The elements of `xs` at `pos`, as a set or a list.
fn selection(xs: &[Value], pos: &[usize], as_set: bool) -> Value {
    let picked = pos.iter().map(|&p| xs[p].clone());
    if as_set {
        Value::Set(Rc::new(picked.collect::<BTreeSet<Value>>()))
    } else {
        Value::list(picked.collect())
    }
}

/// n choose k, saturating (only compared with the limit).
fn binomial(n: usize, k: usize) -> u128 {
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // Exact at every step: c * (n - i) is divisible by i + 1.
        c = c.saturating_mul((n - i) as u128) / (i as u128 + 1);
    }
    c
}

/// Refuses results of more than [`MAX_EXPANSION`] values in all.
fn check_size(values: u128) -> Result<(), BuiltinError> {
    if values > MAX_EXPANSION as u128 {
        return Err(BuiltinError::call(format!(
            "the result would hold about {values} values, more than the {MAX_EXPANSION} a builtin builds"
        ))
        .with_help("choose from a smaller collection, or fewer elements at a time"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i(n: i64) -> Value {
        Value::Int(n)
    }
    fn show(v: Result<Value, BuiltinError>) -> String {
        format!("{:#}", v.unwrap())
    }

    #[test]
    fn combinations_in_position_order() {
        let xs = Value::list(vec![i(3), i(1), i(2)]);
        assert_eq!(show(combinations(&xs, &i(2))), "[[3, 1], [3, 2], [1, 2]]");
        assert_eq!(show(combinations(&xs, &i(0))), "[[]]");
        assert_eq!(show(combinations(&xs, &i(3))), "[[3, 1, 2]]");
        assert_eq!(show(combinations(&xs, &i(4))), "[]");
        // A set gives sets, in the set's value order.
        let s = Value::set([i(3), i(1), i(2)]);
        assert_eq!(show(combinations(&s, &i(2))), "[{1, 2}, {1, 3}, {2, 3}]");
        assert_eq!(
            show(combinations(&Value::str("abc"), &i(2))),
            "[[\"a\", \"b\"], [\"a\", \"c\"], [\"b\", \"c\"]]"
        );
        // Positions are chosen, not values.
        let dup = Value::list(vec![i(1), i(1)]);
        assert_eq!(show(combinations(&dup, &i(1))), "[[1], [1]]");
        // The killer-sudoku count: 3-digit sets of 1..9.
        let Value::List(c) = combinations(&Value::Range(1, 10), &i(3)).unwrap() else {
            panic!("a list")
        };
        assert_eq!(c.len(), 84);
    }

    #[test]
    fn permutations_in_lexicographic_order() {
        assert_eq!(
            show(permutations(&Value::Range(1, 4))),
            "[[1, 2, 3], [1, 3, 2], [2, 1, 3], [2, 3, 1], [3, 1, 2], [3, 2, 1]]"
        );
        assert_eq!(show(permutations(&Value::list(vec![]))), "[[]]");
        assert_eq!(show(permutations(&Value::set([i(7)]))), "[[7]]");
        let Value::List(p) = permutations(&Value::Range(0, 6)).unwrap() else {
            panic!("a list")
        };
        assert_eq!(p.len(), 720);
        let distinct: BTreeSet<&Value> = p.iter().collect();
        assert_eq!(distinct.len(), 720);
    }

    #[test]
    fn subsets_by_size() {
        assert_eq!(
            show(subsets(&Value::set([i(2), i(1)]))),
            "[{}, {1}, {2}, {1, 2}]"
        );
        assert_eq!(show(subsets(&Value::list(vec![]))), "[[]]");
        let Value::List(s) = subsets(&Value::Range(0, 10)).unwrap() else {
            panic!("a list")
        };
        assert_eq!(s.len(), 1024);
    }

    #[test]
    fn bad_arguments_and_huge_results_are_errors() {
        let e = combinations(&Value::Range(0, 5), &i(-1)).unwrap_err();
        assert_eq!(e.arg, Some(1));
        assert_eq!(e.message, "expected a size of 0 or more, found -1");
        let e = combinations(&Value::Range(0, 5), &Value::str("2")).unwrap_err();
        assert_eq!(e.message, "expected an integer, found a string");
        assert_eq!(combinations(&i(3), &i(1)).unwrap_err().arg, Some(0));
        assert!(
            permutations(&Value::Range(0, 13))
                .unwrap_err()
                .message
                .contains("more than")
        );
        assert!(subsets(&Value::Range(0, 40)).is_err());
        assert!(combinations(&Value::Range(0, 60), &i(30)).is_err());
        assert_eq!(binomial(60, 30), 118_264_581_564_861_424);
    }
}
