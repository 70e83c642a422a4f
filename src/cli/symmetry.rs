//! `--up-to-symmetry`: solutions counted and listed once per class of solutions that
//! the model's declared symmetries turn into one another.
//!
//! The search is the ordinary one, on the smaller problem of a
//! [`Plan`](crate::symmetry::orbits::Plan), with a filter that keeps one solution of
//! each class; so `--threads`, `--limit`, `--time-limit` and `--node-limit` mean what
//! they mean for a plain search, with solutions counted up to symmetry. Shards and
//! checkpoints split and save the engine's count, not the filtered one, and a model
//! with an objective is optimized, not enumerated: both are refused (E0922).

use serde_json::json;

use crate::cli::count::refuse;
use crate::cli::{Out, SearchArgs, report};
use crate::diag::Diagnostics;
use crate::lower::Instance;
use crate::problem::OptionId;
use crate::solve::{Clash, Flow, Outcome, SearchConfig};
use crate::symmetry::orbits::Plan;
use crate::symmetry::{Group, classes};
use crate::syntax::ast::{Decl, Model};

/// What a search up to symmetry found: the search's outcome with its solutions counted
/// up to symmetry, and the fields its JSON summary adds.
pub(crate) struct Found {
    pub outcome: Outcome,
    pub fields: Vec<(&'static str, serde_json::Value)>,
}

/// Refuses `--up-to-symmetry` where it cannot apply, before anything is compiled:
/// a model without `symmetry` declarations (E0930), a model with an objective, and the
/// options of a plain count (E0922). Whether it refused.
pub(crate) fn refused(o: &mut Out<'_>, model: &Model, s: &SearchArgs, goal: bool) -> bool {
    if !s.up_to_symmetry {
        return false;
    }
    if !model.decls.iter().any(|d| matches!(d, Decl::Symmetry(_))) {
        no_symmetry(
            o,
            "the model declares no symmetry",
            classes::DECLARE_SYMMETRIES,
        );
        return true;
    }
    if goal {
        refuse(
            o,
            "--up-to-symmetry",
            "the model has an objective, and solutions up to symmetry are listed, not optimized",
            "leave the option out: the optimum is the same up to symmetry",
        );
        return true;
    }
    if let Some(option) = crate::cli::run::count_only_option(s) {
        refuse(
            o,
            option,
            "--up-to-symmetry keeps one solution of each class, and shards and checkpoints keep the engine's count",
            "count up to symmetry in one run (on every core with --threads), or leave --up-to-symmetry out",
        );
        return true;
    }
    false
}

/// E0930: `--up-to-symmetry` on something that declares no symmetry.
pub(crate) fn no_symmetry(o: &mut Out<'_>, why: &str, help: &str) {
    let r = classes::no_symmetry("--up-to-symmetry", why, help);
    report(o, &Diagnostics::from(Box::new(r) as crate::diag::Diag));
}

/// Searches the instance up to its symmetry group, showing each kept solution (as ids
/// of the instance's problem) to `show`.
pub(crate) fn search(
    inst: &Instance,
    s: &SearchArgs,
    config: &SearchConfig,
    engine: crate::solve::EngineChoice,
    show: &mut dyn FnMut(&[OptionId]) -> Flow,
) -> Result<Result<(Found, &'static str), crate::solve::Unsupported>, Clash> {
    let problem = &inst.families.problem;
    let trivial;
    let group = match &inst.families.symmetry {
        Some(g) => g,
        None => {
            trivial = Group::trivial(problem);
            &trivial
        }
    };
    // The engine's limit would count the solutions filtered out too: the search
    // stops at the limit instead.
    let wanted: Option<u128> = if let Some(k) = s.limit {
        Some(u128::from(k))
    } else if s.all || s.count {
        None
    } else {
        Some(1)
    };
    let threads = if s.count {
        s.threads
    } else {
        s.listing_threads()
    };
    let listing = (!s.count).then_some(show);
    let plan = Plan::new(problem, group, &inst.forced);
    let found = classes::search(&plan, engine, config, threads, wanted, listing)?;
    let c = match found {
        Ok(c) => c,
        Err(e) => return Ok(Err(e)),
    };
    let fields = vec![
        ("up_to_symmetry", json!(true)),
        ("symmetries", json!(c.order)),
    ];
    Ok(Ok((
        Found {
            outcome: c.outcome,
            fields,
        },
        c.engine,
    )))
}
