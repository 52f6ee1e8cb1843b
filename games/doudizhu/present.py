"""What the platform shows of 斗地主 beyond its rules: the variants' names, demo rooms, finished hands.

``DoudizhuPresentation`` is the game's :class:`games.presentation.Presentation`:
the deals a hand's seed made (a hand thrown in after everybody passed is dealt
again, docs/rules/doudizhu.md "All pass"), the facts and cards of the player's
record (战绩), and a replay step's public summary.
"""

from __future__ import annotations

from games.base import SeededRng, State, gettext_noop
from games.doudizhu.engine import _deal
from games.presentation import CardGroup, Deal, Fact, Record, SeatCards

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = (
    "斗地主",
    "Fight the Landlord",
    "地主",
    "landlord",
    "农民",
    "farmer",
    "底牌",
    "叫分",
    "春天",
    "yifa",
    "jiabei",
)

# How the lobby names each variant of a room tier (docs/rules/doudizhu.md).
VARIANT_LABELS = {
    "classic": gettext_noop("Classic bidding"),
    "yifa": gettext_noop("Rob the landlord, farmers double"),
    "jiabei": gettext_noop("Bid, rob and double"),
}

# The demo rooms: the minimum to enter follows seed 002, 房间系数 N × 96 (the "factor" rule).
DEMO_TIERS = (
    {
        "code": "novice",
        "name": "初级场",
        "name_en": "Novice room",
        "base_stake": 1,
        "room_factor": 1,
        "options": {"variant": "classic"},
    },
    {
        "code": "middle",
        "name": "中级场",
        "name_en": "Intermediate room",
        "base_stake": 2,
        "room_factor": 5,
        "options": {"variant": "yifa"},
    },
    {
        "code": "senior",
        "name": "高级场",
        "name_en": "Senior room",
        "base_stake": 5,
        "room_factor": 10,
        "options": {"variant": "jiabei"},
    },
    {
        "code": "master",
        "name": "大师场",
        "name_en": "Master room",
        "base_stake": 10,
        "room_factor": 200,
        "options": {"variant": "yifa"},
    },
)

BOTTOM = gettext_noop("Bottom cards")
LANDLORD = gettext_noop("Landlord")
# A step of the staff replay shows these keys of the spectator's view.
SUMMARY_KEYS = ("phase", "turn", "landlord", "bid", "multiple", "bottom", "last_play")
_WINNERS = {
    "landlord": gettext_noop("Landlord"),
    "farmers": gettext_noop("Farmers"),
    "void": gettext_noop("Nobody (void hand)"),
}
_SPRINGS = {"spring": gettext_noop("Spring"), "anti_spring": gettext_noop("Anti-spring")}


class DoudizhuPresentation:
    """斗地主's finished hands as the record, verify and replay pages show them."""

    def __init__(self, engine) -> None:
        self.engine = engine

    def deals(self, state: State) -> list[Deal]:
        """Deal again from the hand's seed, then from each redeal's child stream, as the engine did."""
        seed, label = bytes.fromhex(state["_seed"]), state["_label"]
        found = []
        for number in range(state["redeals"] + 1):
            rng = SeededRng(seed, label)
            if number:
                rng = rng.child(f"redeal-{number}")
            dealt = {"options": state["options"]}
            _deal(dealt, rng, state["first_bidder"])  # the engine's own deal, into a scratch state
            last = number == state["redeals"]
            found.append(
                Deal(
                    hands=[list(hand) for hand in dealt["hands"]],
                    shared=[CardGroup(BOTTOM, list(dealt["bottom"]))],
                    note="" if last else gettext_noop("Nobody bid, so the cards were dealt again."),
                )
            )
        return found

    def facts(self, details: dict) -> list[Fact]:
        found = []
        if details.get("multiple"):
            found.append(Fact("multiple", gettext_noop("Multiple"), details["multiple"], ("×{value}",)))
        if details.get("bid"):
            found.append(Fact("bid", gettext_noop("Bid"), details["bid"]))
        if isinstance(details.get("landlord"), int):
            found.append(Fact("landlord", LANDLORD, details["landlord"], seat=True))
        winner = details.get("winner")
        if winner in _WINNERS:
            words = (_WINNERS[winner],)
            if details.get("spring") in _SPRINGS:
                words += (_SPRINGS[details["spring"]],)
            found.append(Fact("winner", gettext_noop("Winner"), winner, words))
        return found

    def record(self, state: State, seat: int | None) -> Record:
        """Every seat's 17 cards as dealt (the deal that was played) and what it held at the end."""
        deal = self.deals(state)[-1]
        landlord = state["landlord"]
        seats = [
            SeatCards(cells=[dealt, list(left)], role=LANDLORD if index == landlord else "")
            for index, (dealt, left) in enumerate(zip(deal.hands, state["hands"], strict=True))
        ]
        return Record(
            columns=[gettext_noop("Dealt"), gettext_noop("Left at the end")], seats=seats, shared=deal.shared
        )

    def summary(self, state: State) -> dict:
        view = self.engine.view(state, None)
        return {key: view[key] for key in SUMMARY_KEYS if key in view}
