//! Lowering item families, option families and forces into a [`Problem`].
//!
//! Each family is a comprehension; each binding of its clauses makes one item or one
//! option. An item or option is identified by its family and its index values (the
//! *key*), and named `family[i,j,k]` for people. Every item and option remembers the
//! declaration that made it ([`Origin::Model`]); [`Families`] keeps the index values of
//! each (in [`KeyIndex`]) and the loop values that made each item.
//!
//! A family stops at its first error (the next iterations would most likely repeat
//! it), but every family is lowered, so one run reports one error per broken family.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::diag::Code;
use crate::diag::Diagnostics;
use crate::diag::report::Report;
use crate::instance::Compiled;
use crate::instance::paint::{Painted, Paints, TextId};
use crate::lower::budget;
use crate::lower::eval::{Env, EvalError, EvalResult};
use crate::lower::join;
use crate::lower::keys::{KeyIndex, display_name, kind_mismatch_note, write_display_name};
use crate::lower::symmetry::{Made, lower_symmetry};
use crate::lower::value::Value;
use crate::problem::{Bounds, Entry, ItemId, ItemKind, OptionId, Origin, Problem};
use crate::render::svg::Lattice;
use crate::source::Span;
use crate::syntax::ast::{
    BoundsExpr, Clause, CoverEntry, Decl, Draw, ExprKind, ForceDecl, Ident, ItemClass, ItemDecl,
    OptionDecl, Paint,
};

/// The text of the value painted last: options of one family mostly paint the same
/// few values, and this spares rendering them again.
#[derive(Default)]
struct Texts {
    last: Option<(Value, TextId)>,
}

impl Texts {
    /// The number of a painted value's text in `paints`.
    fn text(&mut self, v: &Value, paints: &mut Paints) -> TextId {
        if let Some((last, t)) = &self.last
            && last == v
        {
            return *t;
        }
        let t = paints.intern(&v.to_string());
        self.last = Some((v.clone(), t));
        t
    }
}

/// The loop variables visible where an item was made, outermost first, with their
/// values.
pub type Bindings = Box<[(Rc<str>, Value)]>;

/// The lowered families: the compiled matrix plus what maps it back to the model.
#[derive(Clone, Debug, Default)]
pub struct Families {
    /// The problem, its paints and its symmetry group: what the instance shares.
    pub compiled: Arc<Compiled>,
    /// Item ids by family and index.
    pub items: KeyIndex<ItemId>,
    /// Option ids by family and index.
    pub options: KeyIndex<OptionId>,
    /// Options dropped because they cover no primary item, for better messages.
    pub dropped: KeyIndex<Span>,
    /// Which item families are colored, by declaration index.
    pub colored: Vec<usize>,
    /// The loop values that made each item, by item id: visible names, outermost
    /// first, each with its value (shared, not copied), rendered only when a diagnostic
    /// shows them ("`cell[0,8]` is made here with r = 0, c = 8").
    pub item_bindings: Vec<Bindings>,
}

impl Families {
    /// The matrix being built. Nothing else holds it until the lowering hands it to an
    /// instance, so this never copies it.
    fn building(&mut self) -> &mut Compiled {
        Arc::make_mut(&mut self.compiled)
    }

    /// The problem.
    pub fn problem(&self) -> &Problem {
        &self.compiled.problem
    }
}

fn origin(decl: Span) -> Origin {
    Origin::Model { decl }
}

fn too_many(env: &Env<'_>, what: &str, limit: usize, span: Span) -> EvalError {
    Box::new(
        Report::error(Code::E0501, format!("this {what} family makes more than {limit} {what}s"))
            .label(span, "too large")
            .help("check the ranges of its `for` clauses; raise the limit with `--max-size N` if this is intended")
            .with_source(&env.src),
    )
}

/// The error when the memory budget runs out while a family grows: which family, and
/// how large it got.
fn out_of_memory(env: &Env<'_>, what: &str, name: &Ident, made: usize) -> EvalError {
    Box::new(
        Report::error(
            Code::E0505,
            format!(
                "the {what} family `{}` outgrew the memory budget of {}",
                name.name,
                budget::human(budget::budget())
            ),
        )
        .label(name.span, format!("about {} {what}s made", budget::about(made)))
        .help("the model builds more than fits in memory; narrow the ranges of this family, or raise the budget with `--max-memory SIZE` (such as 8G)")
        .with_source(&env.src),
    )
}

/// Lowers every item and option family of the model, collecting one error per failing
/// family.
pub fn lower_families<'m>(env: &mut Env<'m>) -> Result<(Families, Diagnostics), Diagnostics> {
    let model = env.model();
    let mut fam = Families::default();
    let mut errors: Vec<Report> = Vec::new();
    let mut warnings = Diagnostics::new();
    let mut texts = Texts::default();
    // A broken `let` read by several families fails in each of them; say it once.
    let add = |errors: &mut Vec<Report>, e: EvalError| {
        let primary = |r: &Report| r.labels.iter().find(|l| l.primary).map(|l| l.span);
        let seen = errors
            .iter()
            .any(|x| x.code == e.code && x.message == e.message && primary(x) == primary(&e));
        if !seen {
            errors.push(*e);
        }
    };
    for (i, d) in model.decls.iter().enumerate() {
        if let Decl::Item(item) = d {
            if item.class == ItemClass::Colored {
                fam.colored.push(i);
            }
            if let Err(e) = lower_items(env, i, item, &mut fam) {
                add(&mut errors, e);
            }
        }
    }
    // Options of a broken item family would only report the items it failed to make.
    let items_failed = !errors.is_empty();
    for (i, d) in model.decls.iter().enumerate() {
        if let Decl::Option(opt) = d
            && !items_failed
        {
            match lower_options(env, i, opt, &mut fam, &mut texts) {
                Ok(Some(w)) => warnings.push(w),
                Ok(None) => {}
                Err(e) => add(&mut errors, e),
            }
        }
    }
    for d in &model.decls {
        if let Decl::Canvas(paint) = d {
            let mut cells = Vec::new();
            if let Err(e) = paint_cells(env, paint, &mut texts, &mut cells, &mut fam) {
                add(&mut errors, e);
            }
            fam.building().paints.push_canvas(&mut cells);
        }
        if let Decl::Draw(draw) = d {
            match &draw.what {
                Draw::Cells(shape, _) => {
                    fam.building().lattice = Some(match shape.as_str() {
                        "triangle" => Lattice::Triangle,
                        "hex" => Lattice::Hex,
                        _ => Lattice::Square,
                    });
                }
                Draw::Region(paint) | Draw::Note(paint) => {
                    let mut cells = Vec::new();
                    if let Err(e) = paint_cells(env, paint, &mut texts, &mut cells, &mut fam) {
                        add(&mut errors, e);
                    }
                    let paints = &mut fam.building().paints;
                    match &draw.what {
                        Draw::Note(_) => paints.push_notes(&mut cells),
                        _ => paints.push_regions(cells),
                    }
                }
            }
        }
    }
    // The symmetries act on the options, so they need every family made.
    if errors.is_empty() {
        let made = Made {
            problem: &fam.compiled.problem,
            items: &fam.items,
        };
        match lower_symmetry(env, &made) {
            Ok(group) => fam.building().symmetry = group,
            Err(es) => es.into_iter().for_each(|e| add(&mut errors, e)),
        }
    }
    if !errors.is_empty() {
        let mut diags = Diagnostics::new();
        errors.into_iter().for_each(|e| diags.push(e));
        return Err(diags);
    }
    Ok((fam, warnings))
}

/// Evaluates an index (`[r, c, v]`) into `out`, a buffer reused for every binding of a
/// family: the lookups only borrow it, and a sudoku record forces 81 options.
fn eval_index_into<'m>(
    env: &mut Env<'m>,
    index: &'m [crate::syntax::ast::Expr],
    out: &mut Vec<Value>,
) -> EvalResult<()> {
    out.clear();
    for e in index {
        out.push(env.eval(e)?);
    }
    Ok(())
}

fn lower_items<'m>(
    env: &mut Env<'m>,
    decl: usize,
    item: &'m ItemDecl,
    fam: &mut Families,
) -> EvalResult<()> {
    let limit = env.size_limit;
    let mut made = 0usize;
    let mut index = Vec::with_capacity(item.index.len());
    // One shared copy of each loop variable's name for the family's bindings.
    let mut names: FxHashMap<&'m str, Rc<str>> = FxHashMap::default();
    env.for_each(&item.clauses, &mut |env| {
        made += 1;
        if made > limit {
            return Err(too_many(env, "item", limit, item.name.span));
        }
        if budget::exceeded() {
            return Err(out_of_memory(env, "item", &item.name, made));
        }
        eval_index_into(env, &item.index, &mut index)?;
        let kind = match item.class {
            ItemClass::Primary => ItemKind::Primary {
                bounds: match &item.bounds {
                    Some(b) => eval_bounds(env, b)?,
                    None => Bounds::EXACTLY_ONCE,
                },
            },
            ItemClass::Secondary | ItemClass::Colored => ItemKind::Secondary,
        };
        let name = display_name(&item.name.name, &index);
        let span = item.index.first().map_or(item.name.span, |f| item.name.span.to(f.span));
        let id = ItemId(fam.building().problem.items.len() as u32);
        if !fam.items.insert_new(decl, &index, id) {
            return Err(env.error(
                Code::E0406,
                format!("item `{name}` is made twice by this family"),
                span,
                "two bindings give the same index",
            )
            .add_help("each binding of an item family must give a different index; add the distinguishing loop variable to the index")
            .into());
        }
        let added = fam.building().problem.add_item(name, kind, origin(item.name.span));
        debug_assert_eq!(added, id);
        let bindings = env
            .binding_values()
            .into_iter()
            .map(|(n, v)| (Rc::clone(names.entry(n).or_insert_with(|| Rc::from(n))), v))
            .collect();
        fam.item_bindings.push(bindings);
        Ok(())
    })
}

fn eval_bounds<'m>(env: &mut Env<'m>, b: &'m BoundsExpr) -> EvalResult<Bounds> {
    let bound = |env: &mut Env<'m>, e: &'m crate::syntax::ast::Expr| -> EvalResult<u32> {
        let v = env.eval_int(e, "a multiplicity bound")?;
        u32::try_from(v).map_err(|_| {
            env.error(
                Code::E0307,
                format!(
                    "a multiplicity bound must be between 0 and {}, found {v}",
                    u32::MAX
                ),
                e.span,
                "out of range",
            )
        })
    };
    match b {
        BoundsExpr::Exactly(e) => {
            let k = bound(env, e)?;
            Ok(Bounds { lo: k, hi: Some(k) })
        }
        BoundsExpr::Range { lo, hi } => {
            let l = bound(env, lo)?;
            let h = match hi {
                Some(h) => Some(bound(env, h)?),
                None => None,
            };
            if let Some(h) = h
                && h < l
            {
                return Err(env.error(
                    Code::E0307,
                    format!("the multiplicity interval {l}..{h} is empty"),
                    lo.span.to(hi.as_ref().map_or(lo.span, |h| h.span)),
                    "lower bound above upper bound",
                ));
            }
            Ok(Bounds { lo: l, hi: h })
        }
    }
}

fn lower_options<'m>(
    env: &mut Env<'m>,
    decl: usize,
    opt: &'m OptionDecl,
    fam: &mut Families,
    texts: &mut Texts,
) -> EvalResult<Option<Report>> {
    let limit = env.size_limit;
    // The item family of each entry, looked up once rather than for every option.
    let names = family_indexes(env);
    let cover_families: Vec<Option<usize>> = opt
        .covers
        .iter()
        .map(|c| names.get(&c.family.name).copied())
        .collect();
    let mut made = 0usize;
    let mut dropped = 0usize;
    // Entries and painted cells of the whole family: each costs an evaluation, and an
    // option with thousands of `covers` or `paint`s, times many bindings, is work the
    // count of options alone does not see.
    let mut parts = 0usize;
    let mut first_dropped: Option<String> = None;
    // The entries of the option being made, and where each was written.
    let (mut entries, mut spans): (Vec<Entry>, Vec<Span>) = (Vec::new(), Vec::new());
    let mut seen = Seen::default();
    let (mut index, mut key) = (Vec::with_capacity(opt.index.len()), Vec::new());
    let mut cells = Vec::new();
    let exact = fixed_loops(&opt.clauses);
    // A cover filtered by membership in a set that does not depend on the option is
    // looked up in an index, not looped over in every option (see `join`).
    let mut plans: Vec<join::Plan<'m>> = opt
        .covers
        .iter()
        .map(|c| join::Plan::of(c, &opt.clauses))
        .collect();
    env.for_each(&opt.clauses, &mut |env| {
        made += 1;
        if made > limit {
            return Err(too_many(env, "option", limit, opt.name.span));
        }
        // Read before the covers' own loops replace it.
        let planned = (made == 1 && exact).then(|| env.planned().min(limit));
        if budget::exceeded() {
            return Err(out_of_memory(env, "option", &opt.name, made));
        }
        eval_index_into(env, &opt.index, &mut index)?;
        entries.clear();
        spans.clear();
        seen.next_option();
        for ((cover, &family), plan) in opt.covers.iter().zip(&cover_families).zip(&mut plans) {
            let (entries, spans) = (&mut entries, &mut spans);
            let cover = (cover, plan);
            collect_cover(env, cover, family, fam, &mut key, (entries, spans, &mut seen))?;
        }
        let cost = match &opt.cost {
            Some(e) => Some(env.eval_int(e, "a cost")?),
            None => None,
        };
        cells.clear();
        for paint in &opt.paints {
            paint_cells(env, paint, texts, &mut cells, fam)?;
        }
        parts += entries.len() + cells.len();
        if parts > limit {
            return Err(env
                .error(
                    Code::E0501,
                    format!(
                        "the options of this family cover and paint more than {limit} cells in all"
                    ),
                    opt.name.span,
                    "too large",
                )
                .add_help("check its `covers` and `paint` clauses; raise the limit with `--max-size N` if this is intended")
                .into());
        }
        if !entries.iter().any(|e| fam.building().problem.item(e.item).kind.is_primary()) {
            dropped += 1;
            first_dropped.get_or_insert_with(|| display_name(&opt.name.name, &index));
            fam.dropped.insert(decl, &index, opt.name.span);
            return Ok(());
        }
        if let Some(planned) = planned {
            // Room for the whole family at once, sized by its first option (the loops
            // make exactly `planned`): no copying as the arrays grow, and no room left
            // over. Later names are longer by their larger numbers (`queen[0,0]`, then
            // `queen[999,999]`): a guess of two more digits for each index value.
            let name = display_name(&opt.name.name, &index).len() + 2 * index.len();
            let more = |n: usize| planned.saturating_mul(n);
            fam.building().problem.options.reserve(planned, more(entries.len()), more(name));
            fam.building().paints.reserve(planned, more(cells.len()));
            fam.options.reserve(decl, planned, index.len());
        }
        // The id the option gets: the next one.
        let id = OptionId(fam.building().problem.options.len() as u32);
        if !fam.options.insert_new(decl, &index, id) {
            let name = display_name(&opt.name.name, &index);
            return Err(env.error(
                Code::E0406,
                format!("option `{name}` is made twice by this family"),
                opt.name.span,
                "two bindings give the same index",
            )
            .add_help("each binding of an option family must give a different index; add the distinguishing loop variable to the index")
            .into());
        }
        let added = fam.building().problem.options.push_with(
            |s| write_display_name(s, &opt.name.name, &index),
            &entries,
            cost,
            origin(opt.name.span),
        );
        debug_assert_eq!(added, id);
        fam.building().paints.push(&mut cells);
        Ok(())
    })?;
    Ok(first_dropped.map(|example| {
        Report::warning(
            Code::W0401,
            format!(
                "{dropped} option{} of `{}` cover no primary item and {} dropped",
                if dropped == 1 { "" } else { "s" },
                opt.name.name,
                if dropped == 1 { "was" } else { "were" }
            ),
            )
            .label(opt.name.span, format!("for example `{example}`"))
            .help("an option that covers only secondary items never helps to cover the primary ones; filter these bindings out with `where`, or make one of the items primary")
            .with_source(&env.src)
    }))
}

/// Evaluates a `paint` (or `canvas`) clause, adding its cells to `out` (with their
/// texts stored in `fam.building().paints`). A model paints in the dimension of its first painted
/// cell ([`Families::paint_layers`]).
fn paint_cells<'m>(
    env: &mut Env<'m>,
    paint: &'m Paint,
    texts: &mut Texts,
    out: &mut Vec<Painted>,
    fam: &mut Families,
) -> EvalResult<()> {
    let exact = fixed_loops(&paint.clauses);
    env.for_each(&paint.clauses, &mut |env| {
        if exact && out.len() == out.capacity() {
            let _ = out.try_reserve_exact(env.planned());
        }
        let (layer, row, col) = match &paint.cell.kind {
            // `(r, c)` as written: its two integers, without building the tuple.
            ExprKind::Tuple(xs) if xs.len() == 2 => {
                let (r, c) = (env.eval(&xs[0])?, env.eval(&xs[1])?);
                match (r.as_int(), c.as_int()) {
                    (Some(r), Some(c)) => (None, r, c),
                    _ => {
                        let cell = Value::tuple(vec![r, c]);
                        return Err(paint_cell_error(env, &cell, paint.cell.span));
                    }
                }
            }
            _ => {
                let cell = env.eval(&paint.cell)?;
                let ints: Option<Vec<i64>> = match &cell {
                    Value::Tuple(xs) if xs.len() == 2 || xs.len() == 3 => {
                        xs.iter().map(Value::as_int).collect()
                    }
                    _ => None,
                };
                match ints.as_deref() {
                    Some(&[l, r, c]) => (Some(l), r, c),
                    Some(&[r, c]) => (None, r, c),
                    _ => return Err(paint_cell_error(env, &cell, paint.cell.span)),
                }
            }
        };
        let layered = layer.is_some();
        if *fam.building().paint_layers.get_or_insert(layered) != layered {
            let ints = layer.into_iter().chain([row, col]).map(Value::Int).collect();
            let cell = Value::tuple(ints);
            return Err(env.error(
                Code::E0215,
                format!(
                    "painted cells mix (row, column) pairs and (layer, row, column) triples: this one is {cell:#}"
                ),
                paint.cell.span,
                "not the dimension of the cells painted before",
            )
            .add_help("a model paints in one dimension: every `paint` and `canvas` cell a pair (a plane picture), or every one a triple (layers drawn side by side)")
            .into());
        }
        let small = |x: i64| i32::try_from(x).ok();
        let (Some(row32), Some(col32), Some(layer32)) =
            (small(row), small(col), layer.map_or(Some(None), |l| small(l).map(Some)))
        else {
            let ints = layer.into_iter().chain([row, col]).map(Value::Int).collect();
            return Err(env
                .error(
                    Code::E0210,
                    format!(
                        "a painted cell's coordinates must lie between {} and {}, found {:#}",
                        i32::MIN,
                        i32::MAX,
                        Value::tuple(ints)
                    ),
                    paint.cell.span,
                    "too far out",
                )
                .add_help("a picture places its cells by these numbers; paint at coordinates near the board")
                .into());
        };
        let v = env.eval(&paint.value)?;
        out.push(Painted {
            layer: layer32,
            row: row32,
            col: col32,
            text: texts.text(&v, &mut fam.building().paints),
        });
        Ok(())
    })
}

/// Whether clauses make exactly as many bindings as [`Env::planned`] says at their first
/// one: `for` loops only, none over a collection that depends on an earlier loop's
/// variable (`for c in cells[r]`), so every binding sees the same lengths. Then a family
/// may reserve room for all of its options from the first.
pub(crate) fn fixed_loops(clauses: &[Clause]) -> bool {
    let mut bound: Vec<&str> = Vec::new();
    for c in clauses {
        let Clause::For { pat, iter, .. } = c else {
            return false;
        };
        let mut reads_bound = false;
        iter.walk(&mut |x| {
            if let ExprKind::Name(id) = &x.kind {
                reads_bound |= bound.contains(&id.name.as_str());
            }
        });
        if reads_bound {
            return false;
        }
        pat.for_each_name(&mut |id| bound.push(&id.name));
    }
    true
}

fn paint_cell_error(env: &Env<'_>, cell: &Value, span: Span) -> EvalError {
    env.error(
        Code::E0210,
        format!(
            "a painted cell must be a (row, column) pair or a (layer, row, column) triple of integers, found {cell:#}"
        ),
        span,
        "not a pair or triple of integers",
    )
}

/// Item family declarations by name.
fn family_indexes(env: &Env<'_>) -> HashMap<String, usize> {
    env.model()
        .decls
        .iter()
        .enumerate()
        .filter_map(|(i, d)| match d {
            Decl::Item(it) => Some((it.name.name.clone(), i)),
            _ => None,
        })
        .collect()
}

/// The items the option being made covers so far, for the check that it covers none
/// twice: a mark per item, the option's serial number, so that the check costs the
/// same for the 200,000th entry of an option as for its first (a search of the entries
/// made the lowering of one wide option quadratic: 7 s for 200,000 entries, minutes
/// for a million).
#[derive(Default)]
struct Seen {
    /// By item id: the serial of the last option that covered it (0: none yet).
    marks: Vec<u32>,
    /// The serial of the option being made.
    now: u32,
}

impl Seen {
    /// Starts the next option: no item covered yet.
    fn next_option(&mut self) {
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            // Four billion options later the serials start again, from clean marks.
            self.marks.fill(0);
            self.now = 1;
        }
    }

    /// Marks `item` as covered by the option being made; `false` if it was already.
    fn insert(&mut self, item: ItemId) -> bool {
        let i = item.0 as usize;
        if i >= self.marks.len() {
            self.marks.resize(i + 1, 0);
        }
        std::mem::replace(&mut self.marks[i], self.now) != self.now
    }
}

/// Adds the entries of `cover` to `entries`, evaluated by its plan; `family` is its item
/// family's declaration index (`None` when its name is not an item family).
fn collect_cover<'m>(
    env: &mut Env<'m>,
    (cover, plan): (&'m CoverEntry, &mut join::Plan<'m>),
    family: Option<usize>,
    fam: &mut Families,
    index: &mut Vec<Value>,
    (entries, spans, seen): (&mut Vec<Entry>, &mut Vec<Span>, &mut Seen),
) -> EvalResult<()> {
    let Some(family) = family else {
        return Err(env.error(
            Code::E0107,
            format!("`{}` is not an item family", cover.family.name),
            cover.family.span,
            "not declared with `item`",
        ));
    };
    join::for_each(env, plan, &cover.clauses, &mut |env| {
        eval_index_into(env, &cover.index, index)?;
        let Some(item) = fam.items.get(family, index) else {
            let name = display_name(&cover.family.name, index);
            let r = env.error(
                Code::E0401,
                format!("option covers `{name}`, which is not an item"),
                cover.span,
                format!("this makes `{name}`"),
            );
            let help = match fam.items.near_miss(family, index) {
                Some(found) => kind_mismatch_note(&cover.family.name, index, &found),
                None => format!(
                    "the family `{}` has no item with this index; restrict the loop with `where`, or widen the item family",
                    cover.family.name
                ),
            };
            return Err(r.add_help(help).into());
        };
        let color = match &cover.color {
            Some(c) => {
                let v = env.eval(c)?;
                Some(fam.building().problem.intern_color(&v.to_string()))
            }
            None => None,
        };
        if !seen.insert(item) {
            // Found once, on the way to an error: the search for the first entry is fine.
            let k = entries.iter().position(|e| e.item == item).unwrap_or(0);
            let first = spans[k];
            let name = fam.building().problem.item(item).name.clone();
            let mut r = *env.error(
                Code::E0402,
                format!("option covers `{name}` twice"),
                cover.span,
                "covered again here",
            );
            r = r.secondary(first, "first covered here");
            return Err(Box::new(r.add_help("an option covers each item at most once; check the index expressions, or add `where` to skip the bindings that coincide")));
        }
        entries.push(Entry { item, color });
        spans.push(cover.span);
        Ok(())
    })
}

/// Evaluates a `force` declaration to option ids.
pub fn lower_force<'m>(
    env: &mut Env<'m>,
    force: &'m ForceDecl,
    fam: &Families,
    out: &mut Vec<OptionId>,
) -> EvalResult<()> {
    let model = env.model();
    let family = model
        .decls
        .iter()
        .position(|d| matches!(d, Decl::Option(o) if o.name.name == force.family.name));
    let Some(family) = family else {
        return Err(env.error(
            Code::E0107,
            format!("`{}` is not an option family", force.family.name),
            force.family.span,
            "not declared with `option`",
        ));
    };
    let mut index = Vec::with_capacity(force.index.len());
    env.for_each(&force.clauses, &mut |env| {
        eval_index_into(env, &force.index, &mut index)?;
        match fam.options.get(family, &index) {
            Some(id) => {
                out.push(id);
                Ok(())
            }
            None => {
                let name = display_name(&force.family.name, &index);
                let near = fam.options.near_miss(family, &index);
                let why = if fam.dropped.contains(family, &index) {
                    "it was dropped because it covers no primary item"
                } else if near.is_some() {
                    "the family makes no option with an index of these kinds"
                } else {
                    "the family makes no option with this index"
                };
                let help = match near {
                    Some(found) => kind_mismatch_note(&force.family.name, &index, &found),
                    None => "check the index against the option family's `for` and `where` clauses"
                        .into(),
                };
                Err(env
                    .error(
                        Code::E0405,
                        format!("cannot force `{name}`: no such option"),
                        force.span,
                        why,
                    )
                    .add_help(help)
                    .into())
            }
        }
    })
}
