#!/usr/bin/env bash
# Builds the playground into web/dist/: static files to serve as they are (no server
# code, nothing fetched from outside the page's folder):
#
#   web/build.sh && python3 -m http.server -d web/dist
#
# Needs cargo with the wasm32-unknown-unknown target (added here with rustup when
# missing), wasm-bindgen-cli of the same version as the wasm-bindgen crate (installed
# here with `cargo install` into a cache outside the repository when missing: a few
# minutes, once), and node with npm (CodeMirror and esbuild from the npm registry).
set -euo pipefail
cd "$(dirname "$0")"
export CARGO_TERM_COLOR=never
# The wasm-bindgen crate's version (Cargo.toml pins it with `=`): the CLI must match.
WB_VERSION=0.2.130
WB_ROOT=${DLXC_WEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dlxc}/wasm-bindgen-$WB_VERSION

if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
wasm_bindgen=""
if command -v wasm-bindgen >/dev/null && [ "$(wasm-bindgen --version)" = "wasm-bindgen $WB_VERSION" ]; then
    wasm_bindgen=wasm-bindgen
elif [ -x "$WB_ROOT/bin/wasm-bindgen" ]; then
    wasm_bindgen=$WB_ROOT/bin/wasm-bindgen
else
    echo "installing wasm-bindgen-cli $WB_VERSION into $WB_ROOT (once; a few minutes)" >&2
    cargo install --quiet wasm-bindgen-cli --version "$WB_VERSION" --root "$WB_ROOT"
    wasm_bindgen=$WB_ROOT/bin/wasm-bindgen
fi

cargo build --release --target wasm32-unknown-unknown
"$wasm_bindgen" --target web --no-typescript --out-dir target/pkg \
    target/wasm32-unknown-unknown/release/dlxc_web.wasm

# The shipped examples, for the page's menu (bundled into main.js).
node -e '
const fs = require("fs"), path = require("path");
const dir = "../examples";
const list = fs.readdirSync(dir).filter((f) => f.endsWith(".dlx")).sort()
  .map((f) => ({ name: f, text: fs.readFileSync(path.join(dir, f), "utf8") }));
fs.writeFileSync("target/examples.json", JSON.stringify(list));
'

[ -d node_modules/codemirror ] && [ -d node_modules/esbuild ] || npm ci --no-audit --no-fund
rm -rf dist
mkdir -p dist
./node_modules/.bin/esbuild js/main.js js/worker.js --bundle --format=esm --minify \
    --target=es2022 --log-level=warning --outdir=dist
cp www/index.html www/style.css dist/
cp target/pkg/dlxc_web_bg.wasm dist/
echo "web/dist: $(du -cb dist/* | tail -1 | cut -f1) bytes ($(cd dist && ls | tr '\n' ' '))"
