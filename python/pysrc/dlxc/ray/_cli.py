"""``python -m dlxc.ray MODEL --count [-p NAME=VALUE]... [--address ADDRESS]``."""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

import dlxc
import dlxc.ray as dray


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m dlxc.ray",
        description="Count (or list) the solutions of a dlxc model on a Ray cluster.")
    ap.add_argument("model", help="the .dlx model file")
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--count", action="store_true", help="print the number of solutions")
    what.add_argument("--solutions", type=int, metavar="N",
                      help="print up to N solutions (0: all)")
    ap.add_argument("-p", dest="params", action="append", default=[],
                    metavar="NAME=VALUE", help="set a parameter, as dlxc run -p does")
    ap.add_argument("--address", default=None,
                    help="the Ray cluster (auto, ray://HOST:10001); default: a local Ray")
    ap.add_argument("--parts", type=int, default=None,
                    help="parts to start with (default: 16 per CPU)")
    ap.add_argument("--task-seconds", type=float, default=dray.TASK_SECONDS,
                    help="seconds a task counts before it returns what is left")
    ap.add_argument("--progress", action="store_true",
                    help="print progress (parts, solutions, share of the tree, ETA) to stderr")
    args = ap.parse_args(argv)
    params = {}
    for setting in args.params:
        name, eq, value = setting.partition("=")
        if not eq:
            ap.error(f"-p {setting}: write -p NAME=VALUE")
        params[name.strip()] = value
    try:
        model = dlxc.Model.from_file(args.model, params=params)
    except dlxc.ModelError as e:
        sys.stderr.write(e.report)
        return 2
    except OSError as e:
        print(f"cannot read {args.model}: {e}", file=sys.stderr)
        return 2
    common = dict(address=args.address, parts=args.parts,
                  task_seconds=args.task_seconds, progress=args.progress)
    try:
        if args.count:
            n = dray.count(model, **common)
            print(n)
            return 0 if n else 1
        limit = args.solutions or None
        found = 0
        for s in dray.solutions(model, limit=limit, **common):
            if found:
                print()
            print(s)
            found += 1
    except dray.ClusterUnreachable as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not found:
        print("No solution")
    return 0 if found else 1
