//! Check: names, arity, families, cycles and parameter types, between parsing and
//! lowering.
//!
//! The checker never evaluates anything. It walks the [`ast::Model`] once per
//! declaration with a stack of local scopes and reports every mistake it finds, not the
//! first, sorted by position. What it learns on the way, which declaration refers to
//! which, is what the lowering needs to order and stage evaluation, so it is returned
//! as [`Checked`].
//!
//! Invariants the lowering may rely on when `check` returns `Ok`:
//!
//! - every name in an expression is a local binding, a `param` or a `let`;
//! - every call names a user function or a builtin, with an accepted argument count;
//! - every `covers` entry names an item family with as many indices as declared, and
//!   gives a color only to a `colored` family; every `force` names an option family
//!   with as many indices as declared;
//! - no `param`/`let`/`fn` depends on itself, so [`Checked::value_order`] is a
//!   complete evaluation order and function calls terminate;
//! - at most one objective.
//!
//! Scoping, in one place: one namespace holds every top-level name, visible everywhere
//! (a name may be used before its definition). Clauses bind left to right: a `for` or
//! `let` clause is visible in the clauses after it and in whatever the clauses qualify
//! (element, index, covers, cost, paint). A cover entry's or paint's own clauses are
//! visible in that entry only. Inner bindings shadow outer ones.
//!
//! Codes: E0101–E0115 for names, arity, families, cycles and the `where` that trails a
//! cover entry, E0201–E0202 for written types (see [`Mistake`]), and the warning W0101 for
//! a binding nothing reads. On errors only errors are returned; warnings of a correct
//! model are in [`Checked::warnings`].

use std::collections::HashMap;

use crate::diag::Diagnostics;
use crate::source::SourceFile;
use crate::syntax::ast::{self, Decl};

mod cycles;
mod error;
pub mod lints;
mod resolve;
mod trailing_where;
mod types;

#[cfg(test)]
mod build;
#[cfg(test)]
mod tests;

pub use error::{CheckError, Mistake};

/// What kind of thing a top-level declaration is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclKind {
    /// `param`
    Param,
    /// `let`
    Let,
    /// `fn`
    Fn,
    /// `item`, `secondary item`, `colored item`
    Item,
    /// `option`
    Option,
    /// `force`
    Force,
    /// `minimize` / `maximize`
    Objective,
    /// `canvas`
    Canvas,
    /// `draw`
    Draw,
    /// `assert`
    Assert,
    /// `symmetry`
    Symmetry,
}

impl DeclKind {
    fn of(d: &Decl) -> DeclKind {
        match d {
            Decl::Param(_) => DeclKind::Param,
            Decl::Let(_) => DeclKind::Let,
            Decl::Fn(_) => DeclKind::Fn,
            Decl::Item(_) => DeclKind::Item,
            Decl::Option(_) => DeclKind::Option,
            Decl::Force(_) => DeclKind::Force,
            Decl::Objective(_) => DeclKind::Objective,
            Decl::Canvas(_) => DeclKind::Canvas,
            Decl::Draw(_) => DeclKind::Draw,
            Decl::Assert(_) => DeclKind::Assert,
            Decl::Symmetry(_) => DeclKind::Symmetry,
        }
    }

    /// Whether declarations of this kind compute a value that others read (a param, a
    /// let) or code they run (a fn): the declarations evaluation order is about.
    pub fn is_value(self) -> bool {
        matches!(self, DeclKind::Param | DeclKind::Let | DeclKind::Fn)
    }
}

/// What the checker learned about a correct model, indexed like `model.decls`.
#[derive(Debug)]
pub struct Checked {
    /// The kind of each declaration.
    pub kinds: Vec<DeclKind>,
    /// Each top-level name to the index of the declaration that defines it.
    pub names: HashMap<String, usize>,
    /// For each declaration, the declarations it names directly (params and lets it
    /// reads, fns it calls, families it covers or forces), sorted, without repeats.
    pub refs: Vec<Vec<usize>>,
    /// Every `param` and `let`, each after everything it depends on (also through
    /// fns), ties in source order.
    pub value_order: Vec<usize>,
    /// The objective declaration, if there is one.
    pub objective: Option<usize>,
    /// Warnings (unused bindings), in source order: not errors, but worth showing.
    pub warnings: Diagnostics,
}

impl Checked {
    /// The declaration a top-level name defines.
    pub fn lookup(&self, name: &str) -> Option<usize> {
        self.names.get(name).copied()
    }

    /// Whether `decl` depends on any of `roots`, directly or transitively through the
    /// params, lets and fns it reads (a declaration depends on itself).
    ///
    /// Families named in `covers`/`force` are not followed: an option family does not
    /// change when the item family it covers does, only its validity does. The
    /// lowering uses this to re-evaluate per data record only what reads the record.
    pub fn depends_on(&self, decl: usize, roots: &[usize]) -> bool {
        let mut seen = vec![false; self.refs.len()];
        let mut stack = vec![decl];
        seen[decl] = true;
        while let Some(d) = stack.pop() {
            if roots.contains(&d) {
                return true;
            }
            for &r in &self.refs[d] {
                if !seen[r] && self.kinds[r].is_value() {
                    seen[r] = true;
                    stack.push(r);
                }
            }
        }
        false
    }
}

/// Checks a parsed model: every error of the phase, sorted by position, or what the
/// lowering needs.
pub fn check(model: &ast::Model, src: &SourceFile) -> Result<Checked, Diagnostics> {
    let kinds: Vec<DeclKind> = model.decls.iter().map(DeclKind::of).collect();
    let mut errors: Vec<CheckError> = Vec::new();
    let names = resolve::collect_names(&model.decls, &mut errors);
    let (objective, more) = objectives(&model.decls);
    errors.extend(more);

    let mut resolver = resolve::Resolver::new(src.text(), &model.decls, &names);
    for i in 0..model.decls.len() {
        resolver.decl(i);
    }
    let (ref_spans, resolve_errors, mut warnings) = resolver.finish();
    errors.extend(resolve_errors);
    objective_costs(&model.decls, objective, &mut errors, &mut warnings);
    errors.extend(cycles::find_cycles(&model.decls, &kinds, &ref_spans));
    errors.extend(trailing_where::find(&model.decls, src.text()));

    if !errors.is_empty() {
        // Warnings are left out while there are errors: a misspelled use already
        // reports the binding it missed, and a second message about it is noise.
        return Err(sorted(errors, src));
    }

    let refs: Vec<Vec<usize>> = ref_spans
        .iter()
        .map(|rs| {
            let mut v: Vec<usize> = rs.iter().map(|&(d, _)| d).collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect();
    let value_order = cycles::value_order(&kinds, &refs);
    Ok(Checked {
        kinds,
        names,
        refs,
        value_order,
        objective,
        warnings: sorted(warnings, src),
    })
}

/// Diagnostics in source order. Sorting reads like the file; the sort is stable, so
/// diagnostics at the same place keep the order they were found in.
fn sorted(mut list: Vec<CheckError>, src: &SourceFile) -> Diagnostics {
    list.sort_by_key(|e| (e.primary.0.start, e.primary.0.end));
    let mut diags = Diagnostics::new();
    for e in list {
        diags.push(e.with_source(src));
    }
    diags
}

/// An objective and the `cost` clauses must go together: a cost objective with no cost
/// anywhere is an error (every solution would cost 0, which is surely not what was
/// meant), and costs without a cost objective are ignored, with a warning.
fn objective_costs(
    decls: &[Decl],
    objective: Option<usize>,
    errors: &mut Vec<CheckError>,
    warnings: &mut Vec<CheckError>,
) {
    let costs: Vec<&ast::Expr> = decls
        .iter()
        .filter_map(|d| match d {
            Decl::Option(o) => o.cost.as_ref(),
            _ => None,
        })
        .collect();
    let kind = objective.and_then(|i| match &decls[i] {
        Decl::Objective(o) => Some((o.kind, o.span)),
        _ => None,
    });
    match kind {
        Some((ast::ObjectiveKind::MinimizeCost | ast::ObjectiveKind::MaximizeCost, span))
            if costs.is_empty() =>
        {
            errors.push(
                CheckError::new(
                    Mistake::NothingToOptimize,
                    "the objective has nothing to optimize: no option has a `cost`",
                    span,
                    "every solution would cost 0",
                )
                .with_help("give an option family a `cost EXPR` clause, or write `minimize count` for the fewest options"),
            );
        }
        Some((ast::ObjectiveKind::MaximizeCost | ast::ObjectiveKind::MinimizeCost, _)) => {}
        _ => {
            let what = if kind.is_some() {
                "the objective counts options, so costs are ignored"
            } else {
                "the model has no objective, so costs are ignored"
            };
            for e in costs {
                warnings.push(
                    CheckError::new(
                        Mistake::CostWithoutObjective,
                        what,
                        e.span,
                        "this cost is never used",
                    )
                    .with_help(
                        "add `minimize cost` or `maximize cost`, or remove the `cost` clause",
                    ),
                );
            }
        }
    }
}

/// The first objective, and an error for each one after it.
fn objectives(decls: &[Decl]) -> (Option<usize>, Vec<CheckError>) {
    let mut first: Option<usize> = None;
    let mut errors = Vec::new();
    for (i, d) in decls.iter().enumerate() {
        let Decl::Objective(o) = d else { continue };
        match first {
            None => first = Some(i),
            Some(f) => errors.push(
                CheckError::new(
                    Mistake::DuplicateObjective,
                    "a model has at most one objective",
                    o.span,
                    "second objective",
                )
                .with_label(decls[f].span(), "first objective here")
                .with_help("keep one objective; to rank by several, fold them into one `cost`"),
            ),
        }
    }
    (first, errors)
}
