//! Lowering `symmetry` declarations into the problem's symmetry group.
//!
//! Each declaration is one generator: its maps send the items of a family whose index
//! matches a pattern to the items their right-hand side names, and every item no map
//! moves stays where it is. This module evaluates the maps into a permutation of the
//! items (E0410 when an image is not an item, E0411 when the result is not a
//! permutation of items of the same kinds), then [`Group::generate`] closes the
//! generators into a group and finds each option's image (E0412 when some option's
//! image is no option, E0506 when the group is too large).

use std::collections::HashMap;

use crate::diag::Code;
use crate::diag::report::Report;
use crate::lower::eval::{Env, EvalError, EvalResult};
use crate::lower::keys::{KeyIndex, display_name};
use crate::lower::value::Value;
use crate::problem::{ItemId, Problem};
use crate::source::Span;
use crate::symmetry::{Group, GroupError, MAX_ORDER, image_names};
use crate::syntax::ast::{Decl, IndexPattern, SymmetryDecl, SymmetryMap};

/// What the symmetries act on: the items every family made, and how their indices find
/// them. (A view, not the families themselves, so that this module needs nothing of the
/// module that makes them.)
pub struct Made<'a> {
    /// The problem the families made.
    pub problem: &'a Problem,
    /// Each item family's items by index.
    pub items: &'a KeyIndex<ItemId>,
}

/// The group of the model's `symmetry` declarations, or `None` when it has none; the
/// errors of every declaration otherwise.
pub fn lower_symmetry<'m>(
    env: &mut Env<'m>,
    fam: &Made<'_>,
) -> Result<Option<Group>, Vec<EvalError>> {
    let model = env.model();
    let families: HashMap<&str, usize> = model
        .decls
        .iter()
        .enumerate()
        .filter_map(|(i, d)| match d {
            Decl::Item(it) => Some((it.name.name.as_str(), i)),
            _ => None,
        })
        .collect();
    let decls: Vec<&'m SymmetryDecl> = model
        .decls
        .iter()
        .filter_map(|d| match d {
            Decl::Symmetry(s) => Some(s),
            _ => None,
        })
        .collect();
    if decls.is_empty() {
        return Ok(None);
    }
    let mut generators = Vec::with_capacity(decls.len());
    let mut errors = Vec::new();
    for decl in &decls {
        match generator(env, decl, &families, fam) {
            Ok(g) => generators.push(g),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let problem = fam.problem;
    Group::generate(problem, &generators)
        .map(Some)
        .map_err(|e| vec![group_error(env, problem, &decls, &generators, e)])
}

/// The permutation of the items one declaration makes.
fn generator<'m>(
    env: &mut Env<'m>,
    decl: &'m SymmetryDecl,
    families: &HashMap<&str, usize>,
    fam: &Made<'_>,
) -> EvalResult<Vec<ItemId>> {
    let problem = fam.problem;
    let mut images: Vec<ItemId> = (0..problem.items.len() as u32).map(ItemId).collect();
    // Which map moved each item, so that an item two maps move is caught.
    let mut moved_by: Vec<Option<Span>> = vec![None; problem.items.len()];
    for map in &decl.maps {
        let (Some(&from), Some(&to)) = (
            families.get(map.from.name.as_str()),
            families.get(map.to.name.as_str()),
        ) else {
            unreachable!("the checker resolves both families of a symmetry map");
        };
        // In item order, so the first error is the same on every run.
        let mut items: Vec<(Vec<Value>, ItemId)> = fam.items.entries(from).collect();
        items.sort_unstable_by_key(|&(_, id)| id);
        let mut index = Vec::with_capacity(map.index.len());
        for (key, id) in items {
            let depth = env.depth();
            let image = map_item(env, map, &key, to, fam, &mut index);
            env.truncate(depth);
            let Some(image) = image? else { continue };
            if let Some(first) = moved_by[id.index()] {
                let name = &problem.item(id).name;
                let r = Report::error(
                    Code::E0411,
                    format!("this symmetry moves `{name}` twice"),
                )
                .label(map.span, format!("moves `{name}` again"))
                .secondary(first, "moves it first")
                .help("each item goes to one place: make the patterns (or the `where` filters) of the maps of one family exclusive")
                .with_source(&env.src);
                return Err(Box::new(r));
            }
            moved_by[id.index()] = Some(map.span);
            images[id.index()] = image;
        }
    }
    Ok(images)
}

/// Where one map sends the item of its family with index `key`: `None` when the
/// pattern or the filter does not match it. Binds the pattern's names in `env`; the
/// caller pops them.
fn map_item<'m>(
    env: &mut Env<'m>,
    map: &'m SymmetryMap,
    key: &[Value],
    to: usize,
    fam: &Made<'_>,
    index: &mut Vec<Value>,
) -> EvalResult<Option<ItemId>> {
    for (pat, v) in map.pattern.iter().zip(key) {
        match pat {
            IndexPattern::Bind(p) => env.bind(p, v.clone())?,
            IndexPattern::Literal(e) => {
                if env.eval(e)? != *v {
                    return Ok(None);
                }
            }
        }
    }
    if let Some(f) = &map.filter
        && !env.eval_bool(f, "the filter of a symmetry map")?
    {
        return Ok(None);
    }
    index.clear();
    for e in &map.index {
        index.push(env.eval(e)?);
    }
    match fam.items.get(to, index) {
        Some(image) => Ok(Some(image)),
        None => {
            let from = display_name(&map.from.name, key);
            let image = display_name(&map.to.name, index);
            let span = map
                .index
                .last()
                .map_or(map.to.span, |e| map.to.span.to(e.span));
            let r = env
                .error(
                    Code::E0410,
                    format!("this symmetry maps `{from}` to `{image}`, which is not an item"),
                    span,
                    format!("this makes `{image}`"),
                )
                .add_help("a symmetry maps every item it moves to an item: check the formula, or leave out the items it cannot move with `where`");
            Err(r.into())
        }
    }
}

/// The diagnostic of a group that cannot be made, at the declaration concerned.
fn group_error(
    env: &Env<'_>,
    problem: &Problem,
    decls: &[&SymmetryDecl],
    generators: &[Vec<ItemId>],
    e: GroupError,
) -> EvalError {
    let name = |i: ItemId| problem.item(i).name.clone();
    let r = match e {
        GroupError::NotOneToOne {
            generator,
            items: (a, b),
            image,
        } => Report::error(
            Code::E0411,
            format!(
                "this symmetry sends both `{}` and `{}` to `{}`",
                name(a),
                name(b),
                name(image)
            ),
        )
        .label(decls[generator].span, "not one-to-one")
        .help("a symmetry permutes the items: no two may go to the same item (an item no map moves stays where it is, so it counts as its own image)"),
        GroupError::KindChanged {
            generator,
            item,
            image,
        } => {
            let kind = |i: ItemId| {
                let k = problem.item(i).kind;
                match k {
                    crate::problem::ItemKind::Primary { bounds } if bounds.is_exactly_once() => {
                        "primary".to_string()
                    }
                    crate::problem::ItemKind::Primary { bounds } => {
                        format!("primary (bounds {bounds})")
                    }
                    crate::problem::ItemKind::Secondary => "secondary".to_string(),
                }
            };
            Report::error(
                Code::E0411,
                format!(
                    "this symmetry sends the {} item `{}` to the {} item `{}`",
                    kind(item),
                    name(item),
                    kind(image),
                    name(image)
                ),
            )
            .label(decls[generator].span, "changes the kind of an item")
            .help("a symmetry maps primary items to primary items with the same bounds, and secondary items to secondary items")
        }
        GroupError::NoImage { generator, option } => {
            let image = image_names(problem, option, &generators[generator]);
            Report::error(
                Code::E0412,
                format!(
                    "this symmetry maps option `{}` to {{{}}}, which is not an option",
                    problem.option_label(option),
                    image.join(", ")
                ),
            )
            .label(decls[generator].span, "not a symmetry of the options")
            .help("a symmetry maps every option onto an option: check the maps, and that the option families make every image (every turned and mirrored placement of a piece)")
        }
        GroupError::TooLarge { limit } => {
            let first = decls[0].span;
            let mut r = Report::error(
                Code::E0506,
                format!("the symmetry declarations generate more than {limit} symmetries"),
            )
            .label(first, "generates too many");
            for d in &decls[1..] {
                r = r.secondary(d.span, "with this");
            }
            r.help(format!("a board has few symmetries (a square 8, a cube 48); a group this large is most likely a map that moves pieces that are not alike (at most {MAX_ORDER} symmetries, fewer on a large problem)"))
        }
    };
    Box::new(r.with_source(&env.src))
}
