//! `covers F[x] for x in XS where v in g(x)`: a cover filtered by membership, lowered
//! by an index rather than by a loop in every option.
//!
//! Written as a nested loop, such a cover tries every `x` for every binding of the
//! option. POJ 1084's matchsticks (`examples/matchsticks.dlx`, `case=[26, 0]`) has
//! 1,404 sticks and 6,201 squares: 8.7 million tests of `m in sticks(s, r, c)` for
//! 175,000 entries, 2.7 s of a 3 s lowering, growing as n^5 for n^4 entries. When the
//! loop and the set read none of the option's own bindings, they are the same for
//! every option: they are evaluated once, into an index from each element of a set to
//! the bindings whose set holds it, and each option looks its `v` up there.
//!
//! The index gives the entries the loop gives, in the same order, or it is not used:
//!
//! - it is planned only when the clauses before the `where` and the set read none of
//!   the option's loop variables, and `v` reads none of the cover's own ([`Plan::of`]);
//! - it is built, by the evaluator, the first time an option reaches the cover. Any
//!   error while building it, a set that is not a set or a list, a string in a set
//!   (where `in` can be an error: `5 in {"5"}` is E0210), or more pairs than the size
//!   limit, and the cover is evaluated as written from then on: every diagnostic then
//!   comes from the evaluator, with the option's bindings in scope, as before;
//! - an option whose `v` fails to evaluate, or is a string, is evaluated as written.
//!
//! Membership of a value that is not a string in a set or list without strings is
//! equality, never an error, and [`Value`]'s `Hash` agrees with its `Eq`: the index
//! answers what `in` answers. The loop's bindings are tried once, not once per
//! option, so the limit on bindings tried (E0501) counts fewer of them.

use rustc_hash::FxHashMap;

use crate::diag::Code;
use crate::diag::report::Report;
use crate::lower::eval::{Env, EvalResult};
use crate::lower::value::Value;
use crate::syntax::ast::{BinaryOp, Clause, CoverEntry, Expr, ExprKind};

/// How one cover of an option family is lowered.
pub(crate) enum Plan<'m> {
    /// As written: the cover's clauses in every option.
    Plain,
    /// By an index, to be built when an option first reaches the cover.
    Ready(Shape<'m>),
    /// By this index.
    Indexed(Index<'m>),
}

/// The parts of `for ... where NEEDLE in HAYSTACK ...`.
#[derive(Clone, Copy)]
pub(crate) struct Shape<'m> {
    /// The clauses before the `where`: they read none of the option's bindings.
    prefix: &'m [Clause],
    /// The value looked for: it reads none of the prefix's bindings.
    needle: &'m Expr,
    /// The set looked in: it reads none of the option's bindings.
    haystack: &'m Expr,
    /// The clauses after the `where`, run for each binding found.
    suffix: &'m [Clause],
}

/// The bindings of a cover's prefix, by the values their sets hold.
pub(crate) struct Index<'m> {
    shape: Shape<'m>,
    /// The locals each binding of the prefix made, one binding after another.
    locals: Vec<(&'m str, Value)>,
    /// Where the locals of each binding start in `locals`, and one past the last.
    starts: Vec<usize>,
    /// For each value, the bindings whose set holds it, in the loop's order.
    by_value: FxHashMap<Value, Vec<usize>>,
}

#[cfg(test)]
thread_local! {
    /// Tests turn the index off, to compare it with the loop.
    static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Indexes built, for tests to see which path was taken.
    static BUILT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl<'m> Plan<'m> {
    /// The plan for `cover` in an option family whose own clauses are `option`.
    pub(crate) fn of(cover: &'m CoverEntry, option: &'m [Clause]) -> Plan<'m> {
        #[cfg(test)]
        if OFF.with(|off| off.get()) {
            return Plan::Plain;
        }
        let mut outer: Vec<&str> = Vec::new();
        for c in option {
            if let Clause::For { pat, .. } | Clause::Let { pat, .. } = c {
                pat.for_each_name(&mut |id| outer.push(&id.name));
            }
        }
        // The names the cover's clauses bind so far.
        let mut inner: Vec<&str> = Vec::new();
        let clauses = &cover.clauses[..];
        for (k, c) in clauses.iter().enumerate() {
            match c {
                Clause::Where(cond) => {
                    if let ExprKind::Binary {
                        op: BinaryOp::In,
                        lhs,
                        rhs,
                        ..
                    } = &cond.kind
                        && clauses[..k].iter().any(|c| matches!(c, Clause::For { .. }))
                        && !reads(rhs, &outer)
                        && !reads(lhs, &inner)
                    {
                        return Plan::Ready(Shape {
                            prefix: &clauses[..k],
                            needle: lhs,
                            haystack: rhs,
                            suffix: &clauses[k + 1..],
                        });
                    }
                    if reads(cond, &outer) {
                        return Plan::Plain;
                    }
                }
                Clause::For { pat, iter: e, .. } | Clause::Let { pat, value: e, .. } => {
                    if reads(e, &outer) {
                        return Plan::Plain;
                    }
                    pat.for_each_name(&mut |id| inner.push(&id.name));
                }
            }
        }
        Plan::Plain
    }
}

/// Whether `e` reads one of `names` (or a name of its own comprehensions that is
/// spelt as one of them: such an expression is left to the loop).
fn reads(e: &Expr, names: &[&str]) -> bool {
    let mut found = false;
    e.walk(&mut |x| {
        if let ExprKind::Name(id) = &x.kind {
            found |= names.contains(&id.name.as_str());
        }
    });
    found
}

/// Runs `body` for every binding of a cover's `clauses`, as [`Env::for_each`] does,
/// by `plan`.
pub(crate) fn for_each<'m>(
    env: &mut Env<'m>,
    plan: &mut Plan<'m>,
    clauses: &'m [Clause],
    body: &mut dyn FnMut(&mut Env<'m>) -> EvalResult<()>,
) -> EvalResult<()> {
    if let Plan::Ready(shape) = *plan {
        *plan = build(env, shape).map_or(Plan::Plain, Plan::Indexed);
        #[cfg(test)]
        if matches!(plan, Plan::Indexed(_)) {
            BUILT.with(|n| n.set(n.get() + 1));
        }
    }
    let Plan::Indexed(ix) = plan else {
        return env.for_each(clauses, body);
    };
    if ix.starts.len() == 1 {
        // The loop makes no binding: it would never evaluate the needle.
        return Ok(());
    }
    let needle = match env.eval(ix.shape.needle) {
        Ok(v) if !matches!(v, Value::Str(_)) => v,
        // An error, or a string (which may be one): as written, so that the
        // evaluator says what it says.
        _ => return env.for_each(clauses, body),
    };
    let Some(found) = ix.by_value.get(&needle) else {
        return Ok(());
    };
    for &b in found {
        let depth = env.depth();
        env.push_locals(&ix.locals[ix.starts[b]..ix.starts[b + 1]]);
        let done = env.for_each(ix.shape.suffix, body);
        env.truncate(depth);
        done?;
    }
    Ok(())
}

/// Evaluates the prefix and the set of every binding into an index; `None` when the
/// cover is to be evaluated as written (see the module documentation).
fn build<'m>(env: &mut Env<'m>, shape: Shape<'m>) -> Option<Index<'m>> {
    let base = env.depth();
    let limit = env.size_limit;
    let mut ix = Index {
        shape,
        locals: Vec::new(),
        starts: vec![0],
        by_value: FxHashMap::default(),
    };
    let mut pairs = 0usize;
    // The error that stops the loop when the index cannot be used: never shown.
    let give_up = || Box::new(Report::error(Code::E0501, "no index"));
    let built = env.for_each(shape.prefix, &mut |env| {
        let set = env.eval(shape.haystack)?;
        let b = ix.starts.len() - 1;
        let values: &mut dyn Iterator<Item = &Value> = match &set {
            Value::Set(xs) => &mut xs.iter(),
            Value::List(xs) => &mut xs.iter(),
            _ => return Err(give_up()),
        };
        for v in values {
            pairs += 1;
            if matches!(v, Value::Str(_)) || pairs > limit {
                return Err(give_up());
            }
            let holders = ix.by_value.entry(v.clone()).or_default();
            // A list may hold a value twice; the binding is found once.
            if holders.last() != Some(&b) {
                holders.push(b);
            }
        }
        ix.locals.extend_from_slice(env.locals_since(base));
        ix.starts.push(ix.locals.len());
        Ok(())
    });
    built.ok().map(|()| ix)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::diag::{RenderStyle, render_all};
    use crate::lower::Lowerer;
    use crate::source::SourceFile;

    /// The options of `text` (name, then the items covered), or its diagnostics, and
    /// how many covers used an index.
    fn lower(text: &str, index: bool, max_size: usize) -> (String, usize) {
        OFF.with(|off| off.set(!index));
        BUILT.with(|n| n.set(0));
        let src = SourceFile::new("test.dlx", text);
        let model = crate::syntax::parse(&src).unwrap_or_else(|d| panic!("{d:?}"));
        let checked = crate::check::check(&model, &src).unwrap_or_else(|d| panic!("{d:?}"));
        let made = Lowerer::new(
            &model,
            &src,
            &|i, p| checked.depends_on(i, &[p]),
            HashMap::new(),
            false,
            max_size,
        )
        .and_then(|mut l| l.instance(None).map_err(|f| f.diagnostics));
        OFF.with(|off| off.set(false));
        let built = BUILT.with(|n| n.get());
        let inst = match made {
            Ok(inst) => inst,
            Err(d) => return (render_all(&d, RenderStyle::GOLDEN), built),
        };
        let p = &inst.compiled.problem;
        let mut out = String::new();
        for o in p.options.iter() {
            out.push_str(o.name.unwrap_or("?"));
            for e in o.entries {
                out.push(' ');
                out.push_str(&p.item(e.item).name);
            }
            out.push('\n');
        }
        (out, built)
    }

    /// Lowers `text` with and without the index and checks that both agree; returns
    /// what they gave, and how many indexes were built.
    fn same(text: &str, max_size: usize) -> (String, usize) {
        let (plain, none) = lower(text, false, max_size);
        assert_eq!(none, 0);
        let (indexed, built) = lower(text, true, max_size);
        assert_eq!(indexed, plain, "the index and the loop differ on\n{text}");
        (plain, built)
    }

    fn plan_of(text: &str) -> &'static str {
        let src = SourceFile::new("test.dlx", text);
        let model = crate::syntax::parse(&src).unwrap_or_else(|d| panic!("{d:?}"));
        let opt = model
            .decls
            .iter()
            .find_map(|d| match d {
                crate::syntax::ast::Decl::Option(o) => Some(o),
                _ => None,
            })
            .expect("an option family");
        match Plan::of(&opt.covers[0], &opt.clauses) {
            Plan::Plain => "plain",
            Plan::Ready(_) => "index",
            Plan::Indexed(_) => unreachable!("built only when used"),
        }
    }

    const SQUARES: &str = "\
        let n = 3\n\
        let W = 2 * n + 1\n\
        fn sticks(s, r, c) = union({r * W + c + i, (r + s) * W + c + i, (r + i) * W + n + c, (r + i) * W + n + c + s} for i in 0..s)\n\
        let squares = [(s, r, c) for s in 1..=n, r in 0..=n - s, c in 0..=n - s]\n\
        item square[s, r, c] for (s, r, c) in squares : 1..\n";

    #[test]
    fn only_covers_whose_loop_and_set_ignore_the_option_are_indexed() {
        let base = "item a[i] for i in 0..4\n";
        let cases = [
            ("covers a[i] for i in 0..4 where m in {i, i + 1}", "index"),
            // The set reads the option's `m`: no two options share it.
            ("covers a[i] for i in 0..4 where i in {m}", "plain"),
            // So does the loop.
            ("covers a[i] for i in 0..m where m in {i}", "plain"),
            // The needle reads the cover's own `i`.
            ("covers a[i] for i in 0..4 where i in {1, 2}", "plain"),
            // No loop to save.
            ("covers a[m] where m in {1}", "plain"),
            // `not in`, and a filter that is no membership.
            ("covers a[i] for i in 0..4 where m not in {i}", "plain"),
            ("covers a[i] for i in 0..4 where m == i", "plain"),
            // A filter before it reads `m`.
            (
                "covers a[i] for i in 0..4 where i < m where m in {i}",
                "plain",
            ),
            // A `let` and a filter of the loop's own before it, and clauses after it.
            (
                "covers a[j] for i in 0..4 let j = 3 - i where j > 0 where m in {i} for _ in 0..1",
                "index",
            ),
        ];
        for (cover, want) in cases {
            let text = format!("{base}option o[m] for m in 0..4\n    {cover}\n");
            assert_eq!(plan_of(&text), want, "{cover}");
        }
    }

    #[test]
    fn the_index_gives_the_loops_entries_in_its_order() {
        // The matchsticks model of the module documentation, on a 3x3 grid.
        let text = format!(
            "{SQUARES}option take[m] for m in 0..2 * n * (n + 1) + n\n\
             \x20   covers square[s, r, c] for (s, r, c) in squares where m in sticks(s, r, c)\n"
        );
        let (out, built) = same(&text, 10_000_000);
        assert!(
            out.contains("take[0] square[1,0,0] square[2,0,0] square[3,0,0]"),
            "{out}"
        );
        assert_eq!(built, 1);
        // Lists, a value twice in one list, bindings with no set, shadowing, `let`s and
        // clauses after the `where`, and two covers, one of them plain.
        let (_, built) = same(
            "let hits = [[1, 1, 2], [], [2, 3], [0]]\n\
             item a[i] for i in 0..4\n\
             secondary item b[i, k] for i in 0..4, k in 0..2\n\
             option o[m] for m in 0..5\n\
             \x20   covers a[i] for i in 0..4 let h = hits[i] where m in h,\n\
             \x20          b[i, k] for i in 0..4 where m in hits[i] for k in 0..2 where k <= i % 2,\n\
             \x20          b[m % 4, 1] if m == 4\n",
            10_000_000,
        );
        assert_eq!(built, 2);
        let (_, built) = same(
            "let cells = {(0, 0), (0, 1), (1, 1)}\n\
             item cell[p] for p in cells\n\
             option put[r, c] for r in 0..2, c in 0..2\n\
             \x20   covers cell[p] for p in cells where (r, c) in {p, (p[0], p[1] - 1)}\n",
            10_000_000,
        );
        assert_eq!(built, 1);
    }

    #[test]
    fn every_diagnostic_is_the_loops() {
        let cases = [
            // An item that does not exist, found through the index (E0401), and one
            // covered twice (E0402).
            "item a[i] for i in 0..3\n\
             option o[m] for m in 0..3\n\
             \x20   covers a[i + 1] for i in 0..3 where m in {i}\n",
            "item a[i] for i in 0..3\n\
             option o[m] for m in 0..3\n\
             \x20   covers a[0] for i in 0..3 where m in {0, i}\n",
            // A set of strings: `1 in {\"1\"}` is E0210, which the index would not see.
            "item a[i] for i in 0..3\n\
             option o[m] for m in 0..3\n\
             \x20   covers a[i] for i in 0..3 where m in {str(i)}\n",
            // A needle that is a string, looked for among integers.
            "item a[i] for i in 0..3\n\
             option o[m] for m in [\"x\", \"y\"]\n\
             \x20   covers a[i] for i in 0..3 where m in {i}\n",
            // A set that is no collection at all.
            "item a[i] for i in 0..3\n\
             option o[m] for m in 0..3\n\
             \x20   covers a[i] for i in 0..3 where m in i\n",
            // A needle that fails, for the second option only.
            "item a[i] for i in 0..3\n\
             option o[m] for m in 0..3\n\
             \x20   covers a[i] for i in 0..3 where 6 / (1 - m) in {i, 6}\n",
            // A set that fails for one binding of the loop.
            "item a[i] for i in 0..3\n\
             option o[m] for m in 0..3\n\
             \x20   covers a[i] for i in 0..3 where m in {6 / (2 - i)}\n",
        ];
        for text in cases {
            let (out, _) = same(text, 10_000_000);
            assert!(out.contains("dlx::E"), "no diagnostic for\n{text}\n{out}");
        }
        // A range is no set or list: the index is given up, and the loop answers.
        let (out, built) = same(
            "item a[i] for i in 0..3\n\
             option o[m] for m in 0..3\n\
             \x20   covers a[i] for i in 0..3 where m in i..3\n",
            10_000_000,
        );
        assert_eq!((out.lines().count(), built), (3, 0), "{out}");
    }

    #[test]
    fn an_index_past_the_size_limit_is_left_to_the_loop() {
        // 300 bindings with sets of 2: 600 pairs, past a size limit of 500, so the
        // index is given up while it is built; the loop gives the same options.
        let text = "item a[i] for i in 0..300\n\
                    option o[m] for m in 0..3\n\
                    \x20   covers a[i] for i in 0..300 where m in {i % 3, 3}\n";
        let (out, built) = same(text, 500);
        assert_eq!((out.lines().count(), built), (3, 0), "{out}");
        let (_, built) = same(text, 600);
        assert_eq!(built, 1);
    }
}
