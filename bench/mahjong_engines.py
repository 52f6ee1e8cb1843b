"""Measure the mahjong core: 血战 and 推倒胡 playouts and ``waits``, beside two peers.

Run from the project root:

    .venv/bin/python bench/mahjong_engines.py [--hands N] [--seconds S]

1. ``--hands`` (default 2,000) hands of each variant played by the keen player of
   ``games/tests/mahjong_helpers.py`` (wins, kongs and pungs when it can), counting
   what the rules are about: 碰, each kind of 杠, 抢杠胡, 一炮多响, wins by 自摸 and on a
   discard, drawn ends, 呼叫转移, 查花猪 and 查大叫. Coins are checked every hand.
2. Random legal playouts per second (``games.testing.random_playout``) of each variant,
   and in the same run RLCard's simplified ``MahjongGame`` (random legal play, no fan,
   no wild) for ``--seconds`` each.
3. ``waits`` on random 13-tile hands against the ``mahjong`` package's ``Agari`` check
   of every tile added to the same hands.

The peers are installed only for the benchmark into bench/engines.py's cache folder
(never a project dependency); one that cannot be installed is reported as such.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.engines import ensure_peers, timed_cpu  # noqa: E402
from games.base import SeatSpec  # noqa: E402
from games.mahjong.tiles import TILES, waits, wall  # noqa: E402
from games.testing import random_playout  # noqa: E402
from games.tests.mahjong_helpers import keen_playouts  # noqa: E402
from games.tuidaohu import ENGINE as TUIDAOHU  # noqa: E402
from games.xuezhan import ENGINE as XUEZHAN  # noqa: E402

SEED = 20261207
CONFIG = {"base_stake": 10}
EVENTS = (
    "pung",
    "kong exposed",
    "kong concealed",
    "kong added",
    "robbed kong",
    "wins sharing a discard",
    "self-drawn win",
    "win on a discard",
    "ended won",
    "ended drawn",
    "transfer",
    "pig",
    "ready",
)


def our_playout(engine):
    seats = [SeatSpec(i + 1, 100_000) for i in range(4)]
    choices = random.Random(SEED)

    def play(i: int) -> object:
        return random_playout(engine, CONFIG, seats, SEED + i, choices)

    return play


def rlcard_playout():
    import numpy as np
    from rlcard.games.mahjong.game import MahjongGame

    game = MahjongGame()
    game.np_random = np.random.RandomState(SEED)
    choices = random.Random(SEED)

    def play(_i: int) -> object:
        state, _player = game.init_game()
        while not game.is_over():
            state, _player = game.step(choices.choice(game.get_legal_actions(state)))
        return game

    return play


def random_hands(count: int) -> list[list[str]]:
    rng = random.Random(SEED)
    tiles = wall(honors=True)
    return [rng.sample(tiles, 13) for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()

    for engine in (XUEZHAN, TUIDAOHU) if args.hands else ():
        start = time.perf_counter()
        seen = keen_playouts(engine, CONFIG, args.hands, 7)
        took = time.perf_counter() - start
        print(f"{engine.variant}: {seen['hands']} keen hands in {took:.1f} s")
        for event in EVENTS:
            print(f"  {event:24} {seen[event]}")

    error = ensure_peers(["numpy", "rlcard", "mahjong"])
    print()
    for name, engine in (("血战 xuezhan", XUEZHAN), ("推倒胡 tuidaohu", TUIDAOHU)):
        calls, _wall, cpu = timed_cpu(our_playout(engine), args.seconds)
        print(f"{name} random playouts: {calls / cpu:8.1f} hands per CPU second")
    if error:
        print(f"RLCard MahjongGame: not measured ({error})")
    else:
        calls, _wall, cpu = timed_cpu(rlcard_playout(), args.seconds)
        print(f"RLCard MahjongGame random playouts: {calls / cpu:8.1f} hands per CPU second")

    hands = random_hands(2000)
    start = time.process_time()
    ours = [waits(h) for h in hands]
    ours_rate = len(hands) / (time.process_time() - start)
    print(f"\nwaits on random 13-tile hands: {ours_rate:8.0f} hands per CPU second")
    if not error:
        from mahjong.agari import Agari

        agari = Agari()
        start = time.process_time()
        theirs = []
        for h in hands:
            counts = [0] * 34
            for t in h:
                counts[TILES.index(t)] += 1
            found = []
            for i in range(34):
                if counts[i] < 4:
                    counts[i] += 1
                    if agari.is_agari(counts):
                        found.append(TILES[i])
                    counts[i] -= 1
            theirs.append(found)
        rate = len(hands) / (time.process_time() - start)
        print(f"mahjong package Agari, every tile added: {rate:8.0f} hands per CPU second")
        # Agari also knows 十三幺, which ``waits`` leaves out unless asked (orphans=True).
        agree = sum(o == t for o, t in zip(ours, theirs, strict=True))
        print(f"the two agree on {agree} of {len(hands)} hands")


if __name__ == "__main__":
    main()
