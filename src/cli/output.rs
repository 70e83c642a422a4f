//! Where the CLI writes: results to one stream, diagnostics to the other.
//!
//! A closed pipe on the result stream (`dlxc run ... | head`) is not an error: the
//! writer notes it, further output is dropped, and the command ends as if it had
//! finished (ripgrep's habit). Any other write error (a full disk, `> /dev/full`) also
//! stops the output, but the command then fails with E0918 and exit 2: an empty or cut
//! result must not look like a job that succeeded.

use std::io::{self, Write};

use crate::cli::picture::Pictures;
use crate::diag::RenderStyle;
use crate::instance::Compiled;
use crate::problem::OptionId;

/// The two output streams of a command.
pub struct Out<'a> {
    out: io::BufWriter<&'a mut dyn Write>,
    err: &'a mut dyn Write,
    style: RenderStyle,
    broken: bool,
    /// The write error that stopped the output, when it was not a closed pipe.
    failed: Option<String>,
    /// The SVG pictures of the solutions shown, when asked for: written beside the
    /// text, so every place that prints a solution draws it too.
    pictures: Option<Pictures>,
    /// The options forced in the instance being shown: its clues, drawn apart.
    clues: Vec<OptionId>,
    /// A buffer lent to whoever builds a solution's text, kept between solutions.
    scratch: String,
    /// Diagnostics go to the result stream as JSON Lines (`dlxc check --json`).
    json_diagnostics: bool,
}

impl<'a> Out<'a> {
    /// Wraps the result and diagnostic streams.
    pub fn new(out: &'a mut dyn Write, err: &'a mut dyn Write, style: RenderStyle) -> Out<'a> {
        Out {
            out: io::BufWriter::with_capacity(1 << 16, out),
            err,
            style,
            broken: false,
            failed: None,
            pictures: None,
            clues: Vec::new(),
            scratch: String::new(),
            json_diagnostics: false,
        }
    }

    /// From now on, writes diagnostics as JSON objects, one a line, to the result
    /// stream instead of drawing them on the diagnostic stream.
    pub(crate) fn set_json_diagnostics(&mut self) {
        self.json_diagnostics = true;
    }

    /// Whether diagnostics are written as JSON.
    pub(crate) fn json_diagnostics(&self) -> bool {
        self.json_diagnostics
    }

    /// An empty string with room from earlier use, to build text in; hand it back with
    /// [`Out::give_buffer`].
    pub fn take_buffer(&mut self) -> String {
        let mut s = std::mem::take(&mut self.scratch);
        s.clear();
        s
    }

    /// Keeps `s`'s room for the next [`Out::take_buffer`].
    pub fn give_buffer(&mut self, s: String) {
        self.scratch = s;
    }

    /// The options forced in the instance shown from now on (a record's clues).
    pub(crate) fn set_clues(&mut self, forced: &[OptionId]) {
        self.clues.clear();
        self.clues.extend_from_slice(forced);
    }

    /// From now on, draws the solutions shown as `pictures` asks.
    pub(crate) fn set_pictures(&mut self, pictures: Option<Pictures>) {
        self.pictures = pictures;
    }

    /// Draws a solution shown, if pictures are asked for; a file that cannot be
    /// written is reported here.
    pub(crate) fn picture(
        &mut self,
        families: &Compiled,
        chosen: &[OptionId],
        record: Option<usize>,
    ) {
        let said = match &mut self.pictures {
            Some(p) => p.solution(families, chosen, &self.clues, record),
            None => return,
        };
        for r in said {
            let d = crate::diag::Diagnostics::from(Box::new(r) as crate::diag::Diag);
            crate::cli::report(self, &d);
        }
    }

    /// Whether a picture could not be written.
    pub(crate) fn pictures_failed(&self) -> bool {
        self.pictures.as_ref().is_some_and(Pictures::failed)
    }

    /// How diagnostics are drawn.
    pub fn style(&self) -> RenderStyle {
        self.style
    }

    /// Whether the result stream was closed by its reader.
    pub fn broken_pipe(&self) -> bool {
        self.broken
    }

    /// Why writing the results failed, when it failed otherwise than by a closed pipe
    /// (reported by the command's end as E0918).
    pub fn write_failed(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    fn check(&mut self, r: io::Result<()>) {
        if let Err(e) = r
            && !self.broken
        {
            self.broken = true;
            if e.kind() != io::ErrorKind::BrokenPipe {
                self.failed = Some(e.to_string());
            }
        }
    }

    /// Writes one line of results.
    pub fn line(&mut self, s: &str) {
        if self.broken {
            return;
        }
        // Two plain writes: no formatting machinery for the ten lines of every sudoku.
        let r = self
            .out
            .write_all(s.as_bytes())
            .and_then(|()| self.out.write_all(b"\n"));
        self.check(r);
    }

    /// Writes results text as it is.
    pub fn text(&mut self, s: &str) {
        if self.broken {
            return;
        }
        let r = self.out.write_all(s.as_bytes());
        self.check(r);
    }

    /// Writes rendered diagnostics (after flushing results, so the two interleave in
    /// the order they happened).
    pub fn err_text(&mut self, s: &str) {
        self.flush();
        let _ = self.err.write_all(s.as_bytes());
        let _ = self.err.flush();
    }

    /// Writes a one-line error that has no source to point at.
    pub fn error(&mut self, msg: &str) {
        self.err_text(&format!("error: {msg}\n"));
    }

    /// Writes a one-line note to the diagnostic stream (statistics, notices).
    pub fn note(&mut self, msg: &str) {
        self.err_text(&format!("{msg}\n"));
    }

    /// Flushes the results.
    pub fn flush(&mut self) {
        if !self.broken {
            let r = self.out.flush();
            self.check(r);
        }
    }
}

impl Drop for Out<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}
