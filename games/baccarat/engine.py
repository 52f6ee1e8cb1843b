"""百家乐 Baccarat as a banker-family engine: the shoe, the betting areas, one coup at a time.

Implements :class:`games.base.BankerEngine`. The rules themselves (drawing
tables, payouts, roads) live in :mod:`games.baccarat.rules`; this module keeps
a shoe as a JSON-able dict and answers the round runtime's questions about it.

The shoe state is private (it holds the order of every card still to come):
the runtime stores it and never sends it to a browser. A ``result`` is private
too until its ``steps`` are revealed; :meth:`BaccaratEngine.revealed` gives
what the first ``n`` steps show.
"""

from __future__ import annotations

from itertools import islice
from typing import Any

from games.baccarat import roads as derived
from games.baccarat import rules
from games.base import IllegalAction, SeededRng, State, gettext_noop

DEFAULT_OPTIONS: dict[str, Any] = {
    "variant": "commission",  # "commission" (seed 003) or "super6" (seed 001)
    "bet_seconds": 15,  # the betting countdown
    "reveal_ms": 900,  # one card turned over per reveal_ms while dealing
    "result_seconds": 5,  # the result stays up this long before the next round
    "chips": [10, 50, 100, 500, 1000],  # chip values the table offers
    "min_bet": 10,  # 注点限红: the smallest bet on any area
    # 注点限红: one player's most on each area in one round (001:83).
    "area_limits": {
        "banker": 20000,
        "player": 20000,
        "tie": 2500,
        "banker_pair": 2000,
        "player_pair": 2000,
        "big": 10000,
        "small": 10000,
        "super6": 1000,
    },
    # 限额: the most the table takes from all players in one round (001:84).
    "table_limit": 200000,
}

# The odds each area shows, "1:x" as the seeds write 1赔x (display text only; payouts use rules.payout).
ODDS = {
    "commission": {
        "banker": "1:0.95",
        "player": "1:1",
        "tie": "1:8",
        "banker_pair": "1:11",
        "player_pair": "1:11",
    },
    "super6": {
        "banker": "1:1 (6: 1:0.5)",
        "player": "1:1",
        "tie": "1:8",
        "banker_pair": "1:11",
        "player_pair": "1:11",
        "big": "1:0.5",
        "small": "1:1.5",
        "super6": "1:12",
    },
}

BIG_SMALL = ("big", "small")
# The most one coin staked on each area can win (an upper bound: 大 pays 1:0.5, 小 1:1.5, rounded down).
TOP_WIN = {
    "banker": 1,
    "player": 1,
    "tie": 8,
    "banker_pair": 11,
    "player_pair": 11,
    "big": 1,
    "small": 2,
    "super6": 12,
}


def _refusal(code: str, template: str, **params: object) -> IllegalAction:
    """Build an IllegalAction that also carries the protocol's error ``code``."""
    error = IllegalAction(template, **params)
    error.code = code  # type: ignore[attr-defined]
    return error


def variant_of(config: dict) -> str:
    """Return the table's variant, refusing one the rules do not know (a staff mistake)."""
    variant = (config or {}).get("variant", DEFAULT_OPTIONS["variant"])
    if variant not in rules.VARIANTS:
        raise ValueError(f"unknown baccarat variant {variant!r} (expected one of {sorted(rules.VARIANTS)})")
    return variant


def coup_of(summary: dict) -> rules.Coup:
    """Rebuild the :class:`rules.Coup` of a result or history entry (ValueError if malformed)."""
    if not isinstance(summary, dict):
        raise ValueError(f"expected a coup result dict, not {summary!r}")
    try:
        return rules.Coup(player=list(summary["player"]), banker=list(summary["banker"]))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a coup result: {summary!r}") from exc


class BaccaratEngine:
    """百家乐 on one 8-deck shoe after another (see docs/rules/baccarat.md)."""

    family = "banker"

    def new_shoe(self, config: dict, rng: SeededRng) -> State:
        """Shuffle 8 decks once and place the cut card 14–16 cards from the end."""
        variant_of(config)
        shoe = rules.new_shoe(rng)
        return {
            "cards": list(shoe.cards),
            "cut_position": shoe.cut_position,
            "position": 0,  # cards dealt so far
            "coups": 0,  # coups dealt so far
            "history": [],  # each coup's summary (Coup.to_dict() plus "coup"), for the roads
        }

    def shoe_finished(self, shoe: State) -> bool:
        """Say whether the cut card has come out: the coup that brought it out was the last."""
        return shoe["position"] >= shoe["cut_position"]

    def areas(self, config: dict, shoe: State) -> list[dict]:
        """List the next coup's areas in display order; 大/小 close from the 30th coup (001:5)."""
        variant = variant_of(config)
        big_small_open = rules.big_small_open(shoe["coups"] + 1)
        return [
            {
                "area": area,
                "odds": ODDS[variant][area],
                "open": big_small_open if area in BIG_SMALL else True,
            }
            for area in rules.VARIANTS[variant]
        ]

    def deal(self, config: dict, shoe: State) -> tuple[dict, State]:
        """Deal the next coup from the shoe's position; return the result and the advanced shoe."""
        variant_of(config)
        if self.shoe_finished(shoe):
            raise ValueError("the cut card is out: this shoe deals no more coups")
        position = shoe["position"]
        coup = rules.deal_coup(islice(shoe["cards"], position, None))
        number = shoe["coups"] + 1
        summary = {**coup.to_dict(), "coup": number}
        # Dealing order: P, B, P, B, then the player's third card, then the banker's.
        steps = [
            {"side": "player", "card": coup.player[0]},
            {"side": "banker", "card": coup.banker[0]},
            {"side": "player", "card": coup.player[1]},
            {"side": "banker", "card": coup.banker[1]},
        ]
        if len(coup.player) == 3:
            steps.append({"side": "player", "card": coup.player[2]})
        if len(coup.banker) == 3:
            steps.append({"side": "banker", "card": coup.banker[2]})
        new_shoe = {
            **shoe,
            "position": position + coup.cards_dealt,
            "coups": number,
            "history": [*shoe["history"], summary],
        }
        return {**summary, "steps": steps}, new_shoe

    def payout(self, config: dict, result: dict, area: str, stake: int) -> int:
        """Return one bet's net coins under the table's variant (rounded down, rules.payout)."""
        return rules.payout(area, stake, coup_of(result), variant_of(config))

    def roads(self, shoe: State) -> dict:
        """Return every road of the coups dealt from ``shoe``: 珠盘路, 大路, the three derived roads and 问路.

        Keys: ``bead_plate``, ``big_road``, ``big_eye_boy`` 大眼仔路, ``small_road`` 小路,
        ``cockroach_pig`` 曱甴路 (columns of ``"red"``/``"blue"``) and ``ask`` (问路:
        each derived road's next mark if banker or player wins), see ``roads.py``.
        """
        coups = [coup_of(summary) for summary in shoe["history"]]
        return {"bead_plate": rules.bead_plate(coups), **derived.roads_of(coups)}

    def validate_bet(self, config: dict, shoe: State, area: str, amount: object) -> None:
        """Refuse a bet the rules do not take; the runtime checks limits and wallets.

        The refusal carries ``code`` (``bad_area``, ``area_closed``,
        ``malformed``, ``betting_closed``) for the browser protocol.
        """
        variant = variant_of(config)
        if not isinstance(area, str) or area not in rules.VARIANTS[variant]:
            raise _refusal(
                "bad_area", gettext_noop("There is no betting area {area} at this table."), area=area
            )
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise _refusal("malformed", gettext_noop("A bet must be a positive whole number of coins."))
        if self.shoe_finished(shoe):
            raise _refusal("betting_closed", gettext_noop("This shoe is finished; wait for the next one."))
        if area in BIG_SMALL and not rules.big_small_open(shoe["coups"] + 1):
            raise _refusal(
                "area_closed",
                gettext_noop("Big and Small take no bets from coup {coup} of a shoe on."),
                coup=rules.BIG_SMALL_CLOSES_AT_COUP,
            )

    def bet_exposure(self, config: dict, area: str, stake: int) -> tuple[int, int]:
        """A bet loses at most its stake and wins at most the area's top odds (``TOP_WIN``)."""
        return stake, stake * TOP_WIN[area]

    def revealed(self, result: dict, count: int) -> dict:
        """Return what the first ``count`` steps of ``result`` show: each side's cards and totals."""
        cards: dict[str, list[str]] = {"player": [], "banker": []}
        for step in result["steps"][: max(0, count)]:
            cards[step["side"]].append(step["card"])
        totals = {side: rules.hand_total(hand) for side, hand in cards.items() if hand}
        return {"cards": cards, "totals": totals}
