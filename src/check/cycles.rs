//! Cycles among top-level definitions, and the order to evaluate them in.
//!
//! Only params, lets and fns take part: they are what evaluation reads. Families may
//! name any of them freely, and nothing names a family's value, so a family can never
//! be on a cycle. A strongly connected component of more than one definition (or one
//! that names itself) is reported once, by its shortest cycle from its first
//! definition in the file, so the message is the same whichever order the checker
//! walked it in.

use std::collections::VecDeque;

use super::DeclKind;
use super::error::{CheckError, Code};
use crate::source::Span;
use crate::syntax::ast::Decl;

/// One error per cycle among params, lets and fns.
pub(super) fn find_cycles(
    decls: &[Decl],
    kinds: &[DeclKind],
    refs: &[Vec<(usize, Span)>],
) -> Vec<CheckError> {
    // Edges between value definitions, each with the span of its first reference.
    let edges: Vec<Vec<(usize, Span)>> = refs
        .iter()
        .enumerate()
        .map(|(i, rs)| {
            if !kinds[i].is_value() {
                return Vec::new();
            }
            let mut out: Vec<(usize, Span)> = Vec::new();
            for &(j, span) in rs {
                if kinds[j].is_value() && !out.iter().any(|&(k, _)| k == j) {
                    out.push((j, span));
                }
            }
            out
        })
        .collect();
    let mut errors = Vec::new();
    for scc in strongly_connected(&edges) {
        let start = scc[0];
        let self_loop = edges[start].iter().any(|&(j, _)| j == start);
        if scc.len() == 1 && !self_loop {
            continue;
        }
        let path = shortest_cycle(&edges, &scc, start);
        errors.push(cycle_error(decls, kinds, &edges, &scc, &path));
    }
    errors
}

fn name(decls: &[Decl], i: usize) -> &str {
    decls[i].name().map_or("?", |n| n.name.as_str())
}

fn cycle_error(
    decls: &[Decl],
    kinds: &[DeclKind],
    edges: &[Vec<(usize, Span)>],
    scc: &[usize],
    path: &[usize],
) -> CheckError {
    let chain: Vec<&str> = path.iter().map(|&i| name(decls, i)).collect();
    let chain = chain.join(" -> ");
    let labels: Vec<(Span, String)> = path
        .windows(2)
        .map(|w| {
            let (a, b) = (w[0], w[1]);
            let span = edges[a]
                .iter()
                .find(|&&(j, _)| j == b)
                .map_or(Span::default(), |e| e.1);
            let verb = if kinds[b] == DeclKind::Fn {
                "calls"
            } else {
                "uses"
            };
            (
                span,
                format!("`{}` {verb} `{}` here", name(decls, a), name(decls, b)),
            )
        })
        .collect();
    let all_fns = scc.iter().all(|&i| kinds[i] == DeclKind::Fn);
    let first = name(decls, path[0]);
    let (code, message, help) = if all_fns && path.len() == 2 {
        (
            Code::Recursion,
            format!("function `{first}` calls itself"),
            "functions cannot be recursive, so every call finishes; compute over a range \
             instead, such as `sum(i for i in 0..=n)`",
        )
    } else if all_fns {
        (
            Code::Recursion,
            format!("functions call each other in a cycle: {chain}"),
            "functions cannot be recursive, so every call finishes; compute over a range \
             instead, such as `sum(i for i in 0..=n)`",
        )
    } else {
        (
            Code::Cycle,
            format!("`{first}` depends on itself: {chain}"),
            "a definition cannot use its own value; define one of these from values that \
             do not lead back to it",
        )
    };
    let mut labels = labels.into_iter();
    let (span, label) = labels.next().unwrap_or_default();
    let mut e = CheckError::new(code, message, span, label).with_help(help);
    for (s, l) in labels {
        e = e.with_label(s, l);
    }
    e
}

/// The shortest path `start -> ... -> start` inside one component.
fn shortest_cycle(edges: &[Vec<(usize, Span)>], scc: &[usize], start: usize) -> Vec<usize> {
    let mut parent: Vec<Option<usize>> = vec![None; edges.len()];
    let mut queue = VecDeque::from([start]);
    let mut last = start;
    'search: while let Some(a) = queue.pop_front() {
        for &(b, _) in &edges[a] {
            if b == start {
                last = a;
                break 'search;
            }
            if scc.contains(&b) && parent[b].is_none() {
                parent[b] = Some(a);
                queue.push_back(b);
            }
        }
    }
    let mut path = vec![start];
    let mut at = last;
    while at != start {
        path.push(at);
        at = parent[at].unwrap_or(start);
    }
    path.push(start);
    let n = path.len();
    path[1..n - 1].reverse();
    path
}

/// Tarjan's algorithm; each component's members sorted, components in order of
/// their first member.
fn strongly_connected(edges: &[Vec<(usize, Span)>]) -> Vec<Vec<usize>> {
    struct State<'e> {
        edges: &'e [Vec<(usize, Span)>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State<'_>, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &(w, _) in &s.edges[v] {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            comp.sort_unstable();
            s.out.push(comp);
        }
    }
    let n = edges.len();
    let mut s = State {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out.sort_by_key(|c| c[0]);
    s.out
}

/// Params and lets in an order where each comes after everything it reads, through
/// fns too; ties in source order. Assumes no cycles (checked before).
pub(super) fn value_order(kinds: &[DeclKind], refs: &[Vec<usize>]) -> Vec<usize> {
    fn visit(
        v: usize,
        kinds: &[DeclKind],
        refs: &[Vec<usize>],
        seen: &mut [bool],
        out: &mut Vec<usize>,
    ) {
        seen[v] = true;
        for &w in &refs[v] {
            if kinds[w].is_value() && !seen[w] {
                visit(w, kinds, refs, seen, out);
            }
        }
        if matches!(kinds[v], DeclKind::Param | DeclKind::Let) {
            out.push(v);
        }
    }
    let mut seen = vec![false; kinds.len()];
    let mut out = Vec::new();
    for v in 0..kinds.len() {
        if matches!(kinds[v], DeclKind::Param | DeclKind::Let) && !seen[v] {
            visit(v, kinds, refs, &mut seen, &mut out);
        }
    }
    out
}
