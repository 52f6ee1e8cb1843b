"""What the platform shows of 二八杠 beyond its rules: its demo rooms and its finished hands.

``ErbagangPresentation`` is the game's :class:`games.presentation.Presentation`.
Every hand is opened at the end, so the record shows every seat's tiles.
"""

from __future__ import annotations

from games.base import State, gettext_noop
from games.presentation import Deal, Fact, Record, SeatCards

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("二八杠", "Two-Eight Bar", "天王", "鳖十", "通杀", "通赔")

# The demo rooms: 4 seats (a full table, so 通杀通赔 can happen); entering needs 200 × 底注,
# the largest bid for the bank (200×, 001:287), so any seated player may bid any multiple.
DEMO_TIERS = tuple(
    {
        "code": code,
        "name": name,
        "name_en": name_en,
        "base_stake": base,
        "minimum_rule": "base_multiple",
        "minimum_multiplier": 200,
        "seats": 4,
        "options": {},
    }
    for code, name, name_en, base in (
        ("novice", "初级场", "Novice room", 1),
        ("middle", "中级场", "Intermediate room", 10),
        ("senior", "高级场", "Senior room", 50),
    )
)

SUMMARY_KEYS = ("phase", "grabs", "banker", "banker_multiple", "pledge", "bets", "die", "first", "hands")
_SWEEPS = {
    "all_lose": gettext_noop("The banker beat everyone"),
    "all_win": gettext_noop("The banker lost to everyone"),
}


class ErbagangPresentation:
    """二八杠's finished hands as the record, verify and replay pages show them."""

    pieces = "tiles"

    def __init__(self, engine) -> None:
        self.engine = engine

    def deals(self, state: State) -> list[Deal]:
        """The one deal: two tiles each, as the die ordered them (none before the die was rolled)."""
        hands = state.get("hands") or state.get("_hands")
        return [Deal(hands=[list(h) for h in hands])] if hands else []

    def facts(self, details: dict) -> list[Fact]:
        found = []
        if isinstance(details.get("banker"), int):
            found.append(Fact("banker", gettext_noop("Banker"), details["banker"], seat=True))
        if isinstance(details.get("banker_multiple"), int):
            found.append(
                Fact("banker_multiple", gettext_noop("Bank bid"), details["banker_multiple"], ("×{value}",))
            )
        if isinstance(details.get("die"), int):
            found.append(Fact("die", gettext_noop("Die"), details["die"]))
        if details.get("sweep") in _SWEEPS:
            found.append(Fact("sweep", gettext_noop("Sweep"), details["sweep"], (_SWEEPS[details["sweep"]],)))
        return found

    def record(self, state: State, seat: int | None) -> Record:
        """Every seat's tiles once opened (all are opened at the end), and who was the banker."""
        hands = state.get("hands") or [None] * len(state["players"])
        banker = state.get("banker")
        return Record(
            columns=[gettext_noop("Tiles")],
            seats=[
                SeatCards(cells=[hand], role=gettext_noop("Banker") if i == banker else "")
                for i, hand in enumerate(hands)
            ],
        )

    def summary(self, state: State) -> dict:
        view = self.engine.view(state, None)
        return {key: view[key] for key in SUMMARY_KEYS}
