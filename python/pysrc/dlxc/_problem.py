"""``dlxc.Problem``: an exact-cover problem given as Python data (lists of items and
options, a 0/1 matrix, Knuth's DLX text) rather than as a ``.dlx`` model.

The problem is written in Knuth's DLX format and read by the same reader as
``dlxc solve``, so it gets the same engines, diagnostics and answers; every search
method of :class:`dlxc.Model` works on it.
"""

from __future__ import annotations

import operator
import os
from typing import Any, Dict, Hashable, Iterable, List, Mapping, Optional, Sequence, Union

from ._dlxc import Model

Bounds = Union[int, Sequence[int]]

#: The secondary item the rows of zeros of a matrix cover (see `Problem.from_matrix`).
EMPTY_ROW = "empty-row"


def _index(x: Any, what: str) -> int:
    """An int from an int or a NumPy integer (anything `operator.index` takes)."""
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(x).__name__}") from None


def _plain(x: Any) -> Any:
    """NumPy scalars as the Python values they hold, so that names and dict keys of
    `numpy.int64(3)` and `3` are the same."""
    if type(x).__module__ == "numpy" and hasattr(x, "item"):
        return x.item()
    return x


def _name(x: Any) -> str:
    """The name of an item (or a color) in Knuth's format: its `str`, blanks removed
    (`(0, 1)` is `(0,1)`)."""
    text = "".join(str(_plain(x)).split())
    if not text:
        raise ValueError(f"an item or color needs a name that is not blank: {x!r}")
    bad = next((c for c in text if c in ":|"), None)
    if bad is not None:
        raise ValueError(f"the name {text!r} of {x!r} holds {bad!r}, which Knuth's "
                         "format keeps for colors and bounds; choose other names")
    return text


def _bounds(b: Bounds, item: Any) -> str:
    """Knuth's DLX3 prefix of an item covered `b` times (`v|`) or `lo..hi` times
    (`lo:hi|`)."""
    if isinstance(b, Sequence) and not isinstance(b, str):
        if len(b) != 2:
            raise ValueError(f"the multiplicity of {item!r} must be a count or a "
                             f"(low, high) pair, not {b!r}")
        lo, hi = _index(b[0], "a multiplicity"), _index(b[1], "a multiplicity")
        if not 0 <= lo <= hi or hi == 0:
            raise ValueError(f"the multiplicity of {item!r} must have 0 <= low <= high "
                             f"and high > 0, not ({lo}, {hi})")
        return f"{lo}:{hi}|"
    v = _index(b, "a multiplicity")
    if v < 1:
        raise ValueError(f"the multiplicity of {item!r} must be at least 1, not {v}")
    return f"{v}|"


def _knuth_text(items: Sequence[Hashable], options: Sequence[Iterable[Hashable]],
                secondary: Sequence[Hashable], colors: Optional[Sequence[Optional[Mapping]]],
                multiplicities: Optional[Mapping[Hashable, Bounds]],
                costs: Optional[Sequence[int]]) -> str:
    names: Dict[Any, str] = {}
    owner: Dict[str, Any] = {}
    for x in list(items) + list(secondary):
        key = _plain(x)
        if key in names:
            raise ValueError(f"the item {x!r} is given twice")
        n = _name(x)
        if n in owner:
            raise ValueError(f"the items {owner[n]!r} and {x!r} have the same name {n!r} "
                             "in Knuth's format")
        names[key] = n
        owner[n] = x
    second = {_plain(x) for x in secondary}
    mult = {} if multiplicities is None else {_plain(k): v for k, v in multiplicities.items()}
    for k in mult:
        if k not in names:
            raise ValueError(f"a multiplicity is given for {k!r}, which is not an item")
        if k in second:
            raise ValueError(f"a multiplicity is given for {k!r}, a secondary item: "
                             "only primary items have multiplicities")
    if colors is not None and len(colors) != len(options):
        raise ValueError(f"colors must have one entry per option ({len(options)}), "
                         f"not {len(colors)}")
    if costs is not None and len(costs) != len(options):
        raise ValueError(f"costs must have one entry per option ({len(options)}), "
                         f"not {len(costs)}")
    head = []
    for x in items:
        key = _plain(x)
        head.append((_bounds(mult[key], x) if key in mult else "") + names[key])
    if secondary:
        head.append("|")
        head.extend(names[_plain(x)] for x in secondary)
    lines = [" ".join(head)]
    for k, option in enumerate(options):
        painted = {} if colors is None or colors[k] is None else {
            _plain(i): c for i, c in colors[k].items()}
        entries = []
        for i in option:
            key = _plain(i)
            name = names.get(key)
            if name is None:
                raise ValueError(f"option {k} covers {i!r}, which is not an item")
            if key in painted:
                if key not in second:
                    raise ValueError(f"option {k} gives the primary item {i!r} a color: "
                                     "only secondary items have colors")
                name = f"{name}:{_name(painted.pop(key))}"
            entries.append(name)
        if painted:
            i = next(iter(painted))
            raise ValueError(f"option {k} gives {i!r} a color but does not cover it")
        if not entries:
            raise ValueError(f"option {k} is empty: an option covers at least one item")
        if costs is not None:
            c = _index(costs[k], "a cost")
            if c < 0:
                raise ValueError(f"option {k} has the cost {c}: costs are at least 0")
            entries.append(f"|{c}")
        lines.append(" ".join(entries))
    return "\n".join(lines) + "\n"


class Problem:
    """An exact-cover problem from Python data: `items` (primary, each to be covered
    exactly once) and `options`, each an iterable of the items it covers.

    Items can be any hashable values whose `str` (blanks removed) tells them apart and
    holds no ``:`` or ``|``: strings, ints (NumPy's too), tuples. Also:

    - `secondary`: items covered at most once (and the ones colors go on);
    - `colors`: one entry per option, `None` or a mapping from the secondary items it
      covers to their color; options that give an item the same color can share it
      (Knuth's DLX2);
    - `multiplicities`: a mapping from primary items to how many times each is
      covered, a count or a `(low, high)` pair (Knuth's DLX3);
    - `costs`: one nonnegative integer per option; the problem is then optimized for
      the least total cost (`optimize()`), as Knuth's DLX5 does.

    Searches are those of :class:`dlxc.Model` (`count`, `solutions`, `estimate`,
    `shard`, `shards`, `parts`, `optimize`, `to_knuth`); a solution's `ids` index into
    :attr:`options`, in the same order as its `options` names.

    >>> p = dlxc.Problem(["a", "b", "c"], [["a", "b"], ["c"], ["a"], ["b", "c"]])
    >>> p.count()
    2
    >>> [[p.options[i] for i in s.ids] for s in p.solutions()]
    [[['a', 'b'], ['c']], [['a'], ['b', 'c']]]
    """

    __slots__ = ("items", "secondary", "options", "model")

    def __init__(self, items: Sequence[Hashable], options: Iterable[Iterable[Hashable]],
                 secondary: Sequence[Hashable] = (), colors: Optional[Sequence] = None,
                 multiplicities: Optional[Mapping[Hashable, Bounds]] = None,
                 costs: Optional[Sequence[int]] = None, *, name: str = "<problem>") -> None:
        items = list(items)
        secondary = list(secondary)
        options = [list(o) for o in options]
        text = _knuth_text(items, options, secondary, colors, multiplicities, costs)
        self._set(items, secondary, options, Model._knuth(text, name))

    def _set(self, items: List, secondary: List, options: List, model: Model) -> None:
        #: The primary items, as given.
        self.items = items
        #: The secondary items, as given.
        self.secondary = secondary
        #: The options, as given (each a list of items); option id `k` is `options[k]`.
        self.options = options
        #: The compiled problem, a :class:`dlxc.Model`.
        self.model = model

    @classmethod
    def _of(cls, items: List, secondary: List, options: List, model: Model) -> "Problem":
        p = cls.__new__(cls)
        p._set(items, secondary, options, model)
        return p

    @classmethod
    def from_matrix(cls, matrix: Any, secondary: Union[int, Iterable[int]] = 0,
                    *, name: str = "<matrix>") -> "Problem":
        """The problem of a 0/1 matrix: a row per option, a column per item (items
        are the column numbers `0, 1, ...`). `matrix` is a NumPy array (of any
        integer or bool type) or a list of lists; a nonzero entry means the option
        covers the item. `secondary`: how many of the last columns are secondary
        items (an int), or their column numbers. Option `k` is row `k`; rows of zeros
        are never part of a solution (they cover the secondary item
        ``"empty-row"``, there only for them)."""
        rows = _rows(matrix)
        width = _width(matrix, rows)
        if isinstance(secondary, Iterable):
            second = sorted({_index(c, "a column number") for c in secondary})
        else:
            k = _index(secondary, "secondary")
            if not 0 <= k <= width:
                raise ValueError(f"secondary must be between 0 and {width} columns, not {k}")
            second = list(range(width - k, width))
        bad = [c for c in second if not 0 <= c < width]
        if bad:
            raise ValueError(f"column {bad[0]} is not a column of the matrix "
                             f"(it has {width})")
        chosen = set(second)
        primary = [c for c in range(width) if c not in chosen]
        if not all(rows):
            # Knuth's format has no empty option (a blank line is no line): a row of
            # zeros covers an item of its own, secondary, so that option ids stay row
            # numbers. No solution contains it, as none contains an empty row.
            second = second + [EMPTY_ROW]
            rows = [r or [EMPTY_ROW] for r in rows]
        return cls(primary, rows, secondary=second, name=name)

    @classmethod
    def from_knuth(cls, path_or_text: Union[str, "os.PathLike[str]"],
                   *, name: Optional[str] = None) -> "Problem":
        """A problem in Knuth's DLX format (DLX1; DLX2 colors, DLX3 multiplicities,
        DLX5 costs), as `dlxc solve` reads it: the path of a file, or the text itself
        (a string with a line break, or that names no file). Errors raise
        :class:`dlxc.ModelError` with the codes `dlxc solve` reports."""
        text = os.fspath(path_or_text)
        if "\n" not in text and os.path.isfile(text):
            with open(text, encoding="utf-8") as f:
                body = f.read()
            shown = name or text
        else:
            body, shown = text, name or "<knuth>"
        model = Model._knuth(body, shown)
        items = [n for n in model.items]
        return cls._of(items, [], [], model)

    # Every search and property of the compiled problem is the model's.
    def __getattr__(self, attr: str) -> Any:
        if attr in Problem.__slots__:
            raise AttributeError(attr)
        return getattr(self.model, attr)

    def __reduce__(self):
        return (Problem._of, (self.items, self.secondary, self.options, self.model))

    def __repr__(self) -> str:
        n = len(self.model.items)
        m = len(self.model.options)
        return f"Problem({self.model.name!r}: {n} items, {m} options)"


def _rows(matrix: Any) -> List[List[int]]:
    """The columns of each row's nonzero entries."""
    shape = getattr(matrix, "shape", None)
    if shape is not None and hasattr(matrix, "nonzero"):
        if len(shape) != 2:
            raise ValueError(f"the matrix must have two dimensions, not {len(shape)}")
        rows: List[List[int]] = [[] for _ in range(shape[0])]
        rs, cs = matrix.nonzero()
        for r, c in zip(rs.tolist(), cs.tolist()):
            rows[r].append(c)
        return rows
    return [[c for c, v in enumerate(row) if v] for row in matrix]


def _width(matrix: Any, rows: List[List[int]]) -> int:
    shape = getattr(matrix, "shape", None)
    if shape is not None:
        return int(shape[1])
    widths = {len(r) for r in matrix}
    if len(widths) > 1:
        raise ValueError(f"the rows of the matrix have different lengths: {sorted(widths)}")
    return widths.pop() if widths else 0
