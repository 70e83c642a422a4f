//! "Did you mean": the closest known name to a misspelt one.
//!
//! One small module so that every phase (Knuth's format, the language's name checks)
//! suggests the same way: by Levenshtein distance over characters, accepting only
//! candidates close enough that the suggestion is likely to be what was meant.

/// The Levenshtein distance between two strings, counted in characters.
///
/// Uses two rows of the usual dynamic-programming table, so memory is linear in the
/// length of `b`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitute = prev[j] + usize::from(ca != cb);
            cur[j + 1] = substitute.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The candidate closest to `name`, if one is close enough to be a likely typo.
///
/// "Close enough" is no edit for one-character names (with one edit allowed, `a` would
/// match every other one-letter name), one edit for names of two or three characters,
/// and a third of the name's length beyond that. Ties go to the candidate
/// listed first, so the result is deterministic. A case-only difference always counts
/// as close.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let len = name.chars().count();
    let limit = match len {
        0 | 1 => 0,
        2 | 3 => 1,
        _ => len.div_ceil(3),
    };
    let mut best: Option<(usize, &'a str)> = None;
    for cand in candidates {
        if cand == name {
            continue;
        }
        // Skip the quadratic work when the lengths alone rule the candidate out.
        if cand.chars().count().abs_diff(len) > limit {
            continue;
        }
        let d = if cand.eq_ignore_ascii_case(name) {
            0
        } else {
            edit_distance(name, cand)
        };
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, cand));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("cell[3,4]", "cell[3,5]"), 1);
        assert_eq!(edit_distance("é", "e"), 1);
    }

    #[test]
    fn suggestions_are_close_and_deterministic() {
        let names = ["A", "B", "row1", "row2", "cell[3,4]"];
        assert_eq!(did_you_mean("C", names), None);
        assert_eq!(did_you_mean("b", names), Some("B"));
        assert_eq!(did_you_mean("row", names), Some("row1"));
        assert_eq!(did_you_mean("ROW1", names), Some("row1"));
        assert_eq!(did_you_mean("cell[3,5]", names), Some("cell[3,4]"));
        assert_eq!(did_you_mean("column", names), None);
        assert_eq!(did_you_mean("x", std::iter::empty()), None);
    }
}
