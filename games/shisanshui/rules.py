"""十三水 (Thirteen Cards): piles, 倒水, special hands, scoring in 水, and the arranging aid.

Public API (seed 001, lines 460-571; docs/rules/shisanshui.md gives each rule its line):

- :func:`pile_type` — a 3- or 5-card pile's value; piles compare with ``<``/``==``.
- :func:`is_valid` — no 倒水: 头墩 ≤ 中墩 ≤ 尾墩.
- :func:`special` — the highest special hand (特殊牌型) 13 cards form, with its 水.
- :func:`score` — each player's total 水 (summing to zero); :func:`compare_all` the details.
- :func:`suggest` — the arrangements worth choosing, best first, then any special hand.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from games.shisanshui import arrange
from games.shisanshui.piles import (
    FLUSH,
    FULL_HOUSE,
    KINDS,
    QUADS,
    RANK_OF,
    STRAIGHT,
    STRAIGHT_FLUSH,
    SUIT_OF,
    TRIPS,
    parse,
    value,
)

PILES = ("front", "middle", "back")  # 头墩, 中墩, 尾墩
PILE_SIZES = (3, 5, 5)

# 001:489-501 from the highest down, with the 水 each takes from every hand it beats (001:537-569).
SPECIALS = (
    ("清龙", 60),
    ("一条龙", 30),
    ("十二皇族", 24),
    ("三同花顺", 20),
    ("三分天下", 20),
    ("全大", 10),
    ("全小", 10),
    ("凑一色", 10),
    ("五对三条", 8),
    ("四套三条", 8),
    ("六对半", 6),
    ("三顺子", 3),
    ("三同花", 3),
)
SPECIAL_WATER = dict(SPECIALS)
SPECIAL_RANK = {name: len(SPECIALS) - i for i, (name, _) in enumerate(SPECIALS)}


@dataclass(frozen=True, order=True)
class PileType:
    """A pile's strength: compare two with ``<`` and ``==`` (equal piles are 打和)."""

    value: int
    size: int = field(compare=False)

    @property
    def kind(self) -> str:
        """``straight_flush`` … ``high_card`` (a 3-card pile is only three_of_a_kind, pair or high_card)."""
        return KINDS[self.value >> 20]


def pile_type(cards: Sequence[str]) -> PileType:
    """Value a 3-card 头墩 or a 5-card 中墩/尾墩 (001:470-471: by kind, then points, never suits)."""
    return PileType(value(cards), len(cards))


def is_valid(front: Sequence[str], middle: Sequence[str], back: Sequence[str]) -> bool:
    """Say whether the piles are 3, 5 and 5 distinct cards with 头 ≤ 中 ≤ 尾 (not 倒水, 001:469)."""
    cards = [*front, *middle, *back]
    if [len(front), len(middle), len(back)] != list(PILE_SIZES) or len(set(cards)) != 13:
        return False
    return pile_type(front) <= pile_type(middle) <= pile_type(back)


# -- special hands -----------------------------------------------------------------------


def _front_straight(ranks: Sequence[int]) -> bool:
    top = sorted(ranks, reverse=True)
    return (top[0] - top[1] == 1 and top[1] - top[2] == 1) or top == [14, 3, 2]


def _three_piles(hand: _Hand, need: str) -> dict | None:
    """Split 13 cards into piles that are all straights, all flushes or all straight flushes, if they can be."""
    ordered, ranks, suits = hand.cards, hand.ranks, hand.suits
    if need != "straight" and sorted(Counter(suits).values()) not in ([13], [3, 10], [5, 8], [3, 5, 5]):
        return None  # the suits cannot fill a 3 and two 5s
    v5 = hand.values()[0]
    fives = hand.of_kinds({"straight": (STRAIGHT,), "flush": (FLUSH,), "both": ()}[need])
    for a, b in combinations(fives, 2):
        pa, pb = arrange.subset_positions(a, 5), arrange.subset_positions(b, 5)
        if set(pa) & set(pb):
            continue
        rest = [i for i in range(13) if i not in pa and i not in pb]
        straight = _front_straight([ranks[i] for i in rest])
        flush = len({suits[i] for i in rest}) == 1
        if {"straight": straight, "flush": flush, "both": straight and flush}[need]:
            back, middle = (pa, pb) if v5[a] >= v5[b] else (pb, pa)
            return {
                "front": [ordered[i] for i in rest],
                "middle": [ordered[i] for i in middle],
                "back": [ordered[i] for i in back],
            }
    return None


class _Hand:
    """13 valid cards sorted by rank (highest first), their ranks and suits, and their subsets' values."""

    def __init__(self, cards: Sequence[str]) -> None:
        self.cards = sorted(cards, key=lambda c: (RANK_OF[c[0]], SUIT_OF[c[1]]), reverse=True)
        self.ranks = tuple(RANK_OF[c[0]] for c in self.cards)
        self.suits = tuple(SUIT_OF[c[1]] for c in self.cards)
        self._values: tuple[list[int], list[int]] | None = None
        self._ranked: tuple[list[int], list[int]] | None = None

    def values(self) -> tuple[list[int], list[int]]:
        if self._values is None:
            self._values = arrange.pile_values(self.ranks, self.suits)
        return self._values

    def strongest_first(self) -> list[int]:
        """The 5-card subsets strongest first, and (kept aside) their values negated, for bisecting."""
        if self._ranked is None:
            v5 = self.values()[0]
            order = arrange.strongest_first(v5)
            self._ranked = (order, [-v5[i] for i in order])
        return self._ranked[0]

    def of_kinds(self, kinds: tuple[int, ...]) -> list[int]:
        """The 5-card subsets that are straight flushes or of one of ``kinds`` (kinds up to FLUSH)."""
        order = self.strongest_first()
        negated = self._ranked[1]
        found = order[: bisect_right(negated, -(STRAIGHT_FLUSH << 20))]
        for kind in kinds:
            found += order[bisect_right(negated, -((kind + 1) << 20)) : bisect_right(negated, -(kind << 20))]
        return found


SUITS_COLOUR = (1, 0, 1, 0)  # s h c d: black 1, red 0 (凑一色: 红桃+方片 or 黑桃+梅花, 001:496)


def _special(hand: _Hand) -> tuple[str, dict | None] | None:
    """The highest special hand of 13 valid cards, and its piles when it is made of piles."""
    ranks, suits = hand.ranks, hand.suits
    counts = Counter(ranks)
    if len(counts) == 13:
        return ("清龙" if len(set(suits)) == 1 else "一条龙"), None
    if min(ranks) >= 11:
        return "十二皇族", None
    piles = _three_piles(hand, "both")
    if piles:
        return "三同花顺", piles
    shape = sorted(counts.values(), reverse=True)
    if shape[:3] == [4, 4, 4]:
        return "三分天下", None
    if min(ranks) >= 8:
        return "全大", None
    if max(ranks) <= 8:
        return "全小", None
    if {SUITS_COLOUR[s] for s in suits} in ({0}, {1}):
        return "凑一色", None
    odd = [n for n in counts.values() if n % 2]
    if odd == [3]:
        return "五对三条", None  # a four of a kind counts as two pairs
    if sum(1 for n in counts.values() if n >= 3) == 4:
        return "四套三条", None  # a four of a kind counts as a three and the single
    if sum(n // 2 for n in counts.values()) == 6:
        return "六对半", None
    for need, name in (("straight", "三顺子"), ("flush", "三同花")):
        piles = _three_piles(hand, need)
        if piles:
            return name, piles
    return None


def special(cards13: Sequence[str]) -> tuple[str, int] | None:
    """Return the seed's Chinese name of the highest special hand (001:489-501) and its 水, or None."""
    parse(cards13, (13,))
    found = _special(_Hand(cards13))
    return (found[0], SPECIAL_WATER[found[0]]) if found else None


def special_piles(cards13: Sequence[str], hand: _Hand | None = None) -> dict | None:
    """The special hand of 13 cards as an arrangement: ``{"special", "water", "front", "middle", "back"}``.

    三同花顺, 三顺子 and 三同花 keep the piles that make them; the others show the
    cards in three piles as they come (the piles do not count for them).
    """
    parse(cards13, (13,))
    hand = hand or _Hand(cards13)
    found = _special(hand)
    if not found:
        return None
    name, piles = found
    if piles is None:
        ordered = hand.cards
        piles = {"front": ordered[10:], "middle": ordered[5:10], "back": ordered[:5]}
    return {"special": name, "water": SPECIAL_WATER[name], **piles}


# -- scoring -----------------------------------------------------------------------------


def pile_water(pile: int, winner: PileType) -> int:
    """The 水 a pile is worth to the player who wins it (001:502-530): 1, or the bonus of its kind."""
    kind = winner.value >> 20
    if pile == 0 and kind == TRIPS:
        return 3  # 冲三
    if pile == 1:
        return {FULL_HOUSE: 2, QUADS: 8, STRAIGHT_FLUSH: 10}.get(kind, 1)  # 中墩葫芦, 铁支, 同花顺
    if pile == 2:
        return {QUADS: 4, STRAIGHT_FLUSH: 5}.get(kind, 1)
    return 1


@dataclass
class Comparison:
    """比牌 between two seats ``a`` < ``b``: the 水 ``a`` wins (negative: loses) and how.

    ``piles`` is ``a``'s 水 per pile (None when a special hand decides);
    ``shot`` the seat that won all three piles (打枪) or None; ``water`` the
    total after 打枪 and 全垒打.
    """

    a: int
    b: int
    piles: list[int] | None
    shot: int | None
    water: int
    special: str | None = None

    def as_dict(self) -> dict:
        return {
            "seats": [self.a, self.b],
            "piles": self.piles,
            "shot": self.shot,
            "water": self.water,
            "special": self.special,
        }


@dataclass
class Scoring:
    """Every pair's 比牌, who scored 全垒打 (home run), and each seat's total 水."""

    pairs: list[Comparison]
    home_run: int | None
    totals: list[int]


def _is_special(arrangement: dict) -> bool:
    return bool(arrangement.get("special"))


def compare_all(arrangements: Sequence[dict]) -> Scoring:
    """Compare every pair of players' arrangements (001:472-474, 485-487, 502-569).

    An arrangement is ``{"front", "middle", "back"}`` (legal piles), or a
    declared special hand ``{"special": name, ...}``. Equal piles are 打和 (0).
    """
    n = len(arrangements)
    types = [None if _is_special(a) else [pile_type(a[p]) for p in PILES] for a in arrangements]
    pairs = []
    for a, b in combinations(range(n), 2):
        sa, sb = arrangements[a].get("special"), arrangements[b].get("special")
        if sa or sb:
            # 001:485-487: a special hand beats every normal one; between two, the higher list entry.
            rank_a, rank_b = SPECIAL_RANK.get(sa, 0), SPECIAL_RANK.get(sb, 0)
            water = SPECIAL_WATER[sa] if rank_a > rank_b else -SPECIAL_WATER[sb] if rank_b > rank_a else 0
            winner = sa if rank_a > rank_b else sb if rank_b > rank_a else None
            pairs.append(Comparison(a, b, None, None, water, winner))
            continue
        piles = []
        for p in range(3):
            ta, tb = types[a][p], types[b][p]
            piles.append(pile_water(p, ta) if ta > tb else -pile_water(p, tb) if tb > ta else 0)
        wins_a = all(ta > tb for ta, tb in zip(types[a], types[b], strict=True))
        wins_b = all(tb > ta for ta, tb in zip(types[a], types[b], strict=True))
        shot = a if wins_a else b if wins_b else None
        water = sum(piles) * (2 if shot is not None else 1)  # 打枪 ×2 (001:472, 511-513)
        pairs.append(Comparison(a, b, piles, shot, water))
    home_run = None
    if n == 4:  # 全垒打 ×2 again, only with four players (001:473, 514-516)
        for seat in range(n):
            if all(c.shot == seat for c in pairs if seat in (c.a, c.b)):
                home_run = seat
                for c in pairs:
                    if seat in (c.a, c.b):
                        c.water *= 2
    totals = [0] * n
    for c in pairs:
        totals[c.a] += c.water
        totals[c.b] -= c.water
    return Scoring(pairs, home_run, totals)


def score(arrangements: Sequence[dict]) -> list[int]:
    """Return each player's total 水 from 比牌 (they sum to zero)."""
    return compare_all(arrangements).totals


# -- the arranging aid ---------------------------------------------------------------------

# The usual kind of each pile, to rank arrangements by how far each pile stands above it: by
# pile, for each ``value >> 16`` (the kind and the top rank), the kind plus the top rank as a
# fraction, less the usual kind there, plus half the bonus 水 the pile would win.
_TYPICAL = (0.7, 1.6, 3.0)
_STRENGTH = tuple(
    tuple(
        (key >> 4) + (key & 15) / 15 - _TYPICAL[p] + (pile_water(p, PileType(key << 16, 0)) - 1) / 2
        for key in range(9 << 4)
    )
    for p in range(3)
)


def _strength(entry: tuple[int, ...]) -> tuple[float, int, int, int]:
    vf, vm, vb = entry[:3]
    front, middle, back = _STRENGTH
    return front[vf >> 16] + middle[vm >> 16] + back[vb >> 16], vb, vm, vf


def suggest(cards13: Sequence[str]) -> list[dict]:
    """Return the arrangements a player would pick, best first, then the special hand if any.

    Every legal arrangement that no other legal arrangement dominates (at least as
    strong in all three piles, stronger in one), one per distinct triple of pile
    values, ordered by a strength estimate (how far each pile's kind stands above
    the usual one for its place, counting the bonus 水 it would win); then
    :func:`special_piles` if the cards form a special hand.
    """
    parse(cards13, (13,))
    hand = _Hand(cards13)
    ordered = hand.cards
    found = arrange.frontier(hand.ranks, hand.suits, hand.values(), hand.strongest_first())
    found.sort(key=_strength, reverse=True)
    pick3, pick5 = arrange.PICK3, arrange.PICK5
    out = [
        {"front": list(pick3[f](ordered)), "middle": list(pick5[m](ordered)), "back": list(pick5[b](ordered))}
        for *_, f, m, b in found
    ]
    extra = special_piles(ordered, hand)
    if extra:
        out.append(extra)
    return out
