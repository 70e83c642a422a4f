//! Lints of a model that compiles but whose problem is very likely not the one meant:
//! a newcomer's slips that give a wrong count without a word. They look at the lowered
//! problem (what the families made) and point back at the declarations.
//!
//! - W0410: a secondary item family that no option covers. Its items constrain
//!   nothing, so the count is that of the problem without them (1,105 instead of 4 for
//!   a model whose "at most once" items were never written into the options).
//! - W0411: a colored item covered with a color by some options and without one (which
//!   claims it exclusively) by others: nearly always an entry that lost its `= color`,
//!   and it can turn a count into 0.
//! - W0412: two primary items of different families covered by exactly the same
//!   options (at least two). One of them adds
//!   nothing: usually an index typo (`file[r]` for `file[c]`) that made one family a
//!   copy of another, and the count is wrong.

use std::collections::HashMap;

use crate::diag::Code;
use crate::diag::report::Report;
use crate::lower::family::Families;
use crate::problem::{ItemId, OptionId, Origin, Problem};
use crate::source::{SourceFile, Span};
use crate::syntax::ast::{CoverEntry, Decl, ItemClass, Model};

/// The first `covers` entry naming the item family `family` in the declaration of
/// option `o` (with `colored`: only one with a color, or only one without), to point at
/// the entry that made a lint's items rather than at the family alone.
fn entry_of<'m>(
    model: &'m Model,
    p: &Problem,
    o: OptionId,
    family: &str,
    colored: Option<bool>,
) -> Option<&'m CoverEntry> {
    let Origin::Model { decl } = p.option(o).origin else {
        return None;
    };
    model.decls.iter().find_map(|d| match d {
        Decl::Option(opt) if opt.name.span == decl => opt.covers.iter().find(|c| {
            c.family.name == family && colored.is_none_or(|want| c.color.is_some() == want)
        }),
        _ => None,
    })
}

/// An entry of the model `text` without its loop clauses: `letter[r, c] = w[c]` of
/// `letter[r, c] = w[c] for c in 0..n`.
fn entry_head(c: &CoverEntry, text: &str) -> Span {
    let end = match (&c.color, c.index.last()) {
        (Some(color), _) => color.span.end as usize,
        (None, Some(last)) => {
            // Past the `]` that closes the index.
            let after = last.span.end as usize;
            text.get(after..)
                .and_then(|t| t.find(']'))
                .map_or(after, |k| after + k + 1)
        }
        (None, None) => c.family.span.end as usize,
    };
    Span::new(c.family.span.start as usize, end)
}

/// The lints' warnings for the problem `fam` lowered from `model`.
pub fn lints(fam: &Families, model: &Model, src: &SourceFile) -> Vec<Report> {
    let p = fam.problem();
    let n = p.items.len();
    // For each item: the options covering it, and whether some cover it with a color
    // and some without.
    let mut covering: Vec<Vec<OptionId>> = vec![Vec::new(); n];
    let (mut with_color, mut without) = (vec![None; n], vec![None; n]);
    for (k, o) in p.options.iter().enumerate() {
        let id = OptionId(k as u32);
        for e in o.entries {
            let i = e.item.index();
            covering[i].push(id);
            let slot = if e.color.is_some() {
                &mut with_color[i]
            } else {
                &mut without[i]
            };
            slot.get_or_insert(id);
        }
    }
    let mut out = Vec::new();
    // Item families by declaration, with their items.
    let families: Vec<(usize, &crate::syntax::ast::ItemDecl, Vec<ItemId>)> = model
        .decls
        .iter()
        .enumerate()
        .filter_map(|(i, d)| match d {
            Decl::Item(item) => {
                let mut ids: Vec<ItemId> = fam.items.entries(i).map(|(_, id)| id).collect();
                ids.sort_unstable();
                Some((i, item, ids))
            }
            _ => None,
        })
        .collect();
    for (_, item, ids) in &families {
        if item.class == ItemClass::Primary || ids.is_empty() {
            continue;
        }
        if ids.iter().all(|id| covering[id.index()].is_empty()) {
            out.push(
                Report::warning(
                    Code::W0410,
                    format!(
                        "no option covers an item of the secondary family `{}`: its {} items \
                         constrain nothing",
                        item.name.name,
                        ids.len()
                    ),
                )
                .label(item.name.span, "declared here, covered nowhere")
                .help(
                    "add its items to the options' `covers` lists (that is what makes them \
                     \"at most once\"), or remove the family",
                )
                .with_source(src),
            );
        }
        if item.class == ItemClass::Colored
            && let Some(id) = ids
                .iter()
                .find(|id| with_color[id.index()].is_some() && without[id.index()].is_some())
        {
            let i = id.index();
            let (a, b) = (with_color[i].unwrap(), without[i].unwrap());
            let family = item.name.name.as_str();
            let r = Report::warning(
                Code::W0411,
                format!(
                    "the colored item `{}` is covered with a color by `{}` and without one by \
                     `{}`, which claims it for itself",
                    p.items[i].name,
                    p.option_label(a),
                    p.option_label(b)
                ),
            );
            // The entry that lost its color, and one that has it, when the options came
            // from the model's declarations (always, but for forced options' origins).
            let (bare, colored) = (
                entry_of(model, p, b, family, Some(false)),
                entry_of(model, p, a, family, Some(true)),
            );
            let r = match (bare, colored) {
                (Some(bare), Some(colored)) => {
                    let example = entry_head(colored, src.text()).slice(src.text());
                    r.label(
                        entry_head(bare, src.text()),
                        format!("no `= color`: this claims `{}` for itself", p.items[i].name),
                    )
                    .secondary(entry_head(colored, src.text()), "with a color here")
                    .help(format!(
                        "give this entry its color, as `{example}` does; an entry without one \
                         excludes every other option that covers the item"
                    ))
                }
                _ => r.label(item.name.span, "colored family").help(
                    "give every entry of a colored item its `= color`; an entry without one \
                     excludes every other option that covers the item",
                ),
            };
            out.push(r.with_source(src));
        }
    }
    // Primary items with the same set of options, by family pair: one warning each.
    let mut by_set: HashMap<&[OptionId], ItemId> = HashMap::new();
    let family_of: HashMap<ItemId, usize> = families
        .iter()
        .enumerate()
        .flat_map(|(f, (_, _, ids))| ids.iter().map(move |&id| (id, f)))
        .collect();
    let mut warned: Vec<(usize, usize)> = Vec::new();
    for (i, opts) in covering.iter().enumerate() {
        let id = ItemId(i as u32);
        // An item of one option is decided by that option alone, and twins within one
        // family are common in matrices read from data: only twins across families,
        // covered by several options, are the copy an index typo makes.
        if !p.items[i].kind.is_primary() || opts.len() < 2 {
            continue;
        }
        let Some(&first) = by_set.get(opts.as_slice()) else {
            by_set.insert(opts, id);
            continue;
        };
        let (Some(&fa), Some(&fb)) = (family_of.get(&first), family_of.get(&id)) else {
            continue;
        };
        if fa == fb || warned.contains(&(fa, fb)) || warned.len() >= 3 {
            continue;
        }
        warned.push((fa, fb));
        let (a, b) = (&p.items[first.index()].name, &p.items[i].name);
        let (name_a, name_b) = (&families[fa].1.name.name, &families[fb].1.name.name);
        let r = Report::warning(
            Code::W0412,
            format!(
                "the primary items `{a}` and `{b}` are covered by exactly the same {} \
                 options: one of them adds nothing",
                opts.len()
            ),
        );
        // The entries that cover both, in the first of those options: the typo is in
        // one of their indexes.
        let r = match (
            entry_of(model, p, opts[0], name_b, None),
            entry_of(model, p, opts[0], name_a, None),
        ) {
            (Some(eb), Some(ea)) => {
                let (tb, ta) = (
                    entry_head(eb, src.text()).slice(src.text()),
                    entry_head(ea, src.text()).slice(src.text()),
                );
                r.label(
                    entry_head(eb, src.text()),
                    format!("`{b}` is covered by the options that cover `{a}`"),
                )
                .secondary(entry_head(ea, src.text()), format!("`{a}` is covered here"))
                .help(format!(
                    "check the indexes of `{tb}` against those of `{ta}`: an index typo \
                     (`file[r]` for `file[c]`) makes one family a copy of another and the \
                     count wrong"
                ))
            }
            _ => r
                .label(
                    families[fb].1.name.span,
                    format!("`{b}` is made here; is an index in the options' entries mistyped?"),
                )
                .label(families[fa].1.name.span, format!("`{a}` is made here"))
                .help(format!(
                    "check the `covers` entries of `{name_a}` and `{name_b}`: an index typo \
                     (`file[r]` for `file[c]`) makes one family a copy of another and the \
                     count wrong"
                )),
        };
        out.push(r.with_source(src));
    }
    out
}
