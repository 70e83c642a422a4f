"""Type stubs of the extension module (see the docstrings of :mod:`dlxc`)."""

from os import PathLike
from typing import Any, Iterator, List, Mapping, Optional, Tuple, Union

__version__: str

_Params = Optional[Mapping[str, Any]]
_Path = Union[str, PathLike[str]]

class ModelError(Exception):
    """A model, its parameters or a data record is wrong, or the engine refuses it."""
    codes: List[str]
    report: str
    diagnostics: List[Diag]

class LimitReached(Exception):
    """A time or node limit cut a search short."""
    count: int
    nodes: int
    limit: str

class Span:
    start: int
    end: int
    line: int
    col: int
    label: Optional[str]
    primary: bool

class Diag:
    code: Optional[str]
    severity: str
    message: str
    help: Optional[str]
    source: Optional[str]
    spans: List[Span]
    report: str

class Solution:
    """One solution. `ids[k]` is the id of the option named `options[k]` (both in
    declaration order); names and grid are made when first read."""
    options: List[str]
    ids: List[int]
    grid: Optional[List[str]]
    def __init__(self, options: List[str], ids: List[int], grid: Optional[List[str]]) -> None: ...
    def __len__(self) -> int: ...
    def svg(self, cells: str = "square", labels: bool = True) -> Optional[str]: ...
    def _repr_svg_(self) -> Optional[str]: ...

class Solutions(Iterator[Solution]):
    complete: Optional[bool]
    def __iter__(self) -> Solutions: ...
    def __next__(self) -> Solution: ...
    def close(self) -> None: ...

class Optimum:
    value: Optional[int]
    optimal: bool
    solution: Optional[Solution]
    #: Best first: ``[solution]``, or the k best of ``optimize(best=k)``.
    solutions: List[Solution]
    #: The value of each of ``solutions``.
    values: List[int]
    objective: str

class Estimate:
    """The size of a count's search tree (see :meth:`Model.estimate`)."""
    exact: bool
    count: Optional[int]
    nodes: float
    nodes_error: float
    solutions: float
    solutions_error: float
    probes: int
    seed: int
    seconds: float
    speed: float
    trial_seconds: float
    trial_nodes: int
    trial_solutions: int

class Shard:
    parts: List[List[int]]
    #: Each part's share of the whole tree, by Knuth's estimate (for progress only).
    weights: List[float]
    #: The sum of ``weights``.
    weight: float
    model: Model
    def count(self, threads: Optional[int] = 1, *, time_limit: Optional[float] = None,
              node_limit: Optional[int] = None) -> int: ...
    def solutions(self, limit: Optional[int] = None, *, time_limit: Optional[float] = None,
                  node_limit: Optional[int] = None) -> Solutions: ...
    def count_for(self, seconds: float, threads: Optional[int] = 1) -> Tuple[int, bool, Shard]:
        """Counts for at most ``seconds``: ``(count, finished, rest)``, the exact count
        so far, whether it is all, and the exact parts left (``count`` plus the count
        of ``rest`` is this shard's)."""
        ...
    def deal(self, n: int) -> List[Shard]: ...
    def split(self, n: int) -> List[Shard]: ...
    def __len__(self) -> int: ...

class Model:
    text: str
    name: str
    params: dict
    record: Optional[Tuple[int, int]]
    items: List[str]
    options: List[str]
    forced: List[int]
    objective: Optional[str]
    warnings: List[Diag]
    fingerprint: str
    def __init__(self, text: str, params: _Params = None, name: Optional[str] = None, *,
                 for_records: bool = False) -> None: ...
    @staticmethod
    def from_file(path: _Path, params: _Params = None, *, for_records: bool = False) -> Model: ...
    def to_knuth(self) -> str: ...
    def solutions(self, limit: Optional[int] = None, *, time_limit: Optional[float] = None,
                  node_limit: Optional[int] = None) -> Solutions: ...
    def count(self, threads: Optional[int] = None, *, time_limit: Optional[float] = None,
              node_limit: Optional[int] = None, up_to_symmetry: bool = False,
              memo: Union[bool, str, None] = "auto",
              memo_order: Optional[str] = None) -> int:
        """The exact number of solutions, however large; by memo (``memo="auto"``:
        when a probe finds that subproblems repeat; ``True``/``"on"``: always;
        ``False``/``"off"``: never), as ``dlxc run --count``; with ``up_to_symmetry``,
        one per class of solutions the model's ``symmetry`` declarations turn into one
        another."""
        ...
    def sample(self, k: int, seed: Optional[int] = None, *,
               time_limit: Optional[float] = None,
               node_limit: Optional[int] = None) -> List[Solution]:
        """``k`` solutions drawn uniformly at random (``dlxc run --sample K --seed S``)."""
        ...
    def optimize(self, *, time_limit: Optional[float] = None,
                 node_limit: Optional[int] = None,
                 best: Optional[int] = None) -> Optimum:
        """The optimum, or with ``best=k`` the k best solutions in order of value
        (``dlxc run --best K``)."""
        ...
    def parts(self, n: int) -> List[Shard]: ...
    def shard(self, k: int, n: int) -> Shard: ...
    def shards(self, n: int) -> List[Shard]: ...
    def estimate(self, probes: Optional[int] = None, seed: int = 1) -> Estimate: ...
    def records(self, path: _Path) -> Iterator[Any]: ...
    def _shard(self, parts: List[List[int]],
               weights: Optional[List[float]] = None) -> Shard: ...
    @staticmethod
    def _restore(text: str, name: str, params: List[Tuple[str, str]],
                 record: Optional[Tuple[int, int, str]] = None, kind: str = "model") -> Model: ...
    @staticmethod
    def _knuth(text: str, name: Optional[str] = None) -> Model: ...
