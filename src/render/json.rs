//! JSON Lines output: one object per solution, then one summary object.
//!
//! The schema is documented in the README ("JSON output"). Objects are built with
//! `serde_json` so that every string is escaped correctly.

use serde_json::{Map, Value as Json, json};

/// A solution object: `{"options": [...]}` plus the extra fields given (`record`,
/// `grid`, `objective`...), in a stable order.
pub fn solution(options: &[String], extra: &[(&str, Json)]) -> String {
    let mut m = Map::new();
    for (k, v) in extra {
        m.insert((*k).to_string(), v.clone());
    }
    m.insert("options".into(), json!(options));
    Json::Object(m).to_string()
}

/// Statistics of one search, for the summary object.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Solutions found (counted, even when not printed).
    pub solutions: u128,
    /// Search-tree nodes.
    pub nodes: u64,
    /// Link updates, as Knuth counts them.
    pub updates: u64,
    /// Whether the search ran to its end (false when cut short by a limit).
    pub complete: bool,
    /// Wall time in seconds.
    pub seconds: f64,
}

/// The summary object: `{"type":"summary","solutions":..,"nodes":..,"updates":..,"complete":..}`.
///
/// Solution counts past 2^53 - 1 (the largest integer a JSON reader that holds numbers
/// as doubles keeps exactly) are written as strings of decimal digits.
pub fn summary(s: &Summary, extra: &[(&str, Json)]) -> String {
    summary_counting(&s.solutions.to_string(), s, extra)
}

/// [`summary`] with the count given by its digits, in place of `s.solutions`: a count
/// of any size (shards of a memo count merged).
pub fn summary_counting(digits: &str, s: &Summary, extra: &[(&str, Json)]) -> String {
    let mut m = Map::new();
    m.insert("type".into(), json!("summary"));
    for (k, v) in extra {
        m.insert((*k).to_string(), v.clone());
    }
    m.insert("solutions".into(), count_value(digits));
    m.insert("nodes".into(), json!(s.nodes));
    m.insert("updates".into(), json!(s.updates));
    m.insert("complete".into(), json!(s.complete));
    m.insert("seconds".into(), json!((s.seconds * 1e6).round() / 1e6));
    Json::Object(m).to_string()
}

/// The largest integer every JSON reader keeps exactly (2^53 - 1).
pub const SAFE_INTEGER: u64 = (1 << 53) - 1;

/// A count in decimal digits as JSON: a number up to [`SAFE_INTEGER`], a string of
/// its digits past it (a reader that holds numbers as doubles would round it).
pub fn count_value(digits: &str) -> Json {
    match digits.parse::<u64>() {
        Ok(n) if n <= SAFE_INTEGER => json!(n),
        _ => json!(digits),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_single_lines_with_escaped_strings() {
        let line = solution(&["a \"b\"".to_string()], &[("record", json!(0))]);
        assert_eq!(line, r#"{"record":0,"options":["a \"b\""]}"#);
        let s = summary(
            &Summary {
                solutions: u128::MAX,
                nodes: 5,
                updates: 7,
                complete: false,
                seconds: 0.5,
            },
            &[],
        );
        assert!(s.contains(r#""solutions":"340282366920938463463374607431768211455""#));
        assert!(s.contains(r#""complete":false"#));
    }
}
