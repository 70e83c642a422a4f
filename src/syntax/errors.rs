//! Syntax diagnostics (codes `E00xx`) and the translation of pest's errors into them.
//!
//! pest stops at the first place its grammar cannot go on, so a file reports at most one
//! [`SyntaxError::Unexpected`] (or [`SyntaxError::KeywordAsName`]). Mistakes found while
//! the tree is built (bad escapes, integers too large, `maximize count`, ...) do not stop
//! the parse and are all collected.
//!
//! pest names what it expected by grammar rule; `describe` is the rename table that
//! turns those names into the words a user reads, with a priority so the most useful
//! alternatives come first.

use std::sync::Arc;

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

use super::grammar::{MAX_DEPTH, Rule};
use crate::source::{SourceFile, Span};

/// The words of the language that cannot be used as names.
pub const RESERVED: &[&str] = &[
    "param",
    "let",
    "fn",
    "item",
    "option",
    "force",
    "secondary",
    "colored",
    "for",
    "in",
    "where",
    "covers",
    "cost",
    "paint",
    "canvas",
    "draw",
    "assert",
    "minimize",
    "maximize",
    "true",
    "false",
    "and",
    "or",
    "not",
    "if",
    "then",
    "else",
];

/// A mistake in the text of a model.
#[derive(Debug, Error, Diagnostic)]
pub enum SyntaxError {
    /// The grammar cannot go on here.
    #[error("expected {expected}, found {found}")]
    #[diagnostic(code(dlx::E0001))]
    Unexpected {
        /// The model's text.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The unexpected token.
        #[label("unexpected {found}")]
        at: SourceSpan,
        /// The bracket still open, when closing it is what is expected.
        #[label("this bracket is still open")]
        opened: Option<SourceSpan>,
        /// What would have been accepted, in words.
        expected: String,
        /// What is there, in words.
        found: String,
        /// What to write instead.
        #[help]
        help: String,
    },

    /// A string without its closing quote.
    #[error("unterminated string")]
    #[diagnostic(code(dlx::E0002), help("close the string with `{quote}`{more}"))]
    UnterminatedString {
        /// The model's text.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// From the opening quote to where the string stops.
        #[label("this string is never closed")]
        at: SourceSpan,
        /// The quote that closes it: `"` or `"""`.
        quote: &'static str,
        /// More advice for one-line strings.
        more: &'static str,
    },

    /// An integer literal that does not fit in 64 bits.
    #[error("integer literal `{text}` is too large")]
    #[diagnostic(
        code(dlx::E0003),
        help("integers must lie between -9223372036854775808 and 9223372036854775807")
    )]
    IntTooLarge {
        /// The model's text.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The literal.
        #[label("does not fit in a 64-bit integer")]
        at: SourceSpan,
        /// The literal as written.
        text: String,
    },

    /// A backslash followed by a character that is not an escape.
    #[error("invalid escape `{text}` in a string")]
    #[diagnostic(
        code(dlx::E0004),
        help(
            "the escapes are `\\\"`, `\\\\`, `\\n` and `\\t`; write `\\\\` for a backslash, \
             or use a `\"\"\"` block, where backslashes are plain text"
        )
    )]
    InvalidEscape {
        /// The model's text.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The backslash and the character after it.
        #[label("unknown escape")]
        at: SourceSpan,
        /// The escape as written.
        text: String,
    },

    /// A reserved word where a name is expected.
    #[error("expected {expected}, found the reserved word `{word}`")]
    #[diagnostic(
        code(dlx::E0005),
        help(
            "`{word}` is a keyword of the language and cannot be a name; \
             pick another name, such as `{word}_`"
        )
    )]
    KeywordAsName {
        /// The model's text.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The keyword.
        #[label("reserved word")]
        at: SourceSpan,
        /// What was expected, in words.
        expected: String,
        /// The keyword.
        word: String,
    },

    /// `maximize count`.
    #[error("`maximize count` is not an objective")]
    #[diagnostic(
        code(dlx::E0006),
        help(
            "write `minimize count` for the fewest options; to prefer some options over \
             others, give them a `cost` and write `maximize cost`"
        )
    )]
    MaximizeCount {
        /// The model's text.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The objective.
        #[label("only the number of options can be minimized, not maximized")]
        at: SourceSpan,
    },

    /// An option family without `covers`.
    #[error("option `{name}` covers nothing")]
    #[diagnostic(
        code(dlx::E0007),
        help("say which items each option covers: `covers item[...], ...` after its clauses")
    )]
    OptionWithoutCovers {
        /// The model's text.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The option's name.
        #[label("this option has no `covers` list")]
        at: SourceSpan,
        /// The option's name.
        name: String,
    },

    /// `covers` with nothing after it.
    #[error("empty `covers` list")]
    #[diagnostic(
        code(dlx::E0008),
        help("name at least one item after `covers`, such as `covers cell[r, c]`")
    )]
    EmptyCovers {
        /// The model's text.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The `covers` keyword.
        #[label("no item follows")]
        at: SourceSpan,
    },

    /// `a < b < c`, `a..b..c`.
    #[error("{what} cannot be chained")]
    #[diagnostic(code(dlx::E0009), help("{help}"))]
    Chained {
        /// The model's text.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The first operator.
        #[label("first {one} here")]
        first: SourceSpan,
        /// The second operator.
        #[label("and then here")]
        second: SourceSpan,
        /// "comparisons" or "ranges".
        what: &'static str,
        /// "comparison" or "range".
        one: &'static str,
        /// What to write instead.
        help: &'static str,
    },

    /// `: lo..=hi` in an item's bounds.
    #[error("`..=` in multiplicity bounds")]
    #[diagnostic(
        code(dlx::E0010),
        help("bounds include both ends, as in Knuth's `lo:hi`: write `lo..hi`")
    )]
    InclusiveBounds {
        /// The model's text.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The operator.
        #[label("write `..` here")]
        at: SourceSpan,
    },

    /// An expression whose tree would be deeper than the parser allows: long chains of
    /// operators or `if`s.
    #[error("expression nested too deeply")]
    #[diagnostic(
        code(dlx::E0011),
        help(
            "an expression may nest at most {limit} levels of brackets, operators and `if`s; name parts of it with `let`, or sum a list with `sum(...)`"
        )
    )]
    TooComplex {
        /// The model's text.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The token past the limit.
        #[label("too deep here")]
        at: SourceSpan,
        /// The limit.
        limit: usize,
    },

    /// More clauses on one declaration than the parser allows.
    #[error("too many clauses")]
    #[diagnostic(
        code(dlx::E0011),
        help(
            "a declaration or comprehension may have at most {limit} `for`, `where` and `let` clauses; compute the values with a `let` declaration or a function"
        )
    )]
    TooManyClauses {
        /// The model's text.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The first clause past the limit.
        #[label("one clause too many")]
        at: SourceSpan,
        /// The limit.
        limit: usize,
    },

    /// Brackets nested deeper than the parser allows.
    #[error("brackets nested too deeply")]
    #[diagnostic(
        code(dlx::E0011),
        help(
            "at most {limit} levels of `(`, `[` and `{{` are allowed; name the inner parts with `let`"
        )
    )]
    TooDeep {
        /// The model's text.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The bracket past the limit.
        #[label("too deep")]
        at: SourceSpan,
        /// The limit.
        limit: usize,
    },
}

/// How a grammar rule reads in "expected ...", with a rank: lower comes first.
///
/// Every rule that can be in pest's list of expected rules is here; rules that only
/// ever appear inside atomic rules, or that cannot fail where they start, are not.
pub(crate) fn describe(rule: Rule) -> &'static [(u8, &'static str)] {
    use Rule::*;
    match rule {
        rparen => &[(0, "`)`")],
        rbrack => &[(0, "`]`")],
        rbrace => &[(0, "`}`")],
        comma | trailing_comma => &[(1, "`,`")],
        colon | bounds | map_tail => &[(2, "`:`")],
        assign => &[(2, "`=`")],
        lparen => &[(2, "`(`")],
        lbrack | index_list | index => &[(3, "`[`")],
        lbrace => &[(3, "`{`")],
        kw_in => &[(2, "`in`")],
        kw_then => &[(2, "`then`")],
        kw_else => &[(2, "`else`")],
        kw_covers | covers => &[(3, "`covers`")],
        kw_for | for_clause | comp_clauses => &[(4, "`for`")],
        clauses => &[(4, "`for`"), (4, "`where`")],
        kw_where | where_clause => &[(4, "`where`")],
        entry_if => &[(4, "`if`")],
        let_clause => &[(5, "`let`")],
        kw_cost | cost => &[(5, "`cost`")],
        kw_paint | paint => &[(5, "`paint`")],
        kw_canvas | canvas_decl => &[(5, "`canvas`")],
        kw_draw | draw_decl => &[(5, "`draw`")],
        kw_cells | kw_region | kw_note | draw_cells | draw_region | draw_note => {
            &[(3, "`cells`, `region` or `note`")]
        }
        cell_shape => &[(3, "`square`, `triangle` or `hex`")],
        kw_assert | assert_decl => &[(5, "`assert`")],
        kw_count | objective_what => &[(2, "`count` or `cost`")],
        kw_item => &[(2, "`item`")],
        arrow => &[(2, "`->`")],
        symmetry_map => &[(3, "an item name")],
        symmetry_from => &[(3, "`[`")],
        symmetry_pattern => &[(3, "a loop variable")],
        ident | fn_params => &[(3, "a name")],
        op_or | op_and | op_eq | op_ne | op_le | op_lt | op_ge | op_gt | op_not_in | op_in
        | op_range_incl | op_range | op_union | op_inter | op_add | op_sub | op_mul | op_div
        | op_rem => &[(3, "an operator")],
        cover_entry => &[(3, "an item name")],
        type_expr => &[(3, "a type, such as `int` or `grid[N, N]`")],
        pattern | generator | wildcard | tuple_pattern => &[(3, "a loop variable")],
        map_entry => &[(3, "a key")],
        expr
        | if_expr
        | op_expr
        | bound_expr
        | expr_input
        | op_neg
        | op_not
        | block_string
        | unterminated_block_string
        | string
        | unterminated_string
        | int
        | boolean
        | call
        | parens
        | list
        | braces
        | set_tail => &[(6, "an expression")],
        EOI | model | decl | param_decl | let_decl | fn_decl | item_decl | item_class
        | option_decl | force_decl | objective | kw_param | kw_let | kw_fn | kw_option
        | kw_force | kw_secondary | kw_colored | kw_minimize | kw_maximize | symmetry_decl
        | kw_symmetry => &[(8, "a declaration")],
        // Silent rules never show up in errors; `if` and `keyword` only inside others.
        kw_if | keyword | WHITESPACE | COMMENT | clause | let_follow | operand | bound_operand
        | prefix | infix | bound_infix | postfix | primary | ident_char => &[],
    }
}

/// The expected alternatives in words, most useful first, without repeats.
///
/// When an operator would do, `(` and `[` (a call or an index after a name) go
/// without saying and are left out.
pub(crate) fn expected_words(rules: &[Rule]) -> Vec<&'static str> {
    let mut all: Vec<(u8, &'static str)> = rules
        .iter()
        .flat_map(|r| describe(*r).iter().copied())
        .collect();
    all.sort();
    let mut words: Vec<&'static str> = Vec::new();
    for (_, w) in all {
        if !words.contains(&w) {
            words.push(w);
        }
    }
    if words.contains(&"an operator") {
        words.retain(|w| !matches!(*w, "`(`" | "`[`"));
    }
    words
}

/// At most this many alternatives are named in a message.
const SHOWN: usize = 4;

/// Joins words as a person would: "a", "a or b", "a, b or c".
pub(crate) fn join_or(words: &[&str]) -> String {
    match words {
        [] => "something else".to_string(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The first token at or after an error position.
pub(crate) struct Token {
    /// Where it is (empty at the end of the file).
    pub span: Span,
    /// How it reads in "found ...".
    pub shown: String,
    /// The word, if the token is a name or a keyword.
    pub word: Option<String>,
    /// Whether that word is reserved.
    pub reserved: bool,
}

/// The first token at or after `pos`, skipping whitespace and comments.
pub(crate) fn token_at(text: &str, pos: usize) -> Token {
    let mut pos = pos.min(text.len());
    // pest may report where a rule started, before whitespace or a comment.
    loop {
        let rest = &text[pos..];
        let trimmed = rest.trim_start();
        pos += rest.len() - trimmed.len();
        if trimmed.starts_with('#') {
            pos += trimmed.find('\n').unwrap_or(trimmed.len());
        } else {
            break;
        }
    }
    let token = |start: usize, len: usize, shown: String| Token {
        span: Span::new(start, start + len),
        shown,
        word: None,
        reserved: false,
    };
    let rest = &text[pos..];
    let Some(c) = rest.chars().next() else {
        // Point just after the last thing written, where the missing part would go.
        let end = text.trim_end().len();
        return token(end, 0, "end of file".to_string());
    };
    if c.is_ascii_alphanumeric() || c == '_' {
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let word = &rest[..len];
        if c.is_ascii_digit() {
            return token(pos, len, format!("`{word}`"));
        }
        let reserved = RESERVED.contains(&word);
        let shown = if reserved {
            format!("keyword `{word}`")
        } else {
            format!("`{word}`")
        };
        return Token {
            word: Some(word.to_string()),
            reserved,
            ..token(pos, len, shown)
        };
    }
    if c == '"' {
        return token(pos, 1, "a string".to_string());
    }
    for op in ["..=", "..", "==", "!=", "<=", ">="] {
        if rest.starts_with(op) {
            return token(pos, op.len(), format!("`{op}`"));
        }
    }
    let shown = if c.is_control() {
        format!("the character {c:?}")
    } else {
        format!("`{c}`")
    };
    token(pos, c.len_utf8(), shown)
}

/// Turns pest's error into a diagnostic.
pub(crate) fn from_pest(src: &SourceFile, err: pest::error::Error<Rule>) -> SyntaxError {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((p, _)) => p,
    };
    let tok = token_at(src.text(), pos);
    let rules = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        ErrorVariant::CustomError { .. } => {
            // pest's own stack guard; the bracket limit normally catches this first.
            return SyntaxError::TooDeep {
                src: src.named(),
                at: tok.span.into(),
                limit: MAX_DEPTH,
            };
        }
    };
    let words = expected_words(&rules);
    let is_name = |w: &&str| matches!(*w, "a name" | "an item name" | "a loop variable");
    let after_comma = src.text()[..tok.span.start as usize]
        .trim_end()
        .ends_with(',');
    let starts_decl = tok
        .word
        .as_deref()
        .is_some_and(|w| DECL_KEYWORDS.contains(&w));
    if after_comma && starts_decl {
        // `covers a, b,` and then the next declaration: the comma is the mistake.
        return SyntaxError::Unexpected {
            src: src.named(),
            at: tok.span.into(),
            opened: None,
            expected: join_or(&words[..words.len().min(SHOWN)]),
            found: tok.shown,
            help: "a `,` must be followed by another entry: remove the comma at the end \
                   of the list before this declaration"
                .to_string(),
        };
    }
    if let (Some(word), true) = (&tok.word, tok.reserved && words.iter().any(is_name)) {
        let names: Vec<&str> = words.iter().copied().filter(is_name).collect();
        return SyntaxError::KeywordAsName {
            src: src.named(),
            at: tok.span.into(),
            expected: join_or(&names),
            word: word.clone(),
        };
    }
    let help = help_for(&words, &tok);
    // When a closing bracket is the most useful thing to write, show where it opened:
    // the error itself is often far below, at the next declaration.
    let opened = match words.first() {
        Some(&"`)`" | &"`]`" | &"`}`") => innermost_open(src.text(), tok.span.start as usize),
        _ => None,
    };
    SyntaxError::Unexpected {
        src: src.named(),
        at: tok.span.into(),
        opened: opened.map(Into::into),
        expected: join_or(&words[..words.len().min(SHOWN)]),
        found: tok.shown,
        help,
    }
}

fn word_len(tok: &Token) -> usize {
    tok.word.as_ref().map_or(0, |w| w.len())
}

/// The innermost bracket still open at `pos`, skipping strings and comments.
fn innermost_open(text: &str, pos: usize) -> Option<Span> {
    let mut open: Vec<usize> = Vec::new();
    let mut bytes = text.as_bytes()[..pos.min(text.len())].iter().enumerate();
    while let Some((i, b)) = bytes.next() {
        match b {
            b'(' | b'[' | b'{' => open.push(i),
            b')' | b']' | b'}' => {
                open.pop();
            }
            b'#' => {
                for (_, c) in bytes.by_ref() {
                    if *c == b'\n' {
                        break;
                    }
                }
            }
            b'"' => {
                let mut escaped = false;
                for (_, c) in bytes.by_ref() {
                    match c {
                        b'\\' if !escaped => escaped = true,
                        b'"' | b'\n' if !escaped => break,
                        _ => escaped = false,
                    }
                }
            }
            _ => {}
        }
    }
    open.pop().map(|i| Span::new(i, i + 1))
}

/// The keywords that start a declaration.
const DECL_KEYWORDS: &[&str] = &[
    "param",
    "let",
    "fn",
    "item",
    "option",
    "force",
    "secondary",
    "colored",
    "minimize",
    "maximize",
];

/// A help line for an unexpected token: a misspelled keyword, the usual slips, or what
/// to write.
fn help_for(words: &[&str], tok: &Token) -> String {
    let wants = |w: &str| words.contains(&w);
    if let (Some(word), false, true) = (&tok.word, tok.reserved, word_len(tok) >= 3) {
        // A word where a keyword would do is most likely a misspelled keyword (short
        // words are more likely names with something missing before them).
        let mut keywords: Vec<&str> = Vec::new();
        for w in words {
            match *w {
                "a declaration" => keywords.extend(DECL_KEYWORDS),
                "`count` or `cost`" => keywords.extend(["count", "cost"]),
                w if w.starts_with('`') && w[1..].starts_with(char::is_alphabetic) => {
                    keywords.push(w.trim_matches('`'));
                }
                _ => {}
            }
        }
        if let Some(k) = crate::diag::suggest::did_you_mean(word, keywords) {
            return format!("did you mean `{k}`?");
        }
    }
    if matches!(tok.word.as_deref(), Some("where" | "let")) && wants("`for`") && tok.reserved {
        return "the clauses of a comprehension start with `for`, as in \
                `[x for x in s where x > 0]`"
            .to_string();
    }
    if tok.shown == "`=`" && wants("an operator") {
        return "to compare two values, write `==`".to_string();
    }
    if tok.shown == "end of file"
        && let Some(w) = words.first()
    {
        return format!("the model ends too early: add {w} at the end");
    }
    if words.first() == Some(&"an operator") && wants("a declaration") {
        return "either an operator is missing, or a declaration starts here: declarations \
                start with `param`, `let`, `fn`, `item`, `option`, `force`, `minimize` or \
                `maximize`"
            .to_string();
    }
    if words.first() == Some(&"a declaration") {
        return "a declaration starts with `param`, `let`, `fn`, `item`, `option`, `force`, \
                `minimize` or `maximize`"
            .to_string();
    }
    match words.first() {
        Some(w @ (&"`)`" | &"`]`" | &"`}`")) => {
            format!("close the bracket with {w} before this")
        }
        Some(w) => format!("write {w} here, or check what comes before"),
        None => "remove this".to_string(),
    }
}

#[cfg(test)]
mod tests {
    /// Every syntax code has an explanation and at least one golden test.
    #[test]
    fn every_code_is_explained_and_tested() {
        let ui: Vec<String> = std::fs::read_dir("tests/ui/syntax")
            .expect("tests/ui/syntax")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect();
        for n in 1..=11 {
            let code = format!("E{n:04}");
            assert!(
                crate::diag::explain(&code).is_some(),
                "docs/errors/{code}.md"
            );
            assert!(
                ui.iter()
                    .any(|f| f.starts_with(&code) && f.ends_with(".dlx")),
                "tests/ui/syntax/{code}-*.dlx"
            );
        }
    }
}
