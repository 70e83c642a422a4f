"""What Ray costs: one count by `dlxc run --count --threads N` and by `dlxc.ray.count`
on a local Ray of N CPUs, on the same machine, side by side.

    python python/bench_ray.py [MODEL] [-p NAME=VALUE]... [--threads N] [--task-seconds S]

Defaults: examples/queens.dlx -p n=16 (14,772,512 solutions, a minute or more on two
cores), N = every core. Prints both times, both counts (which must agree) and the
overhead of Ray in percent. Not a test: times depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", nargs="?", default="examples/queens.dlx")
    ap.add_argument("-p", dest="params", action="append", default=None)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--task-seconds", type=float, default=5.0)
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "dlxc"))
    args = ap.parse_args()
    params = args.params if args.params is not None else ["n=16"]

    import dlxc
    import dlxc.ray as dray
    import ray

    cmd = [args.bin, "run", args.model, "--count", "--threads", str(args.threads)]
    for p in params:
        cmd += ["-p", p]
    t = time.monotonic()
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    cli_seconds = time.monotonic() - t
    cli_count = int(out)

    model = dlxc.Model.from_file(str(ROOT / args.model),
                                 params=dict(p.split("=", 1) for p in params))
    t = time.monotonic()
    ray.init(num_cpus=args.threads, include_dashboard=False, log_to_driver=False)
    started = time.monotonic() - t
    t = time.monotonic()
    ray_count = dray.count(model, task_seconds=args.task_seconds)
    ray_seconds = time.monotonic() - t
    ray.shutdown()

    print(f"model: {args.model} {' '.join('-p ' + p for p in params)}")
    print(f"dlxc run --count --threads {args.threads}: {cli_count} in {cli_seconds:.1f} s")
    print(f"dlxc.ray.count on a local Ray of {args.threads} CPUs: {ray_count} in "
          f"{ray_seconds:.1f} s (plus {started:.1f} s to start Ray)")
    print(f"overhead of Ray: {100 * (ray_seconds / cli_seconds - 1):+.1f} % "
          f"({100 * ((ray_seconds + started) / cli_seconds - 1):+.1f} % with its start)")
    if ray_count != cli_count:
        print("the counts differ!", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
