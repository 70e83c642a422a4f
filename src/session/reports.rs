//! The diagnostics of an instance that compiled but that an engine or a writer cannot
//! take: forced options that clash (E0404), a problem the engine refuses (E0502,
//! E0503), a problem Knuth's format cannot hold (E0504). Each points back at the model
//! where the problem's origins allow it.

use crate::diag::Code;
use crate::diag::report::Report;
use crate::format::knuth::{self, WriteReport};
use crate::problem::{ItemKind, OptionId, Origin, Problem};
use crate::solve::{Clash, Refused, Unsupported};
use crate::source::SourceFile;

/// Reports two forced options that share an item.
pub fn clash_report(src: &SourceFile, p: &Problem, clash: &Clash) -> Report {
    let a = p.option_label(clash.first);
    let b = p.option_label(clash.second);
    let item = &p.item(clash.item).name;
    let what = clash.describe(&format!("`{a}`"), &format!("`{b}`"), &format!("`{item}`"));
    let mut r = Report::error(Code::E0404, what)
        .help("the forced options contradict each other, so this instance has no solution; check the clues or the pieces already placed")
        .with_source(src);
    for (id, text) in [(clash.first, a), (clash.second, b)] {
        if let Origin::Model { decl, .. } = &p.option(id).origin {
            r = r.secondary(*decl, format!("`{text}` comes from this family"));
        }
    }
    r
}

/// Why the optimizer refuses this problem, as a diagnostic pointing at the model.
pub fn refusal_report(src: &SourceFile, p: &Problem, e: &Refused) -> Report {
    match e {
        Refused::Unsupported(u) => unsupported_report(src, p, u),
        Refused::RewardingCost {
            id,
            option,
            cost,
            item,
            bounds,
            objective,
            sign,
        } => {
            let how = crate::solve::optimize::how_often(bounds);
            let mut r = Report::error(
                Code::E0502,
                format!("`{objective}` cannot be solved here: option `{option}` has cost {cost}, and `{item}` must be covered {how}"),
            )
            .help(if bounds.lo == 1 && bounds.hi.is_none() {
                format!("with at-least-once items the search stops as soon as every item is covered, so it cannot weigh extra options that only pay; make every cost {sign}, or make the items exactly-once")
            } else {
                format!("the search stops as soon as every item has its least number of options, so it cannot weigh extra options that only pay; make every cost {sign}, or let each option that pays cover an item of a fixed count (no bounds, or `: 2`), which no solution can take it on top of")
            })
            .with_source(src);
            if let Origin::Model { decl, .. } = &p.options.get(id.index()).origin {
                r = r.label(*decl, format!("`{option}` comes from this family"));
            }
            r
        }
        Refused::BestOfRepeated { item, .. } => {
            let mut r = Report::error(Code::E0507, e.to_string())
                .help("make the items exactly-once, or ask for the optimum alone (leave out `--best`, or use `--all` for every optimal solution)")
                .with_source(src);
            if let Some(Origin::Model { decl, .. }) =
                p.items.iter().find(|i| &i.name == item).map(|i| &i.origin)
            {
                r = r.label(*decl, "this item family");
            }
            r
        }
        Refused::CostOverflow => Report::error(Code::E0502, e.to_string())
            .help("scale the costs down")
            .with_source(src),
    }
}

/// A diagnostic for what an engine cannot solve yet; bounds get E0503 and a label on
/// their item family.
pub fn unsupported_report(src: &SourceFile, p: &Problem, u: &Unsupported) -> Report {
    let Unsupported::Multiplicity { item, bounds } = u else {
        return Report::error(Code::E0503, u.to_string())
            .help(u.help())
            .with_source(src);
    };
    let decl = p
        .items
        .iter()
        .find(|i| &i.name == item && matches!(i.kind, ItemKind::Primary { .. }))
        .and_then(|i| match &i.origin {
            Origin::Model { decl, .. } => Some(*decl),
            _ => None,
        });
    // Without an objective every interval is solved, and the optimizer gives each
    // interval to an engine that takes it: this is met only if an engine is asked for
    // bounds it lacks.
    let message = format!(
        "item `{item}` must be covered {bounds} times, which the optimizing search cannot handle yet"
    );
    let mut r = Report::error(Code::E0503, message)
        .help(u.help())
        .with_source(src);
    if let Some(span) = decl {
        r = r.label(span, "this item family");
    }
    r
}

/// A lowered instance in Knuth's format, as `dlxc compile --emit knuth` writes it.
#[derive(Clone, Debug)]
pub struct KnuthText {
    /// The text: with forced options, a comment naming them, then the problem left
    /// after taking them (the format has no place for forced options).
    pub text: String,
    /// What the writer renamed or left out.
    pub report: WriteReport,
    /// How the objective was written (or that costs were left out), for a note.
    pub objective_note: Option<String>,
}

/// `p` with each option's cost replaced by `cost(old)`.
fn with_costs(p: &Problem, cost: impl Fn(Option<i64>) -> Option<i64>) -> Problem {
    let mut options = crate::problem::Options::default();
    for o in p.options.iter() {
        options.push_with(
            |s| s.push_str(o.name.unwrap_or("")),
            o.entries,
            cost(o.cost),
            o.origin,
        );
    }
    Problem {
        items: p.items.clone(),
        options,
        colors: p.colors.clone(),
    }
}

/// [`knuth_text`] of an instance that optimizes `objective`: the file keeps the
/// objective or the export is refused, because `dlxc solve` of a file with costs
/// minimizes them and of a file without counts or lists. `minimize cost` is written as
/// is; `minimize count` as a cost of 1 on every option (the least total cost is then the
/// fewest options); no objective leaves the costs out (they would make the file an
/// optimization); `maximize cost` is E0917, since DLX5's costs are nonnegative and
/// minimized, and no rewriting of them maximizes in general.
pub fn knuth_text_for(
    src: &SourceFile,
    full: &Problem,
    forced: &[OptionId],
    objective: Option<crate::solve::Objective>,
) -> Result<KnuthText, Box<Report>> {
    use crate::solve::Objective;
    let (rewritten, note) = match objective {
        Some(Objective::MaximizeCost) => {
            return Err(Box::new(
                Report::error(
                    Code::E0917,
                    "Knuth's format cannot carry `maximize cost`: a file with costs is \
                     solved for the least total cost (DLX5), so it would give the minimum",
                )
                .help(
                    "`dlxc compile --emit json` keeps the objective, and `dlxc run` \
                     solves the model directly; for DLX5, write `minimize cost` with \
                     each cost turned around yourself",
                ),
            ));
        }
        Some(Objective::MinimizeCount) => (
            Some(with_costs(full, |_| Some(1))),
            Some(
                "`minimize count` is written as a cost of 1 on every option: the least \
                 total cost is the fewest options"
                    .to_string(),
            ),
        ),
        None if full.has_costs() => (
            Some(with_costs(full, |_| None)),
            Some(
                "the options' costs are left out: the model has no objective, and a file \
                 with costs is optimized"
                    .to_string(),
            ),
        ),
        Some(Objective::MinimizeCost) | None => (None, None),
    };
    let mut k = knuth_text(src, rewritten.as_ref().unwrap_or(full), forced)?;
    k.objective_note = note;
    Ok(k)
}

/// Writes `p` in Knuth's format. Knuth's format has no forced options, so with some the
/// problem written is the one left after taking them ([`crate::solve::reduce`]): it has
/// the same solutions, less the forced options, and `dlxc solve --count` on it agrees
/// with `dlxc run --count`. Forced options that clash are E0404, as in `dlxc run`; when
/// they cover every primary item nothing is left to write, and a problem the format
/// cannot hold is E0504.
pub fn knuth_text(
    src: &SourceFile,
    full: &Problem,
    forced: &[OptionId],
) -> Result<KnuthText, Box<Report>> {
    let reduced = crate::solve::reduce::reduce(full, forced)
        .map_err(|clash| Box::new(clash_report(src, full, &clash)))?;
    let p = &reduced.problem;
    if !forced.is_empty() && p.primary_count() == 0 {
        return Err(Box::new(
            Report::error(
                Code::E0504,
                format!(
                    "the {} forced options cover every primary item: no problem is left to write",
                    forced.len()
                ),
            )
            .help("Knuth's format has no forced options, and the problem left after them is empty (its one solution is the forced options); `dlxc run` solves it directly"),
        ));
    }
    let mut text = String::new();
    let report = knuth::write(p, &mut text).map_err(|e| {
        Box::new(Report::error(Code::E0504, e.to_string()).help(
            "Knuth's format cannot hold this problem; `dlxc compile --emit json` writes every problem, and `dlxc run` solves it directly",
        ))
    })?;
    if !forced.is_empty() {
        let mut head = format!(
            "| the problem left after the {} forced options below (Knuth's format has no\n\
             | forced options): its solutions, each with the forced options added, are those\n\
             | of the model\n",
            forced.len()
        );
        if reduced.forced_cost != 0 {
            head.push_str(&format!(
                "| the forced options cost {} in all: add it to a solution's cost\n",
                reduced.forced_cost
            ));
        }
        for &id in forced {
            head.push_str(&format!("|   {}\n", full.option_label(id)));
        }
        text.insert_str(0, &head);
    }
    Ok(KnuthText {
        text,
        report,
        objective_note: None,
    })
}
