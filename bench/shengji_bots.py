"""The 升级 bot check: four bots play 1,000 hands; every follow is checked with ``rules.legal_follow``.

Run from the project root: ``.venv/bin/python bench/shengji_bots.py [--hands N]``. Each hand
also checks that the face points taken and the 底牌's make 200 and that the coins balance
(``games.shengji.selfplay``). It prints how the hands ended and the hands per second.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.shengji import selfplay  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1000)
    args = parser.parse_args()
    started = time.perf_counter()
    ended = selfplay.run(args.hands)
    elapsed = time.perf_counter() - started
    for (side, levels), count in sorted(ended.items()):
        print(f"{side:>9} +{levels}: {count}")
    print(
        f"{args.hands} hands, no illegal follow, 200 points and coins conserved ({args.hands / elapsed:.1f} hands/s)"
    )


if __name__ == "__main__":
    main()
