"""百人三公 as a banker-family engine: a banker hand and four area hands 东南西北, one coup at a time.

Implements :class:`games.base.BankerEngine`. The hands' rules are in
:mod:`games.sangong.rules`. A shoe here is ``coups_per_shoe`` coups, each
dealt from its own freshly shuffled 52-card deck (001:122: every coup uses the
whole pack), so no coup tells anything about the next; the shoe keeps only the
15 cards each coup deals. The shoe state is private (the runtime never sends
it); a ``result`` is private until its steps are revealed, and
:meth:`SangongEngine.revealed` gives what the first ``n`` steps show.
"""

from __future__ import annotations

from typing import Any

from games.base import IllegalAction, SeededRng, State, gettext_noop
from games.sangong import rules

AREAS = ("east", "south", "west", "north")  # 东南西北, the four areas players bet on
HANDS = ("banker", *AREAS)  # dealing and reveal order: 庄、东、南、西、北 (001:129)
CARDS_PER_COUP = 3 * len(HANDS)
DECK = [rank + suit for suit in "shcd" for rank in "A23456789TJQK"]
HISTORY_KEPT = 60  # coups of the shoe the roads show

DEFAULT_OPTIONS: dict[str, Any] = {
    "bet_seconds": 15,  # the betting countdown
    "reveal_ms": 600,  # one card turned over per reveal_ms
    "result_seconds": 6,  # the result stays up this long before the next round
    "chips": [10, 50, 100, 500, 1000],
    "min_bet": 10,
    "area_limits": {area: 20000 for area in AREAS},  # one player's most on each area a round
    "table_limit": 400000,  # all players' stakes on one round
    "coups_per_shoe": 30,  # the shoe's seed is revealed after this many coups
    # 上庄 (docs/rules/sangong.md): a player may bank with this many coins, for at most this
    # many rounds in a row; 0 coins: only the house banks.
    "bank_minimum": 0,
    "bank_rounds": 10,
}


def _refusal(code: str, template: str, **params: object) -> IllegalAction:
    """Build an IllegalAction that also carries the protocol's error ``code``."""
    error = IllegalAction(template, **params)
    error.code = code  # type: ignore[attr-defined]
    return error


def hand_facts(cards: list[str]) -> dict:
    """What a result screen shows of one hand: its category and the multiple it pays."""
    cat = rules.category(cards)
    return {"category": cat, "points": rules.points(cards), "multiple": rules.multiplier(cat)}


def area_net(banker: list[str], hand: list[str], stake: int) -> int:
    """One bet's net (001:131): the area's hand wins stake × its multiple, or loses stake × the banker's."""
    if rules.compare(hand, banker) > 0:
        return stake * rules.multiplier(rules.category(hand))
    return -stake * rules.multiplier(rules.category(banker))


class SangongEngine:
    """百人三公 (see docs/rules/sangong.md)."""

    family = "banker"

    def new_shoe(self, config: dict, rng: SeededRng) -> State:
        """Shuffle a fresh deck for each of the shoe's coups and keep the 15 cards each deals."""
        coups = int((config or {}).get("coups_per_shoe") or DEFAULT_OPTIONS["coups_per_shoe"])
        if coups <= 0:
            raise ValueError("coups_per_shoe must be positive")
        cards: list[str] = []
        for coup in range(coups):
            deck = list(DECK)
            rng.child(f"coup-{coup + 1}").shuffle(deck)
            cards += deck[:CARDS_PER_COUP]
        return {"cards": cards, "position": 0, "coups": 0, "history": []}

    def shoe_finished(self, shoe: State) -> bool:
        return shoe["position"] + CARDS_PER_COUP > len(shoe["cards"])

    def areas(self, config: dict, shoe: State) -> list[dict]:
        odds = f"1:1–1:{rules.TOP_MULTIPLIER}"
        return [{"area": area, "odds": odds, "open": True} for area in AREAS]

    def deal(self, config: dict, shoe: State) -> tuple[dict, State]:
        """Deal one card to each hand in turn (庄 东 南 西 北, three rounds); reveal in the same hand order."""
        if self.shoe_finished(shoe):
            raise ValueError("this shoe deals no more coups")
        position = shoe["position"]
        cards = shoe["cards"][position : position + CARDS_PER_COUP]
        hands = {hand: cards[i :: len(HANDS)] for i, hand in enumerate(HANDS)}
        number = shoe["coups"] + 1
        wins = {area: rules.compare(hands[area], hands["banker"]) > 0 for area in AREAS}
        result = {
            "coup": number,
            **hands,
            "hands": {hand: hand_facts(hands[hand]) for hand in HANDS},
            "wins": wins,  # each area's hand beat the banker's
            "steps": [{"side": hand, "card": card} for hand in HANDS for card in hands[hand]],
        }
        history = [*shoe["history"], {"coup": number, "wins": wins}][-HISTORY_KEPT:]
        new_shoe = {**shoe, "position": position + CARDS_PER_COUP, "coups": number, "history": history}
        return result, new_shoe

    def payout(self, config: dict, result: dict, area: str, stake: int) -> int:
        """Return one bet's net, worked out again from the dealt cards."""
        if area not in AREAS:
            raise ValueError(f"{area!r} is not a betting area")
        if isinstance(stake, bool) or not isinstance(stake, int) or stake <= 0:
            raise ValueError(f"a stake must be a positive whole number of coins, not {stake!r}")
        return area_net(list(result["banker"]), list(result[area]), stake)

    def bet_exposure(self, config: dict, area: str, stake: int) -> tuple[int, int]:
        """A bet loses or wins at most stake × 5 (爆玖, either side's)."""
        return stake * rules.TOP_MULTIPLIER, stake * rules.TOP_MULTIPLIER

    def roads(self, shoe: State) -> dict:
        """Return the shoe's recent coups as each area's wins and losses against the banker (路单)."""
        return {"areas": {area: [entry["wins"][area] for entry in shoe["history"]] for area in AREAS}}

    def validate_bet(self, config: dict, shoe: State, area: str, amount: object) -> None:
        """Refuse a bet the rules do not take; the runtime checks limits, the bank and wallets."""
        if not isinstance(area, str) or area not in AREAS:
            raise _refusal(
                "bad_area", gettext_noop("There is no betting area {area} at this table."), area=area
            )
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise _refusal("malformed", gettext_noop("A bet must be a positive whole number of coins."))
        if self.shoe_finished(shoe):
            raise _refusal("betting_closed", gettext_noop("This shoe is finished; wait for the next one."))

    def revealed(self, result: dict, count: int) -> dict:
        """Return what the first ``count`` steps show: each hand's cards, and the facts of each complete hand."""
        cards: dict[str, list[str]] = {hand: [] for hand in HANDS}
        for step in result["steps"][: max(0, count)]:
            cards[step["side"]].append(step["card"])
        totals = {hand: hand_facts(shown) for hand, shown in cards.items() if len(shown) == 3}
        return {"cards": cards, "totals": totals}
