"""斗地主 (Dou Dizhu, "fight the landlord") card rules: parse, classify, compare (moves.py enumerates).

Cards are written as in DESIGN.md ("3s", "Th", "2c", "XJ" 小王 small joker,
"DJ" 大王 big joker) and parsed once into rank values 0..14:
3=0, 4=1, ..., A=11, 2=12, XJ=13, DJ=14. Suits never matter. Every rule below
works on a rank-count array of length 15, never on strings.

A set of cards may read as more than one combination (``readings``): for
example ``33334444`` is 四带两对 (four with two pairs) and also 飞机带翅膀
(333444 with wings 3 and 4). ``classify`` returns the preferred reading; a
player who follows may use any reading that beats the play on the table
(``best_reading``). A set that reads as a bomb or a rocket reads as nothing
else. docs/rules/doudizhu.md explains each choice and cites the seeds.
"""

from __future__ import annotations

from functools import lru_cache
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

RANK_OF: dict[str, int] = {r + s: i for i, r in enumerate(RANK_CHARS) for s in SUITS}
RANK_OF[SMALL_JOKER] = RANK_XJ
RANK_OF[BIG_JOKER] = RANK_DJ
# Sort key: rank first, then suit (s > h > c > d), so a hand lists high to low.
_SUIT_ORDER = {"s": 3, "h": 2, "c": 1, "d": 0, "J": 0}
SORT_KEY: dict[str, int] = {card: RANK_OF[card] * 4 + _SUIT_ORDER[card[1]] for card in RANK_OF}

FULL_DECK: tuple[str, ...] = tuple(sorted(RANK_OF, key=SORT_KEY.__getitem__))

RANK_NAMES = [*"3456789", "10", "J", "Q", "K", "A", "2", "小王", "大王"]

# Kinds, in the order a set that reads several ways is shown (the first wins).
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
_KIND_PRIORITY = {kind: i for i, kind in enumerate(KINDS)}


class Combo(NamedTuple):
    """A legal play: its ``kind``, the ``rank`` of its body's highest rank, and its ``size`` in cards.

    ``chain`` is the number of links in a chain (5 for 34567, 2 for 333444), else 1.
    """

    kind: str
    rank: int
    size: int
    chain: int = 1


def parse(cards: list[str] | tuple[str, ...]) -> list[int]:
    """Return the rank-count array of ``cards``; raise ValueError on an unknown card."""
    counts = [0] * N_RANKS
    for card in cards:
        try:
            counts[RANK_OF[card]] += 1
        except KeyError:
            raise ValueError(f"{card!r} is not a card.") from None
    return counts


_SORT_KEY_OF = SORT_KEY.__getitem__  # bound once: four sorts deal every hand


def sort_cards(cards) -> list[str]:
    """Return ``cards`` sorted high to low (大王 first, 3 last)."""
    return sorted(cards, key=_SORT_KEY_OF, reverse=True)


def rank_name(rank: int) -> str:
    return RANK_NAMES[rank]


def _chain_starts(counts: tuple[int, ...], need: int, length: int):
    """Yield every start of ``length`` consecutive ranks 3..A each holding at least ``need`` cards."""
    run = 0
    for r in range(RANK_A + 1):
        run = run + 1 if counts[r] >= need else 0
        if run >= length:
            yield r - length + 1


def _jokers_together(kickers: list[int] | tuple[int, ...]) -> bool:
    return kickers[RANK_XJ] > 0 and kickers[RANK_DJ] > 0


@lru_cache(maxsize=65536)
def _readings(counts: tuple[int, ...]) -> tuple[Combo, ...]:
    n = sum(counts)
    if n == 0:
        return ()
    if n == 2 and counts[RANK_XJ] and counts[RANK_DJ]:
        return (Combo("rocket", RANK_DJ, 2),)
    present = [r for r in range(N_RANKS) if counts[r]]
    if n == 4 and len(present) == 1:
        return (Combo("bomb", present[0], 4),)
    out: list[Combo] = []
    top = present[-1]
    shape = sorted((counts[r] for r in present), reverse=True)
    if n == 1:
        out.append(Combo("single", top, 1))
    elif n == 2 and shape == [2]:
        out.append(Combo("pair", top, 2))
    elif n == 3 and shape == [3]:
        out.append(Combo("trio", top, 3))
    elif n == 4 and shape == [3, 1]:
        out.append(Combo("trio_single", next(r for r in present if counts[r] == 3), 4))
    elif n == 5 and shape == [3, 2]:
        out.append(Combo("trio_pair", next(r for r in present if counts[r] == 3), 5))
    consecutive = top - present[0] + 1 == len(present) and top <= RANK_A
    if consecutive and len(set(shape)) == 1:
        width = shape[0]
        links = len(present)
        if width == 1 and links >= 5:
            out.append(Combo("straight", top, n, links))
        elif width == 2 and links >= 3:
            out.append(Combo("pair_straight", top, n, links))
        elif width == 3 and links >= 2:
            out.append(Combo("plane", top, n, links))
    if n in (6, 8):
        for r in present:
            if counts[r] != 4:
                continue
            rest = list(counts)
            rest[r] = 0
            if n == 6 and not _jokers_together(rest):
                out.append(Combo("four_two_singles", r, 6))
            elif n == 8 and all(c % 2 == 0 for c in rest):
                out.append(Combo("four_two_pairs", r, 8))
    for wing, per in ((1, 4), (2, 5)):
        links = n // per
        if n % per or links < 2:
            continue
        for start in _chain_starts(counts, 3, links):
            rest = list(counts)
            for r in range(start, start + links):
                rest[r] -= 3
            if wing == 1 and not _jokers_together(rest):
                out.append(Combo("plane_singles", start + links - 1, n, links))
            elif wing == 2 and all(c % 2 == 0 for c in rest):
                out.append(Combo("plane_pairs", start + links - 1, n, links))
    out.sort(key=lambda c: (_KIND_PRIORITY[c.kind], -c.rank))
    return tuple(out)


# A play's rank counts as one number: the count of rank r is its base-5 digit r (at most 4 < 5),
# so the code of a set of cards is the sum of its cards' codes.
CODE_OF: dict[str, int] = {card: 5**rank for card, rank in RANK_OF.items()}
_BY_CODE: dict[int, tuple[Combo, ...]] = {}


def readings_of_code(code: int) -> tuple[Combo, ...]:
    """``readings`` of the play whose rank counts are ``code`` (see ``CODE_OF``)."""
    found = _BY_CODE.get(code)
    if found is None:
        counts = []
        rest = code
        for _r in range(N_RANKS):
            rest, digit = divmod(rest, 5)
            counts.append(digit)
        found = () if rest else _readings(tuple(counts))
        if len(_BY_CODE) >= 65536:
            _BY_CODE.clear()
        _BY_CODE[code] = found
    return found


def readings(cards) -> tuple[Combo, ...]:
    """Return every way ``cards`` reads as a legal play, preferred first (empty: not a play)."""
    return _readings(tuple(parse(cards)))


def classify(cards) -> Combo | None:
    """Return the preferred combination ``cards`` form, or None if they are no legal play."""
    found = readings(cards)
    return found[0] if found else None


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


def best_reading(cards, previous: Combo | None) -> Combo | None:
    """Return the reading of ``cards`` to play: the preferred one when leading, else one that beats."""
    return best_reading_of(tuple(parse(cards)), previous)


def best_reading_of(counts: tuple[int, ...], previous: Combo | None) -> Combo | None:
    """``best_reading`` for a rank-count tuple."""
    found = _readings(counts)
    if previous is None:
        return found[0] if found else None
    for combo in found:
        if beats(combo, previous):
            return combo
    return None


# -- enumeration (games.doudizhu.moves generates every play; its names are re-exported here) --------

_MOVED = ("plays_from",)


def __getattr__(name: str):
    if name in _MOVED:
        from games.doudizhu import moves

        return getattr(moves, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def cards_for(hand: list[str], play: tuple[int, ...]) -> list[str]:
    """Pick concrete cards of ``hand`` for a rank-count ``play`` (lowest suits first), sorted high to low."""
    return CardPicker(hand).pick(play)


class CardPicker:
    """Turn rank-count plays into cards of one hand; built once per hand for many plays."""

    __slots__ = ("by_rank",)

    def __init__(self, hand: list[str], *, presorted: bool = False) -> None:
        by_rank: list[list[str]] = [[] for _ in range(N_RANKS)]
        for card in hand if presorted else sort_cards(hand):
            by_rank[RANK_OF[card]].append(card)
        self.by_rank = by_rank

    def pick(self, play: tuple[int, ...]) -> list[str]:
        chosen: list[str] = []
        by_rank = self.by_rank
        for r, k in play_parts(play):
            cards = by_rank[r]
            if len(cards) < k:
                raise ValueError("the hand does not hold that play")
            chosen.extend(cards[len(cards) - k :])
        return chosen


@lru_cache(maxsize=65536)
def play_parts(play: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The (rank, count) pairs of a play, high ranks first."""
    return tuple((r, play[r]) for r in range(N_RANKS - 1, -1, -1) if play[r])
