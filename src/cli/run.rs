//! `dlxc run`, `dlxc check` and `dlxc compile`: a model through the whole pipeline.

use std::rc::Rc;

use serde_json::json;

use crate::cli::records::{DataFile, Next, RecordError};
use crate::cli::show::{
    Listing, Shown, Tag, Whose, compact, failure, no_solution_line, record_header,
};
use crate::cli::{
    EXIT_BAD_INPUT, EXIT_CUT_SHORT, EXIT_NO_SOLUTION, EXIT_SOLVED, Emit, ModelArgs, Out,
    SearchArgs, read_source, report,
};
use crate::diag::Diagnostics;
use crate::diag::report::Report;
use crate::instance::Instance;
use crate::lower::data::{BadRecord, ParamType};
use crate::lower::value::Value;
use crate::lower::{Lowerer, RecordFailure};
use crate::run::{Failure, Runner};
use crate::session::reports::knuth_text_for;
use crate::session::{Front, record_layout};
use crate::source::SourceFile;
use crate::syntax::ast::Decl;
use crate::task::{Task, Traits};

fn front(o: &mut Out<'_>, args: &ModelArgs) -> Option<Front> {
    let src = read_source(o, Some(&args.model))?;
    match Front::load(src) {
        Ok(f) => {
            report(o, &f.checked.warnings);
            Some(f)
        }
        Err(d) => {
            report(o, &d);
            None
        }
    }
}

fn lowerer<'m>(o: &mut Out<'_>, f: &'m Front, args: &ModelArgs) -> Option<Lowerer<'m>> {
    match f.lowerer(&args.params, args.data.is_some(), args.max_size) {
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
    /// The name the record's header gives it (`=== NAME`), if any.
    name: Option<String>,
    /// The data file and the line the record starts on, for notes; empty without data.
    file: Rc<str>,
    line: usize,
}

impl RecordIn {
    /// "record 3 (puzzles.txt, line 5)", written only when a note needs it: a run over
    /// fifty thousand records should not format fifty thousand places it never shows.
    fn place(&self) -> Option<String> {
        let tag = self.tag()?;
        Some(match tag.name {
            Some(name) => format!(
                "record {} `{name}` ({}, line {})",
                tag.index, self.file, self.line
            ),
            None => format!("record {} ({}, line {})", tag.index, self.file, self.line),
        })
    }

    /// The record as outputs name it; `None` without data.
    fn tag(&self) -> Option<Tag<'_>> {
        self.index.map(|index| Tag {
            index,
            name: self.name.as_deref(),
        })
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
    /// A record that cannot be read: its index, its name and why.
    Bad(usize, Option<String>, crate::diag::Diag),
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
                    name: None,
                    file: Rc::from(""),
                    line: 0,
                }));
            }
            Instances::Data { file, name, ty } => (file, name, ty),
        };
        let bad = |b: BadRecord| {
            let (index, record_name) = (b.index, b.name.as_deref().map(str::to_string));
            let help = format!("each record must be {}", record_layout(ty));
            let d: crate::diag::Diag = Box::new(RecordError::new(name, b, help));
            Got::Bad(index, record_name, d)
        };
        Ok(match file.next(o) {
            Next::Record(rec) => match rec.parse(ty) {
                Ok(v) => Got::Instance(RecordIn {
                    value: Some(v),
                    index: Some(rec.index),
                    name: rec.name,
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

/// Whether Ctrl-C was pressed.
fn interrupted() -> bool {
    crate::cli::interrupt_flag().load(std::sync::atomic::Ordering::Relaxed)
}

/// Prints a diagnostic made in this module.
fn say(o: &mut Out<'_>, r: Report) {
    report(o, &Diagnostics::from(Box::new(r) as crate::diag::Diag));
}

/// Runs `dlxc run`.
pub fn run(o: &mut Out<'_>, args: &ModelArgs, s: &SearchArgs) -> u8 {
    // The flags are checked before anything is read: a bad combination costs nothing.
    let task = match Task::new(&s.request()) {
        Ok(t) => t,
        Err(r) => {
            say(o, *r);
            return EXIT_BAD_INPUT;
        }
    };
    if s.pictures.dir.is_some() && !(task.mode.many() || args.data.is_some()) {
        say(o, super::picture::one_solution_dir());
        return EXIT_BAD_INPUT;
    }
    crate::cli::busy(Some(format!("compiling {}", args.model.display())));
    let Some(f) = front(o, args) else {
        return EXIT_BAD_INPUT;
    };
    let traits = Traits {
        objective: f.objective().is_some(),
        symmetry: f.model.decls.iter().any(|d| matches!(d, Decl::Symmetry(_))),
        data: args.data.is_some(),
        ..Traits::default()
    };
    if let Err(r) = task.fit(&traits) {
        say(o, *r);
        return EXIT_BAD_INPUT;
    }
    let goal = traits.objective;
    let Some(mut lowerer) = lowerer(o, &f, args) else {
        return EXIT_BAD_INPUT;
    };
    let Some(mut instances) = Instances::open(o, args, &lowerer) else {
        return EXIT_BAD_INPUT;
    };
    o.set_pictures(super::picture::Pictures::new(&s.pictures));
    if args.data.is_some() {
        // From here the record loop and the search look at the interrupt flag.
        crate::cli::busy(None);
    }
    let source_name = args.model.display().to_string();
    let whose = Whose {
        source: &source_name,
        params: &args.params,
    };
    let mut runner = Runner::new(task).with_interrupt(crate::cli::interrupt_flag());
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
            Ok(Got::Bad(index, name, diag)) => {
                report(o, &Diagnostics::from(diag));
                let tag = Tag {
                    index,
                    name: name.as_deref(),
                };
                record_header(o, s, Some(tag));
                // One answer per record on stdout, so outputs stay aligned with inputs.
                no_solution_line(o, s, Some(tag), goal, true);
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
        let value = rec.value.take();
        let record = rec.tag();
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
        record_header(o, s, record);
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
                no_solution_line(o, s, record, goal, !unsolvable);
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
        if s.pictures.wanted() && inst.compiled.paints.paints_nothing() {
            let flag = if s.pictures.file.is_some() {
                "--svg"
            } else {
                "--svg-dir"
            };
            say(o, super::picture::nothing_painted(flag));
            return EXIT_BAD_INPUT;
        }
        let mut shown = Shown::new(o, s, &inst, record, Listing::Model, whose);
        match runner.run(&inst, &mut shown) {
            Ok(answer) => {
                match shown.answer(&answer) {
                    EXIT_SOLVED => {}
                    EXIT_CUT_SHORT => cut += 1,
                    _ => unsolved += 1,
                }
                // Ctrl-C ends the whole run, not just this record's search.
                if answer.cut() && interrupted() {
                    if args.data.is_some() && !compact(s) {
                        o.line("");
                    }
                    stopped_by_user = true;
                    break;
                }
            }
            Err(failed) => {
                if matches!(failed, Failure::Clash(_))
                    && let Some(place) = rec.place()
                {
                    o.note(&format!("in {place}:"));
                }
                if !failure(o, &f.src, &inst.compiled, failed) {
                    return EXIT_BAD_INPUT;
                }
                no_solution_line(o, s, record, goal, false);
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
    // The size of the first instance and how many there were, for the line of success.
    let (mut size, mut records) = (None, 0usize);
    loop {
        let mut rec = match instances.next(o) {
            Ok(Got::Instance(rec)) => rec,
            Ok(Got::Bad(_, _, diag)) => {
                report(o, &Diagnostics::from(diag));
                bad = true;
                continue;
            }
            Ok(Got::End | Got::Interrupted) => break,
            Err(()) => return EXIT_BAD_INPUT,
        };
        let lowered = lowerer.instance(rec.value.take());
        report(o, &lowerer.take_warnings());
        records += 1;
        match lowered {
            Ok(inst) => {
                let p = inst.problem();
                size.get_or_insert((p.items.len(), p.options.len()));
            }
            Err(fail) => {
                if let Some(place) = rec.place() {
                    o.note(&format!("in {place}:"));
                }
                bad |= report(o, &fail.diagnostics) && !fail.unsolvable;
            }
        }
    }
    if bad {
        return EXIT_BAD_INPUT;
    }
    // One line on success, so that a silent check is never mistaken for one that did
    // not run: the families and what they made.
    let families = |kind: fn(&crate::syntax::ast::Decl) -> bool| {
        f.model.decls.iter().filter(|d| kind(d)).count()
    };
    let item_families = families(|d| matches!(d, crate::syntax::ast::Decl::Item(_)));
    let option_families = families(|d| matches!(d, crate::syntax::ast::Decl::Option(_)));
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut line = format!(
        "ok: {}, {}",
        plural(item_families, "item family", "item families"),
        plural(option_families, "option family", "option families")
    );
    if let Some((items, options)) = size {
        line.push_str(&format!(
            ": {} and {}",
            plural(items, "item", "items"),
            plural(options, "option", "options")
        ));
        if args.data.is_some() {
            line.push_str(&format!(
                " in the first of {}",
                plural(records, "record", "records")
            ));
        }
    }
    o.line(&line);
    EXIT_SOLVED
}

/// Runs `dlxc compile`: the lowered problem of the defaults (or of the first record).
pub fn compile(o: &mut Out<'_>, args: &ModelArgs, emit: Emit) -> u8 {
    crate::cli::busy(Some(format!("compiling {}", args.model.display())));
    let Some((src, inst)) = first_instance(o, args) else {
        return EXIT_BAD_INPUT;
    };
    match emit {
        Emit::Knuth => emit_knuth(o, &src, &inst),
        Emit::Json => {
            o.line(&problem_json(&inst).to_string());
            EXIT_SOLVED
        }
    }
}

/// The model's problem with its defaults (or its first data record), with the model's
/// source; `None` when a diagnostic was printed instead.
pub(crate) fn first_instance(o: &mut Out<'_>, args: &ModelArgs) -> Option<(SourceFile, Instance)> {
    let f = front(o, args)?;
    let mut lowerer = lowerer(o, &f, args)?;
    let mut instances = Instances::open(o, args, &lowerer)?;
    let value = match instances.next(o) {
        Ok(Got::Instance(rec)) => rec.value,
        Ok(Got::Bad(_, _, diag)) => {
            report(o, &Diagnostics::from(diag));
            return None;
        }
        // `next` refuses an empty data file, and without one there is the default.
        Ok(Got::End | Got::Interrupted) | Err(()) => return None,
    };
    let lowered = lowerer.instance(value);
    report(o, &lowerer.take_warnings());
    match lowered {
        Ok(i) => Some((f.src.clone(), i)),
        Err(fail) => {
            report(o, &fail.diagnostics);
            None
        }
    }
}

/// Writes the problem in Knuth's format: with forced options, the problem left after
/// taking them (see [`knuth_text_for`]; the objective is kept or refused).
fn emit_knuth(o: &mut Out<'_>, src: &SourceFile, inst: &Instance) -> u8 {
    match knuth_text_for(src, &inst.compiled.problem, &inst.forced, inst.objective) {
        Ok(k) => {
            for note in k.report.notes() {
                o.note(&format!("note: {note}"));
            }
            if let Some(note) = &k.objective_note {
                o.note(&format!("note: {note}"));
            }
            o.text(&k.text);
            EXIT_SOLVED
        }
        Err(r) => {
            report(o, &Diagnostics::from(r as crate::diag::Diag));
            EXIT_BAD_INPUT
        }
    }
}

/// The problem as JSON: items (name, kind, bounds), options (name, items as ids with
/// colors, cost), the forced options, the declared symmetries (empty when none) and the
/// objective (`"minimize count"`, `"minimize cost"`, `"maximize cost"`, or null).
fn problem_json(inst: &Instance) -> serde_json::Value {
    let p = &inst.compiled.problem;
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
    // The declared symmetry group, element by element (the identity first), each as the
    // image of every item: what a program needs to count up to symmetry itself.
    let symmetries: Vec<Vec<u32>> = inst.compiled.symmetry.as_ref().map_or(Vec::new(), |g| {
        (0..g.order())
            .map(|e| {
                (0..p.items.len() as u32)
                    .map(|i| g.item_image(e, crate::problem::ItemId(i)).0)
                    .collect()
            })
            .collect()
    });
    // The objective, so that a program reading the file optimizes what the model does.
    let objective = inst.objective.map(|g| match g {
        crate::solve::Objective::MinimizeCount => "minimize count",
        crate::solve::Objective::MinimizeCost => "minimize cost",
        crate::solve::Objective::MaximizeCost => "maximize cost",
    });
    json!({
        "items": items,
        "options": options,
        "forced": forced,
        "symmetries": symmetries,
        "objective": objective,
    })
}
