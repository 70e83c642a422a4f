#!/usr/bin/env bash
# CI for the playground (web/), called by .ci/run: the wasm crate's formatting, the
# page's build (web/build.sh), the crate's lints for wasm32, then the page in headless
# Chromium (web/test/, node's test runner with puppeteer-core). Chromium comes from
# Debian's packages (.ci/run installs it for the SVG check); where it is missing the
# browser test is skipped (exit 77) and .ci/run says so.
set -euo pipefail
cd "$(dirname "$0")"
export CARGO_TERM_COLOR=never
cargo fmt -- --check
./build.sh
cargo clippy --release --target wasm32-unknown-unknown -- -D warnings
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
    echo "web/ci.sh: no chromium, the page was built but not tested" >&2
    exit 77
fi
CHROMIUM=$chromium node --test test/
