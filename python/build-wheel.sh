#!/usr/bin/env bash
# Builds the Python package's wheel (abi3, one for every CPython 3.9+) and its sdist into
# target/wheels: the dlxc program first, bundled in the wheel as dlxc/_bin/dlxc so that
# `pip install` puts a `dlxc` command on PATH (dlxc/_cli.py), then the extension with
# maturin, which tags the wheel with the manylinux level its files need.
#
# MATURIN: how to run maturin (default: `python3 -m maturin`, `pip install maturin`).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
read -r -a maturin <<< "${MATURIN:-python3 -m maturin}"
cargo build --release --bin dlxc
mkdir -p python/pysrc/dlxc/_bin
cp "$CARGO_TARGET_DIR/release/dlxc" python/pysrc/dlxc/_bin/dlxc
out="$CARGO_TARGET_DIR/wheels"
rm -f "$out"/dlxc-*.whl "$out"/dlxc-*.tar.gz
"${maturin[@]}" build --release -m python/Cargo.toml --out "$out"
"${maturin[@]}" sdist -m python/Cargo.toml --out "$out"
ls "$out"
