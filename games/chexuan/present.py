"""What the platform shows of 扯旋 beyond its rules: its demo rooms and its finished hands.

``ChexuanPresentation`` is the game's :class:`games.presentation.Presentation`.
Four cards are dealt to each seat at once from the seed (the third and fourth are
turned up later, and never for a seat that folded); the record shows a player the
cards the rules showed them: every face-up card, their own, and at a showdown
every hand still in with its head and tail (docs/rules/chexuan.md, "Who sees what").
"""

from __future__ import annotations

from games.base import State, gettext_noop
from games.presentation import Deal, Fact, Record, SeatCards

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("扯旋", "Che Xuan", "簸簸", "底皮", "丁皇", "三花十", "三花六")

# The demo rooms: enter with 100 底皮, carry up to ten times that; the 簸簸 choices
# (20, 50, 100 or 200 底皮) then all fit in what a seat carries.
DEMO_TIERS = tuple(
    {
        "code": code,
        "name": name,
        "name_en": name_en,
        "base_stake": base,
        "minimum_rule": "base_multiple",
        "minimum_multiplier": 100,
        "seats": 4,
    }
    for code, name, name_en, base in (
        ("novice", "初级场", "Novice room", 1),
        ("middle", "中级场", "Intermediate room", 5),
        ("senior", "高级场", "Senior room", 20),
    )
)

SUMMARY_KEYS = ("phase", "round", "turn", "level", "bets", "status", "pot", "hands")
_ENDINGS = {
    "fold": gettext_noop("Everyone else folded"),
    "showdown": gettext_noop("Showdown"),
    "void": gettext_noop("Everyone checked: no result"),
}


class ChexuanPresentation:
    """扯旋's finished hands as the record, verify and replay pages show them."""

    def __init__(self, engine) -> None:
        self.engine = engine

    def deals(self, state: State) -> list[Deal]:
        """The one deal: four cards each, in the order the seed deals them."""
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
        """Each seat's cards this player saw, and the head and tail of every hand shown down."""
        view = self.engine.view(state, seat)
        rows = []
        for cards, split in zip(view["hands"], view["splits"], strict=True):
            seen = [card for card in cards if card is not None]
            head, tail = split if split is not None else (None, None)
            rows.append(SeatCards(cells=[seen or None, head, tail]))
        return Record(columns=[gettext_noop("Cards"), gettext_noop("Head"), gettext_noop("Tail")], seats=rows)

    def summary(self, state: State) -> dict:
        view = self.engine.view(state, None)
        return {key: view[key] for key in SUMMARY_KEYS}
