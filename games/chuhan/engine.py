"""楚汉德州 as a banker-family engine: 汉 and 楚 two cards each, five community cards, one coup at a time.

Implements :class:`games.base.BankerEngine`; the hands' rules are in
:mod:`games.chuhan.rules`. A shoe is ``coups_per_shoe`` coups, each dealt from
its own freshly shuffled 52-card deck (every coup a full deck, as 必下德州), and
keeps the 9 cards each coup deals. Every card is face down while players bet
(odds fixed in advance would be readable off a visible board). After betting
the five community cards turn one by one, then the reveal waits for the 咪牌
(the highest bettor on 楚 or 汉, ``reveal_pause``) before the two hands turn.
"""

from __future__ import annotations

from typing import Any

from games.base import IllegalAction, SeededRng, State, gettext_noop
from games.chuhan import rules

DECK = [rank + suit for suit in "shcd" for rank in "A23456789TJQK"]
CARDS_PER_COUP = 9
BOARD = "board"
HANDS = (rules.HAN, rules.CHU)
HISTORY_KEPT = 60

DEFAULT_OPTIONS: dict[str, Any] = {
    "bet_seconds": 15,  # the betting countdown
    "reveal_ms": 600,  # one card turned per reveal_ms
    "reveal_seconds": 8,  # the 咪牌 countdown: the revealer's time before the hands open themselves
    "result_seconds": 6,
    "chips": [10, 50, 100, 500, 1000],
    "min_bet": 10,
    "area_limits": {area: 20000 for area in rules.AREAS},
    "table_limit": 400000,
    "coups_per_shoe": 30,
}


def _refusal(code: str, template: str, **params: object) -> IllegalAction:
    error = IllegalAction(template, **params)
    error.code = code  # type: ignore[attr-defined]
    return error


class ChuhanEngine:
    """楚汉德州 (see docs/rules/chuhan.md)."""

    family = "banker"

    def new_shoe(self, config: dict, rng: SeededRng) -> State:
        """Shuffle a fresh deck for each of the shoe's coups and keep the 9 cards each deals."""
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
        return [{"area": area, "odds": rules.odds_text(area), "open": True} for area in rules.AREAS]

    def odds_table(self, config: dict) -> list[dict]:
        """The rules panel: each area's odds, chance of winning and house edge (docs/rules/chuhan.md)."""
        return [
            {
                "area": area,
                "odds": rules.odds_text(area),
                "probability": rules.win_probability(area),
                "edge": rules.house_edge(area),
            }
            for area in rules.AREAS
        ]

    def deal(self, config: dict, shoe: State) -> tuple[dict, State]:
        """Deal 汉 and 楚 a card each in turn, twice, then five community cards (001:200)."""
        if self.shoe_finished(shoe):
            raise ValueError("this shoe deals no more coups")
        position = shoe["position"]
        cards = shoe["cards"][position : position + CARDS_PER_COUP]
        han, chu, board = [cards[0], cards[2]], [cards[1], cards[3]], cards[4:]
        coup = rules.coup_result(han, chu, board)
        number = shoe["coups"] + 1
        wins = sorted(rules.area_wins(coup["winner"], coup["category"]))
        result = {
            "coup": number,
            BOARD: board,
            rules.HAN: han,
            rules.CHU: chu,
            "winner": coup["winner"],
            "category": coup["category"],
            "hands": {side: {"category": coup[side]["category"]} for side in HANDS},
            "wins": wins,
            # The board turns first, then the 咪牌 turns 汉's two cards and 楚's.
            "steps": [
                *({"side": BOARD, "card": card} for card in board),
                *({"side": rules.HAN, "card": card} for card in han),
                *({"side": rules.CHU, "card": card} for card in chu),
            ],
        }
        history = [*shoe["history"], {"coup": number, "winner": coup["winner"]}][-HISTORY_KEPT:]
        new_shoe = {**shoe, "position": position + CARDS_PER_COUP, "coups": number, "history": history}
        return result, new_shoe

    def reveal_pause(self, config: dict, result: dict) -> dict:
        """咪牌 (001:202, 001:208): once the board is out, the top bettor on 楚 or 汉 turns the hands."""
        seconds = (config or {}).get("reveal_seconds", DEFAULT_OPTIONS["reveal_seconds"])
        return {"after": 5, "areas": [rules.CHU, rules.HAN], "seconds": seconds}

    def payout(self, config: dict, result: dict, area: str, stake: int) -> int:
        """Return one bet's net, worked out again from the dealt cards."""
        if area not in rules.ODDS:
            raise ValueError(f"{area!r} is not a betting area")
        if isinstance(stake, bool) or not isinstance(stake, int) or stake <= 0:
            raise ValueError(f"a stake must be a positive whole number of coins, not {stake!r}")
        coup = rules.coup_result(result[rules.HAN], result[rules.CHU], result[BOARD])
        return rules.bet_net(area, stake, coup["winner"], coup["category"])

    def bet_exposure(self, config: dict, area: str, stake: int) -> tuple[int, int]:
        """A bet loses at most its stake and wins at most stake × its odds (rounded down)."""
        return stake, int(stake * rules.ODDS[area])

    def roads(self, shoe: State) -> dict:
        """The shoe's recent winners (路单): 楚, 汉 or 平 per coup."""
        return {"winners": [entry["winner"] for entry in shoe["history"]]}

    def validate_bet(self, config: dict, shoe: State, area: str, amount: object) -> None:
        self.validate_stake(area, amount)
        if self.shoe_finished(shoe):
            raise _refusal("betting_closed", gettext_noop("This shoe is finished; wait for the next one."))

    def validate_stake(self, area: object, amount: object) -> None:
        """Refuse an area that is not one of the game's, or an amount that is not a whole number of coins."""
        if not isinstance(area, str) or area not in rules.ODDS:
            raise _refusal(
                "bad_area", gettext_noop("There is no betting area {area} at this table."), area=area
            )
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise _refusal("malformed", gettext_noop("A bet must be a positive whole number of coins."))

    def revealed(self, result: dict, count: int) -> dict:
        """What the first ``count`` steps show: the cards turned, and a hand's category once it is whole."""
        cards: dict[str, list[str]] = {side: [] for side in (BOARD, *HANDS)}
        for step in result["steps"][: max(0, count)]:
            cards[step["side"]].append(step["card"])
        totals: dict[str, dict] = {}
        if len(cards[BOARD]) == 5:
            for side in HANDS:
                if len(cards[side]) == 2:
                    totals[side] = result["hands"][side]
        return {"cards": cards, "totals": totals}
