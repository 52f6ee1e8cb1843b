"""梭哈 Five-card stud on the 28-card deck (8–A): hand values and who speaks first.

Public API:

- :func:`best_hand` — the value of five cards; values order hands, ``.category``
  names the hand type (seed 002's order: a full house beats a flush).
- :func:`compare_shown` — which of two sets of face-up cards (1 to 4) speaks first.
- :func:`deck` — the 28 cards, ``8``–``A`` of four suits.

Ranks run A>K>Q>J>10>9>8 and suits ♠>♥>♣>♦ (002:62-63). Every tie is broken as
002:57-59 says, down to the suit of the card the rule names; on this deck two
different hands never tie. The rules, their seed lines and the readings chosen
are in docs/rules/suoha.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

RANKS = "89TJQKA"
SUITS = "dchs"  # ascending: ♦ < ♣ < ♥ < ♠ (002:63)
CATEGORIES = (
    "high_card",  # 散牌
    "pair",  # 对子
    "two_pair",  # 二对
    "three_of_a_kind",  # 三条
    "straight",  # 顺子
    "flush",  # 同花
    "full_house",  # 葫芦
    "four_of_a_kind",  # 铁支
    "straight_flush",  # 同花顺
)
_RANK = {r: i for i, r in enumerate(RANKS)}
_SUIT = {s: i for i, s in enumerate(SUITS)}


def deck() -> list[str]:
    """Return the 28 cards of the game (002:54), in a fixed order."""
    return [r + s for r in RANKS for s in "shcd"]


@dataclass(frozen=True, order=True)
class HandValue:
    """A five-card hand's value: compare two with ``<``/``>``; ``category`` names its type."""

    key: tuple[int, ...]
    category: str = field(compare=False)


def _parse(cards: Sequence[str], sizes: range) -> list[tuple[int, int]]:
    """Return (rank, suit) pairs, highest first (rank, then suit)."""
    if isinstance(cards, str) or len(cards) not in sizes or len(set(cards)) != len(cards):
        raise ValueError(f"not {sizes.start}-{sizes.stop - 1} different cards of 8-A: {cards!r}")
    try:
        parsed = [(_RANK[c[0]], _SUIT[c[1]]) for c in cards if len(c) == 2]
    except (KeyError, TypeError):
        raise ValueError(f"not a card of 8-A in {list(cards)!r}") from None
    if len(parsed) != len(cards):
        raise ValueError(f"not a card of 8-A in {list(cards)!r}")
    return sorted(parsed, reverse=True)


def _groups(parsed: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """Return (count, rank, best suit) per rank, the largest group first, then the higher rank."""
    counts = Counter(rank for rank, _ in parsed)
    best_suit = {}
    for rank, suit in parsed:  # highest suit first within a rank
        best_suit.setdefault(rank, suit)
    return sorted(((n, rank, best_suit[rank]) for rank, n in counts.items()), reverse=True)


def best_hand(cards: Sequence[str]) -> HandValue:
    """Return the value of five cards (002:57-63).

    同花顺 / 同花 / 顺子 / 散牌: the highest card, then (散牌: the next cards one by
    one) then the highest card's suit. 铁支, 葫芦, 三条: the rank of the set. 二对:
    the big pair, the small pair, the odd card, its suit. 对子: the pair, the odd
    cards from the highest, then the suit of the highest odd card. 8-9-10-J-A and
    the like do not run (8 和 A 之间不算顺子, 002:57).
    """
    parsed = _parse(cards, range(5, 6))
    ranks = [r for r, _ in parsed]
    top_rank, top_suit = parsed[0]
    flush = len({s for _, s in parsed}) == 1
    straight = len(set(ranks)) == 5 and ranks[0] - ranks[4] == 4
    groups = _groups(parsed)
    shape = [n for n, _, _ in groups]
    if straight and flush:
        return HandValue((8, top_rank, top_suit), "straight_flush")
    if shape[0] == 4:
        return HandValue((7, groups[0][1]), "four_of_a_kind")
    if shape == [3, 2]:
        return HandValue((6, groups[0][1]), "full_house")
    if flush:
        return HandValue((5, top_rank, top_suit), "flush")
    if straight:
        return HandValue((4, top_rank, top_suit), "straight")
    if shape[0] == 3:
        return HandValue((3, groups[0][1]), "three_of_a_kind")
    if shape == [2, 2, 1]:
        odd = groups[2]
        return HandValue((2, groups[0][1], groups[1][1], odd[1], odd[2]), "two_pair")
    if shape[0] == 2:
        odd = [(r, s) for r, s in parsed if r != groups[0][1]]
        return HandValue((1, groups[0][1], *(r for r, _ in odd), odd[0][1]), "pair")
    return HandValue((0, *ranks, top_suit), "high_card")


def shown_key(cards: Sequence[str]) -> tuple[int, ...]:
    """Return the order of 1–4 face-up cards: sets first (four, three, two pairs, a pair), ranks, suit.

    Only pairs and sets count among face-up cards (no straight or flush is made
    before the fifth card); then the ranks from the biggest set down, then the
    suit of the best card of the biggest set (002:55 "从牌面较大者", 002:62-63).
    """
    parsed = _parse(cards, range(1, 5))
    groups = _groups(parsed)
    shape = [n for n, _, _ in groups]
    if shape[0] == 4:
        level = 5
    elif shape[0] == 3:
        level = 4
    elif shape[:2] == [2, 2]:
        level = 3
    elif shape[0] == 2:
        level = 2
    else:
        level = 1
    return (level, *(rank for _, rank, _ in groups), groups[0][2])


def compare_shown(a: Sequence[str], b: Sequence[str]) -> int:
    """Return >0 if the face-up cards ``a`` speak before ``b``, <0 if after (never 0 for two hands)."""
    ka, kb = shown_key(a), shown_key(b)
    return (ka > kb) - (ka < kb)
