"""What the platform shows of 升级 beyond its rules: its demo rooms and its finished hands.

``ShengjiPresentation`` is the game's :class:`games.presentation.Presentation`. Every card
of a hand is played face up or shown at its end (the 底牌 too, 004:10), so a finished
hand's record shows every seat's cards as dealt and both the dealt and the buried bottom.
"""

from __future__ import annotations

from games.base import State, gettext_noop
from games.presentation import CardGroup, Deal, Fact, Record, SeatCards
from games.shengji.engine import HAND, SEATS

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("升级", "拖拉机", "Tractor", "报主", "反主", "扣底", "甩牌")

# The demo rooms: 底分 (base) coins per level gained, paid by each seat of the side that
# did not rise to its opponent; entering needs 40 底分 (six levels at most, twice over, and
# the penalties of failed throws).
DEMO_TIERS = tuple(
    {
        "code": code,
        "name": name,
        "name_en": name_en,
        "base_stake": base,
        "minimum_rule": "table_cap",
        "table_cap": base * 40,
    }
    for code, name, name_en, base in (
        ("novice", "初级场", "Novice room", 2),
        ("middle", "中级场", "Intermediate room", 10),
        ("senior", "高级场", "Senior room", 50),
    )
)

SUMMARY_KEYS = ("phase", "turn", "declarer", "level", "suit", "trick", "defender_points", "levels")
_SIDES = {
    "declarers": gettext_noop("The declarers rise"),
    "defenders": gettext_noop("The defenders take over"),
}


def dealt_hands(state: State) -> tuple[list[list[str]], list[str]]:
    """Each seat's 25 cards as the clock dealt them, and the 8 底牌, from the shuffled deck."""
    deck, start = state["_deck"], state["start"]
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    for i in range(SEATS * HAND):
        hands[(start + i % SEATS) % SEATS].append(deck[i])
    return hands, list(deck[SEATS * HAND :])


class ShengjiPresentation:
    """升级's finished hands as the record, verify and replay pages show them."""

    def __init__(self, engine) -> None:
        self.engine = engine

    def deals(self, state: State) -> list[Deal]:
        hands, bottom = dealt_hands(state)
        return [Deal(hands=hands, shared=[CardGroup(gettext_noop("Bottom cards"), bottom)])]

    def facts(self, details: dict) -> list[Fact]:
        found = []
        if isinstance(details.get("declarer"), int):
            found.append(Fact("declarer", gettext_noop("Declarer"), details["declarer"], seat=True))
        if isinstance(details.get("defender_points"), int):
            found.append(
                Fact("defender_points", gettext_noop("Defenders' points"), details["defender_points"])
            )
        if details.get("side") in _SIDES and isinstance(details.get("levels_gained"), int):
            words = (_SIDES[details["side"]], gettext_noop("Levels gained: {value}"))
            found.append(Fact("levels_gained", gettext_noop("Level change"), details["levels_gained"], words))
        return found

    def record(self, state: State, seat: int | None) -> Record:
        hands, bottom = dealt_hands(state)
        shared = [CardGroup(gettext_noop("Bottom cards"), bottom)]
        if state["phase"] == "finished":
            shared.append(CardGroup(gettext_noop("Buried cards"), list(state["_bottom"])))
        return Record(
            columns=[gettext_noop("Dealt")], seats=[SeatCards(cells=[h]) for h in hands], shared=shared
        )

    def summary(self, state: State) -> dict:
        view = self.engine.view(state, None)
        return {key: view[key] for key in SUMMARY_KEYS}
