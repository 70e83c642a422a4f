//! Loading a model: its text and `-p` settings in, a [`Lowerer`] for its instances out.
//!
//! ```text
//! SourceFile -> Front::load  (parse, check: every error, warnings kept)
//!            -> Front::lowerer(params)  (settings parsed and conformed to their types)
//!            -> Lowerer::instance(record)  (the defaults, or one data record)
//! ```
//!
//! The command line and the Python bindings both load models through these calls, so a
//! model means the same thing, and fails with the same diagnostics, in both. Nothing
//! here reads files or prints: errors come back as [`Diagnostics`] for the caller to
//! show. [`reports`] builds the diagnostics of instances the engines refuse.

pub mod reports;

use std::collections::HashMap;

use crate::check::{Checked, check};
use crate::diag::Code;
use crate::diag::Diagnostics;
use crate::diag::report::Report;
use crate::lower::data::ParamType;
use crate::lower::eval::Env;
use crate::lower::value::Value;
use crate::lower::{Lowerer, objective};
use crate::solve::Objective;
use crate::source::{SourceFile, Span};
use crate::syntax::ast::{Decl, ExprKind, Model};
use crate::syntax::{parse, parse_expr};

/// The largest family or comprehension the compiler builds unless told otherwise (the
/// command line's default `--max-size`).
pub const DEFAULT_MAX_SIZE: usize = 10_000_000;

/// A parsed and checked model.
pub struct Front {
    /// The model's text and name.
    pub src: SourceFile,
    /// The syntax tree.
    pub model: Model,
    /// What the checker learned; its warnings are for the caller to show.
    pub checked: Checked,
}

impl Front {
    /// Parses and checks a model. The errors of the first phase that finds any come
    /// back; warnings stay in `checked.warnings`.
    pub fn load(src: SourceFile) -> Result<Front, Diagnostics> {
        let model = parse(&src)?;
        let checked = check(&model, &src)?;
        Ok(Front {
            src,
            model,
            checked,
        })
    }

    /// A lowerer for this model with the `-p name=value` settings `params` (as written
    /// on the command line). `with_data` says records will come from a data file (see
    /// [`Lowerer::new`]); `max_size` is the largest family the compiler builds. Its
    /// warnings are left in it for [`Lowerer::take_warnings`].
    pub fn lowerer(
        &self,
        params: &[String],
        with_data: bool,
        max_size: usize,
    ) -> Result<Lowerer<'_>, Diagnostics> {
        let params = overrides(&self.model, params)?;
        let depends = |i: usize, p: usize| self.checked.depends_on(i, &[p]);
        Lowerer::new(
            &self.model,
            &self.src,
            &depends,
            params,
            with_data,
            max_size,
        )
    }

    /// The instance of the model's defaults with the `-p name=value` settings
    /// `params`: the one-call way from a loaded model to what [`crate::run`] searches.
    pub fn instance(&self, params: &[String]) -> Result<crate::instance::Instance, Diagnostics> {
        let mut lowerer = self.lowerer(params, false, DEFAULT_MAX_SIZE)?;
        lowerer.instance(None).map_err(|f| f.diagnostics)
    }

    /// The engine's objective, when the model declares one.
    pub fn objective(&self) -> Option<Objective> {
        objective(&self.model).map(engine_objective)
    }
}

pub use crate::lower::engine_objective;

/// Parses the `-p name=value` settings. A value is a literal of the language; a bare
/// word for a string parameter (`-p alphabet=ABCDEFGHIJKLMNOP`) is taken as the string.
pub fn overrides(model: &Model, params: &[String]) -> Result<HashMap<String, Value>, Diagnostics> {
    let mut out = HashMap::new();
    let mut errors = Diagnostics::new();
    let empty = Model {
        decls: Vec::new(),
        span: Span::default(),
    };
    let mut seen: Vec<&str> = Vec::new();
    for setting in params {
        let Some((name, text)) = setting.split_once('=') else {
            errors.push(
                Report::error(Code::E0602, format!("`-p {setting}` has no value")).help(format!(
                    "write `-p {setting}=VALUE`, for example `-p n=4` or `-p 'missing={{3,12}}'`"
                )),
            );
            continue;
        };
        let name = name.trim();
        // Twice is a contradiction, not "the last one wins": say which was meant.
        if out.contains_key(name) || seen.contains(&name) {
            errors.push(
                Report::error(Code::E0923, format!("`-p {name}` is given twice")).help(format!(
                    "give each parameter once: keep one `-p {name}=...`"
                )),
            );
            continue;
        }
        seen.push(name);
        let takes_string = model.decls.iter().any(|d| match d {
            Decl::Param(p) if p.name.name == name => {
                p.ty.as_ref().is_some_and(|t| t.name.name == "str")
                    || p.default
                        .as_ref()
                        .is_some_and(|e| matches!(e.kind, ExprKind::Str(_)))
            }
            _ => false,
        });
        // A `str` param, or an untyped one whose default is a string (a grid's default
        // is a string too, but a grid is not text).
        let only_string = model.decls.iter().any(|d| match d {
            Decl::Param(p) if p.name.name == name => match &p.ty {
                Some(t) => t.name.name == "str",
                None => p
                    .default
                    .as_ref()
                    .is_some_and(|e| matches!(e.kind, ExprKind::Str(_))),
            },
            _ => false,
        });
        let src = SourceFile::new(format!("-p {name}"), text);
        let value = parse_expr(&src).and_then(|e| {
            let mut env = Env::new(&empty, &src, HashMap::new());
            env.eval(&e)
                .map_err(|r| Diagnostics::from(r as crate::diag::Diag))
        });
        // A string parameter takes `-p code=1234` as the text `1234`, not a number.
        let plain = !text.is_empty() && !text.contains(['"', '{', '[', '(']);
        let value = match value {
            Ok(v) if only_string && plain && !matches!(v, Value::Str(_)) => Ok(Value::str(text)),
            other => other,
        };
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
                    Report::error(Code::E0602, format!("the value of `-p {name}` is not a literal of the language"))
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

/// What one record of a data file for a parameter of type `ty` looks like, for help
/// lines.
pub fn record_layout(ty: &ParamType) -> String {
    match ty {
        ParamType::Grid(Some((r, c))) => format!(
            "{r} lines of {c} characters, or one line of {} characters",
            r * c
        ),
        ParamType::Grid(None) => "a block of lines, blocks separated by blank lines".into(),
        ParamType::Ints => "whitespace-separated integers, records separated by blank lines".into(),
        ParamType::Cells { grids, rows, cols } => {
            let lines = format!(
                "{rows} lines of {cols} cells separated by spaces, after an optional size line `{rows} {cols}`"
            );
            match grids {
                None => lines,
                Some(k) => format!("{k} grids, each {lines}"),
            }
        }
        other => format!("one line holding a `{}`", other.written()),
    }
}
