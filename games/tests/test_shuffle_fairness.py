"""The deal is fair and no game or room code reaches for the global random generator."""

from __future__ import annotations

import ast
import hashlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.shuffle_fairness import card_position_test, chi2_sf, position_counts  # noqa: E402
from games.base import SeededRng  # noqa: E402


def fixed_seed(i: int) -> bytes:
    """Return a deterministic 32-byte seed so the test gives the same verdict on every run."""
    return hashlib.sha256(f"shuffle-fairness-{i}".encode()).digest()


def test_every_card_lands_in_every_position_evenly():
    result = card_position_test(54, 20_000, fixed_seed)
    assert result.dof == 53 * 53
    assert result.p_value > 1e-6, f"chi-square {result.statistic:.1f} on {result.dof} dof"


def test_a_biased_shuffle_is_caught(monkeypatch):
    """Swap each card with any position (the classic naive shuffle): the test must reject it."""

    class NaiveRng(SeededRng):
        def shuffle(self, items: list) -> None:
            for i in range(len(items)):
                j = self.randbelow(len(items))
                items[i], items[j] = items[j], items[i]

    monkeypatch.setattr("bench.shuffle_fairness.SeededRng", NaiveRng)
    # The naive shuffle's bias is gross: 5,000 shuffles already give p < 1e-100.
    result = card_position_test(54, 5_000, fixed_seed)
    assert result.p_value < 1e-6


def test_the_statistic_averages_its_degrees_of_freedom_for_a_fair_shuffle():
    """Rescaled for the permutation's dependence, a fair deal's statistic has mean (n − 1)².

    Pearson's raw sum would average n(n − 1) = 30 here, five above the 25 expected.
    """
    runs = [
        card_position_test(6, 200, lambda i, run=run: hashlib.sha256(f"mean-{run}-{i}".encode()).digest())
        for run in range(200)
    ]
    mean = sum(r.statistic for r in runs) / len(runs)
    assert runs[0].dof == 25
    assert abs(mean - 25) < 2.5, mean  # the mean's standard error is 0.5


def test_each_shuffle_is_a_permutation():
    counts = position_counts(52, 100, fixed_seed)
    for card in range(52):
        assert sum(counts[card * 52 : (card + 1) * 52]) == 100


@pytest.mark.parametrize(
    ("statistic", "dof", "expected"),
    # Upper-tail values from the exact incomplete-gamma series, summed independently.
    [(2809.0, 2809, 0.49645), (2958.5, 2809, 0.02447), (2616.0, 2601, 0.41418)],
)
def test_p_value_matches_the_chi_square_tail(statistic, dof, expected):
    assert chi2_sf(statistic, dof) == pytest.approx(expected, abs=0.0005)


RANDOM_GLOBALS = {
    "random",
    "randint",
    "randrange",
    "choice",
    "choices",
    "shuffle",
    "sample",
    "uniform",
    "seed",
    "getrandbits",
    "randbytes",
    "gauss",
    "betavariate",
    "expovariate",
    "normalvariate",
    "triangular",
}


def global_random_calls(source: str) -> list[str]:
    """Return ``random.<fn>`` calls and ``from random import <fn>`` names that use the global generator."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            found += [f"from random import {a.name}" for a in node.names if a.name in RANDOM_GLOBALS]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr in RANDOM_GLOBALS
        ):
            found.append(f"random.{node.attr} (line {node.lineno})")
    return found


def test_the_checker_spots_global_random_use():
    assert global_random_calls("import random\nrandom.shuffle(deck)\n") == ["random.shuffle (line 2)"]
    assert global_random_calls("from random import choice\n") == ["from random import choice"]
    assert global_random_calls("import random\nrng = random.Random(7)\nrng.shuffle(deck)\n") == []


def test_no_game_or_room_module_uses_the_global_random_generator():
    offenders = {}
    for package in ("games", "rooms"):
        for path in sorted((ROOT / package).rglob("*.py")):
            calls = global_random_calls(path.read_text(encoding="utf-8"))
            if calls:
                offenders[str(path.relative_to(ROOT))] = calls
    assert offenders == {}
