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
//! | 2 | bad input or usage: diagnostics were printed (some record failed, others ran) |
//! | 3 | cut short: a limit or Ctrl-C stopped a search, so the answer is incomplete |

mod checkpoint;
mod estimate;
mod fmt;
mod memo;
mod merge;
mod output;
mod picture;
mod progress;
mod records;
mod run;
mod show;
mod solve;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::diag::{Diagnostics, RenderStyle, render_all};

use crate::diag::Code;
use crate::source::SourceFile;

pub use crate::task::Shard;
pub use output::Out;
pub use picture::PictureArgs;

/// Exit code: solved.
pub const EXIT_SOLVED: u8 = 0;
/// Exit code: the search was complete and found no solution.
pub const EXIT_NO_SOLUTION: u8 = 1;
/// Exit code: bad input or usage.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code: a limit or Ctrl-C cut a search short; the answer printed is incomplete.
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
    /// Which engine searches (`--engine`).
    pub engine: crate::solve::EngineChoice,
    /// Threads for `--count`, `--all` and `--limit` (`--threads`; 0 or 1: one).
    pub threads: usize,
    /// Count only this shard of the tree (`--shard K/N`).
    pub shard: Option<Shard>,
    /// Write the count's frontier and counts here (`--checkpoint FILE`).
    pub checkpoint: Option<PathBuf>,
    /// How often to write the checkpoint (`--checkpoint-every`), when given.
    pub checkpoint_every: Option<Duration>,
    /// Go on with the count saved in this checkpoint (`--resume FILE`).
    pub resume: Option<PathBuf>,
    /// How a long count shows its progress.
    pub progress: ProgressMode,
    /// Whether `--progress` was given (not only a terminal's progress line).
    pub progress_asked: bool,
    /// Whether `--threads` was given (not only the default of every core).
    pub threads_asked: bool,
    /// Count and list solutions up to the model's declared symmetries
    /// (`--up-to-symmetry`).
    pub up_to_symmetry: bool,
    /// SVG pictures of the solutions shown (`--svg`, `--svg-dir`; `dlxc run` only).
    pub pictures: PictureArgs,
    /// `--memo`, `--memo-order`, `--sample`, `--seed`, `--zdd`.
    pub memo: MemoArgs,
    /// `--best K`: the K best solutions of an objective.
    pub best: Option<u64>,
}

/// The memo count's flags: whether it runs, its item order, random draws, the ZDD.
#[derive(Clone, Debug, Default)]
pub struct MemoArgs {
    /// `--memo auto|on|off`.
    pub memo: crate::task::Memo,
    /// `--memo-order`.
    pub order: Option<crate::solve::memo::Order>,
    /// `--sample K`.
    pub sample: Option<u64>,
    /// `--seed S`.
    pub seed: Option<u64>,
    /// `--zdd FILE`.
    pub zdd: Option<PathBuf>,
}

impl SearchArgs {
    /// What the flags ask of the search, for [`Task::new`](crate::task::Task::new) to
    /// validate.
    pub(crate) fn request(&self) -> crate::task::Request {
        crate::task::Request {
            all: self.all,
            limit: self.limit,
            count: self.count,
            up_to_symmetry: self.up_to_symmetry,
            engine: self.engine,
            threads: self.threads,
            threads_asked: self.threads_asked,
            shard: self.shard,
            checkpoint: self.checkpoint.clone(),
            checkpoint_every: self.checkpoint_every,
            resume: self.resume.clone(),
            progress: self.progress_asked,
            time_limit: self.time_limit.map(seconds),
            node_limit: self.node_limit,
            memo: self.memo.memo,
            memo_order: self.memo.order,
            sample: self.memo.sample,
            seed: self.memo.seed,
            zdd: self.memo.zdd.clone(),
            best: self.best,
        }
    }
}

/// How a long count shows how far it has got, on stderr.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProgressMode {
    /// Not at all (the default on a pipe or file, and with `--quiet`).
    #[default]
    Off,
    /// A line redrawn in place (a terminal).
    Bar,
    /// A plain line every few seconds (`--progress` on a pipe or file).
    Lines,
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
    /// Compile a model and print its diagnostics as JSON Lines on the result stream.
    CheckJson(ModelArgs),
    /// Rewrite models in the house style (`dlxc fmt`); no files: standard input.
    Fmt {
        /// The model files; `-` is standard input, formatted to standard output.
        files: Vec<PathBuf>,
        /// Write nothing; list the files that would change (exit 1 if any).
        check: bool,
    },
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
    /// Add up the JSON summaries of the shards of one count.
    Merge {
        /// The files, each holding one shard's `--json` output.
        files: Vec<PathBuf>,
        /// Print a JSON summary instead of the count.
        json: bool,
    },
    /// Estimate the size of a model's search tree (Knuth's random probes).
    Estimate(ModelArgs, EstimateArgs),
    /// Estimate the size of a Knuth-format problem's search tree.
    EstimateFile {
        /// The file, or `None` for standard input.
        file: Option<PathBuf>,
        /// Read the 0/1 matrix format instead of Knuth's.
        matrix: bool,
        /// How many probes, and their seed.
        args: EstimateArgs,
    },
}

/// How `dlxc estimate` probes the tree.
#[derive(Clone, Copy, Debug)]
pub struct EstimateArgs {
    /// Random root-to-leaf probes (`None`: as many as fit in about half a second).
    pub probes: Option<usize>,
    /// The random seed, so that an estimate can be repeated.
    pub seed: u64,
    /// Which engine's tree (only dancing cells and bitsets can be probed).
    pub engine: crate::solve::EngineChoice,
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
    // Ctrl-C is ours from the start, so an interrupted compilation says so too.
    interrupt_flag();
    let mut o = Out::new(out, err, style);
    let code = match cmd {
        Command::Run(m, s) => run::run(&mut o, &m, &s),
        Command::Check(m) => run::check(&mut o, &m),
        Command::Fmt { files, check } => fmt::fmt(&mut o, &files, check),
        Command::CheckJson(m) => {
            o.set_json_diagnostics();
            run::check(&mut o, &m)
        }
        Command::Compile(m, emit) => run::compile(&mut o, &m, emit),
        Command::Solve {
            file,
            matrix,
            search,
        } => solve::solve(&mut o, file.as_deref(), matrix, &search),
        Command::Merge { files, json } => merge::merge(&mut o, &files, json),
        Command::Estimate(m, e) => estimate::model(&mut o, &m, &e),
        Command::EstimateFile { file, matrix, args } => {
            estimate::file(&mut o, file.as_deref(), matrix, &args)
        }
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
    busy(None);
    o.flush();
    if let Some(e) = o.write_failed() {
        let r = crate::diag::report::Report::error(
            Code::E0918,
            format!("cannot write the output: {e}: the results are lost or cut short"),
        )
        .help("write the output where there is room (check the disk or the file it goes to)");
        let e = Diagnostics::from(Box::new(r) as crate::diag::Diag);
        report(&mut o, &e);
        EXIT_BAD_INPUT
    } else if o.broken_pipe() {
        EXIT_SOLVED
    } else if o.pictures_failed() {
        EXIT_BAD_INPUT
    } else {
        code
    }
}

/// Reads a file (or standard input for `-`) into a source file, or says why not.
pub(crate) fn read_source(o: &mut Out<'_>, path: Option<&Path>) -> Option<SourceFile> {
    let read_stdin = || {
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut io::stdin(), &mut bytes).map(|_| bytes)
    };
    let (name, bytes) = match path {
        None => ("<stdin>".to_string(), read_stdin()),
        Some(p) if p == Path::new("-") => ("<stdin>".to_string(), read_stdin()),
        Some(p) => (p.display().to_string(), std::fs::read(p)),
    };
    let bytes = match bytes {
        Ok(b) => b,
        Err(e) => {
            cannot_read(o, &name, &e);
            return None;
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => Some(SourceFile::new(name, text)),
        Err(e) => {
            report(o, &Diagnostics::from(not_utf8(name, e.as_bytes())));
            None
        }
    }
}

/// E0902: a file (or standard input) that cannot be read; `what` names it, with the
/// line reached if it failed midway.
pub(crate) fn cannot_read(o: &mut Out<'_>, what: &str, e: &io::Error) {
    let help = match e.kind() {
        io::ErrorKind::NotFound => {
            "check the path: a relative path starts from the directory dlxc runs in"
        }
        io::ErrorKind::PermissionDenied => {
            "check the file's permissions: dlxc must be able to read it"
        }
        _ => "check that the path names a readable file, or give `-` to read standard input",
    };
    let r = crate::diag::report::Report::error(Code::E0902, format!("cannot read {what}: {e}"))
        .help(help);
    report(o, &Diagnostics::from(Box::new(r) as crate::diag::Diag));
}

/// The help line of E0901.
pub(crate) const NOT_UTF8_HELP: &str =
    "dlxc reads UTF-8 text; convert the file, for example with `iconv -f latin1 -t utf-8`";

/// E0901 for a file that is not UTF-8, pointing at its first bad byte.
fn not_utf8(name: String, bytes: &[u8]) -> crate::diag::Diag {
    let at = std::str::from_utf8(bytes)
        .err()
        .map_or(0, |e| e.valid_up_to());
    let byte = bytes.get(at).copied().unwrap_or(0);
    // Shown with the bad bytes replaced; the text before the first one is unchanged, so
    // `at` is still its place, and U+FFFD takes three bytes.
    let shown = String::from_utf8_lossy(bytes).into_owned();
    let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let src = SourceFile::new(name.clone(), shown);
    Box::new(
        crate::diag::report::Report::error(
            Code::E0901,
            format!("{name}, line {line}: byte 0x{byte:02X} is not UTF-8"),
        )
        .label(crate::source::Span::new(at, at + 3), "not UTF-8")
        .help(NOT_UTF8_HELP)
        .with_source(&src),
    )
}

/// Prints diagnostics; returns whether any was an error.
pub(crate) fn report(o: &mut Out<'_>, diags: &Diagnostics) -> bool {
    if o.json_diagnostics() {
        for d in diags.iter() {
            o.line(&crate::diag::json::flatten(d).to_json().to_string());
        }
    } else if !diags.is_empty() {
        let text = render_all(diags, o.style());
        o.err_text(&text);
    }
    diags.has_errors()
}

/// What the command is doing while it does not look at the interrupt flag (reading
/// and compiling, before anything is printed), for the notice Ctrl-C then prints.
static BUSY: Mutex<Option<String>> = Mutex::new(None);

/// Marks a stretch of work that does not look at the interrupt flag and has printed no
/// results: Ctrl-C during it ends the process at once, saying it was `doing` this.
/// `None` ends the stretch.
pub(crate) fn busy(doing: Option<String>) {
    if let Ok(mut b) = BUSY.lock() {
        *b = doing;
    }
}

/// The interrupt flag the search and the record loop look at: raised by the program's
/// Ctrl-C handler (the `dlxc` binary installs one, see [`on_interrupt`]); a library
/// caller can raise it to stop a command.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();
    Arc::clone(FLAG.get_or_init(|| Arc::new(AtomicBool::new(false))))
}

/// What Ctrl-C (or SIGTERM, SIGHUP) should do now, for the program's signal handler.
///
/// While the command is [`busy`] (reading or compiling), the process ends at once with
/// a notice and exit code 3: nothing has been printed, so nothing is lost. Otherwise the
/// [`interrupt_flag`] is raised, which the search and the record loop look at; they
/// stop, say what was done, and exit with 3. A second interrupt while the flag is
/// raised ends the process at once (130), so a stuck phase can always be stopped.
/// Returns the exit code to end the process with now, if any, after printing why.
pub fn on_interrupt() -> Option<i32> {
    let doing = BUSY.lock().ok().and_then(|b| b.clone());
    if let Some(doing) = doing {
        let _ = writeln!(
            io::stderr(),
            "interrupted while {doing}: nothing was solved"
        );
        return Some(i32::from(EXIT_CUT_SHORT));
    }
    if interrupt_flag().swap(true, Ordering::SeqCst) {
        let _ = writeln!(io::stderr(), "interrupted again: stopping at once");
        return Some(130);
    }
    None
}

/// A time limit in seconds as a duration. The command line accepts only positive
/// finite numbers; one too large for a `Duration` (over 584 billion years) saturates,
/// which is no limit in practice. What the library is given otherwise (NaN, negative)
/// is no time at all.
fn seconds(s: f64) -> Duration {
    if s.is_nan() || s <= 0.0 {
        Duration::ZERO
    } else {
        Duration::try_from_secs_f64(s).unwrap_or(Duration::MAX)
    }
}

/// One line of search statistics, for `--stats`.
pub(crate) fn output_stats(st: &crate::solve::Stats, engine: &str) -> String {
    let secs = st.elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        st.nodes as f64 / secs
    } else {
        0.0
    };
    format!(
        "solutions: {}, nodes: {}, updates: {}, time: {:.3} s ({:.0} nodes/s), engine: {engine}",
        st.solutions, st.nodes, st.updates, secs, rate
    )
}
