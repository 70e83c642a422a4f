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
//! | `cells[R, C]` | a list of `R` rows, each a list of `C` strings | `R` lines of `C` space-separated cells   |
//! | `cells[K, R, C]` | a list of `K` such grids    | `K` grids of `R` lines, one after another        |
//!
//! A data file is split into records by the type of the data parameter: `grid[R, C]`
//! records are one long line or `R` short lines; `grid` and `ints` records are blocks
//! of lines separated by blank lines; `str` and `int` records are single lines. Lines
//! starting with `#` are comments everywhere. The file is read one line at a time
//! ([`Splitter`]), so records stream through in the memory of one record.
//!
//! `cells` records are the layout of puzzle collections that write a cell as a word
//! (`15`, `-`): each grid may be preceded by a size line `R C`, and a file may cut
//! itself into named records with header lines `=== NAME notes...`. In such a file a
//! record runs from its header to the next one, and a line `--- WORD ...` starts a
//! section the record does not read (a published solution), skipped up to the next
//! header.

use std::ops::Range;

use crate::diag::Code;
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
    /// `cells[R, C]` (`grids` is `None`) or `cells[K, R, C]`: grids of space-separated
    /// cells.
    Cells {
        /// `K`, when the record holds a list of grids rather than one.
        grids: Option<usize>,
        /// `R`
        rows: usize,
        /// `C`
        cols: usize,
    },
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
            ParamType::Cells {
                grids: None,
                rows,
                cols,
            } => format!("cells[{rows}, {cols}]"),
            ParamType::Cells {
                grids: Some(k),
                rows,
                cols,
            } => format!("cells[{k}, {rows}, {cols}]"),
        }
    }

    /// For `cells` types: how many grids a record holds, and their rows and columns.
    fn cells_shape(&self) -> Option<(usize, usize, usize)> {
        match *self {
            ParamType::Cells { grids, rows, cols } => Some((grids.unwrap_or(1), rows, cols)),
            _ => None,
        }
    }

    /// Whether values of this type can come from a `--data` file.
    pub fn is_record_type(&self) -> bool {
        matches!(
            self,
            ParamType::Grid(_)
                | ParamType::Ints
                | ParamType::Str
                | ParamType::Int
                | ParamType::Cells { .. }
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
    /// The name its header gives it (`=== NAME`), if the file names its records.
    pub name: Option<String>,
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
                .named(self.name.as_deref())
        })
    }
}

/// Why a record of a data file cannot be read: the diagnostic code, the message, and
/// the lines of the file to show with the bytes to blame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRecord {
    /// `E0605` (wrong shape), `E0607` (a line too long) or `E0901` (not UTF-8).
    pub code: Code,
    /// 0-based index of the record in the file.
    pub index: usize,
    /// The record's name, when its header gives one (boxed: the error stays small).
    pub name: Option<Box<str>>,
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
            code: Code::E0605,
            index,
            name: None,
            first_line,
            raw: raw.to_string(),
            at: start..at.end.clamp(start, raw.len()),
            line,
            message,
        }
    }

    /// The same error, for the record named `name`.
    fn named(mut self, name: Option<&str>) -> BadRecord {
        self.name = name.map(Box::from);
        self
    }
}

/// The longest line a data file may have, in bytes: a record is read in the memory of
/// its lines, so an endless line (`--data -` fed without a line break) must end
/// somewhere. A line past it fails its record (E0607), and only its first bytes are
/// kept to show.
pub const MAX_LINE: usize = 1 << 20;

/// The bytes of a line past [`MAX_LINE`] a reader keeps to show in its diagnostic
/// ([`Splitter::push_too_long`]); the rest is counted, not kept.
pub const LONG_LINE_HEAD: usize = 64;

/// The help of E0607, a line past [`MAX_LINE`], wherever records are read.
pub const LONG_LINE_HELP: &str = "a line of a data file may have at most 1048576 bytes \
     (1 MiB); a record of larger grids needs its rows on lines of their own";

/// What makes a line of a record unreadable.
#[derive(Clone, Copy, Debug)]
enum Flaw {
    /// Not UTF-8: the first bad byte.
    NotUtf8(u8),
    /// Longer than [`MAX_LINE`]: its length in bytes.
    TooLong(usize),
}

/// A word of a record as a message shows it: a long one (a line of a million digits)
/// is cut, so that the message stays a line or two.
fn shown(word: &str) -> String {
    const MAX: usize = 40;
    match word.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}... ({} bytes)", &word[..at], word.len()),
        None => word.to_string(),
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
    /// A line of `current` that cannot be read: its place in `raw` and what is wrong.
    invalid: Option<(Range<usize>, Flaw)>,
    /// Index of the next record.
    next: usize,
    /// Whether the file names its records with `===` headers (`cells` records only):
    /// then a record ends at the next header, not after its last row.
    headered: bool,
    /// Whether the lines up to the next header are skipped: a `---` section, or the
    /// rest of a record that failed.
    skipping: bool,
}

impl Splitter {
    /// A splitter for records of type `ty` (one of [`ParamType::is_record_type`]).
    pub fn new(ty: ParamType) -> Splitter {
        Splitter {
            ty,
            current: None,
            invalid: None,
            next: 0,
            headered: false,
            skipping: false,
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
            name: None,
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
        if let Some((k, r, c)) = self.ty.cells_shape() {
            return self.push_cells(no, line, trimmed, (k, r, c));
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
        self.push_flawed(no, line, at, Flaw::NotUtf8(byte))
    }

    /// Feeds a line longer than [`MAX_LINE`], of `len` bytes, of which `head` is the
    /// beginning. The record it belongs to fails (E0607).
    pub fn push_too_long(
        &mut self,
        no: usize,
        head: &str,
        len: usize,
    ) -> Option<Result<Record, BadRecord>> {
        self.push_flawed(no, head, 0, Flaw::TooLong(len))
    }

    fn push_flawed(
        &mut self,
        no: usize,
        line: &str,
        at: usize,
        flaw: Flaw,
    ) -> Option<Result<Record, BadRecord>> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if self.skipping {
            // Inside a `---` section or the rest of a failed record: not read at all.
            return None;
        }
        let blocks = matches!(self.ty, ParamType::Grid(None) | ParamType::Ints);
        // The rest of a named record that fails here is skipped, up to the next header.
        self.skipping = self.headered;
        let mut rec = match self.current.take() {
            Some(rec) => rec,
            None => self.start(no),
        };
        let start = Self::push_raw(&mut rec, line);
        let bad = start + at.min(line.len())..start + line.len();
        if blocks {
            // The record goes on to its blank line; it fails when it ends.
            if self.invalid.is_none() {
                self.invalid = Some((bad, flaw));
            }
            self.current = Some(rec);
            return None;
        }
        self.invalid = Some((bad, flaw));
        Some(self.finish_record(rec))
    }

    /// Ends a record: the record, or why it fails if a line of it is not UTF-8.
    fn finish_record(&mut self, rec: Record) -> Result<Record, BadRecord> {
        match self.invalid.take() {
            None => Ok(rec),
            Some((at, flaw)) => {
                let at = at.start..(at.start + 3).min(at.end).max(at.start);
                let (code, message) = match flaw {
                    Flaw::NotUtf8(byte) => (Code::E0901, format!("byte 0x{byte:02X} is not UTF-8")),
                    Flaw::TooLong(len) => (
                        Code::E0607,
                        format!(
                            "a line of {len} bytes, longer than the {MAX_LINE} a line may have"
                        ),
                    ),
                };
                let mut bad = BadRecord::new(rec.index, rec.line, &rec.raw, at, message);
                bad.code = code;
                Err(bad)
            }
        }
    }

    /// Ends the file: the record in progress, if any.
    pub fn finish(&mut self) -> Option<Result<Record, BadRecord>> {
        let rec = self.current.take()?;
        if let Some((k, r, _)) = self.ty.cells_shape() {
            return Some(self.close_cells(rec, k * r, None));
        }
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

impl Splitter {
    /// [`Splitter::push`] for `cells` records: `shape` is (grids, rows, columns).
    fn push_cells(
        &mut self,
        no: usize,
        line: &str,
        trimmed: &str,
        (k, r, c): (usize, usize, usize),
    ) -> Option<Result<Record, BadRecord>> {
        let total = k * r;
        if let Some(rest) = trimmed.strip_prefix("===") {
            // A header ends the record before it and starts its own. A header without
            // a name still separates records.
            self.headered = true;
            self.skipping = false;
            let done = self
                .current
                .take()
                .map(|rec| self.close_cells(rec, total, Some((line, "the next record starts"))));
            let mut rec = self.start(no);
            Self::push_raw(&mut rec, line);
            rec.name = rest.split_whitespace().next().map(str::to_string);
            self.current = Some(rec);
            return done;
        }
        if self.headered && trimmed.starts_with("---") {
            // A section the record does not read: it ends the record's own lines.
            self.skipping = true;
            return self
                .current
                .take()
                .map(|rec| self.close_cells(rec, total, Some((line, "its `---` section starts"))));
        }
        if self.skipping {
            return None;
        }
        if trimmed.is_empty() {
            if let Some(rec) = &mut self.current {
                Self::push_raw(rec, line);
            }
            return None;
        }
        let mut rec = match self.current.take() {
            Some(rec) => rec,
            None => self.start(no),
        };
        let at = Self::push_raw(&mut rec, line);
        let start = at + offset_in(line, trimmed);
        let blame = start..start + trimmed.len();
        let filled = rec.rows.len();
        let size = if filled % r == 0 && filled < total {
            size_line(trimmed, c)
        } else {
            None
        };
        let message = match size {
            Some(dims) if dims == (r, c) => {
                // The size line of the next grid: it says what we know already.
                self.current = Some(rec);
                return None;
            }
            Some((a, b)) => format!(
                "the size line says {a} rows of {b} cells, but `{}` has grids of {r} rows of {c} cells",
                self.ty.written()
            ),
            None if filled == total => format!(
                "the record has more than its {total} rows ({})",
                grids_described(k, r, c)
            ),
            None => {
                let n = trimmed.split_whitespace().count();
                if n == c {
                    Self::push_row(&mut rec, at, line, trimmed);
                    if !self.headered && rec.rows.len() == total {
                        return Some(self.finish_record(rec));
                    }
                    self.current = Some(rec);
                    return None;
                }
                format!("expected a row of {c} cells separated by spaces, found {n}")
            }
        };
        self.invalid = None;
        self.skipping = self.headered;
        Some(Err(BadRecord::new(
            rec.index, rec.line, &rec.raw, blame, message,
        )
        .named(rec.name.as_deref())))
    }

    /// Ends a `cells` record of `total` rows at the end of the file (`end` is `None`)
    /// or at a line that ends it and why (the next record starts): the record, or why
    /// it is short, blaming the line that ended it or the whole record.
    fn close_cells(
        &mut self,
        mut rec: Record,
        total: usize,
        end: Option<(&str, &str)>,
    ) -> Result<Record, BadRecord> {
        let found = rec.rows.len();
        if found == total {
            return self.finish_record(rec);
        }
        let (k, r, c) = self.ty.cells_shape().unwrap_or((1, total, 0));
        let (at, why) = match end {
            Some((line, why)) => {
                let at = Self::push_raw(&mut rec, line);
                let trimmed = line.trim();
                let start = at + offset_in(line, trimmed);
                (start..start + trimmed.len(), why)
            }
            None => (
                rec.rows.first().map_or(0, |&(_, raw)| raw)..rec.raw.len(),
                "the file ends",
            ),
        };
        self.invalid = None;
        Err(BadRecord::new(
            rec.index,
            rec.line,
            &rec.raw,
            at,
            format!(
                "{why} in the middle of the record: expected {total} rows ({}), found {found}",
                grids_described(k, r, c)
            ),
        )
        .named(rec.name.as_deref()))
    }
}

/// "2 grids of 9 rows of 9 cells", for messages.
fn grids_described(k: usize, r: usize, c: usize) -> String {
    match k {
        1 => format!("a grid of {r} rows of {c} cells"),
        k => format!("{k} grids of {r} rows of {c} cells"),
    }
}

/// The rows and columns a size line `R C` gives, when `line` is one. In a grid of two
/// columns such a line is a row, not a size line.
fn size_line(line: &str, cols: usize) -> Option<(usize, usize)> {
    if cols == 2 {
        return None;
    }
    let mut words = line.split_whitespace();
    let r = words.next()?.parse().ok()?;
    let c = words.next()?.parse().ok()?;
    words.next().is_none().then_some((r, c))
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
                format!("expected an integer, found `{}`", shown(text.trim())),
            )
        }),
        ParamType::Bool => match text.trim() {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            other => Err(err(
                Some(range_in(text, other)),
                format!("expected `true` or `false`, found `{}`", shown(other)),
            )),
        },
        ParamType::Ints => {
            let mut out = Vec::new();
            for word in text.split_whitespace() {
                let n = word.parse::<i64>().map_err(|_| {
                    err(
                        Some(range_in(text, word)),
                        format!("expected an integer, found `{}`", shown(word)),
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
                    // One line holding the whole grid: cut it every `c` characters
                    // (bytes, when they are ASCII: the usual puzzle collection).
                    let line = lines[0];
                    if line.is_ascii() {
                        let rows = (0..*r).map(|i| Value::str(&line[i * c..(i + 1) * c]));
                        return Ok(Value::list(rows.collect()));
                    }
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
        ParamType::Cells { grids, rows, cols } => parse_cells(text, *grids, *rows, *cols),
        ParamType::List | ParamType::Set | ParamType::Map => Err(err(
            None,
            format!(
                "a `{}` cannot be read from text; give it as a literal, as in `-p name=[1, 2]`",
                ty.written()
            ),
        )),
    }
}

/// Reads `cells` text: grids of `rows` lines of `cols` space-separated cells, each grid
/// perhaps after its size line; `grids` of them, or one when `grids` is `None`.
fn parse_cells(
    text: &str,
    grids: Option<usize>,
    rows: usize,
    cols: usize,
) -> Result<Value, ShapeError> {
    let k = grids.unwrap_or(1);
    let mut out: Vec<Value> = Vec::with_capacity(k);
    let mut grid: Vec<Value> = Vec::with_capacity(rows);
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let at = Some(range_in(text, line));
        if out.len() == k {
            return Err(ShapeError {
                at,
                message: format!(
                    "the record has more than its {} rows ({})",
                    k * rows,
                    grids_described(k, rows, cols)
                ),
            });
        }
        if grid.is_empty()
            && let Some((a, b)) = size_line(line, cols)
        {
            if (a, b) != (rows, cols) {
                return Err(ShapeError {
                    at,
                    message: format!(
                        "the size line says {a} rows of {b} cells, but the grids have {rows} rows of {cols} cells"
                    ),
                });
            }
            continue;
        }
        let cells: Vec<Value> = line.split_whitespace().map(Value::str).collect();
        if cells.len() != cols {
            return Err(ShapeError {
                at,
                message: format!(
                    "expected a row of {cols} cells separated by spaces, found {}",
                    cells.len()
                ),
            });
        }
        grid.push(Value::list(cells));
        if grid.len() == rows {
            out.push(Value::list(std::mem::take(&mut grid)));
        }
    }
    if out.len() < k {
        let found = out.len() * rows + grid.len();
        return Err(ShapeError {
            at: None,
            message: format!(
                "expected {} rows ({}), found {found}",
                k * rows,
                grids_described(k, rows, cols)
            ),
        });
    }
    Ok(match grids {
        Some(_) => Value::list(out),
        None => out.pop().unwrap_or_else(|| Value::list(Vec::new())),
    })
}

/// Whether `v` is a grid of `rows` lists of `cols` strings.
fn is_cell_grid(v: &Value, rows: usize, cols: usize) -> bool {
    let Value::List(rs) = v else { return false };
    rs.len() == rows
        && rs.iter().all(|row| match row {
            Value::List(cs) => cs.len() == cols && cs.iter().all(|c| c.as_str().is_some()),
            _ => false,
        })
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
        (ParamType::Grid(_) | ParamType::Ints | ParamType::Cells { .. }, Value::Str(s)) => {
            parse_text(s, ty)
        }
        (ParamType::Cells { grids, rows, cols }, Value::List(gs)) => {
            let fits = match grids {
                None => is_cell_grid(&value, *rows, *cols),
                Some(k) => gs.len() == *k && gs.iter().all(|g| is_cell_grid(g, *rows, *cols)),
            };
            if fits { Ok(value) } else { Err(wrong(&value)) }
        }
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
        ParamType::Cells { grids, rows, cols } => {
            let one = format!("a grid of {rows} rows of {cols} cells (lists of strings)");
            match grids {
                None => one,
                Some(k) => format!("a list of {k} grids of {rows} rows of {cols} cells"),
            }
        }
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
        assert_eq!((e.code, e.line, e.index), (Code::E0901, 2, 0));
        assert_eq!(&e.raw[e.at.clone()], "\u{fffd}");
        assert!(sp.push(4, "5").is_none());
        assert_eq!(sp.finish().unwrap().unwrap().text, "5");
        assert_eq!(sp.records(), 2);
    }

    #[test]
    fn cells_records_read_named_sections_and_size_lines() {
        let ty = ParamType::Cells {
            grids: Some(2),
            rows: 2,
            cols: 3,
        };
        let text = "# head\n=== a_1 notes=1\n2 3\n1 - 10\n- 2 -\nx x y\nx y y\n--- solution\n2 3\n1 2 3\n=== b\n\n1 2 3\n4 5 6\n2 3\na a a\nb b b\n";
        let recs: Vec<Record> = split(text, &ty).into_iter().map(Result::unwrap).collect();
        assert_eq!(recs.len(), 2);
        assert_eq!((recs[0].name.as_deref(), recs[0].line), (Some("a_1"), 2));
        assert_eq!(recs[1].name.as_deref(), Some("b"));
        let v = recs[0].parse(&ty).unwrap();
        assert_eq!(
            v.to_string(),
            r#"[[["1", "-", "10"], ["-", "2", "-"]], [["x", "x", "y"], ["x", "y", "y"]]]"#
        );
        // Without headers a record ends after its last row.
        let one = ParamType::Cells {
            grids: None,
            rows: 2,
            cols: 2,
        };
        let recs = split("a b\nc d\n\ne f\ng h\n", &one);
        assert_eq!(recs.len(), 2);
        let v = recs[1].clone().unwrap().parse(&one).unwrap();
        assert_eq!(v.to_string(), r#"[["e", "f"], ["g", "h"]]"#);
    }

    #[test]
    fn bad_cells_records_blame_their_line_and_keep_their_name() {
        let ty = ParamType::Cells {
            grids: None,
            rows: 2,
            cols: 3,
        };
        let (word, line) = blamed("=== a\n3 3\n1 2 3\n", &ty);
        assert_eq!((word.as_str(), line), ("3 3", 2));
        let e = split("=== a\n1 x\n=== b\n1 2 3\n4 5 6\n", &ty);
        let bad = e[0].clone().unwrap_err();
        assert_eq!((bad.name.as_deref(), bad.line), (Some("a"), 2));
        assert!(bad.message.contains("found 2"), "{}", bad.message);
        // The failed record's other lines are skipped; the next record is read.
        assert_eq!(e[1].clone().unwrap().name.as_deref(), Some("b"));
        let short = split("=== a\n1 2 3\n--- x\n", &ty)[0].clone().unwrap_err();
        assert_eq!((&short.raw[short.at.clone()], short.line), ("--- x", 3));
        let end = split("=== a\n1 2 3\n", &ty)[0].clone().unwrap_err();
        assert!(end.message.starts_with("the file ends"), "{}", end.message);
        let long = split("=== a\n1 2 3\n1 2 3\n1 2 3\n", &ty)[0]
            .clone()
            .unwrap_err();
        assert_eq!(long.line, 4);
        // A default written as text: size lines are read there too.
        let v = parse_text("2 3\n1 2 3\n4 5 6", &ty).unwrap();
        assert_eq!(v.len(), Some(2));
        assert!(parse_text("1 2 3", &ty).is_err());
        assert!(conform(v, &ty).is_ok());
    }

    #[test]
    fn bytes_that_are_not_utf8_in_a_skipped_section_are_not_a_record() {
        let ty = ParamType::Cells {
            grids: None,
            rows: 1,
            cols: 2,
        };
        let mut sp = Splitter::new(ty);
        assert!(sp.push(1, "=== a").is_none());
        assert!(sp.push(2, "1 2").is_none());
        assert_eq!(sp.push(3, "--- solution").unwrap().unwrap().text, "1 2");
        assert!(sp.push_invalid(4, "\u{fffd} 2", 0, 0xff).is_none());
        assert!(sp.push(5, "=== b").is_none());
        assert!(sp.push_invalid(6, "\u{fffd} 2", 0, 0xff).unwrap().is_err());
        assert!(sp.finish().is_none());
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
