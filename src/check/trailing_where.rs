//! The `where` that trails a `covers` or `paint` entry (E0115).
//!
//! A cover entry and a paint may carry clauses of their own (`hole[x, y] for (x, y) in
//! at`), so in
//!
//! ```text
//! option put[r, c, v] for r in 0..9, c in 0..9, v in digits
//!     covers cell[r, c], row[r, v]
//!     where v == clue(r, c)
//! ```
//!
//! the `where` belongs to `row[r, v]`: every option is still made, and those where the
//! condition fails simply do not cover `row[r, v]`. The model runs and prints a grid
//! that breaks its clues. Nearly always the writer meant to filter the options, which
//! takes the `where` before `covers`.
//!
//! A `where` of an entry that reads a variable bound by the entry's own clauses before
//! it (`hole[x, y] for (x, y) in at where x > 0`) filters that loop, which is what such a
//! `where` is for. One that reads none of them decides, for the option as a whole,
//! whether the entry is there. Inside the list (`covers cell[r, c], diag[v] where r ==
//! c, row[r, v]`, the Sudoku X idiom) that can only be read one way, a conditional
//! entry, and it is accepted. After the last entry (or the last paint) it reads as the
//! option's filter: that is the trap, and it is an error that shows both rewrites and
//! the explicit form of a conditional entry, `diag[v] if r == c`.

use super::error::{CheckError, Mistake};
use crate::source::Span;
use crate::syntax::ast::{Clause, Decl, Expr, ExprKind, OptionDecl};

/// One error for every `where` of the last cover entry or the last paint, in every
/// option family, that reads none of the variables its entry binds before it. A `where`
/// inside the list is followed by another entry, and an `if` says what it means.
pub(super) fn find(decls: &[Decl], text: &str) -> Vec<CheckError> {
    let mut errors = Vec::new();
    for d in decls {
        let Decl::Option(opt) = d else { continue };
        if let Some(cover) = opt.covers.last() {
            // The guard of `x[v] if COND` is the last clause: meant as written.
            let clauses = match cover.guard {
                true => &cover.clauses[..cover.clauses.len().saturating_sub(1)],
                false => &cover.clauses[..],
            };
            let entry = entry_span(text, cover.span, &cover.clauses);
            let what = format!("the entry `{}`", entry.slice(text));
            check(opt, clauses, (entry, Part::Cover), &what, text, &mut errors);
        }
        if let Some(paint) = opt.paints.last() {
            let entry = entry_span(text, paint.span, &paint.clauses);
            let what = format!("the paint of `{}`", paint.cell.span.slice(text).trim());
            check(
                opt,
                &paint.clauses,
                (entry, Part::Paint),
                &what,
                text,
                &mut errors,
            );
        }
    }
    errors
}

/// What the trailing `where` is attached to.
#[derive(Clone, Copy, PartialEq)]
enum Part {
    Cover,
    Paint,
}

/// The entry as written up to its clauses, `row[r, v]`.
fn entry_span(text: &str, whole: Span, clauses: &[Clause]) -> Span {
    let end = clauses.first().map_or(whole.end, |c| clause_start(c, text));
    let span = Span::new(whole.start as usize, end as usize);
    let len = span.slice(text).trim_end().len();
    Span::new(whole.start as usize, whole.start as usize + len)
}

/// Where a clause begins, its keyword included.
fn clause_start(c: &Clause, text: &str) -> u32 {
    match c {
        Clause::For { span, .. } | Clause::Let { span, .. } => span.start,
        Clause::Where(e) => where_keyword(e, text).start,
    }
}

/// The span of `where COND`, from its keyword: the expression's span starts after it.
fn where_keyword(cond: &Expr, text: &str) -> Span {
    let before = text.get(..cond.span.start as usize).unwrap_or("");
    let trimmed = before.trim_end();
    let start = match trimmed.strip_suffix("where") {
        Some(rest) => rest.len(),
        None => cond.span.start as usize,
    };
    Span::new(start, cond.span.end as usize)
}

fn check(
    opt: &OptionDecl,
    clauses: &[Clause],
    entry: (Span, Part),
    what: &str,
    text: &str,
    errors: &mut Vec<CheckError>,
) {
    let mut bound: Vec<&str> = Vec::new();
    for c in clauses {
        match c {
            Clause::For { pat, .. } | Clause::Let { pat, .. } => {
                pat.for_each_name(&mut |id| bound.push(id.name.as_str()));
            }
            Clause::Where(cond) if !reads_any(cond, &bound) => {
                errors.push(error(opt, cond, entry, what, text, bound.is_empty()));
            }
            Clause::Where(_) => {}
        }
    }
}

fn error(
    opt: &OptionDecl,
    cond: &Expr,
    (entry, part): (Span, Part),
    what: &str,
    text: &str,
    no_loop: bool,
) -> CheckError {
    let family = &opt.name.name;
    let condition = cond.span.slice(text).trim();
    // Where the `where` would filter the options: after the family's own clauses.
    let header_end = opt
        .clauses
        .last()
        .map_or(opt.index.last().map_or(opt.name.span, |e| e.span), |c| {
            clause_span(c, text)
        });
    let label = if no_loop {
        format!("filters only {what}")
    } else {
        format!("reads no variable of {what}, yet filters only it")
    };
    let written = entry.slice(text);
    let meant = match part {
        // The explicit form of a conditional entry.
        Part::Cover => format!(
            "to cover `{written}` only where it holds, write `{written} if {condition}` \
             (or put the entry before another one: inside the list a `where` is the \
             entry's)"
        ),
        Part::Paint => "to paint this cell only where it holds, put the paint before \
                        another one, or test a variable of a loop of its own \
                        (`dlxc explain E0115`)"
            .to_string(),
    };
    CheckError::new(
        Mistake::WhereOnEntry,
        format!("this `where` filters {what}, not the options of `{family}`"),
        where_keyword(cond, text),
        label,
    )
    .with_label(
        entry,
        "as written: every option is made, and this part is left out where the condition fails",
    )
    .with_label(
        header_end,
        "meant for the options? then write it here, before `covers`",
    )
    .with_help(format!(
        "to make only the options where it holds, move `where {condition}` before \
         `covers`;\n{meant}"
    ))
}

/// The span of a clause, its keyword included.
fn clause_span(c: &Clause, text: &str) -> Span {
    match c {
        Clause::For { span, .. } | Clause::Let { span, .. } => *span,
        Clause::Where(e) => where_keyword(e, text),
    }
}

/// Whether `e` mentions any of `names`. A name rebound by a comprehension inside `e`
/// still counts: the check then errs towards silence, never towards a false error.
fn reads_any(e: &Expr, names: &[&str]) -> bool {
    if names.is_empty() {
        return false;
    }
    let mut found = false;
    e.walk(&mut |x| {
        if let ExprKind::Name(id) = &x.kind
            && names.contains(&id.name.as_str())
        {
            found = true;
        }
    });
    found
}
