//! The `.ec` format of exact-cover benchmark files (libexact's, as in the benchmarks of
//! Junttila and Kaski, and of the DXD counting paper):
//!
//! ```text
//! c n = 3, m = 4        comment lines start with `c`
//! p ec 3                the header: `p ec` and the number of items
//! s 1 2                 one option per line: the items it covers, numbered from 1
//! s 3
//! ```
//!
//! Every item is primary, named by its number (`"1"`, `"2"`, ...). Options have no
//! names and are shown as their lists of items, as options of Knuth's format are.
//! [`read`] finds every error of the file (codes `E0830`–`E0833`), keeping the first
//! [`MAX_KEPT`](crate::diag::MAX_KEPT) and counting the others; [`looks_like`]
//! tells `dlxc solve` that a file is in this format.

use crate::diag::report::Report;
use crate::diag::{Code, Diagnostics, MAX_KEPT};
use crate::format::{Line, lines};
use crate::problem::{Entry, ItemId, ItemKind, Opt, Origin, Problem};
use crate::source::{SourceFile, Span};

/// The most items a header may declare: each becomes an item, so without a cap a
/// two-line file `p ec 4000000000` would allocate hundreds of gigabytes.
pub const MAX_ITEMS: u32 = 1 << 22;

/// Whether `text` is in this format: its first line that is neither blank nor a `c`
/// comment is a `p ec` header. (A file of Knuth's format would have to start with an
/// item named `c` and follow it with an option `p ec ...` to look the same.)
pub fn looks_like(text: &str) -> bool {
    lines(text)
        .map(|l| l.text.trim_start())
        .find(|t| !t.is_empty() && !is_comment(t))
        .is_some_and(|t| t.split_whitespace().take(2).eq(["p", "ec"]))
}

fn is_comment(t: &str) -> bool {
    t == "c" || t.starts_with("c ") || t.starts_with("c\t")
}

/// Reads an `.ec` file, reporting every error found.
pub fn read(src: &SourceFile) -> Result<Problem, Diagnostics> {
    let mut diags = Diagnostics::keeping(MAX_KEPT);
    let mut header: Option<(u32, Span)> = None;
    // A header that was there but wrong: its options are not reported as headless.
    let mut bad_header = false;
    let mut options: Vec<(Vec<u32>, u32)> = Vec::new();
    for line in lines(src.text()) {
        let text = line.text.trim_start();
        if text.is_empty() || is_comment(text) {
            continue;
        }
        let mut tokens = line.tokens();
        let Some(kind) = tokens.next() else { continue };
        match kind.text {
            "p" => match header {
                Some((_, first)) => diags.push_boxed(Box::new(
                    Report::error(Code::E0833, "a second `p ec` header")
                        .label(line.span(), "a second header")
                        .secondary(first, "the first header")
                        .help("an `.ec` file has one header, before its options; remove this one")
                        .with_source(src),
                )),
                None => {
                    header = read_header(src, line, &mut diags);
                    bad_header |= header.is_none();
                }
            },
            "s" => {
                if let Some(e) = super::over_budget(src, line, "problem") {
                    diags.push_boxed(Box::new(e));
                    return Err(diags);
                }
                let Some((n, _)) = header else {
                    if options.is_empty() && !bad_header {
                        diags.push_boxed(Box::new(
                            Report::error(Code::E0830, "an option before the `p ec` header")
                                .label(line.span(), "the first option")
                                .help("start the file with `p ec N`, N the number of items")
                                .with_source(src),
                        ));
                    }
                    options.push((Vec::new(), line.number));
                    continue;
                };
                let mut items: Vec<u32> = Vec::new();
                for t in tokens {
                    match t.text.parse::<u32>() {
                        Ok(i) if (1..=n).contains(&i) => {
                            if items.contains(&i) {
                                diags.push_boxed(Box::new(
                                    Report::error(Code::E0832, format!("item {i} twice in one option"))
                                        .label(t.span(), "again")
                                        .help("an option covers each of its items once; remove the repeat")
                                        .with_source(src),
                                ));
                            } else {
                                items.push(i);
                            }
                        }
                        _ => diags.push_boxed(Box::new(
                            Report::error(
                                Code::E0831,
                                format!("`{}` is not an item: items are numbered 1 to {n}", t.text),
                            )
                            .label(t.span(), "not an item")
                            .help("write item numbers from 1 to the header's count, or raise the count in `p ec N`")
                            .with_source(src),
                        )),
                    }
                }
                options.push((items, line.number));
            }
            other => diags.push_boxed(Box::new(
                Report::error(Code::E0833, format!("a line starting with `{other}`"))
                    .label(kind.span(), "not `c`, `p` or `s`")
                    .help("an `.ec` file has comment lines (`c ...`), one header (`p ec N`) and options (`s i j ...`)")
                    .with_source(src),
            )),
        }
    }
    let Some((n, _)) = header else {
        if diags.is_empty() {
            diags.push_boxed(Box::new(
                Report::error(Code::E0830, "no `p ec` header")
                    .help("start the file with `p ec N`, N the number of items, then one `s` line per option")
                    .with_source(src),
            ));
        }
        return Err(diags);
    };
    if diags.has_errors() {
        return Err(diags);
    }
    let mut problem = Problem::new();
    for i in 1..=n {
        problem.add_item(i.to_string(), ItemKind::PRIMARY, Origin::Synthetic);
    }
    for (items, line) in options {
        problem.add_option(Opt {
            name: None,
            entries: items
                .into_iter()
                .map(|i| Entry {
                    item: ItemId(i - 1),
                    color: None,
                })
                .collect(),
            cost: None,
            origin: Origin::Line(line),
        });
    }
    Ok(problem)
}

/// The item count of a `p ec N` line, or `None` after reporting what is wrong.
fn read_header(src: &SourceFile, line: Line<'_>, diags: &mut Diagnostics) -> Option<(u32, Span)> {
    let tokens: Vec<_> = line.tokens().collect();
    let count = match tokens.as_slice() {
        [_, ec, n] if ec.text == "ec" => n.text.parse::<u32>().ok().filter(|&n| n <= MAX_ITEMS),
        _ => None,
    };
    if count.is_none() {
        diags.push_boxed(Box::new(
            Report::error(
                Code::E0830,
                format!("expected `p ec N`, found `{}`", line.text.trim()),
            )
            .label(line.span(), "not a header")
            .help(format!(
                "write `p ec` and the number of items, at most {MAX_ITEMS}: `p ec 9`"
            ))
            .with_source(src),
        ));
    }
    count.map(|n| (n, line.span()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_file_reads_as_its_items_and_options() {
        let text = "c n = 3, m = 4\np ec 3\ns 1 2\ns 3\ns 1\ns 2 3\n";
        assert!(looks_like(text));
        let p = read(&SourceFile::new("t.ec", text)).unwrap();
        assert_eq!(p.items.len(), 3);
        assert_eq!(p.items[2].name, "3");
        assert_eq!(p.options.len(), 4);
        assert_eq!(p.options.get(3).entries[1].item, ItemId(2));
        assert_eq!(p.options.get(0).origin, Origin::Line(3));
    }

    #[test]
    fn knuth_files_do_not_look_like_ec() {
        assert!(!looks_like("a b c\na b\nc\n"));
        assert!(!looks_like("| p ec 3\na b\n"));
        assert!(!looks_like("c d\na\n"));
        assert!(looks_like("\n\nc\nc comment\np ec 1\ns 1\n"));
    }

    #[test]
    fn every_error_is_collected() {
        let text = "p ec 3\ns 1 4\ns 2 2\nx 1\np ec 3\n";
        let diags = read(&SourceFile::new("t.ec", text)).unwrap_err();
        let codes: Vec<String> = diags
            .iter()
            .map(|d| d.code().map(|c| c.to_string()).unwrap_or_default())
            .collect();
        assert_eq!(
            codes,
            ["dlx::E0831", "dlx::E0832", "dlx::E0833", "dlx::E0833"]
        );
    }
}
