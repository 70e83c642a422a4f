//! The values of literals: integers with `_` separators, strings with escapes, and
//! dedented `"""` blocks. Errors come back as offsets relative to the literal so the
//! parser can place them in the file.

/// The value of an integer literal (digits and `_`), or `None` if it does not fit in
/// an `i64`.
pub(crate) fn int_value(text: &str) -> Option<i64> {
    text.bytes()
        .filter(|b| b.is_ascii_digit())
        .try_fold(0i64, |acc, b| {
            acc.checked_mul(10)?.checked_add(i64::from(b - b'0'))
        })
}

/// The value of the inside of a `"..."` string, and the byte ranges (relative to
/// `inner`) of escapes that are not one of `\" \\ \n \t`. An unknown escape keeps its
/// character so the rest of the string is still usable.
pub(crate) fn unescape(inner: &str) -> (String, Vec<(usize, usize)>) {
    let mut out = String::with_capacity(inner.len());
    let mut bad = Vec::new();
    let mut chars = inner.char_indices();
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some((_, '"')) => out.push('"'),
            Some((_, '\\')) => out.push('\\'),
            Some((_, 'n')) => out.push('\n'),
            Some((_, 't')) => out.push('\t'),
            Some((j, other)) => {
                out.push(other);
                bad.push((i, j + other.len_utf8()));
            }
            // A lone backslash at the end: only in an unterminated string.
            None => bad.push((i, i + 1)),
        }
    }
    (out, bad)
}

/// The value of the inside of a `"""` block.
///
/// The text is raw (no escapes). The line break right after the opening quotes is
/// dropped, and so is the last line if it holds only whitespace (the indentation of
/// the closing quotes); then the indentation common to all non-blank lines is removed.
/// The result has no trailing line break: `"""\n  ab\n  c\n  """` is `"ab\nc"`.
pub(crate) fn dedent(inner: &str) -> String {
    let inner = inner.replace("\r\n", "\n");
    let body = inner.strip_prefix('\n').unwrap_or(&inner);
    let mut lines: Vec<&str> = body.split('\n').collect();
    if lines.len() > 1 && lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| &l[..l.len() - l.trim_start_matches([' ', '\t']).len()])
        .reduce(|a, b| {
            let common = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
            &a[..common]
        })
        .unwrap_or("");
    lines
        .iter()
        .map(|l| {
            l.strip_prefix(indent)
                .unwrap_or(l.trim_start_matches([' ', '\t']))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        assert_eq!(int_value("1_000"), Some(1000));
        assert_eq!(int_value("9223372036854775807"), Some(i64::MAX));
        assert_eq!(int_value("9223372036854775808"), None);
    }

    #[test]
    fn escapes() {
        assert_eq!(unescape(r#"a\"b\\c\nd\te"#).0, "a\"b\\c\nd\te");
        let (s, bad) = unescape(r"x\qy");
        assert_eq!(s, "xqy");
        assert_eq!(bad, vec![(1, 3)]);
    }

    #[test]
    fn blocks_are_dedented() {
        assert_eq!(dedent("\n    ..O\n    .OO\n    "), "..O\n.OO");
        assert_eq!(dedent("\n  a\n\n    b\n"), "a\n\n  b");
        assert_eq!(dedent("one line"), "one line");
        assert_eq!(dedent("\n\tx\n\t y\n\t"), "x\n y");
        assert_eq!(dedent(""), "");
    }
}
