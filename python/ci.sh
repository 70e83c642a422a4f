#!/usr/bin/env bash
# The Python package's checks, run by .ci/run after the Rust tests (which build
# target/release/dlxc, the command line the tests compare with): formatting and clippy
# of the binding crate; the wheel and the sdist built with maturin (build-wheel.sh, the
# dlxc program bundled in the wheel); the wheel installed into a fresh virtual
# environment with no Rust toolchain on PATH, whose `dlxc --version` must answer; then
# pytest on that wheel (the API against the CLI, NumPy inputs, counts on a local
# two-node Ray cluster).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v python3 >/dev/null || { echo "python3 (3.9 or newer) is required" >&2; exit 1; }
# Shared with the root crate's build, so the dependencies compile once.
export CARGO_TARGET_DIR="$PWD/target"
(cd python && cargo fmt -- --check && cargo clippy --all-targets --release -- -D warnings)

# The wheel and the sdist, with maturin from PyPI in a build environment of its own.
build=target/py/build
[ -x "$build/bin/python" ] || python3 -m venv "$build"
"$build/bin/python" -m pip install --quiet --upgrade pip 'maturin>=1.8,<2'
MATURIN="$build/bin/python -m maturin" python/build-wheel.sh
version=$(sed -n 's/^version = "\(.*\)"/\1/p' python/pyproject.toml)
wheel=$(ls target/wheels/dlxc-"$version"-*.whl)
ls target/wheels/dlxc-"$version".tar.gz >/dev/null

# What a user without Rust gets: a fresh environment, PATH without cargo or rustc.
norust=$(printf '%s' "$PATH" | tr ':' '\n' | while read -r d; do
    [ -x "$d/cargo" ] || [ -x "$d/rustc" ] || printf '%s:' "$d"
done)
fresh=target/py/fresh
rm -rf "$fresh"
env PATH="${norust%:}" python3 -m venv "$fresh"
env PATH="$PWD/$fresh/bin:${norust%:}" sh -c '
    ! command -v cargo >/dev/null && ! command -v rustc >/dev/null || exit 1
    pip install --quiet --no-index --no-deps "$1"
    out=$(dlxc --version)
    echo "fresh venv, no Rust on PATH: $out"
    [ "$out" = "dlxc $2" ]
    python -c "import dlxc; assert dlxc.__version__ == \"$2\"; print(dlxc.Problem([1], [[1]]).count())"
' sh "$wheel" "$version"

# The tests, on the same wheel.
venv=target/py/venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet 'pytest>=8' 'ray>=2.40,<3' numpy
"$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$wheel"
DLXC_BIN="$PWD/target/release/dlxc" "$venv/bin/python" -m pytest -q python/tests
