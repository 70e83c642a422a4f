"""The ``dlxc`` command a wheel installs: the command-line program itself, built with
the wheel and shipped inside the package (``dlxc/_bin/dlxc``), run in place of this
process so that its exit codes, output and Ctrl-C are exactly the program's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import List, Optional


def binary() -> Optional[Path]:
    """The bundled program, or ``None`` in a package built without it."""
    name = "dlxc.exe" if os.name == "nt" else "dlxc"
    path = Path(__file__).resolve().parent / "_bin" / name
    return path if path.is_file() else None


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = binary()
    if path is None:
        print("error: this dlxc package was built without the dlxc program (a wheel from "
              "python/build-wheel.sh has it)\nhelp: install a released wheel (pip install "
              "dlxc), or the program itself: cargo install --path . in the repository",
              file=sys.stderr)
        return 2
    if argv is None and os.name == "posix":
        os.execv(str(path), [str(path), *args])  # does not return
    return subprocess.call([str(path), *args])


if __name__ == "__main__":
    sys.exit(main())
