"""必下德州 (must-bet Texas hold'em): hand values and pot splitting.

Public API:

- :func:`best_hand` — the best five of 5 to 7 cards, as a :class:`HandValue`
  (greater is stronger) with ``.category`` and ``.cards``.
- :func:`hand_rank` — the same value as a bare ``int``, for hot loops.
- :func:`weight` and :func:`value_of_weight` — :func:`hand_rank` in two halves, for
  loops that value many completions of the same cards.
- :func:`split_pots` — the main pot and the side pots, smallest stack first.

Speed: a hand is reduced to two integers with one C-level ``sum(map(...))``:
per-rank counts packed in 3-bit fields plus per-suit counts in 4-bit fields.
Without a flush (about 97% of 7-card hands) the value is one dict lookup in a
table of every rank multiset of 5–7 cards; with a flush it is one lookup by the
13-bit rank mask of the flush suit. No 5-card combination is ever enumerated.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

RANKS = "23456789TJQKA"
SUITS = "shcd"

CATEGORIES = (
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

# A value is  category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5,
# where r1..r5 are the ranks (0 = deuce .. 12 = ace) of the five cards used,
# most significant first: grouped cards by group size, then by rank; a straight
# from its top card down (the wheel A-2-3-4-5 as 5-4-3-2-A, so it is lowest).
# Each card's weight packs three fields, so one sum gives all three: the
# count of each rank (3 bits per rank, bits 0-38), the count of each suit
# (4 bits per suit, from bit 40) and the card itself (one bit per card, from
# bit 64, 16 bits per suit) -- a duplicated card shows up as a carry there.
_SUIT_SHIFT = 40
_CARD_SHIFT = 64
_RANK_KEY_MASK = (1 << _SUIT_SHIFT) - 1
_WEIGHT: dict[str, int] = {}
for _r, _rc in enumerate(RANKS):
    for _s, _sc in enumerate(SUITS):
        _WEIGHT[_rc + _sc] = (
            (1 << (3 * _r)) + (1 << (_SUIT_SHIFT + 4 * _s)) + (1 << (_CARD_SHIFT + 16 * _s + _r))
        )


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = category
    for rank in ranks:
        value = value << 4 | rank
    return value


def _straight_top(mask: int) -> int:
    """Return the rank of the top card of the best straight in a rank mask, or -1."""
    for top in range(12, 3, -1):
        run = 0b11111 << (top - 4)
        if mask & run == run:
            return top
    if mask & 0b1000000001111 == 0b1000000001111:  # A-2-3-4-5
        return 3
    return -1


def _straight_ranks(top: int) -> list[int]:
    return [3, 2, 1, 0, 12] if top == 3 else [top - i for i in range(5)]


def _flush_value(mask: int) -> int:
    top = _straight_top(mask)
    if top >= 0:
        return _pack(STRAIGHT_FLUSH, _straight_ranks(top))
    ranks = [r for r in range(12, -1, -1) if mask >> r & 1][:5]
    return _pack(FLUSH, ranks)


def _plain_value(counts: Sequence[int]) -> int:
    """Value of the best five cards with these rank counts, ignoring flushes."""
    by_rank = [r for r in range(12, -1, -1) if counts[r]]
    quads = [r for r in by_rank if counts[r] == 4]
    trips = [r for r in by_rank if counts[r] == 3]
    pairs = [r for r in by_rank if counts[r] == 2]
    if quads:
        q = quads[0]
        return _pack(QUADS, [q] * 4 + [next(r for r in by_rank if r != q)])
    if trips and (len(trips) > 1 or pairs):
        t = trips[0]
        p = max([r for r in trips[1:]] + pairs)
        return _pack(FULL_HOUSE, [t] * 3 + [p] * 2)
    mask = 0
    for r in by_rank:
        mask |= 1 << r
    top = _straight_top(mask)
    if top >= 0:
        return _pack(STRAIGHT, _straight_ranks(top))
    if trips:
        t = trips[0]
        return _pack(TRIPS, [t] * 3 + [r for r in by_rank if r != t][:2])
    if len(pairs) >= 2:
        p1, p2 = pairs[:2]
        return _pack(TWO_PAIR, [p1, p1, p2, p2] + [r for r in by_rank if r not in (p1, p2)][:1])
    if pairs:
        p = pairs[0]
        return _pack(PAIR, [p, p] + [r for r in by_rank if r != p][:3])
    return _pack(HIGH_CARD, by_rank[:5])


class _PlainTable(dict):
    """Every rank multiset of 5–7 cards → its value; filled on the first lookup.

    Building takes about half a second, so it waits until a hand is first
    valued instead of slowing every import; afterwards a lookup is a plain
    dict hit (``__missing__`` is never consulted for a valid key again).
    The server values hands on several threads: the first thread builds the
    whole table aside and adds it at once, under a lock that every other
    thread's first lookup waits on, so no lookup ever sees it half filled.
    """

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()

    def __missing__(self, key: int) -> int:
        with self._lock:
            if not self:
                self.update(_plain_table())
        value = self.get(key)
        if value is None:
            raise KeyError(key)
        return value


def _plain_table() -> dict[int, int]:
    table: dict[int, int] = {}
    counts = [0] * 13

    def walk(rank: int, left: int, key: int) -> None:
        if rank == 13:
            if 5 <= sum(counts) <= 7:
                table[key] = _plain_value(counts)
            return
        for c in range(min(4, left) + 1):
            counts[rank] = c
            walk(rank + 1, left - c, key + (c << (3 * rank)))
        counts[rank] = 0

    walk(0, 7, 0)
    return table


_PLAIN = _PlainTable()
_FLUSH = [_flush_value(mask) if mask.bit_count() >= 5 else 0 for mask in range(8192)]


def weight(cards: Iterable[str]) -> int:
    """The packed weight of these cards: what :func:`hand_rank` sums.

    Weights of disjoint sets of cards add up to the weight of their union, so a
    loop over many completions of the same cards (an odds count) sums the fixed
    part once and values each completion with :func:`value_of_weight`.
    """
    try:
        return sum(map(_WEIGHT.__getitem__, cards))
    except KeyError as exc:
        raise ValueError(f"not a card: {exc.args[0]!r}") from None


def value_of_weight(total: int) -> int:
    """The value of the best five of the 5–7 different cards whose :func:`weight` is ``total``."""
    suits = (total >> _SUIT_SHIFT) & 0xFFFF
    if (suits + 0x3333) & 0x8888:  # some suit holds five or more cards
        for s in range(4):
            if (suits >> (4 * s)) & 0xF >= 5:
                return _FLUSH[(total >> (_CARD_SHIFT + 16 * s)) & 0x1FFF]
    return _PLAIN[total & _RANK_KEY_MASK]


def hand_rank(cards: Sequence[str]) -> int:
    """Return the value of the best five of 5–7 cards as an int (greater is stronger)."""
    total = weight(cards)
    n = len(cards)
    if not 5 <= n <= 7 or (total >> _CARD_SHIFT).bit_count() != n:
        raise ValueError("a hand needs 5 to 7 different cards")
    return value_of_weight(total)


class HandValue:
    """A hand's strength: compare with ``<``/``==``; ``.category`` and ``.cards`` describe it."""

    __slots__ = ("value", "_source", "_cards")

    def __init__(self, value: int, source: tuple[str, ...]) -> None:
        self.value = value
        self._source = source
        self._cards: list[str] | None = None

    @property
    def category(self) -> str:
        return CATEGORIES[self.value >> 20]

    @property
    def ranks(self) -> list[int]:
        """Return the ranks of the five cards used, most significant first."""
        return [(self.value >> shift) & 0xF for shift in (16, 12, 8, 4, 0)]

    @property
    def cards(self) -> list[str]:
        """Return the five cards used, most significant first."""
        if self._cards is None:
            self._cards = _cards_used(self.value, self._source)
        return list(self._cards)

    def __lt__(self, other: HandValue) -> bool:
        return self.value < other.value

    def __le__(self, other: HandValue) -> bool:
        return self.value <= other.value

    def __gt__(self, other: HandValue) -> bool:
        return self.value > other.value

    def __ge__(self, other: HandValue) -> bool:
        return self.value >= other.value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandValue) and self.value == other.value

    def __hash__(self) -> int:
        return hash(self.value)

    def __repr__(self) -> str:
        return f"HandValue({self.category}, {' '.join(self.cards)})"


def best_hand(cards: Iterable[str]) -> HandValue:
    """Return the best five-card hand out of 5 to 7 cards (A-2-3-4-5 is the lowest straight)."""
    if not isinstance(cards, tuple):
        cards = tuple(cards)
    return HandValue(hand_rank(cards), cards)


def _cards_used(value: int, source: tuple[str, ...]) -> list[str]:
    category = value >> 20
    ranks = [RANKS[(value >> shift) & 0xF] for shift in (16, 12, 8, 4, 0)]
    pool = list(source)
    if category in (FLUSH, STRAIGHT_FLUSH):
        suit_counts = {s: sum(1 for c in pool if c[1] == s) for s in SUITS}
        suit = max(suit_counts, key=suit_counts.__getitem__)
        pool = [c for c in pool if c[1] == suit]
    used = []
    for rank in ranks:
        card = next(c for c in pool if c[0] == rank)
        pool.remove(card)
        used.append(card)
    return used


@dataclass(frozen=True)
class Pot:
    """One pot: its coins and the seats that can win it (folded seats never can)."""

    amount: int
    eligible: tuple[int, ...]


def split_pots(contributions: Sequence[int], folded: Iterable[int] | Sequence[bool] = ()) -> list[Pot]:
    """Split the coins put in into the main pot and side pots, smallest live stake first.

    ``contributions[i]`` is what seat ``i`` put in; ``folded`` lists the seats
    that folded (seat numbers, or one bool per seat). Each live stake level
    closes a pot that every live seat with at least that stake may win; a
    folded seat's coins go into the pots up to its stake but it wins none.
    Coins above the highest live stake (only possible from folded seats) join
    the last pot. The amounts always sum to ``sum(contributions)``.
    """
    folded = list(folded)
    if folded and len(folded) == len(contributions) and all(isinstance(f, bool) for f in folded):
        out = {i for i, f in enumerate(folded) if f}
    else:
        out = set(folded)
    if any(c < 0 for c in contributions):
        raise ValueError("contributions cannot be negative")
    live = [i for i, c in enumerate(contributions) if i not in out and c > 0]
    levels = sorted({contributions[i] for i in live})
    pots: list[Pot] = []
    floor = 0
    for level in levels:
        amount = sum(max(0, min(c, level) - floor) for c in contributions)
        eligible = tuple(i for i in live if contributions[i] >= level)
        pots.append(Pot(amount, eligible))
        floor = level
    rest = sum(max(0, c - floor) for c in contributions)
    if rest:
        if pots:
            pots[-1] = Pot(pots[-1].amount + rest, pots[-1].eligible)
        else:
            pots.append(Pot(rest, ()))
    return pots
