"""炸金花 (Golden Flower, three-card brag): hand categories and comparison.

Public API:

- :func:`category` — ``leopard`` 豹子, ``straight_flush`` 顺金, ``flush`` 金花,
  ``straight`` 顺子, ``pair`` 对子 or ``high`` 单张.
- :func:`compare` — positive if ``a`` wins, negative if ``b`` wins, 0 if equal.
- :func:`is_special_235` — the 2-3-5 of three different suits that beats a 豹子.
- :func:`showdown_best` — the best hands among several (for a 摊牌 showdown).

A is high and suits never count (001:760). Straights run AKQ highest down to
234, then A23 lowest (002:44, 001:761). A pair compares the pair, then the odd
card (002:45); every other category compares card by card from the highest
(001:762). The 2-3-5 of three different suits beats a 豹子 and nothing else
(002:43, 003:199); against anything else it is the lowest 单张 it looks like.
"""

from __future__ import annotations

from collections.abc import Sequence

RANKS = "23456789TJQKA"
SUITS = "shcd"
CATEGORIES = ("high", "pair", "straight", "flush", "straight_flush", "leopard")
_CATEGORY_INDEX = {name: i for i, name in enumerate(CATEGORIES)}
_RANK = {c: i for i, c in enumerate(RANKS)}


def _parse(cards: Sequence[str]) -> tuple[list[int], list[str]]:
    if len(cards) != 3 or len(set(cards)) != 3:
        raise ValueError("a 炸金花 hand is three different cards")
    try:
        ranks = sorted((_RANK[c[0]] for c in cards), reverse=True)
    except (KeyError, IndexError, TypeError):
        raise ValueError(f"not a card in {list(cards)!r}") from None
    suits = [c[1] for c in cards]
    if any(s not in SUITS for s in suits) or any(len(c) != 2 for c in cards):
        raise ValueError(f"not a card in {list(cards)!r}")
    return ranks, suits


def _straight_top(ranks: list[int]) -> int | None:
    """Return a straight's strength (A23 = 1 is the lowest, AKQ = 12), or None."""
    hi, mid, lo = ranks
    if hi - mid == 1 and mid - lo == 1:
        return hi
    if ranks == [12, 1, 0]:  # A-3-2 counts as the lowest straight
        return 1
    return None


def strength(cards: Sequence[str]) -> tuple[int, tuple[int, ...]]:
    """Return ``(category index, tie-break ranks)``; greater is stronger (235 rule aside)."""
    ranks, suits = _parse(cards)
    flush = suits[0] == suits[1] == suits[2]
    top = _straight_top(ranks)
    if ranks[0] == ranks[2]:
        return 5, (ranks[0],)
    if top is not None:
        return (4 if flush else 2), (top,)
    if flush:
        return 3, tuple(ranks)
    if ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        pair = ranks[1]
        odd = ranks[2] if ranks[0] == ranks[1] else ranks[0]
        return 1, (pair, odd)
    return 0, tuple(ranks)


def category(cards: Sequence[str]) -> str:
    """Return the hand's category name (the 2-3-5 special counts as ``high``)."""
    return CATEGORIES[strength(cards)[0]]


def is_special_235(cards: Sequence[str]) -> bool:
    """Say whether the hand is 2-3-5 in three different suits (花色不同235)."""
    ranks, suits = _parse(cards)
    return ranks == [3, 1, 0] and len(set(suits)) == 3


def compare(a: Sequence[str], b: Sequence[str]) -> int:
    """Return >0 if ``a`` beats ``b``, <0 if ``b`` beats ``a``, 0 if they are equal.

    Ties are the caller's to break: in a 比牌 the player who asked loses.
    """
    sa, sb = strength(a), strength(b)
    if sb[0] == 5 and is_special_235(a):
        return 1
    if sa[0] == 5 and is_special_235(b):
        return -1
    return (sa > sb) - (sa < sb)


def showdown_best(hands: Sequence[Sequence[str]]) -> list[int]:
    """Return the indexes of the best hands among several (ties all listed).

    With a 豹子 among the hands, a 2-3-5 of three suits ranks above everything
    (002:43 "当豹子存在时", "when a leopard is present"): the cycle 235 > 豹子 >
    the rest > 235 is broken in the 235's favour only when a 豹子 is present.
    """
    keys = [strength(h) for h in hands]
    if any(k[0] == 5 for k in keys):
        keys = [(6, ()) if is_special_235(h) else k for h, k in zip(hands, keys, strict=True)]
    best = max(keys)
    return [i for i, k in enumerate(keys) if k == best]
