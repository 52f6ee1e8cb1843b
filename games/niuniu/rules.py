"""牛牛 (Bull, five-card niu) hands: category, comparison, the 摊牌 split and the multipliers.

Public API, shared by 牛牛 (抢庄), 通比牛牛 and 百人牛牛 (seed 001; lines in docs/rules/niuniu.md):

- :func:`category` — five cards → ``five_small`` 小牛牛, ``four_bomb`` 四炸弹, ``five_face``
  五花牛, ``four_face`` 四花牛, ``niuniu`` 牛牛, ``niu_9`` … ``niu_1`` 牛九…牛一, ``no_niu`` 无牛.
- :func:`compare` — +1 when ``a`` beats ``b``, −1 otherwise (two hands from one deck never tie).
- :func:`best_split` — ``(three, two)`` as 摊牌 (show) lays the hand out.
- :func:`niu_splits` — every three cards that make a niu.
- :func:`multiplier` — the category's multiple in the table a room tier names
  (``"niuniu"``: 001:426-449, ``"tongbi"``: 001:596-611).

A, 2–9 and 10/J/Q/K count 1, face value and 10 (001:424, 001:575). Every split
whose three cards make a multiple of ten scores the same: the two left over sum
to the five cards' total less a multiple of ten, so the niu a hand makes does not
depend on which three cards the player picks (docs/rules/niuniu.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

RANKS = "A23456789TJQK"  # low to high for comparing: K>Q>J>10>…>2>A (001:424)
SUITS = "dchs"  # low to high: ♠ > ♥ > ♣ > ♦ (001:425)
FACES = frozenset("JQK")
CATEGORIES = (  # high to low (001:423, 001:588)
    "five_small",
    "four_bomb",
    "five_face",
    "four_face",
    "niuniu",
    *(f"niu_{k}" for k in range(9, 0, -1)),
    "no_niu",
)
_STRENGTH = {name: len(CATEGORIES) - i for i, name in enumerate(CATEGORIES)}
TABLES = {
    # 牛牛 (抢庄), 001:426-449.
    "niuniu": {
        "no_niu": 1,
        **{f"niu_{k}": 1 for k in range(1, 7)},
        "niu_7": 2,
        "niu_8": 3,
        "niu_9": 4,
        "niuniu": 5,
        "four_face": 6,
        "five_face": 7,
        "four_bomb": 8,
        "five_small": 10,
    },
    # 通比牛牛, 001:596-611.
    "tongbi": {
        "no_niu": 1,
        **{f"niu_{k}": 1 for k in range(1, 7)},
        **{f"niu_{k}": 2 for k in range(7, 10)},
        "niuniu": 3,
        "four_face": 4,
        "five_face": 5,
        "four_bomb": 5,
        "five_small": 6,
    },
}


_POINTS = {r + s: min(i + 1, 10) for i, r in enumerate(RANKS) for s in SUITS}
_KEYS = {r + s: (i, j) for i, r in enumerate(RANKS) for j, s in enumerate(SUITS)}
_TRIPLES = tuple(combinations(range(5), 3))


def points(card: str) -> int:
    """The card's count when making a niu: A is 1, 2–9 their face, 10/J/Q/K are 10."""
    return _POINTS[card]


def card_key(card: str) -> tuple[int, int]:
    """Order one card for comparing: rank (K high, A low), then suit (♠ > ♥ > ♣ > ♦)."""
    return _KEYS[card]


def _check(cards: Sequence[str]) -> list[str]:
    hand = list(cards)
    if len(hand) != 5 or len(set(map(str, hand))) != 5:
        raise ValueError(f"a 牛牛 hand is five different cards, not {hand!r}")
    for card in hand:
        if not isinstance(card, str) or card not in _POINTS:
            raise ValueError(f"not a card: {card!r}")
    return hand


def niu_splits(cards: Sequence[str]) -> list[tuple[str, ...]]:
    """Every three of the cards (in the hand's order) whose points sum to a multiple of ten."""
    hand = _check(cards)
    v = [_POINTS[c] for c in hand]
    return [(hand[a], hand[b], hand[c]) for a, b, c in _TRIPLES if (v[a] + v[b] + v[c]) % 10 == 0]


def category(cards: Sequence[str]) -> str:
    """Name the hand's category (001:414-420): the special hands first, then the niu."""
    hand = _check(cards)
    values = [_POINTS[c] for c in hand]
    ranks = [c[0] for c in hand]
    if all(v < 5 for v in values) and sum(values) <= 10:
        return "five_small"
    if max(ranks.count(r) for r in ranks) == 4:
        return "four_bomb"
    faces = sum(r in FACES for r in ranks)
    if faces == 5:
        return "five_face"
    if faces == 4 and "T" in ranks:
        return "four_face"
    if not any((values[a] + values[b] + values[c]) % 10 == 0 for a, b, c in _TRIPLES):
        return "no_niu"
    left = sum(values) % 10
    return "niuniu" if left == 0 else f"niu_{left}"


def strength(cards: Sequence[str]) -> tuple[int, tuple[int, int]]:
    """A sortable key: the category, then the highest card by rank and suit (001:422)."""
    return _STRENGTH[category(cards)], max(card_key(c) for c in cards)


def compare(a: Sequence[str], b: Sequence[str]) -> int:
    """Return +1 when hand ``a`` beats hand ``b``, −1 otherwise."""
    return 1 if strength(a) > strength(b) else -1


def best_split(cards: Sequence[str]) -> tuple[list[str], list[str]]:
    """Lay the hand out as 摊牌 shows it: ``(three, two)``.

    A hand with a niu shows the three cards that make it (of several, the split
    whose two scoring cards hold the highest card) and the two that score. A
    四炸弹 with no niu shows three of its four and then the fourth beside the odd
    card; any other hand without a niu (无牛, or a 小牛牛 that makes none) shows
    its three highest cards and then its two lowest. Each part runs high to low.
    """
    hand = _check(cards)
    ordered = sorted(hand, key=card_key, reverse=True)
    splits = niu_splits(ordered)
    if splits:
        three = max(splits, key=lambda t: sorted((card_key(c) for c in hand if c not in t), reverse=True))
    else:
        ranks = [c[0] for c in ordered]
        quad = next((r for r in ranks if ranks.count(r) == 4), None)
        if quad is not None:
            four = [c for c in ordered if c[0] == quad]
            odd = [c for c in ordered if c[0] != quad]
            return four[:3], [four[3], *odd]
        three = tuple(ordered[:3])
    two = [c for c in ordered if c not in three]
    return sorted(three, key=card_key, reverse=True), two


def multiplier(category_name: str, table: str = "niuniu") -> int:
    """The multiple a winning hand of ``category_name`` pays under ``table`` (``"niuniu"`` or ``"tongbi"``)."""
    try:
        return TABLES[table][category_name]
    except KeyError:
        raise ValueError(f"no multiple for {category_name!r} in table {table!r}") from None
