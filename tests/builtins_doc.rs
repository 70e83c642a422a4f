//! Checks the examples of `docs/builtins.md` against the builtins.
//!
//! The examples are written in the language's expression syntax, but use only literals,
//! ranges and builtin calls, so a small evaluator here checks them without the parser and
//! evaluator (which are built elsewhere). Every builtin must have a row in the table and
//! at least one example.

use std::collections::BTreeMap;
use std::rc::Rc;

use dlxc::lower::builtins::{SIGNATURES, call};
use dlxc::lower::value::Value;

const DOC: &str = include_str!("../docs/builtins.md");

/// The lines of the fenced `examples` block.
fn examples() -> Vec<&'static str> {
    let start = DOC.find("```examples\n").expect("an ```examples block") + 12;
    let len = DOC[start..].find("```").expect("the block is closed");
    DOC[start..start + len].lines().collect()
}

/// A recursive-descent reader of literal expressions and builtin calls.
struct Reader<'a> {
    s: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn ws(&mut self) {
        while self.s.get(self.pos) == Some(&b' ') {
            self.pos += 1;
        }
    }

    fn eat(&mut self, tok: &str) -> bool {
        self.ws();
        if self.s[self.pos..].starts_with(tok.as_bytes()) {
            self.pos += tok.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, tok: &str) -> Result<(), String> {
        if self.eat(tok) {
            Ok(())
        } else {
            Err(format!("expected `{tok}` at byte {}", self.pos))
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.pos).copied()
    }

    /// `primary ('..' | '..=') primary` or a primary.
    fn expr(&mut self) -> Result<Value, String> {
        let lo = self.primary()?;
        if self.eat("..") {
            let inclusive = self.eat("=");
            let hi = self.primary()?;
            let (Some(lo), Some(hi)) = (lo.as_int(), hi.as_int()) else {
                return Err("range of non-integers".into());
            };
            return Ok(Value::Range(lo, if inclusive { hi + 1 } else { hi }));
        }
        Ok(lo)
    }

    /// Comma-separated expressions up to `close`; also reports a trailing comma.
    fn seq(&mut self, close: &str) -> Result<(Vec<Value>, bool), String> {
        let mut out = Vec::new();
        let mut trailing = false;
        while !self.eat(close) {
            out.push(self.expr()?);
            trailing = self.eat(",");
            if !trailing {
                self.expect(close)?;
                break;
            }
        }
        Ok((out, trailing))
    }

    fn primary(&mut self) -> Result<Value, String> {
        match self.peek().ok_or("unexpected end")? {
            b'-' => {
                self.pos += 1;
                let v = self.primary()?;
                Ok(Value::Int(-v.as_int().ok_or("`-` of a non-integer")?))
            }
            b'0'..=b'9' => {
                let start = self.pos;
                while self.s.get(self.pos).is_some_and(u8::is_ascii_digit) {
                    self.pos += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.pos]).unwrap();
                text.parse().map(Value::Int).map_err(|e| e.to_string())
            }
            b'"' => {
                self.pos += 1;
                let mut out = String::new();
                loop {
                    let rest = std::str::from_utf8(&self.s[self.pos..]).unwrap();
                    let c = rest.chars().next().ok_or("unterminated string")?;
                    self.pos += c.len_utf8();
                    match c {
                        '"' => break,
                        '\\' => {
                            let e = self.s[self.pos];
                            self.pos += 1;
                            out.push(match e {
                                b'n' => '\n',
                                b't' => '\t',
                                other => other as char,
                            });
                        }
                        c => out.push(c),
                    }
                }
                Ok(Value::str(&out))
            }
            b'(' => {
                self.pos += 1;
                let (xs, trailing) = self.seq(")")?;
                if xs.len() == 1 && !trailing {
                    Ok(xs.into_iter().next().unwrap())
                } else {
                    Ok(Value::tuple(xs))
                }
            }
            b'[' => {
                self.pos += 1;
                Ok(Value::list(self.seq("]")?.0))
            }
            b'{' => {
                self.pos += 1;
                if self.eat("}") {
                    return Ok(Value::empty_set());
                }
                let first = self.expr()?;
                if self.eat(":") {
                    let mut m = BTreeMap::new();
                    m.insert(first, self.expr()?);
                    while self.eat(",") {
                        let k = self.expr()?;
                        self.expect(":")?;
                        m.insert(k, self.expr()?);
                    }
                    self.expect("}")?;
                    return Ok(Value::Map(Rc::new(m)));
                }
                let mut xs = vec![first];
                if self.eat(",") {
                    xs.extend(self.seq("}")?.0);
                } else {
                    self.expect("}")?;
                }
                Ok(Value::set(xs))
            }
            c if c.is_ascii_alphabetic() => {
                let start = self.pos;
                while self
                    .s
                    .get(self.pos)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                {
                    self.pos += 1;
                }
                let name = std::str::from_utf8(&self.s[start..self.pos]).unwrap();
                match name {
                    "true" => Ok(Value::Bool(true)),
                    "false" => Ok(Value::Bool(false)),
                    _ => {
                        self.expect("(")?;
                        let (args, _) = self.seq(")")?;
                        call(name, &args).map_err(|e| format!("{name}: {}", e.message))
                    }
                }
            }
            c => Err(format!("unexpected `{}` at byte {}", c as char, self.pos)),
        }
    }
}

/// Evaluates `EXPR == EXPECTED` and returns both sides.
fn check(line: &str) -> Result<(Value, Value), String> {
    let mut r = Reader {
        s: line.as_bytes(),
        pos: 0,
    };
    let lhs = r.expr()?;
    r.expect("==")?;
    let rhs = r.expr()?;
    if r.peek().is_some() {
        return Err(format!("trailing text at byte {}", r.pos));
    }
    Ok((lhs, rhs))
}

#[test]
fn every_example_holds() {
    let lines = examples();
    assert!(lines.len() > SIGNATURES.len());
    let mut failures = Vec::new();
    for line in lines {
        match check(line) {
            Ok((lhs, rhs)) if lhs == rhs => {}
            Ok((lhs, _)) => failures.push(format!("{line}\n    left side is {lhs:#}")),
            Err(e) => failures.push(format!("{line}\n    {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_builtin_is_documented_with_an_example() {
    let lines = examples();
    for &(name, ..) in SIGNATURES {
        assert!(
            DOC.contains(&format!("| `{name}(")),
            "`{name}` has no row in the table"
        );
        let call = format!("{name}(");
        assert!(
            lines.iter().any(|l| l.starts_with(&call)),
            "`{name}` has no example line starting with it"
        );
    }
}
