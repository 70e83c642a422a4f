"""Counting on a local Ray cluster of several nodes: exact counts, also when a worker
process is killed while tasks run."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

import dlxc
import dlxc.ray as dray
from conftest import cli, published

ray = pytest.importorskip("ray", reason="dlxc.ray needs ray (pip install ray)")
from ray.cluster_utils import Cluster  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    # Two nodes of one CPU each on this machine: tasks go to both.
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    c.add_node(num_cpus=1)
    ray.init(address=c.address, log_to_driver=False)
    c.wait_for_nodes()
    yield c
    ray.shutdown()
    c.shutdown()


def test_the_eta_comes_from_the_share_of_the_tree_done() -> None:
    assert dray._Progress.eta(10.0, 0.25) == pytest.approx(30.0)
    assert dray._Progress.eta(10.0, 1.0) == 0.0
    assert dray._Progress.eta(10.0, 0.0) is None


def test_cluster_counts_are_published_counts(cluster, capsys) -> None:
    assert len([n for n in ray.nodes() if n["Alive"]]) >= 2
    queens = dlxc.Model.from_file("examples/queens.dlx", params={"n": 13})
    assert dray.count(queens, task_seconds=0.5) == published("queens_13.dlx")
    pento = dlxc.Model.from_file("examples/pentomino.dlx")
    # Short tasks, so parts time out and come back split.
    assert dray.count(pento, parts=4, task_seconds=0.5, progress=True) == \
        published("pento_6x10_raw.dlx")
    # The finished parts' weights add up to the whole tree, split parts included.
    lines = capsys.readouterr().err.splitlines()
    assert "100.0% of the tree" in lines[-1], lines[-3:]
    langford = dlxc.Model.from_file("examples/langford.dlx", params={"n": 12})
    _, out, _ = cli("run", "examples/langford.dlx", "-p", "n=12", "--count")
    assert dray.count(langford, task_seconds=0.5) == int(out)


def test_a_task_cut_short_returns_its_exact_rest() -> None:
    queens = dlxc.Model.from_file("examples/queens.dlx", params={"n": 12})
    shard = queens.parts(2)[0]
    whole = shard.count()
    n, rest = dray._count_task(shard, 0.001)
    assert len(rest) > 0 and n + rest.count() == whole
    # Parts left go out again in pieces when CPUs are idle, split when too few.
    pieces = dray._pieces(rest, 3)
    assert len(pieces) >= 4 and sum(p.count() for p in pieces) == whole - n
    assert dray._pieces(rest, 0)[0].parts == rest.parts


def test_tiny_tasks_count_exactly(cluster) -> None:
    queens = dlxc.Model.from_file("examples/queens.dlx", params={"n": 12})
    # Tasks of 10 ms: most are cut short and come back as the parts they left.
    assert dray.count(queens, parts=2, task_seconds=0.01, progress=True) == \
        published("queens_12.dlx")


def test_cluster_solutions_are_the_models(cluster) -> None:
    model = dlxc.Model.from_file("examples/queens.dlx", params={"n": 8})
    found = list(dray.solutions(model, task_seconds=0.5))
    assert sorted(str(s) for s in found) == sorted(str(s) for s in model.solutions())
    assert len(list(dray.solutions(model, limit=5))) == 5


@ray.remote(num_cpus=1)
def _pid() -> int:
    time.sleep(0.5)
    return os.getpid()


def test_a_killed_worker_costs_nothing_and_counts_nothing_twice(cluster) -> None:
    # About 20 s of CPU on this cluster's two: far longer than the second the killer
    # waits, however fast the engine gets (pentomino 6x10 once ended before the kill).
    queens = dlxc.Model.from_file("examples/queens.dlx", params={"n": 16})
    pids = set(ray.get([_pid.remote() for _ in range(4)]))
    killed = []

    def kill_one() -> None:
        # Once the count's tasks run on the workers, kill one of them outright.
        time.sleep(1.0)
        for pid in sorted(pids):
            try:
                os.kill(pid, signal.SIGKILL)
                killed.append(time.monotonic())
                return
            except ProcessLookupError:
                continue

    killer = threading.Thread(target=kill_one)
    killer.start()
    total = dray.count(queens, parts=8, task_seconds=1.0, max_retries=5)
    ended = time.monotonic()
    killer.join()
    assert killed, "no worker was there to kill"
    # The kill must land while the count runs, or it tests nothing.
    assert killed[0] < ended, "the count ended before the worker was killed"
    assert total == published("queens_16.dlx")


def _dead_address() -> str:
    """An address on this machine where nothing listens: a port just given back."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"127.0.0.1:{port}"


def test_a_dead_address_fails_with_its_own_message() -> None:
    import subprocess
    import sys
    address = _dead_address()
    # Ray alone retries for over a minute; the subprocess's timeout is the bound the
    # command must keep (a hang fails the test with TimeoutExpired).
    r = subprocess.run(
        [sys.executable, "-m", "dlxc.ray", "examples/queens.dlx", "--count",
         "--address", address],
        capture_output=True, text=True, timeout=15)
    assert r.returncode == 2, r.stderr
    assert f"no Ray cluster answers at {address}" in r.stderr
    assert "help: start one there" in r.stderr
    # Ray Client's addresses are probed the same way (Ray may be initialized here by
    # the cluster tests, so the probe is called itself).
    with pytest.raises(dray.ClusterUnreachable, match=f"at ray://{address}"):
        dray._probe(f"ray://{address}")
