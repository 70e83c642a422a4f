//! Python values as literals of the language, for `params={...}`.
//!
//! Parameters travel as the text `-p name=value` would carry, so a model gets the same
//! value from Python as from the command line, and a pickled model is rebuilt from
//! text alone. A `str` at the top is that text as it is (a literal, or a bare word for
//! a string parameter, as `-p` takes it); everything else is written as a literal.

use dlxc::diag::Code;
use dlxc::diag::report::Report;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple};

use crate::errors::Failure;

/// How many lists, tuples, sets and dicts a parameter value may nest, one inside
/// another. It is the language's own limit on nested brackets, past which `-p` refuses
/// the same value written out (E0602, "brackets nested too deeply"), so no value a
/// model could take is cut off; and it stops the walk below long before a deep (or
/// self-containing) value would run the thread out of stack, which Python itself
/// would not prevent (a segmentation fault, not an exception).
const MAX_DEPTH: usize = 64;

/// Why a value has no literal: it nests too deeply or contains itself, or Python
/// raised while it was read.
enum NoLiteral {
    /// Nested more than [`MAX_DEPTH`] levels.
    TooDeep,
    /// A container that holds itself (at any depth).
    Cycle,
    /// Python's error (a type the language has no literal for, a failing `tolist`).
    Py(PyErr),
}

impl From<PyErr> for NoLiteral {
    fn from(e: PyErr) -> NoLiteral {
        NoLiteral::Py(e)
    }
}

/// The containers a value is inside, outermost first, by identity: a cycle is one of
/// them met again, a value nested too deeply a path longer than [`MAX_DEPTH`].
#[derive(Default)]
struct Path(Vec<usize>);

impl Path {
    /// Enters the container `v`, or refuses it.
    fn enter(&mut self, v: &Bound<'_, PyAny>) -> Result<(), NoLiteral> {
        // Identity, as Python's `id()`: the object's address while it is alive (it
        // is, for the whole walk: its parent holds it).
        let id = v.as_ptr() as usize;
        if self.0.contains(&id) {
            Err(NoLiteral::Cycle)
        } else if self.0.len() >= MAX_DEPTH {
            Err(NoLiteral::TooDeep)
        } else {
            self.0.push(id);
            Ok(())
        }
    }

    fn leave(&mut self) {
        self.0.pop();
    }
}

/// The `(name, text)` settings of a mapping of parameters.
pub fn settings(params: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<(String, String)>> {
    let Some(params) = params.filter(|p| !p.is_none()) else {
        return Ok(Vec::new());
    };
    let items = match params.cast::<PyDict>() {
        Ok(d) => d.items().into_any(),
        Err(_) => params.call_method0("items")?,
    };
    let mut out = Vec::new();
    for pair in items.try_iter()? {
        let (name, value): (String, Bound<'_, PyAny>) = pair?.extract()?;
        let text = match value.cast::<PyString>() {
            Ok(s) => s.to_string(),
            Err(_) => match literal(&value, &mut Path::default()) {
                Ok(t) => t,
                Err(NoLiteral::Py(e)) => return Err(e),
                Err(NoLiteral::TooDeep) => return Err(refusal(&name, false).into_err(params.py())),
                Err(NoLiteral::Cycle) => return Err(refusal(&name, true).into_err(params.py())),
            },
        };
        out.push((name, text));
    }
    Ok(out)
}

/// The `ModelError` of parameter `name`'s value, which nests too deeply or (with
/// `cycle`) contains itself: E0602, the code of `-p` for a value that is not a literal
/// of the language (as the same value written out is, nested too deeply).
fn refusal(name: &str, cycle: bool) -> Failure {
    let why = if cycle {
        "a list, tuple, set or dict in it contains itself, so it would nest without end".to_string()
    } else {
        format!("lists, tuples, sets or dicts are nested in it more than {MAX_DEPTH} deep")
    };
    Failure::one(
        Report::error(
            Code::E0602,
            format!("the value of parameter `{name}` is not a literal of the language: {why}"),
        )
        .help(format!(
            "a literal nests at most {MAX_DEPTH} levels of brackets; pass the data flatter \
             (a list of tuples rather than lists in lists), and as a tree: a copy with no \
             container inside itself"
        )),
    )
}

/// `v` written as a literal of the language; `path` holds the containers it is in.
fn literal(v: &Bound<'_, PyAny>, path: &mut Path) -> Result<String, NoLiteral> {
    // `bool` is a subclass of `int`: test it first.
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(if b.is_true() { "true" } else { "false" }.to_string());
    }
    if v.is_instance_of::<PyInt>() {
        return Ok(v.str()?.to_string());
    }
    // NumPy's scalars and arrays: `numpy.bool_` is no `bool`, `numpy.int64` no `int`
    // (but an index, as `operator.index` takes it), an array a nested list.
    if is_numpy(v)? {
        let name = v.get_type().name()?.to_string();
        if name.starts_with("bool") {
            return Ok(if v.is_truthy()? { "true" } else { "false" }.to_string());
        }
        if let Ok(i) = v.call_method0("__index__") {
            return Ok(i.str()?.to_string());
        }
        if v.hasattr("tolist")? {
            return literal(&v.call_method0("tolist")?, path);
        }
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(quoted(&s.to_cow()?));
    }
    let (open, items, close): (&str, Vec<Bound<'_, PyAny>>, &str) =
        if let Ok(l) = v.cast::<PyList>() {
            ("[", l.iter().collect(), "]")
        } else if let Ok(t) = v.cast::<PyTuple>() {
            ("(", t.iter().collect(), ")")
        } else if let Ok(s) = v.cast::<PySet>() {
            ("{", s.iter().collect(), "}")
        } else if let Ok(s) = v.cast::<PyFrozenSet>() {
            ("{", s.iter().collect(), "}")
        } else if let Ok(d) = v.cast::<PyDict>() {
            path.enter(v)?;
            let mut entries = Vec::new();
            for (k, x) in d.iter() {
                entries.push(format!("{}: {}", literal(&k, path)?, literal(&x, path)?));
            }
            path.leave();
            return Ok(format!("{{{}}}", entries.join(", ")));
        } else {
            return Err(NoLiteral::Py(PyTypeError::new_err(format!(
                "a parameter value must be a bool, int, str, list, tuple, set or dict, not {}",
                v.get_type().name()?
            ))));
        };
    path.enter(v)?;
    let mut parts = Vec::with_capacity(items.len());
    for x in &items {
        parts.push(literal(x, path)?);
    }
    path.leave();
    Ok(format!("{open}{}{close}", parts.join(", ")))
}
/// Whether `v`'s type comes from NumPy.
fn is_numpy(v: &Bound<'_, PyAny>) -> PyResult<bool> {
    let module = v.get_type().module()?.to_string();
    Ok(module == "numpy" || module.starts_with("numpy."))
}

/// A string literal with the escapes of the language (`\" \\ \n \t`).
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
