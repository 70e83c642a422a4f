//! The typed syntax tree of a `.dlx` model.
//!
//! Every node carries the [`Span`] of the text it was parsed from, so later phases can
//! point at it. The tree is what the user wrote, nothing resolved: names are strings,
//! types are written type expressions. pest's own types never appear here.

use crate::source::Span;

/// A whole model file: its declarations in source order.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Declarations, in the order written.
    pub decls: Vec<Decl>,
    /// The whole file.
    pub span: Span,
}

/// A name as written, with its place.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it is written.
    pub span: Span,
}

/// A top-level declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum Decl {
    /// `param n = 3`, `param puzzle: grid[N, N]`.
    Param(ParamDecl),
    /// `let N = n * n`.
    Let(LetDecl),
    /// `fn box_of(r, c) = r / n * n + c / n`.
    Fn(FnDecl),
    /// `item cell[r, c] for r in 0..N, c in 0..N`.
    Item(ItemDecl),
    /// `option put[r, c, v] for ... covers ...`.
    Option(OptionDecl),
    /// `force put[r, c, v] for ... where ...`.
    Force(ForceDecl),
    /// `minimize count`, `maximize cost`.
    Objective(ObjectiveDecl),
    /// `canvas (r, c) = "." for ...`: cells painted under every solution.
    Canvas(Paint),
    /// `draw cells hex`, `draw region (r, c) = box(r, c) for ...`: how pictures are
    /// drawn.
    Draw(DrawDecl),
    /// `assert COND for ... else MESSAGE`: a check of the parameters and data.
    Assert(AssertDecl),
    /// `symmetry cell[r, c] -> cell[r, 9 - c]`: a generator of the board's symmetries.
    Symmetry(SymmetryDecl),
}

impl Decl {
    /// The span of the whole declaration.
    pub fn span(&self) -> Span {
        match self {
            Decl::Param(d) => d.span,
            Decl::Let(d) => d.span,
            Decl::Fn(d) => d.span,
            Decl::Item(d) => d.span,
            Decl::Option(d) => d.span,
            Decl::Force(d) => d.span,
            Decl::Objective(d) => d.span,
            Decl::Canvas(d) => d.span,
            Decl::Draw(d) => d.span,
            Decl::Assert(d) => d.span,
            Decl::Symmetry(d) => d.span,
        }
    }

    /// The name the declaration defines, if it defines one (forces and objectives
    /// do not).
    pub fn name(&self) -> Option<&Ident> {
        match self {
            Decl::Param(d) => Some(&d.name),
            Decl::Let(d) => Some(&d.name),
            Decl::Fn(d) => Some(&d.name),
            Decl::Item(d) => Some(&d.name),
            Decl::Option(d) => Some(&d.name),
            Decl::Force(_)
            | Decl::Objective(_)
            | Decl::Canvas(_)
            | Decl::Draw(_)
            | Decl::Assert(_)
            | Decl::Symmetry(_) => None,
        }
    }
}

/// `draw ...`: one setting of the pictures.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawDecl {
    /// What it sets.
    pub what: Draw,
    /// The whole declaration.
    pub span: Span,
}

/// What a `draw` declaration sets.
#[derive(Clone, Debug, PartialEq)]
pub enum Draw {
    /// `draw cells hex`: the shape of the painted cells (`square`, `triangle`, `hex`),
    /// with the span of the shape's name.
    Cells(String, Span),
    /// `draw region CELL = VALUE CLAUSES`: the region of each cell; pictures outline
    /// the borders between regions (the first declaration's thick, the others'
    /// dashed).
    Region(Paint),
    /// `draw note CELL = TEXT CLAUSES`: a small text in a cell's corner.
    Note(Paint),
}

/// `param NAME (: TYPE)? (= DEFAULT)?`.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamDecl {
    /// The parameter's name.
    pub name: Ident,
    /// Its declared type, if any.
    pub ty: Option<TypeExpr>,
    /// Its default value, if any.
    pub default: Option<Expr>,
    /// The whole declaration.
    pub span: Span,
}

/// A written type: `int`, `str`, `grid`, `grid[N, N]`, `ints`, `set`, `list`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeExpr {
    /// The type's name.
    pub name: Ident,
    /// Arguments in brackets, such as the dimensions of a grid.
    pub args: Vec<Expr>,
    /// The whole type.
    pub span: Span,
}

/// `let NAME = EXPR`.
#[derive(Clone, Debug, PartialEq)]
pub struct LetDecl {
    /// The name bound.
    pub name: Ident,
    /// Its value.
    pub value: Expr,
    /// The whole declaration.
    pub span: Span,
}

/// `fn NAME(PARAMS) = BODY`.
#[derive(Clone, Debug, PartialEq)]
pub struct FnDecl {
    /// The function's name.
    pub name: Ident,
    /// Its parameters.
    pub params: Vec<Ident>,
    /// The expression it computes.
    pub body: Expr,
    /// The whole declaration.
    pub span: Span,
}

/// Whether an item family is primary, secondary or colored (written before `item`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemClass {
    /// Covered exactly once (or within its bounds); the default.
    Primary,
    /// `secondary item ...`: covered at most once.
    Secondary,
    /// `colored item ...`: secondary, and options that give it the same color may share it.
    Colored,
}

/// A multiplicity interval after `:` in an item declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum BoundsExpr {
    /// `: k` — exactly `k` times.
    Exactly(Expr),
    /// `: lo..hi` or `: lo..` (no upper bound).
    Range {
        /// The lower bound.
        lo: Expr,
        /// The upper bound, or `None` for "no limit".
        hi: Option<Expr>,
    },
}

/// `[secondary|colored] item NAME[INDEX] (for ...)? (: BOUNDS)?`.
#[derive(Clone, Debug, PartialEq)]
pub struct ItemDecl {
    /// Primary, secondary or colored.
    pub class: ItemClass,
    /// The family name.
    pub name: Ident,
    /// The index expressions in brackets; empty for a single item without brackets.
    pub index: Vec<Expr>,
    /// Generators, filters and local lets.
    pub clauses: Vec<Clause>,
    /// The multiplicity interval, if written.
    pub bounds: Option<BoundsExpr>,
    /// The whole declaration.
    pub span: Span,
}

/// `option NAME[INDEX] (for ...)? covers ... (cost E)? (paint ...)*`.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionDecl {
    /// The family name.
    pub name: Ident,
    /// The index expressions in brackets; empty for a single option.
    pub index: Vec<Expr>,
    /// Generators, filters and local lets, in order.
    pub clauses: Vec<Clause>,
    /// The items each option covers.
    pub covers: Vec<CoverEntry>,
    /// The option's cost, if any.
    pub cost: Option<Expr>,
    /// Cells painted when the option is chosen.
    pub paints: Vec<Paint>,
    /// The whole declaration.
    pub span: Span,
}

/// One entry of a `covers` list: `cell[r, c]`, `hole[x, y] for (x, y) in at`,
/// `square[x, y] = color`.
#[derive(Clone, Debug, PartialEq)]
pub struct CoverEntry {
    /// The item family.
    pub family: Ident,
    /// Its index expressions.
    pub index: Vec<Expr>,
    /// The color given to a colored item, if any.
    pub color: Option<Expr>,
    /// A comprehension over this entry, if any. An `if COND` after the entry is its
    /// last clause, a `where COND`, and [`CoverEntry::guard`] says so.
    pub clauses: Vec<Clause>,
    /// Whether the last clause was written `if COND`: a condition on the entry, on
    /// purpose (no E0115 for it).
    pub guard: bool,
    /// The whole entry.
    pub span: Span,
}

/// `paint CELL = VALUE (for ...)?`: what a chosen option shows in the solution grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Paint {
    /// The cell, a `(row, column)` pair.
    pub cell: Expr,
    /// What the cell shows.
    pub value: Expr,
    /// A comprehension over cells, if any.
    pub clauses: Vec<Clause>,
    /// The whole clause.
    pub span: Span,
}

/// `force NAME[INDEX] (for ...)?`: options every solution must contain.
#[derive(Clone, Debug, PartialEq)]
pub struct ForceDecl {
    /// The option family.
    pub family: Ident,
    /// Index expressions naming the forced option.
    pub index: Vec<Expr>,
    /// Generators and filters.
    pub clauses: Vec<Clause>,
    /// The whole declaration.
    pub span: Span,
}

/// `assert COND CLAUSES (else MESSAGE)?`: for every binding of the clauses, `COND` must
/// hold; otherwise the model (or the data record) is rejected with `MESSAGE`.
#[derive(Clone, Debug, PartialEq)]
pub struct AssertDecl {
    /// What must be true.
    pub cond: Expr,
    /// Generators and filters.
    pub clauses: Vec<Clause>,
    /// What to tell the user when it is not.
    pub message: Option<Expr>,
    /// The whole declaration.
    pub span: Span,
}

/// `symmetry MAP, MAP, ...`: one generator of the problem's symmetry group. Together the
/// maps send items to items; an item no map matches is sent to itself.
#[derive(Clone, Debug, PartialEq)]
pub struct SymmetryDecl {
    /// The maps, in the order written.
    pub maps: Vec<SymmetryMap>,
    /// The whole declaration.
    pub span: Span,
}

/// `from[PATTERNS] -> to[INDEX] (where COND)?`: where the items of `from` whose index
/// matches the patterns (and passes the filter) go.
#[derive(Clone, Debug, PartialEq)]
pub struct SymmetryMap {
    /// The family of the items moved.
    pub from: Ident,
    /// One pattern per index component of `from`.
    pub pattern: Vec<IndexPattern>,
    /// The family of the images.
    pub to: Ident,
    /// The image's index, evaluated with the pattern's names bound.
    pub index: Vec<Expr>,
    /// Only the items for which this holds are moved (the others stay).
    pub filter: Option<Expr>,
    /// The whole map.
    pub span: Span,
}

/// One component of the index on the left of a symmetry map.
#[derive(Clone, Debug, PartialEq)]
pub enum IndexPattern {
    /// A name, `_` or a tuple: binds the component.
    Bind(Pattern),
    /// A string or integer literal: the component must equal it.
    Literal(Expr),
}

impl IndexPattern {
    /// Where the pattern is written.
    pub fn span(&self) -> Span {
        match self {
            IndexPattern::Bind(p) => p.span(),
            IndexPattern::Literal(e) => e.span,
        }
    }
}

/// What an objective optimizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectiveKind {
    /// `minimize count`: fewest options.
    MinimizeCount,
    /// `minimize cost`: least total cost.
    MinimizeCost,
    /// `maximize cost`: greatest total cost.
    MaximizeCost,
}

/// `minimize count`, `minimize cost`, `maximize cost`.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectiveDecl {
    /// What to optimize.
    pub kind: ObjectiveKind,
    /// The whole declaration.
    pub span: Span,
}

/// One clause of a comprehension or a family: `for PAT in EXPR`, `where EXPR`,
/// `let PAT = EXPR`.
#[derive(Clone, Debug, PartialEq)]
pub enum Clause {
    /// `for PAT in EXPR` (also each `PAT in EXPR` after a comma).
    For {
        /// What each element is bound to.
        pat: Pattern,
        /// The collection iterated.
        iter: Expr,
        /// The whole generator.
        span: Span,
    },
    /// `where EXPR`: skip unless true.
    Where(Expr),
    /// `let PAT = EXPR`: a local binding.
    Let {
        /// What the value is bound to.
        pat: Pattern,
        /// The value.
        value: Expr,
        /// The whole clause.
        span: Span,
    },
}

/// A binding pattern: a name, `_`, or a tuple of patterns.
#[derive(Clone, Debug, PartialEq)]
pub enum Pattern {
    /// Binds the whole value.
    Name(Ident),
    /// Ignores the value.
    Wildcard(Span),
    /// Destructures a tuple (or a two-element list) of the same length.
    Tuple(Vec<Pattern>, Span),
}

impl Pattern {
    /// Where the pattern is written.
    pub fn span(&self) -> Span {
        match self {
            Pattern::Name(i) => i.span,
            Pattern::Wildcard(s) | Pattern::Tuple(_, s) => *s,
        }
    }

    /// Calls `f` on every name the pattern binds, left to right.
    pub fn for_each_name<'a>(&'a self, f: &mut impl FnMut(&'a Ident)) {
        match self {
            Pattern::Name(i) => f(i),
            Pattern::Wildcard(_) => {}
            Pattern::Tuple(ps, _) => ps.iter().for_each(|p| p.for_each_name(f)),
        }
    }
}

/// An expression with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What kind of expression.
    pub kind: ExprKind,
    /// Where it is written.
    pub span: Span,
}

impl Expr {
    /// Calls `f` on this expression and every expression inside it, the clauses of
    /// comprehensions included, outermost first.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        self.for_each_child(&mut |c| c.walk(f));
    }

    /// Calls `f` on each expression directly inside this one, in source order; for a
    /// comprehension, the expressions of its clauses (iterables, `let` values, filters)
    /// come before its element.
    pub fn for_each_child<'e>(&'e self, f: &mut dyn FnMut(&'e Expr)) {
        let clauses = |cs: &'e [Clause], f: &mut dyn FnMut(&'e Expr)| {
            for c in cs {
                match c {
                    Clause::For { iter, .. } => f(iter),
                    Clause::Let { value, .. } => f(value),
                    Clause::Where(w) => f(w),
                }
            }
        };
        match &self.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) | ExprKind::Name(_) => {}
            ExprKind::Tuple(xs) | ExprKind::List(xs) | ExprKind::Set(xs) => {
                xs.iter().for_each(&mut *f);
            }
            ExprKind::Map(kvs) => kvs.iter().for_each(|(k, v)| {
                f(k);
                f(v);
            }),
            ExprKind::ListComp { elem, clauses: cs } | ExprKind::SetComp { elem, clauses: cs } => {
                clauses(cs, f);
                f(elem);
            }
            ExprKind::MapComp {
                key,
                value,
                clauses: cs,
            } => {
                clauses(cs, f);
                f(key);
                f(value);
            }
            ExprKind::Unary { expr, .. } => f(expr),
            ExprKind::Binary { lhs, rhs, .. }
            | ExprKind::Range {
                lo: lhs, hi: rhs, ..
            } => {
                f(lhs);
                f(rhs);
            }
            ExprKind::Call { args, .. } => args.iter().for_each(&mut *f),
            ExprKind::Index { base, index } => {
                f(base);
                f(index);
            }
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                f(cond);
                f(then);
                f(otherwise);
            }
        }
    }
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `not x`
    Not,
}

/// Binary operators, from loosest to tightest binding (see the grammar).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `or` (short-circuit)
    Or,
    /// `and` (short-circuit)
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<` (also proper subset)
    Lt,
    /// `<=` (also subset)
    Le,
    /// `>` (also proper superset)
    Gt,
    /// `>=` (also superset)
    Ge,
    /// `in` (membership in a collection, substring of a string, key of a map)
    In,
    /// `not in`
    NotIn,
    /// `|`: set union
    Union,
    /// `&`: set intersection
    Intersect,
    /// `+`: integer sum, string/list concatenation
    Add,
    /// `-`: integer difference, set difference
    Sub,
    /// `*`
    Mul,
    /// `/`: integer division, rounding toward negative infinity
    Div,
    /// `%`: remainder with the sign of the divisor
    Rem,
}

impl BinaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::In => "in",
            BinaryOp::NotIn => "not in",
            BinaryOp::Union => "|",
            BinaryOp::Intersect => "&",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
        }
    }
}

/// The kinds of expression.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An integer literal.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A string literal (escapes resolved; `"""` blocks dedented).
    Str(String),
    /// A name: a parameter, let, loop variable, function or family.
    Name(Ident),
    /// `(a, b)`; a one-element tuple is written `(a,)`.
    Tuple(Vec<Expr>),
    /// `[a, b]`
    List(Vec<Expr>),
    /// `{a, b}`; `{}` is the empty set.
    Set(Vec<Expr>),
    /// `{k: v, ...}`
    Map(Vec<(Expr, Expr)>),
    /// `[e for ...]`; also the argument of `f(e for ...)`.
    ListComp {
        /// The element computed per binding.
        elem: Box<Expr>,
        /// The clauses, first one a `for`.
        clauses: Vec<Clause>,
    },
    /// `{e for ...}`
    SetComp {
        /// The element computed per binding.
        elem: Box<Expr>,
        /// The clauses, first one a `for`.
        clauses: Vec<Clause>,
    },
    /// `{k: v for ...}`
    MapComp {
        /// The key.
        key: Box<Expr>,
        /// The value.
        value: Box<Expr>,
        /// The clauses, first one a `for`.
        clauses: Vec<Clause>,
    },
    /// `-x`, `not x`.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// Its operand.
        expr: Box<Expr>,
    },
    /// `a OP b`.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// Where the operator is written.
        op_span: Span,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `lo..hi` or `lo..=hi`.
    Range {
        /// First value.
        lo: Box<Expr>,
        /// End value.
        hi: Box<Expr>,
        /// Whether `hi` is included (`..=`).
        inclusive: bool,
    },
    /// `f(args)`. Functions are only named, never computed.
    Call {
        /// The function.
        func: Ident,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// `x[i]`; a range index `x[a..b]` is a slice.
    Index {
        /// The indexed value.
        base: Box<Expr>,
        /// The index.
        index: Box<Expr>,
    },
    /// `if c then a else b`.
    If {
        /// The condition.
        cond: Box<Expr>,
        /// Value when true.
        then: Box<Expr>,
        /// Value when false.
        otherwise: Box<Expr>,
    },
}
