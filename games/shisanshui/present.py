"""What the platform shows of 十三水 beyond its rules: its demo rooms and its finished hands.

``ShisanshuiPresentation`` is the game's :class:`games.presentation.Presentation`.
Every seat's piles are shown to everyone at 比牌 (001:465), so the record
shows every seat's 头墩, 中墩 and 尾墩 (a declared special hand's cards too).
"""

from __future__ import annotations

from games.base import State, gettext_noop
from games.presentation import Deal, Fact, Record, SeatCards
from games.shisanshui.rules import PILES

# The special hands' names as the pages show them (msgids; the Chinese catalogue gives the seed's names).
SPECIAL_NAMES = {
    "清龙": gettext_noop("Suited dragon"),
    "一条龙": gettext_noop("Dragon"),
    "十二皇族": gettext_noop("Twelve royals"),
    "三同花顺": gettext_noop("Three straight flushes"),
    "三分天下": gettext_noop("Three fours"),
    "全大": gettext_noop("All high"),
    "全小": gettext_noop("All low"),
    "凑一色": gettext_noop("One colour"),
    "五对三条": gettext_noop("Five pairs and a three"),
    "四套三条": gettext_noop("Four threes"),
    "六对半": gettext_noop("Six and a half pairs"),
    "三顺子": gettext_noop("Three straights"),
    "三同花": gettext_noop("Three flushes"),
}

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("十三水", "Thirteen Cards", "头墩", "中墩", "尾墩", "打枪", "全垒打")

# The demo rooms (001:461 准入额 and 底分): enter with 200 底分, which covers losing
# every pile with a bonus against three players (limited liability covers the rest).
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
        ("middle", "中级场", "Intermediate room", 5),
        ("senior", "高级场", "Senior room", 20),
    )
)

COLUMNS = [gettext_noop("Front pile"), gettext_noop("Middle pile"), gettext_noop("Back pile")]
SUMMARY_KEYS = ("phase", "confirmed", "arrangements")


class ShisanshuiPresentation:
    """十三水's finished hands as the record, verify and replay pages show them."""

    def __init__(self, engine) -> None:
        self.engine = engine

    def deals(self, state: State) -> list[Deal]:
        """The one deal: 13 cards each, seat i the deck's cards 13i to 13i + 12 (shown sorted)."""
        return [Deal(hands=[list(hand) for hand in state["_hands"]])]

    def facts(self, details: dict) -> list[Fact]:
        found = []
        if isinstance(details.get("base"), int):
            found.append(Fact("base", gettext_noop("Base"), details["base"]))
        if isinstance(details.get("home_run"), int):
            found.append(
                Fact("home_run", gettext_noop("Home run (all shot)"), details["home_run"], seat=True)
            )
        return found

    def record(self, state: State, seat: int | None) -> Record:
        """Each seat's three piles as confirmed (shown to all at 比牌), the special hand as its role."""
        arranged = state.get("arrangements") or [None] * len(state["_hands"])
        rows = []
        for i, piles in enumerate(arranged):
            if piles is None:
                hand = self.engine.visible_hands(state, seat)[i]
                rows.append(SeatCards(cells=[hand, None, None]))
                continue
            rows.append(
                SeatCards(
                    cells=[list(piles[p]) for p in PILES], role=SPECIAL_NAMES.get(piles.get("special"), "")
                )
            )
        return Record(columns=list(COLUMNS), seats=rows)

    def summary(self, state: State) -> dict:
        view = self.engine.view(state, None)
        return {key: view[key] for key in SUMMARY_KEYS}
