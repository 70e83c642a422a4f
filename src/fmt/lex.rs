//! The tokens of a `.dlx` model, with comments: what the formatter rearranges the
//! space between, and what the language server looks at under the cursor.
//!
//! The lexer never fails: a character it does not know is a token of its own
//! ([`Kind::Unknown`]), so it can run on a half-typed model in the editor. The grammar
//! (`grammar/dlx.pest`) stays the judge of what is valid.

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A name (reserved words excepted; `symmetry` and `count` are names here).
    Ident,
    /// A reserved word: `param`, `for`, `and`, `true`, ...
    Keyword,
    /// An integer literal.
    Int,
    /// A `"..."` string, escapes included, possibly unterminated.
    Str,
    /// A `"""` block string, over several lines.
    BlockStr,
    /// A `#` comment, to the end of its line (the newline excluded).
    Comment,
    /// Punctuation or an operator: `( ) [ ] { } , : = == != < <= > >= .. ..= -> + - * /
    /// % | &`.
    Punct,
    /// A character that starts no token.
    Unknown,
}

/// One token: its kind and its byte range in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: Kind,
    /// Byte offset of its first byte.
    pub start: usize,
    /// Byte offset one past its last byte.
    pub end: usize,
}

impl Token {
    /// Its text.
    pub fn text(self, text: &str) -> &str {
        &text[self.start..self.end]
    }
}

/// The reserved words of the language (as `keyword` in `grammar/dlx.pest`): the
/// parser's own list, so that the formatter and the editor know the same words.
pub use crate::syntax::errors::RESERVED as KEYWORDS;

/// Operators of two or three characters, longest first.
const LONG_PUNCT: &[&str] = &["..=", "..", "==", "!=", "<=", ">=", "->"];

/// The tokens of a text, comments included, whitespace left out.
pub fn lex(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        let kind = match b {
            b' ' | b'\t' | b'\r' | b'\n' => {
                i += 1;
                continue;
            }
            b'#' => {
                i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
                Kind::Comment
            }
            b'"' if text[i..].starts_with("\"\"\"") => {
                i = text[i + 3..]
                    .find("\"\"\"")
                    .map_or(bytes.len(), |n| i + 3 + n + 3);
                Kind::BlockStr
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' && i + 1 < bytes.len() && bytes[i + 1] != b'\n' {
                        2
                    } else {
                        1
                    };
                }
                if i < bytes.len() && bytes[i] == b'"' {
                    i += 1;
                }
                Kind::Str
            }
            b'0'..=b'9' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                Kind::Int
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                if KEYWORDS.contains(&&text[start..i]) {
                    Kind::Keyword
                } else {
                    Kind::Ident
                }
            }
            _ => {
                if let Some(p) = LONG_PUNCT.iter().find(|p| text[i..].starts_with(**p)) {
                    i += p.len();
                    Kind::Punct
                } else if b"()[]{},:=<>+-*/%|&".contains(&b) {
                    i += 1;
                    Kind::Punct
                } else {
                    // One whole character, however many bytes it takes.
                    i += text[i..].chars().next().map_or(1, char::len_utf8);
                    Kind::Unknown
                }
            }
        };
        out.push(Token {
            kind,
            start,
            end: i,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> Vec<(Kind, &str)> {
        lex(text)
            .into_iter()
            .map(|t| (t.kind, t.text(text)))
            .collect()
    }

    #[test]
    fn tokens_of_a_declaration() {
        use Kind::*;
        assert_eq!(
            texts("item x[i] for i in 0..=n-1 # note\nlet s = \"a\\\"b\""),
            [
                (Keyword, "item"),
                (Ident, "x"),
                (Punct, "["),
                (Ident, "i"),
                (Punct, "]"),
                (Keyword, "for"),
                (Ident, "i"),
                (Keyword, "in"),
                (Int, "0"),
                (Punct, "..="),
                (Ident, "n"),
                (Punct, "-"),
                (Int, "1"),
                (Comment, "# note"),
                (Keyword, "let"),
                (Ident, "s"),
                (Punct, "="),
                (Str, "\"a\\\"b\""),
            ]
        );
    }

    #[test]
    fn block_strings_and_strange_characters_are_single_tokens() {
        use Kind::*;
        assert_eq!(
            texts("\"\"\"\n a # b\n\"\"\" é"),
            [(BlockStr, "\"\"\"\n a # b\n\"\"\""), (Unknown, "é")]
        );
        assert_eq!(texts("\"open"), [(Str, "\"open")]);
    }
}
