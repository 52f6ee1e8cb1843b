"""填大坑 (Fill the Big Pit): card points, special hands and the comparison of two hands.

Public API:

- :func:`deck` — the cards of a variant: 九洲游 ``jiuzhou`` (花, 大王, 小王 and 8–A of
  four suits, 31 cards) or 东北 ``dongbei`` (10–A of four suits, 20 cards).
- :func:`points` — the sum of the card values (000:35): 花 20, 大王 18, 小王 16,
  A 15, K 13, Q 12, J 11, 10, 9, 8 their face value.
- :func:`special` — ``manguan`` 满贯, ``hulu`` 葫芦, ``simei`` 四枚, ``baozi`` 豹子 or None (000:13-19).
- :func:`compare` — >0 if ``a`` beats ``b``, <0 if ``b`` wins, 0 if equal (烂锅 when it is the best).
- :func:`xiqian_fan` — the 喜钱 multiple of a winning special hand (000:25).

Cards are in the notation of DESIGN.md: ``"FL"`` 花, ``"DJ"`` 大王, ``"XJ"`` 小王,
``"As"`` …; the rules and their seed lines are in docs/rules/tiandakeng.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

VALUES = {"FL": 20, "DJ": 18, "XJ": 16}
RANK_VALUES = {"A": 15, "K": 13, "Q": 12, "J": 11, "T": 10, "9": 9, "8": 8}
SPECIALS = ("baozi", "simei", "hulu", "manguan")  # from the smallest (000:31)
FAN = {"manguan": 4, "hulu": 3, "simei": 2, "baozi": 1}  # 喜钱 multiples (000:25)
KILL_POINTS = 75  # 75分（含）以上者可以杀豹子 (000:27)
SET_BONUS = {3: 30, 4: 60}  # 东北: 三条 / 四条 add 30 / 60 points (000:93)


def deck(variant: str = "jiuzhou") -> list[str]:
    """Return the variant's cards in a fixed order (the jokers and 花 first, then A down, s h c d)."""
    if variant == "jiuzhou":
        return ["FL", "DJ", "XJ", *(r + s for r in "AKQJT98" for s in "shcd")]
    if variant == "dongbei":
        return [r + s for r in "AKQJT" for s in "shcd"]
    raise ValueError(f"no 填大坑 variant {variant!r}")


def _value(card: str) -> int:
    if card in VALUES:
        return VALUES[card]
    if isinstance(card, str) and len(card) == 2 and card[0] in RANK_VALUES and card[1] in "shcd":
        return RANK_VALUES[card[0]]
    raise ValueError(f"not a 填大坑 card: {card!r}")


def points(cards: Sequence[str]) -> int:
    """Return the sum of the cards' values (000:35)."""
    if isinstance(cards, str):
        raise ValueError("give a list of cards")
    return sum(_value(c) for c in cards)


def _sets(cards: Sequence[str]) -> Counter:
    """Count the cards of each rank (jokers and 花 have none)."""
    return Counter(c[0] for c in cards if c not in VALUES)


def special(cards: Sequence[str]) -> str | None:
    """Name the special hand of five cards (000:13-19), or None.

    满贯: 花 + 大王 + 小王 + two A. 葫芦: 大王 + 小王 + three of a rank. 四枚: four of a
    rank. 豹子: three of a rank and any two others (not 大王 + 小王, which make 葫芦).
    """
    if len(cards) != 5:
        raise ValueError("a 填大坑 hand is five cards")
    points(cards)  # every card is one of the game's
    sets = _sets(cards)
    top = max(sets.values(), default=0)
    jokers = "DJ" in cards and "XJ" in cards
    if jokers and "FL" in cards and sets.get("A") == 2:
        return "manguan"
    if jokers and top == 3:
        return "hulu"
    if top == 4:
        return "simei"
    if top == 3:
        return "baozi"
    return None


def score(cards: Sequence[str], variant: str = "jiuzhou") -> int:
    """Return a hand's points as its variant counts them (东北 adds 30 / 60 for three / four of a rank)."""
    total = points(cards)
    if variant == "dongbei":
        top = max(_sets(cards).values(), default=0)
        total += SET_BONUS.get(top, 0)
    return total


def key(cards: Sequence[str], variant: str = "jiuzhou") -> tuple[int, ...]:
    """Return the order of a hand: plain hands below 75 < 豹子 < plain hands of 75 or more < 四枚 < 葫芦 < 满贯.

    Equal keys are equal hands. Specials of one kind compare the rank of their set.
    """
    if variant == "dongbei":
        return (0, score(cards, variant))
    kind = special(cards)
    if kind is None:
        total = points(cards)
        return (2 if total >= KILL_POINTS else 0, total)
    set_rank = max(_sets(cards).items(), key=lambda item: (item[1], RANK_VALUES[item[0]]), default=("A", 0))[
        0
    ]
    level = {"baozi": 1, "simei": 3, "hulu": 4, "manguan": 5}[kind]
    return (level, RANK_VALUES[set_rank])


def compare(a: Sequence[str], b: Sequence[str], variant: str = "jiuzhou") -> int:
    """Return >0 if ``a`` beats ``b``, <0 if ``b`` beats ``a``, 0 if equal (000:27, 000:31).

    A plain hand of 75 points or more kills (beats) a 豹子; 0 between the best
    hands at the end of a hand is a 烂锅 (000:39).
    """
    ka, kb = key(a, variant), key(b, variant)
    return (ka > kb) - (ka < kb)


def xiqian_fan(cards: Sequence[str], variant: str = "jiuzhou") -> int:
    """Return the 喜钱 multiple a winning hand collects from each other player (000:23-25); 0 if none."""
    if variant != "jiuzhou":
        return 0
    kind = special(cards)
    return FAN[kind] if kind else 0
