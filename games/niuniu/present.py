"""What the platform shows of 牛牛 and 通比牛牛 beyond their rules: demo rooms and finished hands.

``NiuniuPresentation`` is both games' :class:`games.presentation.Presentation`.
A hand is dealt once, five cards each, and every hand is shown (摊牌) before it
ends, so a record shows every seat's cards, split as they were shown.
"""

from __future__ import annotations

from games.base import State, gettext_noop
from games.presentation import Deal, Fact, Record, SeatCards

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("牛牛", "抢庄", "Bull", "Bulls")


def demo_tiers(minimum_multiplier: int, options: dict) -> tuple[dict, ...]:
    """Three demo rooms; the minimum to enter is ``minimum_multiplier`` × 底分."""
    return tuple(
        {
            "code": code,
            "name": name,
            "name_en": name_en,
            "base_stake": base,
            "minimum_rule": "base_multiple",
            "minimum_multiplier": minimum_multiplier,
            "seats": 6,
            "options": dict(options),
        }
        for code, name, name_en, base in (
            ("novice", "初级场", "Novice room", 1),
            ("middle", "中级场", "Intermediate room", 5),
            ("senior", "高级场", "Senior room", 20),
        )
    )


# 牛牛: the largest single claim is 底分 × 4 (bank bid) × 5 (bet) × 10 (小牛牛) = 200 底分;
# entering with 200 底分 lets a player cover one such loss (limited liability covers the rest).
DEMO_TIERS = demo_tiers(200, {"grab_multiples": [1, 2, 3, 4], "bet_multiples": [1, 2, 3, 4, 5]})

SUMMARY_KEYS = ("phase", "grabs", "banker", "banker_multiple", "bets", "shown", "categories", "multiples")


class NiuniuPresentation:
    """牛牛's finished hands as the record, verify and replay pages show them."""

    def __init__(self, engine) -> None:
        self.engine = engine

    def deals(self, state: State) -> list[Deal]:
        """The one deal: five cards each, in the order dealt."""
        return [Deal(hands=[list(hand) for hand in state["_hands"]])]

    def facts(self, details: dict) -> list[Fact]:
        found = []
        if isinstance(details.get("banker"), int):
            found.append(Fact("banker", gettext_noop("Banker"), details["banker"], seat=True))
            multiple = details.get("banker_multiple")
            if isinstance(multiple, int):
                found.append(Fact("banker_multiple", gettext_noop("Bank multiple"), multiple, ("×{value}",)))
        if isinstance(details.get("best"), int):
            found.append(Fact("best", gettext_noop("Best hand"), details["best"], seat=True))
        return found

    def record(self, state: State, seat: int | None) -> Record:
        """Every seat's cards as shown: the three that make the niu, then the two that score."""
        view = self.engine.view(state, seat)
        banker = view["banker"]
        return Record(
            columns=[gettext_noop("Three"), gettext_noop("Two")],
            seats=[
                SeatCards(
                    cells=list(split) if split else [None, None],
                    role=gettext_noop("Banker") if i == banker else "",
                )
                for i, split in enumerate(view["splits"])
            ],
        )

    def summary(self, state: State) -> dict:
        view = self.engine.view(state, None)
        return {key: view[key] for key in SUMMARY_KEYS}
