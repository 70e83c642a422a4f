//! `dlxc run`, `dlxc check` and `dlxc compile`: a model through the whole pipeline.

use std::collections::HashMap;
use std::rc::Rc;
use std::time::Instant;

use serde_json::json;

use crate::check::{Checked, check as check_model};
use crate::cli::solve::finish;
use crate::cli::{
    EXIT_BAD_INPUT, EXIT_CUT_SHORT, EXIT_NO_SOLUTION, EXIT_SOLVED, Emit, ModelArgs, Out,
    SearchArgs, read_source, report, search_config,
};
use crate::diag::Diagnostics;
use crate::diag::report::Report;
use crate::lower::data::{self, ParamType};
use crate::lower::eval::Env;
use crate::lower::value::Value;
use crate::lower::{Instance, Lowerer, RecordFailure, objective};
use crate::problem::{OptionId, Origin};
use crate::render::{json as jsonl, option_lines, paint_grid};
use crate::solve::{End, Flow, Optimizer, Solver};
use crate::source::{SourceFile, Span};
use crate::syntax::ast::{Decl, ExprKind, Model};
use crate::syntax::{parse, parse_expr};

/// A parsed and checked model.
struct Front {
    src: SourceFile,
    model: Model,
    checked: Checked,
}

fn front(o: &mut Out<'_>, args: &ModelArgs) -> Option<Front> {
    let src = read_source(o, Some(&args.model))?;
    let model = match parse(&src) {
        Ok(m) => m,
        Err(d) => {
            report(o, &d);
            return None;
        }
    };
    let checked = match check_model(&model, &src) {
        Ok(c) => c,
        Err(d) => {
            report(o, &d);
            return None;
        }
    };
    report(o, &checked.warnings);
    Some(Front {
        src,
        model,
        checked,
    })
}

/// Parses the `-p name=value` settings. A value is a literal of the language; a bare
/// word for a string parameter (`-p alphabet=ABCDEFGHIJKLMNOP`) is taken as the string.
fn overrides(model: &Model, params: &[String]) -> Result<HashMap<String, Value>, Diagnostics> {
    let mut out = HashMap::new();
    let mut errors = Diagnostics::new();
    let empty = Model {
        decls: Vec::new(),
        span: Span::default(),
    };
    for setting in params {
        let Some((name, text)) = setting.split_once('=') else {
            errors.push(
                Report::error("E0602", format!("`-p {setting}` has no value")).help(format!(
                    "write `-p {setting}=VALUE`, for example `-p n=4` or `-p 'missing={{3,12}}'`"
                )),
            );
            continue;
        };
        let name = name.trim();
        let takes_string = model.decls.iter().any(|d| match d {
            Decl::Param(p) if p.name.name == name => {
                p.ty.as_ref().is_some_and(|t| t.name.name == "str")
                    || p.default
                        .as_ref()
                        .is_some_and(|e| matches!(e.kind, ExprKind::Str(_)))
            }
            _ => false,
        });
        let src = SourceFile::new(format!("-p {name}"), text);
        let value = parse_expr(&src).and_then(|e| {
            let mut env = Env::new(&empty, &src, HashMap::new());
            env.eval(&e)
                .map_err(|r| Diagnostics::from(r as crate::diag::Diag))
        });
        match value {
            Ok(v) => {
                out.insert(name.to_string(), v);
            }
            Err(_) if takes_string && !text.is_empty() && !text.contains(['"', '{', '[', '(']) => {
                out.insert(name.to_string(), Value::str(text));
            }
            Err(d) => {
                let why = d
                    .iter()
                    .next()
                    .map_or_else(|| "not a literal".to_string(), |e| e.to_string());
                errors.push(
                    Report::error("E0602", format!("the value of `-p {name}` is not a literal of the language"))
                        .label(Span::new(0, text.len()), why)
                        .help("write a literal: an integer (`4`), a string (`'\"ABC\"'`), a set (`'{3,12}'`), a list (`'[1,2]'`)")
                        .with_source(&src),
                );
            }
        }
    }
    if errors.has_errors() {
        Err(errors)
    } else {
        Ok(out)
    }
}

fn lowerer<'m>(o: &mut Out<'_>, f: &'m Front, args: &ModelArgs) -> Option<Lowerer<'m>> {
    let params = match overrides(&f.model, &args.params) {
        Ok(p) => p,
        Err(d) => {
            report(o, &d);
            return None;
        }
    };
    let depends = |i: usize, p: usize| f.checked.depends_on(i, &[p]);
    match Lowerer::new(
        &f.model,
        &f.src,
        &depends,
        params,
        args.data.is_some(),
        args.max_size,
    ) {
        Ok(mut l) => {
            let w = l.take_warnings();
            report(o, &w);
            Some(l)
        }
        Err(d) => {
            report(o, &d);
            None
        }
    }
}

/// The records of the data file, each as a value of the data parameter's type, or the
/// single default instance (`None`).
/// One instance to solve: the data record's value (none for the model's defaults), its
/// index in the file, and a description of where it is, for messages.
struct RecordIn {
    value: Option<Value>,
    index: Option<usize>,
    /// The data file and the line the record starts on, for notes; empty without data.
    file: Rc<str>,
    line: usize,
}

impl RecordIn {
    /// "record 3 (puzzles.txt, line 5)", written only when a note needs it: a run over
    /// fifty thousand records should not format fifty thousand places it never shows.
    fn place(&self) -> Option<String> {
        self.index
            .map(|k| format!("record {k} ({}, line {})", self.file, self.line))
    }
}

fn records(o: &mut Out<'_>, args: &ModelArgs, lowerer: &Lowerer<'_>) -> Option<Vec<RecordIn>> {
    let Some(path) = &args.data else {
        return Some(vec![RecordIn {
            value: None,
            index: None,
            file: Rc::from(""),
            line: 0,
        }]);
    };
    let (_, ty) = lowerer.data_param()?.clone();
    let src = read_source(o, Some(path))?;
    let recs = match data::split_records(src.text(), &ty) {
        Ok(r) if r.is_empty() => {
            let r = Report::error("E0605", format!("{} holds no data records", src.name()))
                .help(format!(
                    "the file has only comments or blank lines; each record must be {}",
                    record_layout(&ty)
                ))
                .with_source(&src);
            report(o, &Diagnostics::from(Box::new(r) as crate::diag::Diag));
            return None;
        }
        Ok(r) => r,
        Err((line, offset, e)) => {
            let len = src.text()[offset..]
                .find('\n')
                .unwrap_or(src.text().len() - offset);
            report(
                o,
                &Diagnostics::from(data_error(
                    &src,
                    &ty,
                    line,
                    Span::new(offset, offset + len),
                    &e.message,
                )),
            );
            return None;
        }
    };
    let file: Rc<str> = Rc::from(src.name());
    let mut out = Vec::with_capacity(recs.len());
    let mut errors = Diagnostics::new();
    for (k, rec) in recs.iter().enumerate() {
        match data::parse_text(&rec.text, &ty) {
            Ok(v) => out.push(RecordIn {
                value: Some(v),
                index: Some(k),
                file: Rc::clone(&file),
                line: rec.line,
            }),
            Err(e) => {
                let line_no = rec.line + e.line.unwrap_or(0);
                let start = rec.offset
                    + rec
                        .text
                        .split('\n')
                        .take(e.line.unwrap_or(0))
                        .map(|l| l.len() + 1)
                        .sum::<usize>();
                let len = src.text()[start.min(src.text().len())..]
                    .find('\n')
                    .unwrap_or(0);
                let r = data_error(
                    &src,
                    &ty,
                    line_no,
                    Span::new(start, start + len),
                    &format!("record {k}: {}", e.message),
                );
                errors.push_boxed(r);
            }
        }
    }
    if report(o, &errors) {
        return None;
    }
    Some(out)
}

fn data_error(
    src: &SourceFile,
    ty: &ParamType,
    line: usize,
    span: Span,
    message: &str,
) -> crate::diag::Diag {
    Box::new(
        Report::error("E0605", format!("{}, line {line}: {message}", src.name()))
            .label(span, "this record has the wrong shape")
            .help(format!("each record must be {}", record_layout(ty)))
            .with_source(src),
    )
}

fn record_layout(ty: &ParamType) -> String {
    match ty {
        ParamType::Grid(Some((r, c))) => format!(
            "{r} lines of {c} characters, or one line of {} characters",
            r * c
        ),
        ParamType::Grid(None) => "a block of lines, blocks separated by blank lines".into(),
        ParamType::Ints => "whitespace-separated integers, records separated by blank lines".into(),
        other => format!("one line holding a `{}`", other.written()),
    }
}

/// Reports two forced options that share an item.
fn clash_report(src: &SourceFile, inst: &Instance, clash: &crate::solve::Clash) -> Report {
    let p = &inst.families.problem;
    let a = p.option_label(clash.first);
    let b = p.option_label(clash.second);
    let item = &p.item(clash.item).name;
    let what = clash.describe(&format!("`{a}`"), &format!("`{b}`"), &format!("`{item}`"));
    let mut r = Report::error("E0404", what)
        .help("the forced options contradict each other, so this instance has no solution; check the clues or the pieces already placed")
        .with_source(src);
    for (id, text) in [(clash.first, a), (clash.second, b)] {
        if let Origin::Model { decl, .. } = &p.option(id).origin {
            r = r.secondary(*decl, format!("`{text}` comes from this family"));
        }
    }
    r
}

/// Runs `dlxc run`.
pub fn run(o: &mut Out<'_>, args: &ModelArgs, s: &SearchArgs) -> u8 {
    let Some(f) = front(o, args) else {
        return EXIT_BAD_INPUT;
    };
    let goal = objective(&f.model).map(super::optimize::engine_objective);
    let Some(mut lowerer) = lowerer(o, &f, args) else {
        return EXIT_BAD_INPUT;
    };
    let Some(records) = records(o, args, &lowerer) else {
        return EXIT_BAD_INPUT;
    };
    let started = Instant::now();
    let mut solver: Option<Solver> = None;
    let mut optimizer: Option<Optimizer> = None;
    let (mut unsolved, mut cut, mut broken) = (0usize, 0usize, 0usize);
    for mut rec in records {
        let (value, record) = (rec.value.take(), rec.index);
        if crate::cli::interrupt_flag().load(std::sync::atomic::Ordering::Relaxed) {
            cut += 1;
            break;
        }
        let lowered = lowerer.instance(value);
        report(o, &lowerer.take_warnings());
        let inst = match lowered {
            Ok(i) => i,
            Err(RecordFailure {
                diagnostics,
                unsolvable,
            }) => {
                if let Some(place) = rec.place() {
                    o.note(&format!("in {place}:"));
                }
                report(o, &diagnostics);
                // One answer per record on stdout, so outputs stay aligned with inputs.
                no_solution_line(o, s, record, goal.is_some());
                if unsolvable {
                    unsolved += 1;
                } else {
                    broken += 1;
                }
                if !compact(s) && args.data.is_some() {
                    o.line("");
                }
                continue;
            }
        };
        let mut config = search_config(s);
        if let Some(t) = config.time_limit {
            config.time_limit = Some(t.saturating_sub(started.elapsed()));
        }
        let result = match goal {
            Some(obj) => {
                if optimizer.is_none() || !lowerer.matrix_is_shared() {
                    match Optimizer::new(&inst.families.problem, obj) {
                        Ok(x) => optimizer = Some(x),
                        Err(e) => {
                            let r = super::optimize::refusal_report(&f.src, &inst, &e);
                            report(o, &Diagnostics::from(Box::new(r) as crate::diag::Diag));
                            return EXIT_BAD_INPUT;
                        }
                    }
                }
                let Some(engine) = optimizer.as_mut() else {
                    return EXIT_BAD_INPUT;
                };
                super::optimize::solve_record(o, engine, &inst, s, record, &config)
                    .map(|a| (a.code, a.cut))
            }
            None => {
                if solver.is_none() || !lowerer.matrix_is_shared() {
                    match Solver::new(&inst.families.problem) {
                        Ok(sv) => solver = Some(sv),
                        Err(e) => {
                            let r = super::optimize::unsupported_report(&f.src, &inst, &e);
                            report(o, &Diagnostics::from(Box::new(r) as crate::diag::Diag));
                            return EXIT_BAD_INPUT;
                        }
                    }
                }
                let Some(sv) = solver.as_mut() else {
                    return EXIT_BAD_INPUT;
                };
                let mut printed = 0u64;
                let mut visit = |chosen: &[OptionId]| {
                    print_solution(o, &inst, chosen, s, record, printed);
                    printed += 1;
                    Flow::Continue
                };
                sv.search(&inst.forced, &config, &mut visit).map(|outcome| {
                    let mut s_rec = s.clone();
                    s_rec.stats = false;
                    let code = if s.json || s.count {
                        finish_record(o, &outcome, s, record)
                    } else {
                        finish(o, &outcome, &s_rec, false)
                    };
                    if s.stats {
                        let prefix = record.map_or(String::new(), |k| format!("record {k}: "));
                        o.note(&format!("{prefix}{}", super::output_stats(&outcome.stats)));
                    }
                    (code, matches!(outcome.end, End::Cut(_)))
                })
            }
        };
        match result {
            Ok((code, was_cut)) => {
                match code {
                    EXIT_SOLVED => {}
                    EXIT_CUT_SHORT => cut += 1,
                    _ => unsolved += 1,
                }
                // Ctrl-C ends the whole run, not just this record's search.
                if was_cut
                    && crate::cli::interrupt_flag().load(std::sync::atomic::Ordering::Relaxed)
                {
                    break;
                }
            }
            Err(clash) => {
                if let Some(place) = rec.place() {
                    o.note(&format!("in {place}:"));
                }
                report(
                    o,
                    &Diagnostics::from(
                        Box::new(clash_report(&f.src, &inst, &clash)) as crate::diag::Diag
                    ),
                );
                no_solution_line(o, s, record, goal.is_some());
                unsolved += 1;
            }
        }
        if !compact(s) && args.data.is_some() {
            o.line("");
        }
        if o.broken_pipe() {
            break;
        }
    }
    if broken > 0 {
        EXIT_BAD_INPUT
    } else if cut > 0 {
        EXIT_CUT_SHORT
    } else if unsolved > 0 {
        EXIT_NO_SOLUTION
    } else {
        EXIT_SOLVED
    }
}

/// Whether records print one line each (no blank line between them).
fn compact(s: &SearchArgs) -> bool {
    s.json || s.count || s.value
}

fn no_solution_line(o: &mut Out<'_>, s: &SearchArgs, record: Option<usize>, goal: bool) {
    if s.json {
        let summary = jsonl::Summary {
            complete: true,
            ..Default::default()
        };
        let mut extra = record_field(record);
        if goal {
            // As for a search that found nothing: no value, so nothing is optimal.
            extra.push(("objective", serde_json::Value::Null));
            extra.push(("optimal", json!(false)));
        }
        o.line(&jsonl::summary(&summary, &extra));
    } else if s.count {
        o.line("0");
    } else {
        o.line(s.none.as_deref().unwrap_or("No solution"));
    }
}

fn record_field(record: Option<usize>) -> Vec<(&'static str, serde_json::Value)> {
    record.map(|k| ("record", json!(k))).into_iter().collect()
}

fn finish_record(
    o: &mut Out<'_>,
    outcome: &crate::solve::Outcome,
    s: &SearchArgs,
    record: Option<usize>,
) -> u8 {
    let st = &outcome.stats;
    let cut = matches!(outcome.end, End::Cut(_));
    if s.json {
        let summary = jsonl::Summary {
            solutions: st.solutions,
            nodes: st.nodes,
            updates: st.updates,
            complete: !cut,
            seconds: st.elapsed.as_secs_f64(),
        };
        o.line(&jsonl::summary(&summary, &record_field(record)));
    } else {
        o.line(&st.solutions.to_string());
    }
    if let End::Cut(limit) = &outcome.end {
        o.note(&super::solve::cut_notice(*limit, st));
    }
    if st.solutions > 0 {
        EXIT_SOLVED
    } else if cut {
        EXIT_CUT_SHORT
    } else {
        EXIT_NO_SOLUTION
    }
}

fn print_solution(
    o: &mut Out<'_>,
    inst: &Instance,
    chosen: &[OptionId],
    s: &SearchArgs,
    record: Option<usize>,
    index: u64,
) {
    let grid = paint_grid(&inst.families, chosen);
    if s.json {
        let labels = option_lines(&inst.families.problem, chosen);
        let mut extra = record_field(record);
        if let Some(g) = &grid {
            extra.push(("grid", json!(g)));
        }
        o.line(&jsonl::solution(&labels, &extra));
        return;
    }
    if index > 0 {
        o.line("");
    }
    match grid {
        Some(rows) => rows.iter().for_each(|r| o.line(r)),
        None => option_lines(&inst.families.problem, chosen)
            .iter()
            .for_each(|l| o.line(l)),
    }
}

/// Runs `dlxc check`: every diagnostic of parsing, checking and lowering, no search.
pub fn check(o: &mut Out<'_>, args: &ModelArgs) -> u8 {
    let Some(f) = front(o, args) else {
        return EXIT_BAD_INPUT;
    };
    let Some(mut lowerer) = lowerer(o, &f, args) else {
        return EXIT_BAD_INPUT;
    };
    let Some(records) = records(o, args, &lowerer) else {
        return EXIT_BAD_INPUT;
    };
    let mut bad = false;
    for mut rec in records {
        let lowered = lowerer.instance(rec.value.take());
        report(o, &lowerer.take_warnings());
        if let Err(fail) = lowered {
            if let Some(place) = rec.place() {
                o.note(&format!("in {place}:"));
            }
            bad |= report(o, &fail.diagnostics) && !fail.unsolvable;
        }
    }
    if bad { EXIT_BAD_INPUT } else { EXIT_SOLVED }
}

/// Runs `dlxc compile`: the lowered problem of the defaults (or of the first record).
pub fn compile(o: &mut Out<'_>, args: &ModelArgs, emit: Emit) -> u8 {
    let Some(f) = front(o, args) else {
        return EXIT_BAD_INPUT;
    };
    let Some(mut lowerer) = lowerer(o, &f, args) else {
        return EXIT_BAD_INPUT;
    };
    let Some(records) = records(o, args, &lowerer) else {
        return EXIT_BAD_INPUT;
    };
    // `records` refuses an empty data file, and without one there is the default.
    let Some(RecordIn { value, .. }) = records.into_iter().next() else {
        return EXIT_BAD_INPUT;
    };
    let lowered = lowerer.instance(value);
    report(o, &lowerer.take_warnings());
    let inst = match lowered {
        Ok(i) => i,
        Err(fail) => {
            report(o, &fail.diagnostics);
            return EXIT_BAD_INPUT;
        }
    };
    match emit {
        Emit::Knuth => emit_knuth(o, &inst),
        Emit::Json => {
            o.line(&problem_json(&inst).to_string());
            EXIT_SOLVED
        }
    }
}

fn emit_knuth(o: &mut Out<'_>, inst: &Instance) -> u8 {
    let p = &inst.families.problem;
    let mut text = String::new();
    match crate::format::knuth::write(p, &mut text) {
        Ok(report) => {
            for note in report.notes() {
                o.note(&format!("note: {note}"));
            }
        }
        Err(e) => {
            let r = Report::error(
                "E0504", e.to_string()).help(
                "Knuth's format cannot hold this problem; `dlxc compile --emit json` writes every problem, and `dlxc run` solves it directly",
            );
            report(o, &Diagnostics::from(Box::new(r) as crate::diag::Diag));
            return EXIT_BAD_INPUT;
        }
    }
    if !inst.forced.is_empty() {
        o.note("note: forced options are not part of Knuth's format; they are listed in the comment at the top");
        let mut head = String::from("| forced options:\n");
        for &id in &inst.forced {
            head.push_str(&format!("|   {}\n", p.option_label(id)));
        }
        text.insert_str(0, &head);
    }
    o.text(&text);
    EXIT_SOLVED
}

fn problem_json(inst: &Instance) -> serde_json::Value {
    let p = &inst.families.problem;
    let items: Vec<_> = p
        .items
        .iter()
        .map(|it| match it.kind {
            crate::problem::ItemKind::Primary { bounds } => json!({
                "name": it.name, "primary": true, "lo": bounds.lo, "hi": bounds.hi,
            }),
            crate::problem::ItemKind::Secondary => json!({"name": it.name, "primary": false}),
        })
        .collect();
    let options: Vec<_> = p
        .options
        .iter()
        .map(|opt| {
            let entries: Vec<_> = opt
                .entries
                .iter()
                .map(|e| match e.color {
                    Some(c) => json!([e.item.0, p.colors[c.index()]]),
                    None => json!(e.item.0),
                })
                .collect();
            json!({"name": opt.name, "items": entries, "cost": opt.cost})
        })
        .collect();
    let forced: Vec<_> = inst.forced.iter().map(|id| id.0).collect();
    json!({"items": items, "options": options, "forced": forced})
}
