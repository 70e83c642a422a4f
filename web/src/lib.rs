//! dlxc in the browser: what the playground page (`web/www/`) calls, through
//! wasm-bindgen, from its Web Worker.
//!
//! Every call takes the model's text and answers one JSON string, so the page needs
//! no glue beyond `JSON.parse`:
//!
//! - [`check`]: the diagnostics as the command line draws them, each with the place to
//!   mark in the editor (line, column and UTF-16 offsets, as JavaScript counts), and the
//!   model's `param` declarations for the form;
//! - [`run`]: the first solution, the count, or every solution up to a limit, with the
//!   answer as the command line prints it, the SVG pictures, and progress (solutions,
//!   nodes, the share explored) handed to a JavaScript function a few times a second.
//!
//! A search runs to its end on the worker's thread: the page stops one by terminating
//! the worker. Nothing here reads a file, spawns a thread or installs an allocator; the
//! memory budget reads the size of the module's memory (see `dlxc::lower::budget`).

use std::cell::RefCell;
use std::time::Duration;

use dlxc::clock::Instant;
use dlxc::diag::Code;
use dlxc::diag::{Diagnostics, RenderStyle, is_error, render_all};
use dlxc::instance::{Compiled, Instance};
use dlxc::lower::data::{BadRecord, Splitter};
use dlxc::problem::OptionId;
use dlxc::render::svg::{Lattice, Palette, Style, draw};
use dlxc::render::{option_lines, write_grid};
use dlxc::run::{Answer, Failure, Runner, Sink};
use dlxc::session::{DEFAULT_MAX_SIZE, Front, reports};
use dlxc::solve::share::{Part, Share, Want};
use dlxc::solve::{End, Flow, Limit, Outcome, SearchConfig, Solver, Stats};
use dlxc::source::SourceFile;
use dlxc::syntax::ast::Decl;
use dlxc::task::{Request, Task};
use serde_json::{Value as Json, json};
use wasm_bindgen::prelude::*;

/// The name diagnostics give the model (`--> model.dlx:3:5`).
const NAME: &str = "model.dlx";

/// How many pictures an answer carries at most: a listing of thousands of solutions
/// would otherwise send megabytes of SVG to the page.
const MAX_PICTURES: usize = 50;

/// How many solutions the text of an answer shows at most.
const MAX_SHOWN: u64 = 1000;

/// How often progress goes to the page.
const TICK: Duration = Duration::from_millis(100);

/// Diagnostics as the golden files and a terminal without colours draw them.
const STYLE: RenderStyle = RenderStyle {
    color: false,
    unicode: true,
    width: 100,
};

/// The version of dlxc compiled in.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Parses and checks `text`: `{"errors", "warnings", "rendered", "marks", "params"}`.
/// `marks` are the labelled places of each diagnostic, `params` the model's `param`
/// declarations (`name`, `type` and `default` as written), in order, or `null` when
/// the text does not parse.
#[wasm_bindgen]
pub fn check(text: &str) -> String {
    let src = SourceFile::new(NAME, text);
    let (diags, params) = match Front::load(src.clone()) {
        Ok(front) => {
            let params = params_of(&front);
            (front.checked.warnings, Some(params))
        }
        // The parameters of a model that does not check but parses; `null` for one
        // that does not parse, so that the form keeps its fields while the user types.
        Err(d) => {
            let params = dlxc::syntax::parse(&src)
                .map(|model| params_in(&model, text))
                .ok();
            (d, params)
        }
    };
    let mut out = diagnostics_json(&diags, text);
    out["params"] = params.map_or(Json::Null, Json::Array);
    out.to_string()
}

fn params_of(front: &Front) -> Vec<Json> {
    params_in(&front.model, front.src.text())
}

fn params_in(model: &dlxc::syntax::ast::Model, text: &str) -> Vec<Json> {
    let slice = |s: dlxc::source::Span| {
        text.get(s.start as usize..s.end as usize)
            .unwrap_or("")
            .to_string()
    };
    model
        .decls
        .iter()
        .filter_map(|d| match d {
            Decl::Param(p) => Some(json!({
                "name": p.name.name,
                "type": p.ty.as_ref().map(|t| slice(t.span)),
                "default": p.default.as_ref().map(|e| slice(e.span)),
            })),
            _ => None,
        })
        .collect()
}

/// The JSON of a list of diagnostics: counts, the text the CLI prints, the places.
fn diagnostics_json(diags: &Diagnostics, text: &str) -> Json {
    let errors = diags.error_count();
    let mut marks = Vec::new();
    for d in diags.iter() {
        let code = d.code().map(|c| c.to_string()).unwrap_or_default();
        let severity = if is_error(d) { "error" } else { "warning" };
        // Labels of another source (a `-p` value) are not the editor's.
        let ours = d.source_code().is_none_or(|s| {
            s.read_span(&(0, 0).into(), 0, 0)
                .ok()
                .and_then(|c| c.name().map(|n| n == NAME))
                .unwrap_or(true)
        });
        let labels: Vec<_> = d.labels().map(|l| l.collect()).unwrap_or_default();
        if !ours || labels.is_empty() {
            marks.push(json!({"code": code, "severity": severity, "message": d.to_string()}));
            continue;
        }
        for l in labels {
            let (from, to) = (l.offset(), l.offset() + l.len());
            if to > text.len() || !text.is_char_boundary(from) || !text.is_char_boundary(to) {
                continue;
            }
            let (line, col) = line_col(text, from);
            marks.push(json!({
                "code": code,
                "severity": severity,
                "message": d.to_string(),
                "label": l.label(),
                "line": line,
                "col": col,
                "from": utf16(&text[..from]),
                "to": utf16(&text[..to]),
            }));
        }
    }
    json!({
        "errors": errors,
        "warnings": diags.len() - errors,
        "rendered": if diags.is_empty() { String::new() } else { render_all(diags, STYLE) },
        "marks": marks,
    })
}

/// 1-based line and column (in characters) of byte `at` of `text`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |k| k + 1);
    (line, before[start..].chars().count() + 1)
}

/// The length of `s` in UTF-16 code units, JavaScript's string offsets.
fn utf16(s: &str) -> usize {
    s.encode_utf16().count()
}

thread_local! {
    /// The page's progress function for the search running now.
    static PROGRESS: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
    /// When progress was last sent.
    static LAST: RefCell<Option<Instant>> = const { RefCell::new(None) };
    /// The nodes and share explored the engine last reported.
    static SEEN: RefCell<(u64, f64)> = const { RefCell::new((0, 0.0)) };
}

/// Sends progress to the page, at most every [`TICK`] unless `now`. A solution shown
/// (`reached` is `None`) counts with the nodes and share the engine last reported.
fn tick(started: Instant, solutions: u128, reached: Option<(u64, f64)>, now: bool) {
    let (nodes, explored) = SEEN.with(|s| {
        let mut s = s.borrow_mut();
        if let Some(r) = reached {
            *s = r;
        }
        *s
    });
    let due = LAST.with(|l| {
        let mut l = l.borrow_mut();
        let due = now || l.is_none_or(|t| t.elapsed() >= TICK);
        if due {
            *l = Some(Instant::now());
        }
        due
    });
    if !due {
        return;
    }
    PROGRESS.with(|p| {
        if let Some(f) = &*p.borrow() {
            let msg = json!({
                "solutions": solutions.to_string(),
                "nodes": nodes,
                "explored": explored,
                "elapsed_ms": started.elapsed().as_secs_f64() * 1000.0,
            });
            let _ = f.call1(&JsValue::NULL, &JsValue::from_str(&msg.to_string()));
        }
    });
}

/// The engines' regular checks (every 1024 nodes), used only for their report: a
/// share that never wants work (there is one thread) passes the counters to [`tick`].
#[derive(Debug)]
struct Reporter {
    started: Instant,
}

impl Share for Reporter {
    fn wanted(&self) -> Want {
        Want::Nothing
    }

    // Given only when a limit cuts the search short: nothing goes on with it here.
    fn give(&self, _parts: Vec<Part>) {}

    fn report(&self, explored: f64, solutions: u128, nodes: u64) {
        tick(self.started, solutions, Some((nodes, explored)), false);
    }
}

/// What a run shows: the text as the CLI prints it and the pictures.
struct Shown<'a> {
    compiled: &'a Compiled,
    text: String,
    printed: u64,
    svgs: Vec<String>,
    palette: Palette,
    style: Style,
    started: Instant,
}

impl Shown<'_> {
    fn show(&mut self, chosen: &[OptionId]) {
        if self.printed < MAX_SHOWN {
            if self.printed > 0 {
                self.text.push('\n');
            }
            if !write_grid(self.compiled, chosen, &mut self.text) {
                for l in option_lines(&self.compiled.problem, chosen) {
                    self.text.push_str(&l);
                    self.text.push('\n');
                }
            }
        }
        if self.svgs.len() < MAX_PICTURES
            && let Some(svg) = draw(&self.compiled.paints, chosen, &self.palette, self.style)
        {
            self.svgs.push(svg);
        }
        self.printed += 1;
    }
}

impl Sink for Shown<'_> {
    fn solution(&mut self, chosen: &[OptionId]) -> Flow {
        self.show(chosen);
        Flow::Continue
    }
}

/// Runs the model `text`: `mode` is `first`, `count` or `all` (up to `limit`
/// solutions; 0 for no limit), `params` a JSON array of `name=value` settings, `data`
/// the text of a data file whose first record is the model's data parameter (empty for
/// none), `lattice` the picture's cells (`square`, `triangle`, `hex`). `progress` gets a
/// JSON string a few times a second. The answer is one JSON object: `status`
/// (`solved`, `none`, `cut`, `error`), `output` (what the CLI prints on stdout),
/// `messages` (what it prints on stderr), `count`, `nodes`, `elapsed_ms`, `engine`,
/// `svgs`, and `marks` as [`check`] gives them.
#[wasm_bindgen]
pub fn run(
    text: &str,
    params: &str,
    data: &str,
    mode: &str,
    limit: u32,
    lattice: &str,
    progress: Option<js_sys::Function>,
) -> String {
    PROGRESS.with(|p| *p.borrow_mut() = progress);
    LAST.with(|l| *l.borrow_mut() = None);
    SEEN.with(|s| *s.borrow_mut() = (0, 0.0));
    let answer = answer(text, params, data, mode, limit, lattice);
    PROGRESS.with(|p| *p.borrow_mut() = None);
    answer.to_string()
}

fn error(diags: &Diagnostics, text: &str) -> Json {
    let mut out = diagnostics_json(diags, text);
    out["status"] = json!("error");
    out["output"] = json!("");
    out["messages"] = out["rendered"].clone();
    out
}

/// `out`, an error, as the answer of a model found to have no solution: the CLI's
/// output for the mode beside the diagnostics.
fn no_solution(mut out: Json, mode: &str) -> Json {
    out["status"] = json!("none");
    out["output"] = json!(if mode == "count" {
        "0\n"
    } else {
        "No solution\n"
    });
    out
}

fn message(code: Code, msg: String) -> Diagnostics {
    Diagnostics::from(Box::new(dlxc::diag::report::Report::error(code, msg)) as dlxc::diag::Diag)
}

fn answer(text: &str, params: &str, data: &str, mode: &str, limit: u32, lattice: &str) -> Json {
    let started = Instant::now();
    let settings: Vec<String> = serde_json::from_str(params).unwrap_or_default();
    let src = SourceFile::new(NAME, text);
    let mut front = match Front::load(src.clone()) {
        Ok(f) => f,
        Err(d) => return error(&d, text),
    };
    let mut warnings = std::mem::replace(&mut front.checked.warnings, Diagnostics::new());
    let with_data = !data.trim().is_empty();
    let mut lowerer = match front.lowerer(&settings, with_data, DEFAULT_MAX_SIZE) {
        Ok(l) => l,
        Err(d) => return error(&d, text),
    };
    warnings.extend(lowerer.take_warnings());
    let record = if with_data {
        match first_record(&lowerer, data) {
            Ok(v) => Some(v),
            Err(d) => return error(&d, text),
        }
    } else {
        None
    };
    let inst = match lowerer.instance(record) {
        Ok(i) => i,
        Err(f) if f.unsolvable => return no_solution(error(&f.diagnostics, text), mode),
        Err(f) => return error(&f.diagnostics, text),
    };
    warnings.extend(lowerer.take_warnings());
    let style = Style {
        lattice: match lattice {
            "triangle" => Lattice::Triangle,
            "hex" => Lattice::Hex,
            _ => Lattice::Square,
        },
        labels: true,
    };
    let compiled = &*inst.compiled;
    let mut shown = Shown {
        compiled,
        text: String::new(),
        printed: 0,
        svgs: Vec::new(),
        palette: Palette::new(&compiled.paints),
        style,
        started,
    };
    let limit = (limit > 0).then_some(u64::from(limit));
    let result = if inst.objective.is_some() {
        optimize(&inst, mode, limit, &mut shown)
    } else {
        search(&inst, mode, limit, &mut shown)
    };
    let mut out = match result {
        Ok(out) => out,
        Err(f) => {
            let (r, clash) = match f {
                Failure::Clash(c) => (reports::clash_report(&src, &compiled.problem, &c), true),
                Failure::Unsupported(u) => (
                    reports::unsupported_report(&src, &compiled.problem, &u),
                    false,
                ),
                Failure::Refused(e) => {
                    (reports::refusal_report(&src, &compiled.problem, &e), false)
                }
                Failure::Report(r) => (*r, false),
                Failure::Reported => (
                    dlxc::diag::report::Report::error(Code::E0922, "refused"),
                    false,
                ),
            };
            let d = Diagnostics::from(Box::new(r) as dlxc::diag::Diag);
            let out = error(&d, text);
            return if clash { no_solution(out, mode) } else { out };
        }
    };
    if !warnings.is_empty() {
        let w = render_all(&warnings, STYLE);
        let m = out["messages"].as_str().unwrap_or("").to_string();
        out["messages"] = json!(w + &m);
    }
    out["svgs"] = json!(shown.svgs);
    out["marks"] = diagnostics_json(&warnings, text)["marks"].clone();
    out["elapsed_ms"] = json!(started.elapsed().as_secs_f64() * 1000.0);
    out
}

/// The first record of the data text, as the model's data parameter reads it.
fn first_record(
    lowerer: &dlxc::lower::Lowerer<'_>,
    data: &str,
) -> Result<dlxc::lower::value::Value, Diagnostics> {
    let Some((_, ty)) = lowerer.data_param() else {
        return Err(message(
            Code::E0922,
            "this model has no data parameter (a `grid`, `cells` or `ints` param) for the data"
                .into(),
        ));
    };
    let mut splitter = Splitter::new(ty.clone());
    let mut first = None;
    for (k, line) in data.lines().enumerate() {
        if let Some(r) = splitter.push(k + 1, line) {
            first = Some(r);
            break;
        }
    }
    let first = first.or_else(|| splitter.finish());
    let record = match first {
        Some(Ok(r)) => r,
        Some(Err(bad)) => return Err(bad_record(&bad)),
        None => return Err(message(Code::E0605, "the data holds no record".into())),
    };
    record.parse(ty).map_err(|bad| bad_record(&bad))
}

/// A record that cannot be read, as one coded message.
fn bad_record(bad: &BadRecord) -> Diagnostics {
    message(
        bad.code,
        format!(
            "data record {} (line {}): {}",
            bad.index + 1,
            bad.line,
            bad.message
        ),
    )
}

/// A search without an objective, on the engine the runner would pick, with the
/// engines' regular checks reporting progress.
fn search(
    inst: &Instance,
    mode: &str,
    limit: Option<u64>,
    shown: &mut Shown<'_>,
) -> Result<Json, Failure> {
    let mut solver = Solver::new(&inst.compiled.problem).map_err(Failure::Unsupported)?;
    let count = mode == "count";
    let config = SearchConfig {
        count_only: count,
        max_solutions: match mode {
            "count" => None,
            "all" => limit.map(u128::from),
            _ => Some(1),
        },
        share: Some(std::sync::Arc::new(Reporter {
            started: shown.started,
        })),
        ..SearchConfig::default()
    };
    let started = shown.started;
    let mut visit = |chosen: &[OptionId]| {
        let flow = shown.solution(chosen);
        tick(started, u128::from(shown.printed), None, false);
        flow
    };
    let outcome = solver.search(&inst.forced, &config, &mut visit)?;
    let st = &outcome.stats;
    tick(started, st.solutions, Some((st.nodes, 1.0)), true);
    let mut output = std::mem::take(&mut shown.text);
    if count {
        output = format!("{}\n", count_text(&outcome));
    } else if st.solutions == 0 && !matches!(outcome.end, End::Cut(_)) {
        output = "No solution\n".into();
    } else if shown.printed > MAX_SHOWN {
        output.push_str(&format!(
            "\n({} more solutions not shown)\n",
            shown.printed - MAX_SHOWN
        ));
    }
    let mut messages = String::new();
    if let End::Cut(limit) = outcome.end {
        messages = cut_notice(limit, st);
    }
    Ok(json!({
        "status": status(&outcome),
        "output": output,
        "messages": messages,
        "count": count_text(&outcome),
        "nodes": st.nodes,
        "updates": st.updates,
        "engine": solver.engine_name(),
    }))
}

/// A model with an objective: branch and bound through the runner (no progress).
fn optimize(
    inst: &Instance,
    mode: &str,
    limit: Option<u64>,
    shown: &mut Shown<'_>,
) -> Result<Json, Failure> {
    let task = Task::new(&Request {
        all: mode != "first",
        limit: if mode == "all" { limit } else { None },
        ..Request::default()
    })
    .map_err(Failure::Report)?;
    let Answer::Optimized(out) = Runner::new(task).run(inst, shown)? else {
        unreachable!("a model with an objective is optimized");
    };
    tick(
        shown.started,
        out.stats.solutions,
        Some((out.stats.nodes, 1.0)),
        true,
    );
    let goal = inst
        .objective
        .unwrap_or(dlxc::solve::Objective::MinimizeCost);
    let (word, what, adjective) = goal.words();
    let cut = matches!(out.end, End::Cut(_));
    let mut output = String::new();
    let n = out.solutions.len();
    match out.value {
        None if cut => {}
        None => output.push_str("No solution\n"),
        Some(_) if mode == "count" => output = format!("{n}\n"),
        Some(v) => {
            output = if out.optimal {
                format!("{word} {what}: {v}\n")
            } else {
                format!("best {what} found: {v} (not proven {adjective})\n")
            };
            let shown_n = limit.map_or(n, |k| n.min(k as usize));
            for (k, sol) in out.solutions[..shown_n].iter().enumerate() {
                if k > 0 {
                    output.push('\n');
                }
                shown.show(sol);
                output.push_str(&std::mem::take(&mut shown.text));
                shown.printed = 0;
            }
        }
    }
    let status = match out.value {
        _ if cut => "cut",
        Some(_) => "solved",
        None => "none",
    };
    Ok(json!({
        "status": status,
        "output": output,
        "messages": "",
        "count": n.to_string(),
        "nodes": out.stats.nodes,
        "updates": out.stats.updates,
        "engine": "branch and bound",
    }))
}

fn status(outcome: &Outcome) -> &'static str {
    match outcome.end {
        End::Cut(_) => "cut",
        _ if outcome.stats.solutions > 0 => "solved",
        _ => "none",
    }
}

/// The count as `dlxc run --count` prints it: `N`, or `N+` when cut short or stopped.
fn count_text(outcome: &Outcome) -> String {
    let n = outcome.stats.solutions;
    match outcome.end {
        End::Exhausted => n.to_string(),
        End::Stopped | End::Cut(_) => format!("{n}+"),
    }
}

fn cut_notice(limit: Limit, st: &Stats) -> String {
    let why = limit.reason();
    format!(
        "search cut short ({why}) after {} nodes with {} solutions found: the answer is incomplete\n",
        st.nodes, st.solutions
    )
}
