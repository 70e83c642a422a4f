//! Writing a [`Problem`] in the format Knuth's programs read.
//!
//! Knuth's programs keep at most eight characters of an item name and reject `:` and
//! `|` in names (and blanks, which separate them); a color is a single character
//! (DLX2 panics with "Color must be a single character"). Names from the language
//! (`cell[3,4]`, `put[0,0,5]`, `red`) are often longer, so the writer renames what his
//! programs would reject, deterministically and without collisions, lists the renames
//! in a `|` comment block at the top of the output, and returns them in the
//! [`WriteReport`].

use std::collections::{HashMap, HashSet};
use std::fmt::{self, Write};

use crate::problem::{ItemId, ItemKind, OptionId, Problem, ProblemError};

/// The most characters Knuth's programs keep of a name.
pub const MAX_NAME_LEN: usize = 8;

/// A name the writer had to change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rename {
    /// The name in the output.
    pub short: String,
    /// The name in the problem.
    pub full: String,
}

/// Which extensions of the basic format the output uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// Some option gives a color (DLX2 and later).
    pub colors: bool,
    /// Some primary item has bounds other than "exactly once" (DLX3).
    pub bounds: bool,
    /// Some option has a cost (DLX5).
    pub costs: bool,
}

impl Features {
    /// The first of Knuth's programs that reads every feature used, or `None` when the
    /// output uses both bounds and costs, which none of DLX1–DLX5 reads together.
    pub fn program(self) -> Option<&'static str> {
        match (self.colors, self.bounds, self.costs) {
            (_, true, true) => None,
            (_, true, false) => Some("DLX3"),
            (_, false, true) => Some("DLX5"),
            (true, false, false) => Some("DLX2"),
            (false, false, false) => Some("DLX1"),
        }
    }
}

/// What the writer did that the caller may want to tell the user.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteReport {
    /// The extensions used, hence which program reads the output.
    pub features: Features,
    /// Items renamed because their names are too long or hold forbidden characters.
    pub item_renames: Vec<Rename>,
    /// Colors renamed for the same reasons.
    pub color_renames: Vec<Rename>,
    /// Options with no primary item: written (unless empty), but Knuth's programs
    /// ignore them with a warning.
    pub options_without_primary: Vec<OptionId>,
    /// Options with no items at all, which the format cannot express: not written.
    pub empty_options: Vec<OptionId>,
    /// Items with no upper bound, written with the number of options that cover them
    /// as their upper bound (the format has no "unbounded"; the two are equivalent).
    pub unbounded_items: Vec<ItemId>,
}

impl WriteReport {
    /// One sentence for each thing the user should know about the output, for the CLI
    /// to print as notes (empty when the output is exactly the problem).
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let n = self.item_renames.len();
        if n > 0 {
            notes.push(format!(
                "{n} item name{} shortened to at most 8 characters without `:` or `|`; \
                 the comment at the top of the output lists them",
                plural(n)
            ));
        }
        let n = self.color_renames.len();
        if n > 0 {
            notes.push(format!(
                "{n} color{} renamed to a single character; the comment at the top of the \
                 output lists them",
                plural(n)
            ));
        }
        let n = self.options_without_primary.len();
        if n > 0 {
            notes.push(format!(
                "{n} option{} without a primary item, which Knuth's programs ignore",
                plural(n)
            ));
        }
        let n = self.empty_options.len();
        if n > 0 {
            notes.push(format!(
                "{n} option{} with no items left out: the format cannot express them",
                plural(n)
            ));
        }
        let n = self.unbounded_items.len();
        if n > 0 {
            notes.push(format!(
                "{n} item{} without an upper bound written with the number of options \
                 covering {}, which is equivalent",
                plural(n),
                if n == 1 { "it" } else { "them" }
            ));
        }
        if self.features.program().is_none() {
            notes.push(
                "the problem has both bounds and costs, which none of Knuth's DLX1-DLX5 \
                 reads together"
                    .to_string(),
            );
        }
        notes
    }
}

/// Why a problem could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The problem breaks an invariant of [`Problem`].
    #[error("cannot write an invalid problem: {0}")]
    Invalid(#[from] ProblemError),
    /// DLX5 takes only nonnegative costs.
    #[error("option {option} has cost {cost}, but Knuth's DLX5 takes only nonnegative costs")]
    NegativeCost {
        /// The option, as [`Problem::option_label`] shows it.
        option: String,
        /// The cost.
        cost: i64,
    },
    /// The format cannot express a problem without primary items: its item line would
    /// start with `|`, which makes it a comment.
    #[error(
        "Knuth's format needs at least one primary item: an item line that starts with \
         `|` is read as a comment"
    )]
    NoPrimaryItems,
    /// More colors than there are characters to name them in Knuth's format.
    #[error(
        "the problem has {count} colors, but Knuth's programs name a color with one \
         character, which allows at most {max}"
    )]
    TooManyColors {
        /// The number of colors.
        count: usize,
        /// The number of one-character colors: printable ASCII except `:` and `|`.
        max: usize,
    },
    /// The output sink failed.
    #[error("cannot write the problem: {0}")]
    Fmt(#[from] fmt::Error),
}

/// Whether Knuth's programs accept `name` as it is: one to eight printable ASCII
/// characters, none of them blank, `:` or `|`.
pub fn is_knuth_name(name: &str) -> bool {
    (1..=MAX_NAME_LEN).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b':' && b != b'|')
}

/// Writes `problem` in Knuth's format.
///
/// Items and colors whose names Knuth's programs would reject are renamed (see
/// [`WriteReport`]); reading the output back gives an isomorphic problem, and the same
/// problem (up to origins and option names) when nothing was renamed.
pub fn write(problem: &Problem, out: &mut impl Write) -> Result<WriteReport, WriteError> {
    problem.validate()?;
    if problem.primary_count() == 0 {
        return Err(WriteError::NoPrimaryItems);
    }
    let mut report = WriteReport {
        features: Features {
            colors: problem.has_colors(),
            bounds: problem.has_multiplicities(),
            costs: problem.has_costs(),
        },
        ..WriteReport::default()
    };
    for (k, opt) in problem.options.iter().enumerate() {
        if let Some(cost) = opt.cost.filter(|&c| c < 0) {
            return Err(WriteError::NegativeCost {
                option: problem.option_label(OptionId(k as u32)),
                cost,
            });
        }
    }
    let items: Vec<&str> = problem.items.iter().map(|i| i.name.as_str()).collect();
    let colors: Vec<&str> = problem.colors.iter().map(String::as_str).collect();
    let (item_names, item_renames) = shorten(&items);
    let (color_names, color_renames) = shorten_colors(&colors)?;
    report.item_renames = item_renames;
    report.color_renames = color_renames;

    let program = report
        .features
        .program()
        .unwrap_or("dlxc (bounds and costs)");
    writeln!(
        out,
        "| exact cover problem for {program}: {} items, {} options",
        problem.items.len(),
        problem.options.len()
    )?;
    write_renames(out, "item", &report.item_renames)?;
    write_renames(out, "color", &report.color_renames)?;

    // The item line: primary items with their bounds, then `|` and the secondary ones.
    let mut uses = vec![0u32; problem.items.len()];
    for e in problem.options.iter().flat_map(|o| o.entries) {
        uses[e.item.index()] = uses[e.item.index()].saturating_add(1);
    }
    let mut line = String::new();
    for (k, item) in problem.items.iter().enumerate() {
        if let ItemKind::Primary { bounds } = item.kind {
            if !line.is_empty() {
                line.push(' ');
            }
            let hi = bounds.hi.unwrap_or_else(|| {
                report.unbounded_items.push(ItemId(k as u32));
                uses[k].max(bounds.lo)
            });
            push_bounds(&mut line, bounds.lo, hi);
            line.push_str(&item_names[k]);
        }
    }
    let secondary: Vec<&str> = (0..problem.items.len())
        .filter(|&k| !problem.items[k].kind.is_primary())
        .map(|k| item_names[k].as_str())
        .collect();
    if !secondary.is_empty() {
        line.push_str(" |");
        for name in secondary {
            line.push(' ');
            line.push_str(name);
        }
    }
    writeln!(out, "{line}")?;

    for (k, opt) in problem.options.iter().enumerate() {
        let id = OptionId(k as u32);
        if opt.entries.is_empty() {
            report.empty_options.push(id);
            continue;
        }
        if !opt
            .entries
            .iter()
            .any(|e| problem.item(e.item).kind.is_primary())
        {
            report.options_without_primary.push(id);
        }
        line.clear();
        for e in opt.entries {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&item_names[e.item.index()]);
            if let Some(c) = e.color {
                line.push(':');
                line.push_str(&color_names[c.index()]);
            }
        }
        if let Some(cost) = opt.cost {
            // Costs are written even when zero, so that reading gives `Some(0)` back.
            write!(line, " |{cost}")?;
        }
        writeln!(out, "{line}")?;
    }
    Ok(report)
}

/// Appends the DLX3 prefix of the bounds `lo..=hi` (nothing for "exactly once").
fn push_bounds(line: &mut String, lo: u32, hi: u32) {
    match (lo, hi) {
        (1, 1) => {}
        _ if lo == hi => line.push_str(&format!("{hi}|")),
        _ => line.push_str(&format!("{lo}:{hi}|")),
    }
}

fn write_renames(out: &mut impl Write, what: &str, renames: &[Rename]) -> fmt::Result {
    if renames.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "| {what} names shortened for Knuth's programs (short = full):"
    )?;
    for r in renames {
        writeln!(out, "|   {} = {}", r.short, r.full)?;
    }
    Ok(())
}

/// Gives every name a form Knuth's programs accept, keeping the valid ones.
///
/// A rejected name first tries its *compact* form: the name without its brackets,
/// blanks and forbidden characters (`cell[3,4]` becomes `cell3,4`), if that is valid and
/// free. Otherwise it becomes a stem of its leading letters and digits and a base-36
/// counter (`put[10,10,5]` becomes `put_0`, the next one `put_1`). Every candidate is
/// checked against all names already taken, so the result is unique; the order of the
/// input decides who gets which name, so it is deterministic.
fn shorten(names: &[&str]) -> (Vec<String>, Vec<Rename>) {
    let mut used: HashSet<String> = names
        .iter()
        .filter(|n| is_knuth_name(n))
        .map(|n| n.to_string())
        .collect();
    let mut counters: HashMap<String, u64> = HashMap::new();
    let mut out = Vec::with_capacity(names.len());
    let mut renames = Vec::new();
    for &name in names {
        if is_knuth_name(name) {
            out.push(name.to_string());
            continue;
        }
        let compact: String = name
            .chars()
            .filter(|&c| c.is_ascii_graphic() && !"[]():|".contains(c))
            .collect();
        let short = if is_knuth_name(&compact) && !used.contains(&compact) {
            compact
        } else {
            let mut stem: String = name
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .take(4)
                .collect();
            if stem.is_empty() {
                stem.push('x');
            }
            let counter = counters.entry(stem.clone()).or_insert(0);
            loop {
                let code = base36(*counter);
                *counter += 1;
                let keep = stem.len().min(MAX_NAME_LEN.saturating_sub(code.len() + 1));
                let cand = format!("{}_{code}", &stem[..keep]);
                let cand = if cand.len() > MAX_NAME_LEN {
                    code
                } else {
                    cand
                };
                if is_knuth_name(&cand) && !used.contains(&cand) {
                    break cand;
                }
            }
        };
        used.insert(short.clone());
        renames.push(Rename {
            short: short.clone(),
            full: name.to_string(),
        });
        out.push(short);
    }
    (out, renames)
}

/// The characters that can name a color, in the order they are handed out.
const COLOR_CHARS: &str = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ\
                           !\"#$%&'()*+,-./;<=>?@[\\]^_`{}~";

/// Gives every color a one-character name, keeping the valid ones. A longer name gets
/// its first character if that is free (`red` becomes `r`), otherwise the first free
/// character of [`COLOR_CHARS`].
fn shorten_colors(names: &[&str]) -> Result<(Vec<String>, Vec<Rename>), WriteError> {
    let max = COLOR_CHARS.len();
    if names.len() > max {
        return Err(WriteError::TooManyColors {
            count: names.len(),
            max,
        });
    }
    let valid = |n: &str| n.len() == 1 && COLOR_CHARS.contains(n);
    let mut used: HashSet<char> = names
        .iter()
        .filter(|n| valid(n))
        .filter_map(|n| n.chars().next())
        .collect();
    let mut out = Vec::with_capacity(names.len());
    let mut renames = Vec::new();
    for &name in names {
        if valid(name) {
            out.push(name.to_string());
            continue;
        }
        let first = name
            .chars()
            .next()
            .filter(|c| c.is_ascii() && COLOR_CHARS.contains(*c));
        // There are at most `max` names, so a free character always exists.
        let Some(c) = first
            .filter(|c| !used.contains(c))
            .or_else(|| COLOR_CHARS.chars().find(|c| !used.contains(c)))
        else {
            return Err(WriteError::TooManyColors {
                count: names.len(),
                max,
            });
        };
        used.insert(c);
        renames.push(Rename {
            short: c.to_string(),
            full: name.to_string(),
        });
        out.push(c.to_string());
    }
    Ok((out, renames))
}

/// `n` in base 36 with digits `0-9a-z`.
fn base36(mut n: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut buf = Vec::new();
    loop {
        buf.push(DIGITS[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    buf.reverse();
    String::from_utf8(buf).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knuth_names() {
        assert!(is_knuth_name("A") && is_knuth_name("r[1]") && is_knuth_name("12345678"));
        assert!(!is_knuth_name("") && !is_knuth_name("123456789"));
        assert!(!is_knuth_name("a:b") && !is_knuth_name("a|b") && !is_knuth_name("a b"));
        assert!(!is_knuth_name("é"));
    }

    #[test]
    fn shortening_is_readable_unique_and_deterministic() {
        let names = [
            "cell[3,4]",
            "cell3,4",
            "put[0,0,5]",
            "put[10,10,5]",
            "put[10,10,6]",
            "put_0",
            "",
            "a:b",
        ];
        let (short, renames) = shorten(&names);
        assert_eq!(
            short,
            [
                "cell_0", "cell3,4", "put0,0,5", "put_1", "put_2", "put_0", "x_0", "ab"
            ]
        );
        assert_eq!(renames.len(), 6);
        let unique: HashSet<_> = short.iter().collect();
        assert_eq!(unique.len(), names.len());
        assert!(short.iter().all(|s| is_knuth_name(s)));
        assert_eq!(shorten(&names).0, short);
    }

    #[test]
    fn colors_become_single_characters() {
        assert_eq!(COLOR_CHARS.len(), 92);
        assert!(
            COLOR_CHARS
                .bytes()
                .all(|b| b.is_ascii_graphic() && b != b':' && b != b'|')
        );
        let (short, renames) = shorten_colors(&["red", "r", "rose", "0", "", "é"]).unwrap();
        // `red` would take `r`, but `r` is a color already.
        assert_eq!(short, ["1", "r", "2", "0", "3", "4"]);
        assert_eq!(shorten_colors(&["red", "blue"]).unwrap().0, ["r", "b"]);
        assert_eq!(renames.len(), 4);
        let many: Vec<String> = (0..93).map(|k| format!("c{k}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert!(shorten_colors(&many[..92]).is_ok());
        assert!(matches!(
            shorten_colors(&many),
            Err(WriteError::TooManyColors { count: 93, max: 92 })
        ));
    }

    #[test]
    fn base36_digits() {
        assert_eq!(base36(0), "0");
        assert_eq!(base36(35), "z");
        assert_eq!(base36(36), "10");
        assert_eq!(base36(u64::MAX).len(), 13);
    }
}
