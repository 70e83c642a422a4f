//! The builtin functions of the language.
//!
//! [`SIGNATURES`] is the table the checker uses for arity errors and "did you mean";
//! the implementations follow it.

/// A builtin's name, its least and greatest number of arguments (`usize::MAX` for
/// "any number"), and what it does in one line (shown in diagnostics and docs).
pub static SIGNATURES: &[(&str, usize, usize, &str)] = &[
    (
        "len",
        1,
        1,
        "number of elements of a string, list, set, map, range or grid",
    ),
    (
        "min",
        1,
        usize::MAX,
        "smallest of the arguments, or of one collection",
    ),
    (
        "max",
        1,
        usize::MAX,
        "largest of the arguments, or of one collection",
    ),
    ("abs", 1, 1, "absolute value of an integer"),
    ("sum", 1, 1, "sum of a collection of integers"),
    ("all", 1, 1, "whether every element of a collection is true"),
    ("any", 1, 1, "whether some element of a collection is true"),
    ("keys", 1, 1, "the keys of a map, in order, as a list"),
    (
        "values",
        1,
        1,
        "the values of a map, in key order, as a list",
    ),
    (
        "enumerate",
        1,
        1,
        "the list of (index, element) pairs, indexes from 0",
    ),
    (
        "sorted",
        1,
        1,
        "the elements of a collection as a sorted list",
    ),
    ("union", 1, 1, "the union of a collection of sets"),
    ("disjoint", 2, 2, "whether two sets have no common element"),
    (
        "str",
        1,
        1,
        "a value as a string, as the language prints it",
    ),
    (
        "int",
        1,
        1,
        "a string of decimal digits (or a boolean) as an integer",
    ),
    (
        "list",
        1,
        1,
        "the elements of a collection as a list, in order",
    ),
    ("set", 1, 1, "the elements of a collection as a set"),
    (
        "chars",
        1,
        1,
        "the one-character strings of a string, in order",
    ),
    (
        "zip",
        2,
        2,
        "pairs of elements at the same position of two lists",
    ),
    ("ord", 1, 1, "the code point of a one-character string"),
    ("chr", 1, 1, "the one-character string of a code point"),
    (
        "shape",
        1,
        1,
        "a set of (row, col) cells from ASCII art: rows split by `/` or lines",
    ),
    (
        "normalize",
        1,
        1,
        "a shape moved so its least row and least column are 0",
    ),
    (
        "rotate",
        1,
        1,
        "a shape turned 90 degrees clockwise, normalized",
    ),
    (
        "reflect",
        1,
        1,
        "a shape mirrored left to right, normalized",
    ),
    (
        "variants",
        1,
        1,
        "all distinct orientations of a shape, normalized, in a fixed order",
    ),
    ("shift", 3, 3, "a shape moved by (rows, columns)"),
    ("size", 1, 1, "the bounding size (rows, columns) of a shape"),
];

/// The signature of a builtin, by name.
pub fn signature(name: &str) -> Option<(usize, usize, &'static str)> {
    SIGNATURES
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|&(_, lo, hi, doc)| (lo, hi, doc))
}

/// Why a builtin refused its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltinError {
    /// The argument at fault (0-based), or `None` when the call as a whole is wrong.
    pub arg: Option<usize>,
    /// What went wrong, lowercase, "expected X, found Y" style.
    pub message: String,
    /// What to write instead, if there is something useful to say.
    pub help: Option<String>,
}
