//! From text to [`super::ast::Model`]: pest parses with `grammar/dlx.pest`, then one function
//! per grammar rule builds the typed tree, and a Pratt parser resolves operators.
//!
//! pest stops at the first syntax error, so at most one of those is reported. Mistakes
//! found while the tree is built (bad escapes, integers too large, `maximize count`,
//! chained comparisons, options without `covers`) are all collected, and the parse
//! fails if there is any.

use std::cell::RefCell;

use pest::Parser as _;
use pest::iterators::{Pair, Pairs};

use super::ast::*;
use super::errors::{self, SyntaxError};
use super::grammar::{DlxParser, MAX_CLAUSES, MAX_DEPTH, Rule};
use crate::diag::Diagnostics;
use crate::source::{SourceFile, Span};

/// Parses a whole model.
///
/// On failure the diagnostics hold the first syntax error pest found, or every mistake
/// found while building the tree.
pub fn parse(src: &SourceFile) -> Result<Model, Diagnostics> {
    let pairs = run_pest(src, Rule::model)?;
    let b = Builder::new(src);
    let model = pairs
        .into_iter()
        .next()
        .map(|p| b.model(p))
        .unwrap_or_else(|| Model {
            decls: Vec::new(),
            span: Span::new(0, src.text().len()),
        });
    b.finish(model)
}

/// Parses a single expression that is the whole input, such as the value of
/// `-p missing={3,12}` on the command line.
pub fn parse_expr(src: &SourceFile) -> Result<Expr, Diagnostics> {
    let pairs = run_pest(src, Rule::expr_input)?;
    let b = Builder::new(src);
    let expr = pairs
        .into_iter()
        .next()
        .and_then(|p| p.into_inner().find(|q| q.as_rule() == Rule::expr))
        .map(|p| b.expr(p));
    match expr {
        Some(e) => b.finish(e),
        // The grammar guarantees an expression; this only keeps the function total.
        None => Err(Diagnostics::new()),
    }
}

/// Runs pest after checking the bracket depth, turning its error into a diagnostic.
fn run_pest(src: &SourceFile, rule: Rule) -> Result<Pairs<'_, Rule>, Diagnostics> {
    match nesting(src.text()) {
        Some(Deep::Bracket(at)) => {
            return Err(one(SyntaxError::TooDeep {
                src: src.named(),
                at: at.into(),
                limit: MAX_DEPTH,
            }));
        }
        Some(Deep::Nesting(at)) => {
            return Err(one(SyntaxError::TooComplex {
                src: src.named(),
                at: at.into(),
                limit: MAX_NESTING,
            }));
        }
        None => {}
    }
    DlxParser::parse(rule, src.text()).map_err(|e| one(errors::from_pest(src, e)))
}

fn one(e: SyntaxError) -> Diagnostics {
    let mut d = Diagnostics::new();
    d.push(e);
    d
}

/// How deep the tree of one expression may grow, as [`nesting`] estimates it: brackets,
/// `if`s and operators along a path from the root. The checker and the evaluator walk
/// the tree recursively, so this bounds their stack; a sum of 500 terms still fits.
pub(crate) const MAX_NESTING: usize = 512;

/// What [`nesting`] found too deep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Deep {
    /// A bracket past [`MAX_DEPTH`].
    Bracket(Span),
    /// A token past [`MAX_NESTING`].
    Nesting(Span),
}

/// The first place where the text nests deeper than the parser allows, found in one
/// linear pass before pest runs (pest and the tree builder recurse once per level).
///
/// The estimate is conservative: in each open bracket every operator, `if`, `and`, `or`,
/// `not` and `in` since the last comma or clause keyword counts as a level, because a
/// chain of `k` operators builds a tree `k` deep. Strings and comments are skipped
/// (roughly: a miscount there only changes which error is reported).
fn nesting(text: &str) -> Option<Deep> {
    // The other reserved words begin a declaration or a clause, and start a new count.
    const LEVEL: &[&str] = &["if", "and", "or", "not", "in"];
    const NEUTRAL: &[&str] = &["true", "false", "then", "else"];
    let bytes = text.as_bytes();
    // One frame per open bracket (the first is the top level): the levels counted in it.
    let mut frames: Vec<usize> = vec![0];
    let mut total = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        let mut add = 0;
        match b {
            b'(' | b'[' | b'{' => {
                if frames.len() > MAX_DEPTH {
                    return Some(Deep::Bracket(Span::new(i, i + 1)));
                }
                frames.push(1);
                total += 1;
                i += 1;
            }
            b')' | b']' | b'}' => {
                if frames.len() > 1 {
                    total -= frames.pop().unwrap_or(0);
                }
                i += 1;
            }
            b',' => {
                restart(&mut frames, &mut total);
                i += 1;
            }
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' if bytes[i..].starts_with(b"\"\"\"") => {
                i += 3;
                while i < bytes.len() && !bytes[i..].starts_with(b"\"\"\"") {
                    i += 1;
                }
                i += 3;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && !matches!(bytes[i], b'"' | b'\n') {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'+' | b'-' | b'*' | b'/' | b'%' | b'|' | b'&' | b'<' | b'>' | b'=' | b'!' | b'.'
            | b':' => {
                // A run such as `..=` or `==` is one operator; each `-` may be a prefix.
                let mut minus = 0;
                while i < bytes.len() && b"+-*/%|&<>=!.:".contains(&bytes[i]) {
                    minus += usize::from(bytes[i] == b'-');
                    i += 1;
                }
                add = 1 + minus;
            }
            _ if b.is_ascii_alphabetic() || b == b'_' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let word = &text[start..i];
                if LEVEL.contains(&word) {
                    add = 1;
                } else if errors::RESERVED.contains(&word) && !NEUTRAL.contains(&word) {
                    restart(&mut frames, &mut total);
                }
            }
            _ => i += 1,
        }
        if add > 0 {
            *frames.last_mut().expect("the top level is never popped") += add;
            total += add;
            if total > MAX_NESTING {
                return Some(Deep::Nesting(Span::new(start, i.min(bytes.len()))));
            }
        }
    }
    None
}

/// A comma or a keyword starts a new count in the innermost frame: only its bracket
/// stays counted (the top level has none).
fn restart(frames: &mut [usize], total: &mut usize) {
    let keep = usize::from(frames.len() > 1);
    if let Some(top) = frames.last_mut() {
        *total -= *top - keep;
        *top = keep;
    }
}

/// The span of a pair, without trailing whitespace.
///
/// pest skips whitespace before trying an optional part (`1.. ` in `: 1..` tries an
/// upper bound), and keeps it in the pair when the part is absent; the end of the last
/// token inside is where the written text really stops.
pub(super) fn span(p: &Pair<'_, Rule>) -> Span {
    Span::new(p.as_span().start(), end_of(p))
}

fn end_of(p: &Pair<'_, Rule>) -> usize {
    // `next_back`, not `last`: one step, not a walk over every child (a long chain
    // made this quadratic).
    match p.clone().into_inner().next_back() {
        Some(q) => end_of(&q),
        None => p.as_span().end(),
    }
}

/// Whether a rule is punctuation or a keyword: kept in the tree for error messages,
/// skipped when building.
fn is_token(rule: Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        lparen
            | rparen
            | lbrack
            | rbrack
            | lbrace
            | rbrace
            | comma
            | colon
            | assign
            | EOI
            | kw_param
            | kw_let
            | kw_fn
            | kw_item
            | kw_option
            | kw_force
            | kw_for
            | kw_in
            | kw_where
            | kw_covers
            | kw_cost
            | kw_paint
            | kw_canvas
            | kw_draw
            | kw_cells
            | kw_region
            | kw_note
            | kw_assert
            | kw_symmetry
            | arrow
            | kw_if
            | kw_then
            | kw_else
    )
}

/// The children of a pair that carry meaning.
pub(super) fn kids<'i>(p: Pair<'i, Rule>) -> impl Iterator<Item = Pair<'i, Rule>> {
    p.into_inner().filter(|q| !is_token(q.as_rule()))
}

/// The tree builder: one method per grammar rule. Errors are collected in a `RefCell`
/// because the Pratt parser's callbacks all need the builder at once.
pub(super) struct Builder<'s> {
    pub(super) src: &'s SourceFile,
    errors: RefCell<Vec<SyntaxError>>,
    /// Literals `9223372036854775808` not yet known to be the operand of a `-` (which
    /// makes them `i64::MIN`); the ones left at the end of an expression are errors.
    pub(super) min_literals: RefCell<Vec<Span>>,
}

impl<'s> Builder<'s> {
    fn new(src: &'s SourceFile) -> Builder<'s> {
        Builder {
            src,
            errors: RefCell::new(Vec::new()),
            min_literals: RefCell::new(Vec::new()),
        }
    }

    pub(super) fn error(&self, e: SyntaxError) {
        self.errors.borrow_mut().push(e);
    }

    fn finish<T>(self, value: T) -> Result<T, Diagnostics> {
        let errors = self.errors.into_inner();
        if errors.is_empty() {
            return Ok(value);
        }
        let mut d = Diagnostics::new();
        for e in errors {
            d.push(e);
        }
        Err(d)
    }

    fn model(&self, p: Pair<'_, Rule>) -> Model {
        let decls = kids(p).map(|d| self.decl(d)).collect();
        Model {
            decls,
            span: Span::new(0, self.src.text().len()),
        }
    }

    fn decl(&self, p: Pair<'_, Rule>) -> Decl {
        let p = first(p);
        match p.as_rule() {
            Rule::param_decl => Decl::Param(self.param_decl(p)),
            Rule::let_decl => Decl::Let(self.let_decl(p)),
            Rule::fn_decl => Decl::Fn(self.fn_decl(p)),
            Rule::item_decl => Decl::Item(self.item_decl(p)),
            Rule::option_decl => Decl::Option(self.option_decl(p)),
            Rule::force_decl => Decl::Force(self.force_decl(p)),
            Rule::canvas_decl => Decl::Canvas(self.paint(p)),
            Rule::draw_decl => Decl::Draw(self.draw_decl(p)),
            Rule::assert_decl => Decl::Assert(self.assert_decl(p)),
            Rule::symmetry_decl => Decl::Symmetry(self.symmetry_decl(p)),
            _ => Decl::Objective(self.objective(p)),
        }
    }

    pub(super) fn ident(&self, p: Pair<'_, Rule>) -> Ident {
        Ident {
            name: p.as_str().to_string(),
            span: span(&p),
        }
    }

    fn param_decl(&self, p: Pair<'_, Rule>) -> ParamDecl {
        let sp = span(&p);
        let mut it = kids(p);
        let name = self.ident(it.next().expect("grammar: param name"));
        let (mut ty, mut default) = (None, None);
        for q in it {
            match q.as_rule() {
                Rule::type_expr => ty = Some(self.type_expr(q)),
                _ => default = Some(self.expr(q)),
            }
        }
        ParamDecl {
            name,
            ty,
            default,
            span: sp,
        }
    }

    fn type_expr(&self, p: Pair<'_, Rule>) -> TypeExpr {
        let sp = span(&p);
        let mut it = kids(p);
        let name = self.ident(it.next().expect("grammar: type name"));
        let args = it.next().map(|q| self.index_list(q)).unwrap_or_default();
        TypeExpr {
            name,
            args,
            span: sp,
        }
    }

    fn let_decl(&self, p: Pair<'_, Rule>) -> LetDecl {
        let sp = span(&p);
        let mut it = kids(p);
        let name = self.ident(it.next().expect("grammar: let name"));
        let value = self.expr(it.next().expect("grammar: let value"));
        LetDecl {
            name,
            value,
            span: sp,
        }
    }

    fn fn_decl(&self, p: Pair<'_, Rule>) -> FnDecl {
        let sp = span(&p);
        let mut it = kids(p);
        let name = self.ident(it.next().expect("grammar: fn name"));
        let params = kids(it.next().expect("grammar: fn params"))
            .map(|q| self.ident(q))
            .collect();
        let body = self.expr(it.next().expect("grammar: fn body"));
        FnDecl {
            name,
            params,
            body,
            span: sp,
        }
    }

    fn item_decl(&self, p: Pair<'_, Rule>) -> ItemDecl {
        let sp = span(&p);
        let mut class = ItemClass::Primary;
        let mut name = None;
        let (mut index, mut clauses, mut bounds) = (Vec::new(), Vec::new(), None);
        for q in kids(p) {
            match q.as_rule() {
                Rule::item_class => {
                    class = match first(q).as_rule() {
                        Rule::kw_secondary => ItemClass::Secondary,
                        _ => ItemClass::Colored,
                    }
                }
                Rule::ident => name = Some(self.ident(q)),
                Rule::index_list => index = self.index_list(q),
                Rule::clauses => clauses = self.clauses(q),
                _ => bounds = Some(self.bounds(q)),
            }
        }
        ItemDecl {
            class,
            name: name.expect("grammar: item name"),
            index,
            clauses,
            bounds,
            span: sp,
        }
    }

    fn bounds(&self, p: Pair<'_, Rule>) -> BoundsExpr {
        let mut it = kids(p);
        let lo = self.bound_expr(it.next().expect("grammar: lower bound"));
        let Some(op) = it.next() else {
            return BoundsExpr::Exactly(lo);
        };
        if op.as_rule() == Rule::op_range_incl {
            self.error(SyntaxError::InclusiveBounds {
                src: self.src.named(),
                at: span(&op).into(),
            });
        }
        let hi = it.next().map(|q| self.bound_expr(q));
        BoundsExpr::Range { lo, hi }
    }

    fn option_decl(&self, p: Pair<'_, Rule>) -> OptionDecl {
        let sp = span(&p);
        let mut name = None;
        let (mut index, mut clauses, mut covers) = (Vec::new(), Vec::new(), None);
        let (mut cost, mut paints) = (None, Vec::new());
        for q in kids(p) {
            match q.as_rule() {
                Rule::ident => name = Some(self.ident(q)),
                Rule::index_list => index = self.index_list(q),
                Rule::clauses => clauses = self.clauses(q),
                Rule::covers => covers = Some(self.covers(q)),
                Rule::cost => cost = kids(q).next().map(|e| self.expr(e)),
                _ => paints.push(self.paint(q)),
            }
        }
        let name: Ident = name.expect("grammar: option name");
        if covers.is_none() {
            self.error(SyntaxError::OptionWithoutCovers {
                src: self.src.named(),
                at: name.span.into(),
                name: name.name.clone(),
            });
        }
        OptionDecl {
            name,
            index,
            clauses,
            covers: covers.unwrap_or_default(),
            cost,
            paints,
            span: sp,
        }
    }

    fn covers(&self, p: Pair<'_, Rule>) -> Vec<CoverEntry> {
        let sp = span(&p);
        let entries: Vec<CoverEntry> = kids(p).map(|q| self.cover_entry(q)).collect();
        if entries.is_empty() {
            self.error(SyntaxError::EmptyCovers {
                src: self.src.named(),
                at: sp.into(),
            });
        }
        entries
    }

    fn cover_entry(&self, p: Pair<'_, Rule>) -> CoverEntry {
        let sp = span(&p);
        let mut it = kids(p);
        let family = self.ident(it.next().expect("grammar: cover family"));
        let (mut index, mut color, mut clauses) = (Vec::new(), None, Vec::new());
        let mut guard = false;
        for q in it {
            match q.as_rule() {
                Rule::index_list => index = self.index_list(q),
                Rule::clauses => clauses = self.clauses(q),
                // `x[v] if COND` is `x[v] where COND`, written as meant.
                Rule::entry_if => {
                    let e = kids(q).next().expect("grammar: the condition of `if`");
                    clauses.push(Clause::Where(self.expr(e)));
                    guard = true;
                }
                _ => color = Some(self.expr(q)),
            }
        }
        CoverEntry {
            family,
            index,
            color,
            clauses,
            guard,
            span: sp,
        }
    }

    fn paint(&self, p: Pair<'_, Rule>) -> Paint {
        let sp = span(&p);
        let mut it = kids(p);
        let cell = self.expr(it.next().expect("grammar: paint cell"));
        let value = self.expr(it.next().expect("grammar: paint value"));
        let clauses = it.next().map(|q| self.clauses(q)).unwrap_or_default();
        Paint {
            cell,
            value,
            clauses,
            span: sp,
        }
    }

    fn draw_decl(&self, p: Pair<'_, Rule>) -> DrawDecl {
        let sp = span(&p);
        let q = kids(p).next().expect("grammar: draw setting");
        let what = match q.as_rule() {
            Rule::draw_cells => {
                let shape = kids(q).next().expect("grammar: cell shape");
                Draw::Cells(shape.as_str().to_string(), span(&shape))
            }
            Rule::draw_note => Draw::Note(self.paint(q)),
            _ => Draw::Region(self.paint(q)),
        };
        DrawDecl { what, span: sp }
    }

    fn assert_decl(&self, p: Pair<'_, Rule>) -> AssertDecl {
        let sp = span(&p);
        let mut it = kids(p);
        let cond = self.expr(it.next().expect("grammar: assert condition"));
        let mut clauses = Vec::new();
        let mut message = None;
        for q in it {
            match q.as_rule() {
                Rule::clauses => clauses = self.clauses(q),
                Rule::kw_else => {}
                _ => message = Some(self.expr(q)),
            }
        }
        AssertDecl {
            cond,
            clauses,
            message,
            span: sp,
        }
    }

    fn force_decl(&self, p: Pair<'_, Rule>) -> ForceDecl {
        let sp = span(&p);
        let mut it = kids(p);
        let family = self.ident(it.next().expect("grammar: force family"));
        let (mut index, mut clauses) = (Vec::new(), Vec::new());
        for q in it {
            match q.as_rule() {
                Rule::index_list => index = self.index_list(q),
                _ => clauses = self.clauses(q),
            }
        }
        ForceDecl {
            family,
            index,
            clauses,
            span: sp,
        }
    }

    fn symmetry_decl(&self, p: Pair<'_, Rule>) -> SymmetryDecl {
        let sp = span(&p);
        let maps = kids(p).map(|q| self.symmetry_map(q)).collect();
        SymmetryDecl { maps, span: sp }
    }

    fn symmetry_map(&self, p: Pair<'_, Rule>) -> SymmetryMap {
        let sp = span(&p);
        let mut it = kids(p);
        let from = self.ident(it.next().expect("grammar: symmetry family"));
        let (mut pattern, mut to, mut index, mut filter) = (Vec::new(), None, Vec::new(), None);
        for q in it {
            match q.as_rule() {
                Rule::symmetry_from => {
                    pattern = kids(q)
                        .map(|c| {
                            let c = first(c);
                            match c.as_rule() {
                                Rule::pattern => IndexPattern::Bind(self.pattern(c)),
                                _ => IndexPattern::Literal(self.primary(c)),
                            }
                        })
                        .collect();
                }
                Rule::ident => to = Some(self.ident(q)),
                Rule::index_list => index = self.index_list(q),
                _ => filter = kids(q).next().map(|e| self.expr(e)),
            }
        }
        SymmetryMap {
            from,
            pattern,
            to: to.expect("grammar: symmetry image family"),
            index,
            filter,
            span: sp,
        }
    }

    fn objective(&self, p: Pair<'_, Rule>) -> ObjectiveDecl {
        let sp = span(&p);
        let mut it = p.into_inner();
        let maximize = it.next().is_some_and(|q| q.as_rule() == Rule::kw_maximize);
        let count = it
            .next()
            .is_some_and(|q| first(q).as_rule() == Rule::kw_count);
        let kind = match (maximize, count) {
            (false, true) => ObjectiveKind::MinimizeCount,
            (false, false) => ObjectiveKind::MinimizeCost,
            (true, false) => ObjectiveKind::MaximizeCost,
            (true, true) => {
                self.error(SyntaxError::MaximizeCount {
                    src: self.src.named(),
                    at: sp.into(),
                });
                ObjectiveKind::MinimizeCount
            }
        };
        ObjectiveDecl { kind, span: sp }
    }

    fn index_list(&self, p: Pair<'_, Rule>) -> Vec<Expr> {
        kids(p).map(|q| self.expr(q)).collect()
    }

    /// Whether `out` is full: reports the clause `q` that would go past
    /// [`MAX_CLAUSES`].
    fn too_many_clauses(&self, out: &[Clause], q: &Pair<'_, Rule>) -> bool {
        if out.len() < MAX_CLAUSES {
            return false;
        }
        // Each clause nests the next one's loop, and each binding is looked up among
        // those before it: thousands of clauses cost stack and quadratic time.
        self.error(SyntaxError::TooManyClauses {
            src: self.src.named(),
            at: span(q).into(),
            limit: MAX_CLAUSES,
        });
        true
    }

    pub(super) fn clauses(&self, p: Pair<'_, Rule>) -> Vec<Clause> {
        let mut out = Vec::new();
        for q in kids(p) {
            if q.as_rule() != Rule::for_clause && self.too_many_clauses(&out, &q) {
                break;
            }
            match q.as_rule() {
                Rule::for_clause => {
                    // Each generator of `for a in A, b in B` is a clause of its own: one
                    // `for` of 48,000 generators passed the count, made between `for`s,
                    // and took 6 s to check.
                    for g in kids(q) {
                        if self.too_many_clauses(&out, &g) {
                            return out;
                        }
                        let sp = span(&g);
                        let mut it = kids(g);
                        let pat = self.pattern(it.next().expect("grammar: pattern"));
                        let iter = self.expr(it.next().expect("grammar: iterable"));
                        out.push(Clause::For {
                            pat,
                            iter,
                            span: sp,
                        });
                    }
                }
                Rule::where_clause => {
                    if let Some(e) = kids(q).next() {
                        out.push(Clause::Where(self.expr(e)));
                    }
                }
                _ => {
                    let sp = span(&q);
                    let mut it = kids(q);
                    let pat = self.pattern(it.next().expect("grammar: pattern"));
                    let value = self.expr(it.next().expect("grammar: let value"));
                    out.push(Clause::Let {
                        pat,
                        value,
                        span: sp,
                    });
                }
            }
        }
        out
    }

    fn pattern(&self, p: Pair<'_, Rule>) -> Pattern {
        let p = first(p);
        match p.as_rule() {
            Rule::wildcard => Pattern::Wildcard(span(&p)),
            Rule::ident => Pattern::Name(self.ident(p)),
            _ => {
                let sp = span(&p);
                let comma = p.clone().into_inner().any(|q| q.as_rule() == Rule::comma);
                let mut pats: Vec<Pattern> = kids(p).map(|q| self.pattern(q)).collect();
                // `(x)` is just `x`, as in expressions; `(x,)` is a one-element tuple.
                match (pats.pop(), comma) {
                    (Some(only), false) if pats.is_empty() => only,
                    (last, _) => {
                        pats.extend(last);
                        Pattern::Tuple(pats, sp)
                    }
                }
            }
        }
    }
}

/// The only child of a wrapper rule such as `decl` or `expr`.
pub(super) fn first(p: Pair<'_, Rule>) -> Pair<'_, Rule> {
    let sp = p.clone();
    p.into_inner().next().unwrap_or(sp)
}

#[cfg(test)]
#[path = "parser_tests.rs"]
mod tests;
