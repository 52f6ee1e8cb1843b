"""Deal 保险楚汉德州 (Insured Chu-Han Hold'em) coups and measure what each street's bets return.

Run from the project root:

    .venv/bin/python bench/chuhan_insured_returns.py [--coups 20000] [--seed TEXT] [--margin-bps 500]

Each coup is dealt by the engine as the round runtime deals it (``InsuredChuhanEngine.deal``
on a shoe from ``SeededRng``), one coin is bet on 楚, 汉 and 平 of every street that takes
bets (a skipped street takes none), and each bet is paid by ``engine.payout``. It prints,
per street and area: bets placed, the mean return per coin with a 95 % interval, and the
mean of the exact expected return (``rules.expected_return`` at the odds offered), which the
interval should hold; every later-street bet expects at most 1 − margin. About 2 ms a coup.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
import time
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.base import SeededRng  # noqa: E402
from games.chuhan_insured import rules  # noqa: E402
from games.chuhan_insured.engine import DEFAULT_OPTIONS, InsuredChuhanEngine  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coups", type=int, default=20_000)
    parser.add_argument("--seed", default="insured")
    parser.add_argument("--margin-bps", type=int, default=500)
    args = parser.parse_args()
    engine = InsuredChuhanEngine()
    config = {**DEFAULT_OPTIONS, "margin_bps": args.margin_bps, "coups_per_shoe": 100}
    margin = Fraction(args.margin_bps, 10000)
    returns: dict[tuple[int, str], list[float]] = defaultdict(list)
    expected: dict[tuple[int, str], list[float]] = defaultdict(list)
    first = rules.first_street_chances()
    first_odds = rules.street_odds(1, first, margin)
    started, dealt, shoe_number = time.perf_counter(), 0, 0
    while dealt < args.coups:
        seed = hashlib.sha256(f"{args.seed}/{shoe_number}".encode()).digest()
        shoe = engine.new_shoe(config, SeededRng(seed, "shoe"))
        shoe_number += 1
        while not engine.shoe_finished(shoe) and dealt < args.coups:
            result, shoe = engine.deal(config, shoe)
            dealt += 1
            for side in rules.SIDES:
                returns[(1, side)].append(1 + engine.payout(config, result, side, 100) / 100)
                expected[(1, side)].append(float(rules.expected_return(1, side, first, first_odds[side])))
            han, chu, board = result["han"], result["chu"], result["board"]
            for window in engine.betting_windows(config, result):
                street = window["street"]
                chances = rules.street_chances(han, chu, board[: rules.BOARD_SHOWN[street]])
                for area in window["areas"]:
                    if not area["open"]:
                        continue
                    side = area["area"].split("_")[0]
                    odds = Fraction(result["streets"][str(street)]["odds"][side], 100)
                    returns[(street, side)].append(1 + engine.payout(config, result, area["area"], 100) / 100)
                    expected[(street, side)].append(float(rules.expected_return(street, side, chances, odds)))
    seconds = time.perf_counter() - started
    print(f"{dealt:,} coups in {seconds:.1f} s ({dealt / seconds:,.0f}/s), margin {float(margin):.2%}")
    print(f"{'street':<8}{'area':<6}{'bets':>9}{'return':>10}{'95% interval':>22}{'expected':>10}  held")
    for (street, side), values in sorted(returns.items()):
        n = len(values)
        mean = sum(values) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / max(n - 1, 1))
        half = 1.96 * sd / math.sqrt(n)
        exp = sum(expected[(street, side)]) / n
        held = "yes" if abs(exp - mean) <= half else "NO"
        print(
            f"{street:<8}{side:<6}{n:>9,}{mean:>10.4f}{f'[{mean - half:.4f}, {mean + half:.4f}]':>22}{exp:>10.4f}  {held}"
        )


if __name__ == "__main__":
    main()
