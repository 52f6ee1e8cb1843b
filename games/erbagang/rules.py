"""二八杠 (Two-Eight Bar): the 40 tiles, the rank of a two-tile hand and the comparison.

Public API:

- :data:`TILES` — the 40 tiles: ``1p``…``9p`` 筒 four each and four ``5z`` 白板.
- :func:`rank` — a two-tile hand's :class:`Rank` (``.kind``, ``.points``), ordered.
- :func:`compare` — +1 if ``a`` beats ``b``, −1 if ``b`` beats ``a``, 0 for a tie
  (in a hand a tie goes to the banker: 001:286 "牌型完全一样时，庄赢").

The order (001:290 "天王 > 对子 > 二八杠 > 九点 > 八点 … 一点 > 鳖十"), with the
readings docs/rules/erbagang.md gives: 天王 is the pair of 白板; 对子 are the
other pairs, 9筒 highest; 二八杠 is 2筒 + 8筒; every other hand counts the sum
of its tiles' pips modulo 10 (白板 counts 0), 0 being 鳖十. Equal points are
decided by the higher single tile (白板 > 9筒 > … > 1筒); every 鳖十 is equal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

WHITE = "5z"  # 白板
TILES = tuple(f"{n}p" for n in range(1, 10) for _ in range(4)) + (WHITE,) * 4
KINDS = ("points", "erbagang", "pair", "tianwang")  # low → high


def pip(tile: str) -> int:
    """Return a tile's points: 1筒 … 9筒 count 1 … 9, 白板 counts 0."""
    if tile == WHITE:
        return 0
    if isinstance(tile, str) and len(tile) == 2 and tile[1] == "p" and tile[0] in "123456789":
        return int(tile[0])
    raise ValueError(f"not a 二八杠 tile: {tile!r}")


def single(tile: str) -> int:
    """Return a single tile's strength: 1筒 … 9筒 are 1 … 9, 白板 is the highest, 10."""
    return pip(tile) or 10


@dataclass(frozen=True, order=True)
class Rank:
    """A hand's place in the order: compare two ranks with ``<``, ``==``, ``>``.

    ``kind`` is ``tianwang`` 天王, ``pair`` 对子, ``erbagang`` 二八杠 or ``points``;
    ``points`` the sum of the pips modulo 10 (0 is 鳖十).
    """

    key: tuple[int, ...]
    kind: str = field(compare=False)
    points: int = field(compare=False)


def rank(tiles: Sequence[str]) -> Rank:
    """Return the rank of a two-tile hand."""
    if len(tiles) != 2:
        raise ValueError("a 二八杠 hand is two tiles")
    a, b = tiles
    points = (pip(a) + pip(b)) % 10
    high = max(single(a), single(b))
    if a == b == WHITE:
        return Rank((3,), "tianwang", points)
    if a == b:
        return Rank((2, pip(a)), "pair", points)
    if {a, b} == {"2p", "8p"}:
        return Rank((1,), "erbagang", points)
    if points == 0:
        return Rank((0, 0, 0), "points", 0)  # 鳖十: every one the same
    return Rank((0, points, high), "points", points)


def compare(a: Sequence[str], b: Sequence[str]) -> int:
    """Return +1 if hand ``a`` beats ``b``, −1 if it loses, 0 for a tie (the banker's, in play)."""
    ra, rb = rank(a), rank(b)
    return (ra > rb) - (ra < rb)


def banker_wins(banker: Sequence[str], player: Sequence[str]) -> bool:
    """Say whether the banker beats ``player``: ties go to the banker (001:286)."""
    return compare(banker, player) >= 0
