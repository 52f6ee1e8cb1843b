"""楚汉德州 Chu-Han Hold'em: who wins, with which hand type, and what each area pays.

楚 (Chu) and 汉 (Han) hold two cards each and share five community cards; the
必下德州 evaluator (:mod:`games.texas.rules`) decides (001:199, 001:206). Players bet on
the result (楚 / 汉 / 平) and on the winning hand's type. Public API:

- :func:`coup_result` — the winner and each hand's value and category;
- :func:`hand_type_area` — the hand-type area a category falls in;
- :func:`area_wins` — which areas a result wins;
- :func:`bet_net` — one bet's net coins;
- ``ODDS`` — what each area pays, and ``PROBABILITY`` / :func:`house_edge`,
  the published figures (docs/rules/chuhan.md, ``bench/chuhan_odds.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from games.texas import rules as texas

CHU, HAN, TIE = "chu", "han", "tie"  # 楚, 汉, 平
SIDES = (HAN, CHU)  # dealing order 汉 then 楚 (001:200)

# The winning hand-type areas, each a run of the evaluator's categories (texas.CATEGORIES).
HAND_TYPE_AREAS: dict[str, tuple[int, ...]] = {
    "high_pair": (texas.HIGH_CARD, texas.PAIR),  # 高牌/一对
    "two_pair": (texas.TWO_PAIR,),  # 两对
    "trips_straight_flush": (texas.TRIPS, texas.STRAIGHT, texas.FLUSH),  # 三条/顺子/同花
    "full_house": (texas.FULL_HOUSE,),  # 葫芦
    "quads_plus": (texas.QUADS, texas.STRAIGHT_FLUSH),  # 四条/同花顺 (皇家同花顺 included)
}
AREAS = (CHU, TIE, HAN, *HAND_TYPE_AREAS)

# Profit per coin staked on a winning bet, as an exact fraction (1:1.2 pays 1.2 coins per coin).
# The seed names 楚/汉/平 and the hand-type areas but no odds (001:198–210): these are our choice,
# each near a 3–6 % house edge (docs/rules/chuhan.md, "Odds").
ODDS: dict[str, Fraction] = {
    CHU: Fraction(1),
    HAN: Fraction(1),
    TIE: Fraction(23),
    "high_pair": Fraction(12, 10),
    "two_pair": Fraction(21, 10),
    "trips_straight_flush": Fraction(37, 10),
    "full_house": Fraction(19),
    "quads_plus": Fraction(250),
}

# The chance each area wins, from bench/chuhan_odds.py over 10^8 coups (docs/rules/chuhan.md gives
# the run and its 95 % intervals). 楚 and 汉 are symmetric: each wins (1 − P(平)) / 2.
PROBABILITY: dict[str, float] = {
    TIE: 0.040661,
    "high_pair": 0.430467,
    "two_pair": 0.314202,
    "trips_straight_flush": 0.204557,
    "full_house": 0.047044,
    "quads_plus": 0.003730,
}


def odds_text(area: str) -> str:
    """The odds as the page shows them: ``1:1``, ``1:1.2``."""
    odds = ODDS[area]
    return f"1:{odds.numerator}" if odds.denominator == 1 else f"1:{float(odds):g}"


def coup_result(han: Sequence[str], chu: Sequence[str], board: Sequence[str]) -> dict:
    """Evaluate both hands over the board: ``{"winner", "han", "chu", "category"}``.

    ``han``/``chu``: each side's value (an int, greater is stronger) and category name;
    ``category``: the winning hand's category index (on 平 the shared value's).
    """
    if len(han) != 2 or len(chu) != 2 or len(board) != 5:
        raise ValueError("楚 and 汉 hold two cards each and the board five")
    han_value = texas.hand_rank([*han, *board])
    chu_value = texas.hand_rank([*chu, *board])
    if len({*han, *chu, *board}) != 9:
        raise ValueError("a card is dealt twice")
    winner = HAN if han_value > chu_value else CHU if chu_value > han_value else TIE
    top = max(han_value, chu_value)
    return {
        "winner": winner,
        "han": {"value": han_value, "category": texas.CATEGORIES[han_value >> 20]},
        "chu": {"value": chu_value, "category": texas.CATEGORIES[chu_value >> 20]},
        "category": top >> 20,
    }


def hand_type_area(category: int) -> str:
    """The hand-type area a category index falls in (every category falls in exactly one)."""
    for area, categories in HAND_TYPE_AREAS.items():
        if category in categories:
            return area
    raise ValueError(f"no category {category!r}")


def area_wins(winner: str, category: int) -> set[str]:
    """The areas a coup wins: the winner (楚, 汉 or 平) and the winning hand's type area."""
    return {winner, hand_type_area(category)}


def bet_net(area: str, stake: int, winner: str, category: int) -> int:
    """One bet's net coins: won (+), lost (−stake), or on 平 half of a 楚/汉 stake back (001:199).

    A fraction of a coin is rounded down, in the house's favour on a win (1:1.2 on 15 pays 18)
    and in the player's on 平 (half of 15 back is 7: the net is −8).
    """
    if area not in ODDS:
        raise ValueError(f"{area!r} is not a betting area")
    if winner == TIE and area in (CHU, HAN):
        return -(stake - stake // 2)
    if area in area_wins(winner, category):
        return int(stake * ODDS[area])
    return -stake


def win_probability(area: str) -> float:
    """The published chance that ``area`` wins (楚 and 汉: (1 − P(平)) / 2 each)."""
    if area in (CHU, HAN):
        return (1 - PROBABILITY[TIE]) / 2
    return PROBABILITY[area]


def house_edge(area: str) -> float:
    """1 − the expected return of one coin on ``area`` (before the 5 % fee on a round's profit).

    楚 and 汉 lose half a stake on 平 and are otherwise even money, so their edge is P(平) / 2.
    """
    if area in (CHU, HAN):
        return PROBABILITY[TIE] / 2
    return 1 - PROBABILITY[area] * float(1 + ODDS[area])
