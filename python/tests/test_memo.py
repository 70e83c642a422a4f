"""Counting by memo, uniform random samples, the k best solutions, parameter values
that nest without end, and the objective in Knuth's text (#25, #26, #27): against the
command line, and against counts made here independently (a profile DP, a closed
form, brute force)."""

from __future__ import annotations

import _thread
import json
import threading
import time
import warnings
from collections import Counter
from typing import Dict, List, Sequence, Tuple

import pytest

import dlxc
from conftest import cli, params_args

DOMINOES = [[(0, 0), (0, 1)], [(0, 0), (1, 0)]]
# Each shape with its first cell in row-major order at (0, 0): monomino, dominoes,
# straight trominoes, and the four L trominoes (a 2x2 square less one cell).
TAOCP = DOMINOES + [
    [(0, 0)],
    [(0, 0), (0, 1), (0, 2)], [(0, 0), (1, 0), (2, 0)],
    [(0, 0), (1, -1), (1, 0)], [(0, 0), (1, 0), (1, 1)],
    [(0, 0), (0, 1), (1, 1)], [(0, 0), (0, 1), (1, 0)],
]


def tilings(rows: int, cols: int, shapes: Sequence[Sequence[Tuple[int, int]]]) -> int:
    """The tilings of a rows x cols board by `shapes`, by a profile DP that shares
    nothing with dlxc: cells in row-major order, the state the set of cells ahead
    already covered; the first open cell is covered by a shape's first cell."""
    states: Dict[int, int] = {0: 1}
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        after: Dict[int, int] = {}
        for mask, ways in states.items():
            if mask & 1:
                after[mask >> 1] = after.get(mask >> 1, 0) + ways
                continue
            for shape in shapes:
                m = mask
                for dr, dc in shape:
                    bit = dr * cols + dc
                    if not (0 <= r + dr < rows and 0 <= c + dc < cols) or m >> bit & 1:
                        break
                    m |= 1 << bit
                else:
                    after[m >> 1] = after.get(m >> 1, 0) + ways
        states = after
    return states.get(0, 0)


def fibonacci(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def dominoes(rows: int, cols: int) -> dlxc.Model:
    return dlxc.Model.from_file("examples/dominoes.dlx", params={"rows": rows, "cols": cols})


def test_counts_past_2_64_and_2_128_are_exact_python_ints() -> None:
    # The 2 x n strip has F(n+1) domino tilings.
    strip = dominoes(2, 200).count()
    assert strip == fibonacci(201) and strip > 2**128 and type(strip) is int
    assert dominoes(2, 200).count(memo=True, memo_order="band") == strip
    twelve = dominoes(12, 12).count()
    assert twelve == tilings(12, 12, DOMINOES) == 53060477521960000
    taocp = dlxc.Model.from_file("examples/taocp-tiling.dlx").count()
    assert taocp == tilings(8, 8, TAOCP) == 92109458286284989468604 and taocp > 2**64
    _, out, _ = cli("run", "examples/taocp-tiling.dlx", "--count")
    assert out == f"{taocp}\n"


# Small enough to count both ways in a second: plain, colors (graph-coloring),
# multiplicities (star-battle), forced options (pearl), pieces (soma).
BOTH_WAYS = [
    ("queens.dlx", {"n": "8"}),
    ("langford.dlx", {"n": "7"}),
    ("exact-cover.dlx", {}),
    ("graph-coloring.dlx", {}),
    ("star-battle.dlx", {}),
    ("pearl.dlx", {}),
    ("soma.dlx", {}),
    ("taocp-tiling.dlx", {"n": "4"}),
    ("dominoes.dlx", {"rows": "4", "cols": "5"}),
]


@pytest.mark.parametrize("name,params", BOTH_WAYS)
def test_memo_counts_are_the_plain_counts_and_the_command_lines(name: str, params: dict) -> None:
    model = dlxc.Model.from_file(f"examples/{name}", params=params)
    plain = model.count(memo=False)
    assert model.count(memo=True) == model.count(memo="on") == plain
    assert model.count() == model.count(memo="auto") == model.count(memo="off") == plain
    for order in ("declared", "band", "mrv"):
        assert model.count(memo=True, memo_order=order) == plain
    _, out, _ = cli("run", f"examples/{name}", *params_args(params), "--count", "--memo", "on")
    assert out == f"{plain}\n"


def test_memo_counts_of_problems_from_lists_match_brute_force() -> None:
    # The covers of {0..5} by intervals of length 1 to 3 are the compositions of 6
    # into parts of at most 3: 24. Then a secondary item that two options share with
    # the same color: both together, or the third option alone.
    items = list(range(6))
    options = [list(range(a, a + k)) for k in (1, 2, 3) for a in range(7 - k)]
    p = dlxc.Problem(items, options)
    assert p.count(memo=True) == p.count(memo=False) == 24
    q = dlxc.Problem([0, 1], [[0, "s"], [1, "s"], [0, 1]], secondary=["s"],
                     colors=[{"s": "x"}, {"s": "x"}, None])
    assert q.count(memo=True) == q.count(memo=False) == 2


def test_memo_arguments_are_checked_as_the_command_line_checks_its_flags() -> None:
    model = dominoes(3, 4)
    with pytest.raises(ValueError, match="memo must be"):
        model.count(memo="sometimes")
    with pytest.raises(TypeError, match="memo must be a str or a bool"):
        model.count(memo=1)
    with pytest.raises(ValueError, match="memo_order must be"):
        model.count(memo=True, memo_order="zigzag")
    # The command line's refusals, with their codes.
    rc, _, err = cli("run", "examples/dominoes.dlx", "--count", "--memo", "off",
                     "--memo-order", "band")
    assert rc == 2 and "dlx::E0950" in err
    with pytest.raises(dlxc.ModelError) as info:
        model.count(memo=False, memo_order="band")
    assert info.value.codes == ["E0950"]
    soma = dlxc.Model.from_file("examples/soma.dlx")
    with pytest.raises(dlxc.ModelError) as info:
        soma.count(memo=True, up_to_symmetry=True)
    assert info.value.codes == ["E0952"]
    assert soma.count(up_to_symmetry=True) == soma.count(memo="off", up_to_symmetry=True)
    matchsticks = dlxc.Model.from_file("examples/matchsticks.dlx")
    rc, _, err = cli("run", "examples/matchsticks.dlx", "--count", "--memo", "on")
    assert rc == 2 and "dlx::E0952" in err
    with pytest.raises(dlxc.ModelError) as info:
        matchsticks.count(memo=True)
    assert info.value.codes == ["E0952"]


def test_a_memo_count_cut_short_raises_limit_reached_with_an_int() -> None:
    with pytest.raises(dlxc.LimitReached) as info:
        dominoes(30, 30).count(memo=True, time_limit=0.001)
    assert info.value.limit == "time" and type(info.value.count) is int
    assert 0 <= info.value.count < tilings(8, 8, DOMINOES) ** 10


def test_ctrl_c_interrupts_a_memo_count() -> None:
    # Dominoes 16x16 in the MRV order: seconds of memo counting, stopped at 0.5 s.
    model = dominoes(16, 16)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        model.count(memo=True, memo_order="mrv")
    assert time.monotonic() - started < 10
    timer.join()


def test_samples_are_the_command_lines_and_the_same_for_the_same_seed() -> None:
    model = dominoes(3, 4)
    drawn = model.sample(6, seed=7)
    assert len(drawn) == 6 and all(isinstance(s, dlxc.Solution) for s in drawn)
    assert drawn == model.sample(6, seed=7)
    assert [s.ids for s in drawn] == [s.ids for s in model.sample(6, 7)]
    assert [s.ids for s in drawn] != [s.ids for s in model.sample(6, seed=8)]
    _, out, _ = cli("run", "examples/dominoes.dlx", "-p", "rows=3", "-p", "cols=4",
                    "--sample", "6", "--seed", "7")
    assert "\n\n".join(str(s) for s in drawn) + "\n" == out
    _, out, _ = cli("run", "examples/dominoes.dlx", "-p", "rows=3", "-p", "cols=4",
                    "--sample", "6", "--json")
    lines = [json.loads(line) for line in out.splitlines()[:-1]]
    assert [s.options for s in model.sample(6)] == [line["options"] for line in lines]
    # A big board: every draw a tiling of it.
    big = dominoes(12, 12).sample(3, seed=1)
    assert len(big) == 3 and all(len(s) == 72 for s in big)
    assert len({tuple(s.ids) for s in big}) == 3


def test_samples_are_uniform() -> None:
    # The 3x4 board has 11 tilings: every one is drawn, at frequencies that pass a
    # chi-square test (10 degrees of freedom; 29.59 is the 0.999 quantile). The seed
    # is fixed, so the test gives the same answer every run; a draw that picked each
    # option with equal chance, not by the counts, fails it.
    model = dominoes(3, 4)
    every = {tuple(s.ids) for s in model.solutions()}
    assert len(every) == 11
    n = 11 * 400
    seen = Counter(tuple(s.ids) for s in model.sample(n, seed=2024))
    assert set(seen) == every
    expected = n / len(every)
    chi2 = sum((seen[t] - expected) ** 2 / expected for t in every)
    assert chi2 < 29.59, (chi2, seen)
    # Forced options and secondary items: the draws are solutions of the model.
    pearl = dlxc.Model.from_file("examples/pearl.dlx")
    solutions = {tuple(s.ids) for s in pearl.solutions()}
    drawn = Counter(tuple(s.ids) for s in pearl.sample(200, seed=3))
    assert set(drawn) == solutions and all(set(pearl.forced) <= set(t) for t in drawn)


def test_samples_refused_where_the_memo_cannot_draw_them() -> None:
    rc, _, err = cli("run", "examples/matchsticks.dlx", "--sample", "3")
    assert rc == 2 and "dlx::E0952" in err
    with pytest.raises(dlxc.ModelError) as info:
        dlxc.Model.from_file("examples/matchsticks.dlx").sample(3)
    assert info.value.codes == ["E0952"] and "--sample" in str(info.value)
    with pytest.raises(dlxc.ModelError) as info:
        dominoes(3, 4).sample(0)
    assert info.value.codes == ["E0953"]
    # No solution: nothing drawn, as the command line prints `No solution`.
    assert dominoes(3, 3).sample(5) == []
    rc, out, _ = cli("run", "examples/dominoes.dlx", "-p", "rows=3", "-p", "cols=3",
                     "--sample", "5")
    assert (rc, out) == (1, "No solution\n")
    # A node limit cuts the count the draws are weighted by: nothing is drawn.
    with pytest.raises(dlxc.LimitReached) as info:
        dominoes(12, 12).sample(2, node_limit=10)
    assert info.value.limit == "nodes"


def test_a_sample_with_a_node_limit_or_an_engine_is_drawn_by_memo() -> None:
    # Both used to turn the memo off, and the command line then listed every
    # solution in search order as its sample.
    for extra in (["--node-limit", "100000"], ["--engine", "links"]):
        rc, out, _ = cli("run", "examples/dominoes.dlx", "-p", "rows=3", "-p", "cols=4",
                         "--sample", "2", "--seed", "7", *extra)
        _, plain, _ = cli("run", "examples/dominoes.dlx", "-p", "rows=3", "-p", "cols=4",
                          "--sample", "2", "--seed", "7")
        assert rc == 0 and out == plain and out.count("\n\n") == 1
    assert dominoes(3, 4).sample(2, seed=7, node_limit=100000) == dominoes(3, 4).sample(2, 7)


def cli_best(args: List[str], k: int) -> List[dict]:
    code, out, err = cli(*args, "--best", str(k), "--json")
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()[:-1]]


@pytest.mark.parametrize("fixture", ["queens_08_cost.dlx5", "wordrect_4x4_cost.dlx5"])
def test_the_k_best_of_a_cost_file_are_the_command_lines(fixture: str) -> None:
    path = f"tests/fixtures/{fixture}"
    expected = cli_best(["solve", path], 10)
    best = dlxc.Problem.from_knuth(path).optimize(best=10)
    assert best.values == [line["objective"] for line in expected]
    assert [s.options for s in best.solutions] == [line["options"] for line in expected]
    assert best.values == sorted(best.values) and best.value == best.values[0]
    assert best.optimal and best.solution == best.solutions[0]
    one = dlxc.Problem.from_knuth(path).optimize()
    assert one.value == best.value and one.values == [one.value]
    assert one.solutions == [one.solution]


@pytest.mark.parametrize("fixture", ["queens_08_cost.dlx5", "wordrect_4x4_cost.dlx5"])
def test_optimizing_on_threads_is_the_command_lines(fixture: str) -> None:
    path = f"tests/fixtures/{fixture}"
    problem = dlxc.Problem.from_knuth(path)
    for threads in (2, 3):
        expected = cli_best(["solve", path, "--threads", str(threads)], 10)
        best = problem.optimize(threads, best=10)
        assert best.values == [line["objective"] for line in expected]
        assert [s.options for s in best.solutions] == [line["options"] for line in expected]
        # The values are those of one thread; the listing the same on any number.
        assert best.values == problem.optimize(best=10).values
        assert best.solutions == problem.optimize(2, best=10).solutions
        one = problem.optimize(threads=threads)
        assert one.optimal and one.value == problem.optimize().value


def test_the_k_best_of_a_model_are_the_command_lines() -> None:
    expected = cli_best(["run", "examples/target-sudoku.dlx"], 3)
    best = dlxc.Model.from_file("examples/target-sudoku.dlx").optimize(best=3)
    assert best.values == [line["objective"] for line in expected]
    assert [s.grid for s in best.solutions] == [line["grid"] for line in expected]
    assert [s.options for s in best.solutions] == [line["options"] for line in expected]
    # Maximized: the best value first.
    assert best.values == sorted(best.values, reverse=True)


def test_the_k_best_are_refused_as_on_the_command_line() -> None:
    for path, kwargs, code in [
        ("examples/queens.dlx", {"best": 3}, "E0922"),            # no objective
        ("examples/target-sudoku.dlx", {"best": 0}, "E0922"),     # none asked
        ("examples/setcover.dlx", {"best": 2}, "E0507"),          # at-least-once items
    ]:
        rc, _, err = cli("run", path, "--best", str(kwargs["best"]))
        assert rc == 2 and f"dlx::{code}" in err, err
        with pytest.raises(dlxc.ModelError) as info:
            dlxc.Model.from_file(path).optimize(**kwargs)
        assert info.value.codes == [code]


def nested(depth: int) -> list:
    v: list = [1]
    for _ in range(depth - 1):
        v = [v]
    return v


def test_deep_and_self_containing_values_are_model_errors() -> None:
    # These crashed the interpreter (a stack overflow in the conversion).
    for value in (nested(10_000), {"k": nested(5_000)}, tuple(nested(100))):
        with pytest.raises(dlxc.ModelError) as info:
            dlxc.Model.from_file("examples/queens.dlx", params={"n": value})
        assert info.value.codes == ["E0602"] and "nested in it more than 64" in str(info.value)
    cycle: list = [1]
    cycle.append(cycle)
    loop: dict = {}
    loop["self"] = [loop]
    for value in (cycle, loop, [[cycle]]):
        with pytest.raises(dlxc.ModelError) as info:
            dlxc.Model.from_file("examples/queens.dlx", params={"n": value})
        assert info.value.codes == ["E0602"] and "contains itself" in str(info.value)


def test_values_as_deep_as_the_language_allows_reach_the_model() -> None:
    # 64 levels is the language's own limit: such a value is the model's to judge, as
    # on the command line; 65 is refused by both with E0602.
    for depth, code in [(64, None), (65, "E0602")]:
        text = "[" * depth + "1" + "]" * depth
        rc, _, err = cli("check", "examples/queens.dlx", "-p", f"n={text}")
        with pytest.raises(dlxc.ModelError) as info:
            dlxc.Model.from_file("examples/queens.dlx", params={"n": nested(depth)})
        if code is None:
            assert info.value.report == err and "E0602" not in info.value.codes
        else:
            assert f"dlx::{code}" in err and info.value.codes == [code]
    # One list twice is no cycle.
    shared = [3, 4]
    text = "param p = [[1]]\nitem a[x] for x in p[0]\noption o[x] for x in p[1]\n    covers a[x]\n"
    m = dlxc.Model(text, params={"p": [shared, shared]})
    assert m.count() == 1


# Four cells, covered by singles (cost 3) or pairs (cost 5, 4, 3): the least cost is
# 8 (two pairs), the fewest options 2.
COSTED = """item x[i] for i in 0..4
option one[i] for i in 0..4
    covers x[i]
    cost 3
option two[i] for i in 0..3
    covers x[i], x[i + 1]
    cost 5 - i
"""


def test_knuth_text_keeps_the_objective_as_the_command_line(tmp_path) -> None:
    rc, out, err = cli("compile", "examples/matchsticks.dlx", "--emit", "knuth")
    assert rc == 0
    model = dlxc.Model.from_file("examples/matchsticks.dlx")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        text = model.to_knuth()
    assert text == out
    notes = [str(w.message) for w in caught]
    assert any("`minimize count` is written as a cost of 1" in n for n in notes)
    assert [f"note: {n}" for n in notes] == [line for line in err.splitlines()
                                             if line.startswith("note: ")]
    # Costs, and the fewest options as a cost of 1 each: the file written is solved
    # for the model's optimum.
    for goal, optimum in [("minimize cost", 8), ("minimize count", 2)]:
        path = tmp_path / f"{goal.split()[1]}.dlx"
        path.write_text(COSTED + goal + "\n")
        rc, out, err = cli("compile", str(path), "--emit", "knuth")
        model = dlxc.Model.from_file(str(path))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            text = model.to_knuth()
        assert rc == 0 and text == out
        assert [f"note: {w.message}" for w in caught] == [
            line for line in err.splitlines() if line.startswith("note: ")]
        assert model.optimize().value == optimum
        assert dlxc.Problem.from_knuth(text).optimize().value == optimum
    rc, _, err = cli("compile", "examples/target-sudoku.dlx", "--emit", "knuth")
    assert rc == 2 and "dlx::E0917" in err
    with pytest.raises(dlxc.ModelError) as info:
        dlxc.Model.from_file("examples/target-sudoku.dlx").to_knuth()
    assert info.value.codes == ["E0917"]
