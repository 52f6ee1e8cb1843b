"""What the platform shows of 必下德州 beyond its rules: its demo rooms and its finished hands.

``TexasPresentation`` is the game's :class:`games.presentation.Presentation`.
The whole board is dealt with the hole cards; the record shows a player the
hands still in at the end and their own (folded hands stay hidden).
"""

from __future__ import annotations

from games.base import State, gettext_noop
from games.presentation import CardGroup, Deal, Fact, Record, SeatCards

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("必下德州", "德州", "Texas", "Hold'em", "盲注")

# The demo rooms (seed 001): the base (底分) is the small blind, the big blind twice it;
# the fixed stakes are 1, 2, 4 and 8 big blinds (the 高级场 has the seed's
# 200/400/800/1600); enter with 100 small blinds, so even the largest stake leaves
# coins for the next hand.
DEMO_TIERS = tuple(
    {
        "code": code,
        "name": name,
        "name_en": name_en,
        "base_stake": base,
        "minimum_rule": "base_multiple",
        "minimum_multiplier": 100,
        "seats": 6,
        "options": {"bet_sizes": [1, 2, 4, 8]},
    }
    for code, name, name_en, base in (
        ("novice", "初级场", "Novice room", 5),
        ("middle", "中级场", "Intermediate room", 25),
        ("senior", "高级场", "Senior room", 100),
    )
)

BOARD = gettext_noop("Board")
SUMMARY_KEYS = ("phase", "board", "stakes", "decided", "folded", "pot")


class TexasPresentation:
    """必下德州's finished hands as the record, verify and replay pages show them."""

    def __init__(self, engine) -> None:
        self.engine = engine

    def deals(self, state: State) -> list[Deal]:
        """The one deal: two hole cards each, as dealt, and the five board cards."""
        return [
            Deal(
                hands=[list(hand) for hand in state["_hands"]],
                shared=[CardGroup(BOARD, list(state["board"]))],
            )
        ]

    def facts(self, details: dict) -> list[Fact]:
        pots = details.get("pots")
        if not isinstance(pots, list):
            return []
        return [Fact("pot", gettext_noop("Pot"), sum(pot["amount"] for pot in pots))]

    def record(self, state: State, seat: int | None) -> Record:
        """Each seat's hole cards if they were shown (or are this player's own), and the board."""
        hands = self.engine.visible_hands(state, seat)
        return Record(
            columns=[gettext_noop("Cards")],
            seats=[SeatCards(cells=[hand]) for hand in hands],
            shared=[CardGroup(BOARD, list(state["board"]))],
        )

    def summary(self, state: State) -> dict:
        view = self.engine.view(state, None)
        return {key: view[key] for key in SUMMARY_KEYS}
