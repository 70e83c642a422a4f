//! `dlxc solve`: a problem in Knuth's text format or a 0/1 matrix, straight to the engine.
//!
//! A problem whose options have costs (Knuth's DLX5 `|n` tokens) is a DLX5 problem: it
//! is optimized for the least total cost, printed as `dlxc run` prints a `minimize
//! cost` model, never searched as plain exact cover.

use std::path::Path;

use crate::cli::show::{Listing, Shown, Whose, failure};
use crate::cli::{EXIT_BAD_INPUT, Out, SearchArgs, read_source, report};
use crate::diag::{Diag, Diagnostics};
use crate::format::{ec, knuth, matrix};
use crate::instance::Instance;
use crate::run::Runner;
use crate::source::SourceFile;
use crate::task::{Task, Traits};

/// Runs `dlxc solve`.
pub fn solve(o: &mut Out<'_>, file: Option<&Path>, as_matrix: bool, s: &SearchArgs) -> u8 {
    let say = |o: &mut Out<'_>, r| report(o, &Diagnostics::from(Box::new(r) as Diag));
    // The flags are checked before the file is read, and what a problem file cannot
    // ask for (symmetries) too.
    let task = match Task::new(&s.request()) {
        Ok(t) => t,
        Err(r) => {
            say(o, *r);
            return EXIT_BAD_INPUT;
        }
    };
    let file_traits = Traits {
        file: true,
        ..Traits::default()
    };
    if let Err(r) = task.fit_unread(&file_traits) {
        say(o, *r);
        return EXIT_BAD_INPUT;
    }
    let Some((src, inst)) = read_problem(o, file, as_matrix) else {
        return EXIT_BAD_INPUT;
    };
    let costs = inst.objective.is_some();
    let traits = Traits {
        objective: costs,
        costs_file: costs,
        ..file_traits
    };
    if let Err(r) = task.fit(&traits) {
        say(o, *r);
        return EXIT_BAD_INPUT;
    }
    crate::cli::busy(None);
    let whose = Whose {
        source: src.name(),
        params: &[],
    };
    let mut runner = Runner::new(task).with_interrupt(crate::cli::interrupt_flag());
    let mut shown = Shown::new(o, s, &inst, None, Listing::File { as_matrix }, whose);
    match runner.run(&inst, &mut shown) {
        Ok(answer) => shown.answer(&answer),
        Err(f) => {
            // With nothing forced no two forced options can clash; should that ever
            // change, the clash is reported as what it is rather than as an answer.
            failure(o, &src, &inst.compiled, f);
            EXIT_BAD_INPUT
        }
    }
}

/// Reads a problem file (Knuth's format, or a 0/1 matrix) as an instance with nothing
/// forced; `None` when a diagnostic was printed instead.
pub(crate) fn read_problem(
    o: &mut Out<'_>,
    file: Option<&Path>,
    as_matrix: bool,
) -> Option<(SourceFile, Instance)> {
    let name = file.map_or_else(|| "<stdin>".into(), |p| p.display().to_string());
    crate::cli::busy(Some(format!("reading {name}")));
    let src = read_source(o, file)?;
    let parsed = if as_matrix {
        matrix::read(&src)
    } else if ec::looks_like(src.text()) {
        ec::read(&src)
    } else {
        knuth::read(&src)
    };
    let problem = match parsed {
        Ok(p) => p,
        Err(diags) => {
            report(o, &diags);
            return None;
        }
    };
    // The engines and the printing of `minimize cost` models take an instance; nothing
    // is forced in a file of options.
    let inst = Instance::of_problem(problem);
    Some((src, inst))
}
