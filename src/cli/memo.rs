//! How the command line shows a memo count or random draws: the count line (exact,
//! however long), the `--stats` line of the table, the JSON summary.
//!
//! In `--json` the count is a number up to 2^53 - 1 and a string of its digits past it
//! (`"solutions":"92109458286284989468604"`), as for every count: a reader that holds
//! numbers as doubles would round it.

use serde_json::json;

use super::show::{Tag, cut_notice, record_field};
use super::{EXIT_CUT_SHORT, EXIT_NO_SOLUTION, EXIT_SOLVED, SearchArgs};
use crate::cli::Out;
use crate::diag::Code;
use crate::render::json::count_value;
use crate::run::memo::Memoed;
use crate::solve::End;

/// Prints the end of a memo run and returns the exit code.
pub(crate) fn finish(o: &mut Out<'_>, m: &Memoed, s: &SearchArgs, record: Option<Tag<'_>>) -> u8 {
    let complete = !matches!(m.end, End::Cut(_));
    let digits = m.count.to_string();
    let st = &m.stats;
    if s.json {
        let mut obj = serde_json::Map::new();
        obj.insert("type".into(), json!("summary"));
        for (k, v) in record_field(record) {
            obj.insert(k.into(), v);
        }
        for (k, v) in &m.fields {
            obj.insert((*k).into(), v.clone());
        }
        obj.insert("solutions".into(), count_value(&digits));
        if let Some(k) = m.sampled {
            obj.insert("samples".into(), json!(k));
        }
        obj.insert("nodes".into(), json!(st.nodes));
        obj.insert("updates".into(), json!(0));
        obj.insert("complete".into(), json!(complete));
        obj.insert(
            "seconds".into(),
            json!((st.elapsed.as_secs_f64() * 1e6).round() / 1e6),
        );
        obj.insert(
            "memo".into(),
            json!({
                "order": st.order.name(),
                "threads": st.threads,
                "states": st.states,
                "hits": st.hits,
                "bytes": st.bytes,
                "full": st.full,
            }),
        );
        o.line(&serde_json::Value::Object(obj).to_string());
    } else if m.sampled.is_none() {
        o.line(&if complete {
            digits.clone()
        } else {
            format!("{digits}+")
        });
    } else if m.count.is_zero() && complete {
        o.line(s.none.as_deref().unwrap_or("No solution"));
    }
    if s.stats {
        let line = stats_line(m);
        o.note(&match record {
            Some(k) => format!("record {k}: {line}"),
            None => line,
        });
    }
    if let End::Cut(limit) = m.end {
        o.note(&if m.sampled.is_some() {
            format!(
                "search cut short ({}) before the count was complete: no solution drawn",
                limit.reason()
            )
        } else {
            cut_notice(limit, st.nodes, &m.count.to_string())
        });
    }
    match m.end {
        End::Cut(_) => EXIT_CUT_SHORT,
        _ if !m.count.is_zero() => EXIT_SOLVED,
        _ => EXIT_NO_SOLUTION,
    }
}

/// The `--stats` line of a memo run.
pub(crate) fn stats_line(m: &Memoed) -> String {
    let st = &m.stats;
    let secs = st.elapsed.as_secs_f64();
    format!(
        "solutions: {}, nodes: {}, time: {secs:.3} s, engine: memo ({} order{}, {}), states: {}, hits: {}, table: {} bytes{}, key: {} words",
        m.count,
        st.nodes,
        st.order.name(),
        if m.probed { ", after a probe" } else { "" },
        match st.threads {
            1 => "one thread".to_string(),
            n => format!("{n} threads"),
        },
        st.states,
        st.hits,
        st.bytes,
        if st.full {
            " (full: stopped storing)"
        } else {
            ""
        },
        st.key_words,
    )
}

/// Writes `--zdd FILE`, and beside it `FILE.vars`: line k names the option of
/// variable k (Knuth's format numbers the variables and names nothing). A file that
/// cannot be written is E0955.
pub(crate) fn write_zdd(
    path: &std::path::Path,
    zdd: &crate::solve::memo::zdd::Zdd,
    problem: &crate::problem::Problem,
) -> Result<(), crate::run::Failure> {
    use std::io::Write;
    let mut vars = path.as_os_str().to_owned();
    vars.push(".vars");
    let vars = std::path::PathBuf::from(vars);
    let fail = |e: std::io::Error| {
        crate::run::Failure::Report(Box::new(
            crate::diag::report::Report::error(
                Code::E0955,
                format!("cannot write the ZDD to {}: {e}", path.display()),
            )
            .help("give --zdd a file in a folder that exists and can be written"),
        ))
    };
    let file = std::fs::File::create(path).map_err(fail)?;
    let mut out = std::io::BufWriter::new(file);
    zdd.write(&mut out).map_err(fail)?;
    out.flush().map_err(fail)?;
    let file = std::fs::File::create(&vars).map_err(fail)?;
    let mut out = std::io::BufWriter::new(file);
    for &o in &zdd.vars {
        writeln!(out, "{}", problem.option_label(o)).map_err(fail)?;
    }
    out.flush().map_err(fail)
}
