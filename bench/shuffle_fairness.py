"""Test the deal for fairness: a chi-square test of card × position over many shuffles.

Run from the project root:

    .venv/bin/python bench/shuffle_fairness.py [--shuffles N] [--shoe-shuffles M]

Each shuffle is done exactly as the table runtime does it: a fresh
``SeededRng(secrets.token_bytes(32), "hand")`` shuffles the deck in place
(``rooms/tables/hands.py``). For each deck size the games use (54 for 斗地主
Dou Dizhu, 52 for 炸金花 Golden Flower and 德州 hold'em, 416 for an 8-deck
shoe) it counts how often every card lands in every position. A fair shuffle
puts each card in each position with probability 1/n, so the counts form an
n × n table with expected value shuffles/n per cell.

The cells are not independent counts: one shuffle puts exactly one card in
each position (a permutation matrix), so the covariance of a shuffle's
centred cells is Q/(n − 1), where Q projects onto the (n − 1)²-dimensional
space with zero row and column sums. Pearson's sum Σ(O − E)²/E is therefore
n/(n − 1) times a chi-square with (n − 1)² degrees of freedom (its mean is
n(n − 1), not (n − 1)²), and the script reports it rescaled by (n − 1)/n.
Without the rescale a fair shuffle would look about 0.7 standard deviations
too uneven at every deck size here.

The 416-card shoe has 173,056 cells, so it gets fewer shuffles (``--shoe-shuffles``,
default 20,000: about 48 expected per cell, well above the usual 5) and keeps
every physical card distinct rather than merging the eight copies of a face.

The p-value uses SciPy when installed, else the Wilson–Hilferty approximation:
(X/k)^(1/3) is close to normal with mean 1 − 2/(9k) and variance 2/(9k), where
k is the degrees of freedom; its error is far below what matters here for
k ≥ 2,601.
"""

from __future__ import annotations

import argparse
import math
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.base import SeededRng  # noqa: E402

SeedSource = Callable[[int], bytes]


@dataclass(frozen=True)
class ChiSquare:
    """One test's result: the statistic, its degrees of freedom and the upper-tail p-value."""

    deck_size: int
    shuffles: int
    statistic: float
    dof: int
    p_value: float


def runtime_seed(_i: int) -> bytes:
    """Return a fresh seed the way the table runtime draws one for each hand."""
    return secrets.token_bytes(32)


def chi2_sf(statistic: float, dof: int) -> float:
    """Return P(X ≥ statistic) for X ~ chi-square(dof): SciPy if present, else Wilson–Hilferty."""
    try:
        from scipy.stats import chi2
    except ImportError:
        pass
    else:
        return float(chi2.sf(statistic, dof))
    spread = 2.0 / (9.0 * dof)
    z = ((statistic / dof) ** (1.0 / 3.0) - (1.0 - spread)) / math.sqrt(spread)
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def position_counts(deck_size: int, shuffles: int, seed_for: SeedSource = runtime_seed) -> list[int]:
    """Shuffle a deck ``shuffles`` times; return counts[card * deck_size + position]."""
    counts = [0] * (deck_size * deck_size)
    base = list(range(deck_size))
    offsets = [card * deck_size for card in base]
    for i in range(shuffles):
        deck = base[:]
        SeededRng(seed_for(i), "hand").shuffle(deck)
        for position, card in enumerate(deck):
            counts[offsets[card] + position] += 1
    return counts


def card_position_test(deck_size: int, shuffles: int, seed_for: SeedSource = runtime_seed) -> ChiSquare:
    """Run the card × position chi-square test on ``shuffles`` shuffles of ``deck_size`` cards."""
    counts = position_counts(deck_size, shuffles, seed_for)
    expected = shuffles / deck_size
    pearson = sum((observed - expected) ** 2 for observed in counts) / expected
    # Each shuffle is a permutation, so Pearson's sum is n/(n − 1) × chi-square((n − 1)²).
    statistic = pearson * (deck_size - 1) / deck_size
    dof = (deck_size - 1) ** 2
    return ChiSquare(deck_size, shuffles, statistic, dof, chi2_sf(statistic, dof))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shuffles", type=int, default=1_000_000, help="shuffles of the 54 and 52 decks")
    parser.add_argument("--shoe-shuffles", type=int, default=20_000, help="shuffles of the 416-card shoe")
    args = parser.parse_args()
    plan = [
        (54, args.shuffles, "斗地主"),
        (52, args.shuffles, "炸金花 / 德州"),
        (416, args.shoe_shuffles, "8-deck shoe"),
    ]
    print(
        f"{'deck':>5} {'used by':<14} {'shuffles':>10} {'chi-square':>13} {'dof':>8} {'z':>7} {'p-value':>8}  time"
    )
    for size, shuffles, used_by in plan:
        start = time.perf_counter()
        result = card_position_test(size, shuffles)
        elapsed = time.perf_counter() - start
        z = (result.statistic - result.dof) / math.sqrt(2 * result.dof)
        print(
            f"{size:>5} {used_by:<14} {shuffles:>10,} {result.statistic:>13,.1f} {result.dof:>8,}"
            f" {z:>7.2f} {result.p_value:>8.4f}  {elapsed:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
