//! "Did you mean": the closest known name to a misspelled one.

/// The candidate closest to `name` by edit distance, if it is close enough to be a
/// plausible typo (at most a third of the name's length, and at least one edit away).
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
        .map(|(_, c)| c)
}

/// Levenshtein distance, counting a swap of two adjacent characters as one edit
/// (the commonest typo).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        d[i * w] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = best;
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("box_of", "bxo_of"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn suggests_only_plausible_names() {
        let names = ["alphabet", "box_of", "puzzle", "N"];
        assert_eq!(did_you_mean("alphabte", names), Some("alphabet"));
        assert_eq!(did_you_mean("puzle", names), Some("puzzle"));
        assert_eq!(did_you_mean("zzz", names), None);
        assert_eq!(did_you_mean("n", names), Some("N"));
    }
}
