//! Reading a `--data` file (or standard input) one record at a time.
//!
//! A thread reads the file in blocks and hands them over a bounded channel, so memory
//! stays that of a few blocks and one record however long the file is. The main thread
//! cuts the blocks into lines and the lines into records ([`Splitter`]); it never blocks
//! on the file itself, so Ctrl-C is noticed while it waits for input, and before it
//! waits it flushes the answers printed so far: a program that writes one record into
//! `dlxc run --data -` and waits for the answer gets it.

use std::fmt;
use std::io::{self, Read};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::time::Duration;

use miette::{Diagnostic, LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan};

use crate::cli::Out;
use crate::diag::Code;
use crate::lower::data::{
    BadRecord, LONG_LINE_HEAD as HEAD, LONG_LINE_HELP, MAX_LINE, ParamType, Record, Splitter,
};

/// Bytes read from the file at a time.
const BLOCK: usize = 1 << 16;

/// How often a wait for input looks at the interrupt flag.
const POLL: Duration = Duration::from_millis(50);

/// What the next call to [`DataFile::next`] found.
pub(crate) enum Next {
    /// A record, read and cut, ready to be parsed.
    Record(Record),
    /// A record that cannot be read.
    Bad(BadRecord),
    /// The end of the file.
    End,
    /// Ctrl-C while waiting for input.
    Interrupted,
    /// The file could not be read further.
    Failed(io::Error),
}

/// The records of a data file, in order.
pub(crate) struct DataFile {
    /// The name to show: the path, or `<stdin>`.
    pub name: String,
    blocks: Receiver<io::Result<Vec<u8>>>,
    block: Vec<u8>,
    pos: usize,
    /// The line being gathered, when it spans blocks.
    line: Vec<u8>,
    /// The length of the line being read when it is longer than [`MAX_LINE`]: then
    /// `line` holds only its first [`HEAD`] bytes, and the rest is counted, not kept.
    long: Option<usize>,
    /// Number of the last line read (1-based).
    line_no: usize,
    ended: bool,
    splitter: Splitter,
}

impl DataFile {
    /// Opens `path` (`-` for standard input) for records of type `ty`.
    pub fn open(path: &Path, ty: &ParamType) -> io::Result<DataFile> {
        let (name, reader): (String, Box<dyn Read + Send>) = if path == Path::new("-") {
            ("<stdin>".into(), Box::new(io::stdin()))
        } else {
            (
                path.display().to_string(),
                Box::new(std::fs::File::open(path)?),
            )
        };
        // Two blocks in flight: enough to keep the reader ahead, little memory.
        let (tx, rx) = mpsc::sync_channel(2);
        std::thread::Builder::new()
            .name("dlxc-data".into())
            .spawn(move || read_blocks(reader, &tx))?;
        Ok(DataFile {
            name,
            blocks: rx,
            block: Vec::new(),
            pos: 0,
            line: Vec::new(),
            long: None,
            line_no: 0,
            ended: false,
            splitter: Splitter::new(ty.clone()),
        })
    }

    /// How many records were returned (good or bad) or begun.
    pub fn records(&self) -> usize {
        self.splitter.records()
    }

    /// Number of the last line read.
    pub fn line(&self) -> usize {
        self.line_no
    }

    /// The next record. Before waiting for input it flushes `o`.
    pub fn next(&mut self, o: &mut Out<'_>) -> Next {
        loop {
            if self.ended {
                return match self.splitter.finish() {
                    Some(Ok(r)) => Next::Record(r),
                    Some(Err(b)) => Next::Bad(b),
                    None => Next::End,
                };
            }
            let found = match self.next_line(o) {
                Ok(true) => {
                    self.line_no += 1;
                    match (self.long, std::str::from_utf8(&self.line)) {
                        (Some(len), _) => {
                            // Cut at a byte, perhaps inside a character: shown, not read.
                            let head = String::from_utf8_lossy(&self.line);
                            self.splitter.push_too_long(self.line_no, &head, len)
                        }
                        (None, Ok(text)) => self.splitter.push(self.line_no, text),
                        (None, Err(e)) => {
                            let at = e.valid_up_to();
                            let byte = self.line[at];
                            let shown = String::from_utf8_lossy(&self.line).into_owned();
                            self.splitter.push_invalid(self.line_no, &shown, at, byte)
                        }
                    }
                }
                Ok(false) => {
                    self.ended = true;
                    None
                }
                Err(Stop::Interrupted) => return Next::Interrupted,
                Err(Stop::Failed(e)) => return Next::Failed(e),
            };
            match found {
                Some(Ok(r)) => return Next::Record(r),
                Some(Err(b)) => return Next::Bad(b),
                None => {}
            }
        }
    }

    /// Reads the next line into `self.line` (without its `\n`); `false` at the end.
    /// A line longer than [`MAX_LINE`] is kept only by its beginning and its length
    /// ([`DataFile::long`]): memory stays bounded however long it is.
    fn next_line(&mut self, o: &mut Out<'_>) -> Result<bool, Stop> {
        self.line.clear();
        self.long = None;
        loop {
            let rest = &self.block[self.pos..];
            let end = rest.iter().position(|&b| b == b'\n');
            let part = &rest[..end.unwrap_or(rest.len())];
            match &mut self.long {
                Some(len) => *len += part.len(),
                None if self.line.len() + part.len() > MAX_LINE => {
                    let len = self.line.len() + part.len();
                    let more = HEAD.saturating_sub(self.line.len()).min(part.len());
                    self.line.extend_from_slice(&part[..more]);
                    self.line.truncate(HEAD);
                    self.long = Some(len);
                }
                None => self.line.extend_from_slice(part),
            }
            self.pos += part.len();
            if end.is_some() {
                self.pos += 1;
                return Ok(true);
            }
            match self.next_block(o)? {
                Some(block) => {
                    self.block = block;
                    self.pos = 0;
                }
                // A last line without `\n` is still a line.
                None => return Ok(!self.line.is_empty() || self.long.is_some()),
            }
        }
    }

    /// The next block of the file, `None` at its end.
    fn next_block(&mut self, o: &mut Out<'_>) -> Result<Option<Vec<u8>>, Stop> {
        let got = match self.blocks.try_recv() {
            Ok(b) => Ok(b),
            Err(TryRecvError::Disconnected) => return Ok(None),
            Err(TryRecvError::Empty) => {
                // The answers so far go out before we wait for more input.
                o.flush();
                loop {
                    if super::interrupt_flag().load(Ordering::Relaxed) {
                        return Err(Stop::Interrupted);
                    }
                    match self.blocks.recv_timeout(POLL) {
                        Ok(b) => break Ok(b),
                        Err(RecvTimeoutError::Timeout) => {}
                        Err(RecvTimeoutError::Disconnected) => return Ok(None),
                    }
                }
            }
        };
        match got {
            Ok(Ok(block)) => Ok(Some(block)),
            Ok(Err(e)) | Err(e) => Err(Stop::Failed(e)),
        }
    }
}

/// Why lines stopped coming.
enum Stop {
    Interrupted,
    Failed(io::Error),
}

/// The reader thread: blocks of the file until its end, an error, or nobody listens.
fn read_blocks(mut reader: Box<dyn Read + Send>, tx: &mpsc::SyncSender<io::Result<Vec<u8>>>) {
    loop {
        let mut block = vec![0u8; BLOCK];
        let n = match reader.read(&mut block) {
            Ok(0) => return,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        };
        block.truncate(n);
        if tx.send(Ok(block)).is_err() {
            return;
        }
    }
}

/// A diagnostic about a record of a data file. The file is not kept in memory, so the
/// diagnostic carries the record's own lines and shows them at their real line numbers.
#[derive(Debug)]
pub(crate) struct RecordError {
    code: Code,
    message: String,
    label: &'static str,
    help: String,
    at: Range<usize>,
    src: Window,
}

impl RecordError {
    /// The diagnostic for a bad record of `file`; `help` says what a record looks like.
    pub fn new(file: &str, bad: BadRecord, help: String) -> RecordError {
        let (label, help) = match bad.code {
            Code::E0901 => ("not UTF-8", super::NOT_UTF8_HELP.to_string()),
            Code::E0607 => ("this line is too long", LONG_LINE_HELP.to_string()),
            _ => ("this record has the wrong shape", help),
        };
        RecordError {
            code: bad.code,
            message: match &bad.name {
                Some(name) => format!(
                    "{file}, line {}: record {} `{name}`: {}",
                    bad.line, bad.index, bad.message
                ),
                None => format!(
                    "{file}, line {}: record {}: {}",
                    bad.line, bad.index, bad.message
                ),
            },
            label,
            help,
            at: bad.at,
            src: Window {
                name: file.to_string(),
                text: bad.raw,
                first_line: bad.first_line,
            },
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RecordError {}

impl Diagnostic for RecordError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(format!("dlx::{}", self.code)))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(&self.help))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.src)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = SourceSpan::new(self.at.start.into(), self.at.len());
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(Some(self.label.to_string()), span),
        )))
    }
}

/// Some consecutive lines of a file, starting at line `first_line`: spans are offsets
/// into `text`, and miette is told the real line numbers.
#[derive(Debug)]
struct Window {
    name: String,
    text: String,
    first_line: usize,
}

impl SourceCode for Window {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, MietteError> {
        let inner = self
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line() + self.first_line - 1,
            inner.column(),
            inner.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::RenderStyle;

    #[test]
    fn lines_span_blocks_and_the_last_needs_no_line_end() {
        let long = "x".repeat(BLOCK * 2 + 17);
        let text = format!("# c\n{long}\r\n\nshort");
        let path = std::env::temp_dir().join(format!("dlxc-records-{}.txt", std::process::id()));
        std::fs::write(&path, &text).unwrap();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let mut o = Out::new(&mut out, &mut err, RenderStyle::GOLDEN);
        let mut file = DataFile::open(&path, &ParamType::Str).unwrap();
        let mut got = Vec::new();
        loop {
            match file.next(&mut o) {
                Next::Record(r) => got.push((r.index, r.line, r.text)),
                Next::End => break,
                _ => panic!("unexpected"),
            }
        }
        let _ = std::fs::remove_file(&path);
        assert_eq!(got, [(0, 2, long), (1, 4, "short".to_string())]);
        assert_eq!((file.records(), file.line()), (2, 4));
    }
}
