//! Syntax: `.dlx` text to a typed tree with spans.
//!
//! The grammar lives in `grammar/dlx.pest`; this module turns pest's parse tree into
//! [`ast::Model`] by hand, one function per rule, and pest's errors into diagnostics
//! that name what was expected in a user's words.

pub mod ast;
pub mod errors;
mod expr;
mod grammar;
mod literals;
mod parser;

pub use errors::SyntaxError;
pub use parser::{parse, parse_expr};
