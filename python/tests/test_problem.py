"""dlxc.Problem: problems from lists, 0/1 matrices and Knuth's text, checked against a
brute force over every subset of options and against `dlxc solve`; NumPy values where
ints and lists go; solution fields that pair up; pictures for notebooks."""

from __future__ import annotations

import itertools
import pickle
import random
from collections import Counter
from typing import Dict, List, Optional, Sequence, Tuple

import pytest

import dlxc
from conftest import cli

# Knuth's example of "Dancing links" (2000), the matrix of examples/exact-cover.dlx.
KNUTH_ITEMS = list("ABCDEFG")
KNUTH_OPTIONS = [list("CEF"), list("ADG"), list("BCF"), list("AD"), list("BG"), list("DEG")]


def brute(items: Sequence, options: Sequence[Sequence], secondary: Sequence = (),
          colors: Optional[Sequence[Optional[Dict]]] = None,
          mult: Optional[Dict] = None) -> List[Tuple[int, ...]]:
    """Every set of options (as sorted ids) that covers each primary item within its
    bounds (exactly once by default), each secondary item at most once unless every
    option covering it gives it the same color."""
    mult = mult or {}
    found = []
    for r in range(len(options) + 1):
        for chosen in itertools.combinations(range(len(options)), r):
            if any(not options[k] for k in chosen):
                continue  # the search never chooses an empty option
            cover = Counter(i for k in chosen for i in options[k])
            ok = all(lo <= cover[i] <= hi for i in items
                     for lo, hi in [_bounds(mult.get(i, 1))])
            for s in secondary:
                seen = {(colors[k] or {}).get(s) if colors else None
                        for k in chosen if s in options[k]}
                if cover[s] > 1 and (None in seen or len(seen) > 1):
                    ok = False
            if ok:
                found.append(chosen)
    return sorted(found)


def _bounds(b) -> Tuple[int, int]:
    return (b, b) if isinstance(b, int) else tuple(b)


def test_lists_knuth_example() -> None:
    p = dlxc.Problem(KNUTH_ITEMS, KNUTH_OPTIONS)
    assert p.count() == 1
    (s,) = list(p.solutions())
    assert s.ids == [0, 3, 4]
    assert [p.options[i] for i in s.ids] == [list("CEF"), list("AD"), list("BG")]
    assert isinstance(p.model, dlxc.Model)
    assert p.items == KNUTH_ITEMS and len(p.model.options) == 6


def test_lists_against_brute_force_random() -> None:
    rng = random.Random(29)
    for _ in range(40):
        n_items, n_options = rng.randint(1, 6), rng.randint(1, 10)
        items = [f"i{k}" for k in range(n_items)]
        options = [rng.sample(items, rng.randint(1, n_items)) for _ in range(n_options)]
        p = dlxc.Problem(items, options)
        expected = brute(items, options)
        assert p.count() == len(expected)
        assert sorted(tuple(s.ids) for s in p.solutions()) == expected


def test_secondary_colors_multiplicities_against_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(40):
        items = [0, 1, 2]
        secondary = [("s", 0), ("s", 1)]
        options, colors = [], []
        for _ in range(rng.randint(2, 9)):
            o = rng.sample(items, rng.randint(1, 2)) + rng.sample(secondary, rng.randint(0, 2))
            options.append(o)
            painted = {s: rng.choice("xy") for s in o if s in secondary and rng.random() < 0.7}
            colors.append(painted or None)
        mult = {0: (1, 2), 2: 2} if rng.random() < 0.5 else {}
        p = dlxc.Problem(items, options, secondary=secondary, colors=colors,
                         multiplicities=mult)
        expected = brute(items, options, secondary, colors, mult)
        assert sorted(tuple(s.ids) for s in p.solutions()) == expected


def test_costs_are_optimized_for_the_least_total() -> None:
    p = dlxc.Problem(["a", "b"], [["a", "b"], ["a"], ["b"]], costs=[5, 1, 2])
    best = p.optimize()
    assert best.value == 3 and best.optimal and best.solution.ids == [1, 2]


def test_problem_errors_are_value_errors() -> None:
    with pytest.raises(ValueError, match="not an item"):
        dlxc.Problem(["a"], [["b"]])
    with pytest.raises(ValueError, match="holds ':'"):
        dlxc.Problem(["a:b"], [["a:b"]])
    with pytest.raises(ValueError, match="same name"):
        dlxc.Problem(["1", 1], [["1"]])
    with pytest.raises(ValueError, match="only secondary items have colors"):
        dlxc.Problem(["a"], [["a"]], colors=[{"a": "red"}])
    with pytest.raises(ValueError, match="one entry per option"):
        dlxc.Problem(["a"], [["a"]], costs=[1, 2])


def test_matrix_from_lists_and_secondary_columns() -> None:
    rows = [[int(c in o) for c in KNUTH_ITEMS] for o in KNUTH_OPTIONS]
    p = dlxc.Problem.from_matrix(rows)
    assert p.count() == 1 and next(iter(p.solutions())).ids == [0, 3, 4]
    # Column 6 (G) secondary: G may stay uncovered.
    q = dlxc.Problem.from_matrix(rows, secondary=1)
    items = list(range(6))
    opts = [[c for c, v in enumerate(r) if v] for r in rows]
    assert q.count() == len(brute(items, opts, [6]))
    assert dlxc.Problem.from_matrix(rows, secondary=[6]).count() == q.count()


def test_matrix_from_numpy() -> None:
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(3)
    for dtype in (np.int8, np.int64, bool):
        m = (rng.random((12, 6)) < 0.3).astype(dtype)
        opts = [[int(c) for c in np.nonzero(r)[0]] for r in m]
        p = dlxc.Problem.from_matrix(m)
        expected = brute(list(range(6)), opts)
        assert sorted(tuple(s.ids) for s in p.solutions()) == expected
    # Rows of zeros keep the row numbers as option ids.
    m = np.array([[1, 0], [0, 0], [0, 1]])
    assert [s.ids for s in dlxc.Problem.from_matrix(m).solutions()] == [[0, 2]]


def test_matrix_from_numpy_identity() -> None:
    np = pytest.importorskip("numpy")
    p = dlxc.Problem.from_matrix(np.vstack([np.eye(4, dtype=np.uint8), np.ones((1, 4), int)]))
    assert p.count() == 2


def test_numpy_values_where_ints_go() -> None:
    np = pytest.importorskip("numpy")
    queens = dlxc.Model.from_file("examples/queens.dlx", params={"n": np.int64(8)})
    assert queens.count(threads=np.int32(2)) == 92
    p = dlxc.Problem(np.arange(3), [np.array([0, 1]), [np.int64(2)], [0], [1, 2]],
                     multiplicities={np.int64(0): 1}, costs=np.array([1, 1, 1, 1]))
    assert p.count() == 2
    m = dlxc.Model("param flags = [true]\nparam xs = [1]\nitem a\noption o covers a\n",
                   params={"flags": np.array([True, False]), "xs": np.array([[1, 2]])})
    assert m.params == {"flags": "[true, false]", "xs": "[[1, 2]]"}


KNUTH_TEXT = """\
| colors: Knuth's DLX2 example
A B C | X Y
A B X:0 Y:0
A C X:1 Y:1
X:0 B
B X:1
C Y:1
"""


def test_knuth_text_and_path_count_as_dlxc_solve(tmp_path) -> None:
    path = tmp_path / "colors.dlx"
    path.write_text(KNUTH_TEXT)
    code, out, _ = cli("solve", str(path), "--count")
    assert code == 0
    assert dlxc.Problem.from_knuth(KNUTH_TEXT).count() == int(out)
    from_path = dlxc.Problem.from_knuth(str(path))
    assert from_path.count() == int(out) and from_path.name == str(path)
    assert dlxc.Problem.from_knuth(path).count() == int(out)


def test_knuth_errors_raise_model_error_with_solve_codes() -> None:
    with pytest.raises(dlxc.ModelError) as e:
        dlxc.Problem.from_knuth("A B\nA Z\n")
    assert e.value.codes and all(c.startswith("E08") for c in e.value.codes)


def test_problem_shards_and_pickles() -> None:
    p = dlxc.Problem(KNUTH_ITEMS, KNUTH_OPTIONS)
    q = pickle.loads(pickle.dumps(p))
    assert q.count() == 1 and q.options == p.options
    shards = pickle.loads(pickle.dumps(p.shards(3)))
    assert sum(s.count() for s in shards) == 1
    assert p.fingerprint == q.fingerprint


def test_solution_fields_pair_up() -> None:
    # Queens' options are declared row by row; the search chooses them in another order.
    m = dlxc.Model.from_file("examples/queens.dlx", params={"n": 6})
    names = m.options
    for s in m.solutions():
        assert len(s.ids) == len(s.options)
        assert s.ids == sorted(s.ids)
        for name, i in zip(s.options, s.ids):
            assert names[i] == name


def test_svg_of_painted_and_plain_solutions() -> None:
    pento = dlxc.Model.from_file("examples/pentomino.dlx", params={"rows": 3, "cols": 20})
    s = next(iter(pento.solutions()))
    svg = s._repr_svg_()
    assert svg is not None and svg.startswith("<svg") and svg == s.svg()
    assert "<text" not in s.svg(labels=False)
    with pytest.raises(ValueError, match="cells must be"):
        s.svg(cells="round")
    plain = next(iter(dlxc.Problem(KNUTH_ITEMS, KNUTH_OPTIONS).solutions()))
    assert plain.svg() is None and plain._repr_svg_() is None
    # A pickled solution keeps its fields but not its picture.
    again = pickle.loads(pickle.dumps(s))
    assert again == s and again.svg() is None


def test_svg_draws_what_the_model_declares() -> None:
    # sudoku.dlx declares its boxes (`draw region`); its clues are forced options.
    s = next(iter(dlxc.Model.from_file("examples/sudoku.dlx").solutions()))
    svg = s.svg()
    assert 'data-lines="regions"' in svg
    assert svg.count('data-clue="1"') == 17  # the default puzzle has 17 clues
    # tetrahexes.dlx says `draw cells hex`: hexagons (six corners) unless overridden.
    t = next(iter(dlxc.Model.from_file("examples/tetrahexes.dlx").solutions()))
    first = t.svg().split("<polygon points=\"", 1)[1].split('"', 1)[0]
    assert len(first.split()) == 6
    square = t.svg(cells="square").split("<polygon points=\"", 1)[1].split('"', 1)[0]
    assert len(square.split()) == 4
