"""百家乐 Baccarat rules: the shoe, one coup, what each bet pays, the roads.

Pure functions over card strings in the notation of DESIGN.md ("As", "Td").
Seeds: 001 (百家乐玩法规则介绍, the Super6 table with 大/小) and 003 (百家樂規則,
the 5% commission table); file:line references are in docs/rules/baccarat.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from games.base import SeededRng

RANKS = "23456789TJQKA"
SUITS = "shcd"
DECKS = 8
# 大/小 close from this coup of a shoe on (001: 每靴第30局后不接受大小之投注).
BIG_SMALL_CLOSES_AT_COUP = 30
# The cut card goes 14 to 16 cards before the end of the shoe (rng picks which).
CUT_CARD_FROM_END = (14, 16)
# 下注莊家贏:1賠1，但扣除5%傭金 (003:244): a banker win pays 1:1 less this percentage of the win.
BANKER_COMMISSION_PERCENT = 5

WINNERS = ("player", "banker", "tie")
VARIANTS = {
    "commission": ("banker", "player", "tie", "banker_pair", "player_pair"),
    "super6": (
        "banker",
        "player",
        "tie",
        "banker_pair",
        "player_pair",
        "big",
        "small",
        "super6",
    ),
}

_VALUES = {rank: min(i + 2, 10) % 10 for i, rank in enumerate(RANKS[:-1])} | {"A": 1}
# Every card's value by its name: one dict lookup on the dealing path (a million coups in the benchmark).
_CARD_VALUES = {rank + suit: value for rank, value in _VALUES.items() for suit in SUITS}


def card_value(card: str) -> int:
    """Return a card's point value: A=1, 2–9 their face, T/J/Q/K 0."""
    try:
        return _CARD_VALUES[card]
    except (KeyError, TypeError):
        raise ValueError(f"{card!r} is not a card (rank 2-9 T J Q K A, then suit s h c d)") from None


def hand_total(cards: Iterable[str]) -> int:
    """Return the baccarat total of ``cards``: the sum of values, mod 10."""
    return sum(card_value(card) for card in cards) % 10


@dataclass(frozen=True)
class Shoe:
    """牌靴: the shuffled cards and where the cut card sits.

    ``cut_position`` is the index of the first card behind the cut card: once
    a coup has dealt a card at or past it, that coup is the shoe's last.
    """

    cards: tuple[str, ...]
    cut_position: int

    def finished(self, position: int) -> bool:
        """Say whether no new coup may start once ``position`` cards are dealt."""
        return position >= self.cut_position

    def to_dict(self) -> dict:
        """Return a JSON-able copy (for the runtime's private state)."""
        return {"cards": list(self.cards), "cut_position": self.cut_position}

    @classmethod
    def from_dict(cls, data: dict) -> Shoe:
        """Rebuild a shoe saved with :meth:`to_dict`."""
        return cls(cards=tuple(data["cards"]), cut_position=int(data["cut_position"]))


def new_shoe(rng: SeededRng, decks: int = DECKS) -> Shoe:
    """Shuffle ``decks`` 52-card decks (no jokers) once and place the cut card."""
    if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
        raise ValueError(f"decks must be a positive whole number, not {decks!r}")
    cards = [rank + suit for _ in range(decks) for rank in RANKS for suit in SUITS]
    rng.shuffle(cards)
    low, high = CUT_CARD_FROM_END
    from_end = low + rng.randbelow(high - low + 1)
    return Shoe(cards=tuple(cards), cut_position=len(cards) - from_end)


def big_small_open(coup_number: int) -> bool:
    """Say whether 大/小 bets are taken on the ``coup_number``-th coup (from 1) of a shoe."""
    if isinstance(coup_number, bool) or not isinstance(coup_number, int) or coup_number < 1:
        raise ValueError(f"coup_number counts from 1, not {coup_number!r}")
    return coup_number < BIG_SMALL_CLOSES_AT_COUP


@dataclass(frozen=True)
class Coup:
    """One coup (局): the cards each side received, in the order dealt."""

    player: list[str]
    banker: list[str]
    # Both totals, computed once from the cards (checked) when the coup is made.
    player_total: int = field(init=False, repr=False, compare=False)
    banker_total: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for side in (self.player, self.banker):
            if not isinstance(side, list) or len(side) not in (2, 3):
                raise ValueError(f"each side of a coup holds 2 or 3 cards, not {side!r}")
        object.__setattr__(self, "player_total", hand_total(self.player))
        object.__setattr__(self, "banker_total", hand_total(self.banker))

    @property
    def winner(self) -> str:
        """Return "player", "banker" or "tie" (和): the total nearer 9 wins."""
        if self.player_total > self.banker_total:
            return "player"
        if self.banker_total > self.player_total:
            return "banker"
        return "tie"

    @property
    def player_pair(self) -> bool:
        """闲对: the player's first two cards share a rank."""
        return self.player[0][0] == self.player[1][0]

    @property
    def banker_pair(self) -> bool:
        """庄对: the banker's first two cards share a rank."""
        return self.banker[0][0] == self.banker[1][0]

    @property
    def cards_dealt(self) -> int:
        return len(self.player) + len(self.banker)

    def to_dict(self) -> dict:
        """Return a JSON-able summary (what a result screen or history shows)."""
        return {
            "player": list(self.player),
            "banker": list(self.banker),
            "player_total": self.player_total,
            "banker_total": self.banker_total,
            "winner": self.winner,
            "player_pair": self.player_pair,
            "banker_pair": self.banker_pair,
            "cards_dealt": self.cards_dealt,
        }


def banker_draws(banker_total: int, player_third: str | None) -> bool:
    """Say whether the banker takes a third card (补牌), naturals aside.

    ``player_third`` is the player's third card, or None when the player stood.
    """
    if player_third is None:
        return banker_total <= 5
    value = card_value(player_third)
    if banker_total <= 2:
        return True
    if banker_total == 3:
        return value != 8
    if banker_total == 4:
        return 2 <= value <= 7
    if banker_total == 5:
        return 4 <= value <= 7
    if banker_total == 6:
        return value in (6, 7)
    return False


def deal_coup(cards: Iterable[str]) -> Coup:
    """Deal one coup from the front of ``cards``: player, banker, player, banker, then thirds."""
    stream = iter(cards)
    values = _CARD_VALUES

    def draw() -> tuple[str, int]:
        card = next(stream, None)
        if card is None:
            raise ValueError("not enough cards left to finish the coup")
        try:
            return card, values[card]
        except (KeyError, TypeError):
            return card, card_value(card)  # raises the ValueError that names the bad card

    (p1, pv1), (b1, bv1), (p2, pv2), (b2, bv2) = draw(), draw(), draw(), draw()
    player, banker = [p1, p2], [b1, b2]
    player_total, banker_total = (pv1 + pv2) % 10, (bv1 + bv2) % 10
    if player_total >= 8 or banker_total >= 8:
        return Coup(player=player, banker=banker)  # 天生赢家: nobody draws
    player_third = None
    if player_total <= 5:
        player_third, _value = draw()
        player.append(player_third)
    if banker_draws(banker_total, player_third):
        banker.append(draw()[0])
    return Coup(player=player, banker=banker)


def payout(area: str, stake: int, coup: Coup, variant: str) -> int:
    """Return the net coins one bet wins (+), loses (−stake) or gets back (0).

    Fractions of a coin are rounded down (舍去小数); the rest stays with the house.
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown baccarat variant {variant!r} (expected one of {sorted(VARIANTS)})")
    if area not in VARIANTS[variant]:
        raise ValueError(f"{area!r} is not a betting area of the {variant} variant")
    if isinstance(stake, bool) or not isinstance(stake, int) or stake <= 0:
        raise ValueError(f"a stake must be a positive whole number of coins, not {stake!r}")
    if not isinstance(coup, Coup):
        raise ValueError(f"expected a dealt Coup, not {coup!r}")
    winner = coup.winner
    if area in ("banker", "player"):
        if winner == "tie":
            return 0  # a tie returns banker and player bets
        if winner != area:
            return -stake
        if area == "banker" and variant == "commission":
            # 1:1 less the 5% commission (003:244), the commission rounded down as every fee is.
            return stake - stake * BANKER_COMMISSION_PERCENT // 100
        if area == "banker" and coup.banker_total == 6:
            return stake // 2  # super6: a banker win with 6 pays 1:0.5
        return stake
    if area == "tie":
        return 8 * stake if winner == "tie" else -stake
    if area in ("banker_pair", "player_pair"):
        hit = coup.banker_pair if area == "banker_pair" else coup.player_pair
        return 11 * stake if hit else -stake
    if area == "big":
        return stake // 2 if coup.cards_dealt >= 5 else -stake
    if area == "small":
        return stake * 3 // 2 if coup.cards_dealt == 4 else -stake
    # super6: the banker wins with 6 points
    return 12 * stake if winner == "banker" and coup.banker_total == 6 else -stake


def _winner_of(item: Coup | str) -> str:
    winner = item.winner if isinstance(item, Coup) else item
    if winner not in WINNERS:
        raise ValueError(f"{item!r} is not a coup result (expected one of {list(WINNERS)})")
    return winner


def bead_plate(winners: Iterable[Coup | str], rows: int = 6) -> list[list[str]]:
    """珠盘路 bead plate: every coup's result in order, filling columns of ``rows`` top-down."""
    results = [_winner_of(item) for item in winners]
    return [results[i : i + rows] for i in range(0, len(results), rows)]


def big_road(coups: Iterable[Coup | str]) -> list[list[dict]]:
    """大路 big road: a column per run of banker or player wins.

    Each cell is ``{"winner", "ties", "player_pair", "banker_pair"}``. A tie adds
    to ``ties`` of the latest cell instead of taking a cell. Ties before the
    shoe's first banker/player result sit on a cell whose winner is None until
    that result arrives and takes the cell over. Columns are not cut at six
    rows: bending a long streak (长龙's "dragon tail") is the display's job.
    """
    columns: list[list[dict]] = []
    for item in coups:
        winner = _winner_of(item)
        pairs = {
            "player_pair": isinstance(item, Coup) and item.player_pair,
            "banker_pair": isinstance(item, Coup) and item.banker_pair,
        }
        if winner == "tie":
            if not columns:
                columns.append([{"winner": None, "ties": 0, "player_pair": False, "banker_pair": False}])
            cell = columns[-1][-1]
            cell["ties"] += 1
            continue
        if columns and columns[-1][-1]["winner"] is None:
            columns[-1][-1].update({"winner": winner, **pairs})
        elif columns and columns[-1][-1]["winner"] == winner:
            columns[-1].append({"winner": winner, "ties": 0, **pairs})
        else:
            columns.append([{"winner": winner, "ties": 0, **pairs}])
    return columns
