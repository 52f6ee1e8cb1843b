"""保险楚汉德州 as a banker-family engine: one 楚汉德州 coup bet on in three streets.

The shoe, the deal and the hand-type areas are 楚汉德州's (:class:`games.chuhan.engine.ChuhanEngine`).
The steps turn 汉's and 楚's cards and the flop after the first street (001:154), then the
turn, then the river. ``betting_windows`` names the later streets' betting windows, each
opened once its cards are out, with the odds :mod:`games.chuhan_insured.rules` works out
from the cards shown; a street whose 楚 or 汉 odds are ≤ 1.01 has none. Each street's
areas are its own (``chu``, ``chu_2``, ``chu_3`` …), so a bet's street is in its area and
:meth:`payout` finds its odds in the result.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from games.base import State
from games.chuhan import rules as chuhan
from games.chuhan.engine import BOARD, ChuhanEngine
from games.chuhan.engine import DEFAULT_OPTIONS as CHUHAN_OPTIONS
from games.chuhan_insured import rules

SIDE_AREAS = (rules.CHU, rules.TIE, rules.HAN)
DEFAULT_OPTIONS: dict[str, Any] = {
    **CHUHAN_OPTIONS,
    "margin_bps": 500,  # the house's margin taken off every street's fair odds
    "area_limits": {
        **CHUHAN_OPTIONS["area_limits"],
        **{f"{side}_{street}": 20000 for side in SIDE_AREAS for street in (2, 3)},
    },
}


def area_street(area: str) -> tuple[str, int]:
    """Split an area into its side and street: ``chu_2`` → (``chu``, 2); ``chu`` → (``chu``, 1)."""
    side, _, street = area.partition("_")
    if side in SIDE_AREAS and street in ("", "2", "3"):
        return side, int(street or 1)
    return area, 1


def odds_text(odds: Fraction) -> str:
    """Decimal odds as the page shows profit odds: 1.93 → ``1:0.93``."""
    return f"1:{float(odds - 1):.2f}".rstrip("0").rstrip(".")


def _margin(config: dict) -> Fraction:
    return Fraction(int((config or {}).get("margin_bps", DEFAULT_OPTIONS["margin_bps"])), 10000)


def _hundredths(odds: Fraction | None) -> int | None:
    return None if odds is None else int(odds * 100)


class InsuredChuhanEngine(ChuhanEngine):
    """保险楚汉德州 (see docs/rules/chuhan_insured.md)."""

    def first_street_odds(self, config: dict) -> dict[str, Fraction | None]:
        return rules.street_odds(1, rules.first_street_chances(), _margin(config))

    def areas(self, config: dict, shoe: State) -> list[dict]:
        odds = self.first_street_odds(config)
        sides = [{"area": side, "odds": odds_text(odds[side]), "open": True} for side in SIDE_AREAS]
        types = [
            {"area": area, "odds": chuhan.odds_text(area), "open": True} for area in chuhan.HAND_TYPE_AREAS
        ]
        return sides + types

    def deal(self, config: dict, shoe: State) -> tuple[dict, State]:
        """Deal as 楚汉德州, then work out the later streets' odds from the cards each shows."""
        result, new_shoe = super().deal(config, shoe)
        han, chu, board = result[rules.HAN], result[rules.CHU], result[BOARD]
        streets = {}
        for street in (2, 3):
            chances = rules.street_chances(han, chu, board[: rules.BOARD_SHOWN[street]])
            odds = rules.street_odds(street, chances, _margin(config))
            streets[str(street)] = {
                "odds": {side: _hundredths(value) for side, value in odds.items()},
                "skipped": rules.street_skipped(odds),
                # The exact chances the odds come from, kept for whoever checks them (bench, verify).
                "chances": {side: str(value) for side, value in chances.items()},
            }
        steps = [
            *({"side": rules.HAN, "card": card} for card in han),
            *({"side": rules.CHU, "card": card} for card in chu),
            *({"side": BOARD, "card": card} for card in board),
        ]
        # The later streets' areas of the winner win too (and 平's on a tie).
        wins = sorted({*result["wins"], *(f"{result['winner']}_{street}" for street in (2, 3))})
        return {**result, "streets": streets, "steps": steps, "wins": wins}, new_shoe

    def odds_table(self, config: dict) -> list[dict]:
        """The rules panel: the first street's areas (a later street's odds move with the cards)."""
        chances = rules.first_street_chances()
        odds = self.first_street_odds(config)
        rows = [
            {
                "area": side,
                "odds": odds_text(odds[side]),
                "probability": float(chances[side]),
                "edge": float(1 - rules.expected_return(1, side, chances, odds[side])),
            }
            for side in SIDE_AREAS
        ]
        return rows + [row for row in super().odds_table(config) if row["area"] in chuhan.HAND_TYPE_AREAS]

    def betting_windows(self, config: dict, result: dict) -> list[dict]:
        """The turn and river streets' betting, each once its cards are out (7 and 8 steps), unless skipped."""
        windows = []
        for street, after in ((2, 7), (3, 8)):
            info = result["streets"][str(street)]
            if info["skipped"]:
                continue
            areas = [
                {
                    "area": f"{side}_{street}",
                    "odds": odds_text(Fraction(info["odds"][side], 100)) if info["odds"][side] else "–",
                    "open": info["odds"][side] is not None,
                }
                for side in SIDE_AREAS
            ]
            windows.append({"after": after, "street": street, "areas": areas})
        return windows

    def reveal_pause(self, config: dict, result: dict) -> list[dict]:
        """咪牌 after each later street's betting (001:158, 001:162, 001:174): the side with the higher odds.

        Its top bettor counts every street's stakes on that side (累计投注, pooled). A skipped
        street has no 咪牌: its card turns at once (001:165).
        """
        seconds = (config or {}).get("reveal_seconds", DEFAULT_OPTIONS["reveal_seconds"])
        pauses = []
        for window in self.betting_windows(config, result):
            street = window["street"]
            odds = result["streets"][str(street)]["odds"]
            side = rules.CHU if (odds[rules.CHU] or 0) >= (odds[rules.HAN] or 0) else rules.HAN
            areas = [side, *(f"{side}_{s}" for s in range(2, street + 1))]
            pauses.append({"after": window["after"], "areas": areas, "pooled": True, "seconds": seconds})
        return pauses

    def payout(self, config: dict, result: dict, area: str, stake: int) -> int:
        side, street = area_street(area)
        if side in chuhan.HAND_TYPE_AREAS:
            return super().payout(config, result, area, stake)
        if isinstance(stake, bool) or not isinstance(stake, int) or stake <= 0:
            raise ValueError(f"a stake must be a positive whole number of coins, not {stake!r}")
        if street == 1:
            odds = self.first_street_odds(config)[side]
        else:
            hundredths = result["streets"][str(street)]["odds"][side]
            odds = None if hundredths is None else Fraction(hundredths, 100)
        return rules.bet_net(street, side, stake, odds, result["winner"])

    def bet_exposure(self, config: dict, area: str, stake: int) -> tuple[int, int]:
        """A bet loses at most its stake; a later street's odds are unknown until dealt, so up to the cap."""
        side, street = area_street(area)
        if side in chuhan.HAND_TYPE_AREAS:
            return super().bet_exposure(config, area, stake)
        return stake, stake * 1000

    def validate_bet(self, config: dict, shoe: State, area: str, amount: object) -> None:
        """A first-street bet waits for a coup the shoe can still deal; a later street's coup is dealt already."""
        side, street = area_street(area if isinstance(area, str) else "")
        self.validate_stake(side if isinstance(area, str) else area, amount)
        if street == 1:
            super().validate_bet(config, shoe, side, amount)
