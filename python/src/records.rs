//! The records of a data file, each compiled into its own instance on a reader thread
//! (the lowerer holds values that cannot leave it), one record ahead of the reader.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use dlxc::diag::Code;
use dlxc::diag::report::Report;
use dlxc::lower::data::{BadRecord, LONG_LINE_HEAD, LONG_LINE_HELP, MAX_LINE, Splitter};
use dlxc::session::record_layout;
use pyo3::prelude::*;

use crate::core::{Core, Loaded, MatrixCache, NotMade, RecordText, Source, instance};
use crate::errors::Failure;
use crate::handle::Model;
use crate::search::wait_next;

/// What the reader thread sends for each record.
enum Rec {
    /// A record compiled, or why not (with its index and first line).
    Record(usize, usize, Result<Core, NotMade>),
    /// The model itself does not compile for records: nothing can be read.
    Fatal(Failure),
    /// The file could not be read further.
    Io(std::io::Error),
}

/// An iterator over the records of a data file: `(index, line, model, error,
/// unsolvable)` for each, `model` the record's instance or `error` why there is none.
#[pyclass(frozen, module = "dlxc")]
pub struct Records {
    rx: Mutex<Receiver<Rec>>,
    stop: AtomicBool,
}

impl Records {
    /// Starts reading `file` (shown as `name`) for the records of `source`.
    pub fn start(source: Arc<Source>, file: File, name: String) -> PyResult<Records> {
        let (tx, rx) = sync_channel(1);
        std::thread::Builder::new()
            .name("dlxc-records".into())
            .spawn(move || read(&source, file, &name, &tx))?;
        Ok(Records {
            rx: Mutex::new(rx),
            stop: AtomicBool::new(false),
        })
    }
}

/// The reader thread.
fn read(source: &Arc<Source>, file: File, name: &str, tx: &SyncSender<Rec>) {
    let loaded = match Loaded::new(source) {
        Ok(l) => l,
        Err(f) => {
            let _ = tx.send(Rec::Fatal(f));
            return;
        }
    };
    let (mut lowerer, warnings) = match loaded.lowerer(source, true) {
        Ok(l) => l,
        Err(f) => {
            let _ = tx.send(Rec::Fatal(f));
            return;
        }
    };
    // `with_data` makes the lowerer insist on exactly one data parameter.
    let Some((_, ty)) = lowerer.data_param().cloned() else {
        return;
    };
    let mut splitter = Splitter::new(ty.clone());
    let mut reader = BufReader::new(file);
    let mut cache = MatrixCache::default();
    let mut line = Vec::new();
    let mut line_no = 0;
    loop {
        let mut eof = false;
        let got = match read_line(&mut reader, &mut line) {
            Err(e) => {
                let _ = tx.send(Rec::Io(e));
                return;
            }
            Ok(None) => {
                eof = true;
                splitter.finish()
            }
            Ok(Some(len)) if len > MAX_LINE => {
                line_no += 1;
                // Cut at a byte, perhaps inside a character: shown, not read.
                line.truncate(LONG_LINE_HEAD);
                let head = String::from_utf8_lossy(&line);
                splitter.push_too_long(line_no, &head, len)
            }
            Ok(Some(_)) => {
                line_no += 1;
                match std::str::from_utf8(&line) {
                    Ok(text) => splitter.push(line_no, text),
                    Err(e) => {
                        let at = e.valid_up_to();
                        let shown = String::from_utf8_lossy(&line).into_owned();
                        splitter.push_invalid(line_no, &shown, at, line[at])
                    }
                }
            }
        };
        let msg = match got {
            None if eof => return,
            None => continue,
            Some(Ok(rec)) => {
                let text = RecordText {
                    index: rec.index,
                    line: rec.line,
                    text: rec.text,
                };
                let (index, line) = (text.index, text.line);
                let made = instance(
                    source,
                    &loaded,
                    &warnings,
                    &mut lowerer,
                    Some(text),
                    &mut cache,
                );
                Rec::Record(index, line, made)
            }
            Some(Err(bad)) => Rec::Record(
                bad.index,
                bad.first_line,
                Err(NotMade::from(bad_record(name, &bad, &record_layout(&ty)))),
            ),
        };
        if tx.send(msg).is_err() {
            return;
        }
    }
}

/// Reads the next line into `line`, without its `\n`, keeping at most [`MAX_LINE`]
/// bytes of it; returns its whole length, or `None` at the end of the file. A file
/// with an endless line (a pipe fed without line breaks) is read in bounded memory,
/// as `--data` reads it: `read_until` held the whole line.
fn read_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> std::io::Result<Option<usize>> {
    line.clear();
    let mut len = 0usize;
    let mut any = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            // A last line without `\n` is still a line.
            return Ok(any.then_some(len));
        }
        any = true;
        let end = buf.iter().position(|&b| b == b'\n');
        let part = &buf[..end.unwrap_or(buf.len())];
        let room = MAX_LINE.saturating_sub(line.len()).min(part.len());
        line.extend_from_slice(&part[..room]);
        len = len.saturating_add(part.len());
        let used = part.len() + usize::from(end.is_some());
        reader.consume(used);
        if end.is_some() {
            return Ok(Some(len));
        }
    }
}

/// The diagnostic of a record that cannot be read, with the command line's message
/// and help.
fn bad_record(name: &str, bad: &BadRecord, layout: &str) -> Failure {
    let help = match bad.code {
        Code::E0607 => LONG_LINE_HELP.to_string(),
        _ => format!("each record must be {layout}"),
    };
    Failure::one(
        Report::error(
            bad.code,
            format!(
                "{name}, line {}: record {}: {}",
                bad.line, bad.index, bad.message
            ),
        )
        .help(help),
    )
}

/// One record as Python gets it.
type Item = (usize, usize, Option<Model>, Option<Py<PyAny>>, bool);

#[pymethods]
impl Records {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Item>> {
        match wait_next(py, &self.rx, &self.stop)? {
            None => Ok(None),
            Some(Rec::Fatal(f)) => Err(f.into_err(py)),
            Some(Rec::Io(e)) => Err(e.into()),
            Some(Rec::Record(index, line, Ok(core))) => Ok(Some((
                index,
                line,
                Some(Model::from_core(Arc::new(core))),
                None,
                false,
            ))),
            Some(Rec::Record(index, line, Err(not))) => {
                let err = not.failure.into_err(py).into_value(py).into_any();
                Ok(Some((index, line, None, Some(err), not.unsolvable)))
            }
        }
    }
}
