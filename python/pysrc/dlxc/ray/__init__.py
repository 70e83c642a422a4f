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

import sys
import time
from typing import Any, Dict, Iterator, List, Optional, Tuple

import dlxc

__all__ = ["count", "solutions"]

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


def _connect(address: Optional[str]) -> Any:
    ray = _ray()
    if not ray.is_initialized():
        # No address: a local Ray on this machine.
        # No dashboard for a local Ray: it costs seconds to start and a process.
        extra = {"include_dashboard": False} if address is None else {}
        ray.init(address=address, log_to_driver=False, **extra)
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

    The share is the sum of the finished parts' weights (:attr:`dlxc.Shard.weight`,
    Knuth's estimate of a part's share of the tree), of what tasks cut short explored
    (their shard's weight less that of the parts they left) and of the dead ends met
    while splitting (a part's weight that none of its children has); the ETA assumes the rest of the
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


def _run(model: dlxc.Model, task: Any, extra: Tuple, address: Optional[str],
         parts: Optional[int], task_seconds: float, split: int, max_retries: int,
         progress: bool) -> Iterator[Tuple[str, Any]]:
    """Submits the parts of ``model`` and yields each listing task's finished result;
    timed-out parts come back split and are submitted again."""
    ray = _connect(address)
    remote = ray.remote(num_cpus=1, max_retries=max_retries)(task)
    if parts is None:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        parts = LIST_PARTS_PER_CPU * max(cpus, 1)
    pending: Dict[Any, dlxc.Shard] = {}
    first = model.parts(parts)
    for shard in first:
        pending[remote.remote(shard, task_seconds, split, *extra)] = shard
    done = 0
    found = 0
    # Dead ends met while splitting are explored, and their weight is in no part.
    share = 1.0 - sum(s.weight for s in first)
    report = _Progress(progress)
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
            for ref in ready:
                kind, value = ray.get(ref)
                shard = pending.pop(ref)
                if kind == "split":
                    for child in value:
                        pending[remote.remote(child, task_seconds, split, *extra)] = child
                    share += shard.weight - sum(c.weight for c in value)
                    continue
                done += 1
                share += shard.weight
                found += len(value)
                yield kind, value
            report.show(done, len(pending), found, share)
        report.show(done, 0, found, share, final=True)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


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
    if parts is None:
        parts = PARTS_PER_CPU * cpus
    pending: Dict[Any, dlxc.Shard] = {}

    def submit(shards: List[dlxc.Shard]) -> float:
        for shard in shards:
            pending[remote.remote(shard, task_seconds)] = shard
        return sum(s.weight for s in shards)

    # Dead ends met while splitting are explored, and their weight is in no part.
    share = 1.0 - submit(model.parts(parts))
    total = 0
    done = 0
    report = _Progress(progress)
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
            for ref in ready:
                n, rest = ray.get(ref)
                shard = pending.pop(ref)
                total += n
                done += 1
                # What the task explored, then the dead ends of splitting what it left.
                share += shard.weight - rest.weight
                if len(rest):
                    share += rest.weight - submit(_pieces(rest, cpus - len(pending)))
            report.show(done, len(pending), total, share)
        report.show(done, 0, total, share, final=True)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
    return total


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
    given = 0
    for _, found in _run(model, _solutions_task, (limit,), address, parts,
                         task_seconds, split, max_retries, progress):
        for s in found:
            if limit is not None and given >= limit:
                return
            given += 1
            yield s
