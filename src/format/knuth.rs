//! Knuth's input format for DLX1, DLX2, DLX3 and DLX5.
//!
//! ```text
//! | A simple example: lines whose first non-blank character is `|` are comments.
//! A B 2:3|C | X Y
//! A B X:0 Y:0
//! A C X:1 Y:1 |5
//! ```
//!
//! - The first line that is neither blank nor a comment is the *item line*: the names of
//!   the primary items, then a `|` token, then the names of the secondary items. Without
//!   a `|`, every item is primary.
//! - DLX3: a primary name may be preceded by multiplicity bounds, `u:v|name` (covered
//!   between `u` and `v` times) or `v|name` (exactly `v` times).
//! - Every later non-blank, non-comment line is an option: the names of its items,
//!   secondary ones optionally written `name:color` (DLX2).
//! - DLX5: a token `|n`, with `n` a nonnegative integer, gives the option a cost; several
//!   such tokens add up (Knuth's rule). This is how `dlx5.w` writes costs; there is no
//!   `$` syntax.
//!
//! Where dlxc is more lenient than Knuth's programs: names may be longer than eight
//! characters and may hold any non-blank Unicode character except `:` and `|`, and a
//! color may be any such name, where DLX2 takes a single character. An
//! option with no primary item is kept (Knuth's programs drop it with a warning); the
//! engine decides what it means. An option cannot be empty: a blank line is skipped,
//! and a line of cost tokens only starts with `|`, so it is a comment.
//!
//! [`read`] finds every error of the file (codes `E0801`–`E0809`, see
//! [`KnuthError`]), keeping the first [`MAX_KEPT`] and counting the others;
//! [`write()`] produces text Knuth's programs accept, renaming what they would reject.

mod errors;
mod write;

#[cfg(test)]
mod tests;

use std::collections::HashMap;

pub use errors::KnuthError;
pub use write::{Features, Rename, WriteError, WriteReport, write};

use crate::diag::suggest::did_you_mean;
use crate::diag::{Diagnostics, MAX_KEPT};
use crate::format::{Line, Token, lines};
use crate::problem::{Bounds, Entry, ItemId, ItemKind, Opt, Origin, Problem};
use crate::source::{SourceFile, Span};

/// Reads a problem in Knuth's format, reporting every error found (the first
/// [`MAX_KEPT`] whole, the others as a count: see [`Diagnostics::keeping`]).
///
/// Items and options get [`Origin::Line`] with their line number; options have no name.
pub fn read(src: &SourceFile) -> Result<Problem, Diagnostics> {
    let mut reader = Reader {
        src,
        diags: Diagnostics::keeping(MAX_KEPT),
        problem: Problem::new(),
        index: HashMap::new(),
        item_line: Span::default(),
        suggestions: HashMap::new(),
    };
    let mut rest = lines(src.text()).filter(|l| !l.is_blank_or_comment());
    match rest.next() {
        Some(line) => reader.item_line(line),
        None => reader.missing_item_line(),
    }
    for line in rest {
        if let Some(e) = super::over_budget(src, line, "problem") {
            reader.diags.push(e);
            break;
        }
        reader.option(line);
    }
    if reader.diags.has_errors() {
        return Err(reader.diags);
    }
    debug_assert_eq!(reader.problem.validate(), Ok(()));
    Ok(reader.problem)
}

/// The state of one read: what has been declared so far, and what went wrong.
struct Reader<'s> {
    src: &'s SourceFile,
    diags: Diagnostics,
    problem: Problem,
    /// Item names to ids and the span of their declaration.
    index: HashMap<String, (ItemId, Span)>,
    /// The item line, for "declared here" labels.
    item_line: Span,
    /// The help of each unknown name seen so far: a misspelt name tends to recur on
    /// many lines, and each suggestion scans every item.
    suggestions: HashMap<String, String>,
}

/// After this many distinct unknown names, stop looking for suggestions: a file whose
/// item line is wrong can have an unknown name on every line of millions, and each
/// search scans every item.
const MAX_SUGGESTION_SEARCHES: usize = 100;

/// Whether a byte string is a decimal numeral (what Knuth's `sscanf("%d")` would take,
/// minus signs).
fn is_numeral(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

impl Reader<'_> {
    fn missing_item_line(&mut self) {
        let last = lines(self.src.text())
            .filter(|l| !l.text.trim().is_empty())
            .last()
            .map(|l| l.span().into());
        let found = if last.is_some() {
            "only comments"
        } else {
            "an empty file"
        };
        self.diags.push(KnuthError::MissingItemLine {
            src: self.src.named(),
            last,
            found,
        });
    }

    fn malformed_name(&mut self, span: Span, message: String, label: &str, help: String) {
        self.diags.push(KnuthError::MalformedName {
            src: self.src.named(),
            span: span.into(),
            message,
            label: label.to_string(),
            help,
        });
    }

    fn malformed_bounds(&mut self, span: Span, message: String, label: &str, help: &str) {
        self.diags.push(KnuthError::MalformedBounds {
            src: self.src.named(),
            span: span.into(),
            message,
            label: label.to_string(),
            help: help.to_string(),
        });
    }

    /// Parses the item line: primary names (with optional bounds), `|`, secondary names.
    fn item_line(&mut self, line: Line<'_>) {
        self.item_line = line.span();
        let mut bar: Option<Span> = None;
        for tok in line.tokens() {
            if tok.text == "|" {
                match bar {
                    Some(first) => self.diags.push(KnuthError::SecondBar {
                        src: self.src.named(),
                        first: first.into(),
                        second: tok.span().into(),
                    }),
                    None => bar = Some(tok.span()),
                }
                continue;
            }
            // A separator glued to a name (`|X` or `B|`) is a likely slip: report it once,
            // and read on as if the blank were there, so that the items get the kind the
            // writer meant and the options do not add errors of their own.
            let mut tok = tok;
            if bar.is_none() && tok.text.len() > 1 {
                if let Some(rest) = tok.text.strip_prefix('|') {
                    self.glued_bar(tok);
                    bar = Some(tok.sub(0, 1));
                    tok = Token {
                        text: rest,
                        offset: tok.offset + 1,
                    };
                } else if let Some(name) = tok.text.strip_suffix('|')
                    && !name.bytes().all(|b| b.is_ascii_digit() || b == b':')
                {
                    self.glued_bar(tok);
                    bar = Some(tok.sub(name.len(), tok.text.len()));
                    let name_tok = Token {
                        text: name,
                        offset: tok.offset,
                    };
                    if self.check_item_name(name_tok, name, name_tok.span()) {
                        self.declare(name, name_tok.span(), ItemKind::PRIMARY, line.number);
                    }
                    continue;
                }
            }
            let (kind, name, name_span) = match tok.text.find('|') {
                Some(k) => {
                    let bounds = self.bounds(tok, k, bar.is_some());
                    let name = &tok.text[k + 1..];
                    // After a bounds error the item is still declared, so that the options
                    // naming it do not add "unknown item" errors.
                    let kind = match bar {
                        Some(_) => ItemKind::Secondary,
                        None => ItemKind::Primary {
                            bounds: bounds.unwrap_or(Bounds::EXACTLY_ONCE),
                        },
                    };
                    (kind, name, tok.sub(k + 1, tok.text.len()))
                }
                None if bar.is_some() => (ItemKind::Secondary, tok.text, tok.span()),
                None => (ItemKind::PRIMARY, tok.text, tok.span()),
            };
            if self.check_item_name(tok, name, name_span) {
                self.declare(name, name_span, kind, line.number);
            }
        }
    }

    /// Adds an item of the item line, unless its name is taken.
    fn declare(&mut self, name: &str, span: Span, kind: ItemKind, line: u32) {
        if let Some(&(_, first)) = self.index.get(name) {
            self.diags.push(KnuthError::DuplicateItem {
                src: self.src.named(),
                first: first.into(),
                second: span.into(),
                name: name.to_string(),
            });
            return;
        }
        let id = self.problem.add_item(name, kind, Origin::Line(line));
        self.index.insert(name.to_string(), (id, span));
    }

    fn glued_bar(&mut self, tok: Token<'_>) {
        self.malformed_bounds(
            tok.span(),
            format!("expected `|` as a token of its own, found `{}`", tok.text),
            "`|` glued to a name",
            "the `|` that starts the secondary items stands alone, with blanks around it, \
             as in `A B | X Y`; bounds are written `2:3|name`",
        );
    }

    /// Checks a declared name; reports and returns false if it cannot be an item.
    fn check_item_name(&mut self, tok: Token<'_>, name: &str, span: Span) -> bool {
        if name.is_empty() {
            self.malformed_name(
                tok.span(),
                format!("expected an item name after `{}`, found nothing", tok.text),
                "the name is missing",
                format!("write the item's name right after the `|`: `{}A`", tok.text),
            );
            return false;
        }
        if let Some(c) = name.chars().find(|&c| c == ':' || c == '|') {
            let reason = if c == ':' {
                "`:` separates an item from its color in options"
            } else {
                "`|` separates bounds from the name, and primary from secondary items"
            };
            self.malformed_name(
                span,
                format!("item name `{name}` contains `{c}`"),
                "reserved character in a name",
                format!("{reason}: rename the item without `{c}`"),
            );
            return false;
        }
        true
    }

    /// Parses the bounds before the `|` at byte `bar` of `tok`; reports and returns
    /// `None` if they are malformed.
    fn bounds(&mut self, tok: Token<'_>, bar: usize, secondary: bool) -> Option<Bounds> {
        let text = &tok.text[..bar];
        let span = tok.sub(0, bar + 1);
        if secondary {
            self.malformed_bounds(
                span,
                format!("expected a secondary item name, found bounds `{text}|`"),
                "bounds on a secondary item",
                "only primary items (before the `|` token) have bounds: move the item before \
                 the `|`, or remove the bounds",
            );
            return None;
        }
        let (lo, hi) = match text.split_once(':') {
            Some((lo, hi)) => (lo, hi),
            None => (text, text),
        };
        if !is_numeral(lo) || !is_numeral(hi) {
            self.malformed_bounds(
                span,
                format!("expected bounds `u:v|` or `v|`, found `{text}|`"),
                "not a pair of nonnegative integers",
                "write `2:3|name` for an item covered two or three times, or `2|name` for \
                 exactly twice",
            );
            return None;
        }
        let (Ok(lo), Ok(hi)) = (lo.parse::<u32>(), hi.parse::<u32>()) else {
            self.malformed_bounds(
                span,
                format!("bounds `{text}` are too large"),
                "more than 4294967295",
                "a bound is a count of options: use a smaller number",
            );
            return None;
        };
        if lo > hi {
            self.malformed_bounds(
                span,
                format!("expected bounds `u:v` with u <= v, found `{lo}:{hi}`"),
                "the lower bound is above the upper bound",
                "write the smaller number first: `u:v|name` with u <= v",
            );
            return None;
        }
        Some(Bounds { lo, hi: Some(hi) })
    }

    /// Parses one option line.
    fn option(&mut self, line: Line<'_>) {
        let mut entries: Vec<Entry> = Vec::new();
        let mut cost: Option<i64> = None;
        // Where each item of this option was first named, to label both occurrences.
        let mut seen: HashMap<ItemId, Span> = HashMap::new();
        for tok in line.tokens() {
            if let Some(digits) = tok.text.strip_prefix('|') {
                if let Some(c) = self.cost(tok, digits) {
                    cost = match cost.unwrap_or(0).checked_add(c) {
                        Some(sum) => Some(sum),
                        None => {
                            self.cost_too_large(tok, true);
                            None
                        }
                    };
                }
                continue;
            }
            if let Some(entry) = self.entry(tok, &mut seen) {
                entries.push(entry);
            }
        }
        if entries.is_empty() {
            // Every token was an error (already reported): nothing to keep.
            return;
        }
        self.problem.add_option(Opt {
            name: None,
            entries,
            cost,
            origin: Origin::Line(line.number),
        });
    }

    /// Reports a cost above `i64::MAX`, alone (`total == false`) or added to the costs
    /// before it on the line.
    fn cost_too_large(&mut self, tok: Token<'_>, total: bool) {
        let (message, label) = if total {
            (
                "the costs of this option add up to more than 9223372036854775807".to_string(),
                "the total overflows here",
            )
        } else {
            (
                format!("cost `{}` is too large", tok.text),
                "more than 9223372036854775807",
            )
        };
        self.diags.push(KnuthError::MalformedCost {
            src: self.src.named(),
            span: tok.span().into(),
            message,
            label: label.to_string(),
            help: "costs are signed 64-bit integers: use smaller costs".to_string(),
        });
    }

    /// Parses the digits of a `|n` cost token.
    fn cost(&mut self, tok: Token<'_>, digits: &str) -> Option<i64> {
        if !is_numeral(digits) {
            let kept: String = digits.chars().filter(char::is_ascii_digit).collect();
            let example = if kept.is_empty() { "5" } else { kept.as_str() };
            let help = if digits.is_empty() {
                "write the cost right after the `|`, with no space between: `|5`".to_string()
            } else {
                format!(
                    "write the cost as `|{example}`: a `|` then a nonnegative integer, with \
                     no space, sign or unit"
                )
            };
            self.diags.push(KnuthError::MalformedCost {
                src: self.src.named(),
                span: tok.span().into(),
                message: format!("expected a cost `|n`, found `{}`", tok.text),
                label: "not `|` followed by a nonnegative integer".to_string(),
                help,
            });
            return None;
        }
        match digits.parse::<i64>() {
            Ok(c) => Some(c),
            Err(_) => {
                self.cost_too_large(tok, false);
                None
            }
        }
    }

    /// Parses one `name` or `name:color` token of an option.
    fn entry(&mut self, tok: Token<'_>, seen: &mut HashMap<ItemId, Span>) -> Option<Entry> {
        if let Some(k) = tok.text.find('|') {
            let after = &tok.text[k + 1..];
            let help = if is_numeral(after) {
                format!(
                    "a cost is a token of its own: write `{} |{after}`",
                    &tok.text[..k]
                )
            } else {
                "`|` cannot appear in a name: remove it".to_string()
            };
            self.malformed_name(
                tok.sub(k, k + 1),
                format!("expected an item name, found `{}`", tok.text),
                "`|` inside a name",
                help,
            );
            return None;
        }
        let (name, color) = match tok.text.split_once(':') {
            Some((n, c)) => (n, Some(c)),
            None => (tok.text, None),
        };
        let name_span = tok.sub(0, name.len());
        if name.is_empty() {
            self.malformed_name(
                tok.span(),
                format!("expected an item name before `:`, found `{}`", tok.text),
                "the item is missing",
                format!("write the item first, then its color: `X{}`", tok.text),
            );
            return None;
        }
        if let Some(color) = color
            && (color.is_empty() || color.contains(':'))
        {
            let (message, label) = if color.is_empty() {
                (
                    format!("expected a color after `{name}:`, found nothing"),
                    "the color is missing",
                )
            } else {
                (
                    format!("expected one color after `{name}:`, found `{color}`"),
                    "a color cannot contain `:`",
                )
            };
            self.malformed_name(
                tok.sub(name.len(), tok.text.len()),
                message,
                label,
                format!("write `{name}:red` to give `{name}` a color, or `{name}` for none"),
            );
            return None;
        }
        let Some(&(item, decl)) = self.index.get(name) else {
            self.unknown_item(name, name_span);
            return None;
        };
        if let Some(&first) = seen.get(&item) {
            self.diags.push(KnuthError::RepeatedItem {
                src: self.src.named(),
                first: first.into(),
                second: name_span.into(),
                name: name.to_string(),
            });
            return None;
        }
        seen.insert(item, name_span);
        let color = match color {
            Some(c) if self.problem.item(item).kind.is_primary() => {
                self.diags.push(KnuthError::ColorOnPrimary {
                    src: self.src.named(),
                    span: tok.sub(name.len(), tok.text.len()).into(),
                    decl: decl.into(),
                    name: name.to_string(),
                    help: format!(
                        "only secondary items (after the `|` token of the item line) take \
                         colors: write `{name}` without `:{c}`, or declare `{name}` after the `|`"
                    ),
                });
                return None;
            }
            Some(c) => Some(self.problem.intern_color(c)),
            None => None,
        };
        Some(Entry { item, color })
    }

    fn unknown_item(&mut self, name: &str, span: Span) {
        let help = match self.suggestions.get(name) {
            Some(help) => help.clone(),
            None => {
                let searching = self.suggestions.len() < MAX_SUGGESTION_SEARCHES;
                let names = self.problem.items.iter().map(|i| i.name.as_str());
                let found = if searching {
                    did_you_mean(name, names)
                } else {
                    None
                };
                let help = match found {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!(
                        "every item of an option must be declared in the item line: add \
                         `{name}` there, or correct the name"
                    ),
                };
                if searching {
                    self.suggestions.insert(name.to_string(), help.clone());
                }
                help
            }
        };
        self.diags.push(KnuthError::UnknownItem {
            src: self.src.named(),
            span: span.into(),
            items: self.item_line.into(),
            name: name.to_string(),
            help,
        });
    }
}
