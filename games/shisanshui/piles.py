"""十三水 piles (墩): the value of 3 or 5 cards, as one integer that orders them.

A value is ``kind << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5``: the
kind (0 乌龙 … 8 同花顺), then the ranks (2 … 14 = A) most significant first,
grouped cards before single ones, and a 3-card pile padded with zeros. Suits
never count (001:471), so two piles of the same points are equal. The padding
makes a 头墩 compare with a 中墩 of the same kind as a prefix: a pair of 9s with
a K beside it is below a pair of 9s with K-5-2, which is what "no 倒水" asks.
A-2-3-4-5 is a straight, the lowest one (valued as 5-high).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

RANKS = "23456789TJQKA"
SUITS = "shcd"
KINDS = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)
(HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH) = range(9)
RANK_OF = {c: i + 2 for i, c in enumerate(RANKS)}
SUIT_OF = {c: i for i, c in enumerate(SUITS)}
DECK = tuple(r + s for r in RANKS for s in SUITS)
_CARDS = frozenset(DECK)


def pack(kind: int, ranks: Sequence[int]) -> int:
    value = kind
    for rank in (*ranks, 0, 0, 0, 0, 0)[:5]:
        value = value << 4 | rank
    return value


def kind_of(value: int) -> int:
    return value >> 20


def _grouped(ranks: Sequence[int]) -> tuple[list[int], list[int]]:
    """Return the ranks ordered by (count, rank) descending, and the counts in that order."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return [r for r in order for _ in range(counts[r])], [counts[r] for r in order]


def _straight_ranks(ranks: Sequence[int]) -> list[int] | None:
    """The ranks of a 5-card straight, top first (the wheel as 5-4-3-2-1), or None."""
    top = sorted(set(ranks), reverse=True)
    if len(top) != 5:
        return None
    if top[0] - top[4] == 4:
        return top
    if top == [14, 5, 4, 3, 2]:
        return [5, 4, 3, 2, 1]
    return None


def plain_value(ranks: Sequence[int]) -> int:
    """The value of 3 or 5 cards of these ranks when they are not all of one suit."""
    order, shape = _grouped(ranks)
    if len(ranks) == 3:
        return pack({3: TRIPS, 2: PAIR, 1: HIGH_CARD}[shape[0]], order)
    straight = _straight_ranks(ranks)
    if straight:
        return pack(STRAIGHT, straight)
    kind = {
        (4, 1): QUADS,
        (3, 2): FULL_HOUSE,
        (3, 1, 1): TRIPS,
        (2, 2, 1): TWO_PAIR,
        (2, 1, 1, 1): PAIR,
        (1, 1, 1, 1, 1): HIGH_CARD,
    }[tuple(shape)]
    return pack(kind, order)


def suited_value(ranks: Sequence[int]) -> int:
    """The value of 5 cards of these (distinct) ranks, all of one suit: a flush or a straight flush."""
    straight = _straight_ranks(ranks)
    if straight:
        return pack(STRAIGHT_FLUSH, straight)
    return pack(FLUSH, sorted(ranks, reverse=True))


# Every sorted rank tuple (descending) of 3 or 5 cards, at most four of a rank → its plain value.
PLAIN: dict[tuple[int, ...], int] = {}
for _size in (3, 5):
    for _combo in combinations_with_replacement(range(14, 1, -1), _size):
        if all(_combo.count(r) <= 4 for r in set(_combo)):
            PLAIN[_combo] = plain_value(_combo)


def parse(cards: Sequence[str], sizes: tuple[int, ...] = (3, 5)) -> tuple[list[int], list[int]]:
    """Return the ranks and suits of distinct, well-formed cards, or raise ValueError."""
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        raise ValueError("cards must be a list of card strings")
    if len(cards) not in sizes:
        raise ValueError(f"expected {' or '.join(map(str, sizes))} cards, got {len(cards)}")
    if not all(isinstance(c, str) and c in _CARDS for c in cards):
        raise ValueError(f"not a card in {list(cards)!r}")
    if len(set(cards)) != len(cards):
        raise ValueError(f"a card appears twice in {list(cards)!r}")
    return [RANK_OF[c[0]] for c in cards], [SUIT_OF[c[1]] for c in cards]


def value(cards: Sequence[str]) -> int:
    """The value of a 3- or 5-card pile (greater is stronger, equal is 打和)."""
    ranks, suits = parse(cards)
    if len(cards) == 5 and len(set(suits)) == 1:
        return suited_value(ranks)
    return PLAIN[tuple(sorted(ranks, reverse=True))]
