#!/usr/bin/env bash
# The Python package's checks, run by .ci/run after the Rust tests (which build
# target/release/dlxc, the command line the tests compare with): formatting and clippy
# of the binding crate, `pip install ./python` into a fresh virtual environment, then
# pytest (the API against the CLI, and counts on a local two-node Ray cluster).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v python3 >/dev/null || { echo "python3 (3.9 or newer) is required" >&2; exit 1; }
# Shared with the root crate's build, so the dependencies compile once.
export CARGO_TARGET_DIR="$PWD/target"
(cd python && cargo fmt -- --check && cargo clippy --all-targets --release -- -D warnings)
venv=target/py/venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet 'pytest>=8' 'ray>=2.40,<3'
# The README's install command: maturin comes from PyPI into pip's build environment.
"$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps ./python
DLXC_BIN="$PWD/target/release/dlxc" "$venv/bin/python" -m pytest -q python/tests
