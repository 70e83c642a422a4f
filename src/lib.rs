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
//! the binary calls after parsing its arguments. The library installs no global
//! allocator and no signal handler: those belong to the program (see
//! [`lower::budget::set_gauge`] for how a program keeps the memory budget working).
//!
//! Counting the solutions of a model from its text, with a parameter:
//!
//! ```
//! use dlxc::session::Front;
//! use dlxc::source::SourceFile;
//!
//! let text = std::fs::read_to_string("examples/queens.dlx").unwrap();
//! let model = Front::load(SourceFile::new("queens.dlx", text)).unwrap();
//! let queens = model.instance(&["n=8".to_string()]).unwrap();
//! let counted = dlxc::run::count(&queens, 1).unwrap();
//! assert_eq!(counted.stats.solutions, 92);
//! ```
//!
//! A problem in Knuth's text format (DLX1's), solved through a [`run::Runner`] that
//! shows each solution to a [`run::Sink`]:
//!
//! ```
//! use dlxc::instance::Instance;
//! use dlxc::problem::OptionId;
//! use dlxc::run::{Runner, Sink};
//! use dlxc::solve::Flow;
//! use dlxc::source::SourceFile;
//! use dlxc::task::{Request, Task};
//!
//! let src = SourceFile::new("tiny.dlx", "a b c\na b\nc\na\nb c\n");
//! let problem = dlxc::format::knuth::read(&src).unwrap();
//! let inst = Instance::of_problem(problem);
//! struct Collect(Vec<Vec<OptionId>>);
//! impl Sink for Collect {
//!     fn solution(&mut self, chosen: &[OptionId]) -> Flow {
//!         self.0.push(chosen.to_vec());
//!         Flow::Continue
//!     }
//! }
//! let task = Task::new(&Request { all: true, ..Request::default() }).unwrap();
//! let mut found = Collect(Vec::new());
//! Runner::new(task).run(&inst, &mut found).unwrap();
//! assert_eq!(found.0.len(), 2);
//! ```

// One measured exception is allowed, by name: the engine's choice of item calls a copy
// of itself compiled for AVX2 when the processor has it (see `solve::search`).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod check;
#[cfg(feature = "native")]
pub mod cli;
pub mod clock;
pub mod diag;
pub mod fmt;
pub mod format;
pub mod instance;
pub mod lower;
#[cfg(feature = "native")]
pub mod lsp;
pub mod problem;
pub mod render;
pub mod run;
pub mod session;
pub mod solve;
pub mod source;
pub mod symmetry;
pub mod syntax;
pub mod task;
#[cfg(test)]
mod testing;
