"""Counting and listing solutions of a dlxc model on a Ray cluster.

The search tree is cut into parts (lists of forced options, :meth:`dlxc.Model.parts`),
each searched by a Ray task. A task that has not finished its part after
``task_seconds`` throws its partial result away and returns its part split into
children, which are submitted as new tasks: a tree whose parts are very unequal still
keeps every CPU busy. The children are submitted by the driver, not by the task, so
that the driver owns every task: a task whose worker dies is rerun by Ray
(``max_retries``), and a result is only used when its task returns, so nothing is
counted twice or lost.

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

#: Seconds a task searches its part before it splits it instead.
TASK_SECONDS = 5.0

#: Children a timed-out part is split into.
SPLIT = 8

#: Parts per cluster CPU to start with: enough that most finish within TASK_SECONDS,
#: since a part that does not is searched again as its children. With 4 a part, a
#: count of queens 16 on 2 CPUs (1 minute) spent half as long again as the CLI's
#: threads, most of it in work thrown away by parts that timed out.
PARTS_PER_CPU = 64


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


def _count_task(shard: dlxc.Shard, seconds: float, split: int) -> Tuple[str, Any]:
    """Counts a part, or splits it when it takes longer than ``seconds``."""
    try:
        return ("count", shard.count(1, time_limit=seconds))
    except dlxc.LimitReached:
        return ("split", shard.split(split))


def _solutions_task(shard: dlxc.Shard, seconds: float, split: int,
                    limit: Optional[int]) -> Tuple[str, Any]:
    """Lists a part's solutions, or splits it when it takes longer than ``seconds``."""
    try:
        return ("solutions", list(shard.solutions(limit, time_limit=seconds)))
    except dlxc.LimitReached:
        return ("split", shard.split(split))


class _Progress:
    """Parts done, solutions so far, the share of the tree done and an ETA, on stderr.

    The share is the sum of the finished parts' weights (:attr:`dlxc.Shard.weight`,
    Knuth's estimate of a part's share of the tree) and of the dead ends met while
    splitting (a part's weight that none of its children has); the ETA assumes the rest of the
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
        print(f"dlxc.ray: {done} parts done, {pending} running or queued, "
              f"{found} solutions so far, {100 * min(share, 1.0):.1f}% of the tree, "
              f"{elapsed:.1f}s elapsed, ETA {left}",
              file=sys.stderr, flush=True)


def _run(model: dlxc.Model, task: Any, extra: Tuple, address: Optional[str],
         parts: Optional[int], task_seconds: float, split: int, max_retries: int,
         progress: bool) -> Iterator[Tuple[str, Any]]:
    """Submits the parts of ``model`` and yields each task's finished result; timed-out
    parts come back split and are submitted again."""
    ray = _connect(address)
    remote = ray.remote(num_cpus=1, max_retries=max_retries)(task)
    if parts is None:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        parts = PARTS_PER_CPU * max(cpus, 1)
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
                found += value if kind == "count" else len(value)
                yield kind, value
            report.show(done, len(pending), found, share)
        report.show(done, 0, found, share, final=True)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


def count(model: dlxc.Model, address: Optional[str] = None, *,
          parts: Optional[int] = None, task_seconds: float = TASK_SECONDS,
          split: int = SPLIT, max_retries: int = 3, progress: bool = False) -> int:
    """The exact number of solutions of ``model``, counted on a Ray cluster.

    ``address``: the cluster (``"auto"``, ``"ray://host:10001"``, ...), or a local Ray
    when ``None`` (an already initialized Ray is used as it is). ``parts``: parts to
    start with (default: 64 per CPU of the cluster). ``task_seconds``: how long a task
    searches before it splits its part into ``split`` children. ``max_retries``: reruns
    of a task whose worker died. ``progress``: print progress to stderr.
    """
    total = 0
    for _, n in _run(model, _count_task, (), address, parts, task_seconds, split,
                     max_retries, progress):
        total += n
    return total


def solutions(model: dlxc.Model, address: Optional[str] = None, *,
              limit: Optional[int] = None, parts: Optional[int] = None,
              task_seconds: float = TASK_SECONDS, split: int = SPLIT,
              max_retries: int = 3, progress: bool = False) -> Iterator[dlxc.Solution]:
    """The solutions of ``model``, found on a Ray cluster, a part's worth at a time
    (in no fixed order). ``limit`` stops after that many; the other arguments are
    :func:`count`'s. Each part's solutions travel back whole, so this suits models
    whose solutions fit in memory part by part."""
    given = 0
    for _, found in _run(model, _solutions_task, (limit,), address, parts,
                         task_seconds, split, max_retries, progress):
        for s in found:
            if limit is not None and given >= limit:
                return
            given += 1
            yield s
