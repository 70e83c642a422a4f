//! `dlxc lsp` driven over stdio as an editor drives it: initialize, open a model with
//! a mistake, read its diagnostics, fix it, hover, go to a definition, rename, format,
//! complete, list the outline, shut down.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: mpsc::Receiver<Value>,
    next_id: i64,
}

const URI: &str = "file:///tmp/model.dlx";

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dlxc"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("dlxc lsp starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, messages) = mpsc::channel();
        std::thread::spawn(move || {
            loop {
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse().unwrap();
                    }
                }
                let mut body = vec![0; length];
                stdout.read_exact(&mut body).unwrap();
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            messages,
            next_id: 0,
        }
    }

    fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next message that satisfies `want`; a guard against a server that hangs,
    /// not a measure of its speed.
    fn wait(&mut self, want: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self
                .messages
                .recv_timeout(Duration::from_secs(60))
                .expect("the server answers");
            if want(&m) {
                return m;
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let m = self.wait(|m| m["id"] == id);
        assert!(m.get("error").is_none(), "{method}: {m}");
        m["result"].clone()
    }

    fn diagnostics(&mut self) -> Vec<Value> {
        let m = self.wait(|m| m["method"] == "textDocument/publishDiagnostics");
        assert_eq!(m["params"]["uri"], URI);
        m["params"]["diagnostics"].as_array().unwrap().clone()
    }

    fn change(&mut self, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version},
                   "contentChanges": [{"text": text}]}),
        );
    }

    fn at(line: u32, character: u32) -> Value {
        json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}})
    }
}

const FIXED: &str = "param n = 3\nitem x[i] for i in 0..n\noption o[i] for i in 0..n covers x[i]\n";

#[test]
fn an_editor_session() {
    let mut c = Client::start();
    let init = c.request("initialize", json!({"capabilities": {}}));
    let caps = &init["capabilities"];
    for cap in [
        "hoverProvider",
        "definitionProvider",
        "referencesProvider",
        "renameProvider",
        "completionProvider",
        "documentSymbolProvider",
        "documentFormattingProvider",
    ] {
        assert!(!caps[cap].is_null(), "{cap}: {init}");
    }
    c.notify("initialized", json!({}));

    // A name the checker does not know.
    let broken = "param n = 3\nitem x[i] for i in 0..nn\noption o[i] for i in 0..n covers x[i]\n";
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "dlx", "version": 1, "text": broken}}),
    );
    let d = c.diagnostics();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["code"], "E0101");
    assert_eq!(d[0]["severity"], 1);
    assert_eq!(
        d[0]["range"],
        json!({"start": {"line": 1, "character": 22}, "end": {"line": 1, "character": 24}})
    );
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .contains("help: did you mean `n`?")
    );

    // Fixed: the diagnostics are cleared.
    c.change(2, FIXED);
    assert_eq!(c.diagnostics(), Vec::<Value>::new());

    // A mistake only the lowering finds (with the defaults): x[3] is no item.
    c.change(3, &FIXED.replace("x[i]\n", "x[i + 1]\n"));
    let d = c.diagnostics();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["code"], "E0401");
    assert_eq!(d[0]["range"]["start"], json!({"line": 2, "character": 33}));
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .contains("in scope: i = 2")
    );
    c.change(4, FIXED);
    assert_eq!(c.diagnostics(), Vec::<Value>::new());

    // Hover on the item family, at its use in `covers x[i]`.
    let h = c.request("textDocument/hover", Client::at(2, 34));
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(text.contains("item x[i] for i in 0..n"), "{text}");
    assert!(text.contains("3 items with the defaults"), "{text}");
    let h = c.request("textDocument/hover", Client::at(0, 6));
    assert!(
        h["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("default `3`"),
        "{h}"
    );

    // The definition of the param `n` from its use in the item's loop.
    let def = c.request("textDocument/definition", Client::at(1, 22));
    assert_eq!(def["uri"], URI);
    assert_eq!(
        def["range"],
        json!({"start": {"line": 0, "character": 6}, "end": {"line": 0, "character": 7}})
    );
    let refs = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": 6},
               "context": {"includeDeclaration": true}}),
    );
    assert_eq!(refs.as_array().unwrap().len(), 3, "{refs}");

    // Rename `n` to `size`: the declaration and its two uses.
    let mut at = Client::at(2, 24);
    at["newName"] = json!("size");
    let edit = c.request("textDocument/rename", at);
    let edits = edit["changes"][URI].as_array().unwrap();
    assert_eq!(edits.len(), 3, "{edit}");
    assert!(edits.iter().all(|e| e["newText"] == "size"));

    // Completion offers the model's names, builtins and keywords.
    let items = c.request("textDocument/completion", Client::at(2, 0));
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    for want in ["n", "x", "o", "len", "variants", "covers", "where"] {
        assert!(labels.contains(&want), "{want} not in {labels:?}");
    }

    // The outline.
    let symbols = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["n", "x", "o"]);

    // Formatting through `dlxc fmt`.
    c.change(5, "param n=3\nitem x[ i ] for i in 0..n\n");
    c.diagnostics();
    let edits = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    let edits = edits.as_array().unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(
        edits[0]["newText"],
        "param n = 3\nitem x[i] for i in 0..n\n"
    );

    c.request("shutdown", Value::Null);
    c.notify("exit", Value::Null);
    let status = c.child.wait().unwrap();
    assert!(status.success());
}
