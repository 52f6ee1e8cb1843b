"""百人牛牛 as a banker-family engine: a banker hand and four area hands 福禄寿禧 of five cards.

The round mechanics (one fresh 52-card deck per coup, dealing in turn, the reveal
card by card, roads, refusals) are 百人三公's, which this engine subclasses; the
hands are 牛牛's (:mod:`games.niuniu.rules`). The multiples come from the table the
room tier names (``multiplier_table``, 牛牛's by default: docs/rules/niuniu.md).
"""

from __future__ import annotations

from typing import Any

from games.niuniu import rules
from games.sangong.engine import SangongEngine

AREAS = ("fu", "lu", "shou", "xi")  # 福禄寿禧, the four areas players bet on (001:87)
HANDS = ("banker", *AREAS)  # dealing and reveal order: 庄、福、禄、寿、禧
HAND_SIZE = 5
CARDS_PER_COUP = HAND_SIZE * len(HANDS)

DEFAULT_OPTIONS: dict[str, Any] = {
    "bet_seconds": 15,  # the betting countdown
    "reveal_ms": 400,  # one card turned over per reveal_ms (25 cards: 10 s)
    "result_seconds": 6,  # the result stays up this long before the next round
    "chips": [10, 50, 100, 500, 1000],
    "min_bet": 10,
    "area_limits": {area: 10000 for area in AREAS},  # one player's most on each area a round
    "table_limit": 200000,  # all players' stakes on one round
    "coups_per_shoe": 30,  # the shoe's seed is revealed after this many coups
    "multiplier_table": "niuniu",  # 001 gives 百人牛牛 no table of its own: 牛牛's (001:426-449)
    # 上庄 (docs/rules/sangong.md): a player may bank with this many coins, for at most this
    # many rounds in a row; 0 coins: only the house banks.
    "bank_minimum": 0,
    "bank_rounds": 10,
}


def table_of(config: dict) -> str:
    """The multiplier table the tier names (``"niuniu"`` or ``"tongbi"``)."""
    table = (config or {}).get("multiplier_table") or DEFAULT_OPTIONS["multiplier_table"]
    if table not in rules.TABLES:
        raise ValueError(f"no multiplier table {table!r}")
    return table


def hand_facts(cards: list[str], table: str) -> dict:
    """What the reveal shows of one hand: its category, the multiple it pays, and its 摊牌 split."""
    cat = rules.category(cards)
    three, two = rules.best_split(cards)
    return {"category": cat, "multiple": rules.multiplier(cat, table), "three": three, "two": two}


def area_net(banker: list[str], hand: list[str], stake: int, table: str) -> int:
    """One bet's net (001:96): the area's hand wins stake × its multiple, or loses stake × the banker's."""
    if rules.compare(hand, banker) > 0:
        return stake * rules.multiplier(rules.category(hand), table)
    return -stake * rules.multiplier(rules.category(banker), table)


class NiuniuHundredEngine(SangongEngine):
    """百人牛牛 (see docs/rules/niuniu.md, 百人牛牛)."""

    area_names = AREAS
    hand_size = HAND_SIZE

    def facts(self, config: dict, cards: list[str]) -> dict:
        return hand_facts(cards, table_of(config))

    def net(self, config: dict, banker: list[str], hand: list[str], stake: int) -> int:
        return area_net(banker, hand, stake, table_of(config))

    def areas(self, config: dict, shoe: dict) -> list[dict]:
        odds = f"1:1–1:{max(rules.TABLES[table_of(config)].values())}"
        return [{"area": area, "odds": odds, "open": True} for area in AREAS]

    def bet_exposure(self, config: dict, area: str, stake: int) -> tuple[int, int]:
        """A bet loses or wins at most stake × the table's top multiple (小牛牛: 10 in 牛牛's table)."""
        top = max(rules.TABLES[table_of(config)].values())
        return stake * top, stake * top
