"""开心摇摇乐 Happy Dice rules: red and blue shake three dice each; the larger total wins.

Pure functions over dice (integers 1–6, DESIGN.md). Seed: 001 (开心摇摇乐,
lines 393–410); each rule's line and every reading chosen where the seed is
ambiguous are in docs/rules/yaoyaole.md.

Odds are written as the seed writes them, 1赔x: a winning bet of 1 coin brings
back x coins in all, its stake included (the only reading under which the
seed's 红/蓝 1赔2 and 对子 1赔2.3 leave the house an edge; docs/rules/yaoyaole.md).
Every area's probability and house edge are computed exactly by
:func:`odds_table`, which enumerates all 6^6 throws of the six dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

FACES = (1, 2, 3, 4, 5, 6)
SIDES = ("red", "blue")  # 红 and 蓝; the seed's 庄 is red and its 闲 blue (docs/rules/yaoyaole.md)
TIE = "tie"  # 平

# Combinations of one side's three dice that the side areas pay on (001:405-410).
PAIR = "pair"  # 对子: exactly two dice alike (three alike is 豹子, not a pair)
STRAIGHT = "straight"  # 顺子: three consecutive faces in any order (1-2-3 … 4-5-6)
TRIPLE = "triple"  # 豹子: three dice alike
COMBOS = (PAIR, STRAIGHT, TRIPLE)

# The betting areas in display order: 红 平 蓝, then 红(庄)对子/顺子/豹子 and 蓝(闲)对子/顺子/豹子.
AREAS = ("red", TIE, "blue", *(f"{side}_{combo}" for side in SIDES for combo in COMBOS))

LOW_TOTAL = 8  # a winner with fewer points than this pays 1赔1.5 instead of 1赔2 (001:396, 001:402-403)

# What a winning coin brings back in all, in tenths of a coin (1赔2 → 20): 001:402-410.
RETURN_TENTHS = {
    "side": 20,  # 红/蓝 1赔2
    "side_low": 15,  # 红/蓝 1赔1.5 when the winner has fewer than 8 points
    TIE: 80,  # 平 1赔8
    PAIR: 23,  # 对子 1赔2.3
    STRAIGHT: 80,  # 顺子 1赔8
    TRIPLE: 300,  # 豹子 1赔30
}

# The odds each area shows, as the seed writes them (display text; payouts use RETURN_TENTHS).
ODDS_TEXT = {
    "red": "1:2 (<8: 1:1.5)",
    TIE: "1:8",
    "blue": "1:2 (<8: 1:1.5)",
    **{f"{side}_{PAIR}": "1:2.3" for side in SIDES},
    **{f"{side}_{STRAIGHT}": "1:8" for side in SIDES},
    **{f"{side}_{TRIPLE}": "1:30" for side in SIDES},
}


def check_dice(dice: Sequence[int]) -> tuple[int, int, int]:
    """Return one side's three dice as a tuple, refusing anything that is not three faces 1–6."""
    if isinstance(dice, (str, bytes)) or len(dice) != 3:
        raise ValueError(f"a side shakes three dice, not {dice!r}")
    for die in dice:
        if isinstance(die, bool) or not isinstance(die, int) or die not in FACES:
            raise ValueError(f"{die!r} is not a die's face (1-6)")
    return dice[0], dice[1], dice[2]


def total(dice: Sequence[int]) -> int:
    """Return a side's points: its three dice added (001:395)."""
    return sum(check_dice(dice))


def combo(dice: Sequence[int]) -> str | None:
    """Return ``pair``, ``straight`` or ``triple`` for three dice, or None (001:405-410)."""
    a, b, c = sorted(check_dice(dice))
    if a == c:
        return TRIPLE
    if a == b or b == c:
        return PAIR
    if b == a + 1 and c == b + 1:
        return STRAIGHT
    return None


def winner(red: Sequence[int], blue: Sequence[int]) -> str:
    """Return ``red``, ``blue`` or ``tie``: the side with more points wins (001:395)."""
    red_points, blue_points = total(red), total(blue)
    if red_points > blue_points:
        return "red"
    if blue_points > red_points:
        return "blue"
    return TIE


def return_tenths(area: str, red: Sequence[int], blue: Sequence[int]) -> int:
    """Return what one coin on ``area`` brings back, in tenths of a coin: 0 lost, 10 returned, more won."""
    return _return_of(area, total(red), combo(red), total(blue), combo(blue))


def _return_of(
    area: str, red_points: int, red_combo: str | None, blue_points: int, blue_combo: str | None
) -> int:
    """:func:`return_tenths` from each side's points and combination (the one place the payouts are decided)."""
    if not isinstance(area, str):
        raise ValueError(f"{area!r} is not a betting area")
    if area == TIE:
        return RETURN_TENTHS[TIE] if red_points == blue_points else 0
    if area in SIDES:
        if red_points == blue_points:
            return 10  # 平: the stakes on 红 and 蓝 come back (001:397, 001:404)
        mine, theirs = (red_points, blue_points) if area == "red" else (blue_points, red_points)
        if mine < theirs:
            return 0
        return RETURN_TENTHS["side_low" if mine < LOW_TOTAL else "side"]
    side, _, area_combo = area.partition("_")
    if side not in SIDES or area_combo not in COMBOS:
        raise ValueError(f"{area!r} is not a betting area")
    return RETURN_TENTHS[area_combo] if (red_combo if side == "red" else blue_combo) == area_combo else 0


def net(area: str, stake: int, red: Sequence[int], blue: Sequence[int]) -> int:
    """Return one bet's net coins: won (+), lost (−stake) or returned (0); a part coin is rounded down."""
    if isinstance(stake, bool) or not isinstance(stake, int) or stake <= 0:
        raise ValueError(f"a stake must be a positive whole number of coins, not {stake!r}")
    return stake * return_tenths(area, red, blue) // 10 - stake


def top_net_tenths(area: str) -> int:
    """Return the most one coin on ``area`` can win (net), in tenths of a coin."""
    if area not in AREAS:
        raise ValueError(f"{area!r} is not a betting area")
    if area in SIDES:
        return RETURN_TENTHS["side"] - 10
    if area == TIE:
        return RETURN_TENTHS[TIE] - 10
    return RETURN_TENTHS[area.split("_", 1)[1]] - 10


@dataclass(frozen=True)
class AreaOdds:
    """One area's exact odds over all 6^6 throws: how often it wins, is returned or loses, and what it returns.

    ``returns`` maps what a coin brings back (in tenths: 0 lost, 10 returned, 15, 20 …)
    to its probability; ``expected_return`` is what a coin staked brings back on average,
    stake included; ``house_edge`` = 1 − ``expected_return``; ``variance`` is that of one
    coin's net.
    """

    area: str
    returns: dict[int, Fraction]
    win: Fraction
    push: Fraction
    lose: Fraction
    expected_return: Fraction
    variance: Fraction

    @property
    def house_edge(self) -> Fraction:
        return 1 - self.expected_return


def _side_facts() -> list[tuple[int, str | None]]:
    """Each of the 6^3 throws of one side's dice as ``(points, combination)``."""
    return [(total(dice), combo(dice)) for dice in product(FACES, repeat=3)]


def odds_table(fee_bps: int = 0) -> dict[str, AreaOdds]:
    """Return each area's exact :class:`AreaOdds`, enumerating all 6^6 = 46,656 throws.

    ``fee_bps``: a service fee on winnings (500 = 5% of the profit), for a tier that takes one;
    computed per coin, so it ignores the rounding down of whole-coin fees.
    """
    keep = Fraction(10000 - fee_bps, 10000)
    throws = 6**6
    counts: dict[str, dict[int, int]] = {area: {} for area in AREAS}
    sides = _side_facts()
    # Every (red, blue) pair of the 216 × 216 side throws: all 6^6 throws, each once.
    for red_points, red_combo in sides:
        for blue_points, blue_combo in sides:
            for area in AREAS:
                tenths = _return_of(area, red_points, red_combo, blue_points, blue_combo)
                counts[area][tenths] = counts[area].get(tenths, 0) + 1
    table = {}
    for area in AREAS:
        win = push = lose = 0
        mean = mean_square = Fraction(0)
        for tenths, count in counts[area].items():
            profit = Fraction(tenths - 10, 10)
            if profit > 0:
                win += count
                profit *= keep
            elif profit == 0:
                push += count
            else:
                lose += count
            mean += profit * count
            mean_square += profit * profit * count
        mean /= throws
        mean_square /= throws
        table[area] = AreaOdds(
            area=area,
            returns={tenths: Fraction(count, throws) for tenths, count in sorted(counts[area].items())},
            win=Fraction(win, throws),
            push=Fraction(push, throws),
            lose=Fraction(lose, throws),
            expected_return=1 + mean,
            variance=mean_square - mean * mean,
        )
    return table
