//! dlxc: a declarative modeling language for exact-cover problems, and the Dancing
//! Links engine under it.
//!
//! The pipeline, one module a step:
//!
//! ```text
//! grammar/dlx.pest -> syntax  (parse tree -> typed AST with spans)
//!                  -> check   (names, arity, cycles: every error, not the first)
//!                  -> lower   (evaluate comprehensions -> Problem with origins)
//!                  -> solve   (Dancing Links over the Problem; knows nothing of the AST)
//!                  -> render  (solutions back into text, grids, JSON Lines)
//! ```
//!
//! [`problem::Problem`] is the one interface between the language and the engine. Knuth's
//! text format ([`format::knuth`]) reads into the same type and writes out of it, so the
//! engine is tested and measured without the language.
//!
//! Nothing in the library touches the terminal or the file system except [`cli`], which
//! the binary calls after parsing its arguments.

// One measured exception is allowed, by name: the engine's choice of item calls a copy
// of itself compiled for AVX2 when the processor has it (see `solve::search`).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod check;
pub mod cli;
pub mod diag;
pub mod format;
pub mod lower;
pub mod problem;
pub mod render;
pub mod session;
pub mod solve;
pub mod source;
pub mod symmetry;
pub mod syntax;
pub mod task;
#[cfg(test)]
mod testing;
