"""The published 楚汉德州 odds (docs/rules/chuhan.md, games.chuhan.rules) against a fresh simulation of 10^6 coups.

The published figures come from bench/chuhan_odds.py (10^8 coups); this test
deals 10^6 coups again with another generator and another path (``rules.coup_result``
per coup, as the engine pays) and checks that every published probability, and
the house edge it implies, lies within 4.5 standard errors of this run's estimate.
It also checks that the table in docs/rules/chuhan.md prints the same figures.
"""

import math
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from games.chuhan import rules

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "chuhan.md"
DECK = [rank + suit for suit in "shcd" for rank in "23456789TJQKA"]
TRIALS = 1_000_000


def doc_rows(doc: Path = DOC) -> dict[str, tuple[str, float, float]]:
    """The odds table of a rules page: area → (odds, probability %, house edge %)."""
    rows = {}
    for line in doc.read_text().splitlines():
        match = re.match(r"\| `(\w+)` \|[^|]*\| (1:[\d.]+) \| ([\d.]+) % \| ([\d.]+) % \|", line)
        if match:
            rows[match[1]] = (match[2], float(match[3]), float(match[4]))
    return rows


def test_the_doc_prints_the_published_figures():
    rows = doc_rows()
    assert set(rows) == set(rules.AREAS)
    for area, (odds, percent, edge) in rows.items():
        assert odds == rules.odds_text(area)
        assert percent == pytest.approx(rules.win_probability(area) * 100, abs=0.0006)
        assert edge == pytest.approx(rules.house_edge(area) * 100, abs=0.006)


@pytest.mark.slow
def test_published_probabilities_match_a_fresh_million_coups():
    rng = random.Random("chuhan-odds-test")
    wins: Counter = Counter()
    for _ in range(TRIALS):
        cards = rng.sample(DECK, 9)
        coup = rules.coup_result(cards[0:2], cards[2:4], cards[4:])
        for area in rules.area_wins(coup["winner"], coup["category"]):
            wins[area] += 1
    assert sum(wins[a] for a in rules.HAND_TYPE_AREAS) == TRIALS
    assert wins["chu"] + wins["han"] + wins["tie"] == TRIALS
    for area in rules.AREAS:
        published = rules.win_probability(area)
        estimate = wins[area] / TRIALS
        error = math.sqrt(published * (1 - published) / TRIALS)
        assert abs(estimate - published) < 4.5 * error, (area, estimate, published)
        # The house edge the page shows, from this run's estimate.
        if area in (rules.CHU, rules.HAN):
            measured_edge = 1 - (2 * estimate + 0.5 * wins["tie"] / TRIALS)
            tie = rules.PROBABILITY[rules.TIE]
            tolerance = 4.5 * (2 * error + 0.5 * math.sqrt(tie * (1 - tie) / TRIALS))
            assert abs(measured_edge - rules.house_edge(area)) < tolerance
        else:
            factor = float(1 + rules.ODDS[area])
            assert abs(1 - factor * estimate - rules.house_edge(area)) < 4.5 * factor * error


def test_the_insured_doc_prints_its_first_street_figures():
    from games.chuhan_insured.engine import DEFAULT_OPTIONS, InsuredChuhanEngine

    rows = doc_rows(DOC.with_name("chuhan_insured.md"))
    table = InsuredChuhanEngine().odds_table(DEFAULT_OPTIONS)
    assert list(rows) == [row["area"] for row in table]
    for row in table:
        odds, percent, edge = rows[row["area"]]
        assert odds == row["odds"]
        assert percent == pytest.approx(row["probability"] * 100, abs=0.0006)
        assert edge == pytest.approx(row["edge"] * 100, abs=0.006)
