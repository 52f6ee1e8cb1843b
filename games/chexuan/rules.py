"""扯旋 (Che Xuan): the 32-card deck, pairs, the four-card hands, splitting and comparing.

Public API (the seed is 003, lines 44-118; docs/rules/chexuan.md gives each line):

- :data:`DECK` — the 32 cards, listed one by one.
- :func:`pair_rank` — the rank of two cards: 003's named pairs (丁皇 … 苕十九),
  then points (the last digit of the sum) broken by the higher single card.
- :func:`four_card_hand` — ``tianhuang`` 天皇, ``dihuang`` 地皇, ``sanhua_shi``
  三花十, ``sanhua_liu`` 三花六, or None.
- :func:`splits` and :func:`best_split` — the three ways to split four cards
  into a head (头牌, the larger pair) and a tail (尾牌).
- :func:`compare_split` — +1, −1 or 0 for two split hands, as 003:73 says.

Colour counts, not suit: 红 red is ♥ or ♦ and 黑 black is ♠ or ♣ (003:74).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

# The deck is not listed in 003; the pair table (003:83-108) and the single-card order
# (003:76) name 15 pairs and two single cards, which make the 32 (003:58).
DECK: tuple[str, ...] = (
    "Qh", "Qd",  # 红Q: 天牌
    "2h", "2d",  # 红2: 地牌
    "8h", "8d",  # 红8: 人牌
    "4h", "4d",  # 红4: 和牌
    "Ts", "Tc",  # 黑10: 梅十
    "4s", "4c",  # 黑4: 板凳
    "6s", "6c",  # 黑6: 长三
    "Js", "Jc",  # 黑J: 虎头
    "Th", "Td",  # 红10: 苕十
    "6h", "6d",  # 红6: 猫猫
    "7h", "7d",  # 红7: 膏药
    "5s", "5c", "7s", "7c", "8s", "8c", "9s", "9c",  # 黑5 黑7 黑8 黑9: 对子
    "3h",  # 红桃3: with 大王 丁皇
    "DJ",  # 大王 big joker
)  # fmt: skip


def face(card: str) -> str:
    """Return what the rules see of a card: its colour and rank ("rQ", "bT"), or "DJ"."""
    if card == "DJ":
        return "DJ"
    return ("r" if card[1] in "hd" else "b") + card[0]


_DECK_SET = frozenset(DECK)

# 003:76: Q is 2 points, J is 1, 大王 is 6, 10 is 0 (only the last digit of a sum counts).
_POINTS = {"Q": 2, "J": 1, "T": 0, "D": 6}

# 003:76, the single-card order that breaks a tie on points: 红Q > 红2 > 红8 > 红4 >
# (黑10 = 黑4 = 黑6) > (黑J = 红10 = 红6 = 红7) > (黑5 = 黑7 = 黑8 = 黑9 = 红桃3 = 大王).
SINGLE_RANK = {
    "rQ": 7, "r2": 6, "r8": 5, "r4": 4,
    "bT": 3, "b4": 3, "b6": 3,
    "bJ": 2, "rT": 2, "r6": 2, "r7": 2,
    "b5": 1, "b7": 1, "b8": 1, "b9": 1, "r3": 1, "DJ": 1,
}  # fmt: skip

# 003:75 and 003:83-108, highest first: (name, Chinese name, the pairs of faces it is).
# Names in one tuple of the outer list are equal (003:75 writes them in brackets).
NAMED_PAIRS: list[tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...]] = [
    (("dinghuang", "丁皇", (("r3", "DJ"),)),),
    (("tian", "天牌", (("rQ", "rQ"),)),),
    (("di", "地牌", (("r2", "r2"),)),),
    (("ren", "人牌", (("r8", "r8"),)),),
    (("he", "和牌", (("r4", "r4"),)),),
    (
        ("meishi", "梅十", (("bT", "bT"),)),
        ("bandeng", "板凳", (("b4", "b4"),)),
        ("changsan", "长三", (("b6", "b6"),)),
    ),
    (
        ("hutou", "虎头", (("bJ", "bJ"),)),
        ("shaoshi", "苕十", (("rT", "rT"),)),
        ("maomao", "猫猫", (("r6", "r6"),)),
        ("gaoyao", "膏药", (("r7", "r7"),)),
    ),
    (("duizi", "对子", (("b5", "b5"), ("b7", "b7"), ("b8", "b8"), ("b9", "b9"))),),
    (("naigou", "奶狗", (("rQ", "b9"),)),),
    (("tiangang", "天杠", (("rQ", "r8"), ("rQ", "b8"))),),
    (("digang", "地杠", (("r2", "r8"), ("r2", "b8"))),),
    (("tianguanjiu", "天关九", (("rQ", "r7"), ("rQ", "b7"))),),
    (("diguanjiu", "地关九", (("r2", "r7"), ("r2", "b7"))),),
    (("denglongjiu", "灯笼九", (("r8", "bJ"),)),),
    (("hewujiu", "和五九", (("r4", "b5"),)),),
    (
        ("banwujiu", "板五九", (("b4", "b5"),)),
        ("dingchangjiu", "丁长九", (("r3", "b6"),)),
        ("meishijiu", "梅十九", (("bT", "b9"),)),
    ),
    (
        ("dingmaojiu", "丁猫九", (("r3", "r6"),)),
        ("wulongjiu", "乌龙九", (("b8", "bJ"),)),
        ("shaoshijiu", "苕十九", (("rT", "b9"),)),
    ),
]

# faces (sorted) -> (tier value, name); tier values run from len(NAMED_PAIRS) (丁皇) down to 1.
_NAMED: dict[tuple[str, str], tuple[int, str]] = {
    tuple(sorted(faces)): (len(NAMED_PAIRS) - i, name)
    for i, tier in enumerate(NAMED_PAIRS)
    for name, _zh, pairs in tier
    for faces in pairs
}
PAIR_NAMES: tuple[str, ...] = tuple(name for tier in NAMED_PAIRS for name, _zh, _pairs in tier)
FOUR_CARD_HANDS = ("tianhuang", "dihuang", "sanhua_shi", "sanhua_liu")


@dataclass(frozen=True, order=True)
class PairRank:
    """The rank of two cards; greater ranks higher, equal ranks tie.

    ``key`` is (tier, points, higher single card): named pairs have tiers above 0 and
    compare by tier alone; a plain pair (散牌, ``name == "points"``) has tier 0.
    """

    key: tuple[int, int, int]
    name: str = field(compare=False)
    points: int = field(compare=False)


def _check(cards: Sequence[str], count: int) -> list[str]:
    cards = list(cards)
    if len(cards) != count or len(set(cards)) != count or not set(cards) <= _DECK_SET:
        raise ValueError(f"not {count} different 扯旋 cards: {cards!r}")
    return cards


def card_points(card: str) -> int:
    """Return one card's points: Q 2, J 1, 10 0, 大王 6, the others their rank (003:76)."""
    return _POINTS[card[0]] if card[0] in _POINTS else int(card[0])


def pair_rank(two_cards: Sequence[str]) -> PairRank:
    """Return the rank of two cards: a named pair of 003's table, else their points."""
    a, b = _check(two_cards, 2)
    points = (card_points(a) + card_points(b)) % 10
    named = _NAMED.get(tuple(sorted((face(a), face(b)))))
    if named is not None:
        return PairRank((named[0], 0, 0), named[1], points)
    high = max(SINGLE_RANK[face(a)], SINGLE_RANK[face(b)])
    return PairRank((0, points, high), "points", points)


def four_card_hand(cards: Sequence[str]) -> str | None:
    """Return the four-card hand these cards make (天皇, 地皇, 三花十, 三花六), or None."""
    faces = Counter(face(c) for c in _check(cards, 4))
    if faces == Counter(["r3", "DJ", "rQ", "rQ"]):
        return "tianhuang"
    if faces == Counter(["r3", "DJ", "r2", "r2"]):
        return "dihuang"
    if faces["bT"] and faces["rT"] and faces["bJ"]:
        return "sanhua_shi"
    if faces["b6"] and faces["r6"] and faces["DJ"]:
        return "sanhua_liu"
    return None


def splits(cards: Sequence[str]) -> list[tuple[list[str], list[str]]]:
    """Return the three ways to split four cards, each as (head, tail) with the head not smaller."""
    cards = _check(cards, 4)
    found = []
    for partner in cards[1:]:
        one = [cards[0], partner]
        other = [c for c in cards[1:] if c != partner]
        if pair_rank(other) > pair_rank(one):
            one, other = other, one
        found.append((one, other))
    return found


def best_split(cards4: Sequence[str]) -> tuple[list[str], list[str]]:
    """Return the split (head, tail) with the strongest tail, then the strongest head.

    A split wins only when both parts win, or one wins and the other ties (003:73), so
    the weaker part decides more hands than the stronger: the tail comes first.
    """
    return max(splits(cards4), key=lambda s: (pair_rank(s[1]), pair_rank(s[0])))


def _sign(x, y) -> int:
    return (x > y) - (x < y)


def compare_split(a: Sequence[Sequence[str]], b: Sequence[Sequence[str]]) -> int:
    """Compare two split hands ``(head, tail)``: +1 ``a`` wins, −1 ``b`` wins, 0 neither.

    003:73: a hand wins when its head and tail both beat the other's, or one beats and
    one ties; it loses in the reverse case; one higher and one lower (or both equal)
    is a draw. 天皇 and 地皇 beat every split hand (天皇 first); a hand with 三花十 or
    三花六 neither wins nor loses (003:76).
    """
    four_a = four_card_hand([*a[0], *a[1]])
    four_b = four_card_hand([*b[0], *b[1]])
    if four_a in ("sanhua_shi", "sanhua_liu") or four_b in ("sanhua_shi", "sanhua_liu"):
        return 0
    royal = {"tianhuang": 2, "dihuang": 1}
    if four_a in royal or four_b in royal:
        return _sign(royal.get(four_a, 0), royal.get(four_b, 0))
    head_a, tail_a = pair_rank(a[0]), pair_rank(a[1])
    head_b, tail_b = pair_rank(b[0]), pair_rank(b[1])
    total = _sign(head_a, head_b) + _sign(tail_a, tail_b)
    return (total > 0) - (total < 0)
