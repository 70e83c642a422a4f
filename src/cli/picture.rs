//! `--svg FILE` and `--svg-dir DIR`: the solutions a run shows, drawn as SVG files.
//!
//! The pictures follow what stdout shows: `--svg FILE` draws the first solution shown,
//! `--svg-dir DIR` every one (`solution-N.svg`, or `record-R-solution-N.svg` with
//! `--data`, both counted from 1). A file that cannot be written is reported once
//! (E0940) and no more pictures are tried; the run goes on and ends with exit code 2.

use std::path::{Path, PathBuf};

use crate::diag::Code;
use crate::diag::report::Report;
use crate::instance::Compiled;
use crate::problem::OptionId;
use crate::render::svg::{Lattice, Palette, Style, draw_with, misfit};

/// What pictures a run writes (`--svg`, `--svg-dir`, `--cells`, `--svg-plain`).
#[derive(Clone, Debug, Default)]
pub struct PictureArgs {
    /// Draw the first solution shown into this file.
    pub file: Option<PathBuf>,
    /// Draw every solution shown into this directory.
    pub dir: Option<PathBuf>,
    /// The shape of the cells (`--cells`); `None`: the model's `draw cells`, else
    /// squares.
    pub lattice: Option<Lattice>,
    /// Leave the cells' texts out of the pictures.
    pub plain: bool,
}

impl PictureArgs {
    /// Whether any picture is asked for.
    pub fn wanted(&self) -> bool {
        self.file.is_some() || self.dir.is_some()
    }
}

/// The pictures of one run: where they go, how many were written, the palette of the
/// record being drawn.
pub(crate) struct Pictures {
    args: PictureArgs,
    style: Style,
    /// The record whose palette `palette` is, and how many of its solutions were drawn.
    record: Option<usize>,
    drawn: u64,
    /// Solutions drawn in the whole run.
    total: u64,
    palette: Option<Palette>,
    /// Set after a write failed: no more pictures are tried.
    failed: bool,
    /// Set once the cell shape was found not to fit (W0980 is said once a run).
    warned: bool,
}

impl Pictures {
    /// The pictures `args` asks for, or `None`.
    pub(crate) fn new(args: &PictureArgs) -> Option<Pictures> {
        args.wanted().then(|| Pictures {
            args: args.clone(),
            style: Style {
                lattice: args.lattice.unwrap_or_default(),
                labels: !args.plain,
            },
            warned: false,
            record: None,
            drawn: 0,
            total: 0,
            palette: None,
            failed: false,
        })
    }

    /// Whether a picture could not be written.
    pub(crate) fn failed(&self) -> bool {
        self.failed
    }

    /// Draws a solution shown on stdout (its clues, the options forced, drawn apart),
    /// if a picture is due for it; returns the reports to show: a file that cannot be
    /// written (E0940), a cell shape that does not fit the pieces (W0980).
    pub(crate) fn solution(
        &mut self,
        families: &Compiled,
        chosen: &[OptionId],
        clues: &[OptionId],
        record: Option<usize>,
    ) -> Vec<Report> {
        if self.failed {
            return Vec::new();
        }
        let mut said = Vec::new();
        // `--cells` over the model's `draw cells`.
        self.style.lattice = self.args.lattice.or(families.lattice).unwrap_or_default();
        let whence = match (self.args.lattice, families.lattice) {
            (Some(_), _) => "--cells",
            (None, Some(_)) => "the model's `draw cells`",
            (None, None) => "the default",
        };
        if !self.warned
            && let Some(w) = misfit(&families.paints, self.style.lattice, whence)
        {
            self.warned = true;
            said.push(w);
        }
        if self.palette.is_none() || self.record != record {
            self.palette = Some(Palette::new(&families.paints));
            self.record = record;
            self.drawn = 0;
        }
        self.drawn += 1;
        self.total += 1;
        let path = match (&self.args.file, &self.args.dir) {
            (Some(file), _) => {
                if self.total > 1 {
                    return said; // --svg FILE: the first solution of the run only
                }
                file.clone()
            }
            (None, Some(dir)) => dir.join(match record {
                None => format!("solution-{}.svg", self.drawn),
                Some(r) => format!("record-{}-solution-{}.svg", r + 1, self.drawn),
            }),
            (None, None) => return said,
        };
        let Some(palette) = self.palette.as_ref() else {
            return said;
        };
        let Some(svg) = draw_with(&families.paints, chosen, clues, palette, self.style) else {
            return said;
        };
        let written = match path.parent() {
            Some(p) if self.args.dir.is_some() && !p.as_os_str().is_empty() => {
                std::fs::create_dir_all(p)
            }
            _ => Ok(()),
        }
        .and_then(|()| std::fs::write(&path, svg));
        if let Err(e) = written {
            self.failed = true;
            said.push(cannot_write(&path, &e));
        }
        said
    }
}

/// E0940: a picture file that cannot be written.
fn cannot_write(path: &Path, e: &std::io::Error) -> Report {
    Report::error(
        Code::E0940,
        format!("cannot write the picture {}: {e}", path.display()),
    )
    .help("give a file (--svg) or a directory (--svg-dir) in a place you can write to; no more pictures are written in this run")
}

/// E0941: pictures asked of a model that paints nothing.
pub(crate) fn nothing_painted(flag: &str) -> Report {
    Report::error(
        Code::E0941,
        format!("{flag} draws painted cells, and this model paints none"),
    )
    .help("add `paint (row, col) = TEXT for ...` to the options (see docs/language.md, \"Painting\"), or leave out the flag to list the chosen options")
}

/// E0942: `--svg-dir` on a run that shows one solution.
pub(crate) fn one_solution_dir() -> Report {
    Report::error(
        Code::E0942,
        "--svg-dir writes a picture of every solution shown, and this run shows one",
    )
    .help("add --all or --limit N (or --data FILE) to draw many solutions, or write the one picture with --svg FILE")
}
