//! One run: the only place that picks the engine and how the work is spread.
//!
//! ```text
//! Task (validated flags) + Instance (compiled matrix, forced options, objective)
//!     -> Runner::run -> Answer,  with solutions, progress and checkpoints to a Sink
//! ```
//!
//! A [`Runner`] is made once per command from a [`Task`] and runs one instance after
//! another (the records of a data file): it keeps its engine from record to record
//! while the instances share their compiled matrix. It decides, for each instance,
//! which search runs (branch and bound for an objective, the search up to symmetry,
//! a plain search), on which engine, and how the work is spread (threads, the pool
//! with its shards and checkpoints). Front ends only say what they want and how to
//! show it: the command line's text, JSON and SVG output, Python's iterators and
//! exceptions are [`Sink`]s. Nothing here prints or touches a file; what a checkpoint
//! holds is read and written by the sink.
//!
//! A new mode (memo counting, sampling, the k best) is one more arm here and one more
//! field of the task, not a change in every front end.

mod count;
pub mod estimate;
pub mod memo;
mod optimize;

pub use count::count_parts;

use crate::clock::Instant;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::diag::Code;
use crate::diag::report::Report;
use crate::instance::{Compiled, Instance};
use crate::problem::OptionId;
use crate::solve::parallel::{self, Frontier, Progress};
use crate::solve::share::Part;
use crate::solve::{
    Clash, Flow, Optimizer, Optimum, Outcome, Refused, SearchConfig, Solver, Unsupported,
};
use crate::symmetry::orbits::Plan;
use crate::symmetry::{Group, classes};
use crate::task::Task;

/// A JSON field a summary adds (the shard, the problem's fingerprint, the symmetry).
pub type Field = (&'static str, serde_json::Value);

/// The fields a shard's JSON summary adds: the shard, the problem's `fingerprint` and
/// the `engine` whose choices define the split, which `dlxc merge` checks.
pub(crate) fn shard_fields(
    shard: crate::task::Shard,
    fingerprint: String,
    engine: &str,
) -> Vec<Field> {
    use serde_json::json;
    vec![
        ("shard", json!(shard.to_string())),
        ("problem", json!(fingerprint)),
        ("engine", json!(engine)),
    ]
}

/// Where a run reports what it finds. Every method has a default that ignores the
/// report, so a sink implements only what it shows.
pub trait Sink {
    /// A solution of a listing search (ids of the instance's problem, forced options
    /// included); [`Flow::Stop`] ends the search.
    fn solution(&mut self, _chosen: &[OptionId]) -> Flow {
        Flow::Continue
    }

    /// An optimizing search found a better (or, listing every optimum, an equal)
    /// solution.
    fn improved(&mut self, _value: i64, _chosen: &[OptionId]) {}

    /// Whether the sink shows a count's progress: the count then runs in the pool,
    /// which can report it.
    fn shows_progress(&self) -> bool {
        false
    }

    /// How far a pooled count has got (resumed counts included).
    fn progress(&mut self, _progress: &Progress) {}

    /// The checkpoint at `path` to go on with (the task's `resume`), for the problem
    /// whose fingerprint is `fingerprint` and which has `options` options. The sink
    /// reads and validates the file; a refusal it has reported is [`Failure::Reported`].
    /// The run checks that the checkpoint is of its kind of count.
    fn resume(
        &mut self,
        _path: &Path,
        _fingerprint: &str,
        _options: usize,
    ) -> Result<Resumed, Failure> {
        Err(Failure::Report(Box::new(Report::error(
            Code::E0922,
            "--resume cannot be used here: this front end keeps no checkpoints",
        ))))
    }

    /// Writes the solutions of a memo count as a ZDD to `path` (`--zdd`).
    fn zdd(&mut self, _path: &Path, _zdd: &crate::solve::memo::zdd::Zdd) -> Result<(), Failure> {
        Err(Failure::Report(Box::new(Report::error(
            Code::E0950,
            "--zdd cannot be used here: this front end writes no files",
        ))))
    }

    /// Writes a checkpoint of a count to `path` (the task's `checkpoint`): the whole
    /// count so far, earlier runs included, and what is left.
    fn save(&mut self, _path: &Path, _fingerprint: &str, _kept: Kept<'_>) {}
}

/// A sink that shows nothing: for counts.
pub struct Quiet;

impl Sink for Quiet {}

/// What a checkpoint is written from.
#[derive(Clone, Copy, Debug)]
pub enum Kept<'a> {
    /// A visiting count: what it counted and the parts of the tree left.
    Count(&'a Frontier),
    /// A memo count by parts: the parts counted and their count.
    Memo(&'a MemoSaved),
    /// An optimization by parts: the parts searched and the best they hold.
    Optimum(&'a OptimumSaved),
}

/// A checkpoint read back.
#[derive(Clone, Debug)]
pub enum Resumed {
    /// Of a visiting count.
    Count(Saved),
    /// Of a memo count.
    Memo(MemoSaved),
    /// Of an optimization.
    Optimum(OptimumSaved),
}

impl Resumed {
    /// The checkpoint of a visiting count, or the refusal of a memo count's
    /// checkpoint, which another kind of count cannot go on from.
    fn of_count(self, path: &Path) -> Result<Saved, Failure> {
        match self {
            Resumed::Count(s) => Ok(s),
            Resumed::Optimum(_) => Err(optimum_given(path)),
            Resumed::Memo(_) => Err(Failure::Report(Box::new(
                Report::error(
                    Code::E0921,
                    format!(
                        "the checkpoint {} is of a memo count, and this count visits every solution",
                        path.display()
                    ),
                )
                .help("resume it with --memo on, as it was counted"),
            ))),
        }
    }

    /// The checkpoint of an optimization, or the refusal of a count's.
    fn of_optimum(self, path: &Path) -> Result<OptimumSaved, Failure> {
        match self {
            Resumed::Optimum(o) => Ok(o),
            Resumed::Count(_) | Resumed::Memo(_) => Err(Failure::Report(Box::new(
                Report::error(
                    Code::E0921,
                    format!(
                        "the checkpoint {} is of a count, and this run searches for an optimum",
                        path.display()
                    ),
                )
                .help("resume it with --count, as it was counted"),
            ))),
        }
    }

    /// The checkpoint of a memo count, or the refusal of a visiting count's.
    fn of_memo(self, path: &Path) -> Result<MemoSaved, Failure> {
        match self {
            Resumed::Memo(m) => Ok(m),
            Resumed::Optimum(_) => Err(optimum_given(path)),
            Resumed::Count(_) => Err(Failure::Report(Box::new(
                Report::error(
                    Code::E0921,
                    format!(
                        "the checkpoint {} is of a count that visits every solution, and this \
                         count is by memo",
                        path.display()
                    ),
                )
                .help("resume it with --memo off, as it was counted"),
            ))),
        }
    }
}

/// The refusal of an optimization's checkpoint given to a count.
fn optimum_given(path: &Path) -> Failure {
    Failure::Report(Box::new(
        Report::error(
            Code::E0921,
            format!(
                "the checkpoint {} is of a search for an optimum, and this run counts solutions",
                path.display()
            ),
        )
        .help("resume it with the model or file with the objective it was saved from, without --count"),
    ))
}

/// How far an optimization by parts has got, as a checkpoint holds it: the tree is cut
/// into parts as the problem, its forced options and the objective decide (module
/// `solve::optimize::parts`), and the parts searched to their end are listed with the
/// best solution among them.
#[derive(Clone, Debug, PartialEq)]
pub struct OptimumSaved {
    /// The objective searched (the problem's fingerprint does not say it).
    pub goal: crate::solve::Objective,
    /// The number of parts the cut aimed for ([`crate::solve::optimize::parts::CUT`]).
    pub want: usize,
    /// The number of parts it made.
    pub parts: usize,
    /// The hash of the parts' paths ([`crate::solve::optimize::parts::Cut::digest`]).
    pub digest: u64,
    /// The parts done, their best, the nodes so far and the time (`stats.elapsed`).
    pub done: crate::solve::optimize::parts::Done,
    /// Whether every part of the run's share (the shard's, or all) is done.
    pub complete: bool,
}

/// How far a memo count by parts has got, as a checkpoint holds it: the tree is cut
/// into parts as the problem, the item order and the shards decide, and the parts
/// counted whole are listed with their count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoSaved {
    /// The parts counted and their solutions.
    pub tally: crate::solve::memo::Tally,
    /// The item order the parts were cut in (a resumed count must cut them again so).
    pub order: crate::solve::memo::Order,
    /// The time the earlier runs took.
    pub elapsed: std::time::Duration,
}

/// A count saved by earlier runs, as a checkpoint holds it.
#[derive(Clone, Debug)]
pub struct Saved {
    /// What the earlier runs counted (their time in `elapsed`).
    pub counted: Outcome,
    /// The share of the tree they explored.
    pub counted_share: f64,
    /// What is left.
    pub parts: Vec<Part>,
}

/// What a run found.
#[derive(Clone, Debug)]
pub enum Answer {
    /// A plain search, a count or a listing.
    Searched {
        /// The outcome: the counters and how it ended.
        outcome: Outcome,
        /// The engine that searched (for `--stats`).
        engine: &'static str,
        /// What the JSON summary adds: a shard and the problem's fingerprint, which
        /// `dlxc merge` checks; the group of a search up to symmetry.
        fields: Vec<Field>,
    },
    /// An optimizing search.
    Optimized(Optimized),
    /// A count by memo, or solutions drawn by its counts (`--sample`).
    Memo(memo::Memoed),
}

impl Answer {
    /// Whether a limit or an interrupt cut the search short.
    pub fn cut(&self) -> bool {
        use crate::solve::End;
        match self {
            Answer::Searched { outcome, .. } => matches!(outcome.end, End::Cut(_)),
            Answer::Optimized(o) => matches!(o.end, End::Cut(_)),
            Answer::Memo(m) => matches!(m.end, End::Cut(_)),
        }
    }
}

/// What an optimizing search found, and what its JSON summary adds (a shard's
/// fields, which `dlxc merge` reads).
#[derive(Clone, Debug)]
pub struct Optimized {
    /// The answer.
    pub optimum: Optimum,
    /// The fields of a shard's summary: the shard, the problem's fingerprint, what
    /// defines the split, and the part and options of the shard's best.
    pub fields: Vec<Field>,
}

/// Front ends read an optimizing search's answer as the [`Optimum`] it is; the fields
/// are for the summary of a shard.
impl std::ops::Deref for Optimized {
    type Target = Optimum;
    fn deref(&self) -> &Optimum {
        &self.optimum
    }
}

impl From<Optimum> for Optimized {
    fn from(optimum: Optimum) -> Optimized {
        Optimized {
            optimum,
            fields: Vec::new(),
        }
    }
}

/// Why a run gave no answer.
#[derive(Debug)]
pub enum Failure {
    /// Two forced options clash.
    Clash(Clash),
    /// The engine asked for cannot search this problem.
    Unsupported(Unsupported),
    /// Branch and bound refuses this problem.
    Refused(Refused),
    /// The task does not apply to this problem (E0922).
    Report(Box<Report>),
    /// The sink refused (a bad checkpoint) and has said why.
    Reported,
}

impl From<Clash> for Failure {
    fn from(c: Clash) -> Failure {
        Failure::Clash(c)
    }
}

/// The engine a runner keeps between instances, with the matrix it was built for.
enum Engine {
    Plain(Solver),
    Optimizing(Box<Optimizer>),
}

/// Runs a task on one instance after another.
pub struct Runner {
    task: Task,
    interrupt: Option<Arc<AtomicBool>>,
    started: Instant,
    engine: Option<(Arc<Compiled>, Engine)>,
}

impl Runner {
    /// A runner for `task`; its time limit counts from now, for every instance.
    pub fn new(task: Task) -> Runner {
        Runner {
            task,
            interrupt: None,
            started: Instant::now(),
            engine: None,
        }
    }

    /// Stops the searches when `flag` is raised (Ctrl-C).
    pub fn with_interrupt(mut self, flag: Arc<AtomicBool>) -> Runner {
        self.interrupt = Some(flag);
        self
    }

    /// The task.
    pub fn task(&self) -> &Task {
        &self.task
    }

    /// The engine settings of the next search: the time limit is the whole run's, so
    /// each instance gets what is left of it.
    fn config(&self) -> SearchConfig {
        let t = &self.task;
        SearchConfig {
            count_only: t.mode.counts(),
            max_solutions: t.mode.max_solutions(),
            node_limit: t.node_limit,
            time_limit: t
                .time_limit
                .map(|l| l.saturating_sub(self.started.elapsed())),
            interrupt: self.interrupt.clone(),
            share: None,
        }
    }

    /// Runs the task on `inst`, reporting to `sink`.
    pub fn run(&mut self, inst: &Instance, sink: &mut dyn Sink) -> Result<Answer, Failure> {
        let config = self.config();
        let all = self.task.mode.many();
        if let (Some(k), None) = (self.task.best, inst.objective) {
            return Err(Failure::Report(crate::task::best_without_objective(k)));
        }
        if let Some(goal) = inst.objective {
            let best = self.task.best;
            let opt = match kept_engine(&mut self.engine, inst, |p| {
                Optimizer::with_best(p, goal, best.unwrap_or(1))
                    .map(|o| Engine::Optimizing(Box::new(o)))
                    .map_err(Failure::Refused)
            })? {
                Engine::Optimizing(o) => o,
                Engine::Plain(_) => unreachable!("the engine is rebuilt for an objective"),
            };
            // Shards and checkpoints search the parts of a fixed cut (`Task::fit` has
            // refused --best, --all and --threads with them).
            if self.task.shard.is_some() || self.task.keeps_state() {
                return optimize::by_parts(&self.task, inst, opt, &config, sink);
            }
            let mut improve = |v: i64, chosen: &[OptionId]| sink.improved(v, chosen);
            let threads = self.task.optimizing_threads(opt.is_priced());
            if let Some(k) = best {
                let out = crate::solve::optimize::solve_best_on_threads(
                    opt,
                    &inst.forced,
                    k,
                    &config,
                    threads,
                    &mut improve,
                )?;
                return Ok(Answer::Optimized(out.into()));
            }
            let out = crate::solve::optimize::solve_on_threads(
                opt,
                &inst.forced,
                all,
                &config,
                threads,
                &mut improve,
            )?;
            return Ok(Answer::Optimized(out.into()));
        }
        if self.task.up_to_symmetry {
            return up_to_symmetry(&self.task, inst, &config, sink);
        }
        if let Some(answer) = memo::run(&self.task, inst, &config, sink)? {
            return Ok(answer);
        }
        let engine = self.task.engine;
        let solver = match kept_engine(&mut self.engine, inst, |p| {
            Solver::with_engine(p, engine)
                .map(Engine::Plain)
                .map_err(Failure::Unsupported)
        })? {
            Engine::Plain(s) => s,
            Engine::Optimizing(_) => unreachable!("the engine is rebuilt without an objective"),
        };
        let engine = solver.engine_name();
        let task = &self.task;
        if task.mode.counts() {
            let (outcome, fields) = count::count(solver, inst, &config, task, sink)?;
            return Ok(Answer::Searched {
                outcome,
                engine,
                fields,
            });
        }
        let mut visit = |chosen: &[OptionId]| sink.solution(chosen);
        let threads = task.listing_threads();
        let outcome = parallel::search(solver, &inst.forced, &config, threads, &mut visit)?;
        Ok(Answer::Searched {
            outcome,
            engine,
            fields: Vec::new(),
        })
    }
}

/// The engine for `inst`: the one `kept`, when it was built for the same matrix and is
/// of the kind wanted; else a new one from `build`, kept in its place. (A function of
/// the runner's engine alone, so that its task can be read while the engine is lent.)
fn kept_engine<'e>(
    kept: &'e mut Option<(Arc<Compiled>, Engine)>,
    inst: &Instance,
    build: impl FnOnce(&crate::problem::Problem) -> Result<Engine, Failure>,
) -> Result<&'e mut Engine, Failure> {
    let optimizing = inst.objective.is_some();
    let keep = kept.as_ref().is_some_and(|(m, e)| {
        Arc::ptr_eq(m, &inst.compiled) && matches!(e, Engine::Optimizing(_)) == optimizing
    });
    if !keep {
        *kept = None;
        let e = build(&inst.compiled.problem)?;
        *kept = Some((Arc::clone(&inst.compiled), e));
    }
    match kept {
        Some((_, e)) => Ok(e),
        None => unreachable!("set above"),
    }
}

/// Searches (or counts) `inst` up to its declared symmetries.
fn up_to_symmetry(
    task: &Task,
    inst: &Instance,
    config: &SearchConfig,
    sink: &mut dyn Sink,
) -> Result<Answer, Failure> {
    let problem = &inst.compiled.problem;
    let trivial;
    let group = match &inst.compiled.symmetry {
        Some(g) => g,
        None => {
            trivial = Group::trivial(problem);
            &trivial
        }
    };
    // The engine's limit would count the solutions filtered out too: the search stops
    // at the limit instead.
    let wanted = task.mode.max_solutions();
    let threads = if task.mode.counts() {
        task.threads
    } else {
        task.listing_threads()
    };
    let mut show = |chosen: &[OptionId]| sink.solution(chosen);
    let listing = (!task.mode.counts()).then_some(&mut show as classes::Show<'_>);
    let plan = Plan::new(problem, group, &inst.forced);
    let c = classes::search(&plan, task.engine, config, threads, wanted, listing)?
        .map_err(Failure::Unsupported)?;
    Ok(Answer::Searched {
        outcome: c.outcome,
        engine: c.engine,
        fields: vec![
            ("up_to_symmetry", serde_json::json!(true)),
            ("symmetries", serde_json::json!(c.order)),
        ],
    })
}

/// Counts the solutions of `inst` exactly, however many there are (by memo when it
/// pays, else on every core): the count, and whether the search ran to its end.
pub fn count_exact(
    inst: &Instance,
    threads: usize,
) -> Result<(crate::solve::memo::Count, bool), Failure> {
    let task = Task::new(&crate::task::Request {
        count: true,
        threads,
        ..Default::default()
    })
    .map_err(Failure::Report)?;
    match Runner::new(task).run(inst, &mut Quiet)? {
        Answer::Memo(m) => Ok((m.count, !matches!(m.end, crate::solve::End::Cut(_)))),
        Answer::Searched { outcome, .. } => Ok((
            crate::solve::memo::Count::Big(outcome.stats.solutions.into()),
            !matches!(outcome.end, crate::solve::End::Cut(_)),
        )),
        Answer::Optimized(o) => Ok((
            crate::solve::memo::Count::Small(o.solutions.len() as u64),
            !matches!(o.end, crate::solve::End::Cut(_)),
        )),
    }
}

/// Counts the solutions of `inst` on every core this process may use: the one-call
/// count behind the crate's front door. A count past 2^128 (only the memo reaches
/// one) is refused with E0954: [`count_exact`] returns it whole.
pub fn count(inst: &Instance, threads: usize) -> Result<Outcome, Failure> {
    let task = Task::new(&crate::task::Request {
        count: true,
        threads,
        ..Default::default()
    })
    .map_err(Failure::Report)?;
    match Runner::new(task).run(inst, &mut Quiet)? {
        Answer::Searched { outcome, .. } => Ok(outcome),
        Answer::Optimized(o) => Ok(Outcome {
            stats: crate::solve::Stats {
                solutions: o.solutions.len() as u128,
                ..o.stats
            },
            end: o.end,
        }),
        Answer::Memo(m) => Ok(Outcome {
            stats: crate::solve::Stats {
                solutions: m.count.to_u128().ok_or_else(|| {
                    Failure::Report(Box::new(
                        Report::error(
                            Code::E0954,
                            format!("the count {} does not fit in 128 bits", m.count),
                        )
                        .help(
                            "count with `dlxc::run::count_exact`, which returns the whole number",
                        ),
                    ))
                })?,
                nodes: m.stats.nodes,
                updates: 0,
                elapsed: m.stats.elapsed,
            },
            end: m.end,
        }),
    }
}
