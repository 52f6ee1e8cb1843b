"""What the platform would show of 填大坑 beyond its rules: its demo rooms and its finished hands.

``TiandakengPresentation`` is the game's :class:`games.presentation.Presentation`.
The record shows everybody's face-up cards, and the face-down cards of the
hands opened at the end and of the player's own seat.
"""

from __future__ import annotations

from games.base import State, gettext_noop
from games.presentation import CardGroup, Deal, Fact, Record, SeatCards

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("填大坑", "Fill the Big Pit", "烂锅", "喜钱", "满贯", "借牌")

# The demo rooms: 底注 1 / 5 / 20, enter with 100 底注 (000 names no minimum; the platform's rule).
DEMO_TIERS = tuple(
    {
        "code": code,
        "name": name,
        "name_en": name_en,
        "base_stake": base,
        "minimum_rule": "base_multiple",
        "minimum_multiplier": 100,
        "seats": 5,
        "options": {"variant": "jiuzhou"},
    }
    for code, name, name_en, base in (
        ("novice", "初级场", "Novice room", 1),
        ("middle", "中级场", "Intermediate room", 5),
        ("senior", "高级场", "Senior room", 20),
    )
)
SHARED = gettext_noop("Shared cards")
_ENDINGS = {
    "fold": gettext_noop("Everyone else folded"),
    "showdown": gettext_noop("Showdown"),
    "lanpot": gettext_noop("Tied: the pot goes to the next hand"),
    "alone": gettext_noop("The last player takes the carried pot"),
}


class TiandakengPresentation:
    """填大坑's finished hands as the record, verify and replay pages show them."""

    def __init__(self, engine) -> None:
        self.engine = engine

    def deals(self, state: State) -> list[Deal]:
        """The one deal: each seat's own cards (two down, then up); 借牌 shared cards apart."""
        shared = [entry["card"] for entry in state["shared"]]
        hands = [
            [*down, *(c for c in up if c not in shared)]
            for down, up in zip(state["_down"], state["up"], strict=True)
        ]
        return [Deal(hands=hands, shared=[CardGroup(SHARED, shared)] if shared else [])]

    def facts(self, details: dict) -> list[Fact]:
        found = []
        if details.get("ended_by") in _ENDINGS:
            ending = details["ended_by"]
            found.append(Fact("ended_by", gettext_noop("How it ended"), ending, (_ENDINGS[ending],)))
        if isinstance(details.get("pot"), int):
            found.append(Fact("pot", gettext_noop("Pot"), details["pot"]))
        return found

    def record(self, state: State, seat: int | None) -> Record:
        down = self.engine.visible_down(state, seat)
        return Record(
            columns=[gettext_noop("Face-down cards"), gettext_noop("Face-up cards")],
            seats=[SeatCards(cells=[d, list(u)]) for d, u in zip(down, state["up"], strict=True)],
        )

    def summary(self, state: State) -> dict:
        view = self.engine.view(state, None)
        return {key: view[key] for key in ("phase", "round", "up", "status", "bets", "pot", "turn", "level")}
