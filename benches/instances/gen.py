#!/usr/bin/env python3
"""Generate colored (DLX2/SSXCC) and multiplicity (DLX3/SSMCC) instances in Knuth's format.

Writes into the directory given as argv[1]. Deterministic (fixed seeds).
Families:
  latin_N_row      colored: Latin squares of order N with the first row fixed
                   (count = A002860(N)/N!: N=4 24, N=5 1344)
  latin_N_red      colored: reduced Latin squares, first row and column fixed (A000315: 5 -> 56, 6 -> 9408)
  wordrect_RxC_K_S colored: fill an RxC rectangle so every row is one of K random C-letter words and
                   every column one of K random R-letter words (alphabet 'abcdef', seed S); cells are
                   secondary items colored by the letter
  rowcol2_N        multiplicity: 0/1 NxN matrices with every row and column sum exactly 2 (A001499:
                   4 -> 90, 5 -> 2040, 6 -> 67950, 7 -> 3110940)
  rowcol3_6        multiplicity: 0/1 6x6 matrices, row and column sums 3 (A001501: 297200)
  rowcol_N_13_2    multiplicity: NxN, row sums in 1..3 (range bound), column sums exactly 2
  rowcol_6x7_23_2  multiplicity: 6x7, row sums in 2..3, column sums exactly 2
  mcc_6x6_r1-2_c1-3 multiplicity: 6x6, row sums in 1..2, column sums in 1..3
  rowcol2_8        multiplicity: as rowcol2_N, A001499(8) = 187530840
  stars_N_K        multiplicity + secondary: K stars in every row and column of an NxN grid,
                   no two stars touching (each 2x2 block is a secondary item)
"""
import os, random, sys

if len(sys.argv) != 2:
    sys.exit("usage: gen.py DIR  (writes the instances into DIR, outside the repository)")
OUT = sys.argv[1]


def write(name, comment, items, secondary, options):
    with open(os.path.join(OUT, name + ".dlx"), "w") as f:
        f.write("| %s\n" % comment)
        f.write(" ".join(items) + (" | " + " ".join(secondary) if secondary else "") + "\n")
        for o in options:
            f.write(" ".join(o) + "\n")


def latin(n, reduced):
    def allowed(i, j, d):
        if i == 0 and j != d - 1:
            return False
        if reduced and j == 0 and i != d - 1:
            return False
        return True
    items = ["r%d_%d" % (i, d) for i in range(n) for d in range(1, n + 1)] + \
            ["c%d_%d" % (j, d) for j in range(n) for d in range(1, n + 1)]
    sec = ["x%d_%d" % (i, j) for i in range(n) for j in range(n)]
    opts = []
    for i in range(n):
        for j in range(n):
            for d in range(1, n + 1):
                if allowed(i, j, d):
                    opts.append(["r%d_%d" % (i, d), "x%d_%d:%d" % (i, j, d)])
                    opts.append(["c%d_%d" % (j, d), "x%d_%d:%d" % (i, j, d)])
    kind = "reduced (first row and column fixed)" if reduced else "first row fixed"
    write("latin_%d_%s" % (n, "red" if reduced else "row"),
          "Latin squares of order %d, %s; colored cells" % (n, kind), items, sec, opts)


def wordrect(r, c, k, seed, alpha="abcdef"):
    rng = random.Random(seed)
    def words(length):
        s = set()
        while len(s) < k:
            s.add("".join(rng.choice(alpha) for _ in range(length)))
        return sorted(s)
    wr, wc = words(c), words(r)
    items = ["a%d" % i for i in range(r)] + ["d%d" % j for j in range(c)]
    sec = ["c%d_%d" % (i, j) for i in range(r) for j in range(c)]
    opts = [["a%d" % i] + ["c%d_%d:%s" % (i, j, w[j]) for j in range(c)] for i in range(r) for w in wr]
    opts += [["d%d" % j] + ["c%d_%d:%s" % (i, j, w[i]) for i in range(r)] for j in range(c) for w in wc]
    write("wordrect_%dx%d_%d_%d" % (r, c, k, seed),
          "%dx%d word rectangle, %d random words per direction over '%s', seed %d; colored cells"
          % (r, c, k, alpha, seed), items, sec, opts)


def rowcol(n, rlo, rhi, csum, name, m=None, chi=None):
    m = n if m is None else m
    chi = csum if chi is None else chi
    items = ["%d:%d|r%d" % (rlo, rhi, i) for i in range(n)] + ["%d:%d|c%d" % (csum, chi, j) for j in range(m)]
    opts = [["r%d" % i, "c%d" % j] for i in range(n) for j in range(m)]
    write(name, "0/1 %dx%d matrices, row sums in %d..%d, column sums in %d..%d; multiplicities"
          % (n, m, rlo, rhi, csum, chi), items, [], opts)


def stars(n, k):
    items = ["%d:%d|r%d" % (k, k, i) for i in range(n)] + ["%d:%d|c%d" % (k, k, j) for j in range(n)]
    sec = ["b%d_%d" % (i, j) for i in range(n - 1) for j in range(n - 1)]
    opts = []
    for i in range(n):
        for j in range(n):
            o = ["r%d" % i, "c%d" % j]
            o += ["b%d_%d" % (a, b) for a in (i - 1, i) for b in (j - 1, j) if 0 <= a < n - 1 and 0 <= b < n - 1]
            opts.append(o)
    write("stars_%d_%d" % (n, k), "%d stars in every row and column of a %dx%d grid, none touching; "
          "multiplicities + secondary 2x2 blocks" % (k, n, n), items, sec, opts)


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    # sizes: the small ones check correctness, the last of each family takes DLX2/DLX3 1-10 s
    # (latin_6_row, 1128960 solutions, and latin_7_red, 16942080, are far beyond 10 s)
    for n in (4, 5):
        latin(n, False)
    for n in (5, 6):
        latin(n, True)
    for args in [(4, 4, 60, 1), (4, 5, 150, 1), (5, 5, 120, 1), (4, 6, 150, 3), (5, 5, 200, 1)]:
        wordrect(*args)
    for n in (4, 5, 6, 7):
        rowcol(n, 2, 2, 2, "rowcol2_%d" % n)
    rowcol(6, 3, 3, 3, "rowcol3_6")
    rowcol(6, 1, 3, 2, "rowcol_6_13_2")
    rowcol(6, 2, 3, 2, "rowcol_6x7_23_2", m=7)
    # Longer runs, for threads and shards: row sums 1..2 and column sums 1..3 (25.2M
    # solutions), and A001499(8) = 187530840.
    rowcol(6, 1, 2, 1, "mcc_6x6_r1-2_c1-3", chi=3)
    rowcol(8, 2, 2, 2, "rowcol2_8")
    for n, k in [(8, 1), (9, 2), (10, 2)]:
        stars(n, k)
