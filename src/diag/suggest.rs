//! "Did you mean": the closest known name to a misspelt one.
//!
//! One small module so that every phase (Knuth's format, the language's name checks)
//! suggests the same way: by Levenshtein distance over characters, accepting only
//! candidates close enough that the suggestion is likely to be what was meant.

/// The edit distance between two strings, counted in characters: insertions,
/// deletions, substitutions, and swaps of two adjacent characters (the commonest typo:
/// `rwo` for `row`) each cost one.
///
/// Keeps three rows of the dynamic-programming table, so memory is linear in the length
/// of `a`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    distance(&a, b, &mut Rows::default())
}

/// The rows of the table, borrowed so that comparing one name with many candidates
/// allocates nothing per candidate.
#[derive(Default)]
struct Rows {
    before: Vec<usize>,
    prev: Vec<usize>,
    cur: Vec<usize>,
}

fn distance(a: &[char], b: &str, rows: &mut Rows) -> usize {
    // The table's columns follow `a`, its rows `b`.
    let Rows { before, prev, cur } = rows;
    before.clear();
    before.resize(a.len() + 1, 0);
    prev.clear();
    prev.extend(0..=a.len());
    cur.clear();
    cur.resize(a.len() + 1, 0);
    let mut last_b = None;
    for (i, cb) in b.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &ca) in a.iter().enumerate() {
            let substitute = prev[j] + usize::from(ca != cb);
            let mut best = substitute.min(prev[j + 1] + 1).min(cur[j] + 1);
            if j > 0 && Some(ca) == last_b && a[j - 1] == cb && ca != cb {
                best = best.min(before[j - 1] + 1);
            }
            cur[j + 1] = best;
        }
        last_b = Some(cb);
        std::mem::swap(before, prev);
        std::mem::swap(prev, cur);
    }
    prev[a.len()]
}

/// Names longer than this get no suggestion.
pub const MAX_NAME: usize = 100;

/// Cells of the distance table one search may fill before it settles for the best
/// candidate so far (a few milliseconds).
const MAX_WORK: usize = 2_000_000;

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
    let mut rows = Rows::default();
    let len = chars.len();
    // The table costs the product of the two lengths: a name of 40,000 characters took
    // seconds per candidate. Nobody misspells a name that long by a few letters.
    if len > MAX_NAME {
        return None;
    }
    let mut work = 0usize;
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
        work += len * (len + limit);
        if work > MAX_WORK {
            break;
        }
        let d = if cand.eq_ignore_ascii_case(name) {
            0
        } else {
            distance(&chars, cand, &mut rows)
        };
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, cand));
        }
    }
    best.map(|(_, c)| c)
}

/// `a`, `b` and `c`, for help lines.
pub fn list_names(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.join(""),
    }
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
        let long = "a".repeat(40_000);
        let near = format!("{long}b");
        assert_eq!(did_you_mean(&long, [near.as_str()]), None);
    }
}
