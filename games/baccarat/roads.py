"""百家乐 roads derived from 大路: 大眼仔路, 小路, 曱甴路 and 问路 (the next marks if banker or player wins).

Pure functions. The seeds say nothing about roads; these follow the common
casino convention (docs/rules/baccarat.md, "Roads"). Each derived road reads
the big road's columns of banker/player results (ties take no cell) and
compares every new big-road entry with the column ``offset`` columns before
it: 1 for 大眼仔路 (big eye boy), 2 for 小路 (small road), 3 for 曱甴路
(cockroach pig). A mark is ``"red"`` (the road repeats itself: 有规律) or
``"blue"`` (it does not). For an entry at column ``c``, row ``r`` (both from 0):

- ``r == 0`` (a new column): red if columns ``c − 1`` and ``c − 1 − offset``
  are equally long, blue otherwise;
- ``r >= 1``: blue if column ``c − offset`` is exactly ``r`` long (it has
  the cell above this row's but not this row's: 齐脚), red otherwise (it
  reaches this row, or it stopped two or more rows higher: 直落).

An entry gets a mark once the columns it compares exist: from column
``offset`` row 1, or else column ``offset + 1`` row 0. The marks then form
their own road as the big road does: a new column whenever the colour changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.baccarat.rules import Coup, big_road

RED = "red"
BLUE = "blue"
# Each derived road's name in the roads dict, and how many columns back it compares.
DERIVED = {"big_eye_boy": 1, "small_road": 2, "cockroach_pig": 3}


def column_lengths(columns: Sequence[Sequence[dict]]) -> list[int]:
    """Return the length of every big-road column that holds a banker or player result.

    A leading column of ties only (``winner`` None) holds none and is left out.
    """
    return [len(column) for column in columns if column and column[0].get("winner") is not None]


def _mark(lengths: Sequence[int], column: int, row: int, offset: int) -> str | None:
    """The mark of the big-road entry at (``column``, ``row``), given every column's length; None if none yet."""
    if row == 0:
        if column - 1 - offset < 0:
            return None
        return RED if lengths[column - 1] == lengths[column - 1 - offset] else BLUE
    if column - offset < 0:
        return None
    return BLUE if lengths[column - offset] == row else RED


def derived_marks(lengths: Sequence[int], offset: int) -> list[str]:
    """Every mark of the road that compares ``offset`` columns back, in order, from the big road's column lengths."""
    if isinstance(offset, bool) or offset not in DERIVED.values():
        raise ValueError(f"a derived road compares 1, 2 or 3 columns back, not {offset!r}")
    marks = []
    for column, length in enumerate(lengths):
        if isinstance(length, bool) or not isinstance(length, int) or length < 1:
            raise ValueError(f"a big-road column holds at least one result, not {length!r}")
        for row in range(length):
            # Only earlier columns are compared, and they are complete.
            mark = _mark(lengths, column, row, offset)
            if mark is not None:
                marks.append(mark)
    return marks


def runs(marks: Iterable[str]) -> list[list[str]]:
    """Group marks into columns: a new column whenever the colour changes (as the big road does)."""
    columns: list[list[str]] = []
    for mark in marks:
        if columns and columns[-1][-1] == mark:
            columns[-1].append(mark)
        else:
            columns.append([mark])
    return columns


def derived_road(columns: Sequence[Sequence[dict]], offset: int) -> list[list[str]]:
    """The derived road (columns of ``"red"``/``"blue"``) that compares ``offset`` columns back on the big road ``columns``."""
    return runs(derived_marks(column_lengths(columns), offset))


def derived_roads(columns: Sequence[Sequence[dict]]) -> dict[str, list[list[str]]]:
    """大眼仔路 ``big_eye_boy``, 小路 ``small_road`` and 曱甴路 ``cockroach_pig`` of one big road."""
    return {name: derived_road(columns, offset) for name, offset in DERIVED.items()}


def next_marks(columns: Sequence[Sequence[dict]], winner: str) -> dict[str, str | None]:
    """问路: the mark each derived road would get if the next coup were won by ``winner`` (None: no mark yet).

    A tie adds no big-road entry, so it is never asked.
    """
    if winner not in ("banker", "player"):
        raise ValueError(f"问路 asks about a banker or player result, not {winner!r}")
    lengths = column_lengths(columns)
    last = next(
        (column[0]["winner"] for column in reversed(columns) if column and column[0].get("winner")), None
    )
    if last == winner:
        column, row = len(lengths) - 1, lengths[-1]  # the run goes on down its column
    else:
        column, row = len(lengths), 0  # a new column (or the shoe's first result)
    return {name: _mark(lengths, column, row, offset) for name, offset in DERIVED.items()}


def ask_roads(columns: Sequence[Sequence[dict]]) -> dict[str, dict[str, str | None]]:
    """问路 for both results: ``{"banker": {road: mark}, "player": {road: mark}}``."""
    return {winner: next_marks(columns, winner) for winner in ("banker", "player")}


def roads_of(coups: Iterable[Coup | str]) -> dict:
    """Every road of a shoe's coups: the big road, the three derived roads and 问路 (no bead plate)."""
    columns = big_road(coups)
    return {"big_road": columns, **derived_roads(columns), "ask": ask_roads(columns)}
