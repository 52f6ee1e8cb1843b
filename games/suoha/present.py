"""What the platform shows of 梭哈 beyond its rules: its demo rooms and its finished hands.

``SuohaPresentation`` is the game's :class:`games.presentation.Presentation`.
The record shows everybody's face-up cards, and the 底牌 (hole card) of the
seats opened at the showdown and of the player's own seat.
"""

from __future__ import annotations

from games.base import State, gettext_noop
from games.presentation import Deal, Fact, Record, SeatCards

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("梭哈", "港式五张", "Five-card Stud", "换牌")

# The demo rooms. 002:66-67 and 002:74: enter with 100 × 底分, which is also the room
# cap on one seat's stake in a hand; the 港式五张 room has the same entry.
DEMO_TIERS = tuple(
    {
        "code": code,
        "name": name,
        "name_en": name_en,
        "base_stake": base,
        "minimum_rule": "base_multiple",
        "minimum_multiplier": 100,
        "seats": seats,
        "options": {"variant": variant},
    }
    for code, name, name_en, base, seats, variant in (
        ("novice", "初级场", "Novice room", 1, 4, "yifa"),
        ("middle", "中级场", "Intermediate room", 5, 4, "yifa"),
        ("hk", "港式五张场", "Hong Kong five-card room", 5, 5, "hk"),
    )
)

SUMMARY_KEYS = ("phase", "round", "up", "status", "bets", "pot", "turn", "suo")
_ENDINGS = {
    "fold": gettext_noop("Everyone else folded"),
    "showdown": gettext_noop("Showdown"),
}


class SuohaPresentation:
    """梭哈's finished hands as the record, verify and replay pages show them."""

    def __init__(self, engine) -> None:
        self.engine = engine

    def deals(self, state: State) -> list[Deal]:
        """The one deal: each seat's five cards in the order the seed deals them (a folded seat's last ones unplayed)."""
        return [Deal(hands=[list(cards) for cards in state["_cards"]])]

    def facts(self, details: dict) -> list[Fact]:
        found = []
        if details.get("ended_by") in _ENDINGS:
            ending = details["ended_by"]
            found.append(Fact("ended_by", gettext_noop("How it ended"), ending, (_ENDINGS[ending],)))
        if isinstance(details.get("pot"), int):
            found.append(Fact("pot", gettext_noop("Pot"), details["pot"]))
        return found

    def record(self, state: State, seat: int | None) -> Record:
        """Each seat's 底牌 if this player may see it, and its face-up cards."""
        down = self.engine.visible_down(state, seat)
        return Record(
            columns=[gettext_noop("Hole card"), gettext_noop("Face-up cards")],
            seats=[
                SeatCards(cells=[[card] if card else None, list(up)])
                for card, up in zip(down, state["up"], strict=True)
            ],
        )

    def summary(self, state: State) -> dict:
        view = self.engine.view(state, None)
        return {key: view[key] for key in SUMMARY_KEYS}
