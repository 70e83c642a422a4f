//! The diagnostics of the Knuth-format reader, codes `E0801`–`E0809`.

use std::sync::Arc;

use miette::{Diagnostic, NamedSource, SourceSpan};

/// A mistake in a file in Knuth's DLX format. Every variant carries the file so that
/// miette can draw the offending line.
#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum KnuthError {
    /// The file has no item line: it is empty or holds only comments.
    #[error("expected an item line, found {found}")]
    #[diagnostic(
        code(dlx::E0801),
        help(
            "start the file with a line naming the items, primary ones first, then `|`, \
             then secondary ones, such as `A B C | X Y`; lines whose first character is `|` \
             are comments"
        )
    )]
    MissingItemLine {
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The last comment, if there is one.
        #[label("only comments up to here")]
        last: Option<SourceSpan>,
        /// "an empty file" or "only comments".
        found: &'static str,
    },

    /// An option names an item that the item line does not declare.
    #[error("unknown item `{name}`")]
    #[diagnostic(code(dlx::E0802))]
    UnknownItem {
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The name in the option.
        #[label("not declared in the item line")]
        span: SourceSpan,
        /// The item line.
        #[label("items are declared here")]
        items: SourceSpan,
        /// The unknown name.
        name: String,
        /// A suggestion, or how to declare it.
        #[help]
        help: String,
    },

    /// An option names the same item twice.
    #[error("item `{name}` appears twice in this option")]
    #[diagnostic(
        code(dlx::E0803),
        help("an option covers each item at most once: remove one of the two")
    )]
    RepeatedItem {
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The first occurrence.
        #[label("first here")]
        first: SourceSpan,
        /// The second occurrence.
        #[label("again here")]
        second: SourceSpan,
        /// The item.
        name: String,
    },

    /// The item line declares a name twice.
    #[error("item `{name}` is declared twice")]
    #[diagnostic(
        code(dlx::E0804),
        help("item names must be unique: remove the second `{name}` or rename it")
    )]
    DuplicateItem {
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The first declaration.
        #[label("first declared here")]
        first: SourceSpan,
        /// The second declaration.
        #[label("declared again here")]
        second: SourceSpan,
        /// The item.
        name: String,
    },

    /// The item line has more than one `|` separator.
    #[error("expected an item name, found a second `|`")]
    #[diagnostic(
        code(dlx::E0805),
        help(
            "the item line has a single `|`, between the primary and the secondary items: \
             remove this one"
        )
    )]
    SecondBar {
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The first `|`.
        #[label("secondary items start here")]
        first: SourceSpan,
        /// The second `|`.
        #[label("second `|`")]
        second: SourceSpan,
    },

    /// An option gives a color to a primary item.
    #[error("primary item `{name}` cannot have a color")]
    #[diagnostic(code(dlx::E0806))]
    ColorOnPrimary {
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The `:color` part of the entry.
        #[label("color given here")]
        span: SourceSpan,
        /// The declaration of the item.
        #[label("declared primary here, before the `|`")]
        decl: SourceSpan,
        /// The item.
        name: String,
        /// What to write instead.
        #[help]
        help: String,
    },

    /// The multiplicity prefix `u:v|` or `v|` of a primary item does not parse.
    #[error("{message}")]
    #[diagnostic(code(dlx::E0807))]
    MalformedBounds {
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The bounds.
        #[label("{label}")]
        span: SourceSpan,
        /// The message.
        message: String,
        /// The label.
        label: String,
        /// What to write instead.
        #[help]
        help: String,
    },

    /// A `|n` cost token of an option does not parse.
    #[error("{message}")]
    #[diagnostic(code(dlx::E0808))]
    MalformedCost {
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The cost token.
        #[label("{label}")]
        span: SourceSpan,
        /// The message.
        message: String,
        /// The label.
        label: String,
        /// What to write instead.
        #[help]
        help: String,
    },

    /// A name or color is empty or holds a reserved character (`:` or `|`).
    #[error("{message}")]
    #[diagnostic(code(dlx::E0809))]
    MalformedName {
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The token.
        #[label("{label}")]
        span: SourceSpan,
        /// The message.
        message: String,
        /// The label.
        label: String,
        /// What to write instead.
        #[help]
        help: String,
    },
}
