//! Python values as literals of the language, for `params={...}`.
//!
//! Parameters travel as the text `-p name=value` would carry, so a model gets the same
//! value from Python as from the command line, and a pickled model is rebuilt from
//! text alone. A `str` at the top is that text as it is (a literal, or a bare word for
//! a string parameter, as `-p` takes it); everything else is written as a literal.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple};

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
            Err(_) => literal(&value)?,
        };
        out.push((name, text));
    }
    Ok(out)
}

/// `v` written as a literal of the language.
fn literal(v: &Bound<'_, PyAny>) -> PyResult<String> {
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
            return literal(&v.call_method0("tolist")?);
        }
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(quoted(&s.to_cow()?));
    }
    let join = |items: Vec<Bound<'_, PyAny>>| -> PyResult<String> {
        Ok(items
            .iter()
            .map(literal)
            .collect::<PyResult<Vec<_>>>()?
            .join(", "))
    };
    if let Ok(l) = v.cast::<PyList>() {
        return Ok(format!("[{}]", join(l.iter().collect())?));
    }
    if let Ok(t) = v.cast::<PyTuple>() {
        return Ok(format!("({})", join(t.iter().collect())?));
    }
    if let Ok(s) = v.cast::<PySet>() {
        return Ok(format!("{{{}}}", join(s.iter().collect())?));
    }
    if let Ok(s) = v.cast::<PyFrozenSet>() {
        return Ok(format!("{{{}}}", join(s.iter().collect())?));
    }
    if let Ok(d) = v.cast::<PyDict>() {
        let mut entries = Vec::new();
        for (k, x) in d.iter() {
            entries.push(format!("{}: {}", literal(&k)?, literal(&x)?));
        }
        return Ok(format!("{{{}}}", entries.join(", ")));
    }
    Err(PyTypeError::new_err(format!(
        "a parameter value must be a bool, int, str, list, tuple, set or dict, not {}",
        v.get_type().name()?
    )))
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
