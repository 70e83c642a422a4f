//! Parameter types and data records.
//!
//! A `param` may declare a type. Values given from outside — `-p name=value`, a record of
//! a `--data` file, or a string default — are checked against it and converted:
//!
//! | type         | value                          | from text (a record or a string)                |
//! |--------------|--------------------------------|--------------------------------------------------|
//! | `int`        | an integer                     | a decimal integer                                |
//! | `bool`       | a boolean                      | `true` / `false`                                 |
//! | `str`        | a string                       | the line as it is                                |
//! | `list`, `set`, `map` | a value of that kind   | —                                                |
//! | `grid`       | a list of row strings          | the lines of a block                             |
//! | `grid[R, C]` | a list of `R` strings of `C` characters | `R` lines of `C` characters, or one line of `R*C` |
//! | `ints`       | a list of integers             | whitespace-separated integers                    |
//!
//! A data file is split into records by the type of the data parameter: `grid[R, C]`
//! records are one long line or `R` short lines; `grid` and `ints` records are blocks
//! of lines separated by blank lines; `str` and `int` records are single lines. Lines
//! starting with `#` are comments everywhere.

use crate::lower::value::Value;

/// A parameter type, resolved from its written form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamType {
    /// `int`
    Int,
    /// `bool`
    Bool,
    /// `str`
    Str,
    /// `list`
    List,
    /// `set`
    Set,
    /// `map`
    Map,
    /// `grid` or `grid[R, C]`
    Grid(Option<(usize, usize)>),
    /// `ints`
    Ints,
}

impl ParamType {
    /// The type as written in a model.
    pub fn written(&self) -> String {
        match self {
            ParamType::Int => "int".into(),
            ParamType::Bool => "bool".into(),
            ParamType::Str => "str".into(),
            ParamType::List => "list".into(),
            ParamType::Set => "set".into(),
            ParamType::Map => "map".into(),
            ParamType::Grid(None) => "grid".into(),
            ParamType::Grid(Some((r, c))) => format!("grid[{r}, {c}]"),
            ParamType::Ints => "ints".into(),
        }
    }

    /// Whether values of this type can come from a `--data` file.
    pub fn is_record_type(&self) -> bool {
        matches!(
            self,
            ParamType::Grid(_) | ParamType::Ints | ParamType::Str | ParamType::Int
        )
    }
}

/// One record of a data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The record's lines, joined by `\n`.
    pub text: String,
    /// 1-based line number of its first line.
    pub line: usize,
    /// Byte offset of its first line in the file.
    pub offset: usize,
}

/// What is wrong with a record or value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeError {
    /// 0-based line within the record (or the file, for splitting errors), if known.
    pub line: Option<usize>,
    /// What was expected and found.
    pub message: String,
}

fn lines_with_offsets(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    let mut offset = 0;
    text.split('\n').enumerate().map(move |(i, line)| {
        let start = offset;
        offset += line.len() + 1;
        (i + 1, start, line.trim_end_matches('\r'))
    })
}

/// Splits a data file into records for a parameter of type `ty`.
pub fn split_records(
    text: &str,
    ty: &ParamType,
) -> Result<Vec<Record>, (usize, usize, ShapeError)> {
    let mut records = Vec::new();
    let mut current: Option<Record> = None;
    let mut rows_in_current = 0usize;
    for (no, offset, line) in lines_with_offsets(text) {
        let trimmed = line.trim();
        if trimmed.starts_with('#') {
            continue;
        }
        match ty {
            ParamType::Grid(Some((r, c))) => {
                if trimmed.is_empty() {
                    continue;
                }
                let len = trimmed.chars().count();
                if current.is_none() && len == r * c && *r > 1 {
                    records.push(Record {
                        text: trimmed.to_string(),
                        line: no,
                        offset,
                    });
                } else if len == *c {
                    let rec = current.get_or_insert_with(|| Record {
                        text: String::new(),
                        line: no,
                        offset,
                    });
                    if rows_in_current > 0 {
                        rec.text.push('\n');
                    }
                    rec.text.push_str(trimmed);
                    rows_in_current += 1;
                    if rows_in_current == *r {
                        records.extend(current.take());
                        rows_in_current = 0;
                    }
                } else {
                    let k = records.len();
                    let message = if current.is_some() {
                        format!("record {k}: expected a row of {c} characters, found {len}")
                    } else {
                        format!(
                            "record {k}: expected a row of {c} characters or a line of {} characters, found {len}",
                            r * c
                        )
                    };
                    return Err((
                        no,
                        offset,
                        ShapeError {
                            line: None,
                            message,
                        },
                    ));
                }
            }
            ParamType::Grid(None) | ParamType::Ints => {
                if trimmed.is_empty() {
                    records.extend(current.take());
                    continue;
                }
                let rec = current.get_or_insert_with(|| Record {
                    text: String::new(),
                    line: no,
                    offset,
                });
                if !rec.text.is_empty() {
                    rec.text.push('\n');
                }
                rec.text.push_str(line.trim_end());
            }
            _ => {
                if !trimmed.is_empty() {
                    records.push(Record {
                        text: trimmed.to_string(),
                        line: no,
                        offset,
                    });
                }
            }
        }
    }
    if let Some(rec) = current {
        if let ParamType::Grid(Some((r, _))) = ty {
            return Err((
                rec.line,
                rec.offset,
                ShapeError {
                    line: None,
                    message: format!(
                        "record {}: the file ends in the middle of the record: expected {r} rows, found {rows_in_current}",
                        records.len()
                    ),
                },
            ));
        }
        records.push(rec);
    }
    Ok(records)
}

/// Converts the text of a record (or a string given for a typed param) to a value.
pub fn parse_text(text: &str, ty: &ParamType) -> Result<Value, ShapeError> {
    let err = |line: Option<usize>, message: String| ShapeError { line, message };
    match ty {
        ParamType::Str => Ok(Value::str(text)),
        ParamType::Int => text.trim().parse::<i64>().map(Value::Int).map_err(|_| {
            err(
                Some(0),
                format!("expected an integer, found `{}`", text.trim()),
            )
        }),
        ParamType::Bool => match text.trim() {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            other => Err(err(
                Some(0),
                format!("expected `true` or `false`, found `{other}`"),
            )),
        },
        ParamType::Ints => {
            let mut out = Vec::new();
            for (i, line) in text.lines().enumerate() {
                for word in line.split_whitespace() {
                    let n = word.parse::<i64>().map_err(|_| {
                        err(Some(i), format!("expected an integer, found `{word}`"))
                    })?;
                    out.push(Value::Int(n));
                }
            }
            Ok(Value::list(out))
        }
        ParamType::Grid(dims) => {
            let lines: Vec<&str> = text
                .lines()
                .map(str::trim_end)
                .filter(|l| !l.trim().is_empty())
                .collect();
            let rows: Vec<Value> = match dims {
                Some((r, c)) if lines.len() == 1 && lines[0].chars().count() == r * c && *r > 1 => {
                    // One line holding the whole grid: cut it every `c` characters.
                    let line = lines[0];
                    let cuts: Vec<usize> = line
                        .char_indices()
                        .map(|(i, _)| i)
                        .step_by(*c)
                        .chain([line.len()])
                        .collect();
                    cuts.windows(2)
                        .map(|w| Value::str(&line[w[0]..w[1]]))
                        .collect()
                }
                Some((r, c)) => {
                    if lines.len() != *r {
                        return Err(err(
                            None,
                            format!(
                                "expected {r} rows of {c} characters, found {} rows",
                                lines.len()
                            ),
                        ));
                    }
                    for (i, l) in lines.iter().enumerate() {
                        let n = l.trim().chars().count();
                        if n != *c {
                            return Err(err(
                                Some(i),
                                format!("expected a row of {c} characters, found {n}"),
                            ));
                        }
                    }
                    lines.iter().map(|l| Value::str(l.trim())).collect()
                }
                None => lines.iter().map(|l| Value::str(l.trim())).collect(),
            };
            Ok(Value::list(rows))
        }
        ParamType::List | ParamType::Set | ParamType::Map => Err(err(
            None,
            format!(
                "a `{}` cannot be read from text; give it as a literal, as in `-p name=[1, 2]`",
                ty.written()
            ),
        )),
    }
}

/// Checks a value against a type, converting strings for text-based types (a `"""`
/// default of a grid is read like a record).
pub fn conform(value: Value, ty: &ParamType) -> Result<Value, ShapeError> {
    let wrong = |v: &Value| ShapeError {
        line: None,
        message: format!("expected {}, found {}", described(ty), v.kind().described()),
    };
    match (ty, &value) {
        (ParamType::Int, Value::Int(_))
        | (ParamType::Bool, Value::Bool(_))
        | (ParamType::Str, Value::Str(_))
        | (ParamType::List, Value::List(_))
        | (ParamType::Set, Value::Set(_))
        | (ParamType::Map, Value::Map(_)) => Ok(value),
        (ParamType::Grid(_) | ParamType::Ints, Value::Str(s)) => parse_text(s, ty),
        (ParamType::Grid(dims), Value::List(rows)) => {
            let text: Option<Vec<&str>> = rows.iter().map(Value::as_str).collect();
            let Some(text) = text else {
                return Err(wrong(&value));
            };
            if dims.is_none() {
                return Ok(value);
            }
            parse_text(&text.join("\n"), ty)
        }
        (ParamType::Ints, Value::List(xs)) if xs.iter().all(|x| x.as_int().is_some()) => Ok(value),
        _ => Err(wrong(&value)),
    }
}

fn described(ty: &ParamType) -> String {
    match ty {
        ParamType::Int => "an integer".into(),
        ParamType::Bool => "a boolean".into(),
        ParamType::Str => "a string".into(),
        ParamType::List => "a list".into(),
        ParamType::Set => "a set".into(),
        ParamType::Map => "a map".into(),
        ParamType::Grid(None) => "a grid (rows of characters)".into(),
        ParamType::Grid(Some((r, c))) => format!("a grid of {r} rows and {c} columns"),
        ParamType::Ints => "a list of integers".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_records_are_long_lines_or_row_blocks() {
        let ty = ParamType::Grid(Some((2, 2)));
        let recs = split_records("# c\n12.4\n\nab\ncd\n", &ty).unwrap();
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[0].text, "12.4");
        assert_eq!(recs[1].text, "ab\ncd");
        assert_eq!(recs[1].line, 4);
        let v = parse_text(&recs[0].text, &ty).unwrap();
        assert_eq!(v.to_string(), "[\"12\", \".4\"]");
        let bad = split_records("abc\n", &ty).unwrap_err();
        assert_eq!(bad.0, 1);
        assert!(split_records("ab\n", &ty).is_err());
    }

    #[test]
    fn blocks_split_at_blank_lines() {
        let recs = split_records("1 2\n3\n\n\n4\n", &ParamType::Ints).unwrap();
        assert_eq!(recs.len(), 2);
        assert_eq!(
            parse_text(&recs[0].text, &ParamType::Ints)
                .unwrap()
                .to_string(),
            "[1, 2, 3]"
        );
        let e = parse_text("1 x", &ParamType::Ints).unwrap_err();
        assert_eq!(e.message, "expected an integer, found `x`");
    }

    #[test]
    fn string_defaults_conform_to_grids() {
        let v = conform(Value::str(".A\nBC"), &ParamType::Grid(None)).unwrap();
        assert_eq!(v.len(), Some(2));
        assert!(conform(Value::Int(3), &ParamType::Str).is_err());
        assert!(conform(Value::str("ab\nc"), &ParamType::Grid(Some((2, 2)))).is_err());
    }
}
