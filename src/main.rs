//! The `dlxc` command: parses arguments with clap and hands them to the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use dlxc::cli::{
    self, Command, Emit, EstimateArgs, ModelArgs, PictureArgs, ProgressMode, SearchArgs, Shard,
};
use dlxc::render::svg::Lattice;
use dlxc::solve::EngineChoice;

/// Every allocation counted, so that the memory budget (`--max-memory`) is enforced:
/// a model that grows too large ends in a coded error, not in the out-of-memory killer.
#[global_allocator]
static ALLOCATOR: cap::Cap<std::alloc::System> = cap::Cap::new(std::alloc::System, usize::MAX);

/// Exact cover, declaratively: compile `.dlx` models and solve them with Dancing Links.
///
/// Exit codes: 0 solved, 1 no solution, 2 bad input or usage (with --data: some record
/// could not be read or compiled; the others are still answered), 3 the answer is
/// incomplete: a limit or Ctrl-C cut the search short.
#[derive(Parser, Debug)]
#[command(name = "dlxc", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Sub,
    /// Memory the model and its matrix may take (such as 8G or 512M); default: half the
    /// physical memory, at most 4G.
    #[arg(long, global = true, value_name = "SIZE", value_parser = dlxc::lower::budget::parse_size)]
    max_memory: Option<usize>,
}

#[derive(Subcommand, Debug)]
enum Sub {
    /// Compile a model and solve it (record by record with --data).
    Run {
        #[command(flatten)]
        model: ModelFlags,
        #[command(flatten)]
        search: SearchFlags,
        #[command(flatten)]
        pictures: PictureFlags,
    },
    /// Report every diagnostic of a model without searching.
    Check {
        #[command(flatten)]
        model: ModelFlags,
        /// Print each diagnostic as one JSON object a line on stdout (code, severity,
        /// message, file, line, column, byte span, labels, help), nothing on success.
        #[arg(long)]
        json: bool,
    },
    /// Write the lowered problem of a model (its defaults, or the first data record).
    Compile {
        #[command(flatten)]
        model: ModelFlags,
        /// Output format.
        #[arg(long, value_enum, default_value = "knuth")]
        emit: EmitFormat,
    },
    /// Solve a problem in Knuth's DLX text format (or a 0/1 matrix with --matrix).
    Solve {
        /// The problem file; `-` or nothing reads standard input.
        file: Option<PathBuf>,
        /// Read a 0/1 matrix: a line `n m`, then n rows of m numbers 0 or 1.
        #[arg(long)]
        matrix: bool,
        /// Estimate the size of the search tree instead of searching (as `dlxc
        /// estimate` does for a model).
        #[arg(long)]
        estimate: bool,
        #[command(flatten)]
        probes: ProbeFlags,
        #[command(flatten)]
        search: SearchFlags,
    },
    /// Estimate how large a model's search is: nodes, solutions and time, from Knuth's
    /// random probes (a small search is counted instead).
    Estimate {
        #[command(flatten)]
        model: ModelFlags,
        #[command(flatten)]
        probes: ProbeFlags,
        /// The seed of the probes: the same seed gives the same estimate.
        #[arg(long, value_name = "N", default_value_t = 1)]
        seed: u64,
        /// The engine whose tree to estimate.
        #[arg(long, value_enum, default_value_t = EngineFlag::Auto)]
        engine: EngineFlag,
    },
    /// Add up the counts of the shards of one count: each FILE holds the `--json`
    /// output of `--count --shard K/N`; every shard of the split must be there once.
    Merge {
        /// The shards' outputs.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print a JSON summary instead of the count.
        #[arg(long)]
        json: bool,
    },
    /// Rewrite models in the house style, keeping their comments (docs/tooling.md).
    Fmt {
        /// The model files, rewritten in place; `-` or nothing: standard input to
        /// standard output.
        files: Vec<PathBuf>,
        /// Write nothing: print the name of each file that would change, and exit 1
        /// if there is one.
        #[arg(long)]
        check: bool,
    },
    /// Run the language server on stdin and stdout, for editors (docs/tooling.md).
    Lsp,
    /// Print a shell completion script (`dlxc completions bash > ~/.local/share/bash-completion/completions/dlxc`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page, in roff (`dlxc man > ~/.local/share/man/man1/dlxc.1`).
    Man,
    /// Explain a diagnostic code, with an example (`dlxc explain E0101`).
    Explain {
        /// The code, such as E0101 or dlx::E0101.
        code: String,
    },
}

#[derive(Args, Debug)]
struct ModelFlags {
    /// The model file (`.dlx`).
    model: PathBuf,
    /// Set a parameter: `-p n=4`, `-p 'missing={3,12}'`, `-p alphabet=ABCD`.
    #[arg(short = 'p', long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// A data file (`-`: standard input): each record fills the model's data parameter
    /// and is read, solved and printed before the next is read.
    #[arg(long, value_name = "FILE")]
    data: Option<PathBuf>,
    /// Largest number of items or options one family may make, and of elements one
    /// comprehension may build.
    #[arg(long, value_name = "N", default_value_t = 10_000_000)]
    max_size: usize,
}

#[derive(Args, Debug)]
struct SearchFlags {
    /// Print every solution.
    #[arg(long)]
    all: bool,
    /// Print at most N solutions (with --count: count up to N and stop).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    limit: Option<u64>,
    /// Print the number of solutions only. A count that is a lower bound prints as
    /// `N+`: the search was cut short (exit 3) or stopped at --limit N (exit 0).
    #[arg(long)]
    count: bool,
    /// Print search statistics (nodes, updates, time) to stderr.
    #[arg(long)]
    stats: bool,
    /// Print JSON Lines: one object per solution, then a summary object.
    #[arg(long)]
    json: bool,
    /// Stop searching after this many seconds (a positive number; huge values mean no
    /// limit).
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
    time_limit: Option<f64>,
    /// Stop searching after this many search-tree nodes.
    #[arg(long, value_name = "N")]
    node_limit: Option<u64>,
    /// With an objective: show each improving solution on stderr.
    #[arg(long)]
    verbose: bool,
    /// With an objective: print only the optimal value, one line per record; `V?` when
    /// a limit cut the search short after finding value V, `?` before finding any.
    #[arg(long, conflicts_with_all = ["count", "json"])]
    value: bool,
    /// Print TEXT instead of `No solution` (for example `--none=-1`).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    none: Option<String>,
    /// The search engine (models with an objective use branch and bound whatever this
    /// says).
    #[arg(long, value_enum, default_value_t = EngineFlag::Auto)]
    engine: EngineFlag,
    /// Threads for --count, --all, --limit and objectives (default: every core this
    /// process may use; listed solutions then come in another order than on one
    /// thread, an objective's value is the same). The first solution alone, a
    /// --node-limit, --count --limit, --best and, unless --threads is given, a cost
    /// objective on exactly-once items run on one thread.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// With --count, or for the optimum of an objective: search only shard K of N, a
    /// fixed split of the search into N disjoint parts, the same on every machine and
    /// thread count. `dlxc merge` adds the shards' --json outputs (or picks the best).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// With --count, or for the optimum of an objective: write the count so far and
    /// what is left (the parts searched and their best) to FILE every
    /// --checkpoint-every seconds and when the search stops (Ctrl-C, --time-limit).
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Seconds between checkpoints (default 60).
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
    checkpoint_every: Option<f64>,
    /// With --count, or for the optimum of an objective: go on with the search saved
    /// in a checkpoint FILE (on any number of threads); the end result is that of an
    /// uninterrupted one.
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// Show the progress line of a long count even when stderr is not a terminal
    /// (then as a plain line every few seconds).
    #[arg(long, conflicts_with = "quiet")]
    progress: bool,
    /// Never show the progress line (it shows on a terminal after about a second).
    #[arg(long, short)]
    quiet: bool,
    /// Count and list solutions up to the symmetries the model declares (`symmetry`):
    /// one solution of each class that the symmetries turn into one another.
    #[arg(long)]
    up_to_symmetry: bool,
    /// With --count: remember the count of each subproblem (Knuth's Algorithm Z), so
    /// that tilings and matchings count in milliseconds. `auto` (the default) runs it
    /// when a short probe sees subproblems repeat.
    #[arg(long, value_enum, default_value_t = MemoFlag::Auto)]
    memo: MemoFlag,
    /// The memo count's item order: `declared` (the first open item as declared: a
    /// board's frontier), `band` (a breadth-first order that keeps each option's
    /// items close) or `mrv` (the item with fewest options). Default: `declared`,
    /// or `band` where it keeps the options' items at least twice as close.
    #[arg(long, value_enum, value_name = "ORDER")]
    memo_order: Option<MemoOrderFlag>,
    /// Print K solutions drawn uniformly at random (each exactly uniform over all
    /// solutions, weighted by the memo counts).
    #[arg(long, value_name = "K")]
    sample: Option<u64>,
    /// With an objective: print the K best solutions, in order of value (as Knuth's
    /// DLX5 with `kK`); among equal values, in the order the search reaches them.
    #[arg(long, value_name = "K")]
    best: Option<u64>,
    /// The seed of --sample (the same seed draws the same samples), and of the
    /// estimate's probes with `solve --estimate`.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// With --count: write the solutions to FILE as a ZDD in the text format of
    /// Knuth's ZDD programs (one node a line: `id:(lo,hi)`; see docs/counting.md).
    #[arg(long, value_name = "FILE")]
    zdd: Option<PathBuf>,
}

/// `--memo`.
#[derive(ValueEnum, Clone, Copy, Debug)]
enum MemoFlag {
    /// When a probe sees subproblems repeat.
    Auto,
    /// Always.
    On,
    /// Never: visit every solution.
    Off,
}

/// `--memo-order`.
#[derive(ValueEnum, Clone, Copy, Debug)]
enum MemoOrderFlag {
    /// The first open primary item, in declaration order.
    Declared,
    /// The first open primary item in a breadth-first order that keeps each
    /// option's items close (Cuthill-McKee).
    Band,
    /// The primary item with the fewest options that fit.
    Mrv,
}

/// SVG pictures of the painted solutions (`dlxc run` only: only models paint).
#[derive(Args, Debug)]
struct PictureFlags {
    /// Draw the first solution shown as an SVG picture in FILE (the painted cells,
    /// colored by their text, pieces outlined).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["count", "value", "svg_dir"])]
    svg: Option<PathBuf>,
    /// Draw every solution shown (with --all, --limit or --data) into DIR, as
    /// solution-N.svg (record-R-solution-N.svg with --data).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["count", "value"])]
    svg_dir: Option<PathBuf>,
    /// The shape of the painted cells in the pictures (default: the model's `draw
    /// cells`, else square).
    #[arg(long, value_enum)]
    cells: Option<CellsFlag>,
    /// Leave the painted texts out of the pictures (colors and outlines only).
    #[arg(long)]
    svg_plain: bool,
}

/// The lattices a picture can be drawn on.
#[derive(ValueEnum, Clone, Copy, Debug)]
enum CellsFlag {
    /// Squares: paint (row, col).
    Square,
    /// Triangles: paint (row, col), pointing up where row + col is even.
    Triangle,
    /// Hexagons: paint (q, r) in axial coordinates, q along a row.
    Hex,
}

impl From<PictureFlags> for PictureArgs {
    fn from(p: PictureFlags) -> PictureArgs {
        PictureArgs {
            file: p.svg,
            dir: p.svg_dir,
            lattice: p.cells.map(|c| match c {
                CellsFlag::Square => Lattice::Square,
                CellsFlag::Triangle => Lattice::Triangle,
                CellsFlag::Hex => Lattice::Hex,
            }),
            plain: p.svg_plain,
        }
    }
}

#[derive(Args, Debug)]
struct ProbeFlags {
    /// Random probes of the estimate (default: as many as fit in about 0.3 s).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    probes: Option<u64>,
}

impl ProbeFlags {
    fn args(&self, engine: EngineFlag, seed: u64) -> EstimateArgs {
        EstimateArgs {
            probes: self.probes.map(|n| n as usize),
            seed,
            engine: engine.into(),
        }
    }
}

impl From<EngineFlag> for EngineChoice {
    fn from(e: EngineFlag) -> EngineChoice {
        match e {
            EngineFlag::Auto => EngineChoice::Auto,
            EngineFlag::Cells => EngineChoice::Cells,
            EngineFlag::Bits => EngineChoice::Bits,
            EngineFlag::Links => EngineChoice::Links,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum EngineFlag {
    /// Bitsets up to 4096 options, dancing cells above (with colors and
    /// multiplicities alike).
    Auto,
    /// Dancing cells, as in Knuth's SSXCC (with multiplicities, his SSMCC).
    Cells,
    /// Bitsets (at most 4096 options).
    Bits,
    /// Dancing links, as in Knuth's DLX1 and DLX3: node counts are Knuth's.
    Links,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum EmitFormat {
    /// Knuth's DLX1/DLX2/DLX3/DLX5 text format.
    Knuth,
    /// The lowered problem as one JSON object.
    Json,
}

fn positive_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!(
            "expected a positive number of seconds, found `{s}`"
        )),
    }
}

impl From<ModelFlags> for ModelArgs {
    fn from(m: ModelFlags) -> ModelArgs {
        ModelArgs {
            model: m.model,
            params: m.params,
            data: m.data,
            max_size: m.max_size,
        }
    }
}

impl From<SearchFlags> for SearchArgs {
    fn from(s: SearchFlags) -> SearchArgs {
        SearchArgs {
            all: s.all,
            limit: s.limit,
            count: s.count,
            stats: s.stats,
            json: s.json,
            time_limit: s.time_limit,
            node_limit: s.node_limit,
            verbose: s.verbose,
            value: s.value,
            none: s.none,
            threads: s.threads.map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                |n| n as usize,
            ),
            engine: s.engine.into(),
            shard: s.shard,
            checkpoint: s.checkpoint,
            checkpoint_every: s.checkpoint_every.map(|secs| {
                std::time::Duration::try_from_secs_f64(secs).unwrap_or(std::time::Duration::MAX)
            }),
            resume: s.resume,
            progress: {
                use std::io::IsTerminal;
                let terminal = std::io::stderr().is_terminal();
                match (s.quiet, s.progress, terminal) {
                    (true, _, _) | (false, false, false) => ProgressMode::Off,
                    (false, _, true) => ProgressMode::Bar,
                    (false, true, false) => ProgressMode::Lines,
                }
            },
            progress_asked: s.progress,
            threads_asked: s.threads.is_some(),
            up_to_symmetry: s.up_to_symmetry,
            pictures: PictureArgs::default(),
            memo: dlxc::cli::MemoArgs {
                memo: match s.memo {
                    MemoFlag::Auto => dlxc::task::Memo::Auto,
                    MemoFlag::On => dlxc::task::Memo::On,
                    MemoFlag::Off => dlxc::task::Memo::Off,
                },
                order: s.memo_order.map(|o| match o {
                    MemoOrderFlag::Declared => dlxc::solve::memo::Order::Declared,
                    MemoOrderFlag::Band => dlxc::solve::memo::Order::Band,
                    MemoOrderFlag::Mrv => dlxc::solve::memo::Order::Mrv,
                }),
                sample: s.sample,
                seed: s.seed,
                zdd: s.zdd,
            },
            best: s.best,
        }
    }
}

/// Writes generated text to stdout; a reader that closes the pipe early is no error.
fn print_bytes(bytes: &[u8]) -> ExitCode {
    use std::io::Write;
    let mut out = std::io::stdout();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write the output: {e}");
            ExitCode::from(cli::EXIT_BAD_INPUT)
        }
        _ => ExitCode::SUCCESS,
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            // clap uses 0 for --help and --version, 2 for usage errors, as we do.
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    // The allocator and the signal handler are the program's, not the library's: a
    // program that embeds dlxc keeps its own.
    dlxc::lower::budget::set_gauge(|| ALLOCATOR.allocated());
    // If a handler cannot be installed (another one exists), Ctrl-C keeps its default
    // meaning: end the process. Nothing is lost but the final statistics. With ctrlc's
    // `termination` feature the handler also takes SIGTERM and SIGHUP, which job
    // schedulers, systemd and Kubernetes send to stop a job: a count stopped that way
    // writes its final checkpoint and partial count, as after Ctrl-C.
    let _ = ctrlc::set_handler(|| {
        if let Some(code) = cli::on_interrupt() {
            std::process::exit(code);
        }
    });
    if let Some(bytes) = cli.max_memory {
        dlxc::lower::budget::set_budget(bytes);
    }
    let command = match cli.command {
        Sub::Run {
            model,
            search,
            pictures,
        } => Command::Run(
            model.into(),
            SearchArgs {
                pictures: pictures.into(),
                ..search.into()
            },
        ),
        Sub::Check { model, json: false } => Command::Check(model.into()),
        Sub::Check { model, json: true } => Command::CheckJson(model.into()),
        Sub::Compile { model, emit } => Command::Compile(
            model.into(),
            match emit {
                EmitFormat::Knuth => Emit::Knuth,
                EmitFormat::Json => Emit::Json,
            },
        ),
        Sub::Solve {
            file,
            matrix,
            estimate: true,
            probes,
            search,
        } => Command::EstimateFile {
            file,
            matrix,
            // `solve` has one --seed, for the probes here and for --sample.
            args: probes.args(search.engine, search.seed.unwrap_or(1)),
        },
        Sub::Solve {
            file,
            matrix,
            search,
            ..
        } => Command::Solve {
            file,
            matrix,
            search: search.into(),
        },
        Sub::Estimate {
            model,
            probes,
            seed,
            engine,
        } => Command::Estimate(model.into(), probes.args(engine, seed)),
        Sub::Merge { files, json } => Command::Merge { files, json },
        Sub::Explain { code } => Command::Explain(code),
        Sub::Fmt { files, check } => Command::Fmt { files, check },
        Sub::Completions { shell } => {
            use clap::CommandFactory;
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "dlxc", &mut script);
            return print_bytes(&script);
        }
        Sub::Man => {
            use clap::CommandFactory;
            let mut page = Vec::new();
            // Rendering into memory cannot fail.
            let _ = clap_mangen::Man::new(Cli::command()).render(&mut page);
            return print_bytes(&page);
        }
        Sub::Lsp => {
            return match dlxc::lsp::serve() {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: dlxc lsp: {e}");
                    ExitCode::from(cli::EXIT_BAD_INPUT)
                }
            };
        }
    };
    let style = cli::terminal_style();
    let code = cli::execute(
        command,
        &mut std::io::stdout(),
        &mut std::io::stderr(),
        style,
    );
    ExitCode::from(code)
}

#[cfg(test)]
mod tests {
    /// clap checks the definition (unique names, valid conflicts) only when it is
    /// built in a debug build: this builds every subcommand, so a clash of two
    /// flattened flags (`solve` had two `--seed`s) fails here, not in a user's hands.
    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
