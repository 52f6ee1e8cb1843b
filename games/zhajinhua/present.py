"""What the platform shows of 炸金花 beyond its rules: its demo rooms and its finished hands.

``ZhajinhuaPresentation`` is the game's :class:`games.presentation.Presentation`.
A hand is dealt once; the record shows a player only the hands the rules
reveal to them at the end (docs/rules/zhajinhua.md, "Who sees what").
"""

from __future__ import annotations

from games.base import State, gettext_noop
from games.presentation import Deal, Fact, Record, SeatCards

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("炸金花", "扎金花", "詐金花", "金花", "Golden Flower", "比牌", "豹子")

# The demo rooms (seed 002): the minimum to enter is the table cap (房间的上限, the
# "table_cap" rule), 100 × 底分; the engine's own cap on one player's total stake is
# the same 100 底分, so the two agree.
DEMO_TIERS = tuple(
    {
        "code": code,
        "name": name,
        "name_en": name_en,
        "base_stake": base,
        "minimum_rule": "table_cap",
        "table_cap": base * 100,
        "options": {"player_cap": 100},
    }
    for code, name, name_en, base in (
        ("novice", "初级场", "Novice room", 1),
        ("middle", "中级场", "Intermediate room", 5),
        ("senior", "高级场", "Senior room", 20),
    )
)

SUMMARY_KEYS = ("phase", "turn", "round", "stake", "pot", "looked", "status")
_ENDINGS = {
    "fold": gettext_noop("Everyone else folded"),
    "compare": gettext_noop("Decided by a comparison"),
    "showdown": gettext_noop("Showdown"),
}


class ZhajinhuaPresentation:
    """炸金花's finished hands as the record, verify and replay pages show them."""

    def __init__(self, engine) -> None:
        self.engine = engine

    def deals(self, state: State) -> list[Deal]:
        """The one deal: three cards each, as dealt (a hand's cards never change)."""
        return [Deal(hands=[list(hand) for hand in state["_hands"]])]

    def facts(self, details: dict) -> list[Fact]:
        found = []
        if details.get("ended_by") in _ENDINGS:
            ending = details["ended_by"]
            found.append(Fact("ended_by", gettext_noop("How it ended"), ending, (_ENDINGS[ending],)))
        if isinstance(details.get("pot"), int):
            found.append(Fact("pot", gettext_noop("Pot"), details["pot"]))
        return found

    def record(self, state: State, seat: int | None) -> Record:
        """Each seat's cards if this player may see them at the end (their own, those compared, shown)."""
        hands = self.engine.visible_hands(state, seat)
        return Record(columns=[gettext_noop("Cards")], seats=[SeatCards(cells=[hand]) for hand in hands])

    def summary(self, state: State) -> dict:
        view = self.engine.view(state, None)
        return {key: view[key] for key in SUMMARY_KEYS}
