"""开心摇摇乐 Happy Dice as a banker-family engine: red's and blue's three dice, one coup at a time.

Implements :class:`games.base.BankerEngine`. The rules (points, pairs,
straights, triples, what each area pays) are in :mod:`games.yaoyaole.rules`.
A "shoe" here is ``coups_per_shoe`` throws, each thrown from its own stream of
the shoe's seed (``SeededRng(seed, "shoe").child("coup-N")``: red's three dice,
then blue's, each ``randbelow(6) + 1``), so a revealed seed re-derives every
throw. The shoe state is private (it holds the throws to come); a ``result``
is private until its steps are revealed, and :meth:`YaoyaoleEngine.revealed`
gives what the first ``n`` steps show.
"""

from __future__ import annotations

from typing import Any

from games.base import IllegalAction, SeededRng, State, gettext_noop
from games.yaoyaole import rules

DICE_PER_SIDE = 3
HISTORY_KEPT = 60  # coups of the shoe the roads show

DEFAULT_OPTIONS: dict[str, Any] = {
    "bet_seconds": 15,  # the betting countdown
    "reveal_ms": 700,  # the pace of the reveal: red's cup, then blue's
    "reveal_seconds": 6,  # 开骰盅: the opener's time before the cup opens by itself
    "result_seconds": 6,  # the result stays up this long before the next round
    "chips": [10, 50, 100, 500, 1000],
    "min_bet": 10,
    # One player's most on each area a round (the seed gives no limits; docs/rules/yaoyaole.md).
    "area_limits": {
        "red": 20000,
        "tie": 2500,
        "blue": 20000,
        **{f"{side}_pair": 10000 for side in rules.SIDES},
        **{f"{side}_straight": 2500 for side in rules.SIDES},
        **{f"{side}_triple": 700 for side in rules.SIDES},
    },
    "table_limit": 400000,  # all players' stakes on one round
    "coups_per_shoe": 30,  # the shoe's seed is revealed after this many throws
    "bank_minimum": 0,  # the seed has no player banker: the house banks every round
}


def _refusal(code: str, template: str, **params: object) -> IllegalAction:
    """Build an IllegalAction that also carries the protocol's error ``code``."""
    error = IllegalAction(template, **params)
    error.code = code  # type: ignore[attr-defined]
    return error


def throw(rng: SeededRng) -> tuple[list[int], list[int]]:
    """Throw red's three dice, then blue's, from ``rng``: each die ``rng.randbelow(6) + 1``."""
    dice = [rng.randbelow(6) + 1 for _ in range(2 * DICE_PER_SIDE)]
    return dice[:DICE_PER_SIDE], dice[DICE_PER_SIDE:]


def side_facts(dice: list[int]) -> dict:
    """What the result shows of one side's cup: its points and its combination (or None)."""
    return {"points": rules.total(dice), "combo": rules.combo(dice)}


def coup_result(number: int, red: list[int], blue: list[int]) -> dict:
    """Return the result of coup ``number``: both cups, their facts, the winner, each area's fate, the steps."""
    won = rules.winner(red, blue)
    return {
        "coup": number,
        "red": list(red),
        "blue": list(blue),
        "sides": {"red": side_facts(red), "blue": side_facts(blue)},
        "winner": won,
        # Each area's coin: "won", "push" (平 returns 红/蓝) or "lost".
        "areas": {
            area: "won" if tenths > 10 else "push" if tenths == 10 else "lost"
            for area, tenths in ((a, rules.return_tenths(a, red, blue)) for a in rules.AREAS)
        },
        # 开骰盅 (001:398): red's cup is opened first, then blue's (``reveal_pause``), one die per step.
        "steps": [{"side": "red", "card": die} for die in red]
        + [{"side": "blue", "card": die} for die in blue],
    }


class YaoyaoleEngine:
    """开心摇摇乐 (see docs/rules/yaoyaole.md)."""

    family = "banker"

    def new_shoe(self, config: dict, rng: SeededRng) -> State:
        """Throw the shoe's ``coups_per_shoe`` coups, each from its own child stream of ``rng``."""
        coups = int((config or {}).get("coups_per_shoe") or DEFAULT_OPTIONS["coups_per_shoe"])
        if coups <= 0:
            raise ValueError("coups_per_shoe must be positive")
        throws = []
        for coup in range(coups):
            red, blue = throw(rng.child(f"coup-{coup + 1}"))
            throws.append(red + blue)
        return {"throws": throws, "coups": 0, "history": []}

    def shoe_finished(self, shoe: State) -> bool:
        return shoe["coups"] >= len(shoe["throws"])

    def areas(self, config: dict, shoe: State) -> list[dict]:
        return [{"area": area, "odds": rules.ODDS_TEXT[area], "open": True} for area in rules.AREAS]

    def deal(self, config: dict, shoe: State) -> tuple[dict, State]:
        """Shake the next coup: red's three dice and blue's, revealed red's cup first."""
        if self.shoe_finished(shoe):
            raise ValueError("this shoe throws no more coups")
        dice = shoe["throws"][shoe["coups"]]
        number = shoe["coups"] + 1
        result = coup_result(number, dice[:DICE_PER_SIDE], dice[DICE_PER_SIDE:])
        entry = {
            "coup": number,
            "winner": result["winner"],
            "red": result["sides"]["red"]["points"],
            "blue": result["sides"]["blue"]["points"],
        }
        history = [*shoe["history"], entry][-HISTORY_KEPT:]
        return result, {**shoe, "coups": number, "history": history}

    def reveal_pause(self, config: dict, result: dict) -> list[dict]:
        """开骰盅 (001:398): red's top bettor opens red's cup, then blue's top bettor blue's.

        Each pause waits up to ``reveal_seconds`` for the side's top bettor (stakes on 红 or
        蓝 alone) and opens the whole cup, its three dice at once; nobody on a side, no wait.
        """
        seconds = (config or {}).get("reveal_seconds", DEFAULT_OPTIONS["reveal_seconds"])
        return [
            {"after": index * DICE_PER_SIDE, "areas": [side], "seconds": seconds, "turns": DICE_PER_SIDE}
            for index, side in enumerate(rules.SIDES)
        ]

    def payout(self, config: dict, result: dict, area: str, stake: int) -> int:
        """Return one bet's net, worked out again from the thrown dice."""
        red = rules.check_dice(result["red"])
        blue = rules.check_dice(result["blue"])
        return rules.net(area, stake, red, blue)

    def bet_exposure(self, config: dict, area: str, stake: int) -> tuple[int, int]:
        """A bet loses at most its stake and wins at most the area's top odds (rounded down as paid)."""
        return stake, stake * rules.top_net_tenths(area) // 10

    def roads(self, shoe: State) -> dict:
        """Return the shoe's recent coups (路单): each one's winner and both sides' points."""
        return {"coups": list(shoe["history"])}

    def validate_bet(self, config: dict, shoe: State, area: str, amount: object) -> None:
        """Refuse a bet the rules do not take; the runtime checks limits and wallets."""
        if not isinstance(area, str) or area not in rules.AREAS:
            raise _refusal(
                "bad_area", gettext_noop("There is no betting area {area} at this table."), area=area
            )
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise _refusal("malformed", gettext_noop("A bet must be a positive whole number of coins."))
        if self.shoe_finished(shoe):
            raise _refusal("betting_closed", gettext_noop("This shoe is finished; wait for the next one."))

    def revealed(self, result: dict, count: int) -> dict:
        """Return what the first ``count`` steps show: each cup's dice, and the facts of each cup fully shown."""
        dice: dict[str, list[int]] = {side: [] for side in rules.SIDES}
        for step in result["steps"][: max(0, count)]:
            dice[step["side"]].append(step["card"])
        totals = {side: result["sides"][side] for side, shown in dice.items() if len(shown) == DICE_PER_SIDE}
        return {"cards": dice, "totals": totals}
