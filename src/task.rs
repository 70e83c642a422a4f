//! What a run is asked to do, validated once, before anything is compiled.
//!
//! A [`Request`] is what the front end was given (the command line's flags, Python's
//! keyword arguments): the search mode, how the work is spread, the limits. [`Task::new`]
//! turns it into a [`Task`] or refuses it, and [`Task::fit`] checks it against what the
//! model is (an objective, declared symmetries, records of a data file) before the
//! model is lowered. Every combination of the mode and spread flags is either
//! supported or refused here, with a code and a help line: no flag is ever silently
//! ignored. This follows ripgrep's `HiArgs`: raw arguments become a validated
//! configuration before any work starts, so the code that runs the search never has
//! to ask whether a combination makes sense.
//!
//! The one refusal that needs the lowered problem (a checkpoint on an engine that
//! cannot hand its search over) is made by [`crate::run`], with the same code.

use std::path::PathBuf;
use std::time::Duration;

use crate::diag::Code;
use crate::diag::report::Report;
use crate::solve::EngineChoice;

/// Shard `k` of `n` (`--shard K/N`), 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 1.
    pub k: usize,
    /// Of how many.
    pub n: usize,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("expected K/N with 1 <= K <= N, such as 3/8; found `{s}`");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

/// What the search looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The first solution (with an objective: one optimal solution).
    First,
    /// Up to this many solutions (with an objective: optimal ones).
    Limit(u64),
    /// Every solution (with an objective: every optimal one).
    All,
    /// The number of solutions, or, with `Some(n)`, whether there are at least `n`
    /// (the search stops at the n-th).
    Count(Option<u64>),
    /// This many solutions drawn uniformly at random (`--sample K`), by the memo
    /// counts.
    Sample(u64),
}

impl Mode {
    /// Whether solutions are counted rather than shown.
    pub fn counts(self) -> bool {
        matches!(self, Mode::Count(_))
    }

    /// How many solutions the search may stop after, if any.
    pub fn max_solutions(self) -> Option<u128> {
        match self {
            Mode::First => Some(1),
            Mode::Limit(k) | Mode::Count(Some(k)) => Some(u128::from(k)),
            Mode::All | Mode::Count(None) | Mode::Sample(_) => None,
        }
    }

    /// Whether the search looks for more than one solution (so it may spread over
    /// threads: the first solution alone stays on one, so that it is the same on every
    /// machine).
    pub fn many(self) -> bool {
        !matches!(self, Mode::First)
    }
}

/// Checkpoints of a count: where, and how often.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpointing {
    /// The file written.
    pub path: PathBuf,
    /// Time between writes.
    pub every: Duration,
}

/// What the front end was asked, before validation. The default is the first solution
/// on one thread, with no limits.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// `--all`.
    pub all: bool,
    /// `--limit N`.
    pub limit: Option<u64>,
    /// `--count`.
    pub count: bool,
    /// `--up-to-symmetry`.
    pub up_to_symmetry: bool,
    /// `--engine`.
    pub engine: EngineChoice,
    /// `--threads` (0 and 1: one).
    pub threads: usize,
    /// Whether `--threads` was given, not only defaulted to every core: a search for
    /// least cost runs on one thread unless it was (see [`Task::optimizing_threads`]).
    pub threads_asked: bool,
    /// `--shard K/N`.
    pub shard: Option<Shard>,
    /// `--checkpoint FILE`.
    pub checkpoint: Option<PathBuf>,
    /// `--checkpoint-every SECONDS`, when given.
    pub checkpoint_every: Option<Duration>,
    /// `--resume FILE`.
    pub resume: Option<PathBuf>,
    /// `--progress` (asked for explicitly).
    pub progress: bool,
    /// `--time-limit`.
    pub time_limit: Option<Duration>,
    /// `--node-limit`.
    pub node_limit: Option<u64>,
    /// `--memo auto|on|off`.
    pub memo: Memo,
    /// `--memo-order`, when given.
    pub memo_order: Option<crate::solve::memo::Order>,
    /// `--sample K`.
    pub sample: Option<u64>,
    /// `--seed S`.
    pub seed: Option<u64>,
    /// `--zdd FILE`.
    pub zdd: Option<PathBuf>,
    /// `--best K`.
    pub best: Option<u64>,
}

/// Whether a count remembers its subproblems (`--memo`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Memo {
    /// When a short probe sees states repeat (the default).
    #[default]
    Auto,
    /// Always.
    On,
    /// Never: every solution is visited.
    Off,
}

/// The seed of `--sample` when none is given: the same samples every run.
pub const SEED: u64 = 0x5EED;

/// What the model is, as far as the task cares: known after checking, before lowering.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traits {
    /// It has an objective (`minimize`, `maximize`, or a file with costs).
    pub objective: bool,
    /// It is a problem file, which has no way to declare symmetries.
    pub file: bool,
    /// It declares symmetries.
    pub symmetry: bool,
    /// Its instances come from the records of a data file.
    pub data: bool,
    /// Its objective comes from the costs of a problem file (DLX5), not a model.
    pub costs_file: bool,
}

/// A validated task: what to search for, how to spread it, when to give up.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    /// What the search looks for.
    pub mode: Mode,
    /// Solutions up to the model's declared symmetries.
    pub up_to_symmetry: bool,
    /// Which engine searches (branch and bound for an objective).
    pub engine: EngineChoice,
    /// Threads (at least 1).
    pub threads: usize,
    /// Whether they were asked for (`--threads`).
    pub threads_asked: bool,
    /// Count only this shard.
    pub shard: Option<Shard>,
    /// Write checkpoints of the count.
    pub checkpoint: Option<Checkpointing>,
    /// Go on from this checkpoint.
    pub resume: Option<PathBuf>,
    /// Stop after this much time.
    pub time_limit: Option<Duration>,
    /// Stop after this many nodes.
    pub node_limit: Option<u64>,
    /// Whether a count (or a sample) remembers its subproblems: never `Auto` with
    /// a flag that only a plain count takes (shards, checkpoints, progress, threads
    /// asked for explicitly are refused with `On` and turn `Auto` off).
    pub memo: Memo,
    /// The memo search's item order, when fixed by `--memo-order`.
    pub memo_order: Option<crate::solve::memo::Order>,
    /// The seed of the samples.
    pub seed: u64,
    /// Where to write the solutions as a ZDD.
    pub zdd: Option<PathBuf>,
    /// The K best solutions of an objective (`--best K`), in order of value.
    pub best: Option<usize>,
}

/// The most shards a count can be split into (`--shard K/N`): the split aims for 64
/// parts a shard, so a larger N would cost more memory than the count itself (N = 10^9
/// asked for 24 GB) and could not serve every shard a part of its own.
pub const MAX_SHARDS: usize = 10_000;

/// How often a checkpoint is written unless `--checkpoint-every` says otherwise.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(60);

/// A refusal: E0922 (or E0930 for symmetries), with what was asked, why it cannot be,
/// and what to write instead.
fn refuse(what: &str, why: &str, help: &str) -> Box<Report> {
    Box::new(Report::error(Code::E0922, format!("{what} cannot be used here: {why}")).help(help))
}

impl Task {
    /// Validates the flags among themselves.
    pub fn new(r: &Request) -> Result<Task, Box<Report>> {
        let mode = match (r.all, r.limit, r.count) {
            (true, Some(_), _) => {
                return Err(refuse(
                    "--all with --limit",
                    "--all prints every solution and --limit stops after N",
                    "keep one of them",
                ));
            }
            (true, None, true) => {
                return Err(refuse(
                    "--all with --count",
                    "--all prints every solution and --count prints only their number",
                    "keep one of them",
                ));
            }
            (true, None, false) => Mode::All,
            (false, limit, true) => Mode::Count(limit),
            (false, Some(k), false) => Mode::Limit(k),
            (false, None, false) => Mode::First,
        };
        let mode = memo_mode(r, mode)?;
        if !mode.counts() {
            // The first solution of a model with an objective is its optimum, which
            // shards and checkpoints search by parts: whether there is one is known
            // once the model is read ([`Task::fit`]).
            let first = mode == Mode::First;
            for (given, flag) in [
                (r.shard.is_some() && !first, "--shard"),
                (r.checkpoint.is_some() && !first, "--checkpoint"),
                (r.resume.is_some() && !first, "--resume"),
                (r.progress, "--progress"),
            ] {
                if given {
                    return Err(listing_refusal(mode, flag));
                }
            }
        }
        if let Some(x) = r.shard
            && x.n > MAX_SHARDS
        {
            return Err(Box::new(
                Report::error(
                    Code::E0916,
                    format!("--shard {x} splits into more than {MAX_SHARDS} shards"),
                )
                .help(format!(
                    "split into at most {MAX_SHARDS} shards; each shard is many parts of \
                     the tree, so a few per machine is plenty"
                )),
            ));
        }
        if r.checkpoint_every.is_some() && r.checkpoint.is_none() {
            return Err(refuse(
                "--checkpoint-every",
                "no --checkpoint FILE is written",
                "add --checkpoint FILE, or leave --checkpoint-every out",
            ));
        }
        // A memo count's node limit is for its parts together (they are counted in
        // turn); the visiting count's pool could not stop where one search would.
        // (An optimization's node limit is for its parts together, searched in turn.)
        let keeps_state = r.checkpoint.is_some() || r.resume.is_some();
        if keeps_state
            && mode.counts()
            && (matches!(mode, Mode::Count(Some(_)))
                || (r.node_limit.is_some() && r.memo != Memo::On))
        {
            return Err(refuse(
                "--checkpoint and --resume",
                "a count with --node-limit or --limit is one sequential search",
                "count without --node-limit and --limit, or without checkpoints (a memo \
                 count, --memo on, takes --node-limit with them)",
            ));
        }
        if r.up_to_symmetry
            && let Some(flag) = first_given(&[
                (r.shard.is_some(), "--shard"),
                (r.checkpoint.is_some(), "--checkpoint"),
                (r.resume.is_some(), "--resume"),
            ])
        {
            return Err(refuse(
                flag,
                "--up-to-symmetry keeps one solution of each class, and shards and checkpoints keep the engine's count",
                "count up to symmetry in one run (on every core with --threads), or leave --up-to-symmetry out",
            ));
        }
        let memo = memo_choice(r, mode)?;
        let best = best_of(r, mode)?;
        Ok(Task {
            best,
            mode,
            memo,
            memo_order: r.memo_order,
            seed: r.seed.unwrap_or(SEED),
            zdd: r.zdd.clone(),
            up_to_symmetry: r.up_to_symmetry,
            engine: r.engine,
            threads: r.threads.max(1),
            threads_asked: r.threads_asked,
            shard: r.shard,
            checkpoint: r.checkpoint.as_ref().map(|path| Checkpointing {
                path: path.clone(),
                every: r.checkpoint_every.unwrap_or(CHECKPOINT_EVERY),
            }),
            resume: r.resume.clone(),
            time_limit: r.time_limit,
            node_limit: r.node_limit,
        })
    }

    /// Checks the task against what the model is, before it is lowered.
    pub fn fit(&self, t: &Traits) -> Result<(), Box<Report>> {
        self.fit_unread(t)?;
        // Without an objective, the first solution is a listing of one.
        if !t.objective
            && !self.mode.counts()
            && let Some(flag) = self.count_only_flag()
        {
            return Err(listing_refusal(self.mode, flag));
        }
        Ok(())
    }

    /// [`Task::fit`] before a problem file is read, when whether it has an objective
    /// (costs) is not known yet: every check but those that need to know.
    pub fn fit_unread(&self, t: &Traits) -> Result<(), Box<Report>> {
        if t.objective
            && let Some(flag) = self.memo_flag()
        {
            return Err(memo_refusal(
                Code::E0952,
                flag,
                "the model has an objective, and the memo counts plain solutions",
                "leave the option out: a model with an objective is optimized by branch and bound",
            ));
        }
        if self.up_to_symmetry {
            if t.file {
                return Err(Box::new(crate::symmetry::classes::no_symmetry(
                    "--up-to-symmetry",
                    "a problem file has no way to declare them",
                    "write the problem as a `.dlx` model with `symmetry` declarations and run it with `dlxc run` (see `dlxc explain E0930`)",
                )));
            }
            if !t.symmetry {
                return Err(Box::new(crate::symmetry::classes::no_symmetry(
                    "--up-to-symmetry",
                    "the model declares no symmetry",
                    crate::symmetry::classes::DECLARE_SYMMETRIES,
                )));
            }
            if t.objective {
                return Err(refuse(
                    "--up-to-symmetry",
                    "the model has an objective, and solutions up to symmetry are listed, not optimized",
                    "leave the option out: the optimum is the same up to symmetry",
                ));
            }
        }
        if t.objective {
            if let Some(flag) = self.count_only_flag() {
                spread_of_optimum(self, t, flag)?;
            }
            if self.engine != EngineChoice::Auto {
                return Err(refuse(
                    "--engine",
                    "an objective is optimized by branch and bound, whatever engine is named",
                    "leave --engine out",
                ));
            }
        }
        if t.data && (self.checkpoint.is_some() || self.resume.is_some()) {
            return Err(refuse(
                "--checkpoint and --resume",
                "they keep one count, and --data makes a count for every record",
                "give the record as a parameter (`-p`), or count the records without them",
            ));
        }
        Ok(())
    }

    /// The first of the options only a plain count takes (`--shard`, `--checkpoint`,
    /// `--resume`), if any is given.
    pub fn count_only_flag(&self) -> Option<&'static str> {
        if self.shard.is_some() {
            Some("--shard")
        } else if self.checkpoint.is_some() {
            Some("--checkpoint")
        } else if self.resume.is_some() {
            Some("--resume")
        } else {
            None
        }
    }

    /// The first memo flag that asks for a memo search outright (`--memo on`,
    /// `--sample`, `--zdd`), if any.
    pub fn memo_flag(&self) -> Option<&'static str> {
        if matches!(self.mode, Mode::Sample(_)) {
            Some("--sample")
        } else if self.zdd.is_some() {
            Some("--zdd")
        } else if self.memo == Memo::On {
            Some("--memo on")
        } else {
            None
        }
    }

    /// Whether the count keeps its state in a file (checkpoints or a resumed one).
    pub fn keeps_state(&self) -> bool {
        self.checkpoint.is_some() || self.resume.is_some()
    }

    /// Threads for a branch and bound: those asked for; by default every core for the
    /// links engine, one for the cost-sorted one (`priced`), whose single-threaded
    /// search hides only the options still cheap enough to matter, about half the
    /// work of the search each thread of a split runs (docs/design.md).
    pub fn optimizing_threads(&self, priced: bool) -> usize {
        if priced && !self.threads_asked {
            1
        } else {
            self.threads
        }
    }

    /// Threads for a memo count: those asked for (`--threads`), else one. The memo's
    /// work is lookups in one table, which threads share under locks: on two cores
    /// they took 1.19x the processor time of one thread, so they are worth it where
    /// cores are idle, which the user knows and the default cannot.
    pub fn memo_threads(&self) -> usize {
        if self.threads_asked { self.threads } else { 1 }
    }

    /// Threads for a search that shows solutions: listing (`--all`, `--limit`) spreads
    /// over them; the first solution alone stays on one.
    pub fn listing_threads(&self) -> usize {
        if self.mode.many() { self.threads } else { 1 }
    }
}

/// The refusal of `flag` (`--shard`, `--checkpoint`, `--resume`, `--progress`) for a
/// run that lists solutions, or shows the first of a model without an objective.
fn listing_refusal(mode: Mode, flag: &str) -> Box<Report> {
    let listing = match mode {
        Mode::All => "--all lists solutions",
        Mode::Limit(_) => "--limit without --count lists solutions",
        Mode::Sample(_) => "--sample draws solutions",
        _ => "the run shows its first solution",
    };
    let does = match flag {
        "--shard" => "splits a count, or the search for an optimum",
        "--checkpoint" => "saves a count, or the search for an optimum",
        "--resume" => "goes on with a saved count, or search for an optimum",
        _ => "shows how far a count has got",
    };
    let other = match mode {
        Mode::All => Some("--all"),
        Mode::Limit(_) => Some("--limit"),
        _ => None,
    };
    let help = match other {
        Some(other) if flag != "--progress" => format!(
            "add --count to count the solutions, leave {other} out to search for one optimal \
             solution of a model with an objective, or leave {flag} out"
        ),
        _ => format!("add --count to count the solutions, or leave {flag} out"),
    };
    refuse(flag, &format!("it {does}, and {listing}"), &help)
}

/// Whether an optimization takes `flag` (`--shard`, `--checkpoint` or `--resume`): it
/// searches the parts of a fixed cut of the tree for one optimal solution (module
/// `solve::optimize::parts`), on threads too. So every optimal solution (`--all`,
/// `--limit`, `--count`) and the k best (`--best`) are refused with it: a part keeps
/// one best solution.
fn spread_of_optimum(task: &Task, t: &Traits, flag: &str) -> Result<(), Box<Report>> {
    let what = if t.costs_file {
        "the file has costs"
    } else {
        "the model has an objective"
    };
    let other = match task.mode {
        Mode::All => Some("--all"),
        Mode::Limit(_) => Some("--limit"),
        Mode::Count(_) => Some("--count"),
        Mode::Sample(_) => Some("--sample"),
        Mode::First => task.best.map(|_| "--best"),
    };
    if let Some(other) = other {
        let asks = if other == "--best" {
            "the k best solutions"
        } else {
            "every optimal solution"
        };
        return Err(refuse(
            &format!("{flag} with {other}"),
            &format!(
                "{what}, and {flag} splits or saves the search for one optimal solution, while {other} asks for {asks}"
            ),
            &format!(
                "leave {other} out to search for one optimal solution by parts, or leave {flag} out"
            ),
        ));
    }
    Ok(())
}

/// A refusal of a memo flag, with its code (E0950-E0953).
/// A refusal with a code of its own (the memo's, E095x), worded as [`refuse`] words
/// E0922.
fn memo_refusal(code: Code, what: &str, why: &str, help: &str) -> Box<Report> {
    let mut r = refuse(what, why, help);
    r.code = code;
    r
}

/// The first flag of `flags` that was given: the one a refusal names.
fn first_given<'a>(flags: &[(bool, &'a str)]) -> Option<&'a str> {
    flags
        .iter()
        .find_map(|&(given, flag)| given.then_some(flag))
}

/// The refusal of `--best K` for an instance without an objective (made by
/// [`crate::run`], which sees the instance: a problem file has an objective when it has
/// costs).
pub fn best_without_objective(k: usize) -> Box<Report> {
    refuse(
        &format!("--best {k}"),
        "it lists the best solutions of an objective, and this problem has none",
        "add `minimize count`, `minimize cost` or `maximize cost` to the model (or costs `|n` to a problem file), or use --limit K for K solutions",
    )
}

/// `--best K`, or its refusal (E0922) with a mode or a flag that asks for other
/// solutions.
fn best_of(r: &Request, mode: Mode) -> Result<Option<usize>, Box<Report>> {
    let Some(k) = r.best else {
        return Ok(None);
    };
    let other = match mode {
        Mode::All => Some("--all"),
        Mode::Limit(_) => Some("--limit"),
        Mode::Count(_) => Some("--count"),
        Mode::Sample(_) => Some("--sample"),
        Mode::First => first_given(&[(r.up_to_symmetry, "--up-to-symmetry")]),
    };
    if let Some(other) = other {
        return Err(refuse(
            &format!("--best with {other}"),
            &format!("--best lists the K best solutions, and {other} asks for others"),
            "keep one of them",
        ));
    }
    if k == 0 {
        return Err(refuse(
            "--best 0",
            "it lists no solution",
            "ask for at least one: --best 1",
        ));
    }
    Ok(Some(usize::try_from(k).unwrap_or(usize::MAX)))
}

/// The mode with `--sample K`, or the refusal of `--sample` and `--seed` where they
/// do not apply (E0953).
fn memo_mode(r: &Request, mode: Mode) -> Result<Mode, Box<Report>> {
    let Some(k) = r.sample else {
        if r.seed.is_some() {
            return Err(memo_refusal(
                Code::E0953,
                "--seed",
                "it seeds the random draws of --sample, and no --sample K is asked",
                "add --sample K to draw K random solutions, or leave --seed out",
            ));
        }
        return Ok(mode);
    };
    if mode != Mode::First {
        let other = match mode {
            Mode::All => "--all",
            Mode::Limit(_) => "--limit",
            _ => "--count",
        };
        return Err(memo_refusal(
            Code::E0953,
            &format!("--sample with {other}"),
            &format!("--sample draws K solutions at random, and {other} asks for others"),
            "keep one of them",
        ));
    }
    if r.memo == Memo::Off {
        return Err(memo_refusal(
            Code::E0953,
            "--sample with --memo off",
            "the draws are weighted by the memo counts, without which they would not be uniform",
            "leave --memo off out",
        ));
    }
    if k == 0 {
        return Err(memo_refusal(
            Code::E0953,
            "--sample 0",
            "it draws no solution",
            "ask for at least one: --sample 1",
        ));
    }
    Ok(Mode::Sample(k))
}

/// Whether the count runs by memo, or the refusal of a memo flag where no memo search
/// runs (E0950), with a flag only a plain count takes (E0951), or with a search up to
/// symmetry (E0952).
fn memo_choice(r: &Request, mode: Mode) -> Result<Memo, Box<Report>> {
    let sampling = matches!(mode, Mode::Sample(_));
    let memo_runs = mode.counts() || sampling;
    let forced = if sampling {
        Some("--sample")
    } else if r.zdd.is_some() {
        Some("--zdd")
    } else if r.memo == Memo::On {
        Some("--memo on")
    } else {
        None
    };
    if !memo_runs
        && let Some(flag) = first_given(&[
            (r.memo == Memo::On, "--memo on"),
            (r.memo_order.is_some(), "--memo-order"),
            (r.zdd.is_some(), "--zdd"),
        ])
    {
        return Err(memo_refusal(
            Code::E0950,
            flag,
            "the memo is for counts (--count) and random draws (--sample), and this run lists solutions",
            &format!("add --count, or leave {flag} out"),
        ));
    }
    if r.memo == Memo::Off
        && let Some(flag) = first_given(&[
            (r.memo_order.is_some(), "--memo-order"),
            (r.zdd.is_some(), "--zdd"),
        ])
    {
        return Err(memo_refusal(
            Code::E0950,
            &format!("{flag} with --memo off"),
            "it is a setting of the memo count, and --memo off counts without it",
            "leave one of them out",
        ));
    }
    if r.zdd.is_some() && r.memo_order == Some(crate::solve::memo::Order::Mrv) {
        return Err(memo_refusal(
            Code::E0950,
            "--zdd with --memo-order mrv",
            "a ZDD takes its options in one fixed order on every path, which the declared item order gives and MRV does not",
            "leave --memo-order out (the ZDD is written with the declared order)",
        ));
    }
    // A memo count splits into shards of its own and saves and resumes checkpoints of
    // its own (see `solve::memo`); its draws and its ZDD are of the whole problem, in
    // one run.
    let whole = sampling || r.zdd.is_some();
    let own = whole || r.memo != Memo::On;
    let spread = first_given(&[
        (r.shard.is_some() && own, "--shard"),
        (r.checkpoint.is_some() && own, "--checkpoint"),
        (r.resume.is_some() && own, "--resume"),
        (r.progress, "--progress"),
        (matches!(mode, Mode::Count(Some(_))), "--limit"),
    ]);
    if let (Some(asked), Some(flag)) = (
        forced.or((r.memo_order.is_some()).then_some("--memo-order")),
        spread,
    ) {
        if whole && matches!(flag, "--shard" | "--checkpoint" | "--resume") {
            let does = if flag == "--shard" {
                "--shard counts a part of it"
            } else {
                "a checkpoint is of a count"
            };
            return Err(memo_refusal(
                Code::E0951,
                &format!("{asked} with {flag}"),
                &format!("{asked} is of the whole problem, in one run, and {does}"),
                &format!(
                    "leave {flag} out (a memo count is sharded and saved with --count --memo on --shard K/N --checkpoint FILE)"
                ),
            ));
        }
        return Err(memo_refusal(
            Code::E0951,
            &format!("{asked} with {flag}"),
            &format!(
                "the memo count is one search with one table, and {flag} watches or stops the visiting count"
            ),
            &format!(
                "leave {flag} out (the memo count takes seconds where the visiting count takes hours), or count with --memo off"
            ),
        ));
    }
    if r.up_to_symmetry
        && let Some(asked) = forced.or((r.memo_order.is_some()).then_some("--memo-order"))
    {
        return Err(memo_refusal(
            Code::E0952,
            &format!("{asked} with --up-to-symmetry"),
            "the memo counts every solution, and --up-to-symmetry keeps one of each class",
            &format!("leave --up-to-symmetry out, or leave {asked} out"),
        ));
    }
    Ok(match r.memo {
        // Draws are weighted by the memo counts, so a sample always runs by memo: with
        // Auto turned off (by a node limit, or by --engine, which Auto leaves to a
        // plain search) the run listed every solution in search order as its "sample".
        Memo::Auto if sampling => Memo::On,
        // Auto stands aside where a plain count was asked for in a way only it
        // serves: shards, checkpoints, progress, a count up to a limit, classes.
        // A node limit is a statement about the visiting search's tree, too.
        Memo::Auto
            if spread.is_some()
                || r.shard.is_some()
                || r.checkpoint.is_some()
                || r.resume.is_some()
                || r.up_to_symmetry
                || r.node_limit.is_some() =>
        {
            Memo::Off
        }
        m => m,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(r: &Request) -> Option<String> {
        Task::new(r)
            .err()
            .map(|e| miette::Diagnostic::code(&*e).unwrap().to_string())
    }

    #[test]
    fn listing_refuses_every_count_option() {
        for (all, limit) in [(true, None), (false, Some(3)), (false, None)] {
            let base = Request {
                all,
                limit,
                ..Request::default()
            };
            let shard = Request {
                shard: Some(Shard { k: 1, n: 2 }),
                ..base.clone()
            };
            let ck = Request {
                checkpoint: Some("x".into()),
                ..base.clone()
            };
            let resume = Request {
                resume: Some("x".into()),
                ..base.clone()
            };
            for r in [shard, ck, resume] {
                if all || limit.is_some() {
                    assert_eq!(code(&r).as_deref(), Some("dlx::E0922"), "{r:?}");
                    continue;
                }
                // The first solution: refused without an objective, searched by parts
                // with one.
                let t = Task::new(&r).unwrap();
                let e = t.fit(&Traits::default()).unwrap_err();
                assert_eq!(
                    miette::Diagnostic::code(&*e).unwrap().to_string(),
                    "dlx::E0922"
                );
                let goal = Traits {
                    objective: true,
                    ..Traits::default()
                };
                assert!(t.fit(&goal).is_ok(), "{r:?}");
            }
            assert_eq!(code(&base), None);
        }
    }

    #[test]
    fn counts_take_the_spread() {
        let r = Request {
            count: true,
            shard: Some(Shard { k: 2, n: 4 }),
            checkpoint: Some("c".into()),
            threads: 4,
            ..Request::default()
        };
        let t = Task::new(&r).unwrap();
        assert_eq!(t.mode, Mode::Count(None));
        assert_eq!(t.checkpoint.unwrap().every, CHECKPOINT_EVERY);
        let limited = Request {
            limit: Some(5),
            ..r
        };
        assert_eq!(code(&limited).as_deref(), Some("dlx::E0922"));
    }

    #[test]
    fn a_sample_is_always_drawn_by_memo() {
        for r in [
            Request {
                sample: Some(2),
                node_limit: Some(1000),
                ..Request::default()
            },
            Request {
                sample: Some(2),
                engine: EngineChoice::Links,
                ..Request::default()
            },
        ] {
            let t = Task::new(&r).unwrap();
            assert_eq!((t.mode, t.memo), (Mode::Sample(2), Memo::On), "{r:?}");
        }
    }

    #[test]
    fn traits_refuse_what_the_model_cannot_do() {
        let count = Task::new(&Request {
            count: true,
            shard: Some(Shard { k: 1, n: 2 }),
            ..Request::default()
        })
        .unwrap();
        let goal = Traits {
            objective: true,
            ..Traits::default()
        };
        assert!(count.fit(&goal).is_err());
        assert!(count.fit(&Traits::default()).is_ok());
        let sym = Task::new(&Request {
            up_to_symmetry: true,
            ..Request::default()
        })
        .unwrap();
        let e = sym.fit(&Traits::default()).unwrap_err();
        assert_eq!(
            miette::Diagnostic::code(&*e).unwrap().to_string(),
            "dlx::E0930"
        );
    }
}
