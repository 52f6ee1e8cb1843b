"""Deal a million 百家乐 (baccarat) coups and compare banker/player/tie frequencies with the 8-deck figures.

Run from the project root:

    .venv/bin/python bench/baccarat_coups.py [--coups N] [--seed TEXT]

Each shoe is dealt exactly as the round runtime deals it: a fresh
``SeededRng(secrets.token_bytes(32), "shoe")`` shuffles 8 decks
(``BaccaratEngine.new_shoe``), then ``BaccaratEngine.deal`` deals coup after
coup until the cut card comes out; the next shoe is freshly shuffled. It stops
after ``--coups`` coups (default 1,000,000) and prints each result's
frequency, the known 8-deck probability, the z-score
``(observed − p) / sqrt(p(1 − p) / n)`` and the coups dealt per second.
``--seed`` makes the run repeatable (shoe ``i`` is seeded with
``sha256(seed/i)``). The CI test ``games/tests/test_baccarat_frequencies.py``
runs the same count on fewer coups and asserts every |z| < 4.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.baccarat.engine import BaccaratEngine  # noqa: E402
from games.base import SeededRng  # noqa: E402

# The 8-deck probabilities of each result (the figures; exact values
# are 0.458597, 0.446247 and 0.095156).
EXPECTED = {"banker": 0.4586, "player": 0.4462, "tie": 0.0952}

SeedSource = Callable[[int], bytes]


@dataclass
class Tally:
    """How many coups ended in each result, over how many shoes, in how long."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(EXPECTED, 0))
    shoes: int = 0
    seconds: float = 0.0

    @property
    def coups(self) -> int:
        return sum(self.counts.values())

    def frequency(self, winner: str) -> float:
        return self.counts[winner] / self.coups

    def z_score(self, winner: str) -> float:
        """Return how many standard errors the observed frequency lies from the expected one."""
        p = EXPECTED[winner]
        return (self.frequency(winner) - p) / math.sqrt(p * (1 - p) / self.coups)


def random_seed(_i: int) -> bytes:
    return secrets.token_bytes(32)


def seeded(text: str) -> SeedSource:
    """Return a seed source that makes shoe ``i`` from ``sha256(text/i)`` (a repeatable run)."""
    return lambda i: hashlib.sha256(f"{text}/{i}".encode()).digest()


def count_coups(coups: int, seed_for: SeedSource = random_seed, variant: str = "commission") -> Tally:
    """Deal ``coups`` coups from freshly shuffled 8-deck shoes; count who won each."""
    engine = BaccaratEngine()
    config = {"variant": variant}
    tally = Tally()
    counts = tally.counts
    start = time.perf_counter()
    while tally.coups < coups:
        shoe = engine.new_shoe(config, SeededRng(seed_for(tally.shoes), "shoe"))
        tally.shoes += 1
        left = coups - tally.coups
        while left and not engine.shoe_finished(shoe):
            result, shoe = engine.deal(config, shoe)
            counts[result["winner"]] += 1
            left -= 1
    tally.seconds = time.perf_counter() - start
    return tally


def report(tally: Tally) -> str:
    lines = [
        f"{tally.coups:,} coups from {tally.shoes:,} freshly shuffled 8-deck shoes "
        f"in {tally.seconds:.1f} s ({tally.coups / tally.seconds:,.0f} coups/s)",
        "",
        f"{'result':<8} {'coups':>10} {'observed':>9} {'expected':>9} {'z':>6}",
    ]
    for winner in EXPECTED:
        lines.append(
            f"{winner:<8} {tally.counts[winner]:>10,} {tally.frequency(winner):>9.4f} "
            f"{EXPECTED[winner]:>9.4f} {tally.z_score(winner):>+6.2f}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coups", type=int, default=1_000_000, help="coups to deal (default 1,000,000)")
    parser.add_argument("--seed", help="make the run repeatable: shoe i is seeded with sha256(SEED/i)")
    parser.add_argument("--variant", default="commission", choices=["commission", "super6"])
    args = parser.parse_args()
    seed_for = seeded(args.seed) if args.seed else random_seed
    print(report(count_coups(args.coups, seed_for, args.variant)))


if __name__ == "__main__":
    main()
