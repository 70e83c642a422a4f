//! Written parameter types: `int`, `grid[N, N]`, ...
//!
//! Types are only named here; their values are checked against them when parameters
//! are bound (E06xx). The checker makes sure the name is one the language knows and
//! the number of bracketed arguments fits it.

use super::error::{CheckError, Mistake};
use crate::diag::suggest::{did_you_mean, list_names};
use crate::syntax::ast::TypeExpr;

/// The type names the language knows, with the argument counts each accepts.
pub const TYPES: &[(&str, &[usize])] = &[
    ("int", &[0]),
    ("bool", &[0]),
    ("str", &[0]),
    ("list", &[0]),
    ("set", &[0]),
    ("map", &[0]),
    ("grid", &[0, 2]),
    ("ints", &[0]),
    ("cells", &[2, 3]),
];

/// What is wrong with a parameter's type name or its number of arguments, if anything.
/// (The arguments' names are resolved by the resolver, like any expression.)
pub(super) fn check_type(ty: &TypeExpr) -> Option<CheckError> {
    let name = ty.name.name.as_str();
    let Some((_, counts)) = TYPES.iter().find(|(n, _)| *n == name) else {
        let help = match did_you_mean(name, TYPES.iter().map(|t| t.0)) {
            Some(s) => format!("did you mean `{s}`?"),
            None => {
                let all: Vec<&str> = TYPES.iter().map(|t| t.0).collect();
                format!("the types are {}", list_names(&all))
            }
        };
        return Some(
            CheckError::new(
                Mistake::UnknownType,
                format!("unknown type `{name}`"),
                ty.name.span,
                "not a type",
            )
            .with_help(help),
        );
    };
    let given = ty.args.len();
    if !counts.contains(&given) {
        let (expected, help) = if name == "grid" {
            (
                "0 or 2".to_string(),
                "write `grid` for any shape, or `grid[rows, cols]` for a fixed one".to_string(),
            )
        } else if name == "cells" {
            (
                "2 or 3".to_string(),
                "write `cells[rows, cols]` for one grid, or `cells[grids, rows, cols]` for several"
                    .to_string(),
            )
        } else {
            ("0".to_string(), format!("write `{name}` without brackets"))
        };
        return Some(
            CheckError::new(
                Mistake::TypeArgumentCount,
                format!(
                    "wrong number of arguments to type `{name}`: expected {expected}, found {given}"
                ),
                ty.span,
                format!("{given} given"),
            )
            .with_help(help),
        );
    }
    None
}
