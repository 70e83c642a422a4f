//! `dlxc fmt`: the house style of `.dlx` models.
//!
//! The formatter works on tokens ([`lex`]): it never adds, drops or reorders one, so
//! a formatted model means what it meant (the tests check that every model compiles
//! to the same matrix fingerprint before and after), and every comment stays where
//! it was. It only decides the space between tokens:
//!
//! - every declaration starts a line of its own, at column 0; the lines of a
//!   declaration keep the author's line breaks, and at most one blank line is kept
//!   between lines;
//! - a continuation line is indented 4 spaces per open bracket (at least 4; a line
//!   that starts with a closing bracket one level less); a deeper indentation the
//!   author chose, to align a line under the one above, is kept;
//! - on a line: one space around binary operators, `=`, `->` and keywords, and around
//!   the `:` of an item's bounds (`item x[i] for i in s : 1..`), one after `,` and any
//!   other `:`; none inside brackets, before `,` or `:`, around `..` and `..=`,
//!   after a unary `-`, between a name and the `(` of its call or the `[` of its index;
//!   a run of two or more spaces where one belongs is kept (it aligns a table);
//! - a comment after code keeps at least one space before it; a comment on a line of
//!   its own is indented as the code around it (column 0 between declarations), unless
//!   it goes on with the comment at the end of the line above (then it keeps its
//!   column, aligned with that comment); trailing
//!   whitespace goes, and the file ends with one newline.
//!
//! A model that does not parse is not formatted: its syntax errors are returned.
//! The output is a fixed point: formatting it again changes nothing.

pub mod lex;

use std::collections::HashSet;

use crate::diag::Diagnostics;
use crate::source::SourceFile;
use lex::{Kind, Token, lex};

/// The columns of one indentation step.
pub const INDENT: usize = 4;

/// The model in the house style, or its syntax errors.
pub fn format(src: &SourceFile) -> Result<String, Diagnostics> {
    let model = crate::syntax::parse(src)?;
    let text = src.text();
    let tokens = lex(text);
    // A declaration starts at its first token; the set holds the index of that token.
    let mut starts = HashSet::new();
    for d in &model.decls {
        let at = d.span().start as usize;
        if let Some(k) = tokens
            .iter()
            .position(|t| t.start >= at && t.kind != Kind::Comment)
        {
            starts.insert(k);
        }
    }
    Ok(layout(text, &tokens, &starts))
}

/// Whether `text` is already in the house style (`None`: it does not parse).
pub fn is_formatted(src: &SourceFile) -> Option<bool> {
    format(src).ok().map(|f| f == src.text())
}

fn is_open(t: &str) -> bool {
    matches!(t, "(" | "[" | "{")
}

fn is_close(t: &str) -> bool {
    matches!(t, ")" | "]" | "}")
}

/// Lays the tokens out; `starts` holds the indices of the tokens that start a
/// declaration.
fn layout(text: &str, tokens: &[Token], starts: &HashSet<usize>) -> String {
    let unary = unary_minus(text, tokens);
    // A comment is inside a declaration when code of that declaration follows it.
    let mut inside = vec![false; tokens.len()];
    let mut next_code_starts = true;
    for (i, t) in tokens.iter().enumerate().rev() {
        if t.kind == Kind::Comment {
            inside[i] = !next_code_starts;
        } else {
            next_code_starts = starts.contains(&i);
        }
    }
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut depth = 0usize;
    let mut seen_decl = false;
    let mut in_item = false;
    // Whether the last token was a comment after code, or a comment lined up with one.
    let mut side_comment = false;
    for (i, t) in tokens.iter().enumerate() {
        let word = t.text(text);
        let starts_decl = starts.contains(&i);
        if starts_decl {
            depth = 0;
            in_item = matches!(word, "item" | "secondary" | "colored");
        }
        let was_side_comment = side_comment;
        side_comment = false;
        if i > 0 {
            let prev = tokens[i - 1];
            let gap = &text[prev.end..t.start];
            let mut newlines = gap.matches('\n').count();
            if newlines == 0 && (starts_decl || prev.kind == Kind::Comment) {
                newlines = 1;
            }
            if newlines > 0 {
                out.push_str(if newlines >= 2 { "\n\n" } else { "\n" });
                let top = starts_decl || !seen_decl || (t.kind == Kind::Comment && !inside[i]);
                let lead = columns(gap.rsplit('\n').next().unwrap_or(""));
                let indent = if t.kind == Kind::Comment && was_side_comment && newlines == 1 {
                    side_comment = true;
                    lead
                } else if top {
                    0
                } else {
                    let least = if is_close(word) {
                        INDENT * depth.saturating_sub(1)
                    } else {
                        INDENT * depth.max(1)
                    };
                    least.max(lead)
                };
                out.extend(std::iter::repeat_n(' ', indent));
            } else {
                let bounds_colon = in_item && depth == 0 && word == ":";
                let house = if bounds_colon {
                    1
                } else {
                    space(text, tokens, i, &unary)
                };
                side_comment = t.kind == Kind::Comment;
                let padded = !gap.is_empty() && gap.bytes().all(|b| b == b' ');
                let width = if t.kind == Kind::Comment {
                    if padded { gap.len() } else { 1 }
                } else if house == 1 && padded && gap.len() >= 2 {
                    gap.len()
                } else {
                    house
                };
                out.extend(std::iter::repeat_n(' ', width));
            }
        }
        if t.kind == Kind::Comment {
            out.push_str(word.trim_end());
        } else {
            out.push_str(word);
        }
        seen_decl |= starts_decl;
        if is_open(word) && t.kind == Kind::Punct {
            depth += 1;
        } else if is_close(word) && t.kind == Kind::Punct {
            depth = depth.saturating_sub(1);
        }
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// The columns a line's leading whitespace takes (a tab is one indentation step).
fn columns(lead: &str) -> usize {
    lead.chars()
        .map(|c| if c == '\t' { INDENT } else { 1 })
        .sum()
}

/// Which tokens are a unary `-`: those after an operator, an opening bracket, a
/// comma or a keyword other than `true` and `false`, or first.
fn unary_minus(text: &str, tokens: &[Token]) -> Vec<bool> {
    let mut unary = vec![false; tokens.len()];
    let mut prev: Option<Token> = None;
    for (i, t) in tokens.iter().enumerate() {
        if t.kind == Kind::Comment {
            continue;
        }
        if t.text(text) == "-" {
            unary[i] = match prev {
                None => true,
                Some(p) => match p.kind {
                    Kind::Keyword => !matches!(p.text(text), "true" | "false"),
                    Kind::Punct => !is_close(p.text(text)),
                    _ => false,
                },
            };
        }
        prev = Some(*t);
    }
    unary
}

/// The house space (0 or 1) between token `i - 1` and token `i` on one line.
fn space(text: &str, tokens: &[Token], i: usize, unary: &[bool]) -> usize {
    let (p, n) = (tokens[i - 1], tokens[i]);
    let (pw, nw) = (p.text(text), n.text(text));
    let punct = |t: Token, w: &str| t.kind == Kind::Punct && t.text(text) == w;
    if p.kind == Kind::Punct && is_open(pw) || n.kind == Kind::Punct && is_close(nw) {
        return 0;
    }
    if punct(n, ",") || punct(n, ":") {
        return 0;
    }
    if punct(p, ",") || punct(p, ":") {
        return 1;
    }
    if punct(p, "..") || punct(p, "..=") || punct(n, "..") || punct(n, "..=") {
        return 0;
    }
    if punct(p, "-") && unary[i - 1] {
        return 0;
    }
    if punct(n, "(") {
        return usize::from(p.kind != Kind::Ident);
    }
    if punct(n, "[") {
        let indexes = matches!(p.kind, Kind::Ident | Kind::Str | Kind::BlockStr)
            || p.kind == Kind::Punct && is_close(pw);
        return usize::from(!indexes);
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(text: &str) -> String {
        format(&SourceFile::new("t.dlx", text)).expect("parses")
    }

    #[test]
    fn spaces_are_the_house_style() {
        assert_eq!(
            fmt(
                "param n=3\nitem x[ i ]for i in 0 .. n*2\noption o[i,j] for i in 0..n,j in{-1,1}covers x[i] ,x[ -j+i ]"
            ),
            "param n = 3\nitem x[i] for i in 0..n * 2\noption o[i, j] for i in 0..n, j in {-1, 1} covers x[i], x[-j + i]\n"
        );
        assert_eq!(fmt("let a = f(1)-g(-2)"), "let a = f(1) - g(-2)\n");
        assert_eq!(fmt("fn f(a,b)=a- -b"), "fn f(a, b) = a - -b\n");
        assert_eq!(
            fmt("param p:grid[2,2]=[[1 ,2],[3,4]][0]"),
            "param p: grid[2, 2] = [[1, 2], [3, 4]][0]\n"
        );
    }

    #[test]
    fn declarations_start_lines_and_continuations_are_indented() {
        assert_eq!(
            fmt("\n\nparam a = 1 param b = 2\n\n\n\nitem x[i]\nfor i in 0..a\n        where i > 0"),
            "param a = 1\nparam b = 2\n\nitem x[i]\n    for i in 0..a\n        where i > 0\n"
        );
        assert_eq!(
            fmt("let m = {\n\"a\": 1,\n  \"b\": [\n2],\n}"),
            "let m = {\n    \"a\": 1,\n    \"b\": [\n        2],\n}\n"
        );
    }

    #[test]
    fn comments_stay_and_alignment_is_kept() {
        let text = "# head   \n\nparam n = 3      # side\nlet t = {\"a\": 1,   \"bb\": 2}\n  # about x\nitem x[i] for i in 0..n\n    # the filter\n    where i > 0 # end\n";
        assert_eq!(
            fmt(text),
            "# head\n\nparam n = 3      # side\nlet t = {\"a\": 1,   \"bb\": 2}\n# about x\nitem x[i] for i in 0..n\n    # the filter\n    where i > 0 # end\n"
        );
    }

    #[test]
    fn bounds_colons_have_spaces_and_side_comments_keep_their_column() {
        assert_eq!(
            fmt(
                "item x[i] for i in 0..3: 1..2 # a\n                               # b\nparam n:int"
            ),
            "item x[i] for i in 0..3 : 1..2 # a\n                               # b\nparam n: int\n"
        );
    }

    #[test]
    fn the_output_is_a_fixed_point() {
        for text in [
            "param a=1 param b =2 item x[ i ]for i in 0..a\n  where i>0\n# c\noption o[i] for i in 0..a covers x[i]   # t",
            "let m = {\n\"a\": 1,\n  \"b\": [\n2],\n}\nlet s = \"\"\"\n  raw  \n\"\"\"\n",
        ] {
            let once = fmt(text);
            assert_eq!(fmt(&once), once, "{once}");
        }
    }

    #[test]
    fn a_model_that_does_not_parse_is_refused() {
        assert!(format(&SourceFile::new("t.dlx", "item x[")).is_err());
    }
}
