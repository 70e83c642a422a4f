//! Golden tests of syntax diagnostics: every `tests/ui/syntax/*.dlx` is parsed and its
//! rendered diagnostics compared with the `.stderr` file next to it (an empty file when
//! the model parses). Bless with `DLXC_BLESS=1 cargo test --test ui_syntax`.

use std::path::Path;

use dlxc::diag::{Diagnostics, RenderStyle, render_all};
use dlxc::source::SourceFile;

#[path = "common/golden.rs"]
mod golden;

fn run(path: &Path, text: String) -> datatest_stable::Result<()> {
    let name = format!(
        "tests/ui/syntax/{}",
        path.file_name().unwrap_or_default().to_string_lossy()
    );
    let src = SourceFile::new(name, text);
    let rendered = match dlxc::syntax::parse(&src) {
        Ok(_) => String::new(),
        Err(diags) => render(&diags),
    };
    golden::check(path, &rendered)
}

fn render(diags: &Diagnostics) -> String {
    render_all(diags, RenderStyle::GOLDEN)
}

datatest_stable::harness! {
    { test = run, root = "tests/ui/syntax", pattern = r"\.dlx$" },
}
