"""Counting and listing solutions of a dlxc model on a Ray cluster.

The search tree is cut into parts (lists of forced options, :meth:`dlxc.Model.parts`),
searched by Ray tasks. A counting task counts its parts for at most ``task_seconds``
(:meth:`dlxc.Shard.count_for`) and returns the exact count so far and the exact parts
it left, which the driver submits again as new tasks: dealt among the idle CPUs, and
split further when they are fewer than those, so a tree whose parts are very unequal
still keeps every CPU busy, and no work is done twice. A listing task that has not
finished its part after ``task_seconds`` throws its solutions away and returns its part
split into children instead. Tasks never submit tasks, the driver does: so it owns
every task, a task whose worker dies is rerun by Ray (``max_retries``), and a result is
only used when its task returns, so nothing is counted twice or lost.

Counts are Python ints, exact however large. On a real cluster, ``ray start --head``
on one machine, ``ray start --address HEAD:6379`` on the others (each with ``dlxc``
installed), then ``count(model, address="auto")`` (or ``python -m dlxc.ray MODEL
--count --address auto``) on any of them.
"""

from __future__ import annotations

import socket
import sys
import time
from typing import Any, Dict, Iterator, List, Optional, Tuple

import dlxc

__all__ = ["ClusterUnreachable", "count", "solutions"]

#: Seconds to wait for a cluster's address to take a connection before giving up.
CONNECT_SECONDS = 5.0


class ClusterUnreachable(ConnectionError):
    """No Ray cluster answers at the address given."""

#: Seconds a task searches its parts before it returns what is left of them.
TASK_SECONDS = 5.0

#: Children a listing task's timed-out part is split into.
SPLIT = 8

#: Parts per cluster CPU to start with, a task each. A count wastes nothing on a part
#: that takes long (its task returns what is left), so this is for the balance of the
#: first round and for the progress: enough that no CPU waits long for work.
PARTS_PER_CPU = 16

#: Parts per cluster CPU a listing starts with: a listing task that times out searches
#: its part again as children, so most parts should finish within TASK_SECONDS.
LIST_PARTS_PER_CPU = 64


def _ray():
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "dlxc.ray needs Ray: pip install 'ray>=2.40'") from e
    return ray


def _host_port(address: str) -> Optional[Tuple[str, int]]:
    """The host and port of ``HOST:PORT`` or ``ray://HOST:PORT``; ``None`` for
    ``auto``/``local`` and what has no port."""
    rest = address[len("ray://"):] if address.startswith("ray://") else address
    host, colon, port = rest.rpartition(":")
    if not colon or not port.isdigit():
        return None
    return host.strip("[]") or "127.0.0.1", int(port)


def _unreachable(address: str, why: str) -> ClusterUnreachable:
    return ClusterUnreachable(
        f"no Ray cluster answers at {address}: {why}\n"
        "help: start one there (`ray start --head --port=PORT`), check the address "
        "(HOST:PORT of the head, or ray://HOST:10001 for Ray Client), or leave "
        "--address out to count on a local Ray")


def _probe(address: str) -> None:
    """Raises :class:`ClusterUnreachable` when nothing takes a connection at
    ``address`` within :data:`CONNECT_SECONDS`. Ray's own connection retries for a
    minute or more, printing its warnings, before it gives up."""
    hp = _host_port(address)
    if hp is None:
        return
    try:
        with socket.create_connection(hp, timeout=CONNECT_SECONDS):
            pass
    except OSError as e:
        raise _unreachable(address, e.strerror or str(e) or type(e).__name__) from None


def _connect(address: Optional[str]) -> Any:
    ray = _ray()
    if not ray.is_initialized():
        if address is not None:
            _probe(address)
        # No address: a local Ray on this machine.
        # No dashboard for a local Ray: it costs seconds to start and a process.
        extra = {"include_dashboard": False} if address is None else {}
        try:
            ray.init(address=address, log_to_driver=False, **extra)
        except ConnectionError as e:
            # `auto` with no cluster on this machine, or a port that is not Ray's.
            raise _unreachable(address or "a local Ray", str(e).splitlines()[0]) from e
    return ray


def _count_task(shard: dlxc.Shard, seconds: float) -> Tuple[int, dlxc.Shard]:
    """Counts a shard's parts for at most ``seconds``: the exact count so far, and the
    exact parts left (empty when it finished)."""
    n, _, rest = shard.count_for(seconds, 1)
    return n, rest


def _solutions_task(shard: dlxc.Shard, seconds: float, split: int,
                    limit: Optional[int]) -> Tuple[str, Any]:
    """Lists a part's solutions, or splits it when it takes longer than ``seconds``."""
    try:
        return ("solutions", list(shard.solutions(limit, time_limit=seconds)))
    except dlxc.LimitReached:
        return ("split", shard.split(split))


class _Progress:
    """Tasks done, solutions so far, the share of the tree done and an ETA, on stderr.

    The share is that of :class:`_Tasks`: by the shards' weights (:attr:`dlxc.Shard.weight`,
    Knuth's estimate of a part's share of the tree); the ETA assumes the rest of the
    tree goes at the speed the done share went. Trees are seldom balanced, so it is an
    estimate, but one of the tree and not of the number of parts.
    """

    def __init__(self, enabled: bool, every: float = 1.0) -> None:
        self.enabled = enabled
        self.every = every
        self.start = time.monotonic()
        self.last = 0.0

    @staticmethod
    def eta(elapsed: float, share: float) -> Optional[float]:
        """Seconds left when ``share`` of the tree took ``elapsed`` seconds; ``None``
        before anything is done."""
        if share <= 0.0:
            return None
        return max(0.0, elapsed * (1.0 - share) / share)

    def show(self, done: int, pending: int, found: int, share: float,
             final: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not final and now - self.last < self.every:
            return
        self.last = now
        elapsed = now - self.start
        eta = 0.0 if final else self.eta(elapsed, share)
        left = "?" if eta is None else f"{eta:.0f}s"
        print(f"dlxc.ray: {done} tasks done, {pending} running or queued, "
              f"{found} solutions so far, {100 * min(share, 1.0):.1f}% of the tree, "
              f"{elapsed:.1f}s elapsed, ETA {left}",
              file=sys.stderr, flush=True)


class _Tasks:
    """The driver's tasks in flight, each with the shard it searches, and the progress.

    The share of the tree done is 1 less the weights of the shards in flight: a task
    that returns has explored its shard, but for the shards submitted again from what
    it left, and dead ends met while splitting are in no shard.
    """

    def __init__(self, ray: Any, remote: Any, args: Tuple, progress: bool) -> None:
        self.ray = ray
        self.remote = remote
        self.args = args
        self.pending: Dict[Any, dlxc.Shard] = {}
        self.share = 1.0
        self.done = 0
        self.found = 0
        self.report = _Progress(progress)

    def submit(self, shards: List[dlxc.Shard]) -> None:
        for shard in shards:
            self.pending[self.remote.remote(shard, *self.args)] = shard
            self.share -= shard.weight

    def finished(self) -> Iterator[Any]:
        """Each task's result as it returns, until none is in flight; the tasks still
        in flight when the caller stops are cancelled."""
        try:
            while self.pending:
                ready, _ = self.ray.wait(list(self.pending), num_returns=1, timeout=1.0)
                for ref in ready:
                    value = self.ray.get(ref)
                    self.share += self.pending.pop(ref).weight
                    self.done += 1
                    yield value
                self.report.show(self.done, len(self.pending), self.found, self.share)
            self.report.show(self.done, 0, self.found, self.share, final=True)
        finally:
            for ref in self.pending:
                self.ray.cancel(ref, force=True)


def _cpus(ray: Any) -> int:
    return max(int(ray.cluster_resources().get("CPU", 1)), 1)


def _pieces(rest: dlxc.Shard, idle: int) -> List[dlxc.Shard]:
    """What a task left, as the tasks to submit: one, when no CPU is idle; otherwise
    one for each idle CPU and one for the CPU just freed, dealt from its parts, or split
    first when they are fewer."""
    if idle <= 0:
        return [rest]
    want = idle + 1
    if len(rest) < want:
        return rest.split(want)
    return rest.deal(want)


def count(model: dlxc.Model, address: Optional[str] = None, *,
          parts: Optional[int] = None, task_seconds: float = TASK_SECONDS,
          split: int = SPLIT, max_retries: int = 3, progress: bool = False) -> int:
    """The exact number of solutions of ``model``, counted on a Ray cluster.

    ``address``: the cluster (``"auto"``, ``"ray://host:10001"``, ...), or a local Ray
    when ``None`` (an already initialized Ray is used as it is). ``parts``: parts to
    start with, a task each (default: 16 per CPU of the cluster). ``task_seconds``: how
    long a task counts before it returns the count so far and the parts it left, which
    go out again as new tasks. ``split`` is for :func:`solutions` (a count splits what a
    task left by the idle CPUs). ``max_retries``: reruns of a task whose worker died.
    ``progress``: print progress to stderr.
    """
    ray = _connect(address)
    remote = ray.remote(num_cpus=1, max_retries=max_retries)(_count_task)
    cpus = _cpus(ray)
    tasks = _Tasks(ray, remote, (task_seconds,), progress)
    tasks.submit(model.parts(parts if parts is not None else PARTS_PER_CPU * cpus))
    for n, rest in tasks.finished():
        tasks.found += n
        if len(rest):
            tasks.submit(_pieces(rest, cpus - len(tasks.pending)))
    return tasks.found


def solutions(model: dlxc.Model, address: Optional[str] = None, *,
              limit: Optional[int] = None, parts: Optional[int] = None,
              task_seconds: float = TASK_SECONDS, split: int = SPLIT,
              max_retries: int = 3, progress: bool = False) -> Iterator[dlxc.Solution]:
    """The solutions of ``model``, found on a Ray cluster, a part's worth at a time
    (in no fixed order). ``limit`` stops after that many; the other arguments are
    :func:`count`'s, except that ``parts`` defaults to 64 per CPU and that a task not
    done after ``task_seconds`` drops its solutions and comes back split into
    ``split`` children. Each part's solutions travel back whole, so this suits models
    whose solutions fit in memory part by part."""
    ray = _connect(address)
    remote = ray.remote(num_cpus=1, max_retries=max_retries)(_solutions_task)
    if parts is None:
        parts = LIST_PARTS_PER_CPU * _cpus(ray)
    tasks = _Tasks(ray, remote, (task_seconds, split, limit), progress)
    tasks.submit(model.parts(parts))
    given = 0
    for kind, found in tasks.finished():
        if kind == "split":
            tasks.done -= 1
            tasks.submit(found)
            continue
        tasks.found += len(found)
        for s in found:
            if limit is not None and given >= limit:
                return
            given += 1
            yield s
