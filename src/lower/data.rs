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
//! starting with `#` are comments everywhere. The file is read one line at a time
//! ([`Splitter`]), so records stream through in the memory of one record.

use std::ops::Range;

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

/// What is wrong with a record or value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeError {
    /// The bytes of the text that are wrong, if one place is to blame.
    pub at: Option<Range<usize>>,
    /// What was expected and found.
    pub message: String,
}

/// One record of a data file, with what is needed to place its errors in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// 0-based index of the record in the file (failed records count).
    pub index: usize,
    /// The record's rows, cleaned (comments dropped, blanks trimmed), joined by `\n`.
    pub text: String,
    /// 1-based line number of its first line.
    pub line: usize,
    /// The file's lines from the first of the record to its last, as they are
    /// (comment and blank lines included, line ends dropped), joined by `\n`.
    pub raw: String,
    /// For each row of `text`: where it starts in `text` and in `raw`. Every row is a
    /// slice of one line of `raw`, so a byte of `text` maps to exactly one of `raw`.
    rows: Vec<(usize, usize)>,
    /// How many lines `raw` holds.
    lines: usize,
}

impl Record {
    /// The bytes of `raw` that hold the bytes `at` of `text`.
    fn raw_range(&self, at: &Range<usize>) -> Range<usize> {
        let k = self
            .rows
            .partition_point(|&(t, _)| t <= at.start)
            .saturating_sub(1);
        let Some(&(t, r)) = self.rows.get(k) else {
            return 0..0;
        };
        let start = r + (at.start - t);
        start..start + (at.end - at.start)
    }

    /// Converts the record to a value of `ty`, or says where in the file it is wrong.
    pub fn parse(&self, ty: &ParamType) -> Result<Value, BadRecord> {
        parse_text(&self.text, ty).map_err(|e| {
            let at = match e.at {
                Some(at) => self.raw_range(&at),
                // The whole record: from its first row to the end of its last.
                None => {
                    let start = self.rows.first().map_or(0, |&(_, r)| r);
                    start..self.raw.len()
                }
            };
            BadRecord::new(self.index, self.line, &self.raw, at, e.message)
        })
    }
}

/// Why a record of a data file cannot be read: the diagnostic code, the message, and
/// the lines of the file to show with the bytes to blame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRecord {
    /// `E0605` (wrong shape) or `E0901` (not UTF-8).
    pub code: &'static str,
    /// 0-based index of the record in the file.
    pub index: usize,
    /// 1-based line number of the first line of `raw`.
    pub first_line: usize,
    /// The lines of the file around the error (line ends dropped), joined by `\n`.
    pub raw: String,
    /// The bytes of `raw` to blame.
    pub at: Range<usize>,
    /// 1-based line number of the first byte to blame.
    pub line: usize,
    /// What was expected and found.
    pub message: String,
}

impl BadRecord {
    fn new(
        index: usize,
        first_line: usize,
        raw: &str,
        at: Range<usize>,
        message: String,
    ) -> BadRecord {
        let start = at.start.min(raw.len());
        let line = first_line
            + raw.as_bytes()[..start]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
        BadRecord {
            code: "E0605",
            index,
            first_line,
            raw: raw.to_string(),
            at: start..at.end.clamp(start, raw.len()),
            line,
            message,
        }
    }
}

/// Splits a data file into records for a parameter of type `ty`, one line at a time,
/// so a file of any length is read in the memory of one record.
///
/// A record that cannot be read is returned as a [`BadRecord`] and the splitting goes
/// on with the next line, so one bad record does not stop the others.
#[derive(Clone, Debug)]
pub struct Splitter {
    ty: ParamType,
    /// The record being gathered, for types whose records span several lines.
    current: Option<Record>,
    /// A line of `current` that is not UTF-8: its place in `raw` and its first bad byte.
    invalid: Option<(Range<usize>, u8)>,
    /// Index of the next record.
    next: usize,
}

impl Splitter {
    /// A splitter for records of type `ty` (one of [`ParamType::is_record_type`]).
    pub fn new(ty: ParamType) -> Splitter {
        Splitter {
            ty,
            current: None,
            invalid: None,
            next: 0,
        }
    }

    /// How many records (good or bad) have been returned or begun.
    pub fn records(&self) -> usize {
        self.next
    }

    fn start(&mut self, line: usize) -> Record {
        let index = self.next;
        self.next += 1;
        Record {
            index,
            text: String::new(),
            line,
            raw: String::new(),
            rows: Vec::new(),
            lines: 0,
        }
    }

    /// Appends a line to the raw text of `rec` and returns where it starts there.
    fn push_raw(rec: &mut Record, line: &str) -> usize {
        if rec.lines > 0 {
            rec.raw.push('\n');
        }
        rec.lines += 1;
        let at = rec.raw.len();
        rec.raw.push_str(line);
        at
    }

    /// Appends a row (a slice of the line just pushed) to `rec`.
    fn push_row(rec: &mut Record, raw_at: usize, line: &str, row: &str) {
        if !rec.rows.is_empty() {
            rec.text.push('\n');
        }
        let offset = offset_in(line, row);
        rec.rows.push((rec.text.len(), raw_at + offset));
        rec.text.push_str(row);
    }

    /// Feeds the next line of the file (1-based number `no`, without its line end).
    /// Returns a record when this line completes one.
    pub fn push(&mut self, no: usize, line: &str) -> Option<Result<Record, BadRecord>> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let trimmed = line.trim();
        if trimmed.starts_with('#') {
            if let Some(rec) = &mut self.current {
                Self::push_raw(rec, line);
            }
            return None;
        }
        match self.ty {
            ParamType::Grid(Some((r, c))) => {
                if trimmed.is_empty() {
                    if let Some(rec) = &mut self.current {
                        Self::push_raw(rec, line);
                    }
                    return None;
                }
                let len = trimmed.chars().count();
                if self.current.is_none() && len == r * c && r > 1 {
                    let mut rec = self.start(no);
                    Self::push_raw(&mut rec, line);
                    Self::push_row(&mut rec, 0, line, trimmed);
                    return Some(self.finish_record(rec));
                }
                let partial = self.current.is_some();
                let mut rec = match self.current.take() {
                    Some(rec) => rec,
                    None => self.start(no),
                };
                let at = Self::push_raw(&mut rec, line);
                if len != c {
                    let message = if partial {
                        format!("expected a row of {c} characters, found {len}")
                    } else {
                        format!(
                            "expected a row of {c} characters or a line of {} characters, found {len}",
                            r * c
                        )
                    };
                    self.invalid = None;
                    let start = at + offset_in(line, trimmed);
                    return Some(Err(BadRecord::new(
                        rec.index,
                        rec.line,
                        &rec.raw,
                        start..start + trimmed.len(),
                        message,
                    )));
                }
                Self::push_row(&mut rec, at, line, trimmed);
                if rec.rows.len() == r {
                    return Some(self.finish_record(rec));
                }
                self.current = Some(rec);
                None
            }
            ParamType::Grid(None) | ParamType::Ints => {
                if trimmed.is_empty() {
                    let rec = self.current.take()?;
                    return Some(self.finish_record(rec));
                }
                let mut rec = match self.current.take() {
                    Some(rec) => rec,
                    None => self.start(no),
                };
                let at = Self::push_raw(&mut rec, line);
                Self::push_row(&mut rec, at, line, line.trim_end());
                self.current = Some(rec);
                None
            }
            _ => {
                if trimmed.is_empty() {
                    return None;
                }
                let mut rec = self.start(no);
                Self::push_raw(&mut rec, line);
                Self::push_row(&mut rec, 0, line, trimmed);
                Some(self.finish_record(rec))
            }
        }
    }

    /// Feeds a line that is not UTF-8, shown with its bad bytes replaced (`line`), whose
    /// first bad byte is `byte` at byte `at` of `line`. The record it belongs to fails.
    pub fn push_invalid(
        &mut self,
        no: usize,
        line: &str,
        at: usize,
        byte: u8,
    ) -> Option<Result<Record, BadRecord>> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let blocks = matches!(self.ty, ParamType::Grid(None) | ParamType::Ints);
        let mut rec = match self.current.take() {
            Some(rec) => rec,
            None => self.start(no),
        };
        let start = Self::push_raw(&mut rec, line);
        let bad = start + at.min(line.len())..start + line.len();
        if blocks {
            // The record goes on to its blank line; it fails when it ends.
            if self.invalid.is_none() {
                self.invalid = Some((bad, byte));
            }
            self.current = Some(rec);
            return None;
        }
        self.invalid = Some((bad, byte));
        Some(self.finish_record(rec))
    }

    /// Ends a record: the record, or why it fails if a line of it is not UTF-8.
    fn finish_record(&mut self, rec: Record) -> Result<Record, BadRecord> {
        match self.invalid.take() {
            None => Ok(rec),
            Some((at, byte)) => {
                let at = at.start..(at.start + 3).min(at.end).max(at.start);
                let mut bad = BadRecord::new(
                    rec.index,
                    rec.line,
                    &rec.raw,
                    at,
                    format!("byte 0x{byte:02X} is not UTF-8"),
                );
                bad.code = "E0901";
                Err(bad)
            }
        }
    }

    /// Ends the file: the record in progress, if any.
    pub fn finish(&mut self) -> Option<Result<Record, BadRecord>> {
        let rec = self.current.take()?;
        if let ParamType::Grid(Some((r, _))) = self.ty {
            let found = rec.rows.len();
            let at = rec.rows.first().map_or(0, |&(_, raw)| raw)..rec.raw.len();
            self.invalid = None;
            return Some(Err(BadRecord::new(
                rec.index,
                rec.line,
                &rec.raw,
                at,
                format!(
                    "the file ends in the middle of the record: expected {r} rows, found {found}"
                ),
            )));
        }
        Some(self.finish_record(rec))
    }
}

/// Where `part` (a slice of `whole`) starts in `whole`.
fn offset_in(whole: &str, part: &str) -> usize {
    part.as_ptr() as usize - whole.as_ptr() as usize
}

/// The byte range of `part` (a slice of `whole`) in `whole`.
fn range_in(whole: &str, part: &str) -> Range<usize> {
    let start = offset_in(whole, part);
    start..start + part.len()
}

/// Converts the text of a record (or a string given for a typed param) to a value.
pub fn parse_text(text: &str, ty: &ParamType) -> Result<Value, ShapeError> {
    let err = |at: Option<Range<usize>>, message: String| ShapeError { at, message };
    match ty {
        ParamType::Str => Ok(Value::str(text)),
        ParamType::Int => text.trim().parse::<i64>().map(Value::Int).map_err(|_| {
            err(
                Some(range_in(text, text.trim())),
                format!("expected an integer, found `{}`", text.trim()),
            )
        }),
        ParamType::Bool => match text.trim() {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            other => Err(err(
                Some(range_in(text, other)),
                format!("expected `true` or `false`, found `{other}`"),
            )),
        },
        ParamType::Ints => {
            let mut out = Vec::new();
            for word in text.split_whitespace() {
                let n = word.parse::<i64>().map_err(|_| {
                    err(
                        Some(range_in(text, word)),
                        format!("expected an integer, found `{word}`"),
                    )
                })?;
                out.push(Value::Int(n));
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
                    for l in &lines {
                        let row = l.trim();
                        let n = row.chars().count();
                        if n != *c {
                            return Err(err(
                                Some(range_in(text, row)),
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
        at: None,
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

    /// Every record of `text`, good or bad, as the splitter returns them.
    fn split(text: &str, ty: &ParamType) -> Vec<Result<Record, BadRecord>> {
        let mut sp = Splitter::new(ty.clone());
        let mut out: Vec<_> = text
            .split('\n')
            .enumerate()
            .filter_map(|(i, l)| sp.push(i + 1, l))
            .collect();
        out.extend(sp.finish());
        out
    }

    #[test]
    fn grid_records_are_long_lines_or_row_blocks() {
        let ty = ParamType::Grid(Some((2, 2)));
        let recs = split("# c\n12.4\n\nab\n# inside\ncd\n", &ty);
        let recs: Vec<Record> = recs.into_iter().map(Result::unwrap).collect();
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[0].text, "12.4");
        assert_eq!(recs[1].text, "ab\ncd");
        assert_eq!((recs[1].line, recs[1].index), (4, 1));
        assert_eq!(recs[1].raw, "ab\n# inside\ncd");
        let v = recs[0].parse(&ty).unwrap();
        assert_eq!(v.to_string(), "[\"12\", \".4\"]");
        let bad = split("abc\nab\ncd\n", &ty);
        let e = bad[0].clone().unwrap_err();
        assert_eq!((e.line, e.index, e.at.clone()), (1, 0, 0..3));
        // The splitting goes on after a bad line.
        assert_eq!(bad[1].clone().unwrap().text, "ab\ncd");
        let e = split("ab\n", &ty)[0].clone().unwrap_err();
        assert!(e.message.contains("ends in the middle"), "{}", e.message);
    }

    #[test]
    fn blocks_split_at_blank_lines() {
        let recs = split("1 2\n3\n\n\n4\n", &ParamType::Ints);
        assert_eq!(recs.len(), 2);
        let r0 = recs[0].clone().unwrap();
        assert_eq!(r0.parse(&ParamType::Ints).unwrap().to_string(), "[1, 2, 3]");
        let e = parse_text("1 x", &ParamType::Ints).unwrap_err();
        assert_eq!(e.message, "expected an integer, found `x`");
        assert_eq!(e.at, Some(2..3));
    }

    /// The bytes an error blames, as the file shows them, and the line they are on.
    fn blamed(text: &str, ty: &ParamType) -> (String, usize) {
        let e = match split(text, ty).remove(0) {
            Ok(rec) => rec.parse(ty).unwrap_err(),
            Err(e) => e,
        };
        (e.raw[e.at.clone()].to_string(), e.line)
    }

    #[test]
    fn errors_point_at_the_real_line_and_column() {
        let ints = ParamType::Ints;
        // Comment lines inside the record do not shift the line.
        assert_eq!(blamed("1\n# c\n2\nx\n", &ints), ("x".into(), 4));
        assert_eq!(blamed("1\n#\u{e9}\n2\nx\n", &ints), ("x".into(), 4));
        // Multi-byte blanks and tabs before the word do not shift the column.
        assert_eq!(blamed("1\u{3000}\u{3000}\nx\n", &ints), ("x".into(), 2));
        assert_eq!(blamed("1\t2\t\u{e9}y 3\n", &ints), ("\u{e9}y".into(), 1));
        assert_eq!(
            blamed("# head\n\n  1 2\r\n\t 3 z\r\n", &ints),
            ("z".into(), 4)
        );
        assert_eq!(blamed("  12x  \n", &ParamType::Int), ("12x".into(), 1));
        let grid = ParamType::Grid(Some((2, 2)));
        assert_eq!(
            blamed("ab\n\n# c\n\u{e9}bc\n", &grid),
            ("\u{e9}bc".into(), 4)
        );
    }

    #[test]
    fn lines_that_are_not_utf8_fail_their_record_only() {
        let mut sp = Splitter::new(ParamType::Ints);
        assert!(sp.push(1, "1 2").is_none());
        assert!(sp.push_invalid(2, "3 \u{fffd}", 2, 0xe9).is_none());
        let e = sp.push(3, "").unwrap().unwrap_err();
        assert_eq!((e.code, e.line, e.index), ("E0901", 2, 0));
        assert_eq!(&e.raw[e.at.clone()], "\u{fffd}");
        assert!(sp.push(4, "5").is_none());
        assert_eq!(sp.finish().unwrap().unwrap().text, "5");
        assert_eq!(sp.records(), 2);
    }

    #[test]
    fn string_defaults_conform_to_grids() {
        let v = conform(Value::str(".A\nBC"), &ParamType::Grid(None)).unwrap();
        assert_eq!(v.len(), Some(2));
        assert!(conform(Value::Int(3), &ParamType::Str).is_err());
        assert!(conform(Value::str("ab\nc"), &ParamType::Grid(Some((2, 2)))).is_err());
    }
}
