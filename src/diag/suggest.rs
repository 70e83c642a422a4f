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
    let a: Vec<char> = a.chars().collect();
    distance(&a, b, &mut Vec::new(), &mut Vec::new())
}

/// [`edit_distance`] with the first string already split into characters and the two
/// rows of the table borrowed, so that comparing one name with many candidates
/// allocates nothing per candidate.
fn distance(a: &[char], b: &str, prev: &mut Vec<usize>, cur: &mut Vec<usize>) -> usize {
    // The table's columns follow `a`, its rows `b`.
    prev.clear();
    prev.extend(0..=a.len());
    cur.clear();
    cur.resize(a.len() + 1, 0);
    for (i, cb) in b.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &ca) in a.iter().enumerate() {
            let substitute = prev[j] + usize::from(ca != cb);
            cur[j + 1] = substitute.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(prev, cur);
    }
    prev[a.len()]
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
    let chars: Vec<char> = name.chars().collect();
    let (mut prev, mut cur) = (Vec::new(), Vec::new());
    let len = chars.len();
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
            distance(&chars, cand, &mut prev, &mut cur)
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
