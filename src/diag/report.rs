//! Diagnostics as data: a code, a message, labels, a help line.
//!
//! The syntax and format readers have fixed sets of errors and describe them with
//! `thiserror` enums. Errors found while evaluating a model are open-ended ("cannot add
//! a set and an integer", "no option put[0,0,X]") and carry context gathered along the
//! way (the loop values in scope), so they are built as [`Report`] values instead, in
//! the manner of typst's `SourceDiagnostic`.

use std::fmt;

use miette::{Diagnostic, LabeledSpan, Severity, SourceCode};

use super::Code;
use crate::source::{SourceFile, Span};

/// One labelled place in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What to say there.
    pub text: String,
    /// Whether this is the main place of the diagnostic.
    pub primary: bool,
}

/// A diagnostic built at run time.
#[derive(Clone, Debug)]
pub struct Report {
    /// The stable code, such as `E0301`.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// The one-line message, lowercase.
    pub message: String,
    /// Labelled places; the first primary one is where the error is.
    pub labels: Vec<Label>,
    /// What to write instead, or a note on context.
    pub help: Option<String>,
    /// The source the labels point into.
    pub src: Option<SourceFile>,
}

impl Report {
    /// An error with a message.
    pub fn error(code: Code, message: impl Into<String>) -> Report {
        Report {
            code,
            severity: Severity::Error,
            message: message.into(),
            labels: Vec::new(),
            help: None,
            src: None,
        }
    }

    /// A warning with a message.
    pub fn warning(code: Code, message: impl Into<String>) -> Report {
        Report {
            severity: Severity::Warning,
            ..Report::error(code, message)
        }
    }

    /// Adds the primary label.
    pub fn label(mut self, span: Span, text: impl Into<String>) -> Report {
        self.labels.push(Label {
            span,
            text: text.into(),
            primary: true,
        });
        self
    }

    /// Adds a secondary label.
    pub fn secondary(mut self, span: Span, text: impl Into<String>) -> Report {
        self.labels.push(Label {
            span,
            text: text.into(),
            primary: false,
        });
        self
    }

    /// Sets the help line.
    pub fn help(mut self, text: impl Into<String>) -> Report {
        self.help = Some(text.into());
        self
    }

    /// Appends a sentence to the help line.
    pub fn add_help(mut self, text: impl AsRef<str>) -> Report {
        self.help = Some(match self.help.take() {
            Some(h) => format!("{h}\n{}", text.as_ref()),
            None => text.as_ref().to_string(),
        });
        self
    }

    /// Attaches the source the labels refer to.
    pub fn with_source(mut self, src: &SourceFile) -> Report {
        self.src = Some(src.clone());
        self
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report {}

impl Diagnostic for Report {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(format!("dlx::{}", self.code)))
    }

    fn severity(&self) -> Option<Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.src.as_ref().map(|s| s.source_code())
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.src.as_ref()?;
        Some(Box::new(self.labels.iter().map(|l| {
            let text = (!l.text.is_empty()).then(|| l.text.clone());
            if l.primary {
                LabeledSpan::new_primary_with_span(text, l.span)
            } else {
                LabeledSpan::new_with_span(text, l.span)
            }
        })))
    }
}
