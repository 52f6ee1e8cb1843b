"""开心摇摇乐's published odds (docs/rules/yaoyaole.md) against the exact enumeration and 10^6 simulated rounds."""

import math
import random
import re
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from games.yaoyaole import rules

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "yaoyaole.md"
ROUNDS = 1_000_000
TOLERANCE_SE = 5  # the stated tolerance: five standard errors of the mean of ROUNDS rounds


def documented() -> dict[str, dict]:
    """Read the odds table of docs/rules/yaoyaole.md: area → its printed figures."""
    text = DOC.read_text(encoding="utf-8").split("<!-- odds-table", 1)[1]
    table = text.split("\n\n", 1)[0]  # the table right under the marker, to its first blank line
    rows = {}
    for line in table.splitlines():
        match = re.match(r"\| `(\w+)` \|(.*)\|\s*$", line)
        if not match:
            continue
        cells = [cell.strip() for cell in match.group(2).split("|")]
        _zh, pays, wins, returned, exact, back, edge, fee_edge = cells
        rows[match.group(1)] = {
            "pays": pays,
            "wins": wins,
            "returned": returned,
            "exact": Fraction(exact),
            "return": back,
            "edge": edge,
            "fee_edge": fee_edge,
        }
    return rows


def percent(value) -> str:
    return f"{float(value) * 100:.4f}%"


def as_fraction(text: str) -> float:
    return float(text.rstrip("%")) / 100


def test_the_doc_lists_every_area_with_its_exact_figures():
    rows = documented()
    assert list(rows) == list(rules.AREAS)
    exact, fee = rules.odds_table(), rules.odds_table(500)
    for area, row in rows.items():
        odds = exact[area]
        assert row["pays"] == rules.ODDS_TEXT[area], area
        assert row["exact"] == odds.expected_return, area
        assert row["wins"] == percent(odds.win), area
        assert row["returned"] == percent(odds.push), area
        assert row["return"] == percent(odds.expected_return), area
        assert row["edge"] == percent(odds.house_edge), area
        assert row["fee_edge"] == percent(fee[area].house_edge), area


def independent_returns(red: tuple[int, int, int], blue: tuple[int, int, int]) -> dict[str, int]:
    """What one coin on each area brings back in tenths, written from the seed's words without rules.py."""
    red_sum, blue_sum = sum(red), sum(blue)

    def kind(dice):
        low, mid, high = sorted(dice)
        if low == high:
            return "triple"
        if low == mid or mid == high:
            return "pair"
        return "straight" if (mid - low, high - mid) == (1, 1) else ""

    def side(mine, theirs):
        if mine == theirs:
            return 10
        return 0 if mine < theirs else (15 if mine < 8 else 20)

    pays = {"pair": 23, "straight": 80, "triple": 300}
    back = {
        "red": side(red_sum, blue_sum),
        "blue": side(blue_sum, red_sum),
        "tie": 80 if red_sum == blue_sum else 0,
    }
    for name, dice in (("red", red), ("blue", blue)):
        for combination, tenths in pays.items():
            back[f"{name}_{combination}"] = tenths if kind(dice) == combination else 0
    return back


def test_a_million_simulated_rounds_return_what_the_doc_says():
    """Seeded rounds: six fair dice each, every area's mean return within 5 standard errors of the doc's."""
    rng = random.Random(20261207)
    throws = list(product(range(1, 7), repeat=6))
    drawn = Counter(rng.choices(range(len(throws)), k=ROUNDS))
    assert sum(drawn.values()) == ROUNDS
    totals: Counter = Counter()
    squares: Counter = Counter()
    for index, count in drawn.items():
        throw = throws[index]
        for area, tenths in independent_returns(throw[:3], throw[3:]).items():
            totals[area] += tenths * count
            squares[area] += tenths * tenths * count
    rows = documented()
    for area, row in rows.items():
        mean = totals[area] / (10 * ROUNDS)
        variance = squares[area] / (100 * ROUNDS) - mean * mean
        error = math.sqrt(variance / ROUNDS)
        published = as_fraction(row["return"])
        assert abs(mean - published) <= TOLERANCE_SE * error + 0.000_000_5, (area, mean, published, error)
        edge = as_fraction(row["edge"])
        assert abs((1 - mean) - edge) <= TOLERANCE_SE * error + 0.000_000_5, area


@pytest.mark.parametrize("area", rules.AREAS)
def test_the_independent_payouts_agree_with_the_rules_on_every_throw(area):
    sides = list(product(range(1, 7), repeat=3))
    for red in sides[::7]:
        for blue in sides:
            assert rules.return_tenths(area, red, blue) == independent_returns(red, blue)[area]
