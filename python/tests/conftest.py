"""Shared helpers: the repository's paths, the command-line binary to compare with,
and the published counts of the shared benchmark instances."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
MANIFEST = ROOT.parent / "shared" / "bench" / "MANIFEST.tsv"


def cli_path() -> Path:
    """The release binary built by `cargo build --release` (or DLXC_BIN)."""
    path = Path(os.environ.get("DLXC_BIN", ROOT / "target" / "release" / "dlxc"))
    if not path.exists():
        pytest.fail(f"{path} is missing: run `cargo build --release` first, or set DLXC_BIN")
    return path


def cli(*args: str) -> Tuple[int, str, str]:
    """Runs the command line from the repository root: (exit code, stdout, stderr)."""
    r = subprocess.run([str(cli_path()), *args], cwd=ROOT, capture_output=True,
                       text=True, timeout=300, env={**os.environ, "NO_COLOR": "1"})
    return r.returncode, r.stdout, r.stderr


def params_args(params: Dict[str, str]) -> List[str]:
    """`-p NAME=VALUE` arguments of a params mapping."""
    out: List[str] = []
    for k, v in params.items():
        out += ["-p", f"{k}={v}"]
    return out


def published(name: str) -> int:
    """The expected count of a shared benchmark instance, from its manifest."""
    for line in MANIFEST.read_text().splitlines()[1:]:
        cols = line.split("\t")
        if cols[0] == name:
            return int(cols[2])
    raise KeyError(f"{name} is not in {MANIFEST}")


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    # Model paths are written relative to the root, as the command line gets them, so
    # diagnostics name the files the same way.
    monkeypatch.chdir(ROOT)
