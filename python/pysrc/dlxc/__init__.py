"""dlxc from Python: compile exact-cover models (``.dlx``) and search them with the
Dancing Links engine.

>>> import dlxc
>>> queens = dlxc.Model.from_file("examples/queens.dlx", params={"n": 8})
>>> queens.count()
92
>>> first = next(iter(queens.solutions()))
>>> print(first)          # the grid the model paints, or the options one a line

Errors in a model raise :class:`ModelError`, carrying the same diagnostics (codes,
rendered report, spans) as ``dlxc check``. Searches run on a worker thread: the GIL is
free meanwhile, and Ctrl-C raises ``KeyboardInterrupt``. :mod:`dlxc.ray` counts on a
Ray cluster.
"""

from __future__ import annotations

import functools
import os
from typing import Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from ._dlxc import (
    Diag as Diagnostic,
    Estimate,
    LimitReached,
    Model,
    ModelError,
    Optimum,
    Shard,
    Solution,
    Solutions,
    Span,
    __version__,
)
from ._problem import Problem

__all__ = [
    "Diagnostic",
    "Estimate",
    "LimitReached",
    "Model",
    "ModelError",
    "Optimum",
    "Problem",
    "Record",
    "Shard",
    "Solution",
    "Solutions",
    "Span",
    "__version__",
]


class Record:
    """One record of a data file: its place in the file, and either its compiled
    instance (:attr:`model`) or why there is none (:attr:`error`).

    The search methods are the model's. A record that cannot be read or compiled
    raises its :class:`ModelError` from them, except an *unsolvable* one (a primary
    item no option covers), which counts 0 and has no solutions, as on the command
    line.
    """

    __slots__ = ("index", "line", "model", "error", "unsolvable")

    def __init__(self, index: int, line: int, model: Optional[Model],
                 error: Optional[ModelError], unsolvable: bool) -> None:
        self.index = index
        self.line = line
        self.model = model
        self.error = error
        self.unsolvable = unsolvable

    def _model(self) -> Optional[Model]:
        if self.model is None and not self.unsolvable:
            assert self.error is not None
            raise self.error
        return self.model

    def solutions(self, limit: Optional[int] = None, **limits) -> Iterator[Solution]:
        """A lazy iterator over the record's solutions (see :meth:`Model.solutions`)."""
        m = self._model()
        return iter(()) if m is None else m.solutions(limit, **limits)

    def count(self, threads: Optional[int] = None, **options) -> int:
        """The record's number of solutions (see :meth:`Model.count`: ``memo``,
        ``memo_order``, limits)."""
        m = self._model()
        return 0 if m is None else m.count(threads, **options)

    def sample(self, k: int, seed: Optional[int] = None, **limits) -> List[Solution]:
        """``k`` solutions of the record drawn uniformly at random (see
        :meth:`Model.sample`); none for an unsolvable record."""
        m = self._model()
        return [] if m is None else m.sample(k, seed, **limits)

    def optimize(self, **limits) -> Optimum:
        """The optimum of the record, or with ``best=k`` its k best solutions (see
        :meth:`Model.optimize`)."""
        m = self._model()
        if m is None:
            raise self.error  # type: ignore[misc]
        return m.optimize(**limits)

    def __repr__(self) -> str:
        state = "ok" if self.model is not None else (
            "unsolvable" if self.unsolvable else "error")
        return f"Record(index={self.index}, line={self.line}, {state})"


def _records(raw: Iterator[tuple]) -> Iterator[Record]:
    """Wraps the extension's record tuples (see :meth:`Model.records`)."""
    for index, line, m, error, unsolvable in raw:
        yield Record(index, line, m, error, unsolvable)


ParamItems = Tuple[Tuple[str, str], ...]


@functools.lru_cache(maxsize=16)
def _cached(text: str, name: str, params: ParamItems,
            record: Optional[Tuple[int, int, str]], kind: str) -> Model:
    # A process that unpickles many shards of one model compiles it once.
    return Model._restore(text, name, list(params), record, kind)


def _restore(text: str, name: str, params: Sequence[Sequence[str]],
             record: Optional[Sequence] = None, kind: str = "model") -> Model:
    """Rebuilds a pickled :class:`Model` (compiled once per process); `kind` is
    ``"knuth"`` for a :class:`Problem`'s."""
    rec = None if record is None else (int(record[0]), int(record[1]), str(record[2]))
    return _cached(text, name, tuple((str(k), str(v)) for k, v in params), rec, kind)


def _load_shard(text: str, name: str, params: Sequence[Sequence[str]],
                record: Optional[Sequence], kind: str, parts: Sequence[Sequence[int]],
                weights: Optional[Sequence[float]] = None,
                excluded: Optional[Sequence[Sequence[int]]] = None) -> Shard:
    """Rebuilds a pickled :class:`Shard` (pickles without weights share the tree
    equally among their parts; pickles without exclusions exclude nothing)."""
    w = None if weights is None else [float(x) for x in weights]
    e = None if excluded is None else [list(p) for p in excluded]
    return _restore(text, name, params, record, kind)._shard([list(p) for p in parts], w, e)


