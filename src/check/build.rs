//! Test-only AST builder: there is no parser on this branch, so tests write the model
//! text and build its tree by hand. Each leaf finds its token in the text, searching
//! forward from the previous leaf, so spans are real and labels render on the right
//! words. Build nodes in source order (Rust evaluates arguments left to right).

use std::cell::Cell;

use crate::source::{SourceFile, Span};
use crate::syntax::ast::*;

/// The text being "parsed" and how far the leaves have got.
pub struct B {
    src: String,
    pos: Cell<usize>,
}

fn word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

impl B {
    pub fn new(src: &str) -> B {
        B {
            src: src.to_string(),
            pos: Cell::new(0),
        }
    }

    pub fn file(&self) -> SourceFile {
        SourceFile::new("test.dlx", self.src.clone())
    }

    /// The next occurrence of `tok` as a whole word (for words), after the cursor.
    pub fn tok(&self, tok: &str) -> Span {
        let mut from = self.pos.get();
        loop {
            let at = from
                + self.src[from..]
                    .find(tok)
                    .unwrap_or_else(|| panic!("no `{tok}` after {from}"));
            let end = at + tok.len();
            let before = self.src[..at].chars().next_back();
            let after = self.src[end..].chars().next();
            let wordy = tok.chars().all(word);
            if !wordy || !(before.is_some_and(word) || after.is_some_and(word)) {
                self.pos.set(end);
                return Span::new(at, end);
            }
            from = end;
        }
    }

    pub fn id(&self, name: &str) -> Ident {
        Ident {
            name: name.to_string(),
            span: self.tok(name),
        }
    }

    fn e(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }

    pub fn name(&self, n: &str) -> Expr {
        let id = self.id(n);
        B::e(ExprKind::Name(id.clone()), id.span)
    }

    pub fn int(&self, v: i64) -> Expr {
        B::e(ExprKind::Int(v), self.tok(&v.to_string()))
    }

    pub fn str(&self, s: &str) -> Expr {
        B::e(ExprKind::Str(s.to_string()), self.tok(&format!("\"{s}\"")))
    }

    pub fn bin(&self, lhs: Expr, op: BinaryOp, rhs: Expr) -> Expr {
        let span = lhs.span.to(rhs.span);
        let op_span = Span {
            start: lhs.span.end,
            end: rhs.span.start,
        };
        B::e(
            ExprKind::Binary {
                op,
                op_span,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
            span,
        )
    }

    pub fn range(&self, lo: Expr, hi: Expr) -> Expr {
        let span = lo.span.to(hi.span);
        B::e(
            ExprKind::Range {
                lo: Box::new(lo),
                hi: Box::new(hi),
                inclusive: false,
            },
            span,
        )
    }

    /// A call; its span runs from the name to the next `)`.
    pub fn call(&self, func: Ident, args: Vec<Expr>) -> Expr {
        let close = self.tok(")");
        let span = func.span.to(close);
        B::e(ExprKind::Call { func, args }, span)
    }

    pub fn range_incl(&self, lo: Expr, hi: Expr) -> Expr {
        let span = lo.span.to(hi.span);
        let kind = ExprKind::Range {
            lo: Box::new(lo),
            hi: Box::new(hi),
            inclusive: true,
        };
        B::e(kind, span)
    }

    pub fn set(&self, es: Vec<Expr>) -> Expr {
        let span = es
            .first()
            .map(|e| e.span)
            .unwrap_or_default()
            .to(es.last().map(|e| e.span).unwrap_or_default());
        B::e(ExprKind::Set(es), span)
    }

    pub fn paint(&self, cell: Expr, value: Expr, clauses: Vec<Clause>) -> Paint {
        let span = cell.span.to(clauses.last().map_or(value.span, clause_span));
        Paint {
            cell,
            value,
            clauses,
            span,
        }
    }

    /// Adds a multiplicity to an item family, a cost and paints to an option family.
    pub fn with(
        &self,
        mut d: Decl,
        bounds: Option<BoundsExpr>,
        cost: Option<Expr>,
        paints: Vec<Paint>,
    ) -> Decl {
        match &mut d {
            Decl::Item(i) => i.bounds = bounds,
            Decl::Option(o) => {
                o.cost = cost;
                o.paints = paints;
            }
            _ => {}
        }
        d
    }

    pub fn tuple(&self, es: Vec<Expr>) -> Expr {
        let span = es
            .first()
            .map(|e| e.span)
            .unwrap_or_default()
            .to(es.last().map(|e| e.span).unwrap_or_default());
        B::e(ExprKind::Tuple(es), span)
    }

    pub fn index(&self, base: Expr, idx: Expr) -> Expr {
        let span = base.span.to(idx.span);
        B::e(
            ExprKind::Index {
                base: Box::new(base),
                index: Box::new(idx),
            },
            span,
        )
    }

    pub fn set_comp(&self, elem: Expr, clauses: Vec<Clause>) -> Expr {
        let span = elem.span.to(clause_span(clauses.last().expect("a clause")));
        B::e(
            ExprKind::SetComp {
                elem: Box::new(elem),
                clauses,
            },
            span,
        )
    }

    pub fn list_comp(&self, elem: Expr, clauses: Vec<Clause>) -> Expr {
        let span = elem.span.to(clause_span(clauses.last().expect("a clause")));
        B::e(
            ExprKind::ListComp {
                elem: Box::new(elem),
                clauses,
            },
            span,
        )
    }

    pub fn pat(&self, n: &str) -> Pattern {
        Pattern::Name(self.id(n))
    }

    pub fn pats(&self, ns: &[&str]) -> Pattern {
        let ps: Vec<Pattern> = ns.iter().map(|n| self.pat(n)).collect();
        let span = ps[0].span().to(ps[ps.len() - 1].span());
        Pattern::Tuple(ps, span)
    }

    pub fn for_(&self, pat: Pattern, iter: Expr) -> Clause {
        let span = pat.span().to(iter.span);
        Clause::For { pat, iter, span }
    }

    pub fn let_(&self, pat: Pattern, value: Expr) -> Clause {
        let span = pat.span().to(value.span);
        Clause::Let { pat, value, span }
    }

    pub fn where_(&self, e: Expr) -> Clause {
        Clause::Where(e)
    }

    pub fn param(&self, name: Ident, ty: Option<TypeExpr>, default: Option<Expr>) -> Decl {
        let end = default
            .as_ref()
            .map(|e| e.span)
            .or(ty.as_ref().map(|t| t.span))
            .unwrap_or(name.span);
        let span = name.span.to(end);
        Decl::Param(ParamDecl {
            name,
            ty,
            default,
            span,
        })
    }

    pub fn ty(&self, name: Ident, args: Vec<Expr>) -> TypeExpr {
        let span = name.span.to(args.last().map_or(name.span, |a| a.span));
        TypeExpr { name, args, span }
    }

    pub fn let_decl(&self, name: Ident, value: Expr) -> Decl {
        let span = name.span.to(value.span);
        Decl::Let(LetDecl { name, value, span })
    }

    pub fn fn_decl(&self, name: Ident, params: Vec<Ident>, body: Expr) -> Decl {
        let span = name.span.to(body.span);
        Decl::Fn(FnDecl {
            name,
            params,
            body,
            span,
        })
    }

    pub fn item(
        &self,
        class: ItemClass,
        name: Ident,
        index: Vec<Expr>,
        clauses: Vec<Clause>,
    ) -> Decl {
        let span = name.span.to(clauses.last().map_or(name.span, clause_span));
        Decl::Item(ItemDecl {
            class,
            name,
            index,
            clauses,
            bounds: None,
            span,
        })
    }

    pub fn cover(
        &self,
        family: Ident,
        index: Vec<Expr>,
        color: Option<Expr>,
        clauses: Vec<Clause>,
    ) -> CoverEntry {
        let mut span = family.span.to(index.last().map_or(family.span, |e| e.span));
        if let Some(c) = &color {
            span = span.to(c.span);
        }
        if let Some(c) = clauses.last() {
            span = span.to(clause_span(c));
        }
        CoverEntry {
            family,
            index,
            color,
            clauses,
            guard: false,
            span,
        }
    }

    pub fn option(
        &self,
        name: Ident,
        index: Vec<Expr>,
        clauses: Vec<Clause>,
        covers: Vec<CoverEntry>,
    ) -> Decl {
        let span = name.span.to(covers.last().map_or(name.span, |c| c.span));
        Decl::Option(OptionDecl {
            name,
            index,
            clauses,
            covers,
            cost: None,
            paints: Vec::new(),
            span,
        })
    }

    pub fn force(&self, family: Ident, index: Vec<Expr>, clauses: Vec<Clause>) -> Decl {
        let span = family
            .span
            .to(clauses.last().map_or(family.span, clause_span));
        Decl::Force(ForceDecl {
            family,
            index,
            clauses,
            span,
        })
    }

    pub fn objective(&self, kw: &str, kind: ObjectiveKind) -> Decl {
        Decl::Objective(ObjectiveDecl {
            kind,
            span: self.tok(kw),
        })
    }

    pub fn model(&self, decls: Vec<Decl>) -> Model {
        Model {
            decls,
            span: Span::new(0, self.src.len()),
        }
    }
}

pub fn clause_span(c: &Clause) -> Span {
    match c {
        Clause::For { span, .. } | Clause::Let { span, .. } => *span,
        Clause::Where(e) => e.span,
    }
}
