//! The command-line front end, as a library: validated settings in, exit code out.
//!
//! `main.rs` parses arguments with clap and turns them into a [`Command`]; everything
//! else happens here, so the commands can be driven from tests without a process. This
//! is the only module that reads files and writes to the terminal.
//!
//! Exit codes (documented in the README):
//!
//! | code | meaning |
//! |------|---------|
//! | 0 | solved: a solution was found (for every record of a data file) |
//! | 1 | no solution: the search was complete and found none (for some record) |
//! | 2 | bad input or usage: diagnostics were printed |
//! | 3 | cut short: a limit or Ctrl-C stopped the search before it found a solution |

mod optimize;
mod output;
mod run;
mod solve;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::diag::{Diagnostics, RenderStyle, render_all};
use crate::solve::SearchConfig;
use crate::source::SourceFile;

pub use output::Out;

/// Exit code: solved.
pub const EXIT_SOLVED: u8 = 0;
/// Exit code: the search was complete and found no solution.
pub const EXIT_NO_SOLUTION: u8 = 1;
/// Exit code: bad input or usage.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code: a limit cut the search short before a solution was found.
pub const EXIT_CUT_SHORT: u8 = 3;

/// How much of the search to run and what to print, shared by `run` and `solve`.
#[derive(Clone, Debug, Default)]
pub struct SearchArgs {
    /// Print every solution.
    pub all: bool,
    /// Print at most this many solutions.
    pub limit: Option<u64>,
    /// Count solutions instead of printing them.
    pub count: bool,
    /// Print statistics to stderr.
    pub stats: bool,
    /// Print JSON Lines.
    pub json: bool,
    /// Stop after this many seconds.
    pub time_limit: Option<f64>,
    /// Stop after this many search-tree nodes.
    pub node_limit: Option<u64>,
    /// Show improving solutions of an optimizing search on stderr.
    pub verbose: bool,
    /// With an objective, print only the optimal value.
    pub value: bool,
    /// What to print instead of `No solution` (`--none=-1`).
    pub none: Option<String>,
}

/// `dlxc run` / `check` / `compile`: what model, parameters and data.
#[derive(Clone, Debug, Default)]
pub struct ModelArgs {
    /// The model file.
    pub model: PathBuf,
    /// `-p name=value` settings, as written.
    pub params: Vec<String>,
    /// A data file whose records fill the model's data parameter.
    pub data: Option<PathBuf>,
    /// Largest family or comprehension the compiler builds.
    pub max_size: usize,
}

/// What `dlxc compile` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    /// Knuth's text format (DLX1/DLX2/DLX3/DLX5).
    Knuth,
    /// The lowered problem as JSON.
    Json,
}

/// One command, with validated settings.
#[derive(Clone, Debug)]
pub enum Command {
    /// Compile a model and solve it, record by record.
    Run(ModelArgs, SearchArgs),
    /// Compile a model and print its diagnostics only.
    Check(ModelArgs),
    /// Compile a model and write the lowered problem.
    Compile(ModelArgs, Emit),
    /// Solve a problem in Knuth's format (or a 0/1 matrix).
    Solve {
        /// The file, or `None` for standard input.
        file: Option<PathBuf>,
        /// Read the 0/1 matrix format instead of Knuth's.
        matrix: bool,
        /// The search settings.
        search: SearchArgs,
    },
    /// Explain a diagnostic code.
    Explain(String),
}

/// How diagnostics are drawn on this terminal.
pub fn terminal_style() -> RenderStyle {
    use std::io::IsTerminal;
    let color = io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    RenderStyle {
        color,
        unicode: true,
        width: 80,
    }
}

/// Runs a command, writing results to `out` and diagnostics to `err`, and returns the
/// exit code.
pub fn execute(cmd: Command, out: &mut dyn Write, err: &mut dyn Write, style: RenderStyle) -> u8 {
    let mut o = Out::new(out, err, style);
    let code = match cmd {
        Command::Run(m, s) => run::run(&mut o, &m, &s),
        Command::Check(m) => run::check(&mut o, &m),
        Command::Compile(m, emit) => run::compile(&mut o, &m, emit),
        Command::Solve {
            file,
            matrix,
            search,
        } => solve::solve(&mut o, file.as_deref(), matrix, &search),
        Command::Explain(code) => match crate::diag::explain(&code) {
            Some(text) => {
                o.line(text.trim_end());
                EXIT_SOLVED
            }
            None => {
                o.error(&format!(
                    "no diagnostic has the code `{code}`; codes look like E0101"
                ));
                EXIT_BAD_INPUT
            }
        },
    };
    if o.broken_pipe() { EXIT_SOLVED } else { code }
}

/// Reads a file (or standard input for `-`) into a source file, or says why not.
pub(crate) fn read_source(o: &mut Out<'_>, path: Option<&Path>) -> Option<SourceFile> {
    let (name, text) = match path {
        None => ("<stdin>".to_string(), io::read_to_string(io::stdin())),
        Some(p) if p == Path::new("-") => ("<stdin>".to_string(), io::read_to_string(io::stdin())),
        Some(p) => (p.display().to_string(), std::fs::read_to_string(p)),
    };
    match text {
        Ok(t) => Some(SourceFile::new(name, t)),
        Err(e) => {
            o.error(&format!("cannot read {name}: {e}"));
            None
        }
    }
}

/// Prints diagnostics; returns whether any was an error.
pub(crate) fn report(o: &mut Out<'_>, diags: &Diagnostics) -> bool {
    if !diags.is_empty() {
        let text = render_all(diags, o.style());
        o.err_text(&text);
    }
    diags.has_errors()
}

/// The interrupt flag set by Ctrl-C. Installed once; a second Ctrl-C while the flag is
/// still set ends the process, so a stuck phase can always be stopped.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();
    Arc::clone(FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = Arc::clone(&flag);
        // If a handler cannot be installed (another one exists), Ctrl-C keeps its
        // default meaning: end the process. Nothing is lost but the final statistics.
        let _ = ctrlc::set_handler(move || {
            if f.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
        flag
    }))
}

/// The engine settings for one search.
pub(crate) fn search_config(s: &SearchArgs) -> SearchConfig {
    let max_solutions = if s.count {
        None
    } else if let Some(k) = s.limit {
        Some(u128::from(k))
    } else if s.all {
        None
    } else {
        Some(1)
    };
    SearchConfig {
        count_only: s.count,
        max_solutions,
        node_limit: s.node_limit,
        time_limit: s.time_limit.map(Duration::from_secs_f64),
        interrupt: Some(interrupt_flag()),
        ..SearchConfig::default()
    }
}

/// One line of search statistics, for `--stats`.
pub(crate) fn output_stats(st: &crate::solve::Stats) -> String {
    let secs = st.elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        st.nodes as f64 / secs
    } else {
        0.0
    };
    format!(
        "solutions: {}, nodes: {}, updates: {}, time: {:.3} s ({:.0} nodes/s)",
        st.solutions, st.nodes, st.updates, secs, rate
    )
}
