//! What a builtin may say of its arguments: the error it reports ([`BuiltinError`]) and
//! the helpers that read a collection argument, shared by the builtins of
//! [`builtins`](super::builtins), [`shapes`](super::shapes) and
//! [`combinatorics`](super::combinatorics) (which is why they live apart from all three).

use std::fmt;

use super::value::Value;
use crate::diag::Code;

/// Why a builtin refused its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltinError {
    /// The argument at fault (0-based), or `None` when the call as a whole is wrong.
    pub arg: Option<usize>,
    /// What went wrong, lowercase, "expected X, found Y" style.
    pub message: String,
    /// What to write instead, if there is something useful to say.
    pub help: Option<String>,
    /// The diagnostic code, when the error has one of its own; `None` reports the
    /// general "bad argument to a builtin" (E0212).
    pub code: Option<Code>,
}

impl BuiltinError {
    /// An error about argument `arg` (0-based).
    pub fn at(arg: usize, message: impl Into<String>) -> BuiltinError {
        BuiltinError {
            arg: Some(arg),
            message: message.into(),
            help: None,
            code: None,
        }
    }

    /// An error about the call as a whole.
    pub fn call(message: impl Into<String>) -> BuiltinError {
        BuiltinError {
            arg: None,
            message: message.into(),
            help: None,
            code: None,
        }
    }

    /// The same error with a diagnostic code of its own instead of E0212.
    pub fn with_code(mut self, code: Code) -> BuiltinError {
        self.code = Some(code);
        self
    }

    /// The same error with a help line.
    pub fn with_help(mut self, help: impl Into<String>) -> BuiltinError {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for BuiltinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BuiltinError {}

/// "expected X, found Y" for argument `arg`.
pub fn expected(arg: usize, what: &str, found: &Value) -> BuiltinError {
    BuiltinError::at(
        arg,
        format!("expected {what}, found {}", found.kind().described()),
    )
}

/// The most elements a builtin expands a range into: the default size limit of
/// comprehensions, so that `list(0..10**12)` is an error rather than an allocation
/// that ends the process.
pub const MAX_EXPANSION: usize = 10_000_000;

/// The elements of argument `arg`, which must be a collection.
pub fn elements(arg: usize, v: &Value) -> Result<Vec<Value>, BuiltinError> {
    if let Value::Range(..) = v
        && v.len().is_some_and(|n| n > MAX_EXPANSION)
    {
        return Err(BuiltinError::at(
            arg,
            format!(
                "this range has {} elements, more than the {MAX_EXPANSION} a builtin expands",
                v.len().unwrap_or(0)
            ),
        ));
    }
    v.elements().ok_or_else(|| {
        expected(
            arg,
            "a collection (string, list, tuple, set, map or range)",
            v,
        )
    })
}
