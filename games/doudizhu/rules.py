"""斗地主 (Dou Dizhu, "fight the landlord") cards and kinds of play: notation, ranks, comparison.

Cards are written as in DESIGN.md ("3s", "Th", "2c", "XJ" 小王 small joker,
"DJ" 大王 big joker) and ranked 0..14: 3=0, 4=1, ..., A=11, 2=12, XJ=13,
DJ=14. Suits never matter. Which sets of cards are plays, and what they
read as, is ``legality.plays``'s to say; this module names the kinds and
compares them (``beats``). docs/rules/doudizhu.md explains each choice and
cites the seeds.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

RANK_CHARS = "3456789TJQKA2"
SUITS = "shcd"
SMALL_JOKER = "XJ"
BIG_JOKER = "DJ"
RANK_2 = 12
RANK_A = 11
RANK_XJ = 13
RANK_DJ = 14
N_RANKS = 15
RANKS = range(N_RANKS)

RANK_OF: dict[str, int] = {r + s: i for i, r in enumerate(RANK_CHARS) for s in SUITS}
RANK_OF[SMALL_JOKER] = RANK_XJ
RANK_OF[BIG_JOKER] = RANK_DJ
# Sort key: rank first, then suit (s > h > c > d), so a hand lists high to low.
_SUIT_ORDER = {"s": 3, "h": 2, "c": 1, "d": 0, "J": 0}
SORT_KEY: dict[str, int] = {card: RANK_OF[card] * 4 + _SUIT_ORDER[card[1]] for card in RANK_OF}

FULL_DECK: tuple[str, ...] = tuple(sorted(RANK_OF, key=SORT_KEY.__getitem__))

RANK_NAMES = [*"3456789", "10", "J", "Q", "K", "A", "2", "小王", "大王"]

# The kinds of play. A set that reads several ways is read as the first kind here that reads it
# (``best_reading``); ``plays`` lists a lead's kinds in this order too, bombs and the rocket last.
KINDS = (
    "rocket",
    "bomb",
    "single",
    "pair",
    "trio",
    "trio_single",
    "trio_pair",
    "straight",
    "pair_straight",
    "plane",
    "four_two_pairs",
    "four_two_singles",
    "plane_pairs",
    "plane_singles",
)
PRIORITY = {kind: i for i, kind in enumerate(KINDS)}
LEAD_ORDER = (*KINDS[2:], "bomb", "rocket")

# How many cards a play of each kind may have (a hand holds at most 20).
SIZES: dict[str, frozenset[int]] = {
    "rocket": frozenset({2}),
    "bomb": frozenset({4}),
    "single": frozenset({1}),
    "pair": frozenset({2}),
    "trio": frozenset({3}),
    "trio_single": frozenset({4}),
    "trio_pair": frozenset({5}),
    "straight": frozenset(range(5, 13)),  # 5 to 12 ranks, 3..A
    "pair_straight": frozenset(range(6, 21, 2)),  # 3 to 10 pairs
    "plane": frozenset(range(6, 19, 3)),  # 2 to 6 trios
    "four_two_pairs": frozenset({8}),
    "four_two_singles": frozenset({6}),
    "plane_pairs": frozenset({10, 15, 20}),
    "plane_singles": frozenset({8, 12, 16, 20}),
}
# How many links a chain of each kind has, from its size.
_CARDS_PER_LINK = {"straight": 1, "pair_straight": 2, "plane": 3, "plane_singles": 4, "plane_pairs": 5}


class Combo(NamedTuple):
    """A play as the table reads it: its ``kind``, the ``rank`` of its body's highest rank, its ``size`` in cards.

    ``chain`` is the number of links in a chain (5 for 34567, 2 for 333444), else 1.
    """

    kind: str
    rank: int
    size: int
    chain: int = 1


@cache  # a few hundred: one Combo for each play the table can hold
def combo(kind: str, rank: int, size: int) -> Combo:
    """Return the Combo of a play of ``kind``, ``rank`` and ``size`` (its chain follows from them)."""
    per = _CARDS_PER_LINK.get(kind)
    return Combo(kind, rank, size, size // per if per else 1)


def parse(cards: list[str] | tuple[str, ...]) -> list[int]:
    """Return the rank-count array of ``cards``; raise ValueError on an unknown card."""
    counts = [0] * N_RANKS
    for card in cards:
        try:
            counts[RANK_OF[card]] += 1
        except KeyError:
            raise ValueError(f"{card!r} is not a card.") from None
    return counts


def sort_cards(cards) -> list[str]:
    """Return ``cards`` sorted high to low (大王 first, 3 last)."""
    return sorted(cards, key=SORT_KEY.__getitem__, reverse=True)


def rank_name(rank: int) -> str:
    return RANK_NAMES[rank]


def beats(play: Combo, previous: Combo) -> bool:
    """Tell whether ``play`` may be laid on ``previous``.

    The rocket (火箭) beats everything; a bomb (炸弹) beats every non-bomb and
    lower bombs; otherwise only the same kind with the same number of cards and
    a higher body wins (suits and kickers never count).
    """
    if play.kind == "rocket":
        return True
    if previous.kind == "rocket":
        return False
    if play.kind == "bomb":
        return previous.kind != "bomb" or play.rank > previous.rank
    if previous.kind == "bomb":
        return False
    return play.kind == previous.kind and play.size == previous.size and play.rank > previous.rank
