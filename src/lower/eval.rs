//! The expression evaluator.
//!
//! A tree-walking interpreter over the checked AST. Its state is the model's top-level
//! values, computed on first use and cached ([`Env::globals`]), and a stack of local
//! bindings (loop variables, clause lets, function parameters), searched from the top.
//!
//! Every error is a [`Report`] that points at the expression that failed and names the
//! local bindings in scope at the time ("in scope: r = 9, c = 3"), so that a failure in
//! the 700th iteration of a comprehension says which one it was.
//!
//! The checker has already rejected undefined names, wrong arities, cycles and
//! recursion; the evaluator still fails cleanly (never panics) if handed a model that
//! skipped it.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::diag::Code;
use crate::diag::report::Report;
use crate::lower::budget;
use crate::lower::builtins;
use crate::lower::data::{self, ParamType};
use crate::lower::ops::IndexFault;
use crate::lower::value::Value;
use crate::source::{SourceFile, Span};
use crate::syntax::ast::{BinaryOp, Clause, Decl, Expr, ExprKind, Ident, Model, Pattern, UnaryOp};

/// An evaluation error: a boxed report (reports are large; errors are rare).
pub type EvalError = Box<Report>;

/// Result of evaluation.
pub type EvalResult<T> = Result<T, EvalError>;

/// How deep user functions may call each other. The checker rejects recursion, so only
/// an absurdly long chain of distinct functions could reach this.
const MAX_CALL_DEPTH: usize = 256;

/// How deep the evaluator may recurse: compound expressions inside each other, through
/// function calls and definitions computed on first use. The parser bounds one
/// expression (see `syntax::parser::MAX_NESTING`), but a chain of functions or `let`s
/// each using the next stacks them; this keeps the sum well inside the main thread's
/// stack.
const MAX_EVAL_DEPTH: usize = 2_000;

/// Whether two names are the same; loop variables are short and mostly differ in
/// length or first letter, which is decided here without a call to `memcmp`.
#[inline]
fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
}

/// The state of one top-level value.
#[derive(Clone, Debug)]
enum Slot {
    /// Not computed yet.
    Pending,
    /// Being computed (seeing this again means a cycle the checker missed).
    InProgress,
    /// Computed.
    Done(Value),
}

/// The evaluation environment of one model.
#[derive(Clone)]
pub struct Env<'m> {
    /// The model file, for reports.
    pub src: SourceFile,
    model: &'m Model,
    /// Top-level declaration index by name.
    names: FxHashMap<&'m str, usize>,
    /// Top-level declaration index by the address of a name as written in the model:
    /// filled on first use, so that a name read 81 times per data record is hashed
    /// as one pointer, not as a string compared byte by byte.
    resolved: FxHashMap<usize, usize>,
    /// One slot per declaration; only params and lets use theirs.
    globals: Vec<Slot>,
    /// Parameter values given from outside (`-p`, a data record), by name.
    params: HashMap<String, Value>,
    /// Local bindings, innermost last.
    locals: Vec<(&'m str, Value)>,
    call_depth: usize,
    /// Compound expressions being evaluated, nested (see [`MAX_EVAL_DEPTH`]).
    eval_depth: usize,
    /// Declared parameter types by name; defaults are converted to them on first use.
    param_types: HashMap<String, ParamType>,
    /// Largest collection a comprehension may build.
    pub size_limit: usize,
    /// Bindings tried (kept or filtered out by a `where`) since the outermost
    /// [`Env::for_each`] began: by one family, force, assertion or comprehension with
    /// everything it evaluates. See [`Env::step_limit`].
    steps: usize,
    /// [`Env::for_each`] calls under way; the outermost starts a new count of `steps`.
    open_loops: usize,
    /// How many bindings the loops around the body being run were expected to make
    /// (the product of their lengths): what a family may reserve room for.
    planned: u128,
    /// The values of user functions by declaration index and arguments: functions are
    /// pure, so a call inside an option loop (`possible(cages[r][c])` for each of 729
    /// placements) is evaluated once per distinct argument list. Forgotten with the
    /// declarations it may read (see [`Env::reset`]); see [`MEMO_LIMIT`].
    memo: Vec<FxHashMap<Box<[Value]>, Value>>,
    /// Entries in `memo`, all functions together.
    memo_len: usize,
    /// Function bodies evaluated so far (calls the memo did not answer), for tests and
    /// measurements.
    function_evaluations: u64,
}

/// How many function values the memo keeps, all functions together. Past it, new
/// values are computed and not kept: a function called with millions of distinct
/// arguments would make the memo a second copy of the model's work.
const MEMO_LIMIT: usize = 1 << 20;

impl<'m> Env<'m> {
    /// An environment for `model`, with parameter values given from outside.
    pub fn new(model: &'m Model, src: &SourceFile, params: HashMap<String, Value>) -> Env<'m> {
        let mut names = FxHashMap::default();
        for (i, d) in model.decls.iter().enumerate() {
            if let Some(name) = d.name() {
                names.entry(name.name.as_str()).or_insert(i);
            }
        }
        Env {
            src: src.clone(),
            model,
            names,
            resolved: FxHashMap::default(),
            globals: vec![Slot::Pending; model.decls.len()],
            params,
            locals: Vec::new(),
            call_depth: 0,
            eval_depth: 0,
            param_types: HashMap::new(),
            size_limit: 10_000_000,
            steps: 0,
            open_loops: 0,
            planned: 0,
            memo: vec![FxHashMap::default(); model.decls.len()],
            memo_len: 0,
            function_evaluations: 0,
        }
    }

    /// How many times a user function's body was evaluated: calls answered by the
    /// memo of function values do not count.
    pub fn function_evaluations(&self) -> u64 {
        self.function_evaluations
    }

    /// Sets the declared parameter types, so that defaults are converted to them (a
    /// `"""` block default of a grid becomes a list of rows).
    pub fn set_param_types(&mut self, types: HashMap<String, ParamType>) {
        self.param_types = types;
    }

    /// The model being evaluated.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// Forgets the cached values of the declarations for which `stale` is true and sets
    /// new outside parameter values: how one environment serves many data records.
    pub fn reset(&mut self, stale: impl Fn(usize) -> bool, params: HashMap<String, Value>) {
        self.forget(stale);
        self.params = params;
    }

    /// Binds parameter `name` to the value of a new data record and forgets the cached
    /// values for which `stale` is true; the other outside values stay as they are (no
    /// copy of them per record).
    pub fn set_record(&mut self, stale: impl Fn(usize) -> bool, name: &str, value: Value) {
        self.forget(stale);
        match self.params.get_mut(name) {
            Some(v) => *v = value,
            None => {
                self.params.insert(name.to_string(), value);
            }
        }
    }

    fn forget(&mut self, stale: impl Fn(usize) -> bool) {
        for (i, slot) in self.globals.iter_mut().enumerate() {
            if stale(i) {
                *slot = Slot::Pending;
                self.memo_len -= self.memo[i].len();
                self.memo[i].clear();
            }
        }
        self.locals.clear();
        self.call_depth = 0;
        self.eval_depth = 0;
    }

    /// An error at `span`, with the local bindings in scope as a note.
    pub fn error(
        &self,
        code: Code,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> EvalError {
        let mut r = Report::error(code, message)
            .label(span, label)
            .with_source(&self.src);
        if let Some(scope) = self.scope_note() {
            r = r.add_help(scope);
        }
        Box::new(r)
    }

    /// "in scope: r = 3, c = 0", or `None` when nothing is bound.
    pub fn scope_note(&self) -> Option<String> {
        let bindings = self.bindings();
        if bindings.is_empty() {
            return None;
        }
        let list: Vec<String> = bindings.iter().map(|(n, v)| format!("{n} = {v}")).collect();
        Some(format!("in scope: {}", list.join(", ")))
    }

    /// The visible local bindings, outermost first, each name once, values rendered.
    pub fn bindings(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for (i, (name, value)) in self.locals.iter().enumerate() {
            if self.locals[i + 1..].iter().any(|(n, _)| n == name) {
                continue; // shadowed
            }
            out.push((name.to_string(), format!("{value:#}")));
        }
        out
    }

    /// The visible local bindings, outermost first, each name once, with their values
    /// as they are: cheap to keep (compound values are shared) and rendered only if a
    /// diagnostic shows them.
    pub fn binding_values(&self) -> Vec<(&'m str, Value)> {
        let mut out = Vec::new();
        for (i, (name, value)) in self.locals.iter().enumerate() {
            if !self.locals[i + 1..].iter().any(|(n, _)| n == name) {
                out.push((*name, value.clone()));
            }
        }
        out
    }

    /// Number of local bindings; pair with [`Env::truncate`] to pop a scope.
    pub fn depth(&self) -> usize {
        self.locals.len()
    }

    /// Pops local bindings down to `depth`.
    pub fn truncate(&mut self, depth: usize) {
        self.locals.truncate(depth);
    }

    /// The local bindings made since the scope was at `depth`, outermost first: what
    /// [`Env::push_locals`] replays.
    pub(crate) fn locals_since(&self, depth: usize) -> &[(&'m str, Value)] {
        self.locals.get(depth..).unwrap_or_default()
    }

    /// Pushes local bindings recorded by [`Env::locals_since`]; pop them with
    /// [`Env::truncate`].
    pub(crate) fn push_locals(&mut self, locals: &[(&'m str, Value)]) {
        self.locals.extend_from_slice(locals);
    }

    /// Binds `value` to a pattern, pushing its names.
    pub fn bind(&mut self, pat: &'m Pattern, value: Value) -> EvalResult<()> {
        match pat {
            Pattern::Name(id) => {
                self.locals.push((id.name.as_str(), value));
                Ok(())
            }
            Pattern::Wildcard(_) => Ok(()),
            Pattern::Tuple(pats, span) => {
                let parts: &[Value] = match &value {
                    Value::Tuple(xs) => xs,
                    Value::List(xs) => xs,
                    other => {
                        return Err(self
                            .error(
                                Code::E0305,
                                format!(
                                    "cannot unpack {} into {} names",
                                    other.kind().described(),
                                    pats.len()
                                ),
                                *span,
                                format!("this pattern needs a tuple of {}", pats.len()),
                            )
                            .add_help(format!("the value is {other:#}"))
                            .into());
                    }
                };
                if parts.len() != pats.len() {
                    return Err(self
                        .error(
                            Code::E0305,
                            format!(
                                "cannot unpack a tuple of {} into {} names",
                                parts.len(),
                                pats.len()
                            ),
                            *span,
                            format!("this pattern has {} names", pats.len()),
                        )
                        .add_help(format!("the value is {value:#}"))
                        .into());
                }
                let parts = parts.to_vec();
                for (p, v) in pats.iter().zip(parts) {
                    self.bind(p, v)?;
                }
                Ok(())
            }
        }
    }

    /// Runs `body` once for every binding the clauses produce, in order: `for` iterates,
    /// `where` filters, `let` binds. Locals are popped afterwards.
    pub fn for_each(
        &mut self,
        clauses: &'m [Clause],
        body: &mut dyn FnMut(&mut Env<'m>) -> EvalResult<()>,
    ) -> EvalResult<()> {
        if self.open_loops == 0 {
            self.steps = 0;
        }
        self.open_loops += 1;
        let depth = self.depth();
        let r = self.clauses_from(clauses, 1, body);
        self.truncate(depth);
        self.open_loops -= 1;
        r
    }

    /// How many bindings the loops of the [`Env::for_each`] whose body runs now make, at
    /// most, when read at the start of the body: the product of their lengths. Exact
    /// when the clauses have no `where`.
    pub fn planned(&self) -> usize {
        usize::try_from(self.planned).unwrap_or(usize::MAX)
    }

    /// How many bindings the loops of one family may try: ten times the size limit, so
    /// that a `where` may filter out nine in ten and a family of 10^10 bindings that
    /// keeps few is still refused.
    pub fn step_limit(&self) -> usize {
        self.size_limit.saturating_mul(10).max(1_000_000)
    }

    /// Runs the clauses from `clauses` on; `scale` is how many times this point is
    /// expected to be reached, the product of the lengths of the enclosing loops.
    fn clauses_from(
        &mut self,
        clauses: &'m [Clause],
        scale: u128,
        body: &mut dyn FnMut(&mut Env<'m>) -> EvalResult<()>,
    ) -> EvalResult<()> {
        let Some((first, rest)) = clauses.split_first() else {
            self.planned = scale;
            return body(self);
        };
        match first {
            Clause::Where(cond) => {
                if self.eval_bool(cond, "a `where` filter")? {
                    self.clauses_from(rest, scale, body)?;
                }
                Ok(())
            }
            Clause::Let { pat, value, .. } => {
                let v = self.eval(value)?;
                let depth = self.depth();
                self.bind(pat, v)?;
                self.clauses_from(rest, scale, body)?;
                self.truncate(depth);
                Ok(())
            }
            Clause::For { pat, iter, .. } => {
                let coll = self.eval(iter)?;
                let depth = self.depth();
                // Not a collection: 0 here, and refused below.
                let len = coll.len().unwrap_or(0) as u128;
                // Refuse before iterating: the product of the loop lengths is known here.
                let planned = scale.saturating_mul(len.max(1));
                let limit = self.step_limit();
                if (self.steps as u128).saturating_add(planned) > limit as u128 && len > 0 {
                    return Err(self
                        .error(
                            Code::E0501,
                            format!("these loops would try more than {limit} bindings"),
                            iter.span,
                            if scale > 1 {
                                format!("{len} values, inside loops of about {scale}")
                            } else {
                                format!("{len} values")
                            },
                        )
                        .add_help(format!(
                            "the loops of one family or comprehension may try at most {limit} bindings (ten times `--max-size`), counting those a `where` filters out; narrow the ranges, or raise the limit with `--max-size N`"
                        ))
                        .into());
                }
                let inner = planned;
                let mut step = |env: &mut Env<'m>, x: Value| -> EvalResult<()> {
                    env.steps += 1;
                    if env.steps & 1023 == 0 && budget::exceeded() {
                        return Err(env.out_of_memory(iter.span));
                    }
                    env.bind(pat, x)?;
                    env.clauses_from(rest, inner, body)?;
                    env.truncate(depth);
                    Ok(())
                };
                match &coll {
                    Value::Range(lo, hi) => (*lo..*hi).try_for_each(|i| step(self, Value::Int(i))),
                    Value::List(xs) => xs.iter().try_for_each(|x| step(self, x.clone())),
                    Value::Tuple(xs) => xs.iter().try_for_each(|x| step(self, x.clone())),
                    Value::Set(xs) => xs.iter().try_for_each(|x| step(self, x.clone())),
                    Value::Map(m) => m
                        .iter()
                        .try_for_each(|(k, v)| step(self, Value::tuple(vec![k.clone(), v.clone()]))),
                    Value::Str(s) => {
                        let s = Rc::clone(s);
                        s.chars().try_for_each(|c| step(self, Value::str(c.encode_utf8(&mut [0; 4]))))
                    }
                    other => Err(self.error(
                        Code::E0213,
                        format!("cannot iterate over {}", other.kind().described()),
                        iter.span,
                        format!("this is {other:#}"),
                    )
                    .add_help("a `for` runs over a range (`0..n`), a list, a set, a map's (key, value) pairs or a string's characters").into()),
                }
            }
        }
    }

    /// Evaluates an expression that must be a boolean (`what` says where it is used).
    pub fn eval_bool(&mut self, e: &'m Expr, what: &str) -> EvalResult<bool> {
        match self.eval(e)? {
            Value::Bool(b) => Ok(b),
            other => Err(self.error(
                Code::E0210,
                format!(
                    "{what} must be a boolean, found {}",
                    other.kind().described()
                ),
                e.span,
                format!("this is {other:#}"),
            )),
        }
    }

    /// Evaluates an expression that must be an integer.
    pub fn eval_int(&mut self, e: &'m Expr, what: &str) -> EvalResult<i64> {
        match self.eval(e)? {
            Value::Int(i) => Ok(i),
            other => Err(self.error(
                Code::E0210,
                format!(
                    "{what} must be an integer, found {}",
                    other.kind().described()
                ),
                e.span,
                format!("this is {other:#}"),
            )),
        }
    }

    /// Evaluates an expression.
    ///
    /// Names and literals, the leaves of every expression, are handled here, inlined
    /// into the callers; the rest goes to [`Env::eval_compound`], whose frame is large.
    /// In a clue filter such as `puzzle[r][c] in alphabet` four of the seven nodes are
    /// names, and the split halves the cost of evaluating them.
    #[inline]
    pub fn eval(&mut self, e: &'m Expr) -> EvalResult<Value> {
        match &e.kind {
            ExprKind::Int(i) => Ok(Value::Int(*i)),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Name(id) => self.lookup(id, e.span),
            _ => self.eval_compound(e),
        }
    }

    /// Evaluates an expression that is not a name or a number, within
    /// [`MAX_EVAL_DEPTH`].
    fn eval_compound(&mut self, e: &'m Expr) -> EvalResult<Value> {
        if self.eval_depth >= MAX_EVAL_DEPTH {
            return Err(self.too_deep(e.span));
        }
        self.eval_depth += 1;
        let r = self.eval_nested(e);
        self.eval_depth -= 1;
        r
    }

    /// The error past [`MAX_EVAL_DEPTH`], at `span`: the same for an expression and for a
    /// definition computed on first use, as both count against one depth.
    #[cold]
    fn too_deep(&self, span: Span) -> EvalError {
        self.error(
            Code::E0112,
            "expressions, calls and definitions nest too deeply",
            span,
            format!("{MAX_EVAL_DEPTH} levels deep here"),
        )
    }

    fn eval_nested(&mut self, e: &'m Expr) -> EvalResult<Value> {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) => self.eval(e),
            ExprKind::Str(s) => Ok(Value::str(s)),
            ExprKind::Tuple(xs) => Ok(Value::tuple(self.eval_all(xs)?)),
            ExprKind::List(xs) => Ok(Value::list(self.eval_all(xs)?)),
            ExprKind::Set(xs) => Ok(Value::set(self.eval_all(xs)?)),
            ExprKind::Map(pairs) => {
                let mut m = BTreeMap::new();
                for (k, v) in pairs {
                    let k = self.eval(k)?;
                    let v = self.eval(v)?;
                    m.insert(k, v);
                }
                Ok(Value::Map(Rc::new(m)))
            }
            ExprKind::ListComp { elem, clauses } => {
                let mut out = Vec::new();
                self.comprehend(clauses, e.span, &mut |env| {
                    out.push(env.eval(elem)?);
                    Ok(out.len())
                })?;
                Ok(Value::list(out))
            }
            ExprKind::SetComp { elem, clauses } => {
                let mut out = BTreeSet::new();
                self.comprehend(clauses, e.span, &mut |env| {
                    out.insert(env.eval(elem)?);
                    Ok(out.len())
                })?;
                Ok(Value::Set(Rc::new(out)))
            }
            ExprKind::MapComp {
                key,
                value,
                clauses,
            } => {
                let mut out = BTreeMap::new();
                self.comprehend(clauses, e.span, &mut |env| {
                    let k = env.eval(key)?;
                    let v = env.eval(value)?;
                    out.insert(k, v);
                    Ok(out.len())
                })?;
                Ok(Value::Map(Rc::new(out)))
            }
            ExprKind::Unary { op, expr } => {
                let v = self.eval(expr)?;
                match (op, &v) {
                    (UnaryOp::Neg, Value::Int(i)) => i
                        .checked_neg()
                        .map(Value::Int)
                        .ok_or_else(|| self.overflow(e.span)),
                    (UnaryOp::Not, Value::Bool(b)) => Ok(Value::Bool(!b)),
                    (UnaryOp::Neg, other) => Err(self.error(
                        Code::E0210,
                        format!("cannot negate {}", other.kind().described()),
                        expr.span,
                        format!("this is {other:#}"),
                    )),
                    (UnaryOp::Not, other) => Err(self.error(
                        Code::E0210,
                        format!("`not` needs a boolean, found {}", other.kind().described()),
                        expr.span,
                        format!("this is {other:#}"),
                    )),
                }
            }
            ExprKind::Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => self.binary(*op, *op_span, lhs, rhs),
            ExprKind::Range { lo, hi, inclusive } => {
                let a = self.range_bound(lo)?;
                let b = self.range_bound(hi)?;
                let b = if *inclusive {
                    b.checked_add(1).ok_or_else(|| self.overflow(hi.span))?
                } else {
                    b
                };
                if b < a && self.is_constant(lo) && self.is_constant(hi) {
                    return Err(self.negative_size(e, a, b));
                }
                Ok(Value::Range(a, b.max(a)))
            }
            ExprKind::Call { func, args } => self.call(func.name.as_str(), func.span, args, e.span),
            ExprKind::Index { base, index } => {
                let b = self.eval(base)?;
                let i = self.eval(index)?;
                self.index(b, i, base.span, index.span)
            }
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                if self.eval_bool(cond, "the condition of `if`")? {
                    self.eval(then)
                } else {
                    self.eval(otherwise)
                }
            }
        }
    }

    fn eval_all(&mut self, xs: &'m [Expr]) -> EvalResult<Vec<Value>> {
        xs.iter().map(|x| self.eval(x)).collect()
    }

    /// Runs a comprehension's clauses; `push` adds one element and returns the size so
    /// far, which is checked against the size limit before memory runs out.
    fn comprehend(
        &mut self,
        clauses: &'m [Clause],
        span: Span,
        push: &mut dyn FnMut(&mut Env<'m>) -> EvalResult<usize>,
    ) -> EvalResult<()> {
        let limit = self.size_limit;
        self.for_each(clauses, &mut |env| {
            if push(env)? > limit {
                return Err(env
                    .error(
                        Code::E0501,
                        format!("this comprehension builds more than {limit} elements"),
                        span,
                        "too large",
                    )
                    .add_help("raise the limit with `--max-size N` if this is intended")
                    .into());
            }
            Ok(())
        })
    }

    /// The error when the memory budget runs out while a loop at `span` runs.
    pub fn out_of_memory(&self, span: Span) -> EvalError {
        self.error(
            Code::E0505,
            format!(
                "the memory budget of {} is used up",
                budget::human(budget::budget())
            ),
            span,
            "while this loop ran",
        )
        .add_help("the model builds more than fits; narrow its ranges, or raise the budget with `--max-memory SIZE` (such as 8G)")
        .into()
    }

    fn range_bound(&mut self, e: &'m Expr) -> EvalResult<i64> {
        match self.eval(e)? {
            Value::Int(i) => Ok(i),
            other => Err(self.error(
                Code::E0211,
                format!("a range bound must be an integer, found {}", other.kind().described()),
                e.span,
                format!("this is {other:#}"),
            )
            .add_help("ranges run over integers, as in `0..n` or `1..=9`; to run over the characters of a string, write `for c in s`").into()),
        }
    }

    /// Whether `e` reads no local binding: its value is one of the model (its params,
    /// its lets), the same for every binding of the loops around it.
    fn is_constant(&self, e: &Expr) -> bool {
        let mut local = false;
        e.walk(&mut |x| {
            if let ExprKind::Name(id) = &x.kind
                && self.locals.iter().any(|(n, _)| same_name(n, &id.name))
            {
                local = true;
            }
        });
        !local
    }

    /// The error for a range of the model's constants that ends before it starts: a
    /// size made negative (`0..n` with `-p n=-3`), which would otherwise make every
    /// loop over it silently empty. A range that reads loop variables (`i + 2..n`) may
    /// be empty for some bindings on purpose, and is not checked.
    #[cold]
    fn negative_size(&self, e: &'m Expr, lo: i64, hi: i64) -> EvalError {
        // The top-level values the range reads, as they are now: the culprit is there.
        let mut read: Vec<String> = Vec::new();
        e.walk(&mut |x| {
            if let ExprKind::Name(id) = &x.kind
                && let Some(&i) = self.names.get(id.name.as_str())
                && let Slot::Done(v) = &self.globals[i]
            {
                let shown = format!("{} = {v:#}", id.name);
                if !read.contains(&shown) {
                    read.push(shown);
                }
            }
        });
        let size = i128::from(hi) - i128::from(lo);
        let mut r = self.error(
            Code::E0308,
            format!("this range has a negative size: {lo}..{hi} would hold {size} values"),
            e.span,
            if read.is_empty() {
                format!("ends before it starts ({lo}..{hi})")
            } else {
                format!("ends before it starts, with {}", read.join(", "))
            },
        );
        r = Box::new(r.add_help(
            "a size cannot be negative: pass a value of 0 or more for the parameter it reads (as in `-p n=3`); an empty range on purpose is written `a..a`",
        ));
        r
    }

    fn overflow(&self, span: Span) -> EvalError {
        self.error(
            Code::E0301,
            "integer overflow",
            span,
            "the result does not fit in a 64-bit integer",
        )
    }

    /// The value of a name: a local, a parameter or a `let`.
    #[inline]
    fn lookup(&mut self, id: &'m Ident, span: Span) -> EvalResult<Value> {
        let name = id.name.as_str();
        if let Some((_, v)) = self.locals.iter().rev().find(|(n, _)| same_name(n, name)) {
            return Ok(v.clone());
        }
        if let Some(&i) = self.resolved.get(&(std::ptr::from_ref(id) as usize))
            && let Slot::Done(v) = &self.globals[i]
        {
            return Ok(v.clone());
        }
        self.lookup_global(id, span)
    }

    /// The first reading of a top-level name at this place, or of a value not yet
    /// computed.
    #[inline(never)]
    fn lookup_global(&mut self, id: &'m Ident, span: Span) -> EvalResult<Value> {
        let at = std::ptr::from_ref(id) as usize;
        let i = match self.resolved.get(&at) {
            Some(&i) => i,
            None => {
                let name = id.name.as_str();
                let Some(&i) = self.names.get(name) else {
                    return Err(self.error(
                        Code::E0101,
                        format!("undefined name `{name}`"),
                        span,
                        "not defined",
                    ));
                };
                self.resolved.insert(at, i);
                i
            }
        };
        self.global(i, span)
    }

    /// The index of the top-level declaration called `name`.
    pub fn declaration(&self, name: &str) -> Option<usize> {
        self.names.get(name).copied()
    }

    /// The value of top-level declaration `i` (a param or let), computed on first use.
    pub fn global(&mut self, i: usize, span: Span) -> EvalResult<Value> {
        match &self.globals[i] {
            Slot::Done(v) => return Ok(v.clone()),
            Slot::InProgress => {
                return Err(self.error(
                    Code::E0111,
                    "this definition depends on itself",
                    span,
                    "used while being defined",
                ));
            }
            Slot::Pending => {}
        }
        let model = self.model;
        let decl = &model.decls[i];
        // A top-level value sees no locals: hide the caller's while computing it.
        if self.eval_depth >= MAX_EVAL_DEPTH {
            return Err(self.too_deep(span));
        }
        let saved = std::mem::take(&mut self.locals);
        self.globals[i] = Slot::InProgress;
        self.eval_depth += 1;
        let result = match decl {
            Decl::Let(d) => self.eval(&d.value),
            Decl::Param(d) => match self.params.get(d.name.name.as_str()) {
                Some(v) => Ok(v.clone()),
                None => match &d.default {
                    Some(e) => self.eval(e).and_then(|v| match self.param_types.get(&d.name.name) {
                        None => Ok(v),
                        Some(ty) => data::conform(v, ty).map_err(|err| {
                            self.error(
                                Code::E0603,
                                format!("the default of `{}` does not fit its type: {}", d.name.name, err.message),
                                e.span,
                                format!("`{}` is declared `{}`", d.name.name, ty.written()),
                            )
                        }),
                    }),
                    None => Err(Box::new(
                        Report::error(Code::E0601, format!("parameter `{}` has no value", d.name.name))
                            .label(d.name.span, "declared here without a default")
                            .secondary(span, "needed here")
                            .help(format!(
                                "pass it on the command line, as in `-p {}=...`, give it a default (`param {} = ...`), or bind it to a data record with `--data FILE`",
                                d.name.name, d.name.name
                            ))
                            .with_source(&self.src),
                    )),
                },
            },
            _ => Err(self.error(
                Code::E0106,
                format!("`{}` is not a value", decl.name().map_or("", |n| n.name.as_str())),
                span,
                "used as a value here",
            )),
        };
        self.eval_depth -= 1;
        self.locals = saved;
        match result {
            Ok(v) => {
                self.globals[i] = Slot::Done(v.clone());
                Ok(v)
            }
            Err(e) => {
                self.globals[i] = Slot::Pending;
                Err(e)
            }
        }
    }

    fn call(
        &mut self,
        name: &str,
        name_span: Span,
        args: &'m [Expr],
        span: Span,
    ) -> EvalResult<Value> {
        let model = self.model;
        if let Some(&i) = self.names.get(name)
            && let Decl::Fn(f) = &model.decls[i]
        {
            if f.params.len() != args.len() {
                return Err(self.error(
                    Code::E0104,
                    format!(
                        "`{name}` takes {} arguments, found {}",
                        f.params.len(),
                        args.len()
                    ),
                    span,
                    "called here",
                ));
            }
            if self.call_depth >= MAX_CALL_DEPTH {
                return Err(self.error(
                    Code::E0112,
                    "functions call each other too deeply",
                    span,
                    "here",
                ));
            }
            let vals = self.eval_all(args)?;
            if let Some(v) = self.memo[i].get(vals.as_slice()) {
                return Ok(v.clone());
            }
            // A body evaluated counts as a binding tried, against the same limit: with
            // no loop at all, 40 functions each calling the next twice made 2^40 calls,
            // a hang that no limit saw. An outermost call starts a count of its own, as
            // an outermost loop does, and loops inside it add to it.
            if self.open_loops == 0 {
                self.steps = 0;
            }
            self.steps += 1;
            let limit = self.step_limit();
            if self.steps > limit {
                return Err(self
                    .error(
                        Code::E0501,
                        format!(
                            "this evaluation makes more than {limit} function calls and loop \
                             bindings"
                        ),
                        span,
                        "the call past the limit",
                    )
                    .add_help(
                        "functions that call others several times at each level multiply \
                         their calls (two a level for 40 levels is 2^40); compute the values \
                         over a range instead, or raise the limit with `--max-size N`",
                    )
                    .into());
            }
            let key: Option<Box<[Value]>> =
                (self.memo_len < MEMO_LIMIT).then(|| vals.as_slice().into());
            let saved = std::mem::take(&mut self.locals);
            for (p, v) in f.params.iter().zip(vals) {
                self.locals.push((p.name.as_str(), v));
            }
            self.call_depth += 1;
            self.open_loops += 1;
            self.function_evaluations += 1;
            let r = self.eval(&f.body);
            self.open_loops -= 1;
            self.call_depth -= 1;
            self.locals = saved;
            if let (Ok(v), Some(key)) = (&r, key) {
                self.memo[i].insert(key, v.clone());
                self.memo_len += 1;
            }
            return r;
        }
        if builtins::signature(name).is_none() {
            return Err(self.error(
                Code::E0103,
                format!("undefined function `{name}`"),
                name_span,
                "not defined",
            ));
        }
        let vals = self.eval_all(args)?;
        let made = builtins::call(name, &vals).map_err(|err| {
            let at = err.arg.and_then(|k| args.get(k)).map_or(span, |a| a.span);
            let mut r = self.error(
                err.code.unwrap_or(Code::E0212),
                format!("{name}: {}", err.message),
                at,
                "this argument",
            );
            if let Some(h) = err.help {
                r = r.add_help(h).into();
            }
            r
        })?;
        // A collection a builtin makes is held whole, as a comprehension's is, and is
        // refused past the same size limit: a fuzzed pentomino of 145,871 cells under
        // `--max-size 100000` was shifted to each of 480 places, 13 s of copies that
        // the limit on bindings (480) did not see. (A range is not made, only named.)
        let size = match &made {
            Value::List(_) | Value::Set(_) | Value::Map(_) | Value::Tuple(_) => made.len(),
            _ => None,
        };
        if let Some(n) = size
            && n > self.size_limit
        {
            let limit = self.size_limit;
            return Err(self
                .error(
                    Code::E0501,
                    format!("`{name}` made {n} elements, more than the size limit of {limit}"),
                    span,
                    "too large",
                )
                .add_help("raise the limit with `--max-size N` if this is intended")
                .into());
        }
        Ok(made)
    }

    fn index(
        &self,
        base: Value,
        index: Value,
        base_span: Span,
        index_span: Span,
    ) -> EvalResult<Value> {
        super::ops::index(&base, &index).map_err(|fault| match fault {
            IndexFault::OutOfBounds { len } => self.error(
                Code::E0303,
                format!("index {index} is out of bounds"),
                index_span,
                format!("valid indexes are 0..{len}"),
            ),
            IndexFault::SliceOutOfBounds { a, b, len } => self.error(
                Code::E0303,
                format!("slice {a}..{b} is out of bounds"),
                index_span,
                format!("valid slices lie within 0..{len}"),
            ),
            IndexFault::MissingKey => {
                let Value::Map(m) = &base else {
                    unreachable!("only a map misses a key")
                };
                let keys: Vec<String> = m.keys().take(8).map(|k| format!("{k:#}")).collect();
                self.error(
                    Code::E0306,
                    format!("key {index:#} is not in the map"),
                    index_span,
                    "no such key",
                )
                .add_help(format!(
                    "the keys are {}{}",
                    keys.join(", "),
                    if m.len() > 8 { ", ..." } else { "" }
                ))
                .into()
            }
            IndexFault::NotAnIndex => self.error(
                Code::E0210,
                format!(
                    "an index must be an integer or a range, found {}",
                    index.kind().described()
                ),
                index_span,
                format!("this is {index:#}"),
            ),
            IndexFault::NotIndexable => self.error(
                Code::E0210,
                format!("cannot index into {}", base.kind().described()),
                base_span,
                format!("this is {base:#}"),
            ),
        })
    }

    fn binary(
        &mut self,
        op: BinaryOp,
        op_span: Span,
        lhs: &'m Expr,
        rhs: &'m Expr,
    ) -> EvalResult<Value> {
        // `and` and `or` look at their right side only when they must.
        if matches!(op, BinaryOp::And | BinaryOp::Or) {
            let what = format!("the left side of `{}`", op.symbol());
            let a = self.eval_bool(lhs, &what)?;
            if a == (op == BinaryOp::Or) {
                return Ok(Value::Bool(a));
            }
            let what = format!("the right side of `{}`", op.symbol());
            return self.eval_bool(rhs, &what).map(Value::Bool);
        }
        let a = self.eval(lhs)?;
        let b = self.eval(rhs)?;
        super::ops::binary(op, &a, &b).map_err(|err| {
            let label = match err.kind {
                super::ops::OpErrorKind::Types => format!(
                    "{} {} {}",
                    a.kind().described(),
                    op.symbol(),
                    b.kind().described()
                ),
                super::ops::OpErrorKind::Overflow | super::ops::OpErrorKind::DivisionByZero => {
                    format!("{a:#} {} {b:#}", op.symbol())
                }
                // A collection is named, not printed: it may be long.
                super::ops::OpErrorKind::StrInt if matches!(op, BinaryOp::In | BinaryOp::NotIn) => {
                    format!(
                        "{a:#} ({}) {} {}",
                        a.kind().described(),
                        op.symbol(),
                        b.kind().described()
                    )
                }
                super::ops::OpErrorKind::StrInt => format!(
                    "{a:#} ({}) {} {b:#} ({})",
                    a.kind().described(),
                    op.symbol(),
                    b.kind().described()
                ),
            };
            let r = self.error(err.code, err.message, op_span, label);
            match err.help {
                Some(h) => Box::new(r.add_help(h)),
                None => r,
            }
        })
    }
}
