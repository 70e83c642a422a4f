//! The builtin functions of the language.
//!
//! [`SIGNATURES`] is the table the checker uses for arity errors and "did you mean";
//! the implementations follow it: [`call`] dispatches by name to one small function per
//! builtin; the shape builtins live in [`shapes`](super::shapes), the combinatorial ones
//! in [`combinatorics`](super::combinatorics).
//!
//! Builtins never panic: wrong arguments, empty collections and integer overflow are
//! [`BuiltinError`]s for the evaluator to report at the call's span.

use std::collections::BTreeSet;

use super::args::{BuiltinError, elements, expected};
use super::combinatorics;
use super::shapes;
use super::value::Value;

/// A builtin's name, its least and greatest number of arguments (`usize::MAX` for
/// "any number"), and what it does in one line (shown in diagnostics and docs).
pub static SIGNATURES: &[(&str, usize, usize, &str)] = &[
    (
        "len",
        1,
        1,
        "number of elements of a string, list, tuple, set, map, range or grid",
    ),
    (
        "min",
        1,
        usize::MAX,
        "smallest of the arguments, or of one collection",
    ),
    (
        "max",
        1,
        usize::MAX,
        "largest of the arguments, or of one collection",
    ),
    ("abs", 1, 1, "absolute value of an integer"),
    ("sum", 1, 1, "sum of a collection of integers"),
    ("all", 1, 1, "whether every element of a collection is true"),
    ("any", 1, 1, "whether some element of a collection is true"),
    ("keys", 1, 1, "the keys of a map, in order, as a list"),
    (
        "values",
        1,
        1,
        "the values of a map, in key order, as a list",
    ),
    (
        "enumerate",
        1,
        1,
        "the list of (index, element) pairs, indexes from 0",
    ),
    (
        "sorted",
        1,
        1,
        "the elements of a collection as a sorted list",
    ),
    ("union", 1, 1, "the union of a collection of sets"),
    (
        "disjoint",
        2,
        2,
        "whether two sets (or any collections) have no common element",
    ),
    (
        "str",
        1,
        1,
        "a value as a string, as the language prints it",
    ),
    (
        "int",
        1,
        1,
        "a string of decimal digits with an optional sign (or a boolean) as an integer",
    ),
    (
        "list",
        1,
        1,
        "the elements of a collection as a list, in order",
    ),
    ("set", 1, 1, "the elements of a collection as a set"),
    (
        "chars",
        1,
        1,
        "the one-character strings of a string, in order",
    ),
    (
        "zip",
        2,
        2,
        "pairs of elements at the same position of two collections",
    ),
    ("ord", 1, 1, "the code point of a one-character string"),
    ("chr", 1, 1, "the one-character string of a code point"),
    (
        "shape",
        1,
        1,
        "a set of (row, col) cells from ASCII art (rows split by `/` or lines), or of (layer, row, col) cells with layers split by `|`",
    ),
    (
        "normalize",
        1,
        1,
        "a shape moved so the least value of each coordinate is 0",
    ),
    (
        "rotate",
        1,
        3,
        "a shape turned a quarter turn (clockwise in the plane; in the plane of axes i, j with rotate(s, i, j)), normalized",
    ),
    (
        "reflect",
        1,
        2,
        "a shape mirrored left to right (along axis k with reflect(s, k)), normalized",
    ),
    (
        "rotations",
        1,
        1,
        "all distinct proper rotations of a shape in any dimension, normalized, sorted by value order",
    ),
    (
        "symmetries",
        1,
        1,
        "all distinct rotations and mirror images of a shape in any dimension, normalized, sorted",
    ),
    (
        "variants",
        1,
        1,
        "all distinct orientations of a shape (as `symmetries`), normalized, sorted by value order",
    ),
    (
        "shift",
        2,
        usize::MAX,
        "a shape moved by one offset per coordinate, given apart or as a tuple",
    ),
    (
        "size",
        1,
        1,
        "the bounding size of a shape along each coordinate: (rows, columns) in the plane",
    ),
    (
        "neighbors",
        1,
        1,
        "the cells sharing a side (a face) with a cell of the square, cubic or d-dimensional lattice",
    ),
    (
        "hex_rotations",
        1,
        1,
        "all distinct turns of a shape of hexagons in axial (q, r) coordinates (6), normalized, sorted",
    ),
    (
        "hex_symmetries",
        1,
        1,
        "all distinct turns and mirror images of a shape of hexagons (12), normalized, sorted",
    ),
    (
        "hex_neighbors",
        1,
        1,
        "the 6 hexagons around an axial (q, r) cell",
    ),
    (
        "tri_rotations",
        1,
        1,
        "all distinct turns of a shape of triangles (row, col) (6), normalized, sorted",
    ),
    (
        "tri_symmetries",
        1,
        1,
        "all distinct turns and mirror images of a shape of triangles (12), normalized, sorted",
    ),
    (
        "tri_neighbors",
        1,
        1,
        "the 3 triangles that share a side with a (row, col) triangle",
    ),
    (
        "combinations",
        2,
        2,
        "the selections of k elements of a collection, in order of the positions chosen",
    ),
    (
        "permutations",
        1,
        1,
        "every ordering of the elements of a collection, in lexicographic order of positions",
    ),
    (
        "subsets",
        1,
        1,
        "every selection of elements of a collection, by size, then as `combinations`",
    ),
];

/// The signature of a builtin, by name.
pub fn signature(name: &str) -> Option<(usize, usize, &'static str)> {
    SIGNATURES
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|&(_, lo, hi, doc)| (lo, hi, doc))
}

/// Calls the builtin `name` with `args`.
///
/// The checker has already checked the name and the number of arguments against
/// [`SIGNATURES`]; both are checked again here so that a bad call is an error, never a
/// panic.
pub fn call(name: &str, args: &[Value]) -> Result<Value, BuiltinError> {
    let Some((lo, hi, _)) = signature(name) else {
        return Err(BuiltinError::call(format!("unknown builtin `{name}`")));
    };
    if args.len() < lo || args.len() > hi {
        let wanted = match (lo, hi) {
            (lo, hi) if lo == hi => format!("{lo}"),
            (lo, usize::MAX) => format!("at least {lo}"),
            (lo, hi) => format!("{lo} to {hi}"),
        };
        // "1 argument", "at least 1 argument", "1 to 2 arguments".
        let plural = if lo == 1 && (hi == 1 || hi == usize::MAX) {
            ""
        } else {
            "s"
        };
        return Err(BuiltinError::call(format!(
            "`{name}` takes {wanted} argument{plural}, found {}",
            args.len()
        )));
    }
    let a = |i: usize| &args[i];
    match name {
        "len" => len(a(0)),
        "min" => extreme(args, "min", std::cmp::Ordering::Less),
        "max" => extreme(args, "max", std::cmp::Ordering::Greater),
        "abs" => abs(a(0)),
        "sum" => sum(a(0)),
        "all" => all_any(a(0), true),
        "any" => all_any(a(0), false),
        "keys" => keys(a(0)),
        "values" => values(a(0)),
        "enumerate" => enumerate(a(0)),
        "sorted" => sorted(a(0)),
        "union" => union(a(0)),
        "disjoint" => disjoint(a(0), a(1)),
        "str" => Ok(Value::str(&a(0).to_string())),
        "int" => int(a(0)),
        "list" => Ok(Value::list(elements(0, a(0))?)),
        "set" => Ok(Value::set(elements(0, a(0))?)),
        "chars" => chars(a(0)),
        "zip" => zip(a(0), a(1)),
        "ord" => ord(a(0)),
        "chr" => chr(a(0)),
        "shape" => shapes::shape(a(0)),
        "normalize" => shapes::normalize(a(0)),
        "rotate" => shapes::rotate(args),
        "reflect" => shapes::reflect(args),
        "rotations" => shapes::rotations(a(0)),
        "symmetries" => shapes::symmetries(a(0)),
        "variants" => shapes::variants(a(0)),
        "shift" => shapes::shift(args),
        "size" => shapes::size(a(0)),
        "neighbors" => shapes::neighbors(a(0)),
        "hex_rotations" => shapes::hex_rotations(a(0)),
        "hex_symmetries" => shapes::hex_symmetries(a(0)),
        "hex_neighbors" => shapes::hex_neighbors(a(0)),
        "tri_rotations" => shapes::tri_rotations(a(0)),
        "tri_symmetries" => shapes::tri_symmetries(a(0)),
        "tri_neighbors" => shapes::tri_neighbors(a(0)),
        "combinations" => combinatorics::combinations(a(0), a(1)),
        "permutations" => combinatorics::permutations(a(0)),
        "subsets" => combinatorics::subsets(a(0)),
        // A name in SIGNATURES without an implementation is a bug in this file; the
        // `every_signature_is_implemented` test keeps this arm unreachable.
        _ => Err(BuiltinError::call(format!(
            "builtin `{name}` is not implemented"
        ))),
    }
}

/// An element of the wrong kind, named by its position in the collection.
fn bad_element(arg: usize, what: &str, index: usize, found: &Value) -> BuiltinError {
    BuiltinError::at(
        arg,
        format!(
            "expected {what}, found {} at position {index} (counting from 0): {found:#}",
            found.kind().described()
        ),
    )
}

fn overflow() -> BuiltinError {
    BuiltinError::call("integer overflow")
}

fn int_of(n: usize) -> Result<Value, BuiltinError> {
    i64::try_from(n).map(Value::Int).map_err(|_| overflow())
}

fn len(v: &Value) -> Result<Value, BuiltinError> {
    match v.len() {
        Some(n) => int_of(n),
        None => Err(expected(0, "a string, list, tuple, set, map or range", v)),
    }
}

/// `min`/`max`: of the arguments, or of the elements of the one argument. Values of
/// different kinds compare by the language's total order (by kind first), as in `sorted`.
fn extreme(args: &[Value], name: &str, keep: std::cmp::Ordering) -> Result<Value, BuiltinError> {
    let pick = |xs: &mut dyn Iterator<Item = Value>| {
        xs.reduce(|best, x| if x.cmp(&best) == keep { x } else { best })
    };
    if let [one] = args {
        // A range is not expanded: its least and greatest elements are known.
        let found = match one {
            Value::Range(lo, hi) if lo < hi => {
                Some(Value::Int(if keep.is_lt() { *lo } else { hi - 1 }))
            }
            Value::Int(_) | Value::Bool(_) => {
                return Err(expected(0, "a collection", one).with_help(format!(
                    "with one argument `{name}` looks inside a collection; to compare values write `{name}(a, b)`"
                )));
            }
            _ => pick(&mut elements(0, one)?.into_iter()),
        };
        found.ok_or_else(|| {
            BuiltinError::at(0, format!("`{name}` of an empty collection"))
                .with_help("an empty collection has no smallest or largest element; check that it is not empty first")
        })
    } else {
        pick(&mut args.iter().cloned())
            .ok_or_else(|| BuiltinError::call(format!("`{name}` needs at least one argument")))
    }
}

fn abs(v: &Value) -> Result<Value, BuiltinError> {
    let i = v.as_int().ok_or_else(|| expected(0, "an integer", v))?;
    i.checked_abs().map(Value::Int).ok_or_else(overflow)
}

fn sum(v: &Value) -> Result<Value, BuiltinError> {
    if let Value::Range(lo, hi) = v {
        // Closed form, so a long range is not walked; i128 holds any partial result.
        if lo >= hi {
            return Ok(Value::Int(0));
        }
        let (lo, hi) = (i128::from(*lo), i128::from(*hi) - 1);
        let total = (lo + hi) * (hi - lo + 1) / 2;
        return i64::try_from(total).map(Value::Int).map_err(|_| overflow());
    }
    let mut total: i64 = 0;
    let mut index = 0;
    let r = v.try_for_each(|x| {
        let i = x
            .as_int()
            .ok_or_else(|| bad_element(0, "integers", index, &x))?;
        total = total.checked_add(i).ok_or_else(overflow)?;
        index += 1;
        Ok(())
    });
    match r {
        Some(r) => r.map(|()| Value::Int(total)),
        None => Err(expected(0, "a collection of integers", v)),
    }
}

/// `all`/`any`. Every element is checked to be a boolean, even after the answer is
/// known, so a mistake in a model shows the same way whatever the data.
fn all_any(v: &Value, all: bool) -> Result<Value, BuiltinError> {
    let mut answer = all;
    let mut index = 0;
    let r = v.try_for_each(|x| {
        let b = x
            .as_bool()
            .ok_or_else(|| bad_element(0, "booleans", index, &x))?;
        if b != all {
            answer = !all;
        }
        index += 1;
        Ok(())
    });
    match r {
        Some(r) => r.map(|()| Value::Bool(answer)),
        None => Err(expected(0, "a collection of booleans", v)),
    }
}

fn map_arg(v: &Value) -> Result<&std::collections::BTreeMap<Value, Value>, BuiltinError> {
    match v {
        Value::Map(m) => Ok(m),
        _ => Err(expected(0, "a map", v)),
    }
}

fn keys(v: &Value) -> Result<Value, BuiltinError> {
    Ok(Value::list(map_arg(v)?.keys().cloned().collect()))
}

fn values(v: &Value) -> Result<Value, BuiltinError> {
    Ok(Value::list(map_arg(v)?.values().cloned().collect()))
}

fn enumerate(v: &Value) -> Result<Value, BuiltinError> {
    let xs = elements(0, v)?;
    let mut out = Vec::with_capacity(xs.len());
    for (i, x) in xs.into_iter().enumerate() {
        out.push(Value::tuple(vec![int_of(i)?, x]));
    }
    Ok(Value::list(out))
}

fn sorted(v: &Value) -> Result<Value, BuiltinError> {
    let mut xs = elements(0, v)?;
    xs.sort();
    Ok(Value::list(xs))
}

fn union(v: &Value) -> Result<Value, BuiltinError> {
    let mut out = BTreeSet::new();
    let mut index = 0;
    let r = v.try_for_each(|x| {
        match &x {
            Value::Set(s) => out.extend(s.iter().cloned()),
            _ => return Err(bad_element(0, "sets", index, &x)),
        }
        index += 1;
        Ok(())
    });
    match r {
        Some(r) => r.map(|()| Value::Set(std::rc::Rc::new(out))),
        None => Err(expected(0, "a collection of sets", v)
            .with_help("for the union of two sets write `a | b`")),
    }
}

fn disjoint(a: &Value, b: &Value) -> Result<Value, BuiltinError> {
    let xs = elements(0, a)?;
    let ys = elements(1, b)?;
    let (small, large) = if xs.len() <= ys.len() {
        (xs, ys)
    } else {
        (ys, xs)
    };
    let small: BTreeSet<Value> = small.into_iter().collect();
    Ok(Value::Bool(!large.iter().any(|y| small.contains(y))))
}

fn int(v: &Value) -> Result<Value, BuiltinError> {
    match v {
        Value::Int(i) => Ok(Value::Int(*i)),
        Value::Bool(b) => Ok(Value::Int(i64::from(*b))),
        Value::Str(s) => {
            let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(BuiltinError::at(0, format!("{:?} is not an integer", &**s))
                    .with_help("`int` reads decimal digits with an optional sign, such as int(\"42\") or int(\"-7\")"));
            }
            s.parse::<i64>().map(Value::Int).map_err(|_| {
                BuiltinError::at(
                    0,
                    format!("integer overflow: {:?} does not fit in 64 bits", &**s),
                )
            })
        }
        _ => Err(expected(0, "a string or a boolean", v)),
    }
}

fn chars(v: &Value) -> Result<Value, BuiltinError> {
    match v {
        Value::Str(_) => Ok(Value::list(elements(0, v)?)),
        _ => Err(expected(0, "a string", v)),
    }
}

fn zip(a: &Value, b: &Value) -> Result<Value, BuiltinError> {
    let xs = elements(0, a)?;
    let ys = elements(1, b)?;
    Ok(Value::list(
        xs.into_iter()
            .zip(ys)
            .map(|(x, y)| Value::tuple(vec![x, y]))
            .collect(),
    ))
}

fn ord(v: &Value) -> Result<Value, BuiltinError> {
    let s = v
        .as_str()
        .ok_or_else(|| expected(0, "a one-character string", v))?;
    let mut cs = s.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) => Ok(Value::Int(i64::from(u32::from(c)))),
        _ => Err(BuiltinError::at(
            0,
            format!(
                "expected a one-character string, found a string of {} characters",
                s.chars().count()
            ),
        )
        .with_help("to get the code points of a string write [ord(c) for c in s]")),
    }
}

fn chr(v: &Value) -> Result<Value, BuiltinError> {
    let i = v.as_int().ok_or_else(|| expected(0, "an integer", v))?;
    u32::try_from(i)
        .ok()
        .and_then(char::from_u32)
        .map(|c| Value::str(c.encode_utf8(&mut [0; 4])))
        .ok_or_else(|| {
            BuiltinError::at(0, format!("{i} is not a unicode code point"))
                .with_help("code points are 0..=1114111, except the surrogates 55296..=57343")
        })
}

#[cfg(test)]
// Argument lists are written as array literals, `&[x.clone()]` included, so every call
// in the tests reads the same way.
#[allow(clippy::cloned_ref_to_slice_refs)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use std::rc::Rc;

    fn i(n: i64) -> Value {
        Value::Int(n)
    }
    fn s(x: &str) -> Value {
        Value::str(x)
    }
    fn l(xs: &[Value]) -> Value {
        Value::list(xs.to_vec())
    }
    fn set(xs: &[Value]) -> Value {
        Value::set(xs.iter().cloned())
    }
    fn t(xs: &[Value]) -> Value {
        Value::tuple(xs.to_vec())
    }
    fn map(kv: &[(Value, Value)]) -> Value {
        Value::Map(Rc::new(kv.iter().cloned().collect::<BTreeMap<_, _>>()))
    }
    fn ok(name: &str, args: &[Value]) -> Value {
        call(name, args).unwrap_or_else(|e| panic!("{name}: {e:?}"))
    }
    fn err(name: &str, args: &[Value]) -> BuiltinError {
        call(name, args).expect_err(name)
    }
    /// The result as the language prints it, which keeps expectations short.
    fn show(name: &str, args: &[Value]) -> String {
        format!("{:#}", ok(name, args))
    }

    #[test]
    fn every_signature_is_implemented() {
        for &(name, lo, _, _) in SIGNATURES {
            let args = vec![Value::empty_set(); lo];
            if let Err(e) = call(name, &args) {
                assert!(!e.message.contains("not implemented"), "{name}");
            }
        }
    }

    /// Every builtin, called with every combination of awkward arguments up to three,
    /// returns a value or an error and never panics.
    #[test]
    fn no_arguments_make_a_builtin_panic() {
        let samples = [
            i(0),
            i(i64::MIN),
            i(i64::MAX),
            Value::Bool(true),
            s(""),
            s("ab"),
            l(&[]),
            l(&[i(1), s("x"), Value::Bool(false)]),
            Value::empty_set(),
            set(&[t(&[i(0), i(0)]), t(&[i(i64::MAX), i(i64::MIN)])]),
            set(&[Value::empty_set(), set(&[i(1)])]),
            map(&[(i(1), s("a"))]),
            Value::Range(0, 3),
            Value::Range(i64::MIN, i64::MAX),
            Value::Range(3, 0),
            t(&[]),
        ];
        for &(name, lo, hi, _) in SIGNATURES {
            // `sum` and `min` of the huge range are closed forms; the other builtins that
            // expand a range would only be slow, so it is left out for them.
            let fast = ["sum", "min", "max", "len"].contains(&name);
            let pool: Vec<&Value> = samples
                .iter()
                .filter(|v| fast || !matches!(v, Value::Range(a, b) if b.abs_diff(*a) > 10))
                .collect();
            for n in lo..=hi.min(3) {
                let mut idx = vec![0; n];
                loop {
                    let args: Vec<Value> = idx.iter().map(|&k| pool[k].clone()).collect();
                    let _ = call(name, &args);
                    // Next combination, like an odometer.
                    let mut d = 0;
                    while d < n && idx[d] + 1 == pool.len() {
                        idx[d] = 0;
                        d += 1;
                    }
                    if d == n {
                        break;
                    }
                    idx[d] += 1;
                }
            }
        }
    }

    #[test]
    fn unknown_names_and_wrong_arity_are_errors() {
        assert_eq!(err("nope", &[]).message, "unknown builtin `nope`");
        assert_eq!(err("len", &[]).message, "`len` takes 1 argument, found 0");
        assert_eq!(
            err("zip", &[l(&[])]).message,
            "`zip` takes 2 arguments, found 1"
        );
        assert_eq!(
            err("min", &[]).message,
            "`min` takes at least 1 argument, found 0"
        );
        assert_eq!(err("len", &[i(1), i(2)]).arg, None);
    }

    #[test]
    fn len_of_every_collection() {
        assert_eq!(ok("len", &[s("héllo")]), i(5));
        assert_eq!(ok("len", &[l(&[i(1), i(2)])]), i(2));
        assert_eq!(ok("len", &[t(&[i(1)])]), i(1));
        assert_eq!(ok("len", &[set(&[i(1), i(1)])]), i(1));
        assert_eq!(ok("len", &[map(&[(i(1), i(2))])]), i(1));
        assert_eq!(ok("len", &[Value::Range(2, 7)]), i(5));
        assert_eq!(ok("len", &[Value::Range(7, 2)]), i(0));
        assert_eq!(ok("len", &[s("")]), i(0));
        let e = err("len", &[i(3)]);
        assert_eq!(e.arg, Some(0));
        assert_eq!(
            e.message,
            "expected a string, list, tuple, set, map or range, found an integer"
        );
    }

    #[test]
    fn min_and_max() {
        assert_eq!(ok("min", &[i(3), i(1), i(2)]), i(1));
        assert_eq!(ok("max", &[i(3), i(1), i(2)]), i(3));
        assert_eq!(ok("min", &[l(&[i(4), i(-2)])]), i(-2));
        assert_eq!(ok("max", &[set(&[s("a"), s("c"), s("b")])]), s("c"));
        assert_eq!(ok("min", &[Value::Range(3, 9)]), i(3));
        assert_eq!(ok("max", &[Value::Range(3, 9)]), i(8));
        assert_eq!(ok("max", &[s("abz")]), s("z"));
        assert_eq!(
            ok("max", &[map(&[(i(1), i(9)), (i(2), i(0))])]),
            Value::tuple(vec![i(2), i(0)])
        );
        // Two collections compare as values.
        assert_eq!(ok("min", &[l(&[i(2)]), l(&[i(1), i(5)])]), l(&[i(1), i(5)]));
        for empty in [l(&[]), Value::empty_set(), Value::Range(5, 5), s("")] {
            let e = err("min", &[empty.clone()]);
            assert_eq!(e.message, "`min` of an empty collection");
            assert!(e.help.is_some());
            assert_eq!(err("max", &[empty]).message, "`max` of an empty collection");
        }
        let e = err("max", &[i(3)]);
        assert_eq!(e.message, "expected a collection, found an integer");
        assert!(e.help.unwrap().contains("max(a, b)"));
    }

    #[test]
    fn abs_and_sum() {
        assert_eq!(ok("abs", &[i(-5)]), i(5));
        assert_eq!(ok("abs", &[i(5)]), i(5));
        assert_eq!(ok("abs", &[i(i64::MAX)]), i(i64::MAX));
        assert_eq!(err("abs", &[i(i64::MIN)]).message, "integer overflow");
        assert_eq!(
            err("abs", &[s("1")]).message,
            "expected an integer, found a string"
        );

        assert_eq!(ok("sum", &[l(&[i(1), i(2), i(3)])]), i(6));
        assert_eq!(ok("sum", &[l(&[])]), i(0));
        assert_eq!(ok("sum", &[set(&[i(-1), i(4)])]), i(3));
        assert_eq!(ok("sum", &[Value::Range(1, 101)]), i(5050));
        assert_eq!(ok("sum", &[Value::Range(-3, 3)]), i(-3));
        assert_eq!(ok("sum", &[Value::Range(3, 0)]), i(0));
        assert_eq!(
            ok("sum", &[Value::Range(0, 3_000_000_000)]),
            i(4_499_999_998_500_000_000)
        );
        assert_eq!(
            err("sum", &[Value::Range(0, 5_000_000_000)]).message,
            "integer overflow"
        );
        assert_eq!(
            err("sum", &[l(&[i(i64::MAX), i(1)])]).message,
            "integer overflow"
        );
        assert_eq!(ok("sum", &[l(&[i(i64::MAX), i(-1)])]), i(i64::MAX - 1));
        let e = err("sum", &[l(&[i(1), s("2")])]);
        assert_eq!(e.arg, Some(0));
        assert_eq!(
            e.message,
            "expected integers, found a string at position 1 (counting from 0): \"2\""
        );
        assert_eq!(
            err("sum", &[i(1)]).message,
            "expected a collection of integers, found an integer"
        );
    }

    #[test]
    fn all_and_any() {
        let (tt, ff) = (Value::Bool(true), Value::Bool(false));
        assert_eq!(ok("all", &[l(&[tt.clone(), tt.clone()])]), tt);
        assert_eq!(ok("all", &[l(&[tt.clone(), ff.clone()])]), ff);
        assert_eq!(ok("all", &[l(&[])]), tt);
        assert_eq!(ok("any", &[l(&[ff.clone(), tt.clone()])]), tt);
        assert_eq!(ok("any", &[l(&[ff.clone()])]), ff);
        assert_eq!(ok("any", &[l(&[])]), ff);
        // A non-boolean is reported even after the answer is known.
        let e = err("all", &[l(&[ff.clone(), tt.clone(), i(1)])]);
        assert_eq!(
            e.message,
            "expected booleans, found an integer at position 2 (counting from 0): 1"
        );
        assert!(
            err("any", &[l(&[tt, s("x")])])
                .message
                .contains("position 1")
        );
        assert_eq!(
            err("any", &[ff]).message,
            "expected a collection of booleans, found a boolean"
        );
    }

    #[test]
    fn keys_values_enumerate_sorted() {
        let m = map(&[(s("b"), i(2)), (s("a"), i(1))]);
        assert_eq!(show("keys", &[m.clone()]), "[\"a\", \"b\"]");
        assert_eq!(show("values", &[m.clone()]), "[1, 2]");
        assert_eq!(show("keys", &[map(&[])]), "[]");
        assert_eq!(
            err("keys", &[l(&[])]).message,
            "expected a map, found a list"
        );
        assert_eq!(
            err("values", &[set(&[])]).message,
            "expected a map, found a set"
        );

        assert_eq!(show("enumerate", &[s("ab")]), "[(0, \"a\"), (1, \"b\")]");
        assert_eq!(
            show("enumerate", &[m]),
            "[(0, (\"a\", 1)), (1, (\"b\", 2))]"
        );
        assert_eq!(show("enumerate", &[l(&[])]), "[]");
        assert_eq!(
            err("enumerate", &[i(1)]).message,
            "expected a collection (string, list, tuple, set, map or range), found an integer"
        );

        assert_eq!(
            show("sorted", &[l(&[i(3), i(1), i(2), i(1)])]),
            "[1, 1, 2, 3]"
        );
        assert_eq!(show("sorted", &[s("cab")]), "[\"a\", \"b\", \"c\"]");
        assert_eq!(show("sorted", &[set(&[])]), "[]");
        // Mixed kinds sort by kind first, like set order.
        assert_eq!(show("sorted", &[l(&[s("a"), i(1)])]), "[1, \"a\"]");
        assert!(
            err("sorted", &[Value::Bool(true)])
                .message
                .ends_with("found a boolean")
        );
    }

    #[test]
    fn union_and_disjoint() {
        let a = set(&[i(1), i(2)]);
        let b = set(&[i(2), i(3)]);
        assert_eq!(show("union", &[l(&[a.clone(), b.clone()])]), "{1, 2, 3}");
        assert_eq!(show("union", &[set(&[a.clone(), b.clone()])]), "{1, 2, 3}");
        assert_eq!(ok("union", &[l(&[])]), Value::empty_set());
        assert_eq!(ok("union", &[l(&[Value::empty_set()])]), Value::empty_set());
        let e = err("union", &[l(&[a.clone(), l(&[i(1)])])]);
        assert_eq!(
            e.message,
            "expected sets, found a list at position 1 (counting from 0): [1]"
        );
        let e = err("union", &[i(1)]);
        assert_eq!(e.message, "expected a collection of sets, found an integer");
        assert!(e.help.is_some());

        let tt = Value::Bool(true);
        let ff = Value::Bool(false);
        assert_eq!(ok("disjoint", &[a.clone(), b.clone()]), ff);
        assert_eq!(ok("disjoint", &[a.clone(), set(&[i(5)])]), tt);
        assert_eq!(ok("disjoint", &[a.clone(), Value::empty_set()]), tt);
        assert_eq!(
            ok("disjoint", &[Value::empty_set(), Value::empty_set()]),
            tt
        );
        assert_eq!(ok("disjoint", &[l(&[i(7), i(2)]), Value::Range(0, 3)]), ff);
        assert_eq!(ok("disjoint", &[s("abc"), s("xyz")]), tt);
        let e = err("disjoint", &[a, i(1)]);
        assert_eq!(e.arg, Some(1));
    }

    #[test]
    fn str_and_int() {
        assert_eq!(ok("str", &[i(-4)]), s("-4"));
        assert_eq!(ok("str", &[s("ab")]), s("ab"));
        assert_eq!(ok("str", &[Value::Bool(true)]), s("true"));
        assert_eq!(ok("str", &[t(&[i(1), s("x")])]), s("(1, \"x\")"));
        assert_eq!(ok("str", &[set(&[])]), s("{}"));
        assert_eq!(ok("str", &[Value::Range(0, 3)]), s("0..3"));

        assert_eq!(ok("int", &[s("42")]), i(42));
        assert_eq!(ok("int", &[s("-7")]), i(-7));
        assert_eq!(ok("int", &[s("+7")]), i(7));
        assert_eq!(ok("int", &[s("007")]), i(7));
        assert_eq!(ok("int", &[s("-9223372036854775808")]), i(i64::MIN));
        assert_eq!(ok("int", &[Value::Bool(true)]), i(1));
        assert_eq!(ok("int", &[Value::Bool(false)]), i(0));
        assert_eq!(ok("int", &[i(5)]), i(5));
        for bad in ["", "-", "x", "4 2", " 42", "1.5", "+-1", "٣"] {
            let e = err("int", &[s(bad)]);
            assert_eq!(e.message, format!("{bad:?} is not an integer"));
            assert!(e.help.is_some());
        }
        assert!(
            err("int", &[s("9223372036854775808")])
                .message
                .starts_with("integer overflow")
        );
        assert_eq!(
            err("int", &[l(&[])]).message,
            "expected a string or a boolean, found a list"
        );
    }

    #[test]
    fn list_set_chars_zip() {
        assert_eq!(show("list", &[Value::Range(0, 3)]), "[0, 1, 2]");
        assert_eq!(show("list", &[set(&[i(2), i(1)])]), "[1, 2]");
        assert_eq!(show("list", &[t(&[])]), "[]");
        assert_eq!(show("set", &[l(&[i(2), i(1), i(2)])]), "{1, 2}");
        assert_eq!(show("set", &[s("")]), "{}");
        assert_eq!(show("set", &[map(&[(i(1), i(0))])]), "{(1, 0)}");
        assert!(err("list", &[i(1)]).message.ends_with("found an integer"));
        assert!(
            err("set", &[Value::Bool(false)])
                .message
                .ends_with("found a boolean")
        );

        assert_eq!(show("chars", &[s("a.b")]), "[\"a\", \".\", \"b\"]");
        assert_eq!(show("chars", &[s("")]), "[]");
        assert_eq!(
            err("chars", &[l(&[])]).message,
            "expected a string, found a list"
        );

        assert_eq!(
            show("zip", &[l(&[i(1), i(2), i(3)]), s("ab")]),
            "[(1, \"a\"), (2, \"b\")]"
        );
        assert_eq!(show("zip", &[l(&[]), Value::Range(0, 9)]), "[]");
        assert_eq!(err("zip", &[l(&[]), i(1)]).arg, Some(1));
    }

    #[test]
    fn ord_and_chr() {
        assert_eq!(ok("ord", &[s("A")]), i(65));
        assert_eq!(ok("ord", &[s("é")]), i(233));
        assert_eq!(ok("chr", &[i(97)]), s("a"));
        assert_eq!(ok("chr", &[i(0x1F600)]), s("😀"));
        assert_eq!(
            err("ord", &[s("ab")]).message,
            "expected a one-character string, found a string of 2 characters"
        );
        assert!(err("ord", &[s("")]).message.contains("0 characters"));
        assert_eq!(
            err("ord", &[i(1)]).message,
            "expected a one-character string, found an integer"
        );
        for bad in [-1, 0xD800, 0x110000, i64::MAX] {
            assert_eq!(
                err("chr", &[i(bad)]).message,
                format!("{bad} is not a unicode code point")
            );
        }
        assert_eq!(
            err("chr", &[s("a")]).message,
            "expected an integer, found a string"
        );
    }

    #[test]
    fn shapes_through_call() {
        let l4 = ok("shape", &[s("OOO/O")]);
        assert_eq!(format!("{l4}"), "{(0, 0), (0, 1), (0, 2), (1, 0)}");
        assert_eq!(ok("len", &[ok("variants", &[l4.clone()])]), i(8));
        assert_eq!(
            format!("{}", ok("shift", &[l4.clone(), i(2), i(3)])),
            "{(2, 3), (2, 4), (2, 5), (3, 3)}"
        );
        assert_eq!(format!("{}", ok("size", &[l4.clone()])), "(2, 3)");
        assert_eq!(ok("rotate", &[l4.clone()]), ok("shape", &[s("OO/.O/.O")]));
        assert_eq!(ok("reflect", &[l4.clone()]), ok("shape", &[s("OOO/..O")]));
        assert_eq!(
            ok("normalize", &[ok("shift", &[l4.clone(), i(-1), i(5)])]),
            l4
        );
        let e = err("shape", &[s("..")]);
        assert!(e.message.contains("no cells"));
        assert!(e.help.unwrap().contains("shape(\"OO/O.\")"));
    }
}
