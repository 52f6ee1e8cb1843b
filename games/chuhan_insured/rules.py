"""保险楚汉德州 Insured Chu-Han Hold'em: three betting streets on one 楚汉德州 coup, with moving odds.

One coup of 楚汉德州 (:mod:`games.chuhan.rules`: 汉 and 楚 two cards each, five
community cards, the 必下德州 evaluator decides) is bet on in three streets
(001:149–172):

1. the flop street: the hands and the flop are dealt face down; 楚 / 汉 / 平 and the
   hand-type areas are open; then every card dealt is turned (001:152–154, 001:169);
2. the turn street: the 4th community card is dealt face down; 楚 / 汉 / 平 only, their
   odds from the cards shown (001:156–158, 001:170);
3. the river street: the 5th, likewise (001:160–162, 001:171).

A street's odds are the exact chances over the cards still unseen (:func:`street_chances`,
every completion of the board enumerated), turned into decimal odds less the tier's
margin (:func:`street_odds`). A street whose 楚 or 汉 odds are at or below 1.01 is not
bet on (001:165, 001:172). On 平 only the first street's 楚 and 汉 stakes come back by
half (001:167).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

from games.chuhan import rules as chuhan
from games.texas.rules import value_of_weight, weight

CHU, HAN, TIE = chuhan.CHU, chuhan.HAN, chuhan.TIE
SIDES = (CHU, HAN, TIE)
STREETS = (1, 2, 3)  # the flop, turn and river streets
BOARD_SHOWN = {1: 0, 2: 3, 3: 4}  # community cards face up while each street is bet on
SKIP_AT_OR_BELOW = Fraction(101, 100)  # 001:165: a side's odds ≤ 1.01 skips the street's betting
DECK = [rank + suit for suit in "shcd" for rank in "23456789TJQKA"]


def street_chances(han: Sequence[str], chu: Sequence[str], board: Sequence[str]) -> dict[str, Fraction]:
    """The exact chance that 楚, 汉 or 平 ends the coup, over every way the unseen board can complete.

    ``board`` holds the community cards shown (3 or 4; 5: the result itself). Every
    completion from the cards not among the nine shown is counted once.
    """
    han, chu, board = list(han), list(chu), list(board)
    if len(han) != 2 or len(chu) != 2 or not 3 <= len(board) <= 5:
        raise ValueError("the hands hold two cards each and the board three to five")
    shown = {*han, *chu, *board}
    if len(shown) != len(han) + len(chu) + len(board):
        raise ValueError("a card is shown twice")
    unseen = [weight((card,)) for card in DECK if card not in shown]
    # Each hand's seven cards are its fixed cards and the completion: their weights add up.
    han_fixed, chu_fixed = weight(han + board), weight(chu + board)
    han_wins = chu_wins = total = 0
    for rest in combinations(unseen, 5 - len(board)):
        extra = sum(rest)
        han_value, chu_value = value_of_weight(han_fixed + extra), value_of_weight(chu_fixed + extra)
        han_wins += han_value > chu_value
        chu_wins += chu_value > han_value
        total += 1
    ties = total - han_wins - chu_wins
    return {CHU: Fraction(chu_wins, total), HAN: Fraction(han_wins, total), TIE: Fraction(ties, total)}


def first_street_chances() -> dict[str, Fraction]:
    """The first street's chances, nothing being shown: 楚汉德州's published figures (bench/chuhan_odds.py)."""
    tie = Fraction(chuhan.PROBABILITY[TIE]).limit_denominator(10**7)
    return {CHU: (1 - tie) / 2, HAN: (1 - tie) / 2, TIE: tie}


def decimal_odds(
    chance: Fraction, margin: Fraction, *, half_back_on_tie: Fraction = Fraction(0)
) -> Fraction | None:
    """Odds (the return per coin, stake included) worth ``1 − margin`` per coin, rounded down to 0.01.

    ``half_back_on_tie``: the chance of 平 when the bet gets half its stake back then (the
    first street's 楚 and 汉). None when the area cannot win (its chance is 0).
    """
    if chance <= 0:
        return None
    value = (1 - margin - half_back_on_tie / 2) / chance
    return Fraction(int(value * 100), 100)


def street_odds(street: int, chances: dict[str, Fraction], margin: Fraction) -> dict[str, Fraction | None]:
    """The odds of 楚, 汉 and 平 on ``street`` from its chances, less the tier's ``margin``."""
    if street not in STREETS:
        raise ValueError(f"no street {street!r}")
    tie = chances[TIE] if street == 1 else Fraction(0)
    return {
        CHU: decimal_odds(chances[CHU], margin, half_back_on_tie=tie),
        HAN: decimal_odds(chances[HAN], margin, half_back_on_tie=tie),
        TIE: decimal_odds(chances[TIE], margin),
    }


def street_skipped(odds: dict[str, Fraction | None]) -> bool:
    """001:165: the street takes no bets when 楚's or 汉's odds are at or below 1.01."""
    return any(odds[side] is not None and odds[side] <= SKIP_AT_OR_BELOW for side in (CHU, HAN))


def bet_net(street: int, area: str, stake: int, odds: Fraction | None, winner: str) -> int:
    """One 楚/汉/平 bet's net: won (stake × (odds − 1), rounded down), lost (−stake), or half back.

    Only a first-street 楚 or 汉 bet gets half its stake back on 平 (001:167, rounded down as
    in 楚汉德州); a later street's loses it.
    """
    if area not in SIDES:
        raise ValueError(f"{area!r} is not a 楚/汉/平 area")
    if winner == TIE and area != TIE:
        return -(stake - stake // 2) if street == 1 else -stake
    if area == winner:
        if odds is None:
            raise ValueError("a closed area cannot have won")
        return int(stake * (odds - 1))
    return -stake


def expected_return(street: int, area: str, chances: dict[str, Fraction], odds: Fraction) -> Fraction:
    """The return per coin a bet at ``odds`` expects over the street's exact ``chances`` (1 − its house edge)."""
    win = chances[area] * odds
    if area != TIE and street == 1:
        win += chances[TIE] / 2
    return win
