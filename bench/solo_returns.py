"""Simulate a one-player (solo family) game's plays and compare the measured returns with the published ones.

Run from the project root:

    .venv/bin/python bench/solo_returns.py [--game duocaiduofu] [--plays 10000000] [--workers 2]

Each spin is drawn exactly as the runtime draws it (the engine's ``spin`` from a server seed, a
client seed and the nonce) at the room's smallest stake, with the fee of ``--rake-bps`` (500 = 5%
of each play's profit, as the demo rooms) taken as the runtime takes it (``apply_rake``). A game
with a double-up also plays ``--plays`` double-ups of that stake, each on a pick drawn from a
seeded stream. For each kind it prints the mean return per staked coin, its 99.9% confidence
interval (mean ± 3.29 standard errors of the per-play return) and the published exact figure
(``SoloEngine.returns``), and exits 1 when a published figure lies outside its interval.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import REGISTRY  # noqa: E402
from games.base import SeededRng, apply_rake  # noqa: E402

Z = 3.29  # two-sided 99.9%
SEED = bytes(range(32))


def _chunk(job: tuple[str, str, int, int, int, int]) -> tuple[int, int, int]:
    """Play nonces ``start``..``stop``−1 of one kind; return (plays, coins back, Σ coins back²)."""
    slug, kind, start, stop, base_stake, rake_bps = job
    info = REGISTRY[slug]
    engine = info.engine
    config = {**info.default_options, "base_stake": base_stake}
    stake = engine.stakes(config)[0]
    n = back = square = 0
    if kind == "spin":
        for nonce in range(start, stop):
            win = engine.spin(config, SEED, "bench", nonce, stake)["win"]
            (net,), _fee = apply_rake([win - stake], rake_bps)
            n += 1
            back += stake + net
            square += (stake + net) ** 2
    else:
        picks = engine.gamble_rules(config)["picks"]
        chooser = SeededRng(SEED, f"bench-picks-{start}")
        for nonce in range(start, stop):
            pick = picks[chooser.randbelow(len(picks))]
            win = engine.gamble(config, SEED, "bench", nonce, stake, pick)["win"]
            (net,), _fee = apply_rake([win - stake], rake_bps)
            n += 1
            back += stake + net
            square += (stake + net) ** 2
    return n, back, square


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="duocaiduofu")
    parser.add_argument("--plays", type=int, default=10_000_000, help="spins, and as many double-ups")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--base-stake", type=int, default=20)
    parser.add_argument("--rake-bps", type=int, default=500)
    args = parser.parse_args()
    info = REGISTRY.get(args.game)
    if info is None or info.family != "solo":
        parser.error(f"{args.game} is not a one-player game")
    config = {**info.default_options, "base_stake": args.base_stake}
    stake = info.engine.stakes(config)[0]
    published = info.engine.returns(config, args.rake_bps)
    kinds = ["spin"] + (["gamble"] if info.engine.gamble_rules(config) else [])
    step = max(1, args.plays // (args.workers * 10))
    ok = True
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for kind in kinds:
            jobs = [
                (args.game, kind, s, min(s + step, args.plays), args.base_stake, args.rake_bps)
                for s in range(0, args.plays, step)
            ]
            started = time.perf_counter()
            n = back = square = 0
            for part_n, part_back, part_square in pool.map(_chunk, jobs):
                n, back, square = n + part_n, back + part_back, square + part_square
            elapsed = time.perf_counter() - started
            mean = back / n / stake
            sd = math.sqrt(max(square / n / stake**2 - mean * mean, 0.0))
            low, high = mean - Z * sd / math.sqrt(n), mean + Z * sd / math.sqrt(n)
            exact = Fraction(published[kind]["exact"])
            inside = low <= exact <= high
            ok &= inside
            print(
                f"{info.name_zh} {args.game} {kind}: {n:,} plays of {stake} in {elapsed:.1f} s;"
                f" measured {mean * 100:.4f}% (99.9% interval {low * 100:.4f}% to {high * 100:.4f}%),"
                f" published {float(exact) * 100:.4f}% = {exact}: {'inside' if inside else 'OUTSIDE'}",
                flush=True,
            )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
