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
use super::error::{CheckError, Mistake};
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
            let mut seen = std::collections::HashSet::new();
            for &(j, span) in rs {
                if kinds[j].is_value() && seen.insert(j) {
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
            Mistake::Recursion,
            format!("function `{first}` calls itself"),
            "functions cannot be recursive, so every call finishes; compute over a range \
             instead, such as `sum(i for i in 0..=n)`",
        )
    } else if all_fns {
        (
            Mistake::Recursion,
            format!("functions call each other in a cycle: {chain}"),
            "functions cannot be recursive, so every call finishes; compute over a range \
             instead, such as `sum(i for i in 0..=n)`",
        )
    } else {
        (
            Mistake::Cycle,
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

/// The shortest path `start -> ... -> start` inside one component (its members
/// sorted). The search's parents are kept by position in the component, not in a
/// table as long as the model: a model with thousands of small cycles made that
/// quadratic.
fn shortest_cycle(edges: &[Vec<(usize, Span)>], scc: &[usize], start: usize) -> Vec<usize> {
    let position = |v: usize| scc.binary_search(&v).ok();
    let mut parent: Vec<Option<usize>> = vec![None; scc.len()];
    let mut queue = VecDeque::from([start]);
    let mut last = start;
    'search: while let Some(a) = queue.pop_front() {
        for &(b, _) in &edges[a] {
            if b == start {
                last = a;
                break 'search;
            }
            if let Some(k) = position(b)
                && parent[k].is_none()
            {
                parent[k] = Some(a);
                queue.push_back(b);
            }
        }
    }
    let mut path = vec![start];
    let mut at = last;
    while at != start {
        path.push(at);
        at = position(at).and_then(|k| parent[k]).unwrap_or(start);
    }
    path.push(start);
    let n = path.len();
    path[1..n - 1].reverse();
    path
}

/// Tarjan's algorithm; each component's members sorted, components in order of
/// their first member. Iterative, with an explicit stack of (vertex, next edge): a
/// model may chain tens of thousands of definitions, each calling the next.
fn strongly_connected(edges: &[Vec<(usize, Span)>]) -> Vec<Vec<usize>> {
    let n = edges.len();
    let mut index: Vec<Option<usize>> = vec![None; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut out = Vec::new();
    let mut calls: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root].is_some() {
            continue;
        }
        calls.push((root, 0));
        while let Some(&mut (v, ref mut e)) = calls.last_mut() {
            if *e == 0 && index[v].is_none() {
                index[v] = Some(next);
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&(w, _)) = edges[v].get(*e) {
                *e += 1;
                match index[w] {
                    None => calls.push((w, 0)),
                    Some(iw) if on_stack[w] => low[v] = low[v].min(iw),
                    Some(_) => {}
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if Some(low[v]) == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                comp.sort_unstable();
                out.push(comp);
            }
        }
    }
    out.sort_by_key(|c| c[0]);
    out
}

/// Params and lets in an order where each comes after everything it reads, through
/// fns too; ties in source order. Assumes no cycles (checked before). A depth-first
/// post-order, iterative for the same reason as [`strongly_connected`].
pub(super) fn value_order(kinds: &[DeclKind], refs: &[Vec<usize>]) -> Vec<usize> {
    let mut seen = vec![false; kinds.len()];
    let mut out = Vec::new();
    let mut calls: Vec<(usize, usize)> = Vec::new();
    for root in 0..kinds.len() {
        if !matches!(kinds[root], DeclKind::Param | DeclKind::Let) || seen[root] {
            continue;
        }
        seen[root] = true;
        calls.push((root, 0));
        while let Some(&mut (v, ref mut e)) = calls.last_mut() {
            if let Some(&w) = refs[v].get(*e) {
                *e += 1;
                if kinds[w].is_value() && !seen[w] {
                    seen[w] = true;
                    calls.push((w, 0));
                }
                continue;
            }
            calls.pop();
            if matches!(kinds[v], DeclKind::Param | DeclKind::Let) {
                out.push(v);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, arcs: &[(usize, usize)]) -> Vec<Vec<(usize, Span)>> {
        let mut edges = vec![Vec::new(); n];
        for &(a, b) in arcs {
            edges[a].push((b, Span::default()));
        }
        edges
    }

    #[test]
    fn interleaved_components_and_their_shortest_cycles() {
        // {0, 2} and {1, 3, 4}, numbered across each other; 5 only leads in.
        let edges = graph(
            6,
            &[
                (0, 2),
                (2, 0),
                (1, 4),
                (4, 3),
                (3, 1),
                (1, 3),
                (5, 1),
                (5, 0),
            ],
        );
        let sccs = strongly_connected(&edges);
        assert_eq!(sccs, vec![vec![0, 2], vec![1, 3, 4], vec![5]]);
        assert_eq!(shortest_cycle(&edges, &sccs[0], 0), vec![0, 2, 0]);
        assert_eq!(shortest_cycle(&edges, &sccs[1], 1), vec![1, 3, 1]);
        let edges = graph(3, &[(0, 1), (1, 2), (2, 0)]);
        assert_eq!(shortest_cycle(&edges, &[0, 1, 2], 0), vec![0, 1, 2, 0]);
    }

    #[test]
    fn a_long_chain_is_walked_without_recursion() {
        let n = 200_000;
        let arcs: Vec<(usize, usize)> = (0..n - 1).map(|i| (i, i + 1)).collect();
        let edges = graph(n, &arcs);
        assert_eq!(strongly_connected(&edges).len(), n);
    }
}
