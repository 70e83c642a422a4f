//! The grammar (`grammar/dlx.pest`) as pest generates it, with the limits that keep the
//! parse and the tree builder within their stack. A module of its own because both the
//! tree builder ([`super::parser`]) and the error messages ([`super::errors`]) name its
//! rules.

use pest_derive::Parser;

/// The pest parser generated from the grammar.
#[derive(Parser)]
#[grammar = "../grammar/dlx.pest"]
pub(super) struct DlxParser;

/// How deeply brackets may nest. Far beyond what a model needs, and low enough that
/// neither pest nor the tree builder can run out of stack.
pub(crate) const MAX_DEPTH: usize = 64;

/// How many `for`, `where` and `let` clauses one declaration or comprehension may have.
pub(crate) const MAX_CLAUSES: usize = 256;
