"""What the platform shows of a finished 血战 or 推倒胡 hand: demo rooms, the record, the facts.

``MahjongPresentation`` is the :class:`games.presentation.Presentation` both variants
share. Every hand is shown to everyone once the hand is over (推倒胡 "push down":
the winner lays the hand down; 血战 shows the hands at the end), so the record is
the same for every player.
"""

from __future__ import annotations

from games.base import State, gettext_noop
from games.presentation import CardGroup, Deal, Fact, Record, SeatCards

TERMS = {
    "xuezhan": (
        "血战到底",
        "血战",
        "血戰",
        "换三张",
        "定缺",
        "查花猪",
        "查大叫",
        "呼叫转移",
        "Bloody battle",
    ),
    "tuidaohu": ("推倒胡", "推到胡", "鬼牌", "Push down"),
}


def _tiers(rows, options) -> tuple[dict, ...]:
    return tuple(
        {
            "code": code,
            "name": name,
            "name_en": name_en,
            "base_stake": base,
            "minimum_rule": "base_multiple",
            "minimum_multiplier": 200,
            "options": dict(options.get(code, {})),
        }
        for code, name, name_en, base in rows
    )


_ROOMS = (
    ("novice", "初级场", "Novice room", 1),
    ("middle", "中级场", "Intermediate room", 5),
    ("senior", "高级场", "Senior room", 20),
)
DEMO_TIERS = {
    # The senior 血战 room plays 003's rules (its fan table, 3 番 cap and options), the others 001's.
    "xuezhan": _tiers(
        _ROOMS,
        {
            "senior": {
                "fan_table": "003",
                "pass_blocks_win": True,
                "refund_kongs_not_ready": True,
                "kong_feeder_pays": True,
                "pair_cap_units": 24,
            }
        },
    ),
    "tuidaohu": _tiers(_ROOMS, {}),
}
SUMMARY_KEYS = ("phase", "turn", "wall_count", "melds", "discards", "won", "deltas", "wild", "claim")
_ENDINGS = {"won": gettext_noop("Won"), "drawn": gettext_noop("Wall exhausted")}


class MahjongPresentation:
    """Finished mahjong hands as the record, verify and replay pages show them."""

    pieces = "tiles"

    def __init__(self, engine) -> None:
        self.engine = engine

    def deals(self, state: State) -> list[Deal]:
        """The one deal: thirteen tiles each (and 推倒胡's flipped tile, dealt to nobody)."""
        shared = []
        if state["indicator"] is not None:
            shared.append(CardGroup(gettext_noop("Flipped tile"), [state["indicator"]]))
        return [Deal(hands=[list(h) for h in state["_dealt"]], shared=shared)]

    def facts(self, details: dict) -> list[Fact]:
        found = []
        ending = details.get("ended_by")
        if ending in _ENDINGS:
            found.append(Fact("ended_by", gettext_noop("How it ended"), ending, (_ENDINGS[ending],)))
        if details.get("wild"):
            found.append(Fact("wild", gettext_noop("Wild tile"), details["wild"]))
        n = 0
        for payment in details.get("payments", []):
            if payment.get("kind") == "win":
                n += 1
                found.append(Fact(f"winner_{n}", gettext_noop("Winner"), payment["seat"], seat=True))
                found.append(Fact(f"fan_{n}", gettext_noop("Fan"), payment["fan"]))
        return found

    def record(self, state: State, seat: int | None) -> Record:
        """Every seat's tiles as dealt and at the end: the end of a hand shows them all."""
        end = state["result"]["hands"] if state.get("result") else [None] * len(state["_dealt"])
        return Record(
            columns=[gettext_noop("Dealt"), gettext_noop("At the end")],
            seats=[SeatCards(cells=[list(d), e]) for d, e in zip(state["_dealt"], end, strict=True)],
        )

    def summary(self, state: State) -> dict:
        view = self.engine.view(state, None)
        return {key: view[key] for key in SUMMARY_KEYS}
