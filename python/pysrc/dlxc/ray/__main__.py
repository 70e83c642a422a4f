"""``python -m dlxc.ray``: see :mod:`dlxc.ray._cli`."""

import sys

from ._cli import main

sys.exit(main())
