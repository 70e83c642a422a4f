#!/usr/bin/env bash
# The tree-sitter grammar (editors/tree-sitter-dlx): generated, its corpus tested, its
# highlight query compiled, and every shipped model and every golden-test model that
# `dlxc check` accepts parsed with no ERROR node.
#
# The tree-sitter CLI is installed when missing: from the npm registry
# (tree-sitter-cli), and where that package cannot fetch its program, from crates.io
# (`cargo install tree-sitter-cli`, a few minutes once; then it is on the PATH). No
# other network. DLXC names the dlxc binary (default target/release/dlxc).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dlxc=${DLXC:-$root/target/release/dlxc}
[ -x "$dlxc" ] || cargo build --release --quiet
export PATH="$root/editors/tree-sitter-dlx/node_modules/.bin:$HOME/.cargo/bin:$PATH"
if ! command -v tree-sitter >/dev/null; then
    (cd editors/tree-sitter-dlx &&
        timeout 300 npm install --no-save --no-audit --no-fund --loglevel=error \
            tree-sitter-cli >/dev/null 2>&1) ||
        rm -rf editors/tree-sitter-dlx/node_modules
fi
if ! command -v tree-sitter >/dev/null; then
    echo "tree-sitter-cli from npm could not fetch its program; building it from crates.io"
    cargo install --quiet --locked tree-sitter-cli
fi
tree-sitter --version
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Generated into a scratch copy: the generated parser is not kept in the repository.
cp -r editors/tree-sitter-dlx/. "$work/"
rm -rf "$work/node_modules"
cd "$work"
tree-sitter generate
tree-sitter test
models=()
for f in "$root"/examples/*.dlx "$root"/tests/fixtures/*.dlx "$root"/tests/svg/*.dlx; do
    models+=("$f")
done
while IFS= read -r f; do
    if "$dlxc" check "$f" >/dev/null 2>&1; then
        models+=("$f")
    fi
done < <(find "$root/tests/ui" -name '*.dlx' | sort)
# `parse --quiet` prints only the files with an ERROR or MISSING node, and fails then.
tree-sitter parse --quiet "${models[@]}"
tree-sitter query --quiet queries/highlights.scm "$root/examples/sudoku.dlx" >/dev/null
echo "tree-sitter: ${#models[@]} models parse with no ERROR node; corpus and highlights pass"
