//! Force declarations compiled for the per-record path.
//!
//! A sudoku collection forces 81 clues per record, each through a `where` filter and an
//! index: read by the tree-walking evaluator, that is a search for every name among
//! the locals, a hash lookup for every top-level name, and a frame per compound
//! expression, and it took longer than solving the puzzle. A force declaration is
//! compiled once into a tree whose names are resolved: loop variables to slots, the
//! top-level values it reads to a table filled once per record.
//!
//! The compiled form only answers when everything goes as planned. An error of any
//! kind, a limit reached, or a construct it does not cover (a user function, a
//! comprehension) makes it give up: the caller then runs the declaration through
//! [`crate::lower::family::lower_force`], which reports exactly what the evaluator
//! reports. So the diagnostics have one source, and this module only has to agree
//! with the evaluator on the values of expressions that succeed, which it does by
//! using the same operators ([`ops::binary`], [`ops::index`], [`builtins::call`]).

use std::borrow::Cow;
use std::cell::{Cell, OnceCell};
use std::rc::Rc;

use crate::lower::budget;
use crate::lower::builtins;
use crate::lower::eval::Env;
use crate::lower::family::Families;
use crate::lower::ops;
use crate::lower::value::{AsciiChars, Value};
use crate::problem::OptionId;
use crate::source::Span;
use crate::syntax::ast::{BinaryOp, Clause, Decl, Expr, ExprKind, ForceDecl, Pattern, UnaryOp};

/// How deeply nested an expression may be to be compiled: far below the evaluator's
/// own limit, so that the evaluator reports one too deep.
const MAX_DEPTH: usize = 64;

/// A force declaration with its names resolved.
#[derive(Clone, Debug)]
pub struct CompiledForce {
    /// The declaration index of the option family.
    family: usize,
    clauses: Vec<CClause>,
    index: Vec<CExpr>,
    /// The top-level values read (declaration index, where first read), fetched once
    /// per run into the table `CExpr::Global` reads.
    globals: Vec<(usize, Span)>,
    /// How many loop variables and `let` names the clauses bind.
    slots: usize,
    /// How many leading clauses read nothing of the record (the `r` and `c` loops of
    /// a sudoku's clues): their bindings are the same for every record, so they are
    /// made once and replayed ([`Skeleton`]).
    prefix: usize,
    /// The slots those clauses bind.
    prefix_slots: Vec<usize>,
    /// The bindings of the prefix, made by the first run; `None` inside when they
    /// could not be made or were too many to keep.
    skeleton: OnceCell<Option<Skeleton>>,
    /// Whether the clauses after the prefix read the record once, first, by a path
    /// from a top-level value, and nothing else of it, nor does the index (see
    /// [`Memo`]).
    memoizes: bool,
    /// What the clauses after the prefix gave, by binding of the prefix and character;
    /// `None` inside when a step of the path is not an integer.
    memo: OnceCell<Option<Memo>>,
}

/// What the clauses after the prefix of a sudoku's clues give (`let t = puzzle[r][c];
/// where t in alphabet`, then the index `put[r, c, t]`): a function of the prefix's
/// binding and of the one character read from the record, since evaluation has no
/// effects and nothing else they read varies. So each (binding, character) is
/// evaluated once, on the first record that has it, and later records read the
/// answer: a collection of puzzles over ten characters evaluates each cell ten times
/// at most, and every other cell is a table read instead of a test, an index built
/// and a hash lookup.
#[derive(Clone, Debug)]
struct Memo {
    /// For binding `b` and ASCII character `c`: entry `c * bindings + b`, [`UNKNOWN`],
    /// [`FILTERED`] or the option forced. By character first: the empty cells of
    /// every puzzle read one short run of entries, which stays in the first-level
    /// cache.
    answers: Vec<Cell<u32>>,
    /// The top-level value the path starts from (in the table of those read).
    global: usize,
    /// The path's steps for each binding, `width` integers each (`r, c`): read from
    /// this table, the record's character needs no slot bound.
    steps: Vec<i64>,
    width: usize,
}

impl Memo {
    /// The memo of `force`, whose prefix made `skeleton`, or `None` when a step of
    /// the path is not an integer known without the record.
    fn new(force: &CompiledForce, skeleton: &Skeleton, globals: &[Value]) -> Option<Memo> {
        let bytes = skeleton.bindings * 128 * std::mem::size_of::<u32>();
        if skeleton.bindings > MAX_MEMO_BINDINGS
            || budget::in_use().saturating_add(bytes) > budget::budget()
        {
            return None;
        }
        let Some(CClause::Let(_, CExpr::Path(base, path))) = force.clauses.get(force.prefix) else {
            return None;
        };
        let &CExpr::Global(global) = &**base else {
            return None;
        };
        let k = force.prefix_slots.len();
        let mut steps = Vec::with_capacity(skeleton.bindings * path.len());
        for b in 0..skeleton.bindings {
            let values = &skeleton.values[b * k..(b + 1) * k];
            for step in path {
                let v = match step {
                    CExpr::Const(v) => v,
                    CExpr::Global(g) => &globals[*g],
                    CExpr::Local(s) => &values[force.prefix_slots.iter().position(|p| p == s)?],
                    _ => return None,
                };
                steps.push(v.as_int()?);
            }
        }
        Some(Memo {
            answers: vec![Cell::new(UNKNOWN); skeleton.bindings * 128],
            global,
            steps,
            width: path.len(),
        })
    }

    /// The ASCII character at the path of binding `b` from `base`, as the clauses
    /// would read it; `None` for any other value or a failure, which the clauses
    /// then meet as written. `rows` keeps the string the path went through last, so
    /// that the bindings of one row of a grid find it, and know it is ASCII, at once.
    #[inline(always)]
    fn character<'v>(&'v self, base: &'v Value, b: usize, rows: &mut Rows<'v>) -> Option<u8> {
        let (&last, steps) = self.steps[b * self.width..][..self.width].split_last()?;
        let text = match rows.last {
            Some((prefix, text)) if prefix == steps => text,
            _ => {
                let mut at = base;
                for &k in steps {
                    at = ops::element(at, &Value::Int(k))?;
                }
                match at {
                    Value::Str(text) if text.is_ascii() => {
                        rows.last = Some((steps, text.as_bytes()));
                        text.as_bytes()
                    }
                    // A string that is not ASCII: its characters are not its bytes.
                    Value::Str(_) => return None,
                    at => match ops::element(at, &Value::Int(last))? {
                        Value::Str(t) if let &[c] = t.as_bytes() => {
                            return c.is_ascii().then_some(c);
                        }
                        _ => return None,
                    },
                }
            }
        };
        text.get(usize::try_from(last).ok()?).copied()
    }
}

/// The string of ASCII characters that the path of the last binding went through,
/// with the steps that reached it (see [`Memo::character`]).
#[derive(Default)]
struct Rows<'v> {
    last: Option<(&'v [i64], &'v [u8])>,
}

/// Most bindings of a prefix that a [`Memo`] is made for: its table is 512 bytes a
/// binding (8 MiB at most, a grid of 128 by 128 cells); a longer prefix is replayed
/// without one, as is any when the table would not fit in the memory budget.
const MAX_MEMO_BINDINGS: usize = 1 << 14;

/// A memo entry not evaluated yet.
const UNKNOWN: u32 = u32::MAX;
/// A memo entry whose clauses force nothing (a `where` clause was false).
const FILTERED: u32 = u32::MAX - 1;

/// The bindings of a force declaration's leading clauses that read nothing of the
/// record, kept from the first run.
#[derive(Clone, Debug)]
struct Skeleton {
    /// The values of the prefix's slots, binding after binding.
    values: Vec<Value>,
    /// How many bindings.
    bindings: usize,
    /// The bindings the prefix's loops tried, counted against the step limit on each
    /// replay as if they were tried again.
    steps: u128,
    /// The product of the prefix loops' lengths (the evaluator's scale after them).
    scale: u128,
}

/// Most values a skeleton keeps; a prefix with more bindings runs as written.
const MAX_SKELETON: usize = 1 << 16;

#[derive(Clone, Debug, PartialEq)]
enum CClause {
    For(CPattern, CExpr),
    Where(CExpr),
    Let(CPattern, CExpr),
}

#[derive(Clone, Debug, PartialEq)]
enum CPattern {
    Slot(usize),
    Wildcard,
    Tuple(Vec<CPattern>),
}

#[derive(Clone, Debug, PartialEq)]
enum CExpr {
    Const(Value),
    Global(usize),
    Local(usize),
    Tuple(Vec<CExpr>),
    List(Vec<CExpr>),
    Set(Vec<CExpr>),
    Neg(Box<CExpr>),
    Not(Box<CExpr>),
    And(Box<CExpr>, Box<CExpr>),
    Or(Box<CExpr>, Box<CExpr>),
    Binary(BinaryOp, Box<CExpr>, Box<CExpr>),
    /// `elem in coll`, or `elem not in coll` when `negated`: a test the clauses of a
    /// per-record force make once per cell, answered without building a value.
    In {
        elem: Box<CExpr>,
        coll: Box<CExpr>,
        negated: bool,
    },
    Range {
        lo: Box<CExpr>,
        hi: Box<CExpr>,
        inclusive: bool,
    },
    Builtin(String, Vec<CExpr>),
    Index(Box<CExpr>, Box<CExpr>),
    /// `base[i][j]...` where the base and every index are names or constants
    /// ([`CExpr::is_leaf`]): `puzzle[r][c]`. Read in one loop down the value, not by
    /// a recursion that returns every level's value through memory.
    Path(Box<CExpr>, Vec<CExpr>),
    If(Box<CExpr>, Box<CExpr>, Box<CExpr>),
}

impl CExpr {
    /// Whether the value is held already, by the runner or the tree: a name's or a
    /// constant's.
    fn is_leaf(&self) -> bool {
        matches!(self, CExpr::Const(_) | CExpr::Global(_) | CExpr::Local(_))
    }
}

/// Computes once what the index shares with a `where` clause: in `force put[r, c,
/// puzzle[r][c]] ... where puzzle[r][c] in alphabet` the cell is read by the test and
/// again by the index. Each compound part of the index that a `where` clause always
/// evaluates (not only on one side of `and`, `or` or `if`) becomes a `let` just before
/// that clause, read by the clause and the index. Evaluation has no effects and any
/// failure hands the whole declaration to the evaluator, so computing the part first
/// changes no answer.
fn share_tested_values(clauses: &mut Vec<CClause>, index: &mut [CExpr], slots: &mut usize) {
    for k in 0..index.len() {
        while let Some((at, part)) = shared_part(clauses, &index[k]) {
            let local = CExpr::Local(*slots);
            for clause in &mut clauses[at..] {
                match clause {
                    CClause::For(_, e) | CClause::Where(e) | CClause::Let(_, e) => {
                        e.replace(&part, &local);
                    }
                }
            }
            for e in index.iter_mut() {
                e.replace(&part, &local);
            }
            clauses.insert(at, CClause::Let(CPattern::Slot(*slots), part));
            *slots += 1;
        }
    }
}

/// The largest compound part of `e` that some `where` clause always evaluates, with
/// the position of the first such clause.
fn shared_part(clauses: &[CClause], e: &CExpr) -> Option<(usize, CExpr)> {
    if e.is_leaf() {
        return None;
    }
    let tested = clauses.iter().position(|clause| match clause {
        CClause::Where(cond) => cond.always_evaluates(e),
        _ => false,
    });
    match tested {
        Some(at) => Some((at, e.clone())),
        None => e.children().find_map(|x| shared_part(clauses, x)),
    }
}

impl CPattern {
    /// Appends the slots the pattern binds.
    fn slots(&self, out: &mut Vec<usize>) {
        match self {
            CPattern::Slot(s) => out.push(*s),
            CPattern::Wildcard => {}
            CPattern::Tuple(ps) => ps.iter().for_each(|p| p.slots(out)),
        }
    }
}

impl CExpr {
    /// Whether the expression reads a top-level value (by its index in the table)
    /// for which `pred` holds.
    fn reads_global(&self, pred: &dyn Fn(usize) -> bool) -> bool {
        match self {
            CExpr::Global(g) => pred(*g),
            _ => self.children().any(|x| x.reads_global(pred)),
        }
    }

    /// The expressions this one is made of.
    fn children(&self) -> impl Iterator<Item = &CExpr> {
        let (one, two, three, many): (_, _, _, &[CExpr]) = match self {
            CExpr::Const(_) | CExpr::Global(_) | CExpr::Local(_) => (None, None, None, &[]),
            CExpr::Tuple(xs) | CExpr::List(xs) | CExpr::Set(xs) | CExpr::Builtin(_, xs) => {
                (None, None, None, xs)
            }
            CExpr::Neg(x) | CExpr::Not(x) => (Some(&**x), None, None, &[]),
            CExpr::And(a, b)
            | CExpr::Or(a, b)
            | CExpr::Binary(_, a, b)
            | CExpr::Index(a, b)
            | CExpr::In {
                elem: a, coll: b, ..
            }
            | CExpr::Range { lo: a, hi: b, .. } => (Some(&**a), Some(&**b), None, &[]),
            CExpr::If(a, b, c) => (Some(&**a), Some(&**b), Some(&**c), &[]),
            CExpr::Path(base, steps) => (Some(&**base), None, None, steps),
        };
        one.into_iter().chain(two).chain(three).chain(many)
    }

    /// Whether evaluating this expression always evaluates `part` (unless something
    /// before it fails).
    fn always_evaluates(&self, part: &CExpr) -> bool {
        if self == part {
            return true;
        }
        match self {
            // The right of `and` and `or` and the branches of `if` may not be reached.
            CExpr::And(a, _) | CExpr::Or(a, _) | CExpr::If(a, _, _) => a.always_evaluates(part),
            _ => self.children().any(|x| x.always_evaluates(part)),
        }
    }

    /// Replaces every occurrence of `part` by `by`.
    fn replace(&mut self, part: &CExpr, by: &CExpr) {
        if self == part {
            *self = by.clone();
            return;
        }
        match self {
            CExpr::Const(_) | CExpr::Global(_) | CExpr::Local(_) => {}
            CExpr::Tuple(xs) | CExpr::List(xs) | CExpr::Set(xs) | CExpr::Builtin(_, xs) => {
                xs.iter_mut().for_each(|x| x.replace(part, by));
            }
            CExpr::Neg(x) | CExpr::Not(x) => x.replace(part, by),
            CExpr::And(a, b)
            | CExpr::Or(a, b)
            | CExpr::Binary(_, a, b)
            | CExpr::Index(a, b)
            | CExpr::In {
                elem: a, coll: b, ..
            }
            | CExpr::Range { lo: a, hi: b, .. } => {
                a.replace(part, by);
                b.replace(part, by);
            }
            CExpr::If(a, b, c) => {
                a.replace(part, by);
                b.replace(part, by);
                c.replace(part, by);
            }
            CExpr::Path(base, steps) => {
                base.replace(part, by);
                steps.iter_mut().for_each(|x| x.replace(part, by));
            }
        }
    }
}

/// Why a run gave up; the caller does not need to know which.
struct GiveUp;

type Run<T> = Result<T, GiveUp>;

impl CompiledForce {
    /// Compiles `force`, or `None` when it uses something the compiled form does not
    /// cover (the evaluator runs it then).
    /// `stale(i)` tells whether top-level declaration `i` reads the record.
    pub fn new(
        env: &Env<'_>,
        force: &ForceDecl,
        stale: &dyn Fn(usize) -> bool,
    ) -> Option<CompiledForce> {
        let model = env.model();
        let family = model
            .decls
            .iter()
            .position(|d| matches!(d, Decl::Option(o) if o.name.name == force.family.name))?;
        let mut c = Compiler {
            env,
            scope: Vec::new(),
            globals: Vec::new(),
            slots: 0,
        };
        let mut clauses = Vec::with_capacity(force.clauses.len());
        for clause in &force.clauses {
            // The value is compiled before the pattern's names come into scope.
            clauses.push(match clause {
                Clause::For { pat, iter, .. } => {
                    let iter = c.expr(iter, 0)?;
                    CClause::For(c.pattern(pat), iter)
                }
                Clause::Where(cond) => CClause::Where(c.expr(cond, 0)?),
                Clause::Let { pat, value, .. } => {
                    let value = c.expr(value, 0)?;
                    CClause::Let(c.pattern(pat), value)
                }
            });
        }
        let mut index: Vec<CExpr> = force
            .index
            .iter()
            .map(|e| c.expr(e, 0))
            .collect::<Option<_>>()?;
        share_tested_values(&mut clauses, &mut index, &mut c.slots);
        let reads_record = |e: &CExpr| e.reads_global(&|g| stale(c.globals[g].0));
        let prefix = clauses
            .iter()
            .position(|clause| match clause {
                CClause::For(_, e) | CClause::Where(e) | CClause::Let(_, e) => reads_record(e),
            })
            .unwrap_or(clauses.len());
        let mut prefix_slots = Vec::new();
        for clause in &clauses[..prefix] {
            if let CClause::For(p, _) | CClause::Let(p, _) = clause {
                p.slots(&mut prefix_slots);
            }
        }
        let replays = clauses[..prefix]
            .iter()
            .any(|clause| matches!(clause, CClause::For(..)));
        let memoizes = match &clauses[prefix..] {
            [
                CClause::Let(CPattern::Slot(_), CExpr::Path(base, steps)),
                rest @ ..,
            ] => {
                replays
                    && matches!(**base, CExpr::Global(_))
                    && !steps.iter().any(reads_record)
                    && !index.iter().any(reads_record)
                    && rest.iter().all(|clause| match clause {
                        CClause::For(..) => false,
                        CClause::Where(e) | CClause::Let(_, e) => !reads_record(e),
                    })
            }
            _ => false,
        };
        Some(CompiledForce {
            family,
            clauses,
            index,
            globals: c.globals,
            slots: c.slots,
            prefix: if replays { prefix } else { 0 },
            prefix_slots,
            skeleton: OnceCell::new(),
            memoizes,
            memo: OnceCell::new(),
        })
    }

    /// Appends the options the declaration forces to `out`, and returns whether it
    /// could: on `false`, `out` is as it was, and the caller runs the evaluator.
    /// `shared`: `fam` is the same families on every run (the matrix does not depend
    /// on the record), so that the options found on one run stand for later ones.
    pub fn run(
        &self,
        env: &mut Env<'_>,
        fam: &Families,
        shared: bool,
        out: &mut Vec<OptionId>,
    ) -> bool {
        let before = out.len();
        let mut globals = Vec::with_capacity(self.globals.len());
        for &(i, span) in &self.globals {
            match env.global(i, span) {
                Ok(v) => globals.push(v),
                Err(_) => return false,
            }
        }
        let mut run = Runner {
            force: self,
            fam,
            globals,
            slots: vec![Value::Int(0); self.slots],
            index: Vec::with_capacity(self.index.len()),
            steps: 0,
            step_limit: env.step_limit() as u128,
            size_limit: env.size_limit,
            out,
            chars: AsciiChars::shared(),
            ascii_sets: OnceCell::new(),
            snapshot: None,
        };
        let skeleton = match self.prefix {
            0 => None,
            _ => self.skeleton.get_or_init(|| run.skeleton()).as_ref(),
        };
        let memo = match skeleton {
            Some(skeleton) if shared && self.memoizes => self
                .memo
                .get_or_init(|| Memo::new(self, skeleton, &run.globals))
                .as_ref(),
            _ => None,
        };
        let done = match (skeleton, memo) {
            (Some(skeleton), Some(memo)) => run.replay_memo(skeleton, memo).is_ok(),
            (Some(skeleton), None) => run.replay(skeleton).is_ok(),
            (None, _) => run.clauses(&self.clauses, 1).is_ok(),
        };
        if !done {
            out.truncate(before);
        }
        done
    }
}

/// Name resolution, in the evaluator's order: the innermost local of that name, then
/// a top-level `param` or `let`.
struct Compiler<'e, 'm, 'a> {
    env: &'e Env<'m>,
    scope: Vec<(&'a str, usize)>,
    globals: Vec<(usize, Span)>,
    slots: usize,
}

impl<'a> Compiler<'_, '_, 'a> {
    fn pattern(&mut self, pat: &'a Pattern) -> CPattern {
        match pat {
            Pattern::Name(id) => {
                let slot = self.slots;
                self.slots += 1;
                self.scope.push((id.name.as_str(), slot));
                CPattern::Slot(slot)
            }
            Pattern::Wildcard(_) => CPattern::Wildcard,
            Pattern::Tuple(pats, _) => {
                CPattern::Tuple(pats.iter().map(|p| self.pattern(p)).collect())
            }
        }
    }

    fn boxed(&mut self, e: &'a Expr, depth: usize) -> Option<Box<CExpr>> {
        self.expr(e, depth + 1).map(Box::new)
    }

    fn all(&mut self, xs: &'a [Expr], depth: usize) -> Option<Vec<CExpr>> {
        xs.iter().map(|x| self.expr(x, depth + 1)).collect()
    }

    fn expr(&mut self, e: &'a Expr, depth: usize) -> Option<CExpr> {
        if depth > MAX_DEPTH {
            return None;
        }
        Some(match &e.kind {
            ExprKind::Int(i) => CExpr::Const(Value::Int(*i)),
            ExprKind::Bool(b) => CExpr::Const(Value::Bool(*b)),
            ExprKind::Str(s) => CExpr::Const(Value::str(s)),
            ExprKind::Name(id) => {
                let name = id.name.as_str();
                if let Some(&(_, slot)) = self.scope.iter().rev().find(|(n, _)| *n == name) {
                    return Some(CExpr::Local(slot));
                }
                let i = self.env.declaration(name)?;
                if !matches!(self.env.model().decls[i], Decl::Param(_) | Decl::Let(_)) {
                    return None;
                }
                let at = match self.globals.iter().position(|&(g, _)| g == i) {
                    Some(at) => at,
                    None => {
                        self.globals.push((i, e.span));
                        self.globals.len() - 1
                    }
                };
                CExpr::Global(at)
            }
            ExprKind::Tuple(xs) => CExpr::Tuple(self.all(xs, depth)?),
            ExprKind::List(xs) => CExpr::List(self.all(xs, depth)?),
            ExprKind::Set(xs) => CExpr::Set(self.all(xs, depth)?),
            ExprKind::Unary { op, expr } => match op {
                UnaryOp::Neg => CExpr::Neg(self.boxed(expr, depth)?),
                UnaryOp::Not => CExpr::Not(self.boxed(expr, depth)?),
            },
            ExprKind::Binary { op, lhs, rhs, .. } => {
                let (a, b) = (self.boxed(lhs, depth)?, self.boxed(rhs, depth)?);
                match op {
                    BinaryOp::And => CExpr::And(a, b),
                    BinaryOp::Or => CExpr::Or(a, b),
                    BinaryOp::In | BinaryOp::NotIn => CExpr::In {
                        elem: a,
                        coll: b,
                        negated: *op == BinaryOp::NotIn,
                    },
                    op => CExpr::Binary(*op, a, b),
                }
            }
            ExprKind::Range { lo, hi, inclusive } => CExpr::Range {
                lo: self.boxed(lo, depth)?,
                hi: self.boxed(hi, depth)?,
                inclusive: *inclusive,
            },
            ExprKind::Call { func, args } => {
                let name = func.name.as_str();
                // A user function (or anything else declared under that name) is the
                // evaluator's: it has a memo and a call depth.
                if self.env.declaration(name).is_some() || builtins::signature(name).is_none() {
                    return None;
                }
                CExpr::Builtin(func.name.clone(), self.all(args, depth)?)
            }
            ExprKind::Index { base, index } => {
                let (base, index) = (self.expr(base, depth + 1)?, self.expr(index, depth + 1)?);
                match base {
                    CExpr::Path(base, mut steps) if index.is_leaf() => {
                        steps.push(index);
                        CExpr::Path(base, steps)
                    }
                    base if base.is_leaf() && index.is_leaf() => {
                        CExpr::Path(Box::new(base), vec![index])
                    }
                    base => CExpr::Index(Box::new(base), Box::new(index)),
                }
            }
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => CExpr::If(
                self.boxed(cond, depth)?,
                self.boxed(then, depth)?,
                self.boxed(otherwise, depth)?,
            ),
            ExprKind::Map(_)
            | ExprKind::ListComp { .. }
            | ExprKind::SetComp { .. }
            | ExprKind::MapComp { .. } => return None,
        })
    }
}

/// One run of a compiled declaration.
struct Runner<'r> {
    force: &'r CompiledForce,
    fam: &'r Families,
    globals: Vec<Value>,
    slots: Vec<Value>,
    /// The index of the option being forced, reused.
    index: Vec<Value>,
    /// Bindings tried, against the evaluator's limit ([`Env::step_limit`]).
    steps: u128,
    step_limit: u128,
    /// The evaluator's size limit: a builtin's result past it is the evaluator's to
    /// refuse (E0501).
    size_limit: usize,
    out: &'r mut Vec<OptionId>,
    /// While a skeleton is made: the bindings of the prefix so far, and the scale
    /// after it; the end of the prefix records a binding instead of forcing.
    snapshot: Option<(Vec<Value>, usize, u128)>,
    chars: Rc<AsciiChars>,
    /// For each top-level value read that is a nonempty string of ASCII characters,
    /// the set of its characters as bits; made when first tested (a record answered
    /// by the memo tests nothing).
    ascii_sets: OnceCell<Vec<Option<u128>>>,
}

impl Runner<'_> {
    /// The clauses from `clauses` on, `scale` the product of the enclosing loops'
    /// lengths, as in the evaluator.
    fn clauses(&mut self, mut clauses: &[CClause], scale: u128) -> Run<()> {
        // `where` and `let` go on in this loop; only `for` recurses.
        loop {
            let Some((first, rest)) = clauses.split_first() else {
                return self.end(scale);
            };
            match first {
                CClause::Where(cond) => {
                    if !self.test(cond)? {
                        return Ok(());
                    }
                }
                CClause::Let(CPattern::Slot(s), CExpr::Path(base, steps)) => {
                    self.bind_path(*s, base, steps)?;
                }
                CClause::Let(pat, value) => {
                    let v = self.eval(value)?;
                    self.bind(pat, v)?;
                }
                CClause::For(pat, iter) => return self.each(pat, iter, rest, scale),
            }
            clauses = rest;
        }
    }

    /// A `for` clause: binds `pat` to each element of `iter` and runs `rest`.
    fn each(&mut self, pat: &CPattern, iter: &CExpr, rest: &[CClause], scale: u128) -> Run<()> {
        let coll = self.eval(iter)?;
        let len = coll.len().ok_or(GiveUp)? as u128;
        let planned = scale.saturating_mul(len.max(1));
        if self.steps.saturating_add(planned) > self.step_limit && len > 0 {
            return Err(GiveUp);
        }
        let step = |run: &mut Self, x: Value| {
            run.steps += 1;
            if run.steps & 1023 == 0 && budget::exceeded() {
                return Err(GiveUp);
            }
            run.bind(pat, x)?;
            run.clauses(rest, planned)
        };
        if let Value::Range(lo, hi) = coll {
            // Most loops: integers, with nothing to clone or drop.
            for i in lo..hi {
                step(self, Value::Int(i))?;
            }
            return Ok(());
        }
        coll.try_for_each(|x| step(self, x)).ok_or(GiveUp)?
    }

    /// Runs the prefix alone, keeping its bindings.
    fn skeleton(&mut self) -> Option<Skeleton> {
        self.snapshot = Some((Vec::new(), 0, 1));
        let made = self.clauses(&self.force.clauses[..self.force.prefix], 1);
        let (values, bindings, scale) = self.snapshot.take()?;
        let steps = std::mem::take(&mut self.steps);
        made.ok()?;
        Some(Skeleton {
            values,
            bindings,
            steps,
            scale,
        })
    }

    /// The clauses after the prefix, for each of its bindings.
    fn replay(&mut self, skeleton: &Skeleton) -> Run<()> {
        self.steps = skeleton.steps;
        if self.steps > self.step_limit {
            return Err(GiveUp);
        }
        let rest = &self.force.clauses[self.force.prefix..];
        for b in 0..skeleton.bindings {
            self.bind_prefix(skeleton, b);
            self.clauses(rest, skeleton.scale)?;
        }
        Ok(())
    }

    /// [`Runner::replay`] through the memo: the clauses run only for a (binding,
    /// character) met for the first time, or a value that is not a character.
    fn replay_memo(&mut self, skeleton: &Skeleton, memo: &Memo) -> Run<()> {
        self.steps = skeleton.steps;
        if self.steps > self.step_limit {
            return Err(GiveUp);
        }
        let rest = &self.force.clauses[self.force.prefix..];
        self.out.reserve(skeleton.bindings);
        // The record's value, held apart from the runner, which the clauses change.
        let base = self.globals[memo.global].clone();
        let mut rows = Rows::default();
        for b in 0..skeleton.bindings {
            let answer = memo
                .character(&base, b, &mut rows)
                .map(|c| &memo.answers[c as usize * skeleton.bindings + b]);
            match answer.map(Cell::get) {
                Some(UNKNOWN) | None => {
                    self.bind_prefix(skeleton, b);
                    let before = self.out.len();
                    self.clauses(rest, skeleton.scale)?;
                    if let Some(a) = answer {
                        a.set(self.out.get(before).map_or(FILTERED, |o| o.0));
                    }
                }
                // Pushed and taken back when filtered: a branch on which it is, taken
                // for one cell in five of a puzzle, is mispredicted at nearly every
                // clue.
                Some(o) => {
                    self.out.push(OptionId(o));
                    let kept = self.out.len() - usize::from(o == FILTERED);
                    self.out.truncate(kept);
                }
            }
        }
        Ok(())
    }

    /// Binds the prefix's slots to their values in binding `b` of the skeleton.
    #[inline(always)]
    fn bind_prefix(&mut self, skeleton: &Skeleton, b: usize) {
        let slots = &self.force.prefix_slots;
        let k = slots.len();
        for (&s, v) in slots.iter().zip(&skeleton.values[b * k..(b + 1) * k]) {
            match (&mut self.slots[s], v) {
                // A loop counter in place: a cloned value would be built on the
                // stack in pieces and read back whole (a stall per binding).
                (Value::Int(old), Value::Int(new)) => *old = *new,
                (_, v) => self.set(s, v.clone()),
            }
        }
    }

    /// The end of the clauses: forces the option, or records a binding of the
    /// prefix while a skeleton is made.
    fn end(&mut self, scale: u128) -> Run<()> {
        let Some((values, bindings, at)) = &mut self.snapshot else {
            return self.force_one();
        };
        if values.len() + self.force.prefix_slots.len() > MAX_SKELETON {
            return Err(GiveUp);
        }
        values.extend(
            self.force
                .prefix_slots
                .iter()
                .map(|&s| self.slots[s].clone()),
        );
        *bindings += 1;
        *at = scale;
        Ok(())
    }

    fn force_one(&mut self) -> Run<()> {
        let mut index = std::mem::take(&mut self.index);
        index.clear();
        for e in &self.force.index {
            // Names and constants cloned here: a value returned by `eval` comes back
            // through memory, and reading it back stalls.
            let v = if e.is_leaf() {
                self.leaf(e).clone()
            } else {
                self.eval(e)?
            };
            index.push(v);
        }
        let id = self.fam.options.get(self.force.family, &index);
        self.index = index;
        self.out.push(id.ok_or(GiveUp)?);
        Ok(())
    }

    #[inline]
    fn bind(&mut self, pat: &CPattern, v: Value) -> Run<()> {
        if let CPattern::Slot(s) = pat {
            self.set(*s, v);
            return Ok(());
        }
        self.bind_parts(pat, v)
    }

    fn bind_parts(&mut self, pat: &CPattern, v: Value) -> Run<()> {
        match pat {
            CPattern::Slot(s) => self.set(*s, v),
            CPattern::Wildcard => {}
            CPattern::Tuple(pats) => {
                let parts: &[Value] = match &v {
                    Value::Tuple(xs) => xs,
                    Value::List(xs) => xs,
                    _ => return Err(GiveUp),
                };
                if parts.len() != pats.len() {
                    return Err(GiveUp);
                }
                for (p, x) in pats.iter().zip(parts) {
                    self.bind(p, x.clone())?;
                }
            }
        }
        Ok(())
    }

    /// [`Runner::truth`], with `name in text` (a cell's character in the alphabet)
    /// answered in the clause loop itself: a call per cell costs more than the test.
    #[inline(always)]
    fn test(&self, e: &CExpr) -> Run<bool> {
        if let CExpr::In {
            elem,
            coll,
            negated,
        } = e
            && let (CExpr::Local(x), CExpr::Global(g)) = (&**elem, &**coll)
            && let Some(found) = self.in_ascii_set(&self.slots[*x], *g)
        {
            return Ok(found != *negated);
        }
        self.truth(e)
    }

    /// `x in g` when top-level value `g` is a string of ASCII characters and `x` one
    /// of them or another one-byte string (`c in alphabet`): a bit of the string's
    /// mask. `None` otherwise.
    #[inline(always)]
    fn in_ascii_set(&self, x: &Value, g: usize) -> Option<bool> {
        let sets = self.ascii_sets.get_or_init(|| {
            let set = |g: &Value| match g {
                Value::Str(s) if !s.is_empty() && s.is_ascii() => {
                    Some(s.bytes().fold(0u128, |m, b| m | 1 << b))
                }
                _ => None,
            };
            self.globals.iter().map(set).collect()
        });
        let mask = sets[g]?;
        match x {
            Value::Str(x)
                if let &[b] = x.as_bytes()
                    && b.is_ascii() =>
            {
                Some(mask >> b & 1 == 1)
            }
            _ => None,
        }
    }

    /// The value of a condition. Tests are answered here, without a `Value::Bool`
    /// between them and the clause that asks.
    fn truth(&self, e: &CExpr) -> Run<bool> {
        match e {
            CExpr::In {
                elem,
                coll,
                negated,
            } => {
                if let CExpr::Global(g) = **coll
                    && let Some(found) = self.in_ascii_set(&*self.get(elem)?, g)
                {
                    return Ok(found != *negated);
                }
                let found = if elem.is_leaf() && coll.is_leaf() {
                    ops::member(self.leaf(elem), self.leaf(coll))
                } else {
                    let (x, c) = (self.get(elem)?, self.get(coll)?);
                    ops::member(&x, &c)
                };
                match found {
                    Some(Ok(found)) => Ok(found != *negated),
                    _ => Err(GiveUp),
                }
            }
            CExpr::Not(x) => Ok(!self.truth(x)?),
            CExpr::And(a, b) => Ok(self.truth(a)? && self.truth(b)?),
            CExpr::Or(a, b) => Ok(self.truth(a)? || self.truth(b)?),
            _ => match *self.get(e)? {
                Value::Bool(b) => Ok(b),
                _ => Err(GiveUp),
            },
        }
    }

    fn int(&self, e: &CExpr) -> Run<i64> {
        match *self.get(e)? {
            Value::Int(i) => Ok(i),
            _ => Err(GiveUp),
        }
    }

    fn all(&self, xs: &[CExpr]) -> Run<Vec<Value>> {
        xs.iter().map(|x| self.eval(x)).collect()
    }

    /// Binds slot `s` to a path's value, with nothing returned through memory: a
    /// value handed back by a call is written in pieces and read whole, and the read
    /// waits for the writes (a store forwarding stall, most of the time of `let x =
    /// puzzle[r][c]`).
    fn bind_path(&mut self, s: usize, base: &CExpr, steps: &[CExpr]) -> Run<()> {
        // The common case by hand, without a `Cow` in between: a character of a row.
        if let [row, col] = steps
            && let Some(Value::Str(text)) = ops::element(self.leaf(base), self.leaf(row))
            && let Value::Int(k) = *self.leaf(col)
            && let Some(b) = ops::ascii_at(text, k)
        {
            // A string in the slot (the last cell's character) takes the new one in
            // place: no value is built on the stack and moved.
            match &mut self.slots[s] {
                // The same character again (most cells of a puzzle are empty): the
                // count of its shared text is not touched, which every clone and drop
                // of it would wait on.
                Value::Str(old) if old.as_bytes() == [b] => {}
                Value::Str(old) => *old = self.chars.rc(b),
                slot => *slot = Value::Str(self.chars.rc(b)),
            }
            return Ok(());
        }
        let v = self.path(base, steps)?.into_owned();
        self.set(s, v);
        Ok(())
    }

    /// Stores `v` in slot `s`. The new value goes in before the old one is dropped:
    /// dropping first (a call) parks `v` on the stack in pieces and reads it back whole,
    /// a store forwarding stall on every binding.
    #[inline(always)]
    fn set(&mut self, s: usize, v: Value) {
        let old = std::mem::replace(&mut self.slots[s], v);
        drop(old);
    }

    /// `base[steps[0]][steps[1]]...`, borrowed while each step is an element held by
    /// the one before.
    #[inline(always)]
    fn path<'s>(&'s self, base: &'s CExpr, steps: &'s [CExpr]) -> Run<Cow<'s, Value>> {
        let mut at = self.leaf(base);
        for (n, step) in steps.iter().enumerate() {
            let k = self.leaf(step);
            if let Some(x) = ops::element(at, k) {
                at = x;
                continue;
            }
            // Not an element held by `at`: a character of a string (a grid's row, the
            // common case), or anything else the operator answers.
            let mut v = match (at, k) {
                (Value::Str(s), &Value::Int(k)) if let Some(b) = ops::ascii_at(s, k) => {
                    self.chars.get(b)
                }
                _ => ops::index(at, k).map_err(|_| GiveUp)?,
            };
            for step in &steps[n + 1..] {
                v = ops::index(&v, self.leaf(step)).map_err(|_| GiveUp)?;
            }
            return Ok(Cow::Owned(v));
        }
        Ok(Cow::Borrowed(at))
    }

    /// The value of a leaf ([`CExpr::is_leaf`]).
    #[inline]
    fn leaf<'s>(&'s self, e: &'s CExpr) -> &'s Value {
        match e {
            CExpr::Const(v) => v,
            CExpr::Global(g) => &self.globals[*g],
            CExpr::Local(s) => &self.slots[*s],
            _ => unreachable!("only leaves are read by `leaf`"),
        }
    }

    /// The value of `e`, borrowed where it is held already (a name's value, or an
    /// element of one): reading `puzzle[r][c]` copies no row.
    #[inline]
    fn get<'s>(&'s self, e: &'s CExpr) -> Run<Cow<'s, Value>> {
        if e.is_leaf() {
            Ok(Cow::Borrowed(self.leaf(e)))
        } else {
            self.compound(e)
        }
    }

    /// [`Runner::get`] of an expression that is not a leaf.
    fn compound<'s>(&'s self, e: &'s CExpr) -> Run<Cow<'s, Value>> {
        Ok(match e {
            CExpr::Path(base, steps) => self.path(base, steps)?,
            CExpr::Index(base, index) => {
                let index = self.get(index)?;
                let base = self.get(base)?;
                // A character of a grid's row, the common case of per-record clauses:
                // one byte read, no scan of the row.
                if let (Value::Str(s), &Value::Int(k)) = (&*base, &*index)
                    && let Some(b) = ops::ascii_at(s, k)
                {
                    return Ok(Cow::Owned(self.chars.get(b)));
                }
                match base {
                    Cow::Borrowed(b) => match ops::element(b, &index) {
                        Some(x) => Cow::Borrowed(x),
                        None => Cow::Owned(ops::index(b, &index).map_err(|_| GiveUp)?),
                    },
                    Cow::Owned(b) => Cow::Owned(ops::index(&b, &index).map_err(|_| GiveUp)?),
                }
            }
            _ => Cow::Owned(self.eval(e)?),
        })
    }

    #[inline]
    fn eval(&self, e: &CExpr) -> Run<Value> {
        match e {
            CExpr::Global(g) => Ok(self.globals[*g].clone()),
            CExpr::Local(s) => Ok(self.slots[*s].clone()),
            CExpr::Path(base, steps) => Ok(self.path(base, steps)?.into_owned()),
            _ => self.eval_compound(e),
        }
    }

    fn eval_compound(&self, e: &CExpr) -> Run<Value> {
        Ok(match e {
            CExpr::Const(v) => v.clone(),
            CExpr::Global(g) => self.globals[*g].clone(),
            CExpr::Local(s) => self.slots[*s].clone(),
            CExpr::Tuple(xs) => Value::tuple(self.all(xs)?),
            CExpr::List(xs) => Value::list(self.all(xs)?),
            CExpr::Set(xs) => Value::set(self.all(xs)?),
            CExpr::Neg(x) => Value::Int(self.int(x)?.checked_neg().ok_or(GiveUp)?),
            CExpr::Not(..) | CExpr::And(..) | CExpr::Or(..) | CExpr::In { .. } => {
                Value::Bool(self.truth(e)?)
            }
            CExpr::Binary(op, a, b) => {
                let (a, b) = (self.get(a)?, self.get(b)?);
                ops::binary(*op, &a, &b).map_err(|_| GiveUp)?
            }
            CExpr::Range { lo, hi, inclusive } => {
                let a = self.int(lo)?;
                let b = self.int(hi)?;
                let b = if *inclusive {
                    b.checked_add(1).ok_or(GiveUp)?
                } else {
                    b
                };
                // An empty range is an error or not depending on what the bounds
                // read: the evaluator's call.
                if b < a {
                    return Err(GiveUp);
                }
                Value::Range(a, b)
            }
            CExpr::Builtin(name, args) => {
                let args = self.all(args)?;
                let made = builtins::call(name, &args).map_err(|_| GiveUp)?;
                let size = match &made {
                    Value::List(_) | Value::Set(_) | Value::Map(_) | Value::Tuple(_) => made.len(),
                    _ => None,
                };
                if size.is_some_and(|n| n > self.size_limit) {
                    return Err(GiveUp);
                }
                made
            }
            CExpr::Path(base, steps) => self.path(base, steps)?.into_owned(),
            CExpr::Index(..) => self.get(e)?.into_owned(),
            CExpr::If(cond, then, otherwise) => {
                if self.truth(cond)? {
                    self.eval(then)?
                } else {
                    self.eval(otherwise)?
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use crate::lower::Lowerer;
    use crate::lower::data::parse_text;
    use crate::source::SourceFile;

    /// A 4x4 sudoku's items and options, with a data parameter of type `ty`.
    fn model(ty: &str, force: &str) -> String {
        format!(
            "param n = 2\n\
             param alphabet = \"1234\"\n\
             let N = n * n\n\
             param puzzle: {ty}\n\
             fn box_of(r, c) = r / n * n + c / n\n\
             item cell[r, c] for r in 0..N, c in 0..N\n\
             item row[r, v] for r in 0..N, v in alphabet\n\
             item col[c, v] for c in 0..N, v in alphabet\n\
             item box[b, v] for b in 0..N, v in alphabet\n\
             option put[r, c, v] for r in 0..N, c in 0..N, v in alphabet\n\
             \x20   covers cell[r, c], row[r, v], col[c, v], box[box_of(r, c), v]\n\
             {force}\n"
        )
    }

    /// Lowers every record with the compiled forces and with the evaluator alone, and
    /// checks that both force the same options or fail with the same report. Returns
    /// how many records the compiled form answered.
    fn agree(ty: &str, force: &str, records: &[&str]) -> u64 {
        agree_on(&model(ty, force), records).0
    }

    /// [`agree`] for the model `text`; also returns how many entries of its last
    /// declaration's memo are known (`None`: it has none).
    fn agree_on(text: &str, records: &[&str]) -> (u64, Option<usize>) {
        let force = text.lines().last().unwrap_or_default();
        let src = SourceFile::new("force.dlx", text);
        let m = crate::syntax::parse(&src).unwrap_or_else(|d| panic!("{d:?}"));
        let checked = crate::check::check(&m, &src).unwrap_or_else(|d| panic!("{d:?}"));
        let lowerer = || {
            Lowerer::new(
                &m,
                &src,
                &|i, p| checked.depends_on(i, &[p]),
                HashMap::new(),
                true,
                10_000_000,
            )
            .unwrap_or_else(|d| panic!("{d:?}"))
        };
        let (mut compiled, mut evaluated) = (lowerer(), lowerer());
        evaluated.evaluate_forces();
        let ptype = compiled.data_param().expect("a data parameter").1.clone();
        for record in records {
            let value = parse_text(record, &ptype).unwrap_or_else(|e| panic!("{e:?}"));
            let a = compiled.instance(Some(value.clone()));
            let b = evaluated.instance(Some(value));
            match (a, b) {
                (Ok(a), Ok(b)) => assert_eq!(a.forced, b.forced, "{force}\non {record:?}"),
                (Err(a), Err(b)) => assert_eq!(
                    format!("{:?}", a.diagnostics),
                    format!("{:?}", b.diagnostics),
                    "{force}\non {record:?}"
                ),
                (a, b) => panic!(
                    "{force}\non {record:?}: compiled {:?}, evaluated {:?}",
                    a.map(|i| i.forced).map_err(|f| f.diagnostics),
                    b.map(|i| i.forced).map_err(|f| f.diagnostics)
                ),
            }
        }
        assert_eq!(evaluated.compiled_force_runs(), 0);
        let known = compiled.compiled.last().and_then(|c| {
            let memo = c.as_ref()?.memo.get()?.as_ref()?;
            Some(
                memo.answers
                    .iter()
                    .filter(|a| a.get() != super::UNKNOWN)
                    .count(),
            )
        });
        (compiled.compiled_force_runs(), known)
    }

    /// The cell that the test and the index both read is read once, before the test.
    #[test]
    fn a_value_tested_and_forced_is_computed_once() {
        use super::{CClause, CExpr, CompiledForce};
        use crate::lower::eval::Env;
        use crate::syntax::ast::Decl;
        let force = "force put[r, c, puzzle[r][c]] for r in 0..N, c in 0..N \
                     where puzzle[r][c] in alphabet";
        let text = model("grid[N, N]", force);
        let src = SourceFile::new("force.dlx", &text);
        let m = crate::syntax::parse(&src).unwrap_or_else(|d| panic!("{d:?}"));
        let env = Env::new(&m, &src, HashMap::new());
        let Some(Decl::Force(f)) = m.decls.last() else {
            panic!("the model ends with its force declaration")
        };
        let reads_record =
            |d: usize| matches!(&m.decls[d], Decl::Param(p) if p.name.name == "puzzle");
        let c = CompiledForce::new(&env, f, &reads_record).expect("compiled");
        // The loops over rows and columns read nothing of the record: replayed.
        assert_eq!((c.prefix, c.prefix_slots.len()), (2, 2));
        assert!(matches!(
            &c.clauses[..],
            [
                CClause::For(..),
                CClause::For(..),
                CClause::Let(_, CExpr::Path(..)),
                CClause::Where(CExpr::In { elem, .. })
            ] if matches!(**elem, CExpr::Local(_))
        ));
        assert!(matches!(c.index[2], CExpr::Local(_)));
    }

    const GRIDS: [&str; 6] = [
        "1...\n....\n..3.\n...4",
        "12..\n34..\n....\n...1",
        "1111\n....\n....\n....",
        "....\n....\n....\n....",
        "4..4\n.é..\n..x.\n3...",
        "1234\n3412\n2143\n4321",
    ];

    #[test]
    fn the_clues_of_a_grid_are_forced_as_the_evaluator_forces_them() {
        let forces = [
            "force put[r, c, puzzle[r][c]] for r in 0..N, c in 0..N where puzzle[r][c] in alphabet",
            "force put[r, c, v] for r in 0..N, c in 0..N let v = puzzle[r][c] \
             where v != \".\" and not (v not in alphabet)",
            "force put[r, c, puzzle[r][c]] for r in 0..N, c in 0..N \
             where r >= 0 or puzzle[r][c] == \"?\" where puzzle[r][c] in \"1234\"",
            "force put[(r + 1) % N, N - 1 - c, if puzzle[r][c] == \"1\" then \"2\" else \"1\"] \
             for r in 0..N, c in 0..N where puzzle[r][c] in alphabet and len(puzzle[r]) == N",
            "force put[r, c, alphabet[int(puzzle[r][c]) - 1]] for (r, row) in enumerate(puzzle), \
             c in 0..len(row) where row[c] in alphabet",
            "force put[r, c, v] for r in 0..N, c in 0..N, v in alphabet where puzzle[r][c] == v",
            // A prefix with a filter and a `let`, replayed for every record.
            "force put[r, c, alphabet[d]] for r in 0..N where r != 1 for c in 0..N \
             let d = (r + c) % N where puzzle[r][c] == alphabet[d]",
            // Reads of the record besides the cell's: no memo.
            "force put[r, c, puzzle[r][c]] for r in 0..N, c in 0..N \
             where puzzle[r][c] in alphabet and puzzle[0][0] == \"1\"",
            "force put[r, c, puzzle[c][r]] for r in 0..N, c in 0..N \
             where puzzle[r][c] in alphabet and puzzle[c][r] in alphabet",
        ];
        for force in forces {
            let runs = agree("grid[N, N]", force, &GRIDS);
            assert!(runs >= 5, "{force}: compiled for {runs} records");
        }
    }

    /// The clues of a sudoku are answered from the memo after the first records: each
    /// (cell, character) is evaluated once, and the options agree with the evaluator's
    /// on every record, the memo's entries read back included.
    #[test]
    fn each_cell_and_character_is_evaluated_once() {
        let force = "force put[r, c, puzzle[r][c]] for r in 0..N, c in 0..N \
                     where puzzle[r][c] in alphabet";
        let text = model("grid[N, N]", force);
        let twice: Vec<&str> = GRIDS.iter().chain(&GRIDS).copied().collect();
        let (runs, known) = agree_on(&text, &twice);
        assert_eq!(runs, 12);
        // The cells and characters of the grids: one entry each, whatever the number
        // of records that have them (a row with a character that is not ASCII is
        // evaluated as written).
        let mut seen = std::collections::HashSet::new();
        for grid in GRIDS {
            for (r, row) in grid.lines().enumerate().filter(|(_, row)| row.is_ascii()) {
                seen.extend(row.bytes().enumerate().map(|(c, b)| (r, c, b)));
            }
        }
        assert_eq!(known, Some(seen.len()));
    }

    /// A prefix of more bindings than a memo is made for runs without one, and agrees.
    #[test]
    fn no_memo_past_its_largest_table() {
        let n = super::MAX_MEMO_BINDINGS + 1;
        let text = format!(
            "param puzzle: grid[1, {n}]\n\
             item cell[c] for c in 0..{n}\n\
             option put[c, v] for c in 0..{n}, v in \"ab\"\n\
             \x20   covers cell[c]\n\
             force put[c, puzzle[0][c]] for c in 0..{n} where puzzle[0][c] in \"ab\""
        );
        let records: Vec<String> = ["a.b", "bb.", "..a"]
            .iter()
            .map(|p| p.repeat(n / 3 + 1)[..n].to_string())
            .collect();
        let records: Vec<&str> = records.iter().map(String::as_str).collect();
        assert_eq!(agree_on(&text, &records), (3, None));
    }

    /// When the options depend on the record, an option's number does too: nothing
    /// found on one record stands for the next.
    #[test]
    fn no_memo_when_the_matrix_depends_on_the_record() {
        let text = "param alphabet = \"12\"\n\
                    param puzzle: grid[2, 3]\n\
                    item cell[r, c] for r in 0..2, c in 0..3 where puzzle[r][c] != \"#\"\n\
                    option put[r, c, v] for r in 0..2, c in 0..3, v in alphabet \
                    where puzzle[r][c] != \"#\"\n\
                    \x20   covers cell[r, c]\n\
                    force put[r, c, puzzle[r][c]] for r in 0..2, c in 0..3 \
                    where puzzle[r][c] in alphabet";
        // The 1 at row 0, column 2 is option 4 in the first grid and 2 in the second.
        let (runs, known) = agree_on(text, &["1.1\n...", "#.1\n...", "..1\n#.."]);
        assert_eq!((runs, known), (3, None));
    }

    /// An index out of bounds, an option that does not exist, a value of the wrong
    /// kind: the compiled form gives up and the evaluator reports.
    #[test]
    fn failures_are_the_evaluators_to_report() {
        let failing = [
            // Out of bounds where a 4 is in the last column.
            "force put[r, c, puzzle[r][c + 1]] for r in 0..N, c in 0..N where puzzle[r][c] == \"4\"",
            // No option for a character outside the alphabet.
            "force put[r, c, puzzle[r][c]] for r in 0..N, c in 0..N where puzzle[r][c] != \".\"",
            // A string compared with an integer.
            "force put[r, c, puzzle[r][c]] for r in 0..N, c in 0..N where puzzle[r][c] in 1..=4",
        ];
        for force in failing {
            agree("grid[N, N]", force, &GRIDS);
        }
        // The evaluator alone runs what the compiled form does not cover.
        let comprehension = "force put[r, c, v] for (r, c, v) in \
             [(r, c, puzzle[r][c]) for r in 0..N, c in 0..N] where v in alphabet";
        assert_eq!(agree("grid[N, N]", comprehension, &GRIDS), 0);
    }

    #[test]
    fn lists_of_integers_are_read_as_the_evaluator_reads_them() {
        let records = [
            "1 2 3 4",
            "4 4",
            "",
            "0 5 -1 2 3 1 1 1 1 1 1 1 1 1 1 1 1 2",
            "3",
        ];
        let forces = [
            "force put[i / N, i % N, alphabet[puzzle[i] - 1]] for i in 0..len(puzzle) \
             where 1 <= puzzle[i] and puzzle[i] <= N and i < N * N",
            "force put[0, k, str(x)] for (k, x) in zip(0..N, puzzle) where str(x) in alphabet",
            "force put[1, c, str(v)] for c in 0..min(N, len(puzzle)) let v = puzzle[c] \
             where v in 1..=N",
        ];
        for force in forces {
            let runs = agree("ints", force, &records);
            assert!(runs >= 3, "{force}: compiled for {runs} records");
        }
    }
}
