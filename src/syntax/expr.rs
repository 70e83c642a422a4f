//! Expressions: the Pratt parser over operators, and literals, brackets and
//! comprehensions. Part of the tree builder of [`super::parser`].

use std::sync::LazyLock;

use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};

use super::ast::*;
use super::errors::SyntaxError;
use super::grammar::Rule;
use super::literals;
use super::parser::{Builder, first, kids, span};
use crate::source::Span;

/// Longest run of prefix operators (`- - - x`) accepted; the Pratt parser recurses once
/// per operator.
const MAX_PREFIX_RUN: usize = 64;

/// Operators from loosest to tightest. Comparisons and ranges are declared
/// left-associative here and rejected when chained (see [`Builder::infix`]).
static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    PrattParser::new()
        .op(Op::infix(Rule::op_or, Assoc::Left))
        .op(Op::infix(Rule::op_and, Assoc::Left))
        .op(Op::prefix(Rule::op_not))
        .op(Op::infix(Rule::op_eq, Assoc::Left)
            | Op::infix(Rule::op_ne, Assoc::Left)
            | Op::infix(Rule::op_lt, Assoc::Left)
            | Op::infix(Rule::op_le, Assoc::Left)
            | Op::infix(Rule::op_gt, Assoc::Left)
            | Op::infix(Rule::op_ge, Assoc::Left)
            | Op::infix(Rule::op_in, Assoc::Left)
            | Op::infix(Rule::op_not_in, Assoc::Left))
        .op(Op::infix(Rule::op_range, Assoc::Left) | Op::infix(Rule::op_range_incl, Assoc::Left))
        .op(Op::infix(Rule::op_union, Assoc::Left))
        .op(Op::infix(Rule::op_inter, Assoc::Left))
        .op(Op::infix(Rule::op_add, Assoc::Left) | Op::infix(Rule::op_sub, Assoc::Left))
        .op(Op::infix(Rule::op_mul, Assoc::Left)
            | Op::infix(Rule::op_div, Assoc::Left)
            | Op::infix(Rule::op_rem, Assoc::Left))
        .op(Op::prefix(Rule::op_neg))
        .op(Op::postfix(Rule::index))
});

impl Builder<'_> {
    pub(super) fn expr(&self, p: Pair<'_, Rule>) -> Expr {
        let p = first(p);
        match p.as_rule() {
            Rule::if_expr => {
                let sp = span(&p);
                let mut it = kids(p).map(|q| Box::new(self.expr(q)));
                let cond = it.next().expect("grammar: condition");
                let then = it.next().expect("grammar: then");
                let otherwise = it.next().expect("grammar: else");
                Expr {
                    kind: ExprKind::If {
                        cond,
                        then,
                        otherwise,
                    },
                    span: sp,
                }
            }
            _ => self.operators(p),
        }
    }

    pub(super) fn bound_expr(&self, p: Pair<'_, Rule>) -> Expr {
        self.operators(p)
    }

    /// An `op_expr` or `bound_expr`: operands and operators in a row, to the Pratt parser.
    fn operators(&self, p: Pair<'_, Rule>) -> Expr {
        let sp = span(&p);
        let mut run = 0;
        for q in p.clone().into_inner() {
            run = if matches!(q.as_rule(), Rule::op_neg | Rule::op_not) {
                run + 1
            } else {
                0
            };
            if run > MAX_PREFIX_RUN {
                self.error(SyntaxError::TooDeep {
                    src: self.src.named(),
                    at: span(&q).into(),
                    limit: MAX_PREFIX_RUN,
                });
                return Expr {
                    kind: ExprKind::Int(0),
                    span: sp,
                };
            }
        }
        let expr = PRATT
            .map_primary(|q| self.primary(q))
            .map_prefix(|op, e| {
                let op_kind = match op.as_rule() {
                    Rule::op_neg => UnaryOp::Neg,
                    _ => UnaryOp::Not,
                };
                let mut pending = self.min_literals.borrow_mut();
                if let (UnaryOp::Neg, Some(i)) =
                    (op_kind, pending.iter().position(|s| *s == e.span))
                {
                    // `-9223372036854775808` is i64::MIN, a literal of its own.
                    pending.swap_remove(i);
                    return Expr {
                        span: span(&op).to(e.span),
                        kind: ExprKind::Int(i64::MIN),
                    };
                }
                drop(pending);
                Expr {
                    span: span(&op).to(e.span),
                    kind: ExprKind::Unary {
                        op: op_kind,
                        expr: Box::new(e),
                    },
                }
            })
            .map_postfix(|e, op| {
                let sp = e.span.to(span(&op));
                let index = kids(op)
                    .next()
                    .map(|q| self.expr(q))
                    .expect("grammar: index");
                Expr {
                    kind: ExprKind::Index {
                        base: Box::new(e),
                        index: Box::new(index),
                    },
                    span: sp,
                }
            })
            .map_infix(|l, op, r| self.infix(l, op, r))
            .parse(p.into_inner());
        for at in self.min_literals.take() {
            self.error(SyntaxError::IntTooLarge {
                src: self.src.named(),
                at: at.into(),
                text: at.slice(self.src.text()).to_string(),
            });
        }
        expr
    }

    fn infix(&self, lhs: Expr, op: Pair<'_, Rule>, rhs: Expr) -> Expr {
        let sp = lhs.span.to(rhs.span);
        let op_span = span(&op);
        let bin = |b: BinaryOp| (Some(b), false);
        let (binop, inclusive) = match op.as_rule() {
            Rule::op_or => bin(BinaryOp::Or),
            Rule::op_and => bin(BinaryOp::And),
            Rule::op_eq => bin(BinaryOp::Eq),
            Rule::op_ne => bin(BinaryOp::Ne),
            Rule::op_lt => bin(BinaryOp::Lt),
            Rule::op_le => bin(BinaryOp::Le),
            Rule::op_gt => bin(BinaryOp::Gt),
            Rule::op_ge => bin(BinaryOp::Ge),
            Rule::op_in => bin(BinaryOp::In),
            Rule::op_not_in => bin(BinaryOp::NotIn),
            Rule::op_union => bin(BinaryOp::Union),
            Rule::op_inter => bin(BinaryOp::Intersect),
            Rule::op_add => bin(BinaryOp::Add),
            Rule::op_sub => bin(BinaryOp::Sub),
            Rule::op_mul => bin(BinaryOp::Mul),
            Rule::op_div => bin(BinaryOp::Div),
            Rule::op_rem => bin(BinaryOp::Rem),
            Rule::op_range_incl => (None, true),
            _ => (None, false),
        };
        self.check_chain(&lhs, binop, op_span);
        let kind = match binop {
            Some(op) => ExprKind::Binary {
                op,
                op_span,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
            None => ExprKind::Range {
                lo: Box::new(lhs),
                hi: Box::new(rhs),
                inclusive,
            },
        };
        Expr { kind, span: sp }
    }

    /// Comparisons and ranges do not associate: `a < b < c` and `a..b..c` are errors
    /// unless the left one is in parentheses (a parenthesized expression's span
    /// includes its parentheses, which is how it is told apart).
    fn check_chain(&self, lhs: &Expr, op: Option<BinaryOp>, op_span: Span) {
        let is_cmp = |o: BinaryOp| {
            use BinaryOp::*;
            matches!(o, Eq | Ne | Lt | Le | Gt | Ge | In | NotIn)
        };
        let first = match (&lhs.kind, op) {
            (
                ExprKind::Binary {
                    op: l,
                    op_span,
                    lhs: ll,
                    rhs: lr,
                },
                Some(o),
            ) if is_cmp(*l) && is_cmp(o) && lhs.span == ll.span.to(lr.span) => {
                Some((*op_span, "comparisons", "comparison", CMP_HELP))
            }
            (ExprKind::Range { lo, hi, .. }, None) if lhs.span == lo.span.to(hi.span) => {
                let at = op_after(self.src.text(), lo.span);
                Some((at, "ranges", "range", RANGE_HELP))
            }
            _ => None,
        };
        if let Some((first, what, one, help)) = first {
            self.error(SyntaxError::Chained {
                src: self.src.named(),
                first: first.into(),
                second: op_span.into(),
                what,
                one,
                help,
            });
        }
    }

    pub(super) fn primary(&self, p: Pair<'_, Rule>) -> Expr {
        let sp = span(&p);
        let kind = match p.as_rule() {
            Rule::int => match literals::int_value(p.as_str()) {
                Some(v) => ExprKind::Int(v),
                None if p.as_str().replace('_', "") == "9223372036854775808" => {
                    // Only valid right after a `-`; decided in `map_prefix`.
                    self.min_literals.borrow_mut().push(sp);
                    ExprKind::Int(i64::MIN)
                }
                None => {
                    self.error(SyntaxError::IntTooLarge {
                        src: self.src.named(),
                        at: sp.into(),
                        text: p.as_str().to_string(),
                    });
                    ExprKind::Int(0)
                }
            },
            Rule::boolean => ExprKind::Bool(p.as_str() == "true"),
            Rule::string => {
                let text = p.as_str();
                ExprKind::Str(self.string(&text[1..text.len() - 1], sp.start as usize + 1))
            }
            Rule::block_string => {
                let text = p.as_str();
                ExprKind::Str(literals::dedent(&text[3..text.len() - 3]))
            }
            Rule::unterminated_block_string => {
                self.unterminated(sp, "\"\"\"", "");
                ExprKind::Str(literals::dedent(&p.as_str()[3..]))
            }
            Rule::unterminated_string => {
                self.unterminated(
                    sp,
                    "\"",
                    "; a string stays on one line, use a `\"\"\"` block for several",
                );
                ExprKind::Str(self.string(&p.as_str()[1..], sp.start as usize + 1))
            }
            Rule::ident => ExprKind::Name(self.ident(p)),
            Rule::call => {
                let mut it = kids(p);
                let func = self.ident(it.next().expect("grammar: function name"));
                ExprKind::Call {
                    func,
                    args: self.elements(it),
                }
            }
            Rule::parens => {
                let trailing = p
                    .clone()
                    .into_inner()
                    .any(|q| q.as_rule() == Rule::trailing_comma);
                let mut items: Vec<Expr> = kids(p)
                    .filter(|q| q.as_rule() == Rule::expr)
                    .map(|q| self.expr(q))
                    .collect();
                if items.len() == 1 && !trailing {
                    let mut inner = items.pop().expect("one element");
                    inner.span = sp;
                    return inner;
                }
                ExprKind::Tuple(items)
            }
            Rule::list => {
                let mut elems = self.elements(kids(p));
                match elems.pop() {
                    Some(Expr {
                        kind: ExprKind::ListComp { elem, clauses },
                        ..
                    }) if elems.is_empty() => ExprKind::ListComp { elem, clauses },
                    Some(e) => {
                        elems.push(e);
                        ExprKind::List(elems)
                    }
                    None => ExprKind::List(elems),
                }
            }
            _ => self.braces(p),
        };
        Expr { kind, span: sp }
    }

    /// The elements of a call or a list: expressions, or one element and the clauses
    /// of a comprehension (which become one `ListComp`).
    fn elements<'i>(&self, it: impl Iterator<Item = Pair<'i, Rule>>) -> Vec<Expr> {
        let mut out: Vec<Expr> = Vec::new();
        for q in it {
            match q.as_rule() {
                Rule::expr => out.push(self.expr(q)),
                Rule::comp_clauses => {
                    let clauses = self.clauses(q.clone());
                    if let Some(elem) = out.pop() {
                        out.push(Expr {
                            span: elem.span.to(span(&q)),
                            kind: ExprKind::ListComp {
                                elem: Box::new(elem),
                                clauses,
                            },
                        });
                    }
                }
                _ => {}
            }
        }
        out
    }

    fn braces(&self, p: Pair<'_, Rule>) -> ExprKind {
        let mut it = kids(p);
        let Some(first_expr) = it.next() else {
            return ExprKind::Set(Vec::new());
        };
        let first_expr = self.expr(first_expr);
        let Some(tail) = it.next() else {
            return ExprKind::Set(vec![first_expr]);
        };
        if tail.as_rule() == Rule::set_tail {
            let mut items = vec![first_expr];
            for q in kids(tail) {
                match q.as_rule() {
                    Rule::comp_clauses => {
                        let elem = Box::new(items.pop().expect("the first element"));
                        return ExprKind::SetComp {
                            elem,
                            clauses: self.clauses(q),
                        };
                    }
                    Rule::expr => items.push(self.expr(q)),
                    _ => {}
                }
            }
            return ExprKind::Set(items);
        }
        // A map: the first value, then a comprehension or the other entries.
        let mut tail = kids(tail);
        let value = self.expr(tail.next().expect("grammar: map value"));
        let mut entries = vec![(first_expr, value)];
        for q in tail {
            match q.as_rule() {
                Rule::comp_clauses => {
                    let (key, value) = entries.pop().expect("the first entry");
                    return ExprKind::MapComp {
                        key: Box::new(key),
                        value: Box::new(value),
                        clauses: self.clauses(q),
                    };
                }
                Rule::map_entry => {
                    let mut kv = kids(q).map(|e| self.expr(e));
                    let k = kv.next().expect("grammar: key");
                    let v = kv.next().expect("grammar: value");
                    entries.push((k, v));
                }
                _ => {}
            }
        }
        ExprKind::Map(entries)
    }

    /// The value of a `"..."` string's inside, reporting unknown escapes; `offset` is
    /// where the inside starts in the file.
    fn string(&self, inner: &str, offset: usize) -> String {
        let (value, bad) = literals::unescape(inner);
        for (a, b) in bad {
            self.error(SyntaxError::InvalidEscape {
                src: self.src.named(),
                at: Span::new(offset + a, offset + b).into(),
                text: inner[a..b].to_string(),
            });
        }
        value
    }

    fn unterminated(&self, sp: Span, quote: &'static str, more: &'static str) {
        self.error(SyntaxError::UnterminatedString {
            src: self.src.named(),
            at: sp.into(),
            quote,
            more,
        });
    }
}

const CMP_HELP: &str = "to test both, write `a < b and b < c`; to compare with the result, \
                        put the first comparison in parentheses";
const RANGE_HELP: &str = "put the first range in parentheses if you really mean a range of ranges";

/// The span of the `..` or `..=` right after `lo` (skipping whitespace), for labels.
fn op_after(text: &str, lo: Span) -> Span {
    let start = lo.end as usize;
    let rest = text.get(start..).unwrap_or("");
    let skip = rest.len() - rest.trim_start().len();
    let len = if rest.trim_start().starts_with("..=") {
        3
    } else {
        2
    };
    Span::new(start + skip, start + skip + len)
}
