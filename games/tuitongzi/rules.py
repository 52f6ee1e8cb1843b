"""推筒子 (Push the Tubes): the 40 tiles, the rank of a two-tile hand and the comparison.

Public API:

- :data:`TILES` — the 40 tiles: ``1p``…``9p`` 筒 four each and four ``5z`` 白板 (001:631).
- :func:`rank` — a two-tile hand's :class:`Rank` (``.kind``, ``.points``), ordered.
- :func:`compare` — +1 if ``a`` beats ``b``, −1 if ``b`` beats ``a``, 0 for a tie
  (a tie splits the pool: 001:656, 001:660).
- :func:`best` — the indexes of the best hands among several.

The order is 001's four sentences (001:636-639): 豹子 (a pair) > 二八杠 (2筒 + 8筒)
> 散牌; equal kinds compare points (9 > 8 > … > 0; a tile counts its pips, 白板 0,
001:631); equal points compare the higher single tile (白板 > 9筒 > … > 1筒);
equal again is a tie. A 豹子's "points" are read as its tile (docs/rules/tuitongzi.md),
so the pair of 白板 is the highest 豹子 and the pair of 1筒 the lowest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

WHITE = "5z"  # 白板
TILES = tuple(f"{n}p" for n in range(1, 10) for _ in range(4)) + (WHITE,) * 4
KINDS = ("points", "erbagang", "baozi")  # low → high


def pip(tile: str) -> int:
    """Return a tile's points: 1筒 … 9筒 count 1 … 9, 白板 counts 0 (001:631)."""
    if tile == WHITE:
        return 0
    if isinstance(tile, str) and len(tile) == 2 and tile[1] == "p" and tile[0] in "123456789":
        return int(tile[0])
    raise ValueError(f"not a 推筒子 tile: {tile!r}")


def single(tile: str) -> int:
    """Return a single tile's strength (001:638): 1筒 … 9筒 are 1 … 9, 白板 the highest, 10."""
    return pip(tile) or 10


@dataclass(frozen=True, order=True)
class Rank:
    """A hand's place in the order: compare two ranks with ``<``, ``==``, ``>``.

    ``kind`` is ``baozi`` 豹子, ``erbagang`` 二八杠 or ``points`` 散牌; ``points`` the
    sum of the pips modulo 10.
    """

    key: tuple[int, ...]
    kind: str = field(compare=False)
    points: int = field(compare=False)


def rank(tiles: Sequence[str]) -> Rank:
    """Return the rank of a two-tile hand."""
    if len(tiles) != 2:
        raise ValueError("a 推筒子 hand is two tiles")
    a, b = tiles
    points = (pip(a) + pip(b)) % 10
    high = max(single(a), single(b))
    if a == b:
        return Rank((2, single(a)), "baozi", points)
    if {a, b} == {"2p", "8p"}:
        return Rank((1,), "erbagang", points)
    return Rank((0, points, high), "points", points)


def compare(a: Sequence[str], b: Sequence[str]) -> int:
    """Return +1 if hand ``a`` beats ``b``, −1 if it loses, 0 for a tie."""
    ra, rb = rank(a), rank(b)
    return (ra > rb) - (ra < rb)


def best(hands: Sequence[Sequence[str]]) -> list[int]:
    """Return the indexes of the best hands (several when they tie)."""
    ranks = [rank(h) for h in hands]
    top = max(ranks)
    return [i for i, r in enumerate(ranks) if r == top]
