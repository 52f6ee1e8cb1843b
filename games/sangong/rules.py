"""三公 San Gong rules for 百人三公: three cards, their category, points, comparison and multiplier.

Pure functions over card strings in the notation of DESIGN.md ("Ks", "Td").
Seed: 001 (百人三公游戏规则, 比牌规则); file:line references are in
docs/rules/sangong.md.
"""

from __future__ import annotations

from collections.abc import Sequence

RANKS = "A23456789TJQK"  # low to high for the highest-card comparison: K>Q>J>10>…>2>A (001:147)
SUITS = "dchs"  # low to high: 黑桃 ♠ > 红桃 ♥ > 梅花 ♣ > 方块 ♦ (001:147)
FACES = "JQK"  # 公仔牌: the face cards

# The categories above the points, high to low (001:142).
BAO_JIU = "bao_jiu"  # 爆玖: three 3s
BOMB = "bomb"  # 炸弹: any other three of a kind
SAN_GONG = "san_gong"  # 三公: three face cards J/Q/K that are not a bomb
SPECIALS = (BAO_JIU, BOMB, SAN_GONG)

Category = str | int  # a special category's name, or the points 0–9

_MULTIPLIERS = {BAO_JIU: 5, BOMB: 4, SAN_GONG: 3, 9: 2, 8: 2, 7: 2}  # 001:135-141; 0–6 pay 1
TOP_MULTIPLIER = 5  # the most any hand pays: 爆玖


def _parse(card: str) -> tuple[int, int]:
    """Return ``(rank index, suit index)`` of a card, refusing anything else."""
    if not isinstance(card, str) or len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
        raise ValueError(f"{card!r} is not a card (rank A 2-9 T J Q K, then suit s h c d)")
    return RANKS.index(card[0]), SUITS.index(card[1])


def _three(cards: Sequence[str]) -> list[tuple[int, int]]:
    parsed = [_parse(card) for card in cards]
    if len(parsed) != 3 or len(set(cards)) != 3:
        raise ValueError(f"a 三公 hand is three different cards, not {list(cards)!r}")
    return parsed


def card_points(card: str) -> int:
    """Return a card's points: A 1, 2–9 their face, 10/J/Q/K 0 (001:144)."""
    rank, _suit = _parse(card)
    return rank + 1 if rank < 9 else 0


def points(cards: Sequence[str]) -> int:
    """Return the hand's points: the cards' points added, last digit only (001:144)."""
    _three(cards)
    return sum(card_points(card) for card in cards) % 10


def category(cards: Sequence[str]) -> Category:
    """Return ``bao_jiu``, ``bomb``, ``san_gong`` or the points 0–9 of three cards (001:135-141)."""
    parsed = _three(cards)
    ranks = {rank for rank, _suit in parsed}
    if len(ranks) == 1:
        return BAO_JIU if RANKS[parsed[0][0]] == "3" else BOMB
    if all(RANKS[rank] in FACES for rank in ranks):
        return SAN_GONG
    return points(cards)


def category_rank(cat: Category) -> int:
    """Order the categories: 0 points lowest … 9 points, 三公 10, 炸弹 11, 爆玖 12 (001:142)."""
    if cat in SPECIALS:
        return 10 + SPECIALS[::-1].index(cat)
    if isinstance(cat, int) and not isinstance(cat, bool) and 0 <= cat <= 9:
        return cat
    raise ValueError(f"{cat!r} is not a 三公 category")


def multiplier(cat: Category) -> int:
    """Return what a hand of this category pays: 爆玖 5, 炸弹 4, 三公 3, 9/8/7 points 2, 0–6 points 1."""
    category_rank(cat)
    return _MULTIPLIERS.get(cat, 1)


def strength(cards: Sequence[str]) -> tuple[int, int, int, int, int]:
    """Return a key that orders hands as 001's 比牌规则 does (001:146-147).

    Category, then points, then the number of face cards (公仔), then the
    highest card's rank (K>Q>J>10>…>A), then that card's suit (♠>♥>♣>♦).
    Two hands from one deck never have equal keys (their highest cards differ).
    """
    parsed = _three(cards)
    cat = category(cards)
    faces = sum(1 for rank, _suit in parsed if RANKS[rank] in FACES)
    top_rank, top_suit = max(parsed)
    return category_rank(cat), points(cards), faces, top_rank, top_suit


def compare(a: Sequence[str], b: Sequence[str]) -> int:
    """Return +1 when hand ``a`` beats hand ``b``, −1 when it loses (0: equal keys, which two hands of one deck never have)."""
    key_a, key_b = strength(a), strength(b)
    return (key_a > key_b) - (key_a < key_b)
