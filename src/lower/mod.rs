//! Lowering: evaluate a checked model into a [`Problem`] and the forced options.
//!
//! Lowering is staged. A model is lowered once per run for everything that does not
//! depend on the data record (the sudoku matrix of 729 options), and once per record
//! for what does (the clues, forced). When an item or option family itself reads the
//! record (the pearl board decides which placements exist), the families are lowered
//! again for each record. The [`Lowerer`] keeps the record-independent values cached
//! in its environment between records.

pub mod args;
pub mod budget;
pub mod builtins;
pub mod combinatorics;
pub mod compiled;
pub mod data;
pub mod eval;
pub mod family;
mod join;
pub mod keys;
pub mod ops;
pub mod shapes;
pub mod symmetry;
pub mod value;

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use crate::diag::Code;
use crate::diag::Diagnostics;
use crate::diag::report::Report;
use crate::lower::compiled::CompiledForce;
use crate::lower::data::ParamType;
use crate::lower::eval::Env;
use crate::lower::family::{Families, lower_families, lower_force};
use crate::lower::value::Value;
use crate::problem::{ItemKind, OptionId};
use crate::source::SourceFile;
use crate::syntax::ast::{Decl, Model, ObjectiveKind, TypeExpr};

pub use crate::instance::Instance;

/// Why one record could not be lowered.
#[derive(Debug)]
pub struct RecordFailure {
    /// What went wrong.
    pub diagnostics: Diagnostics,
    /// Whether the record is simply unsolvable (a primary item no option covers), as
    /// opposed to a broken model or record.
    pub unsolvable: bool,
}

/// Lowers one model, for any number of data records.
pub struct Lowerer<'m> {
    env: Env<'m>,
    /// Declarations that depend on the data parameter.
    stale: Vec<bool>,
    /// The data parameter (name and type), if records are bound to one.
    data_param: Option<(String, ParamType)>,
    /// Families lowered once, when none depends on the record.
    base: Option<Rc<Families>>,
    /// Forces that do not depend on the record, lowered with `base`.
    base_forced: Vec<OptionId>,
    /// What every instance optimizes, from the model's objective.
    objective: Option<crate::solve::Objective>,
    /// The force declarations that depend on the record, compiled (by declaration
    /// index; `None` where the evaluator runs them).
    compiled: Vec<Option<CompiledForce>>,
    /// How many runs of a force declaration the compiled form answered.
    compiled_runs: u64,
    /// How many options the last record forced.
    last_forced: usize,
    /// Warnings found while lowering, reported once.
    warnings: Diagnostics,
    /// Whether warnings of per-record families were collected already.
    warned: bool,
}

/// The objective of a model, if it has one.
pub fn objective(model: &Model) -> Option<ObjectiveKind> {
    model.decls.iter().find_map(|d| match d {
        Decl::Objective(o) => Some(o.kind),
        _ => None,
    })
}

/// The engine's objective for the model's.
pub fn engine_objective(k: ObjectiveKind) -> crate::solve::Objective {
    use crate::solve::Objective;
    match k {
        ObjectiveKind::MinimizeCount => Objective::MinimizeCount,
        ObjectiveKind::MinimizeCost => Objective::MinimizeCost,
        ObjectiveKind::MaximizeCost => Objective::MaximizeCost,
    }
}

/// The types of the model's parameters, by declaration index (`None` when untyped).
/// Grid dimensions are evaluated, so they may use other parameters.
pub fn param_types(env: &mut Env<'_>) -> Result<Vec<Option<(String, ParamType)>>, Diagnostics> {
    let model = env.model();
    let mut out = Vec::with_capacity(model.decls.len());
    let mut errors = Diagnostics::new();
    for d in &model.decls {
        match d {
            Decl::Param(p) => match &p.ty {
                Some(ty) => match resolve_type(env, ty) {
                    Ok(t) => out.push(Some((p.name.name.clone(), t))),
                    Err(e) => {
                        errors.push(*e);
                        out.push(None);
                    }
                },
                None => out.push(None),
            },
            _ => out.push(None),
        }
    }
    if errors.has_errors() {
        return Err(errors);
    }
    Ok(out)
}

fn resolve_type<'m>(env: &mut Env<'m>, ty: &'m TypeExpr) -> eval::EvalResult<ParamType> {
    let simple = match ty.name.name.as_str() {
        "int" => Some(ParamType::Int),
        "bool" => Some(ParamType::Bool),
        "str" => Some(ParamType::Str),
        "list" => Some(ParamType::List),
        "set" => Some(ParamType::Set),
        "map" => Some(ParamType::Map),
        "ints" => Some(ParamType::Ints),
        "grid" | "cells" => None,
        other => {
            return Err(env.error(
                Code::E0201,
                format!("unknown type `{other}`"),
                ty.name.span,
                "not a type",
            ));
        }
    };
    if let Some(t) = simple {
        return Ok(t);
    }
    let dim = |env: &mut Env<'m>, e: &'m crate::syntax::ast::Expr| -> eval::EvalResult<usize> {
        let v = env.eval_int(e, "a grid dimension")?;
        usize::try_from(v).ok().filter(|&d| d > 0).ok_or_else(|| {
            env.error(
                Code::E0214,
                format!("a grid dimension must be positive, found {v}"),
                e.span,
                "not positive",
            )
        })
    };
    if ty.name.name == "cells" {
        return match ty.args.as_slice() {
            [r, c] => Ok(ParamType::Cells {
                grids: None,
                rows: dim(env, r)?,
                cols: dim(env, c)?,
            }),
            [k, r, c] => Ok(ParamType::Cells {
                grids: Some(dim(env, k)?),
                rows: dim(env, r)?,
                cols: dim(env, c)?,
            }),
            _ => Err(env.error(
                Code::E0202,
                format!("`cells` takes 2 or 3 dimensions, found {}", ty.args.len()),
                ty.span,
                "write `cells[rows, columns]` or `cells[grids, rows, columns]`",
            )),
        };
    }
    match ty.args.as_slice() {
        [] => Ok(ParamType::Grid(None)),
        [r, c] => Ok(ParamType::Grid(Some((dim(env, r)?, dim(env, c)?)))),
        _ => Err(env.error(
            Code::E0202,
            format!("`grid` takes 0 or 2 dimensions, found {}", ty.args.len()),
            ty.span,
            "write `grid` or `grid[rows, columns]`",
        )),
    }
}

impl<'m> Lowerer<'m> {
    /// Prepares to lower `model`. `depends_on_data(i, p)` tells whether declaration `i`
    /// depends, directly or through other declarations, on the parameter declared at
    /// index `p` (the checker's dependency graph answers it). `overrides` are `-p`
    /// values (already parsed). `with_data` says whether records will come from a data
    /// file; then the model must have exactly one parameter of a record type without a
    /// `-p` value.
    pub fn new(
        model: &'m Model,
        src: &SourceFile,
        depends_on_data: &dyn Fn(usize, usize) -> bool,
        overrides: HashMap<String, Value>,
        with_data: bool,
        size_limit: usize,
    ) -> Result<Lowerer<'m>, Diagnostics> {
        let mut env = Env::new(model, src, HashMap::new());
        env.size_limit = size_limit;
        env.reset(|_| true, overrides.clone());
        let types = param_types(&mut env)?;
        env.set_param_types(types.iter().flatten().cloned().collect());
        let mut overrides = overrides;
        let mut errors = Diagnostics::new();
        // Conform the outside values to their declared types.
        for (i, d) in model.decls.iter().enumerate() {
            if let Decl::Param(p) = d
                && let Some((_, ty)) = &types[i]
                && let Some(v) = overrides.remove(&p.name.name)
            {
                match data::conform(v, ty) {
                    Ok(v) => {
                        overrides.insert(p.name.name.clone(), v);
                    }
                    Err(e) => errors.push(
                        Report::error(
                            Code::E0603,
                            format!(
                                "the value given for `{}` does not fit its type: {}",
                                p.name.name, e.message
                            ),
                        )
                        .label(
                            p.ty.as_ref().map_or(p.name.span, |t| t.span),
                            format!("declared `{}` here", ty.written()),
                        )
                        .help(format!(
                            "pass a value of type `{}` with `-p {}=...`",
                            ty.written(),
                            p.name.name
                        ))
                        .with_source(src),
                    ),
                }
            }
        }
        let mut data_param = None;
        let mut data_decl = None;
        if with_data {
            let candidates: Vec<usize> = (0..model.decls.len())
                .filter(|&i| {
                    types[i].as_ref().is_some_and(|(name, ty)| {
                        ty.is_record_type()
                            && !overrides.contains_key(name)
                            && matches!(
                                ty,
                                ParamType::Grid(_) | ParamType::Ints | ParamType::Cells { .. }
                            )
                    })
                })
                .collect();
            match candidates.as_slice() {
                [i] => {
                    data_param = types[*i].clone();
                    data_decl = Some(*i);
                }
                [] => errors.push(
                    Report::error(Code::E0606, "`--data` was given, but no parameter takes data records")
                        .help("declare the parameter that each record fills, as in `param puzzle: grid[9, 9]` or `param case: ints`")
                        .with_source(src),
                ),
                many => {
                    let mut r = Report::error(Code::E0606, "`--data` was given, but several parameters could take the records")
                        .help("give all but one of them with `-p name=value`, so the records fill the remaining one")
                        .with_source(src);
                    for &i in many {
                        r = r.secondary(model.decls[i].span(), "this one");
                    }
                    errors.push(r);
                }
            }
        }
        // Overrides for params a model does not declare.
        for name in overrides.keys() {
            let declared = model
                .decls
                .iter()
                .any(|d| matches!(d, Decl::Param(p) if &p.name.name == name));
            if !declared {
                let params: Vec<&str> = model
                    .decls
                    .iter()
                    .filter_map(|d| match d {
                        Decl::Param(p) => Some(p.name.name.as_str()),
                        _ => None,
                    })
                    .collect();
                let mut r = Report::error(
                    Code::E0604,
                    format!("`-p {name}=...` names no parameter of this model"),
                )
                .with_source(src);
                r = match crate::diag::suggest::did_you_mean(name, params.iter().copied()) {
                    Some(s) => r.help(format!("did you mean `-p {s}=...`?")),
                    None if params.is_empty() => r.help("this model declares no parameters"),
                    None => r.help(format!("the parameters are {}", params.join(", "))),
                };
                errors.push(r);
            }
        }
        if errors.has_errors() {
            return Err(errors);
        }
        let stale: Vec<bool> = (0..model.decls.len())
            .map(|i| data_decl.is_some_and(|p| i == p || depends_on_data(i, p)))
            .collect();
        env.reset(|_| true, overrides);
        let compiled = model
            .decls
            .iter()
            .enumerate()
            .map(|(i, d)| match d {
                Decl::Force(f) if stale[i] => CompiledForce::new(&env, f, &|d| stale[d]),
                _ => None,
            })
            .collect();
        let mut lowerer = Lowerer {
            env,
            stale,
            compiled,
            compiled_runs: 0,
            last_forced: 0,
            data_param,
            base: None,
            base_forced: Vec::new(),
            objective: objective(model).map(engine_objective),
            warnings: Diagnostics::new(),
            warned: false,
        };
        let families_vary = model.decls.iter().enumerate().any(|(i, d)| {
            matches!(
                d,
                Decl::Item(_)
                    | Decl::Option(_)
                    | Decl::Canvas(_)
                    | Decl::Draw(_)
                    | Decl::Symmetry(_)
            ) && lowerer.stale[i]
        });
        let stale = lowerer.stale.clone();
        check_asserts(&mut lowerer.env, &|i| !stale[i])?;
        if !families_vary {
            let (fam, warnings) = lower_families(&mut lowerer.env)?;
            lowerer.warnings.extend(warnings);
            if let Some(w) = empty_problem(&fam, model, src) {
                lowerer.warnings.push(w);
            }
            for w in crate::check::lints::lints(&fam, model, src) {
                lowerer.warnings.push(w);
            }
            uncoverable(&fam, &lowerer.env.src).map_err(Diagnostics::from)?;
            let mut forced = Vec::new();
            let mut errors = Diagnostics::new();
            for (i, d) in model.decls.iter().enumerate() {
                if let Decl::Force(f) = d
                    && !lowerer.stale[i]
                    && let Err(e) = lower_force(&mut lowerer.env, f, &fam, &mut forced)
                {
                    errors.push(*e);
                }
            }
            if errors.has_errors() {
                return Err(errors);
            }
            lowerer.base = Some(Rc::new(fam));
            lowerer.base_forced = forced;
        }
        Ok(lowerer)
    }

    /// How many times a user function's body has been evaluated so far, by this
    /// lowering (calls answered by the memo of function values do not count).
    pub fn function_evaluations(&self) -> u64 {
        self.env.function_evaluations()
    }

    /// How many times a per-record force declaration was answered by its compiled
    /// form ([`compiled`]) rather than by the evaluator.
    pub fn compiled_force_runs(&self) -> u64 {
        self.compiled_runs
    }

    /// Makes the evaluator answer every force declaration: for tests that compare the
    /// compiled forms with it.
    #[cfg(test)]
    pub(crate) fn evaluate_forces(&mut self) {
        self.compiled.iter_mut().for_each(|c| *c = None);
    }

    /// The data parameter's name and type, when records are bound to one.
    pub fn data_param(&self) -> Option<&(String, ParamType)> {
        self.data_param.as_ref()
    }

    /// Warnings found so far (dropped options); taking them empties the list, so call it
    /// after [`Lowerer::new`] and after each [`Lowerer::instance`].
    pub fn take_warnings(&mut self) -> Diagnostics {
        std::mem::take(&mut self.warnings)
    }

    /// Whether the matrix is the same for every record (only forced options vary).
    pub fn matrix_is_shared(&self) -> bool {
        self.base.is_some()
    }

    /// Lowers the instance of one record (`None` when there is no data file: the
    /// model's defaults are the one instance).
    pub fn instance(&mut self, record: Option<Value>) -> Result<Instance, RecordFailure> {
        let fail = |diagnostics: Diagnostics| RecordFailure {
            diagnostics,
            unsolvable: false,
        };
        let stale = &self.stale;
        if let (Some(v), Some((name, _))) = (record, &self.data_param) {
            self.env.set_record(|i| stale[i], name, v);
        }
        let model = self.env.model();
        check_asserts(&mut self.env, &|i| stale[i]).map_err(fail)?;
        let (families, mut forced) = match &self.base {
            Some(base) => (Rc::clone(base), self.base_forced.clone()),
            None => {
                let (fam, warnings) = lower_families(&mut self.env).map_err(fail)?;
                // Every record makes the same kind of warning; report the first record's.
                if !self.warned {
                    self.warned = true;
                    self.warnings.extend(warnings);
                    if let Some(w) = empty_problem(&fam, model, &self.env.src) {
                        self.warnings.push(w);
                    }
                    for w in crate::check::lints::lints(&fam, model, &self.env.src) {
                        self.warnings.push(w);
                    }
                }
                if let Err(r) = uncoverable(&fam, &self.env.src) {
                    return Err(RecordFailure {
                        diagnostics: Diagnostics::from(r),
                        unsolvable: true,
                    });
                }
                (Rc::new(fam), Vec::new())
            }
        };
        // Records of one file force about as many options each: room for as many as
        // the last one, instead of growing from nothing (a realloc per doubling).
        forced.reserve(self.last_forced.saturating_sub(forced.len()));
        let shared = self.base.is_some();
        let mut errors = Diagnostics::new();
        for (i, d) in model.decls.iter().enumerate() {
            let Decl::Force(f) = d else { continue };
            if shared && !self.stale[i] {
                continue;
            }
            let compiled = self.compiled[i].as_ref();
            if compiled.is_some_and(|c| c.run(&mut self.env, &families, shared, &mut forced)) {
                self.compiled_runs += 1;
                continue;
            }
            if let Err(e) = lower_force(&mut self.env, f, &families, &mut forced) {
                errors.push(*e);
            }
        }
        if errors.has_errors() {
            return Err(fail(errors));
        }
        self.last_forced = forced.len();
        Ok(Instance {
            compiled: Arc::clone(&families.compiled),
            forced,
            objective: self.objective,
        })
    }
}

/// A problem with no primary item has one solution, the empty set of options, so a
/// run prints an empty answer and succeeds: nearly always a size that came out 0 or
/// negative, or a model not finished. Say so, pointing at the item families that made
/// nothing.
fn empty_problem(fam: &Families, model: &Model, src: &SourceFile) -> Option<Report> {
    let problem = &fam.compiled.problem;
    if problem.items.iter().any(|it| it.kind.is_primary()) {
        return None;
    }
    let mut r = Report::warning(
        Code::W0403,
        "the problem is empty: it has no primary item, so its only solution is the empty set of options",
    )
    .help("every solution of an empty problem is empty; check the ranges of the item families (a size of 0 or less makes them empty), or declare a primary `item` family for what must be covered")
    .with_source(src);
    for (i, d) in model.decls.iter().enumerate() {
        if let Decl::Item(item) = d
            && item.class == crate::syntax::ast::ItemClass::Primary
            && fam.items.count(i) == 0
        {
            r = r.label(item.name.span, "this family makes no items");
        }
    }
    Some(r)
}

/// Evaluates the `assert` declarations for which `include` is true; each failing one is
/// reported once, with its message and the loop values that broke it.
fn check_asserts<'m>(
    env: &mut Env<'m>,
    include: &dyn Fn(usize) -> bool,
) -> Result<(), Diagnostics> {
    let model = env.model();
    let mut errors = Diagnostics::new();
    for (i, d) in model.decls.iter().enumerate() {
        let Decl::Assert(a) = d else { continue };
        if !include(i) {
            continue;
        }
        let r = env.for_each(&a.clauses, &mut |env| {
            if env.eval_bool(&a.cond, "an assertion")? {
                return Ok(());
            }
            let message = match &a.message {
                Some(m) => env.eval(m)?.to_string(),
                None => "this assertion does not hold".to_string(),
            };
            Err(env.error(Code::E0407, message, a.cond.span, "false here"))
        });
        if let Err(e) = r {
            // Later assertions usually rely on earlier ones (a board's shape before its
            // contents), so the first failure is the one worth reading.
            errors.push(*e);
            break;
        }
    }
    if errors.has_errors() {
        Err(errors)
    } else {
        Ok(())
    }
}

/// Primary items that no option covers make the model unsolvable before the search
/// starts: say which, and where they were declared. Then look for items that some
/// options cover, but fewer than their lower bound ([`unreachable_bounds`]).
fn uncoverable(fam: &Families, src: &SourceFile) -> Result<(), crate::diag::Diag> {
    let problem = &fam.compiled.problem;
    // How many options cover each item: one pass serves both checks.
    let mut covers = vec![0u64; problem.items.len()];
    for o in &problem.options {
        for e in o.entries {
            covers[e.item.index()] += 1;
        }
    }
    let missing: Vec<usize> = problem
        .items
        .iter()
        .enumerate()
        .filter(|(i, it)| {
            covers[*i] == 0 && matches!(it.kind, ItemKind::Primary { bounds } if bounds.lo > 0)
        })
        .map(|(i, _)| i)
        .collect();
    let Some(&first) = missing.first() else {
        return unreachable_bounds(fam, src, &covers);
    };
    let names: Vec<String> = missing
        .iter()
        .map(|&i| format!("`{}`", problem.items[i].name))
        .collect();
    let mut r = Report::error(
        Code::E0403,
        format!(
            "no option covers the primary item{} {}",
            if missing.len() == 1 { "" } else { "s" },
            first_few(&names, 5)
        ),
    )
    .help("every primary item must be covered, so there is no solution; add options that cover it, declare the item `secondary`, or give it the bounds `: 0..1`")
    .with_source(src);
    if let Some((span, text)) = made_here(fam, first, "") {
        r = r.label(span, text);
    }
    Err(Box::new(r))
}

/// A primary item whose lower bound exceeds the number of options that cover it (`: 3`
/// with two options) makes the model unsolvable: name the first such item, its bounds
/// and the options that cover it. `covers` counts the options of each item.
fn unreachable_bounds(
    fam: &Families,
    src: &SourceFile,
    covers: &[u64],
) -> Result<(), crate::diag::Diag> {
    let problem = &fam.compiled.problem;
    let short = problem
        .items
        .iter()
        .enumerate()
        .find_map(|(i, it)| match it.kind {
            ItemKind::Primary { bounds } if covers[i] < u64::from(bounds.lo) => Some((i, bounds)),
            _ => None,
        });
    let Some((i, bounds)) = short else {
        return Ok(());
    };
    let item = &problem.items[i];
    let opts: Vec<usize> = (0..problem.options.len())
        .filter(|&k| {
            problem
                .options
                .get(k)
                .entries
                .iter()
                .any(|e| e.item.index() == i)
        })
        .collect();
    let names: Vec<String> = opts
        .iter()
        .map(|&k| format!("`{}`", problem.option_label(OptionId(k as u32))))
        .collect();
    let mut r = Report::error(
        Code::E0408,
        format!(
            "`{}` must be covered at least {} times, but only {} option{} cover{} it",
            item.name,
            bounds.lo,
            opts.len(),
            if opts.len() == 1 { "" } else { "s" },
            if opts.len() == 1 { "s" } else { "" },
        ),
    )
    .help(format!(
        "the options that cover it are {}; so there is no solution: lower its bound (it is `: {bounds}`), or add options that cover it",
        first_few(&names, 6)
    ))
    .with_source(src);
    if let Some((span, text)) = made_here(fam, i, &format!(" with bounds `: {bounds}`")) {
        r = r.label(span, text);
    }
    let mut seen = Vec::new();
    for &k in &opts {
        if let crate::problem::Origin::Model { decl, .. } = &problem.options.get(k).origin
            && !seen.contains(decl)
        {
            seen.push(*decl);
            r = r.secondary(*decl, "the options that cover it come from here");
        }
    }
    Err(Box::new(r))
}

/// The first `shown` of `names`, joined by commas, then "and N more" for the rest.
fn first_few(names: &[String], shown: usize) -> String {
    let listed = names[..names.len().min(shown)].join(", ");
    match names.len().checked_sub(shown) {
        Some(rest) if rest > 0 => format!("{listed} and {rest} more"),
        _ => listed,
    }
}

/// The label on the declaration an item of a model comes from: "`x` is made here with
/// r = 3, c = 0", or "`x` is declared here" and `declared` when no loop made it.
fn made_here(fam: &Families, item: usize, declared: &str) -> Option<(crate::source::Span, String)> {
    let it = &fam.compiled.problem.items[item];
    let crate::problem::Origin::Model { decl } = &it.origin else {
        return None;
    };
    let bindings = fam.item_bindings.get(item).map_or(&[][..], |b| &b[..]);
    let item = it;
    let text = if bindings.is_empty() {
        format!("`{}` is declared here{declared}", item.name)
    } else {
        let values: Vec<String> = bindings
            .iter()
            .map(|(n, v)| format!("{n} = {v:#}"))
            .collect();
        format!("`{}` is made here with {}", item.name, values.join(", "))
    };
    Some((*decl, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses `text`, which must pass the checker.
    fn parse(text: &str) -> (Model, SourceFile) {
        let src = SourceFile::new("test.dlx", text);
        let model = crate::syntax::parse(&src).unwrap_or_else(|d| panic!("{d:?}"));
        (model, src)
    }

    fn lowerer<'m>(
        model: &'m Model,
        src: &SourceFile,
        overrides: HashMap<String, Value>,
    ) -> Lowerer<'m> {
        let checked = crate::check::check(model, src).unwrap_or_else(|d| panic!("{d:?}"));
        Lowerer::new(
            model,
            src,
            &|i, p| checked.depends_on(i, &[p]),
            overrides,
            false,
            10_000_000,
        )
        .unwrap_or_else(|d| panic!("{d:?}"))
    }

    /// A family whose loops make what they plan reserves its arrays once, exactly; one
    /// whose loops depend on each other or filter does not (its first binding would
    /// size the whole family wrongly), and both lower the same.
    #[test]
    fn families_reserve_room_only_when_their_loops_are_fixed() {
        let text = "let rows = [[0, 1, 2], [0], [1]]\n\
                    item slot[r, c] for r in 0..3, c in 0..3\n\
                    option fixed[r, c] for r in 0..3, c in 0..3\n\
                    \x20   covers slot[r, c]\n\
                    option ragged[r, c] for r in 0..3, c in rows[r]\n\
                    \x20   covers slot[r, c]\n";
        let (model, src) = parse(text);
        let clauses = |k: usize| match &model.decls[k] {
            Decl::Option(o) => &o.clauses,
            _ => unreachable!("declaration {k} is an option family"),
        };
        assert!(family::fixed_loops(clauses(2)));
        assert!(!family::fixed_loops(clauses(3)));
        let mut l = lowerer(&model, &src, HashMap::new());
        let inst = l
            .instance(None)
            .unwrap_or_else(|f| panic!("{:?}", f.diagnostics));
        let p = &inst.compiled.problem;
        assert_eq!(p.options.len(), 9 + 5);
        let names: Vec<&str> = p.options.iter().filter_map(|o| o.name).collect();
        assert_eq!(
            names[9..],
            [
                "ragged[0,0]",
                "ragged[0,1]",
                "ragged[0,2]",
                "ragged[1,0]",
                "ragged[2,1]"
            ]
        );
    }

    /// A pure function called inside an option loop is evaluated once per distinct
    /// argument list: `weight(v)` below is called for 300 options with 3 arguments.
    #[test]
    fn function_values_are_memoized() {
        let text = "fn weight(v) = sum(combinations(1..=9, v)[0])\n\
                    item slot[i] for i in 0..100\n\
                    option put[i, v] for i in 0..100, v in 1..=3 where weight(v) > 0\n\
                    \x20   covers slot[i]\n";
        let (model, src) = parse(text);
        let mut l = lowerer(&model, &src, HashMap::new());
        let inst = l
            .instance(None)
            .unwrap_or_else(|f| panic!("{:?}", f.diagnostics));
        assert_eq!(inst.compiled.problem.options.len(), 300);
        assert_eq!(l.function_evaluations(), 3);
    }

    /// The memo is forgotten with the data it read: a function of the record is
    /// evaluated again for the next record, one that is not is not.
    #[test]
    fn memo_is_forgotten_with_the_record() {
        let text = "param row: grid\n\
                    fn width() = len(row[0])\n\
                    fn twice(x) = 2 * x\n\
                    item slot[i] for i in 0..width() where twice(i) >= 0\n\
                    option put[i] for i in 0..width() covers slot[i]\n";
        let (model, src) = parse(text);
        let checked = crate::check::check(&model, &src).unwrap_or_else(|d| panic!("{d:?}"));
        let mut l = Lowerer::new(
            &model,
            &src,
            &|i, p| checked.depends_on(i, &[p]),
            HashMap::new(),
            true,
            10_000_000,
        )
        .unwrap_or_else(|d| panic!("{d:?}"));
        let grid = |s: &str| Value::list(vec![Value::str(s)]);
        let a = l
            .instance(Some(grid("abc")))
            .unwrap_or_else(|f| panic!("{:?}", f.diagnostics));
        assert_eq!(a.compiled.problem.options.len(), 3);
        // width() once (twice: for the items and for the options, one evaluation),
        // twice(i) for 0, 1, 2.
        assert_eq!(l.function_evaluations(), 4);
        let b = l
            .instance(Some(grid("abcde")))
            .unwrap_or_else(|f| panic!("{:?}", f.diagnostics));
        assert_eq!(b.compiled.problem.options.len(), 5);
        // width() again for the new record; twice(i) only for the new 3 and 4.
        assert_eq!(l.function_evaluations(), 4 + 1 + 2);
    }
}
