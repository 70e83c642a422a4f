//! `dlxc run`, `dlxc check` and `dlxc compile`: a model through the whole pipeline.

use std::collections::HashMap;
use std::rc::Rc;
use std::time::Instant;

use serde_json::json;

use crate::check::{Checked, check as check_model};
use crate::cli::records::{DataFile, Next, RecordError};
use crate::cli::solve::{finish, record_field};
use crate::cli::{
    EXIT_BAD_INPUT, EXIT_CUT_SHORT, EXIT_NO_SOLUTION, EXIT_SOLVED, Emit, ModelArgs, Out,
    SearchArgs, read_source, report, search_config,
};
use crate::diag::Diagnostics;
use crate::diag::report::Report;
use crate::lower::data::{BadRecord, ParamType};
use crate::lower::eval::Env;
use crate::lower::value::Value;
use crate::lower::{Instance, Lowerer, RecordFailure, objective};
use crate::problem::{OptionId, Origin};
use crate::render::{json as jsonl, option_lines, paint_grid};
use crate::solve::{End, Flow, Optimizer, SearchConfig, Solver};
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

/// Where the instances come from: the model's defaults (once), or a data file read one
/// record at a time.
enum Instances {
    Default {
        given: bool,
    },
    Data {
        file: Box<DataFile>,
        name: Rc<str>,
        ty: ParamType,
    },
}

/// What [`Instances::next`] found.
enum Got {
    Instance(RecordIn),
    /// A record that cannot be read: its index and why.
    Bad(usize, crate::diag::Diag),
    End,
    Interrupted,
}

impl Instances {
    /// The instances of this run, or `None` (after saying why) when the data file
    /// cannot be opened.
    fn open(o: &mut Out<'_>, args: &ModelArgs, lowerer: &Lowerer<'_>) -> Option<Instances> {
        let Some(path) = &args.data else {
            return Some(Instances::Default { given: false });
        };
        let (_, ty) = lowerer.data_param()?.clone();
        match DataFile::open(path, &ty) {
            Ok(file) => Some(Instances::Data {
                name: Rc::from(file.name.as_str()),
                file: Box::new(file),
                ty,
            }),
            Err(e) => {
                crate::cli::cannot_read(o, &path.display().to_string(), &e);
                None
            }
        }
    }

    fn next(&mut self, o: &mut Out<'_>) -> Result<Got, ()> {
        let (file, name, ty) = match self {
            Instances::Default { given } => {
                if std::mem::replace(given, true) {
                    return Ok(Got::End);
                }
                return Ok(Got::Instance(RecordIn {
                    value: None,
                    index: None,
                    file: Rc::from(""),
                    line: 0,
                }));
            }
            Instances::Data { file, name, ty } => (file, name, ty),
        };
        let bad = |b: BadRecord| {
            let index = b.index;
            let help = format!("each record must be {}", record_layout(ty));
            let d: crate::diag::Diag = Box::new(RecordError::new(name, b, help));
            Got::Bad(index, d)
        };
        Ok(match file.next(o) {
            Next::Record(rec) => match rec.parse(ty) {
                Ok(v) => Got::Instance(RecordIn {
                    value: Some(v),
                    index: Some(rec.index),
                    file: Rc::clone(name),
                    line: rec.line,
                }),
                Err(b) => bad(b),
            },
            Next::Bad(b) => bad(b),
            Next::End if file.records() == 0 => {
                let r =
                    Report::error("E0605", format!("{name} holds no data records")).help(format!(
                        "the file has only comments or blank lines; each record must be {}",
                        record_layout(ty)
                    ));
                report(o, &Diagnostics::from(Box::new(r) as crate::diag::Diag));
                return Err(());
            }
            Next::End => Got::End,
            Next::Interrupted => Got::Interrupted,
            Next::Failed(e) => {
                let what = match file.line() {
                    0 => name.to_string(),
                    n => format!("{name} after line {n}"),
                };
                crate::cli::cannot_read(o, &what, &e);
                return Err(());
            }
        })
    }

    /// "after 12 records of puzzles.txt (up to line 13)", for the notice of an
    /// interrupted run.
    fn progress(&self, done: usize) -> String {
        match self {
            Instances::Default { .. } => String::new(),
            Instances::Data { file, name, .. } => format!(
                " after {done} record{} of {name} (up to line {})",
                if done == 1 { "" } else { "s" },
                file.line()
            ),
        }
    }
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
pub(crate) fn clash_report(
    src: &SourceFile,
    inst: &Instance,
    clash: &crate::solve::Clash,
) -> Report {
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

/// Whether Ctrl-C was pressed.
fn interrupted() -> bool {
    crate::cli::interrupt_flag().load(std::sync::atomic::Ordering::Relaxed)
}

/// Runs `dlxc run`.
pub fn run(o: &mut Out<'_>, args: &ModelArgs, s: &SearchArgs) -> u8 {
    crate::cli::busy(Some(format!("compiling {}", args.model.display())));
    let Some(f) = front(o, args) else {
        return EXIT_BAD_INPUT;
    };
    let goal = objective(&f.model).map(super::optimize::engine_objective);
    let Some(mut lowerer) = lowerer(o, &f, args) else {
        return EXIT_BAD_INPUT;
    };
    let Some(mut instances) = Instances::open(o, args, &lowerer) else {
        return EXIT_BAD_INPUT;
    };
    if args.data.is_some() {
        // From here the record loop and the search look at the interrupt flag.
        crate::cli::busy(None);
    }
    let base = search_config(s);
    let started = Instant::now();
    let mut solver: Option<Solver> = None;
    let mut optimizer: Option<Optimizer> = None;
    let (mut unsolved, mut cut, mut broken) = (0usize, 0usize, 0usize);
    // Records answered (or reported as failed), for the notice of an interrupted run.
    let mut done = 0usize;
    let mut stopped_by_user = false;
    loop {
        if interrupted() {
            stopped_by_user = true;
            cut += 1;
            break;
        }
        let mut rec = match instances.next(o) {
            Ok(Got::Instance(rec)) => rec,
            Ok(Got::Bad(index, diag)) => {
                report(o, &Diagnostics::from(diag));
                // One answer per record on stdout, so outputs stay aligned with inputs.
                no_solution_line(o, s, Some(index), goal.is_some(), true);
                broken += 1;
                done += 1;
                if !compact(s) {
                    o.line("");
                }
                continue;
            }
            Ok(Got::End) => break,
            Ok(Got::Interrupted) => {
                stopped_by_user = true;
                cut += 1;
                break;
            }
            Err(()) => {
                broken += 1;
                break;
            }
        };
        let (value, record) = (rec.value.take(), rec.index);
        let lowered = lowerer.instance(value);
        crate::cli::busy(None);
        report(o, &lowerer.take_warnings());
        if interrupted() {
            // Ctrl-C while this record was being compiled: it is not answered.
            stopped_by_user = true;
            cut += 1;
            break;
        }
        done += 1;
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
                no_solution_line(o, s, record, goal.is_some(), !unsolvable);
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
        // The time limit is for the whole run: each record gets what is left of it.
        let config = SearchConfig {
            time_limit: base.time_limit.map(|t| t.saturating_sub(started.elapsed())),
            ..base.clone()
        };
        let result = match goal {
            Some(obj) => {
                // A matrix shared by every record keeps its engine; otherwise each
                // record builds its own.
                let engine = match optimizer.take().filter(|_| lowerer.matrix_is_shared()) {
                    Some(x) => optimizer.insert(x),
                    None => match Optimizer::new(&inst.families.problem, obj) {
                        Ok(x) => optimizer.insert(x),
                        Err(e) => {
                            let r = super::optimize::refusal_report(&f.src, &inst, &e);
                            report(o, &Diagnostics::from(Box::new(r) as crate::diag::Diag));
                            return EXIT_BAD_INPUT;
                        }
                    },
                };
                super::optimize::solve_record(o, engine, &inst, s, record, &config)
                    .map(|a| (a.code, a.cut))
            }
            None => {
                let sv = match solver.take().filter(|_| lowerer.matrix_is_shared()) {
                    Some(sv) => solver.insert(sv),
                    None => match Solver::with_engine(&inst.families.problem, s.engine) {
                        Ok(sv) => solver.insert(sv),
                        Err(e) => {
                            let r = super::optimize::unsupported_report(&f.src, &inst, &e);
                            report(o, &Diagnostics::from(Box::new(r) as crate::diag::Diag));
                            return EXIT_BAD_INPUT;
                        }
                    },
                };
                let engine = sv.engine_name();
                let mut printed = 0u64;
                let mut visit = |chosen: &[OptionId]| {
                    print_solution(o, &inst, chosen, s, record, printed);
                    printed += 1;
                    // Nobody reads the rest: stop at once rather than search on.
                    if o.broken_pipe() {
                        Flow::Stop
                    } else {
                        Flow::Continue
                    }
                };
                let searched = if s.count {
                    crate::solve::parallel::count(sv, &inst.forced, &config, s.threads)
                } else {
                    sv.search(&inst.forced, &config, &mut visit)
                };
                searched.map(|outcome| {
                    let code = finish(o, &outcome, s, false, engine, record);
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
                if was_cut && interrupted() {
                    if args.data.is_some() && !compact(s) {
                        o.line("");
                    }
                    stopped_by_user = true;
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
                no_solution_line(o, s, record, goal.is_some(), false);
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
    if stopped_by_user && args.data.is_some() {
        o.note(&format!(
            "interrupted{}; the rest were not solved",
            instances.progress(done)
        ));
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

/// The answer line of a record that has no solution, or that failed (`failed`: bad
/// input, reported on stderr), so every record has its answer on stdout.
fn no_solution_line(
    o: &mut Out<'_>,
    s: &SearchArgs,
    record: Option<usize>,
    goal: bool,
    failed: bool,
) {
    if s.json {
        let summary = jsonl::Summary {
            complete: true,
            ..Default::default()
        };
        let mut extra = record_field(record);
        if failed {
            extra.push(("failed", json!(true)));
        }
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
    crate::cli::busy(Some(format!("checking {}", args.model.display())));
    let Some(f) = front(o, args) else {
        return EXIT_BAD_INPUT;
    };
    let Some(mut lowerer) = lowerer(o, &f, args) else {
        return EXIT_BAD_INPUT;
    };
    let Some(mut instances) = Instances::open(o, args, &lowerer) else {
        return EXIT_BAD_INPUT;
    };
    let mut bad = false;
    loop {
        let mut rec = match instances.next(o) {
            Ok(Got::Instance(rec)) => rec,
            Ok(Got::Bad(_, diag)) => {
                report(o, &Diagnostics::from(diag));
                bad = true;
                continue;
            }
            Ok(Got::End | Got::Interrupted) => break,
            Err(()) => return EXIT_BAD_INPUT,
        };
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
    crate::cli::busy(Some(format!("compiling {}", args.model.display())));
    let Some(f) = front(o, args) else {
        return EXIT_BAD_INPUT;
    };
    let Some(mut lowerer) = lowerer(o, &f, args) else {
        return EXIT_BAD_INPUT;
    };
    let Some(mut instances) = Instances::open(o, args, &lowerer) else {
        return EXIT_BAD_INPUT;
    };
    let value = match instances.next(o) {
        Ok(Got::Instance(rec)) => rec.value,
        Ok(Got::Bad(_, diag)) => {
            report(o, &Diagnostics::from(diag));
            return EXIT_BAD_INPUT;
        }
        // `next` refuses an empty data file, and without one there is the default.
        Ok(Got::End | Got::Interrupted) | Err(()) => return EXIT_BAD_INPUT,
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
        Emit::Knuth => emit_knuth(o, &f.src, &inst),
        Emit::Json => {
            o.line(&problem_json(&inst).to_string());
            EXIT_SOLVED
        }
    }
}

/// Writes the problem in Knuth's format. Knuth's format has no forced options, so the
/// problem written is the one left after taking them ([`crate::solve::reduce`]): it has
/// the same solutions, less the forced options, and `dlxc solve --count` on it agrees
/// with `dlxc run --count`. Forced options that clash are E0404, as in `dlxc run`; when
/// they cover every primary item, nothing is left to write (E0504).
fn emit_knuth(o: &mut Out<'_>, src: &SourceFile, inst: &Instance) -> u8 {
    let full = &inst.families.problem;
    let reduced = match crate::solve::reduce::reduce(full, &inst.forced) {
        Ok(r) => r,
        Err(clash) => {
            report(
                o,
                &Diagnostics::from(Box::new(clash_report(src, inst, &clash)) as crate::diag::Diag),
            );
            return EXIT_BAD_INPUT;
        }
    };
    let p = &reduced.problem;
    if !inst.forced.is_empty() && p.primary_count() == 0 {
        let r = Report::error(
            "E0504",
            format!(
                "the {} forced options cover every primary item: no problem is left to write",
                inst.forced.len()
            ),
        )
        .help("Knuth's format has no forced options, and the problem left after them is empty (its one solution is the forced options); `dlxc run` solves it directly");
        report(o, &Diagnostics::from(Box::new(r) as crate::diag::Diag));
        return EXIT_BAD_INPUT;
    }
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
        let mut head = format!(
            "| the problem left after the {} forced options below (Knuth's format has no\n\
             | forced options): its solutions, each with the forced options added, are those\n\
             | of the model\n",
            inst.forced.len()
        );
        if reduced.forced_cost != 0 {
            head.push_str(&format!(
                "| the forced options cost {} in all: add it to a solution's cost\n",
                reduced.forced_cost
            ));
        }
        for &id in &inst.forced {
            head.push_str(&format!("|   {}\n", full.option_label(id)));
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
