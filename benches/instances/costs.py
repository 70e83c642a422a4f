#!/usr/bin/env python3
"""Add random option costs to a problem file in Knuth's format (DLX1/DLX2 -> DLX5).

usage: costs.py IN.dlx OUT.dlx [SEED]

Each option line gets a token `|c` with c drawn uniformly from 0..=9, from a fixed
seed (default 1), by a 64-bit xorshift written out here, so that the same input gives
the same costs on every machine and Python version. Comment lines and the items line
are copied as they are. This is how the cost versions of the shared pentomino, sudoku
and queens files used in docs/benchmarks.md are made.
"""
import sys


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: costs.py IN.dlx OUT.dlx [SEED]")
    state = int(sys.argv[3]) if len(sys.argv) == 4 else 1
    state = (state * 0x9E3779B97F4A7C15 + 1) & 0xFFFFFFFFFFFFFFFF

    def draw():
        nonlocal state
        state ^= (state << 13) & 0xFFFFFFFFFFFFFFFF
        state ^= state >> 7
        state ^= (state << 17) & 0xFFFFFFFFFFFFFFFF
        return state % 10

    seen_items = False
    out = []
    with open(sys.argv[1]) as f:
        for line in f:
            body = line.rstrip("\n")
            if body.strip() == "" or body.lstrip().startswith("|"):
                out.append(body)
            elif not seen_items:
                seen_items = True
                out.append(body)
            else:
                out.append("%s |%d" % (body.rstrip(), draw()))
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out) + "\n")


main()
