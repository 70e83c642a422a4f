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

use std::hash::{Hash, Hasher};

use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::diag::Diagnostics;
use crate::diag::report::Report;
use crate::lower::budget;
use crate::lower::eval::{Env, EvalError, EvalResult};
use crate::lower::value::Value;
use crate::problem::{Bounds, Entry, ItemId, ItemKind, Opt, OptionId, Origin, Problem};
use crate::source::Span;
use crate::syntax::ast::{
    BoundsExpr, CoverEntry, Decl, ExprKind, ForceDecl, Ident, ItemClass, ItemDecl, OptionDecl,
    Paint,
};

/// Ids of items (or options, or anything else) by family and index values: what
/// identifies an item or option in a model.
///
/// A family's index values lie end to end in one arena (a family's index has the same
/// number of values for every member), as plain integers while every value is one, and
/// a hash table holds member numbers, hashed by their values. A member costs its values,
/// its id and a few bytes of table, not a boxed key and a map entry each: a family of a
/// million options is common. A lookup borrows the values it was given (`&[Value]`)
/// instead of building a key: forcing a sudoku's clues looks up 81 options per record.
#[derive(Clone, Debug)]
pub struct KeyIndex<V> {
    by_family: Vec<FamilyIndex<V>>,
}

/// The members of one family.
#[derive(Clone, Debug)]
struct FamilyIndex<V> {
    /// Values per member (the length of the family's index).
    width: usize,
    /// The index values of every member, `width` each, in insertion order.
    keys: Keys,
    /// The id of every member.
    ids: Vec<V>,
    /// Member numbers, hashed by their index values.
    table: HashTable<u32>,
}

/// The index values of a family's members, end to end.
#[derive(Clone, Debug)]
enum Keys {
    /// Every value so far is an integer (most families: `cell[r, c]`).
    Ints(Vec<i64>),
    /// Any values.
    Values(Vec<Value>),
}

impl<V> Default for FamilyIndex<V> {
    fn default() -> Self {
        FamilyIndex {
            width: 0,
            keys: Keys::Ints(Vec::new()),
            ids: Vec::new(),
            table: HashTable::new(),
        }
    }
}

impl<V: Copy> FamilyIndex<V> {
    /// Whether member `m` has the index `index` (of the family's width).
    fn is(&self, m: usize, index: &[Value]) -> bool {
        let at = m * self.width..(m + 1) * self.width;
        match &self.keys {
            Keys::Ints(xs) => xs[at]
                .iter()
                .zip(index)
                .all(|(x, v)| matches!(v, Value::Int(y) if x == y)),
            Keys::Values(vs) => &vs[at] == index,
        }
    }

    /// The index values of member `m`.
    fn key(&self, m: usize) -> Vec<Value> {
        let at = m * self.width..(m + 1) * self.width;
        match &self.keys {
            Keys::Ints(xs) => xs[at].iter().map(|&x| Value::Int(x)).collect(),
            Keys::Values(vs) => vs[at].to_vec(),
        }
    }

    /// The hash of member `m`'s index, equal to [`hash_of`] of its values.
    fn hash_member(keys: &Keys, width: usize, m: usize) -> u64 {
        let at = m * width..(m + 1) * width;
        match keys {
            Keys::Ints(xs) => hash_ints(&xs[at]),
            Keys::Values(vs) => hash_of(&vs[at]),
        }
    }

    fn find(&self, index: &[Value]) -> Option<usize> {
        if index.len() != self.width || self.ids.is_empty() {
            return None;
        }
        self.table
            .find(hash_of(index), |&m| self.is(m as usize, index))
            .map(|&m| m as usize)
    }
}

/// The hash of a family's index values. Integers hash alike whether they are stored as
/// values or as plain integers.
fn hash_of(index: &[Value]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    for v in index {
        match v {
            Value::Int(x) => h.write_i64(*x),
            other => {
                h.write_u8(0xff);
                other.hash(&mut h);
            }
        }
    }
    h.finish()
}

/// [`hash_of`] of integers.
fn hash_ints(xs: &[i64]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    for &x in xs {
        h.write_i64(x);
    }
    h.finish()
}

impl<V> Default for KeyIndex<V> {
    fn default() -> Self {
        KeyIndex {
            by_family: Vec::new(),
        }
    }
}

impl<V: Copy> KeyIndex<V> {
    /// The entry of `family` at `index`.
    pub fn get(&self, family: usize, index: &[Value]) -> Option<V> {
        let f = self.by_family.get(family)?;
        f.find(index).map(|m| f.ids[m])
    }

    /// Whether `family` has an entry at `index`.
    pub fn contains(&self, family: usize, index: &[Value]) -> bool {
        self.get(family, index).is_some()
    }

    /// An index of `family` that differs from `index` only in the kind of some
    /// components, a string where the family has an integer written the same (`"1"`
    /// for `1`) or the other way round: what a lookup that failed most likely meant.
    /// The least such index in value order, so the answer does not depend on hashing.
    /// Scans the family: call it only when a lookup has failed.
    pub fn near_miss(&self, family: usize, index: &[Value]) -> Option<Vec<Value>> {
        let f = self.by_family.get(family)?;
        if f.width != index.len() {
            return None;
        }
        (0..f.ids.len())
            .map(|m| f.key(m))
            .filter(|k| k.iter().zip(index).all(|(a, b)| same_but_kind(a, b)))
            .min()
    }

    /// Every entry of `family`, in the order they were added.
    pub fn entries(&self, family: usize) -> impl Iterator<Item = (Vec<Value>, V)> + '_ {
        self.by_family
            .get(family)
            .into_iter()
            .flat_map(|f| (0..f.ids.len()).map(move |m| (f.key(m), f.ids[m])))
    }

    /// How many entries `family` has.
    pub fn count(&self, family: usize) -> usize {
        self.by_family.get(family).map_or(0, |f| f.ids.len())
    }

    /// Adds an entry, even when `index` is there already (then [`KeyIndex::get`] finds
    /// either). A family's indexes all have the length of its first one (the family's
    /// index list); an index of another length is not added.
    pub fn insert(&mut self, family: usize, index: &[Value], v: V) {
        self.add(family, index, v, false);
    }

    /// Adds an entry unless `index` is there already; whether it was added. One lookup
    /// where [`KeyIndex::contains`] and [`KeyIndex::insert`] would make two.
    pub fn insert_new(&mut self, family: usize, index: &[Value], v: V) -> bool {
        self.add(family, index, v, true)
    }

    fn add(&mut self, family: usize, index: &[Value], v: V, unique: bool) -> bool {
        if self.by_family.len() <= family {
            self.by_family.resize_with(family + 1, FamilyIndex::default);
        }
        let f = &mut self.by_family[family];
        if f.ids.is_empty() {
            f.width = index.len();
        } else if index.len() != f.width {
            return false;
        }
        let Ok(member) = u32::try_from(f.ids.len()) else {
            return false; // 2^32 members: the size limit and the memory budget stop far sooner
        };
        let hash = hash_of(index);
        if unique && f.table.find(hash, |&m| f.is(m as usize, index)).is_some() {
            return false;
        }
        match &mut f.keys {
            Keys::Ints(xs) if index.iter().all(|v| matches!(v, Value::Int(_))) => {
                xs.extend(index.iter().filter_map(Value::as_int));
            }
            Keys::Ints(xs) => {
                let mut vs: Vec<Value> = xs.iter().map(|&x| Value::Int(x)).collect();
                vs.extend_from_slice(index);
                f.keys = Keys::Values(vs);
            }
            Keys::Values(vs) => vs.extend_from_slice(index),
        }
        f.ids.push(v);
        let (keys, width) = (&f.keys, f.width);
        f.table.insert_unique(hash, member, |&m| {
            FamilyIndex::<V>::hash_member(keys, width, m as usize)
        });
        true
    }
}

/// Whether two values are equal, or would be if every string and integer in them
/// that are written alike (`"1"`, `1`) were of one kind.
fn same_but_kind(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Str(s), Value::Int(i)) | (Value::Int(i), Value::Str(s)) => **s == *i.to_string(),
        (Value::Tuple(xs), Value::Tuple(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| same_but_kind(x, y))
        }
        _ => a == b,
    }
}

/// The note for a lookup of `index` that failed where `found` exists: which component
/// differs, and how, naming both kinds (strings quoted, as the language writes them).
pub fn kind_mismatch_note(family: &str, index: &[Value], found: &[Value]) -> String {
    let (k, (mine, theirs)) = index
        .iter()
        .zip(found)
        .enumerate()
        .find(|(_, (a, b))| a.kind() != b.kind() || a != b)
        .map_or((0, (&index[0], &found[0])), |(k, pair)| (k, pair));
    format!(
        "`{}` exists: its {} index is {} {theirs:#}, here it is {} {mine:#}; convert with `{}`",
        display_name(family, found),
        ordinal(k),
        article(theirs),
        article(mine),
        if theirs.as_int().is_some() {
            "int(...)"
        } else {
            "str(...)"
        },
    )
}

/// "an integer", "a string", or the kind of a compound component.
fn article(v: &Value) -> &'static str {
    match v {
        Value::Int(_) => "the integer",
        Value::Str(_) => "the string",
        other => other.kind().described(),
    }
}

/// "first", "second"... for the place of an index component.
fn ordinal(k: usize) -> String {
    match k {
        0 => "first".into(),
        1 => "second".into(),
        2 => "third".into(),
        3 => "fourth".into(),
        n => format!("number {}", n + 1),
    }
}

/// One painted cell: (layer,) row, column, and what it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaintCell {
    /// The layer of a cell painted as `(layer, row, column)`; `None` for `(row, column)`.
    pub layer: Option<i64>,
    /// Row.
    pub row: i64,
    /// Column.
    pub col: i64,
    /// The text shown (shared: a million queens paint one `Q`).
    pub text: Arc<str>,
}

/// The cells each option paints, by option id, end to end in one list: an option costs
/// its cells and an offset, not a list of its own.
#[derive(Clone, Debug, Default)]
pub struct Paints {
    /// Where the cells of each option end in `cells`; they start where the previous
    /// option's end.
    ends: Vec<usize>,
    cells: Vec<PaintCell>,
}

/// The texts painted while lowering, so each is stored once.
#[derive(Default)]
struct Texts {
    /// Every text painted so far.
    all: FxHashSet<Arc<str>>,
    /// The value painted last and its text: options of one family mostly paint the
    /// same few values, and this spares rendering them again.
    last: Option<(Value, Arc<str>)>,
}

impl Paints {
    /// Paints made of the cells of each option in turn (for tests and other makers).
    pub fn from_options(options: impl IntoIterator<Item = Vec<PaintCell>>) -> Paints {
        let mut p = Paints::default();
        for mut cells in options {
            p.push(&mut cells);
        }
        p
    }

    /// The cells option `id` paints (none for an option beyond the list).
    pub fn of(&self, id: OptionId) -> &[PaintCell] {
        let k = id.index();
        match self.ends.get(k) {
            Some(&end) => &self.cells[if k == 0 { 0 } else { self.ends[k - 1] }..end],
            None => &[],
        }
    }

    /// How many options the list covers.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no option is in the list.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Every cell of every option, option after option.
    pub fn all(&self) -> &[PaintCell] {
        &self.cells
    }

    /// Adds the cells of the next option, taking them from `cells`.
    pub fn push(&mut self, cells: &mut Vec<PaintCell>) {
        self.cells.append(cells);
        self.ends.push(self.cells.len());
    }
}

impl Texts {
    /// The shared text of a painted value.
    fn text(&mut self, v: &Value) -> Arc<str> {
        if let Some((last, t)) = &self.last
            && last == v
        {
            return Arc::clone(t);
        }
        let text = v.to_string();
        let t = match self.all.get(text.as_str()) {
            Some(t) => Arc::clone(t),
            None => {
                let t: Arc<str> = Arc::from(text);
                self.all.insert(Arc::clone(&t));
                t
            }
        };
        self.last = Some((v.clone(), Arc::clone(&t)));
        t
    }
}

/// The loop variables visible where an item was made, outermost first, with their
/// values.
pub type Bindings = Box<[(Rc<str>, Value)]>;

/// The lowered families: the problem plus what maps it back to the model.
#[derive(Clone, Debug, Default)]
pub struct Families {
    /// The exact-cover problem.
    pub problem: Problem,
    /// Item ids by family and index.
    pub items: KeyIndex<ItemId>,
    /// Option ids by family and index.
    pub options: KeyIndex<OptionId>,
    /// Options dropped because they cover no primary item, for better messages.
    pub dropped: KeyIndex<Span>,
    /// The cells each option paints, by option id.
    pub paints: Paints,
    /// The background cells of every solution (`canvas` declarations).
    pub canvas: Vec<PaintCell>,
    /// Whether painted cells are `(layer, row, column)` triples (`Some(true)`) or
    /// `(row, column)` pairs (`Some(false)`), as the first painted cell was; `None`
    /// before any. A model paints in one dimension only.
    pub paint_layers: Option<bool>,
    /// Which item families are colored, by declaration index.
    pub colored: Vec<usize>,
    /// The symmetry group the model declares (`symmetry`), if it declares one.
    pub symmetry: Option<crate::symmetry::Group>,
    /// The loop values that made each item, by item id: visible names, outermost
    /// first, each with its value (shared, not copied), rendered only when a diagnostic
    /// shows them ("`cell[0,8]` is made here with r = 0, c = 8").
    pub item_bindings: Vec<Bindings>,
}

/// `family[a,b,c]`, the way items and options are named.
pub fn display_name(family: &str, index: &[Value]) -> String {
    if index.is_empty() {
        return family.to_string();
    }
    let mut s = String::with_capacity(family.len() + 4 * index.len() + 2);
    s.push_str(family);
    s.push('[');
    for (i, v) in index.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        v.write_name_part(&mut s);
    }
    s.push(']');
    s
}

fn origin(decl: Span) -> Origin {
    Origin::Model { decl }
}

fn too_many(env: &Env<'_>, what: &str, limit: usize, span: Span) -> EvalError {
    Box::new(
        Report::error("E0501", format!("this {what} family makes more than {limit} {what}s"))
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
            "E0505",
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
            let mut cells = std::mem::take(&mut fam.canvas);
            if let Err(e) = paint_cells(env, paint, &mut texts, &mut cells, &mut fam.paint_layers) {
                add(&mut errors, e);
            }
            fam.canvas = cells;
        }
    }
    // The symmetries act on the options, so they need every family made.
    if errors.is_empty() {
        match crate::lower::symmetry::lower_symmetry(env, &fam) {
            Ok(group) => fam.symmetry = group,
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
        let id = ItemId(fam.problem.items.len() as u32);
        if !fam.items.insert_new(decl, &index, id) {
            return Err(env.error(
                "E0406",
                format!("item `{name}` is made twice by this family"),
                span,
                "two bindings give the same index",
            )
            .add_help("each binding of an item family must give a different index; add the distinguishing loop variable to the index")
            .into());
        }
        let added = fam.problem.add_item(name, kind, origin(item.name.span));
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
                "E0307",
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
                    "E0307",
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
    let mut entries: Vec<(Entry, Span)> = Vec::new();
    let (mut index, mut key) = (Vec::with_capacity(opt.index.len()), Vec::new());
    let mut cells = Vec::new();
    env.for_each(&opt.clauses, &mut |env| {
        made += 1;
        if made > limit {
            return Err(too_many(env, "option", limit, opt.name.span));
        }
        if budget::exceeded() {
            return Err(out_of_memory(env, "option", &opt.name, made));
        }
        eval_index_into(env, &opt.index, &mut index)?;
        entries.clear();
        for (cover, &family) in opt.covers.iter().zip(&cover_families) {
            collect_cover(env, cover, family, fam, &mut key, &mut entries)?;
        }
        let cost = match &opt.cost {
            Some(e) => Some(env.eval_int(e, "a cost")?),
            None => None,
        };
        cells.clear();
        for paint in &opt.paints {
            paint_cells(env, paint, texts, &mut cells, &mut fam.paint_layers)?;
        }
        parts += entries.len() + cells.len();
        if parts > limit {
            return Err(env
                .error(
                    "E0501",
                    format!(
                        "the options of this family cover and paint more than {limit} cells in all"
                    ),
                    opt.name.span,
                    "too large",
                )
                .add_help("check its `covers` and `paint` clauses; raise the limit with `--max-size N` if this is intended")
                .into());
        }
        let name = display_name(&opt.name.name, &index);
        if !entries.iter().any(|(e, _)| fam.problem.item(e.item).kind.is_primary()) {
            dropped += 1;
            first_dropped.get_or_insert(name);
            fam.dropped.insert(decl, &index, opt.name.span);
            return Ok(());
        }
        // The id the option gets: the next one.
        let id = OptionId(fam.problem.options.len() as u32);
        if !fam.options.insert_new(decl, &index, id) {
            return Err(env.error(
                "E0406",
                format!("option `{name}` is made twice by this family"),
                opt.name.span,
                "two bindings give the same index",
            )
            .add_help("each binding of an option family must give a different index; add the distinguishing loop variable to the index")
            .into());
        }
        let added = fam.problem.add_option(Opt {
            name: Some(name),
            entries: entries.iter().map(|(e, _)| *e).collect(),
            cost,
            origin: origin(opt.name.span),
        });
        debug_assert_eq!(added, id);
        fam.paints.push(&mut cells);
        Ok(())
    })?;
    Ok(first_dropped.map(|example| {
        Report::warning(
            "W0401",
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
/// texts shared through `texts`). `layers` is the dimension of the model's painted
/// cells so far (see [`Families::paint_layers`]).
fn paint_cells<'m>(
    env: &mut Env<'m>,
    paint: &'m Paint,
    texts: &mut Texts,
    out: &mut Vec<PaintCell>,
    layers: &mut Option<bool>,
) -> EvalResult<()> {
    env.for_each(&paint.clauses, &mut |env| {
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
        if *layers.get_or_insert(layered) != layered {
            let ints = layer.into_iter().chain([row, col]).map(Value::Int).collect();
            let cell = Value::tuple(ints);
            return Err(env.error(
                "E0215",
                format!(
                    "painted cells mix (row, column) pairs and (layer, row, column) triples: this one is {cell:#}"
                ),
                paint.cell.span,
                "not the dimension of the cells painted before",
            )
            .add_help("a model paints in one dimension: every `paint` and `canvas` cell a pair (a plane picture), or every one a triple (layers drawn side by side)")
            .into());
        }
        let v = env.eval(&paint.value)?;
        out.push(PaintCell {
            layer,
            row,
            col,
            text: texts.text(&v),
        });
        Ok(())
    })
}

fn paint_cell_error(env: &Env<'_>, cell: &Value, span: Span) -> EvalError {
    env.error(
        "E0210",
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

/// Adds the entries of `cover` to `entries`; `family` is its item family's declaration
/// index (`None` when its name is not an item family).
fn collect_cover<'m>(
    env: &mut Env<'m>,
    cover: &'m CoverEntry,
    family: Option<usize>,
    fam: &mut Families,
    index: &mut Vec<Value>,
    entries: &mut Vec<(Entry, Span)>,
) -> EvalResult<()> {
    let Some(family) = family else {
        return Err(env.error(
            "E0107",
            format!("`{}` is not an item family", cover.family.name),
            cover.family.span,
            "not declared with `item`",
        ));
    };
    env.for_each(&cover.clauses, &mut |env| {
        eval_index_into(env, &cover.index, index)?;
        let Some(item) = fam.items.get(family, index) else {
            let name = display_name(&cover.family.name, index);
            let r = env.error(
                "E0401",
                format!("option covers `{name}`, which is not an item"),
                cover.span,
                format!("this makes `{name}`"),
            );
            let help = match fam.items.near_miss(family, index) {
                Some(found) => kind_mismatch_note(&cover.family.name, index, &found),
                None => format!("the family `{}` has no item with this index; restrict the loop with `where`, or widen the item family", cover.family.name),
            };
            return Err(r.add_help(help).into());
        };
        let color = match &cover.color {
            Some(c) => {
                let v = env.eval(c)?;
                Some(fam.problem.intern_color(&v.to_string()))
            }
            None => None,
        };
        if let Some((_, first)) = entries.iter().find(|(e, _)| e.item == item) {
            let first = *first;
            let name = fam.problem.item(item).name.clone();
            let mut r = *env.error(
                "E0402",
                format!("option covers `{name}` twice"),
                cover.span,
                "covered again here",
            );
            r = r.secondary(first, "first covered here");
            return Err(Box::new(r.add_help("an option covers each item at most once; check the index expressions, or add `where` to skip the bindings that coincide")));
        }
        entries.push((Entry { item, color }, cover.span));
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
            "E0107",
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
                        "E0405",
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
