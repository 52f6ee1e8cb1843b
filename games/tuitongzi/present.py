"""What the platform shows of 推筒子 beyond its rules: its demo rooms and its finished hands.

``TuitongziPresentation`` is the game's :class:`games.presentation.Presentation`.
Every hand is opened for the 底注 pool at the end (001:659), so the record
shows every seat's tiles.
"""

from __future__ import annotations

from games.base import State, gettext_noop
from games.presentation import Deal, Fact, Record, SeatCards

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("推筒子", "Push the Tubes", "加注池", "底注池")

# The demo rooms: 4 seats; entering needs 30 × 底注, enough for the 底注 and the largest
# raise (10 × 底注) with coins to spare for the next hands.
DEMO_TIERS = tuple(
    {
        "code": code,
        "name": name,
        "name_en": name_en,
        "base_stake": base,
        "minimum_rule": "base_multiple",
        "minimum_multiplier": 30,
        "seats": 4,
        "options": {},
    }
    for code, name, name_en, base in (
        ("novice", "初级场", "Novice room", 10),
        ("middle", "中级场", "Intermediate room", 50),
        ("senior", "高级场", "Senior room", 200),
    )
)

SUMMARY_KEYS = ("phase", "wheel", "start", "antes", "raises", "ante_pool", "raise_pool", "hands")


class TuitongziPresentation:
    """推筒子's finished hands as the record, verify and replay pages show them."""

    pieces = "tiles"

    def __init__(self, engine) -> None:
        self.engine = engine

    def deals(self, state: State) -> list[Deal]:
        """The one deal: two tiles each, from the wheel's seat."""
        return [Deal(hands=[list(h) for h in state["_hands"]])]

    def facts(self, details: dict) -> list[Fact]:
        found = []
        if isinstance(details.get("wheel"), int):
            found.append(Fact("wheel", gettext_noop("Wheel"), details["wheel"]))
        for pool in details.get("pools") or []:
            if pool.get("pool") == "ante":
                found.append(Fact("ante_pool", gettext_noop("Ante pool"), pool.get("amount")))
            elif pool.get("pool") == "raise":
                found.append(Fact("raise_pool", gettext_noop("Raise pool"), pool.get("amount")))
        return found

    def record(self, state: State, seat: int | None) -> Record:
        """Each seat's tiles as this player may see them at the end (every hand is opened)."""
        hands = self.engine.visible_hands(state, seat)
        return Record(
            columns=[gettext_noop("Tiles")],
            seats=[SeatCards(cells=[None if h is None or None in h else h]) for h in hands],
        )

    def summary(self, state: State) -> dict:
        view = self.engine.view(state, None)
        return {key: view[key] for key in SUMMARY_KEYS}
