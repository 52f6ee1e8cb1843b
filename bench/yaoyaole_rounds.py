"""开心摇摇乐: simulate rounds as the runtime throws them and compare each area's return with the published one.

Run from the project root:

    .venv/bin/python bench/yaoyaole_rounds.py [--rounds 10000000] [--workers 1] [--seed TEXT]

Each round is one coup of ``YaoyaoleEngine``: shoes of ``coups_per_shoe`` throws
made by ``new_shoe`` from a ``SeededRng`` (seed ``<seed>-<worker>-<shoe>``;
without ``--seed``, 32 bytes from ``secrets`` per shoe), dealt by ``deal``.
Every throw dealt is counted; at the end each distinct throw's payout is asked
of ``engine.payout`` for a 10-coin stake on every area, so the measured return
of an area is exactly what its bets would have brought back over all the
rounds. It prints, per area, the measured return, the published one
(``rules.odds_table``, exact over all 6^6 throws), the 99.9% interval of the
mean of ``n`` rounds around the published figure (±3.29 standard errors, the
standard deviation exact from the same table) and whether the measurement
sits inside it. Asserts nothing (a figure, not a test).
"""

from __future__ import annotations

import argparse
import math
import secrets
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.base import SeededRng  # noqa: E402
from games.yaoyaole import rules  # noqa: E402
from games.yaoyaole.engine import DEFAULT_OPTIONS, YaoyaoleEngine  # noqa: E402

Z_999 = 3.2905  # two-sided 99.9%
STAKE = 10  # a multiple of 10, so 1赔1.5 and 1赔2.3 pay whole coins as the published figures assume


def throw_counts(rounds: int, seed: str | None, worker: int) -> Counter:
    """Deal ``rounds`` coups through the engine; count each throw (red + blue dice) dealt."""
    engine = YaoyaoleEngine()
    config = dict(DEFAULT_OPTIONS)
    counts: Counter = Counter()
    dealt = shoe_number = 0
    while dealt < rounds:
        shoe_number += 1
        key = f"{seed}-{worker}-{shoe_number}".encode() if seed else secrets.token_bytes(32)
        shoe = engine.new_shoe(config, SeededRng(key.ljust(16, b"."), "shoe"))
        while not engine.shoe_finished(shoe) and dealt < rounds:
            result, shoe = engine.deal(config, shoe)
            counts[(*result["red"], *result["blue"])] += 1
            dealt += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10_000_000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--seed", default=None, help="derive every shoe's seed from this text (default: secrets)"
    )
    args = parser.parse_args()
    start = time.perf_counter()
    share = [args.rounds // args.workers + (i < args.rounds % args.workers) for i in range(args.workers)]
    counts: Counter = Counter()
    if args.workers == 1:
        counts = throw_counts(args.rounds, args.seed, 0)
    else:
        with ProcessPoolExecutor(args.workers) as pool:
            for part in pool.map(throw_counts, share, [args.seed] * args.workers, range(args.workers)):
                counts.update(part)
    elapsed = time.perf_counter() - start
    n = sum(counts.values())
    engine = YaoyaoleEngine()
    published = rules.odds_table()
    print(
        f"开心摇摇乐: {n:,} rounds in {elapsed:.1f} s ({n / elapsed:,.0f} rounds/s), {len(counts):,} distinct throws"
    )
    print(f"{'area':<14} {'measured':>10} {'published':>10} {'99.9% interval':>21} {'z':>6}  inside")
    for area in rules.AREAS:
        back = 0
        for dice, count in counts.items():
            result = {"red": list(dice[:3]), "blue": list(dice[3:])}
            back += count * (STAKE + engine.payout(DEFAULT_OPTIONS, result, area, STAKE))
        measured = back / (STAKE * n)
        exact = float(published[area].expected_return)
        error = math.sqrt(float(published[area].variance) / n)
        low, high = exact - Z_999 * error, exact + Z_999 * error
        z = (measured - exact) / error
        inside = "yes" if low <= measured <= high else "NO"
        print(f"{area:<14} {measured:>10.5%} {exact:>10.5%} {low:>10.5%}–{high:<10.5%} {z:>+6.2f}  {inside}")


if __name__ == "__main__":
    main()
