//! Branch and bound by parts: the optimizations that are sharded (`--shard K/N`),
//! write checkpoints (`--checkpoint FILE`) or resume one (`--resume FILE`).
//!
//! The tree is cut into a fixed list of parts ([`Cut`]: about [`CUT`], as the problem,
//! its forced options and the objective decide), shard `K/N` takes the parts whose
//! index is `K-1` modulo `N`, and the parts are searched each to its end, in order on
//! one thread or each thread taking the next ([`solve_parts`]). A checkpoint lists the
//! parts done and the best solution among them (value, part, options), so a resumed
//! run, a shard, or `dlxc merge` of every shard ends with the sequential search's
//! answer: the best value, the first part holding it (see `solve::optimize::parts`).

use std::cell::RefCell;
use std::path::Path;

use serde_json::json;

use super::{Answer, Failure, Field, Kept, Optimized, OptimumSaved, Sink};
use crate::clock::Instant;
use crate::diag::Code;
use crate::diag::report::Report;
use crate::instance::Instance;
use crate::problem::{OptionId, Problem};
use crate::solve::optimize::parts::{CUT, Cut, Done, solve_parts};
use crate::solve::{Objective, Optimizer, SearchConfig};
use crate::task::Task;

/// The engine name a shard's summary records: the split follows the branch-and-bound
/// search's choices, which `dlxc merge` checks like a count's engine.
pub(crate) const ENGINE: &str = "branch and bound";

/// Searches `inst` for an optimum by parts, as `task` asks (its shard, checkpoint and
/// resumed checkpoint); `Task::fit` has refused `--all`, `--count`, `--limit` and
/// `--best`.
pub(super) fn by_parts(
    task: &Task,
    inst: &Instance,
    opt: &mut Optimizer,
    config: &SearchConfig,
    sink: &mut dyn Sink,
) -> Result<Answer, Failure> {
    let started = Instant::now();
    let (problem, forced) = (&inst.compiled.problem, &inst.forced[..]);
    let goal = opt.objective();
    let fingerprint = problem.fingerprint(forced);
    let cut = Cut::new(opt, forced)?;
    let which: Vec<usize> = match task.shard {
        Some(x) => cut.shard(x.k, x.n),
        None => (0..cut.len()).collect(),
    };
    let mut done = match &task.resume {
        Some(path) => {
            let saved = sink
                .resume(path, &fingerprint, problem.options.len())?
                .of_optimum(path)?;
            fits(path, &saved, goal, &cut, &which, problem)?;
            saved.done
        }
        None => Done::default(),
    };
    let before = done.stats.elapsed;
    let path = task.checkpoint.as_ref().map(|c| c.path.as_path());
    let every = task
        .checkpoint
        .as_ref()
        .map_or(crate::task::CHECKPOINT_EVERY, |c| c.every);
    let kept = |done: &Done| {
        let mut done = done.clone();
        done.stats.elapsed = before.saturating_add(started.elapsed());
        OptimumSaved {
            goal,
            want: CUT,
            parts: cut.len(),
            digest: cut.digest(),
            complete: which.iter().all(|k| done.parts.contains(k)),
            done,
        }
    };
    // The two callbacks both report to the sink, never at the same time.
    let sink = RefCell::new(sink);
    let mut last = Instant::now();
    let mut after_part = |d: &Done| {
        if let Some(path) = path
            && last.elapsed() >= every
        {
            save(&sink, path, &fingerprint, &kept(d));
            last = Instant::now();
        }
    };
    let mut improve = |v: i64, chosen: &[OptionId]| sink.borrow_mut().improved(v, chosen);
    // Threads as an optimization takes them: those asked for, else every core on
    // the links engine and one on the cost-sorted one.
    let threads = task.optimizing_threads(opt.is_priced());
    let mut out = solve_parts(
        opt,
        forced,
        &cut,
        &which,
        &mut done,
        config,
        threads,
        &mut after_part,
        &mut improve,
    )?;
    // The last checkpoint: at the end, at a limit, and when interrupted (Ctrl-C,
    // SIGTERM, SIGHUP raise the flag that cut the search).
    if let Some(path) = path {
        save(&sink, path, &fingerprint, &kept(&done));
    }
    // The counters of every run so far, as a resumed count shows them.
    out.stats = done.stats;
    out.stats.elapsed = before.saturating_add(started.elapsed());
    let mut fields: Vec<Field> = Vec::new();
    if let Some(x) = task.shard {
        // A shard's best is the whole problem's optimum only when it is the whole.
        out.optimal &= x.n == 1;
        fields = super::shard_fields(x, fingerprint, ENGINE);
        let best = done.best.as_ref();
        // What `dlxc merge` compares: the best (the part that found it breaks ties)
        // of the parts searched to their end, and the solution it shows.
        let chosen = best.map(|b| b.solution.iter().map(|o| o.0).collect::<Vec<_>>());
        let labels = best.map(|b| crate::render::option_lines(problem, &b.solution));
        fields.extend([
            ("goal", json!(goal.name())),
            ("parts", json!(cut.len())),
            ("cut", json!(format!("{:016x}", cut.digest()))),
            ("part", json!(best.map(|b| b.part))),
            ("best", json!(best.map(|b| b.value))),
            ("chosen", json!(chosen)),
            ("solution", json!(labels)),
        ]);
    }
    Ok(Answer::Optimized(Optimized {
        optimum: out,
        fields,
    }))
}

/// Writes the checkpoint.
fn save(sink: &RefCell<&mut dyn Sink>, path: &Path, fingerprint: &str, saved: &OptimumSaved) {
    sink.borrow_mut()
        .save(path, fingerprint, Kept::Optimum(saved));
}

/// Checks a resumed checkpoint against this run: the same objective (E0921), the same
/// cut of the tree, parts of this run's share, a best of this problem's options whose
/// value they give
/// (E0920: a file of another release, or edited so that it still reads).
fn fits(
    path: &Path,
    saved: &OptimumSaved,
    goal: Objective,
    cut: &Cut,
    which: &[usize],
    problem: &Problem,
) -> Result<(), Failure> {
    if saved.goal != goal {
        return Err(Failure::Report(Box::new(
            Report::error(
                Code::E0921,
                format!(
                    "the checkpoint {} is of a search to {}, and this run searches to {}",
                    path.display(),
                    saved.goal.name(),
                    goal.name()
                ),
            )
            .help("resume it with the model it was saved from: the same objective"),
        )));
    }
    let not_this = |why: String| {
        Failure::Report(Box::new(
            Report::error(
                Code::E0920,
                format!(
                    "{} is not a checkpoint of this search: {why}",
                    path.display()
                ),
            )
            .help(
                "give --resume a file that --checkpoint wrote for this search (the same \
                 model, parameters, shard and release); a damaged file cannot be resumed: \
                 start again without --resume",
            ),
        ))
    };
    if saved.want != CUT || saved.parts != cut.len() || saved.digest != cut.digest() {
        return Err(not_this(format!(
            "it cut the tree into {} parts (aiming for {}, digest {:016x}), and this run \
             cuts it into {} (aiming for {CUT}, digest {:016x})",
            saved.parts,
            saved.want,
            saved.digest,
            cut.len(),
            cut.digest()
        )));
    }
    if let Some(k) = saved
        .done
        .parts
        .iter()
        .find(|k| which.binary_search(k).is_err())
    {
        return Err(not_this(format!(
            "it lists part {k} as done, which is not one of this run's parts"
        )));
    }
    if saved.complete != which.iter().all(|k| saved.done.parts.contains(k)) {
        return Err(not_this("its `complete` disagrees with its parts".into()));
    }
    if let Some(b) = &saved.done.best {
        if !saved.done.parts.contains(&b.part) {
            return Err(not_this(format!(
                "its best was found by part {}, which it does not list as done",
                b.part
            )));
        }
        let options = problem.options.len();
        if let Some(o) = b.solution.iter().find(|o| o.index() >= options) {
            return Err(not_this(format!(
                "its best names option {}, and this problem has {options} options",
                o.0
            )));
        }
        let value = goal.value_of(problem, &b.solution);
        if value != b.value {
            return Err(not_this(format!(
                "its best solution has value {value}, and it claims {}",
                b.value
            )));
        }
    }
    Ok(())
}
