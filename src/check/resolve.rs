//! Name resolution: scopes, calls, families.
//!
//! One [`Resolver`] walks each declaration with a stack of local bindings. Every
//! reference to a top-level declaration is recorded with its span (the cycle finder
//! labels them), every mistake becomes a [`CheckError`].

use std::collections::HashMap;

use super::error::{CheckError, Mistake};
use super::types;
use crate::diag::suggest::{did_you_mean, list_names};
use crate::lower::builtins;
use crate::source::Span;
use crate::syntax::ast::{
    BoundsExpr, Clause, CoverEntry, Decl, Draw, Expr, ExprKind, Ident, IndexPattern, ItemClass,
    Paint, Pattern, SymmetryMap,
};

/// The top-level namespace: each name to its first definition; later definitions of
/// the same name are errors.
pub(super) fn collect_names(
    decls: &[Decl],
    errors: &mut Vec<CheckError>,
) -> HashMap<String, usize> {
    let mut names: HashMap<String, usize> = HashMap::new();
    for (i, d) in decls.iter().enumerate() {
        let Some(name) = d.name() else { continue };
        match names.get(&name.name) {
            None => {
                names.insert(name.name.clone(), i);
            }
            Some(&first) => {
                let first_span = decls[first].name().map_or(decls[first].span(), |n| n.span);
                errors.push(
                    CheckError::new(
                        Mistake::DuplicateDefinition,
                        format!("duplicate definition of `{}`", name.name),
                        name.span,
                        format!("`{}` defined again here", name.name),
                    )
                    .with_label(first_span, "first defined here")
                    .with_help(
                        "rename one of them: params, lets, fns and item and option families \
                         share one namespace",
                    ),
                );
            }
        }
    }
    names
}

/// What a declaration is, in words for messages ("a let", "an item family").
pub(super) fn describe(d: &Decl) -> &'static str {
    match d {
        Decl::Param(_) => "a parameter",
        Decl::Let(_) => "a let",
        Decl::Fn(_) => "a function",
        Decl::Item(_) => "an item family",
        Decl::Option(_) => "an option family",
        Decl::Force(_) => "a force",
        Decl::Objective(_) => "an objective",
        Decl::Canvas(_) => "a canvas",
        Decl::Draw(_) => "a drawing setting",
        Decl::Assert(_) => "an assertion",
        Decl::Symmetry(_) => "a symmetry",
    }
}

/// Per declaration, every reference it makes to a top-level declaration, with the span
/// of the name, in the order walked.
pub(super) type RefSpans = Vec<Vec<(usize, Span)>>;

/// Walks declarations, resolving every name against locals and the top level.
pub(super) struct Resolver<'a> {
    /// The model's text, to find the closing bracket of a family reference.
    text: &'a str,
    decls: &'a [Decl],
    names: &'a HashMap<String, usize>,
    /// Local bindings, innermost last; scopes end by [`Resolver::end_scope`].
    locals: Vec<Local<'a>>,
    /// The declaration being walked.
    current: usize,
    /// Per declaration, every reference to a top-level declaration, in walk order.
    refs: RefSpans,
    errors: Vec<CheckError>,
    warnings: Vec<CheckError>,
    /// "Did you mean" searches made so far; see [`MAX_SEARCHES`].
    searches: usize,
}

/// After this many searches for a suggestion, undefined names get none: a generated
/// model can misspell a name thousands of times, and each search compares it with every
/// declaration.
const MAX_SEARCHES: usize = 100;

/// A local binding and whether anything read it.
struct Local<'a> {
    ident: &'a Ident,
    used: bool,
}

impl<'a> Resolver<'a> {
    pub(super) fn new(
        text: &'a str,
        decls: &'a [Decl],
        names: &'a HashMap<String, usize>,
    ) -> Resolver<'a> {
        Resolver {
            text,
            decls,
            names,
            locals: Vec::new(),
            current: 0,
            refs: vec![Vec::new(); decls.len()],
            errors: Vec::new(),
            warnings: Vec::new(),
            searches: 0,
        }
    }

    /// The references of each declaration, with spans, the errors and the warnings.
    pub(super) fn finish(self) -> (RefSpans, Vec<CheckError>, Vec<CheckError>) {
        (self.refs, self.errors, self.warnings)
    }

    /// Ends the bindings made since `mark`, warning about those nothing read: an
    /// unused loop variable is usually a typo or a missing index.
    fn end_scope(&mut self, mark: usize) {
        for l in self.locals.drain(mark..) {
            if l.used || l.ident.name.starts_with('_') {
                continue;
            }
            self.warnings.push(
                CheckError::new(
                    Mistake::UnusedBinding,
                    format!("unused binding `{}`", l.ident.name),
                    l.ident.span,
                    "bound here, never read",
                )
                .with_help(format!(
                    "write `_` (or `_{}`) instead if the value is not needed",
                    l.ident.name
                )),
            );
        }
    }

    /// Whether `name` is a local binding; marks the innermost one read.
    fn use_local(&mut self, name: &str) -> bool {
        match self.locals.iter_mut().rev().find(|l| l.ident.name == name) {
            Some(l) => {
                l.used = true;
                true
            }
            None => false,
        }
    }

    /// Whether one more search for a suggestion may run (and counts it).
    fn may_search(&mut self) -> bool {
        self.searches += 1;
        self.searches <= MAX_SEARCHES
    }

    pub(super) fn error(&mut self, e: CheckError) {
        self.errors.push(e);
    }

    /// Resolves everything in declaration `i`.
    pub(super) fn decl(&mut self, i: usize) {
        self.current = i;
        let decls = self.decls;
        match &decls[i] {
            Decl::Param(p) => {
                if let Some(ty) = &p.ty {
                    // The arguments (a grid's dimensions) are ordinary expressions over the
                    // top level; resolving them records the references that order
                    // evaluation.
                    for a in &ty.args {
                        self.expr(a);
                    }
                    if let Some(e) = types::check_type(ty) {
                        self.error(e);
                    }
                }
                if let Some(d) = &p.default {
                    self.expr(d);
                }
            }
            Decl::Let(l) => self.expr(&l.value),
            Decl::Fn(f) => {
                self.bind_all(f.params.iter(), "parameter");
                self.expr(&f.body);
            }
            Decl::Item(d) => {
                self.clauses(&d.clauses);
                self.exprs(&d.index);
                match &d.bounds {
                    Some(BoundsExpr::Exactly(e)) => self.expr(e),
                    Some(BoundsExpr::Range { lo, hi }) => {
                        self.expr(lo);
                        if let Some(hi) = hi {
                            self.expr(hi);
                        }
                    }
                    None => {}
                }
                if let Some(b) = &d.bounds
                    && d.class != ItemClass::Primary
                {
                    let span = match b {
                        BoundsExpr::Exactly(e) => e.span,
                        BoundsExpr::Range { lo, hi } => {
                            hi.as_ref().map_or(lo.span, |h| lo.span.to(h.span))
                        }
                    };
                    let class = if d.class == ItemClass::Colored {
                        "colored"
                    } else {
                        "secondary"
                    };
                    let e = CheckError::new(
                        Mistake::BoundsOnSecondary,
                        format!(
                            "`{}` is a {class} item family, so it cannot have a multiplicity",
                            d.name.name
                        ),
                        span,
                        "multiplicity given here",
                    )
                    .with_label(d.name.span, format!("declared as a {class} item here"))
                    .with_help(
                        "a secondary item is covered at most once (or, if colored, by any options \
                         that agree on its color); remove the bounds, or make the family primary \
                         (`item ...`), with `: 0..1` for \"at most once\""
                            .to_string(),
                    );
                    self.error(e);
                }
            }
            Decl::Option(d) => {
                self.clauses(&d.clauses);
                self.exprs(&d.index);
                for c in &d.covers {
                    self.cover(c);
                }
                if let Some(cost) = &d.cost {
                    self.expr(cost);
                }
                for p in &d.paints {
                    self.paint(p);
                }
            }
            Decl::Force(f) => {
                self.clauses(&f.clauses);
                self.exprs(&f.index);
                self.family(&f.family, &f.index, Family::Option);
            }
            Decl::Objective(_) => {}
            Decl::Canvas(p) => self.paint(p),
            Decl::Draw(d) => {
                if let Draw::Region(p) | Draw::Note(p) = &d.what {
                    self.paint(p);
                }
            }
            Decl::Assert(a) => {
                self.clauses(&a.clauses);
                self.expr(&a.cond);
                if let Some(m) = &a.message {
                    self.expr(m);
                }
            }
            Decl::Symmetry(d) => {
                for m in &d.maps {
                    self.symmetry_map(m);
                }
            }
        }
        self.end_scope(0);
    }

    /// `from[PATTERNS] -> to[INDEX] where COND`: both sides name item families with as
    /// many indices as declared; the pattern's names are visible on the right and in
    /// the filter.
    fn symmetry_map(&mut self, m: &'a SymmetryMap) {
        let mark = self.locals.len();
        let from_span = match m.pattern.last() {
            Some(last) => {
                let end = last.span().end as usize;
                let rest = self.text.get(end..).unwrap_or("");
                let trimmed = rest.trim_start();
                let close =
                    end + (rest.len() - trimmed.len()) + usize::from(trimmed.starts_with(']'));
                m.from.span.to(Span::new(end, close))
            }
            None => m.from.span,
        };
        self.family_n(&m.from, m.pattern.len(), from_span, Family::Symmetry);
        let mut names = Vec::new();
        for p in &m.pattern {
            match p {
                IndexPattern::Bind(pat) => pat.for_each_name(&mut |i| names.push(i)),
                IndexPattern::Literal(e) => self.expr(e),
            }
        }
        self.bind_all(names.into_iter(), "binding");
        self.exprs(&m.index);
        self.family(&m.to, &m.index, Family::Symmetry);
        if let Some(f) = &m.filter {
            self.expr(f);
        }
        self.end_scope(mark);
    }

    fn cover(&mut self, c: &'a CoverEntry) {
        let mark = self.locals.len();
        self.clauses(&c.clauses);
        self.exprs(&c.index);
        if let Some(color) = &c.color {
            self.expr(color);
        }
        if let Some(d) = self.family(&c.family, &c.index, Family::Item)
            && let (Decl::Item(item), Some(color)) = (&self.decls[d], &c.color)
            && item.class != ItemClass::Colored
        {
            let class = match item.class {
                ItemClass::Secondary => "secondary",
                _ => "primary",
            };
            let e = CheckError::new(
                Mistake::ColorOnUncolored,
                format!(
                    "`{}` is a {class} item family, so it cannot take a color",
                    item.name.name
                ),
                color.span,
                "color given here",
            )
            .with_label(item.name.span, format!("declared as a {class} item here"))
            .with_help(format!(
                "declare it `colored item {}[...]` so options that give it the same \
                         color can share it, or remove the `= ...`",
                item.name.name
            ));
            self.error(e);
        }
        self.end_scope(mark);
    }

    fn paint(&mut self, p: &'a Paint) {
        let mark = self.locals.len();
        self.clauses(&p.clauses);
        self.expr(&p.cell);
        self.expr(&p.value);
        self.end_scope(mark);
    }

    /// Checks that `name` is a family of the wanted kind taking as many indices as
    /// `index` has; the family's declaration if it is one.
    fn family(&mut self, name: &Ident, index: &[Expr], want: Family) -> Option<usize> {
        let span = self.reference_span(name, index);
        self.family_n(name, index.len(), span, want)
    }

    /// [`Resolver::family`] for a reference with `given` indices, written at `span`.
    fn family_n(&mut self, name: &Ident, given: usize, span: Span, want: Family) -> Option<usize> {
        let (kind, verb) = match want {
            Family::Item => ("item family", "covers"),
            Family::Option => ("option family", "force"),
            Family::Symmetry => ("item family", "symmetry"),
        };
        let found = self.names.get(&name.name).copied();
        let decl = found.filter(|&d| want.matches(&self.decls[d]));
        let Some(d) = decl else {
            let searching = self.may_search();
            let candidates: Vec<&str> = self
                .decls
                .iter()
                .filter(|d| want.matches(d))
                .filter_map(|d| d.name().map(|n| n.name.as_str()))
                // Past the searches, one candidate is enough to choose the help.
                .take(if searching { usize::MAX } else { 1 })
                .collect();
            let suggestion = if searching {
                suggest(&name.name, candidates.iter().copied())
            } else {
                None
            };
            let (message, label) = match found {
                Some(other) => (
                    format!(
                        "expected an {kind} after `{verb}`, found {} `{}`",
                        describe(&self.decls[other]),
                        name.name
                    ),
                    format!("not an {kind}"),
                ),
                None => (
                    format!("unknown {kind} `{}`", name.name),
                    format!("no {kind} of this name"),
                ),
            };
            let help = match suggestion {
                Some(s) => format!("did you mean `{s}`?"),
                None if candidates.is_empty() => {
                    format!(
                        "declare it: `{} {}[...] for ...`",
                        want.keyword(),
                        name.name
                    )
                }
                None => format!("the {} are {}", want.plural(), list_names(&candidates)),
            };
            let code = match want {
                Family::Item | Family::Symmetry => Mistake::UnknownItemFamily,
                Family::Option => Mistake::UnknownOptionFamily,
            };
            let mut e = CheckError::new(code, message, name.span, label).with_help(help);
            if let Some(other) = found {
                let n = self.decls[other]
                    .name()
                    .map_or(self.decls[other].span(), |n| n.span);
                e = e.with_label(n, "defined here");
            }
            self.error(e);
            return None;
        };
        self.refs[self.current].push((d, name.span));
        let (decl_name, decl_index) = match &self.decls[d] {
            Decl::Item(i) => (&i.name, &i.index),
            Decl::Option(o) => (&o.name, &o.index),
            _ => unreachable!("filtered to families above"),
        };
        if decl_index.len() != given {
            let e = CheckError::new(
                Mistake::IndexCount,
                format!(
                    "wrong number of indices for `{}`: expected {}, found {given}",
                    name.name,
                    decl_index.len()
                ),
                span,
                format!("{} given", plural(given, "index", "indices")),
            )
            .with_label(
                decl_name.span,
                format!(
                    "declared with {} here",
                    plural(decl_index.len(), "index", "indices")
                ),
            )
            .with_help(format!("write it as declared: `{}`", self.family_shape(d)));
            self.error(e);
        }
        Some(d)
    }

    /// The span of `name[index...]` up to its closing bracket: the index expressions'
    /// spans stop before it.
    fn reference_span(&self, name: &Ident, index: &[Expr]) -> Span {
        let Some(last) = index.last() else {
            return name.span;
        };
        let end = last.span.end as usize;
        let rest = self.text.get(end..).unwrap_or("");
        let trimmed = rest.trim_start();
        let close = match trimmed.starts_with(']') {
            true => end + (rest.len() - trimmed.len()) + 1,
            false => end,
        };
        name.span.to(Span::new(end, close))
    }

    /// A family as declared, `cell[r, c]`, for help lines.
    fn family_shape(&self, d: usize) -> String {
        let (name, index) = match &self.decls[d] {
            Decl::Item(i) => (&i.name, &i.index),
            Decl::Option(o) => (&o.name, &o.index),
            _ => return String::new(),
        };
        if index.is_empty() {
            return name.name.clone();
        }
        let args: Vec<String> = index.iter().map(expr_hint).collect();
        format!("{}[{}]", name.name, args.join(", "))
    }

    fn clauses(&mut self, clauses: &'a [Clause]) {
        for c in clauses {
            match c {
                Clause::For { pat, iter, .. } => {
                    self.expr(iter);
                    self.bind(pat);
                }
                Clause::Let { pat, value, .. } => {
                    self.expr(value);
                    self.bind(pat);
                }
                Clause::Where(e) => self.expr(e),
            }
        }
    }

    fn bind(&mut self, pat: &'a Pattern) {
        let mut names = Vec::new();
        pat.for_each_name(&mut |i| names.push(i));
        self.bind_all(names.into_iter(), "binding");
    }

    /// Binds names that are introduced together; the same name twice among them is an
    /// error, because only one of the two could ever be read.
    fn bind_all(&mut self, names: impl Iterator<Item = &'a Ident>, what: &str) {
        // A set, not a scan of the names bound so far: a tuple or a parameter list
        // may be long.
        let mut seen: HashMap<&str, &Ident> = HashMap::new();
        for n in names {
            if n.name == "_" {
                continue;
            }
            if let Some(&first) = seen.get(n.name.as_str()) {
                let e = CheckError::new(
                    Mistake::DuplicateDefinition,
                    format!("duplicate {what} `{}`", n.name),
                    n.span,
                    format!("`{}` bound again here", n.name),
                )
                .with_label(first.span, "first bound here")
                .with_help("give each a different name, or write `_` for a value you do not need");
                self.error(e);
                continue;
            }
            seen.insert(n.name.as_str(), n);
            self.locals.push(Local {
                ident: n,
                used: false,
            });
        }
    }

    fn exprs(&mut self, es: &'a [Expr]) {
        for e in es {
            self.expr(e);
        }
    }

    pub(super) fn expr(&mut self, e: &'a Expr) {
        match &e.kind {
            ExprKind::Name(id) => self.name(id),
            ExprKind::ListComp { elem, clauses } | ExprKind::SetComp { elem, clauses } => {
                let mark = self.locals.len();
                self.clauses(clauses);
                self.expr(elem);
                self.end_scope(mark);
            }
            ExprKind::MapComp {
                key,
                value,
                clauses,
            } => {
                let mark = self.locals.len();
                self.clauses(clauses);
                self.expr(key);
                self.expr(value);
                self.end_scope(mark);
            }
            ExprKind::Call { func, args } => {
                self.call(func, args.len(), e.span);
                self.exprs(args);
            }
            // Everything else only holds expressions to resolve in the same scope.
            _ => e.for_each_child(&mut |c| self.expr(c)),
        }
    }

    /// A name used as a value.
    fn name(&mut self, id: &Ident) {
        if self.use_local(&id.name) {
            return;
        }
        let decls = self.decls;
        if let Some(&d) = self.names.get(&id.name) {
            let (label, help) = match &decls[d] {
                Decl::Param(_) | Decl::Let(_) => {
                    self.refs[self.current].push((d, id.span));
                    return;
                }
                Decl::Fn(f) => (
                    "a function, not a value",
                    format!("call it: `{}({})`", f.name.name, idents(&f.params)),
                ),
                Decl::Item(_) | Decl::Option(_) => (
                    "a family, not a value",
                    "families are not values; to use their indices, put the collection in a \
                     `let` and use that both in the family's `for` and here"
                        .to_string(),
                ),
                Decl::Force(_)
                | Decl::Objective(_)
                | Decl::Canvas(_)
                | Decl::Draw(_)
                | Decl::Assert(_)
                | Decl::Symmetry(_) => {
                    unreachable!("they define no name")
                }
            };
            let e = CheckError::new(
                Mistake::NotAValue,
                format!(
                    "expected a value, found {} `{}`",
                    describe(&decls[d]),
                    id.name
                ),
                id.span,
                label,
            )
            .with_help(help);
            self.error(e);
            return;
        }
        if builtins::signature(&id.name).is_some() {
            let e = CheckError::new(
                Mistake::NotAValue,
                format!("expected a value, found the builtin function `{}`", id.name),
                id.span,
                "a function, not a value",
            )
            .with_help(format!("call it: `{}(...)`", id.name));
            self.error(e);
            return;
        }
        let suggestion = if self.may_search() {
            let mut candidates: Vec<&str> =
                self.locals.iter().map(|l| l.ident.name.as_str()).collect();
            candidates.extend(
                decls
                    .iter()
                    .filter(|d| matches!(d, Decl::Param(_) | Decl::Let(_)))
                    .filter_map(|d| d.name().map(|n| n.name.as_str())),
            );
            suggest(&id.name, candidates)
        } else {
            None
        };
        let help = match suggestion {
            Some(s) => format!("did you mean `{s}`?"),
            None => match &decls[self.current] {
                Decl::Fn(f) => format!(
                    "define it: `let {0} = ...` for a value, `param {0}` for an input, or add \
                     `{0}` to the parameters of `{1}`",
                    id.name, f.name.name
                ),
                _ => format!(
                    "define it: `let {0} = ...` for a value, or `param {0}` for an input",
                    id.name
                ),
            },
        };
        let e = CheckError::new(
            Mistake::UndefinedName,
            format!("undefined name `{}`", id.name),
            id.span,
            "not defined",
        )
        .with_help(help);
        self.error(e);
    }

    /// A call `func(...)` with `given` arguments.
    fn call(&mut self, func: &Ident, given: usize, span: Span) {
        let decls = self.decls;
        let found = self.names.get(&func.name).copied();
        if let Some(d) = found
            && let Decl::Fn(f) = &decls[d]
        {
            self.refs[self.current].push((d, func.span));
            if f.params.len() != given {
                let e = CheckError::new(
                    Mistake::ArgumentCount,
                    format!(
                        "wrong number of arguments to `{}`: expected {}, found {given}",
                        f.name.name,
                        f.params.len()
                    ),
                    span,
                    format!("{} given", plural(given, "argument", "arguments")),
                )
                .with_label(
                    f.name.span,
                    format!(
                        "`{}` defined here with {}",
                        f.name.name,
                        plural(f.params.len(), "parameter", "parameters")
                    ),
                )
                .with_help(format!(
                    "call it as `{}({})`",
                    f.name.name,
                    idents(&f.params)
                ));
                self.error(e);
            }
            return;
        }
        if let Some((lo, hi, doc)) = builtins::signature(&func.name) {
            if given < lo || given > hi {
                let expected = if lo == hi {
                    lo.to_string()
                } else if hi == usize::MAX {
                    format!("at least {lo}")
                } else {
                    format!("{lo} to {hi}")
                };
                let e = CheckError::new(
                    Mistake::ArgumentCount,
                    format!(
                        "wrong number of arguments to `{}`: expected {expected}, found {given}",
                        func.name
                    ),
                    span,
                    format!("{} given", plural(given, "argument", "arguments")),
                )
                .with_help(format!("`{}` takes {expected}: {doc}", func.name));
                self.error(e);
            }
            return;
        }
        let local = self.use_local(&func.name);
        if local || found.is_some() {
            let what = match found {
                Some(d) if !local => describe(&decls[d]),
                _ => "a local binding",
            };
            let mut e = CheckError::new(
                Mistake::NotAFunction,
                format!("expected a function, found {what} `{}`", func.name),
                func.span,
                "not a function",
            );
            e = match found.map(|d| &decls[d]) {
                Some(Decl::Item(_) | Decl::Option(_)) if what != "a local binding" => e.with_help(
                    "families are not called; name an item in `covers fam[...]` or an option \
                     in `force fam[...]`",
                ),
                _ => e.with_help(format!(
                    "`{0}` is a value: index it with `{0}[...]`, or define a function with \
                     `fn name(x) = ...`",
                    func.name
                )),
            };
            self.error(e);
            return;
        }
        let suggestion = if self.may_search() {
            let mut candidates: Vec<&str> = decls
                .iter()
                .filter(|d| matches!(d, Decl::Fn(_)))
                .filter_map(|d| d.name().map(|n| n.name.as_str()))
                .collect();
            candidates.extend(builtins::SIGNATURES.iter().map(|s| s.0));
            suggest(&func.name, candidates)
        } else {
            None
        };
        let help = match suggestion {
            Some(s) => format!("did you mean `{s}`?"),
            None => format!("define it: `fn {}(x) = ...`", func.name),
        };
        let e = CheckError::new(
            Mistake::UnknownFunction,
            format!("unknown function `{}`", func.name),
            func.span,
            "no function of this name",
        )
        .with_help(help);
        self.error(e);
    }
}

/// Which kind of family a `covers`, `force` or `symmetry` needs.
#[derive(Clone, Copy)]
enum Family {
    Item,
    Option,
    /// An item family, on either side of a symmetry map.
    Symmetry,
}

impl Family {
    fn matches(self, d: &Decl) -> bool {
        matches!(
            (self, d),
            (Family::Item | Family::Symmetry, Decl::Item(_)) | (Family::Option, Decl::Option(_))
        )
    }

    fn plural(self) -> &'static str {
        match self {
            Family::Item | Family::Symmetry => "item families",
            Family::Option => "option families",
        }
    }

    fn keyword(self) -> &'static str {
        match self {
            Family::Item | Family::Symmetry => "item",
            Family::Option => "option",
        }
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn idents(ids: &[Ident]) -> String {
    ids.iter()
        .map(|i| i.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A short rendering of an index expression for help lines: names as written,
/// anything else as `_`.
fn expr_hint(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Name(i) => i.name.clone(),
        ExprKind::Int(n) => n.to_string(),
        _ => "_".to_string(),
    }
}

/// [`did_you_mean`], except that a one-letter name is only matched to the same letter
/// in the other case: `n` for `N` is a likely slip, `r` for `n` is a guess.
pub(super) fn suggest<'c>(
    name: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let one_letter = name.chars().count() == 1;
    let candidates = candidates
        .into_iter()
        .filter(|c| !one_letter || c.eq_ignore_ascii_case(name));
    did_you_mean(name, candidates)
}
