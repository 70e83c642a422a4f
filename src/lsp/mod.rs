//! `dlxc lsp`: the language server, over standard input and output.
//!
//! It reads only what the client sends (the open documents' text) and writes only
//! protocol messages. What it offers (see `docs/tooling.md`):
//!
//! - diagnostics on open and on change, debounced: the parser's and the checker's at
//!   once, and the lowering's (E04xx and the evaluation errors, with the model's
//!   defaults) under a budget of time, memory and size, so that a huge model never
//!   freezes the editor: a lowering that runs past [`LOWER_TIME`] or the budget is
//!   left out, not waited for. Every diagnostic is the [`crate::diag::json`] form of
//!   what `dlxc check` prints: the code, the labels as related information, the help
//!   in the message;
//! - hover (a family's declaration and how many items or options it makes with the
//!   defaults, a builtin's signature and meaning, a param's type and default);
//! - definition, references and rename of top-level names (params, `let`s, functions,
//!   item and option families);
//! - completion of top-level names, builtins and keywords;
//! - document symbols (the outline) and formatting by [`crate::fmt`].
//!
//! Names are matched by their text: a loop variable that shadows a top-level name
//! counts as one of its references (the checker warns about shadowing).

mod text;

use std::collections::HashMap;
use std::error::Error;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument,
    Notification as NotificationTrait, PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest, References,
    Rename, Request as RequestTrait,
};
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionOptions, CompletionParams, Diagnostic,
    DiagnosticRelatedInformation, DiagnosticSeverity, DocumentFormattingParams, DocumentSymbol,
    DocumentSymbolParams, GotoDefinitionParams, Hover, HoverContents, HoverParams,
    HoverProviderCapability, Location, MarkupContent, MarkupKind, NumberOrString, OneOf,
    PublishDiagnosticsParams, ReferenceParams, RenameParams, ServerCapabilities, SymbolKind,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri, WorkspaceEdit,
};
use serde_json::Value as Json;

use crate::diag::Diagnostics;
use crate::diag::json::{Flat, flatten};
use crate::fmt::lex::{KEYWORDS, Kind, lex};
use crate::session::Front;
use crate::source::SourceFile;
use crate::syntax::ast::{Decl, Model};
use text::Lines;

/// How long the server waits after a change for the next one before it checks.
pub const DEBOUNCE: Duration = Duration::from_millis(150);
/// How long the lowering of one document may take before its diagnostics are left out.
pub const LOWER_TIME: Duration = Duration::from_secs(2);
/// The memory the lowering may take (the budget of `--max-memory`, if smaller).
pub const LOWER_MEMORY: usize = 512 << 20;
/// The largest family the lowering builds for the editor.
pub const LOWER_SIZE: usize = 1_000_000;

/// One open document and what its last lowering made.
struct Doc {
    text: String,
    version: Option<i32>,
    /// Items or options made by each family (by name) with the defaults, from the last
    /// lowering that finished.
    made: HashMap<String, usize>,
}

/// Runs the server on standard input and output until the client says `exit`.
pub fn serve() -> Result<(), Box<dyn Error + Send + Sync>> {
    let (connection, io) = Connection::stdio();
    run(&connection)?;
    drop(connection);
    io.join()?;
    Ok(())
}

/// What the server can do, as the client reads it from `initialize`.
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions::default()),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

/// The server's loop on one connection.
pub fn run(connection: &Connection) -> Result<(), Box<dyn Error + Send + Sync>> {
    let caps = serde_json::to_value(capabilities())?;
    connection.initialize(caps)?;
    let budget = crate::lower::budget::budget();
    crate::lower::budget::set_budget(budget.min(LOWER_MEMORY));
    let mut server = Server {
        docs: HashMap::new(),
        dirty: Vec::new(),
        lowering: Arc::new(AtomicBool::new(false)),
    };
    loop {
        let msg = if server.dirty.is_empty() {
            match connection.receiver.recv() {
                Ok(m) => m,
                Err(_) => return Ok(()),
            }
        } else {
            match connection.receiver.recv_timeout(DEBOUNCE) {
                Ok(m) => m,
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                    server.publish(connection)?;
                    continue;
                }
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return Ok(()),
            }
        };
        match msg {
            Message::Request(req) => {
                if connection.handle_shutdown(&req)? {
                    return Ok(());
                }
                let resp = server.request(req);
                connection.sender.send(Message::Response(resp))?;
            }
            Message::Notification(n) => {
                if n.method == "exit" {
                    return Ok(());
                }
                server.notification(n);
            }
            Message::Response(_) => {}
        }
    }
}

struct Server {
    docs: HashMap<Uri, Doc>,
    /// Documents changed since their diagnostics were last published.
    dirty: Vec<Uri>,
    /// Whether a lowering is still running (one that ran past its time).
    lowering: Arc<AtomicBool>,
}

impl Server {
    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params)
                {
                    let d = p.text_document;
                    self.docs.insert(
                        d.uri.clone(),
                        Doc {
                            text: d.text,
                            version: Some(d.version),
                            made: HashMap::new(),
                        },
                    );
                    self.mark(d.uri);
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params)
                    && let Some(doc) = self.docs.get_mut(&p.text_document.uri)
                {
                    // Full synchronization: the last change holds the whole text.
                    if let Some(c) = p.content_changes.into_iter().last() {
                        doc.text = c.text;
                    }
                    doc.version = Some(p.text_document.version);
                    self.mark(p.text_document.uri);
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params)
                {
                    self.docs.remove(&p.text_document.uri);
                    self.dirty.retain(|u| *u != p.text_document.uri);
                }
            }
            _ => {}
        }
    }

    fn mark(&mut self, uri: Uri) {
        if !self.dirty.contains(&uri) {
            self.dirty.push(uri);
        }
    }

    /// Checks every changed document and sends its diagnostics.
    fn publish(&mut self, connection: &Connection) -> Result<(), Box<dyn Error + Send + Sync>> {
        for uri in std::mem::take(&mut self.dirty) {
            let Some(doc) = self.docs.get_mut(&uri) else {
                continue;
            };
            let (flats, made) = diagnose(uri.as_str(), &doc.text, &self.lowering);
            if let Some(made) = made {
                doc.made = made;
            }
            let lines = Lines::new(&doc.text);
            let diagnostics = flats.iter().map(|f| to_lsp(f, &uri, &lines)).collect();
            let params = PublishDiagnosticsParams {
                uri: uri.clone(),
                diagnostics,
                version: doc.version,
            };
            connection
                .sender
                .send(Message::Notification(Notification::new(
                    PublishDiagnostics::METHOD.to_string(),
                    params,
                )))?;
        }
        Ok(())
    }

    fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        let result = match req.method.as_str() {
            HoverRequest::METHOD => self.with(req, |s, p: HoverParams| {
                let at = p.text_document_position_params;
                s.hover(&at.text_document.uri, at.position)
            }),
            GotoDefinition::METHOD => self.with(req, |s, p: GotoDefinitionParams| {
                let at = p.text_document_position_params;
                s.definition(&at.text_document.uri, at.position)
            }),
            References::METHOD => self.with(req, |s, p: ReferenceParams| {
                let at = p.text_document_position;
                s.references(
                    &at.text_document.uri,
                    at.position,
                    p.context.include_declaration,
                )
            }),
            Rename::METHOD => self.with(req, |s, p: RenameParams| {
                let at = p.text_document_position;
                s.rename(&at.text_document.uri, at.position, &p.new_name)
            }),
            Completion::METHOD => self.with(req, |s, p: CompletionParams| {
                s.completion(&p.text_document_position.text_document.uri)
            }),
            DocumentSymbolRequest::METHOD => self.with(req, |s, p: DocumentSymbolParams| {
                s.symbols(&p.text_document.uri)
            }),
            Formatting::METHOD => self.with(req, |s, p: DocumentFormattingParams| {
                s.format(&p.text_document.uri)
            }),
            _ => Err((
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("dlxc lsp does not answer `{}`", req.method),
            )),
        };
        match result {
            Ok(v) => Response::new_ok(id, v),
            Err((code, message)) => Response::new_err(id, code, message),
        }
    }

    /// Decodes a request's parameters and encodes the answer.
    fn with<P: serde::de::DeserializeOwned, R: serde::Serialize>(
        &mut self,
        req: Request,
        f: impl FnOnce(&mut Server, P) -> Option<R>,
    ) -> Result<Json, (i32, String)> {
        let method = req.method.clone();
        let (_, params): (RequestId, P) = req.extract(&method).map_err(|e| {
            (
                lsp_server::ErrorCode::InvalidParams as i32,
                format!("{e:?}"),
            )
        })?;
        Ok(f(self, params).map_or(Json::Null, |r| {
            serde_json::to_value(r).unwrap_or(Json::Null)
        }))
    }

    fn doc(&self, uri: &Uri) -> Option<&Doc> {
        self.docs.get(uri)
    }

    /// The top-level name under the cursor, with its declaration.
    fn named_at(&self, uri: &Uri, pos: lsp_types::Position) -> Option<(String, Model, Lines<'_>)> {
        let doc = self.doc(uri)?;
        let lines = Lines::new(&doc.text);
        let at = lines.offset(pos);
        let word = word_at(&doc.text, at)?;
        let model = crate::syntax::parse(&SourceFile::new(uri.as_str(), doc.text.as_str())).ok()?;
        Some((word, model, lines))
    }

    fn hover(&self, uri: &Uri, pos: lsp_types::Position) -> Option<Hover> {
        let doc = self.doc(uri)?;
        let lines = Lines::new(&doc.text);
        let word = word_at(&doc.text, lines.offset(pos))?;
        let model = crate::syntax::parse(&SourceFile::new(uri.as_str(), doc.text.as_str())).ok();
        let decl = model.as_ref().and_then(|m| {
            m.decls
                .iter()
                .find(|d| d.name().is_some_and(|n| n.name == word))
        });
        let value = match decl {
            Some(d) => describe(d, &doc.text, &doc.made),
            None => {
                let (name, lo, hi, meaning) = crate::lower::builtins::SIGNATURES
                    .iter()
                    .find(|(n, ..)| *n == word)?;
                let args = match (*lo, *hi) {
                    (lo, hi) if lo == hi => {
                        format!("{lo} argument{}", if lo == 1 { "" } else { "s" })
                    }
                    (lo, usize::MAX) => format!("{lo} or more arguments"),
                    (lo, hi) => format!("{lo} to {hi} arguments"),
                };
                format!("```dlx\n{name}(...)\n```\nbuiltin, {args}: {meaning}")
            }
        };
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            }),
            range: None,
        })
    }

    fn definition(&self, uri: &Uri, pos: lsp_types::Position) -> Option<Location> {
        let (word, model, lines) = self.named_at(uri, pos)?;
        let d = model
            .decls
            .iter()
            .find_map(|d| d.name().filter(|n| n.name == word))?;
        Some(Location {
            uri: uri.clone(),
            range: lines.range(d.span.start as usize, d.span.end as usize),
        })
    }

    /// Every place the top-level name under the cursor is written.
    fn occurrences(
        &self,
        uri: &Uri,
        pos: lsp_types::Position,
    ) -> Option<(Vec<lsp_types::Range>, lsp_types::Range)> {
        let (word, model, lines) = self.named_at(uri, pos)?;
        let decl = model
            .decls
            .iter()
            .find_map(|d| d.name().filter(|n| n.name == word))?;
        let text = &self.doc(uri)?.text;
        let places = lex(text)
            .into_iter()
            .filter(|t| t.kind == Kind::Ident && t.text(text) == word)
            .map(|t| lines.range(t.start, t.end))
            .collect();
        Some((
            places,
            lines.range(decl.span.start as usize, decl.span.end as usize),
        ))
    }

    fn references(
        &self,
        uri: &Uri,
        pos: lsp_types::Position,
        with_decl: bool,
    ) -> Option<Vec<Location>> {
        let (places, decl) = self.occurrences(uri, pos)?;
        Some(
            places
                .into_iter()
                .filter(|r| with_decl || *r != decl)
                .map(|range| Location {
                    uri: uri.clone(),
                    range,
                })
                .collect(),
        )
    }

    fn rename(&self, uri: &Uri, pos: lsp_types::Position, new_name: &str) -> Option<WorkspaceEdit> {
        let valid = lex(new_name).len() == 1
            && lex(new_name)
                .first()
                .is_some_and(|t| t.kind == Kind::Ident && t.end == new_name.len());
        if !valid {
            return None;
        }
        let (places, _) = self.occurrences(uri, pos)?;
        let edits = places
            .into_iter()
            .map(|range| TextEdit {
                range,
                new_text: new_name.to_string(),
            })
            .collect();
        Some(WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        })
    }

    fn completion(&self, uri: &Uri) -> Option<Vec<CompletionItem>> {
        let text = &self.doc(uri)?.text;
        let tokens = lex(text);
        let mut items: Vec<CompletionItem> = Vec::new();
        // Token by token, so that a half-typed model that does not parse still offers
        // its names: the word after a declaring keyword.
        for w in tokens.windows(2) {
            let kind = match w[0].text(text) {
                "param" => CompletionItemKind::CONSTANT,
                "let" => CompletionItemKind::VARIABLE,
                "fn" => CompletionItemKind::FUNCTION,
                "item" => CompletionItemKind::FIELD,
                "option" => CompletionItemKind::STRUCT,
                _ => continue,
            };
            let name = w[1].text(text);
            if w[1].kind == Kind::Ident && !items.iter().any(|i| i.label == name) {
                items.push(CompletionItem {
                    label: name.to_string(),
                    kind: Some(kind),
                    detail: Some(w[0].text(text).to_string()),
                    ..CompletionItem::default()
                });
            }
        }
        for (name, _, _, meaning) in crate::lower::builtins::SIGNATURES {
            items.push(CompletionItem {
                label: (*name).to_string(),
                kind: Some(CompletionItemKind::FUNCTION),
                detail: Some((*meaning).to_string()),
                ..CompletionItem::default()
            });
        }
        for k in KEYWORDS.iter().chain(&["symmetry", "count"]) {
            items.push(CompletionItem {
                label: (*k).to_string(),
                kind: Some(CompletionItemKind::KEYWORD),
                ..CompletionItem::default()
            });
        }
        Some(items)
    }

    #[allow(deprecated)] // DocumentSymbol's `deprecated` field must be written
    fn symbols(&self, uri: &Uri) -> Option<Vec<DocumentSymbol>> {
        let text = &self.doc(uri)?.text;
        let model = crate::syntax::parse(&SourceFile::new(uri.as_str(), text.as_str())).ok()?;
        let lines = Lines::new(text);
        let symbols = model
            .decls
            .iter()
            .map(|d| {
                let span = d.span();
                let (kind, what) = match d {
                    Decl::Param(_) => (SymbolKind::CONSTANT, "param"),
                    Decl::Let(_) => (SymbolKind::VARIABLE, "let"),
                    Decl::Fn(_) => (SymbolKind::FUNCTION, "fn"),
                    Decl::Item(_) => (SymbolKind::FIELD, "item"),
                    Decl::Option(_) => (SymbolKind::STRUCT, "option"),
                    Decl::Force(_) => (SymbolKind::EVENT, "force"),
                    Decl::Objective(_) => (SymbolKind::EVENT, "objective"),
                    Decl::Canvas(_) => (SymbolKind::ARRAY, "display"),
                    Decl::Draw(_) => (SymbolKind::ARRAY, "draw"),
                    Decl::Assert(_) => (SymbolKind::BOOLEAN, "assert"),
                    Decl::Symmetry(_) => (SymbolKind::OPERATOR, "symmetry"),
                };
                let first_line = |s: &str| s.lines().next().unwrap_or("").trim().to_string();
                let (name, selection) = match d.name() {
                    Some(n) => (n.name.clone(), n.span),
                    None => (first_line(span.slice(text)), span),
                };
                DocumentSymbol {
                    name,
                    detail: Some(what.to_string()),
                    kind,
                    tags: None,
                    deprecated: None,
                    range: lines.range(span.start as usize, span.end as usize),
                    selection_range: lines.range(selection.start as usize, selection.end as usize),
                    children: None,
                }
            })
            .collect();
        Some(symbols)
    }

    fn format(&self, uri: &Uri) -> Option<Vec<TextEdit>> {
        let text = &self.doc(uri)?.text;
        let formatted = crate::fmt::format(&SourceFile::new(uri.as_str(), text.as_str())).ok()?;
        if formatted == *text {
            return Some(Vec::new());
        }
        let lines = Lines::new(text);
        Some(vec![TextEdit {
            range: lines.range(0, text.len()),
            new_text: formatted,
        }])
    }
}

/// The name (identifier token) at or just before a byte offset.
fn word_at(text: &str, at: usize) -> Option<String> {
    lex(text)
        .into_iter()
        .find(|t| t.start <= at && at <= t.end && t.kind == Kind::Ident)
        .map(|t| t.text(text).to_string())
}

/// The hover text of a top-level declaration.
fn describe(d: &Decl, text: &str, made: &HashMap<String, usize>) -> String {
    let span = d.span();
    let written: Vec<&str> = span.slice(text).lines().take(6).collect();
    let mut out = format!("```dlx\n{}\n```\n", written.join("\n"));
    let name = d.name().map_or("", |n| n.name.as_str());
    match d {
        Decl::Param(p) => {
            let ty =
                p.ty.as_ref()
                    .map_or("not written (taken from the default)".to_string(), |t| {
                        format!("`{}`", t.span.slice(text))
                    });
            let default = p.default.as_ref().map_or(
                "none: it must be given with `-p` or a data file".to_string(),
                |e| {
                    let s = e.span.slice(text);
                    let s = s.lines().next().unwrap_or(s);
                    format!("`{s}`")
                },
            );
            out.push_str(&format!("param: type {ty}; default {default}"));
        }
        Decl::Item(_) | Decl::Option(_) => {
            let what = if matches!(d, Decl::Item(_)) {
                "item"
            } else {
                "option"
            };
            match made.get(name) {
                Some(n) => out.push_str(&format!(
                    "{what} family: {n} {what}{} with the defaults",
                    if *n == 1 { "" } else { "s" }
                )),
                None => out.push_str(&format!("{what} family (not lowered)")),
            }
        }
        Decl::Fn(_) => out.push_str("function"),
        _ => {}
    }
    out
}

/// Every diagnostic of a document, and what each family made if it lowered. The
/// lowering runs on its own thread under the time, memory and size budgets.
fn diagnose(
    name: &str,
    text: &str,
    lowering: &Arc<AtomicBool>,
) -> (Vec<Flat>, Option<HashMap<String, usize>>) {
    let src = SourceFile::new(name, text);
    let front = match Front::load(src) {
        Ok(f) => f,
        Err(d) => return (flats(&d), None),
    };
    let mut out = flats(&front.checked.warnings);
    if lowering.swap(true, Ordering::SeqCst) {
        // The last lowering has not finished: no new one on top of it.
        return (out, None);
    }
    let (tx, rx) = mpsc::channel();
    let busy = Arc::clone(lowering);
    std::thread::spawn(move || {
        let result = lower(&front);
        busy.store(false, Ordering::SeqCst);
        let _ = tx.send(result);
    });
    match rx.recv_timeout(LOWER_TIME) {
        Ok((found, made)) => {
            out.extend(found);
            (out, made)
        }
        Err(_) => (out, None),
    }
}

/// The lowering's diagnostics with the defaults, and what each family made. Limits
/// (E05xx) are the editor's budget speaking, not the model's mistake: left out.
fn lower(front: &Front) -> (Vec<Flat>, Option<HashMap<String, usize>>) {
    let keep = |d: Diagnostics| -> Vec<Flat> {
        flats(&d)
            .into_iter()
            .filter(|f| !f.code.as_deref().is_some_and(|c| c.starts_with("E05")))
            .collect()
    };
    let mut lowerer = match front.lowerer(&[], false, LOWER_SIZE) {
        Ok(l) => l,
        Err(d) => return (keep(d), None),
    };
    let mut out = keep(lowerer.take_warnings());
    match lowerer.instance(None) {
        Ok(inst) => {
            out.extend(keep(lowerer.take_warnings()));
            let p = inst.problem();
            let mut made = HashMap::new();
            let family = |origin: &crate::problem::Origin| match origin {
                crate::problem::Origin::Model { decl } => front
                    .model
                    .decls
                    .iter()
                    .find(|d| d.span().start <= decl.start && decl.start < d.span().end)
                    .and_then(|d| d.name())
                    .map(|n| n.name.clone()),
                _ => None,
            };
            for it in &p.items {
                if let Some(n) = family(&it.origin) {
                    *made.entry(n).or_insert(0) += 1;
                }
            }
            for o in &p.options {
                if let Some(n) = family(&o.origin) {
                    *made.entry(n).or_insert(0) += 1;
                }
            }
            (out, Some(made))
        }
        Err(fail) => {
            out.extend(keep(lowerer.take_warnings()));
            out.extend(keep(fail.diagnostics));
            (out, None)
        }
    }
}

fn flats(d: &Diagnostics) -> Vec<Flat> {
    d.iter().map(|d| flatten(d)).collect()
}

/// A diagnostic as the protocol has it: the primary label's range, the other labels
/// as related information, the help after the message.
pub fn to_lsp(f: &Flat, uri: &Uri, lines: &Lines<'_>) -> Diagnostic {
    let range = f
        .place()
        .map_or_else(lsp_types::Range::default, |p| lines.range(p.start, p.end));
    let mut message = f.message.clone();
    if let Some(primary) = f
        .labels
        .iter()
        .find(|l| l.primary)
        .and_then(|l| l.text.as_ref())
    {
        message.push_str(&format!(": {primary}"));
    }
    if let Some(h) = &f.help {
        message.push_str(&format!("\nhelp: {h}"));
    }
    let related: Vec<DiagnosticRelatedInformation> = f
        .labels
        .iter()
        .filter_map(|l| {
            let p = l.place?;
            Some(DiagnosticRelatedInformation {
                location: Location {
                    uri: uri.clone(),
                    range: lines.range(p.start, p.end),
                },
                message: l.text.clone().unwrap_or_default(),
            })
        })
        .collect();
    Diagnostic {
        range,
        severity: Some(match f.severity {
            "error" => DiagnosticSeverity::ERROR,
            "warning" => DiagnosticSeverity::WARNING,
            _ => DiagnosticSeverity::HINT,
        }),
        code: f.code.clone().map(NumberOrString::String),
        code_description: None,
        source: Some("dlxc".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}
