//! The checker's diagnostics: one [`CheckError`] type with a [`Mistake`] saying which
//! mistake it is, a primary label, secondary labels and a help line.
//!
//! The checker builds many differently shaped messages (cycles carry one label per
//! reference), so the error is data rather than one enum variant per shape; the
//! [`Mistake`] enum is what tests and tools match on, and it names its [`Code`].

use std::fmt;
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, NamedSource, SourceCode};
use thiserror::Error;

use crate::diag::Code;
use crate::source::{SourceFile, Span};

/// The mistakes the checker reports, each with its stable code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mistake {
    /// E0101: a name used in an expression is not defined.
    UndefinedName,
    /// E0102: a name is defined twice in the same namespace or pattern.
    DuplicateDefinition,
    /// E0103: a call names no user function and no builtin.
    UnknownFunction,
    /// E0104: a call has the wrong number of arguments.
    ArgumentCount,
    /// E0105: a call names something that is not a function.
    NotAFunction,
    /// E0106: a function or a family is used as a value.
    NotAValue,
    /// E0107: `covers` names something that is not an item family.
    UnknownItemFamily,
    /// E0108: `force` names something that is not an option family.
    UnknownOptionFamily,
    /// E0109: a family is given the wrong number of indices.
    IndexCount,
    /// E0110: a color is given to an item family that is not `colored`.
    ColorOnUncolored,
    /// E0111: a definition depends on itself.
    Cycle,
    /// E0112: a function calls itself, directly or through others.
    Recursion,
    /// E0113: more than one objective.
    DuplicateObjective,
    /// E0114: a multiplicity interval on a secondary or colored item family.
    BoundsOnSecondary,
    /// E0115: a `where` after a cover entry or paint filters only that entry, though
    /// it reads none of the entry's own variables (it was meant for the options).
    WhereOnEntry,
    /// E0201: a parameter's type is not a known type.
    UnknownType,
    /// E0202: a type has the wrong number of arguments.
    TypeArgumentCount,
    /// W0101 (warning): a local binding is never read.
    UnusedBinding,
    /// E0409: `minimize cost` / `maximize cost`, but no option family has a `cost`.
    NothingToOptimize,
    /// W0402 (warning): options have a `cost`, but the model has no cost objective.
    CostWithoutObjective,
}

impl Mistake {
    /// Its diagnostic code.
    pub fn code(self) -> Code {
        match self {
            Mistake::UndefinedName => Code::E0101,
            Mistake::DuplicateDefinition => Code::E0102,
            Mistake::UnknownFunction => Code::E0103,
            Mistake::ArgumentCount => Code::E0104,
            Mistake::NotAFunction => Code::E0105,
            Mistake::NotAValue => Code::E0106,
            Mistake::UnknownItemFamily => Code::E0107,
            Mistake::UnknownOptionFamily => Code::E0108,
            Mistake::IndexCount => Code::E0109,
            Mistake::ColorOnUncolored => Code::E0110,
            Mistake::Cycle => Code::E0111,
            Mistake::Recursion => Code::E0112,
            Mistake::DuplicateObjective => Code::E0113,
            Mistake::BoundsOnSecondary => Code::E0114,
            Mistake::WhereOnEntry => Code::E0115,
            Mistake::UnknownType => Code::E0201,
            Mistake::TypeArgumentCount => Code::E0202,
            Mistake::UnusedBinding => Code::W0101,
            Mistake::NothingToOptimize => Code::E0409,
            Mistake::CostWithoutObjective => Code::W0402,
        }
    }
}

/// One mistake found by the checker.
#[derive(Debug, Error)]
#[error("{message}")]
pub struct CheckError {
    /// Which mistake.
    pub code: Mistake,
    /// The one-line message, lowercase.
    pub message: String,
    /// The place of the mistake and what is wrong there.
    pub primary: (Span, String),
    /// Other places that explain it ("first defined here").
    pub secondary: Vec<(Span, String)>,
    /// What to write instead.
    pub help: Option<String>,
    src: Option<NamedSource<Arc<str>>>,
}

impl CheckError {
    /// An error with its primary label.
    pub fn new(
        code: Mistake,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> CheckError {
        CheckError {
            code,
            message: message.into(),
            primary: (span, label.into()),
            secondary: Vec::new(),
            help: None,
            src: None,
        }
    }

    /// Adds a secondary label.
    pub fn with_label(mut self, span: Span, label: impl Into<String>) -> CheckError {
        self.secondary.push((span, label.into()));
        self
    }

    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> CheckError {
        self.help = Some(help.into());
        self
    }

    /// Attaches the source text miette renders the labels on.
    pub fn with_source(mut self, src: &SourceFile) -> CheckError {
        self.src = Some(src.named());
        self
    }
}

impl Diagnostic for CheckError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(format!("dlx::{}", self.code.code())))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.code.code().severity())
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display + 'a>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.src.as_ref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let (span, label) = &self.primary;
        let primary = LabeledSpan::new_primary_with_span(Some(label.clone()), *span);
        let rest = self
            .secondary
            .iter()
            .map(|(s, l)| LabeledSpan::new_with_span(Some(l.clone()), *s));
        Some(Box::new(std::iter::once(primary).chain(rest)))
    }
}
