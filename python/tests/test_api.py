"""The Python API against the command line on the shipped models: the same counts,
solutions, diagnostics, records and Knuth text."""

from __future__ import annotations

import _thread
import os
import json
import pickle
import re
import threading
import time
import warnings
from pathlib import Path

import pytest

import dlxc
from conftest import ROOT, cli, params_args, published

# Models without an objective, with settings that keep each count under a second.
COUNTED = [
    ("queens.dlx", {"n": "8"}),
    ("langford.dlx", {"n": "7"}),
    ("pentomino.dlx", {"rows": "3", "cols": "20"}),
    ("exact-cover.dlx", {}),
    ("graph-coloring.dlx", {}),
    ("crossword.dlx", {}),
    ("star-battle.dlx", {}),
    ("pearl.dlx", {}),
    ("sudoku.dlx", {}),
]


def load(name: str, params: dict) -> dlxc.Model:
    return dlxc.Model.from_file(f"examples/{name}", params=params)


@pytest.mark.parametrize("name,params", COUNTED)
def test_counts_are_the_command_lines(name: str, params: dict) -> None:
    code, out, _ = cli("run", f"examples/{name}", "--count", *params_args(params))
    assert code in (0, 1)
    model = load(name, params)
    assert model.count() == int(out)
    assert model.count(threads=1) == int(out)


@pytest.mark.parametrize("name,params", COUNTED)
def test_solutions_print_as_the_command_line_prints_them(name: str, params: dict) -> None:
    code, out, _ = cli("run", f"examples/{name}", "--limit", "5", *params_args(params))
    model = load(name, params)
    found = [str(s) for s in model.solutions(limit=5)]
    assert code in (0, 1) and (found or out == "No solution\n")
    expected = out if found else ""
    assert ("\n\n".join(found) + "\n" if found else "") == expected


def test_published_counts() -> None:
    queens = dlxc.Model.from_file("examples/queens.dlx", params={"n": 12})
    assert queens.count() == published("queens_12.dlx")
    # Every solution (the command line's --up-to-symmetry gives the reduced count).
    pento = dlxc.Model.from_file("examples/pentomino.dlx", params={"rows": 3, "cols": 20})
    assert pento.count() == published("pento_3x20_raw.dlx")


@pytest.mark.parametrize("name,params", [
    ("pentomino.dlx", {"rows": 6, "cols": 10}),
    ("pentomino.dlx", {"rows": 3, "cols": 20}),
    ("soma.dlx", {}),
])
def test_counts_up_to_symmetry_are_the_command_lines(name: str, params: dict) -> None:
    code, out, _ = cli("run", f"examples/{name}", "--count", "--up-to-symmetry",
                       *params_args(params))
    assert code == 0
    model = dlxc.Model.from_file(f"examples/{name}", params=params)
    classes = model.count(threads=2, up_to_symmetry=True)
    assert classes == int(out.split()[-1])
    assert classes < model.count(threads=2)


def test_up_to_symmetry_without_a_declaration_is_e0930() -> None:
    model = dlxc.Model.from_file("examples/queens.dlx", params={"n": 6})
    with pytest.raises(dlxc.ModelError) as info:
        model.count(up_to_symmetry=True)
    assert info.value.codes == ["E0930"]


def test_solution_parts() -> None:
    model = dlxc.Model.from_file("examples/queens.dlx", params={"n": 6})
    sols = list(model.solutions())
    assert len(sols) == 4
    for s in sols:
        assert len(s.options) == 6 and s.grid is not None and len(s.grid) == 6
        assert sorted(model.options[i] for i in s.ids) == sorted(s.options)
    names = dlxc.Model.from_file("examples/exact-cover.dlx")
    (only,) = list(names.solutions())
    assert only.grid is None and str(only) == "\n".join(only.options)


def test_params_from_python_values_mean_what_the_command_line_means() -> None:
    hole = {(3, 3), (3, 4), (4, 3), (4, 4)}
    settings = {"rows": 8, "cols": 8, "hole": hole}
    model = dlxc.Model.from_file("examples/pentomino.dlx", params=settings)
    _, out, _ = cli("run", "examples/pentomino.dlx", "--count", "-p", "rows=8", "-p",
                    "cols=8", "-p", "hole={(3,3),(3,4),(4,3),(4,4)}")
    assert model.count() == int(out)
    colors = dlxc.Model.from_file("examples/graph-coloring.dlx", params={"colors": [1, 2, 3, 4]})
    _, out, _ = cli("run", "examples/graph-coloring.dlx", "--count", "-p", "colors=[1, 2, 3, 4]")
    assert colors.count() == int(out)
    with pytest.raises(TypeError):
        dlxc.Model.from_file("examples/queens.dlx", params={"n": 2.5})


def check_cases():
    for path in sorted((ROOT / "tests" / "ui" / "check").glob("*.dlx")):
        if not path.read_text(errors="replace").startswith("# args:"):
            yield path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", list(check_cases()))
def test_diagnostics_are_the_command_lines(path: str) -> None:
    code, _, stderr = cli("check", path)
    if code == 0:
        model = dlxc.Model.from_file(path)
        assert "".join(w.report if w.report.endswith("\n") else w.report + "\n"
                       for w in model.warnings) == stderr
        return
    with pytest.raises(dlxc.ModelError) as info:
        dlxc.Model.from_file(path)
    err = info.value
    assert err.report == stderr
    assert err.codes and all(f"dlx::{c}" in stderr for c in err.codes)
    assert Path(path).stem.split("-")[0] in err.codes
    for d in err.diagnostics:
        for span in d.spans:
            assert 0 <= span.start <= span.end and span.line >= 1 and span.col >= 1


def test_spans_are_byte_offsets_with_lines_and_columns() -> None:
    text = "item a\noption o covers b\n"
    with pytest.raises(dlxc.ModelError) as info:
        dlxc.Model(text, name="bad.dlx")
    (d,) = info.value.diagnostics
    (span,) = d.spans
    assert text[span.start:span.end] == "b"
    assert (span.line, span.col) == (2, 17)
    assert "bad.dlx:2:17" in info.value.report


def test_bad_params_are_diagnosed_as_on_the_command_line() -> None:
    code, _, stderr = cli("check", "examples/queens.dlx", "-p", "m=3")
    assert code == 2
    with pytest.raises(dlxc.ModelError) as info:
        dlxc.Model.from_file("examples/queens.dlx", params={"m": 3})
    assert info.value.report == stderr and info.value.codes == ["E0604"]


def test_knuth_text_is_the_command_lines() -> None:
    for name, params in [("queens.dlx", {"n": "5"}), ("sudoku.dlx", {})]:
        _, out, err = cli("compile", f"examples/{name}", "--emit", "knuth",
                          *params_args(params))
        model = load(name, params)
        # The command line's notes (names shortened) are warnings here.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            text = model.to_knuth()
        assert text == out
        assert [f"note: {w.message}" for w in caught] == [
            line for line in err.splitlines() if line.startswith("note: ")]
        assert text.count("\n") > len(model.options) // 2
    queens = load("queens.dlx", {"n": "5"})
    assert len(queens.items) == 5 + 5 + 9 + 9 and len(queens.options) == 25


def test_optimum_is_the_command_lines() -> None:
    code, out, _ = cli("run", "examples/matchsticks.dlx", "--data",
                       "examples/data/matchsticks.txt", "--value")
    model = dlxc.Model.from_file("examples/matchsticks.dlx")
    values = []
    for rec in model.records("examples/data/matchsticks.txt"):
        best = rec.optimize()
        assert best.optimal
        values.append(str(best.value))
        if best.solution is not None:
            assert len(best.solution.options) == best.value
    assert values == out.split()
    with pytest.raises(ValueError):
        dlxc.Model.from_file("examples/queens.dlx").optimize()


def test_records_count_as_on_the_command_line() -> None:
    for name, data in [("pearl.dlx", "pearl.txt"), ("pearl.dlx", "pearl-empty.txt")]:
        code, out, stderr = cli("run", f"examples/{name}", "--data", f"examples/data/{data}",
                                "--count")
        model = dlxc.Model.from_file(f"examples/{name}")
        recs = list(model.records(f"examples/data/{data}"))
        # A record that does not compile prints `error` on the command line (never a
        # count a reader would take for an answer), with its diagnostic on stderr; here it
        # carries the diagnostic.
        counts = [str(r.count()) if r.error is None or r.unsolvable else "error" for r in recs]
        assert counts == out.split()
        for r in recs:
            if r.error is not None:
                assert code == 2 or r.unsolvable
                assert all(f"dlx::{c}" in stderr for c in r.error.codes)
        assert [r.index for r in recs] == list(range(len(recs)))
        assert all(r.model is None or r.model.record[0] == r.index for r in recs)


def test_a_record_line_past_one_mib_fails_its_record_alone_as_on_the_command_line(
        tmp_path: Path) -> None:
    # A record of 3 MB on one line between two good ones: E0607, as `--data` says, and
    # the records after it are still read. The reader held the whole line (an endless
    # line from a pipe grew without bound) and compiled it as a record.
    data = tmp_path / "long-line.txt"
    data.write_text(f"2\n0\n\n{'1 ' * 1_500_000}\n\n3\n3 12 17 23\n")
    code, out, stderr = cli("run", "examples/matchsticks.dlx", "--data", str(data), "--value")
    assert out.split() == ["3", "error", "3"] and "dlx::E0607" in stderr
    model = dlxc.Model.from_file("examples/matchsticks.dlx")
    recs = list(model.records(str(data)))
    assert [r.index for r in recs] == [0, 1, 2]
    assert [r.error is None for r in recs] == [True, False, True]
    err = recs[1].error
    assert err.codes == ["E0607"] and not recs[1].unsolvable
    assert "a line of 3000000 bytes, longer than the 1048576" in str(err)
    assert "at most 1048576 bytes (1 MiB)" in err.report
    # Short: the line is shown by its first bytes, not echoed whole.
    assert len(err.report) < 2_000
    assert [str(r.optimize().value) for r in recs if r.error is None] == ["3", "3"]


def test_sudoku_records_give_the_command_lines_grids() -> None:
    params = {"n": "4", "alphabet": "ABCDEFGHIJKLMNOP"}
    _, out, _ = cli("run", "examples/sudoku.dlx", "--data", "examples/data/sudoku16-spoj.txt",
                    *params_args(params))
    # The defaults are a 9x9 puzzle, which does not fit n = 4: only records compile.
    with pytest.raises(dlxc.ModelError):
        dlxc.Model.from_file("examples/sudoku.dlx", params=params)
    model = dlxc.Model.from_file("examples/sudoku.dlx", params=params, for_records=True)
    with pytest.raises(dlxc.ModelError):
        model.count()
    blocks = []
    for rec in model.records("examples/data/sudoku16-spoj.txt"):
        blocks.append("\n".join(str(s) for s in rec.solutions()))
    assert "".join(b + "\n\n" for b in blocks) == out


def os_threads() -> int:
    """Threads of this process, the extension's search threads included (Linux)."""
    return len(os.listdir(f"/proc/{os.getpid()}/task"))


def test_iterators_are_lazy_and_stop_when_dropped() -> None:
    threads_before = os_threads()
    started = time.monotonic()
    huge = dlxc.Model.from_file("examples/queens.dlx", params={"n": 30})
    it = huge.solutions()
    first = next(it)
    assert len(first.options) == 30
    empty16 = dlxc.Model.from_file("examples/sudoku.dlx", params={
        "n": 4, "alphabet": "ABCDEFGHIJKLMNOP", "puzzle": "\n".join(["." * 16] * 16)})
    assert len(next(iter(empty16.solutions())).grid) == 16
    assert time.monotonic() - started < 5
    it.close()
    assert list(it) == [] and it.complete is False
    finished = dlxc.Model.from_file("examples/queens.dlx", params={"n": 6}).solutions()
    assert len(list(finished)) == 4 and finished.complete is True
    # A closed or dropped iterator's thread stops: abandoned searches of a tree far
    # too large to finish leave no thread behind.
    for _ in range(20):
        next(iter(huge.solutions()))
    deadline = time.monotonic() + 5
    while os_threads() > threads_before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert os_threads() <= threads_before


def test_ctrl_c_interrupts_a_count() -> None:
    model = dlxc.Model.from_file("examples/queens.dlx", params={"n": 24})
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        model.count(threads=1)
    assert time.monotonic() - started < 10
    timer.join()


def test_a_count_cut_by_its_time_limit_leaves_the_exact_rest() -> None:
    model = dlxc.Model.from_file("examples/queens.dlx", params={"n": 12})
    total = published("queens_12.dlx")
    shard = model.shard(1, 1)
    n, finished, rest = shard.count_for(0.005)
    # Queens 12 takes a tenth of a second or more: 5 ms cut it short.
    assert not finished and len(rest) > 0 and 0 <= n < total
    assert n + rest.count() == total
    assert 0.0 < rest.weight < shard.weight
    assert sum(h.count() for h in rest.deal(3)) == total - n
    # The rest goes on in short rounds, pickled between them, to the exact whole.
    counted, rounds = n, 1
    while len(rest):
        m, finished, rest = pickle.loads(pickle.dumps(rest)).count_for(0.005, 2)
        counted += m
        rounds += 1
        assert finished == (len(rest) == 0)
    assert counted == total and rounds > 2
    n, finished, rest = model.shard(1, 1).count_for(60)
    assert (n, finished, len(rest)) == (total, True, 0)
    # Multiplicities (crossword's words are used at most once) are cut and resumed too.
    crossword = load("crossword.dlx", {})
    whole = crossword.count()
    n, finished, rest = crossword.shard(1, 1).count_for(1e-9)
    assert n + rest.count() == whole
    n, finished, rest = crossword.shard(1, 1).count_for(60)
    assert (n, finished, len(rest)) == (whole, True, 0)
    with pytest.raises(ValueError):
        shard.count_for(0)


def test_limits_raise_limit_reached_with_a_lower_bound() -> None:
    model = dlxc.Model.from_file("examples/queens.dlx", params={"n": 12})
    with pytest.raises(dlxc.LimitReached) as info:
        model.count(threads=1, node_limit=1000)
    assert info.value.limit == "nodes" and 0 <= info.value.count < model.count()


def test_shards_add_up_and_pickle() -> None:
    model = dlxc.Model.from_file("examples/langford.dlx", params={"n": 8})
    total = model.count()
    shards = model.shards(5)
    assert len(shards) == 5
    assert sum(s.count() for s in shards) == total
    assert sum(s.weight for s in shards) == pytest.approx(1.0)
    again = [pickle.loads(pickle.dumps(s)) for s in shards]
    assert [s.parts for s in again] == [s.parts for s in shards]
    assert [s.weights for s in again] == [s.weights for s in shards]
    assert sum(s.count() for s in again) == total
    assert sum(len(list(s.solutions())) for s in again) == total
    parts = model.parts(16)
    assert len(parts) >= 16 and sum(p.count() for p in parts) == total
    # Langford pairs meet no dead end at the top of the tree, so nothing is lost.
    assert sum(p.weight for p in parts) == pytest.approx(1.0)
    children = parts[0].split(4)
    assert sum(c.count() for c in children) == parts[0].count()
    assert sum(c.weight for c in children) <= parts[0].weight * (1 + 1e-12)
    assert pickle.loads(pickle.dumps(model)).count() == total
    assert model.shards(3)[0].parts == model.shards(3)[0].parts


def cli_json(*args: str) -> dict:
    """The JSON summary (the last line) of a command-line count."""
    code, out, err = cli(*args, "--json")
    assert code in (0, 1), err
    return json.loads(out.splitlines()[-1])


@pytest.mark.parametrize("name,params,splits", [
    ("queens.dlx", {"n": "10"}, [(1, 3), (2, 3), (3, 3), (4, 7)]),
    ("langford.dlx", {"n": "8"}, [(1, 2), (2, 2), (5, 5)]),
    # Multiplicities split too: their parts also exclude options.
    ("star-battle.dlx", {}, [(1, 2), (2, 2)]),
])
def test_shard_k_of_n_is_the_command_lines(name: str, params: dict, splits: list) -> None:
    model = load(name, params)
    args = ["run", f"examples/{name}", *params_args(params), "--count"]
    whole = int(cli(*args)[1])
    for k, n in splits:
        summary = cli_json(*args, "--shard", f"{k}/{n}")
        assert summary["shard"] == f"{k}/{n}"
        assert summary["problem"] == model.fingerprint
        shard = model.shard(k, n)
        assert shard.count() == summary["solutions"], (name, k, n)
        assert model.shards(n)[k - 1].parts == shard.parts
    for n in {n for _, n in splits}:
        shards = model.shards(n)
        one_by_one = [model.shard(k, n) for k in range(1, n + 1)]
        assert [s.parts for s in shards] == [s.parts for s in one_by_one]
        assert [s.weights for s in shards] == [s.weights for s in one_by_one]
        counts = [s.count() for s in shards]
        assert sum(counts) == whole == model.count()
        again = [pickle.loads(pickle.dumps(s)) for s in shards]
        assert [s.count() for s in again] == counts
        assert [s.excluded for s in again] == [s.excluded for s in shards]
        if name == "star-battle.dlx":
            # Every shard has parts, and some exclude options.
            assert all(len(s) > 0 for s in shards)
            assert any(e for s in shards for e in s.excluded)
    with pytest.raises(ValueError):
        model.shard(3, 2)
    with pytest.raises(ValueError):
        model.shards(0)


def test_splits_past_the_command_lines_limit_are_refused_with_its_code() -> None:
    # `parts(10**9)` of a large tree split it until memory ran out, and `shards(10**9)`
    # asked for a list of 10^9 shards (32 GB) at once: both aborted the interpreter.
    # As `--shard 1/1000000000` is, they are E0916.
    model = dlxc.Model.from_file("examples/queens.dlx", params={"n": 16})
    calls = [
        lambda: model.parts(10**9),
        lambda: model.shards(10**9),
        lambda: model.shard(1, 10**9),
        lambda: model.shards(2)[0].split(10**9),
    ]
    for call in calls:
        with pytest.raises(dlxc.ModelError) as info:
            call()
        assert info.value.codes == ["E0916"], info.value.report
    # The limits themselves are allowed (on a tree small enough to split at once).
    small = dlxc.Model.from_file("examples/queens.dlx", params={"n": 6})
    shards = small.shards(10_000)
    assert len(shards) == 10_000 and sum(s.count() for s in shards) == 4
    assert sum(p.count() for p in small.parts(640_000)) == 4


def number(text: str) -> float:
    """A number as `dlxc estimate` prints it (`5.84e11`, `947`)."""
    return float(text.replace(",", ""))


def test_an_estimate_of_a_small_tree_is_exact_as_on_the_command_line() -> None:
    _, out, _ = cli("estimate", "examples/queens.dlx", "-p", "n=8")
    m = re.match(r"exact: ([\d,]+) solutions?, ([\d,]+) nodes", out)
    assert m, out
    e = load("queens.dlx", {"n": "8"}).estimate()
    assert e.exact and e.probes == 0
    assert e.count == int(number(m.group(1))) == 92
    assert e.nodes == number(m.group(2)) and e.nodes_error == 0.0
    assert e.seconds == e.trial_seconds < 0.2


def test_an_estimate_from_probes_is_the_command_lines() -> None:
    params = {"n": "20"}
    _, out, _ = cli("estimate", "examples/queens.dlx", *params_args(params),
                    "--probes", "300", "--seed", "3")
    got = {k: (v, pct) for k, v, pct in
           re.findall(r"^  (nodes|solutions) +(\S+) ± ([\d.]+)%$", out, re.M)}
    assert set(got) == {"nodes", "solutions"}, out
    assert "300 random probes (seed 3)" in out
    e = load("queens.dlx", params).estimate(probes=300, seed=3)
    assert not e.exact and e.count is None and e.probes == 300 and e.seed == 3
    for what, mean, error in [("nodes", e.nodes, e.nodes_error),
                              ("solutions", e.solutions, e.solutions_error)]:
        value, pct = got[what]
        shown = f"{mean:.0f}" if mean < 1e6 else f"{mean:.2e}"
        assert number(shown) == number(value), (what, mean, value)
        assert f"{100 * error / mean:.1f}" == pct, (what, error, pct)
    assert e.seconds == pytest.approx(e.nodes / e.speed)
    assert e.trial_seconds >= 0.19 and e.trial_nodes > 0
    # The same seed gives the same estimate, another seed another.
    again = load("queens.dlx", params).estimate(probes=300, seed=3)
    assert (again.nodes, again.solutions) == (e.nodes, e.solutions)
    other = load("queens.dlx", params).estimate(probes=300, seed=4)
    assert other.nodes != e.nodes
    with pytest.raises(ValueError):
        load("queens.dlx", params).estimate(probes=0)


def test_a_clash_of_forced_options_is_e0404() -> None:
    text = ("item a\nitem b\noption x covers a, b\noption y covers a\noption z covers b\n"
            "force x\nforce y\n")
    model = dlxc.Model(text, name="clash.dlx")
    with pytest.raises(dlxc.ModelError) as info:
        model.count()
    assert info.value.codes == ["E0404"]
