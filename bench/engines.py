"""Measure the game engines: random legal playouts per second, side by side with peers.

Run from the project root:

    .venv/bin/python bench/engines.py [--seconds N] [--rounds R] [--profile]

For every game in ``games.REGISTRY`` it plays seeded random legal hands (the
same loop as ``games.testing.random_playout``; for a banker-family game, whole
shoes as ``games.testing.banker_playout`` deals them; for a solo-family game,
provably fair spins with a double-up on each win) for ``--seconds`` and
reports hands (shoes) per second. In the same run it times two peers, installed only for the
benchmark into a cache folder outside the repository (never a project
dependency): RLCard's raw ``DoudizhuGame`` (random legal play until
``is_over``, no environment encoding) against our 斗地主 (Dou Dizhu), and
treys' ``Evaluator.evaluate`` against ``games.texas.rules.hand_rank`` on the
same random 7-card sets. A peer that cannot be installed is reported as such;
our own figures are still printed. ``--profile`` adds a cProfile of the 斗地主
playout (top functions by cumulative time).

The 斗地主 comparison is alternated: ``--rounds`` rounds (default 5), each
timing our playouts and RLCard's for ``--seconds`` apiece, every measurement
in a fresh Python process (neither side runs on a heap or CPU caches the
other left, and the sides meet the same minutes of a shared host; their
order turns by one side each round). It reports the medians of the wall
rate and of the CPU-time rate (``time.process_time``, which other work on
the host moves less) and the median of the per-round wall ratios. A third
side, RLCard listing legal moves alone, is timed in the same rounds and
reported beside the headline (see ``rlcard_playout``).
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import json
import pstats
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import REGISTRY  # noqa: E402
from games.base import SeatSpec  # noqa: E402
from games.testing import banker_playout, random_playout  # noqa: E402
from games.texas.rules import RANKS, SUITS, hand_rank  # noqa: E402

PEER_DIR = Path("/tmp/cardroom-bench-peers")
# How many seats each game's benchmark table has (a full 斗地主 table, typical ring games).
SEATS = {"doudizhu": 3, "zhajinhua": 5, "texas": 6, "erbagang": 4, "tuitongzi": 4}
SEATS["chexuan"] = 4  # 扯旋: four seats, as its demo rooms
SEATS.update(niuniu=6, tongbi_niuniu=6)  # 牛牛 (抢庄) and 通比牛牛: full six-seat tables
SEATS["suoha"] = 4  # 梭哈: four seats, as its demo rooms
SEATS["shisanshui"] = 4  # 十三水: four seats, as its demo rooms
SEATS["shengji"] = 4  # 升级: two partnerships of two
SEATS["tiandakeng"] = 5  # 填大坑: five seats, as its demo rooms
SEATS.update(xuezhan=4, tuidaohu=4)  # 血战到底 and 推倒胡: mahjong is played by four
SEED = 20261129


def table_config(slug: str) -> dict:
    """Return the config the runtime would pass for a plain tier of ``slug``."""
    info = REGISTRY[slug]
    return {**info.default_options, "base_stake": 10, "room_factor": 10, "first_seat": None}


def timed(work: Callable[[int], object], seconds: float) -> tuple[int, float]:
    """Call ``work(i)`` for i = 1, 2, ... until ``seconds`` pass; return (calls, elapsed).

    ``work(0)`` runs first, untimed, so one-off set-up (lookup tables built on
    first use, imports) is not charged to the rate.
    """
    calls, elapsed, _cpu = timed_cpu(work, seconds)
    return calls, elapsed


def timed_cpu(work: Callable[[int], object], seconds: float) -> tuple[int, float, float]:
    """``timed``, also returning the process's CPU time over the same calls."""
    work(0)
    cpu_start = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    calls = 0
    while True:
        work(calls + 1)
        calls += 1
        now = time.perf_counter()
        if now >= deadline:
            return calls, now - start, time.process_time() - cpu_start


def our_playout(slug: str) -> Callable[[int], object]:
    """Return a function that plays hand ``i`` of ``slug`` with seeded random legal choices.

    A banker-family game (百家乐) has no hands or seats: its "hand" is one whole
    shoe dealt coup by coup with random bets (``games.testing.banker_playout``).
    """
    info = REGISTRY[slug]
    if info.family == "solo":
        return solo_play(slug)
    if info.family == "banker":
        config = dict(info.default_options)
        shoe_choices = random.Random(SEED)

        def play_shoe(i: int) -> object:
            return banker_playout(info.engine, config, f"bench-{slug}-{i}", shoe_choices)

        return play_shoe
    config = table_config(slug)
    n = SEATS.get(slug, info.min_seats)
    seats = [SeatSpec(player_id=p + 1, coins=100_000) for p in range(n)]
    choices = random.Random(SEED)

    def play(i: int) -> object:
        return random_playout(info.engine, config, seats, f"bench-{slug}-{i}", choices)

    return play


def solo_play(slug: str) -> Callable[[int], object]:
    """Return a function that plays spin ``i`` of a one-player game, and one double-up when it wins.

    The draw is the runtime's: the engine's ``spin`` and ``gamble`` from a fixed server seed, a
    client seed and nonce ``i``, at the room's smallest stake.
    """
    engine = REGISTRY[slug].engine
    config = {**REGISTRY[slug].default_options, "base_stake": 20}
    stake = engine.stakes(config)[0]
    rules = engine.gamble_rules(config)
    seed = bytes(range(32))

    def play(i: int) -> object:
        result = engine.spin(config, seed, "bench", i, stake)
        if rules and result["win"]:
            return engine.gamble(
                config, seed, "bench", i, result["win"], rules["picks"][i % len(rules["picks"])]
            )
        return result

    return play


def ensure_peers(packages: list[str]) -> str | None:
    """Install ``packages`` into PEER_DIR unless importable; return an error text or None."""
    if str(PEER_DIR) not in sys.path:
        sys.path.append(str(PEER_DIR))
    missing = []
    for name in packages:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if not missing:
        return None
    print(f"installing benchmark-only peers {missing} into {PEER_DIR} ...", flush=True)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--target", str(PEER_DIR), *missing],
        capture_output=True,
        text=True,
    )
    importlib.invalidate_caches()
    if done.returncode != 0:
        return done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "pip failed"
    return None


def rlcard_playout(lean: bool = False) -> Callable[[int], object]:
    """Return a function that plays one RLCard 斗地主 hand with random legal choices.

    RLCard's ``step`` returns the next seat's state: its legal moves and also its observation
    (its own hand and the other two hands as sorted strings, a copy of the trace), about a
    third of RLCard's time, which our loop has no counterpart of (it never asks for a
    view). ``lean`` replaces the game's ``get_state`` with one that lists the legal moves
    alone, the least RLCard needs to play a hand: reported beside the headline figure.
    """
    import numpy as np
    from rlcard.games.doudizhu.game import DoudizhuGame

    game = DoudizhuGame()
    game.np_random = np.random.RandomState(SEED)
    choices = random.Random(SEED)
    if lean:

        def legal_moves_only(player_id: int) -> dict:
            player = game.players[player_id]
            if game.is_over():
                return {"actions": []}
            return {"actions": list(player.available_actions(game.round.greater_player, game.judger))}

        game.get_state = legal_moves_only

    def play(_i: int) -> object:
        # The raw game returns each state with its legal moves under "actions".
        state, _player = game.init_game()
        while not game.is_over():
            state, _player = game.step(choices.choice(state["actions"]))
        return game

    return play


# The sides of the 斗地主 comparison, each timed in its own process (``--measure``).
DOUDIZHU_SIDES = {
    "ours": lambda: our_playout("doudizhu"),
    "rlcard": lambda: rlcard_playout(),
    "rlcard-lean": lambda: rlcard_playout(lean=True),
}


def measure(side: str, seconds: float) -> dict:
    """Time one side of the 斗地主 comparison in this process; return its wall and CPU rates."""
    if side.startswith("rlcard"):
        error = ensure_peers(["numpy", "rlcard"])
        if error:
            return {"error": error}
    calls, elapsed, cpu = timed_cpu(DOUDIZHU_SIDES[side](), seconds)
    return {"hands": calls, "wall": calls / elapsed, "cpu": calls / cpu if cpu > 0 else None}


def measure_apart(side: str, seconds: float) -> dict:
    """Run ``measure(side, seconds)`` in a fresh Python process and return what it printed."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--measure", side, "--seconds", str(seconds)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = done.stderr.strip().splitlines()
        return {"error": tail[-1] if tail else f"exit {done.returncode}"}
    return json.loads(lines[-1])


def doudizhu_rounds(rounds: int, seconds: float) -> dict:
    """Alternate the 斗地主 sides in fresh processes for ``rounds`` rounds; return their medians.

    The order turns by one side each round, so no side always runs first or last.
    """
    sides = list(DOUDIZHU_SIDES)
    runs: dict[str, list[dict]] = {side: [] for side in sides}
    for i in range(rounds):
        for side in sides[i % len(sides) :] + sides[: i % len(sides)]:
            result = measure_apart(side, seconds)
            if "error" in result:
                return {"error": f"{side}: {result['error']}"}
            runs[side].append(result)
        print(
            f"  斗地主 round {i + 1}: "
            + ", ".join(
                f"{side} {runs[side][-1]['wall']:,.0f}/s (CPU {runs[side][-1]['cpu']:,.0f})" for side in sides
            ),
            flush=True,
        )
    medians = {
        side: {key: statistics.median(r[key] for r in runs[side]) for key in ("wall", "cpu")}
        for side in sides
    }
    ratios = {
        peer: statistics.median(o["wall"] / r["wall"] for o, r in zip(runs["ours"], runs[peer], strict=True))
        for peer in sides[1:]
    }
    return {"medians": medians, "round_ratio": ratios}


def seven_card_sets(count: int) -> list[list[str]]:
    """Return ``count`` seeded random 7-card sets (2 hole cards, then 5 board cards)."""
    deck = [r + s for r in RANKS for s in SUITS]
    rng = random.Random(SEED)
    return [rng.sample(deck, 7) for _ in range(count)]


def evaluations_per_second(evaluate: Callable, data: list, seconds: float) -> float:
    """Evaluate ``data`` round and round for ``seconds``; return evaluations per second."""
    size = len(data)
    start = time.perf_counter()
    deadline = start + seconds
    calls = 0
    while time.perf_counter() < deadline:
        for item in data:
            evaluate(item)
        calls += size
    return calls / (time.perf_counter() - start)


def suggest_timings(hands: int, checked: int) -> dict:
    """Time 十三水's ``suggest`` on ``hands`` random 13-card hands; check ``checked`` of them by brute force.

    The brute force tries all 72,072 splits of each checked hand
    (``games.shisanshui.arrange.brute_force``) and must find the same
    undominated arrangements as the search ``suggest`` uses.
    """
    from games.shisanshui import arrange
    from games.shisanshui.piles import DECK, RANK_OF, SUIT_OF
    from games.shisanshui.rules import suggest

    rng = random.Random(SEED)
    deals = [rng.sample(DECK, 13) for _ in range(hands)]
    suggest(deals[0])  # warm up: nothing one-off is charged to the first hand
    times, cpu = [], []
    for cards in deals:
        start, cpu_start = time.perf_counter(), time.process_time()
        suggest(cards)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - cpu_start)
    times.sort()
    cpu.sort()
    wrong = 0
    for cards in deals[:checked]:
        ordered = sorted(cards, key=lambda c: (RANK_OF[c[0]], SUIT_OF[c[1]]), reverse=True)
        ranks = tuple(RANK_OF[c[0]] for c in ordered)
        suits = tuple(SUIT_OF[c[1]] for c in ordered)
        if {e[:3] for e in arrange.frontier(ranks, suits)} != arrange.brute_force(ranks, suits):
            wrong += 1
    return {
        "hands": hands,
        "median_ms": statistics.median(times) * 1000,
        "p99_ms": times[int(0.99 * (len(times) - 1))] * 1000,
        "max_ms": times[-1] * 1000,
        # CPU time per call: what other work on a shared host moves less than the wall clock.
        "cpu_median_ms": statistics.median(cpu) * 1000,
        "cpu_p99_ms": cpu[int(0.99 * (len(cpu) - 1))] * 1000,
        "checked": checked,
        "wrong": wrong,
    }


def profile_doudizhu(hands: int = 300, top: int = 10) -> str:
    """Profile ``hands`` 斗地主 playouts; return the top functions by cumulative time."""
    play = our_playout("doudizhu")
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(hands):
        play(i)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument(
        "--rounds", type=int, default=5, help="alternated 斗地主 rounds against RLCard (default 5)"
    )
    parser.add_argument("--profile", action="store_true", help="also cProfile the 斗地主 playout")
    parser.add_argument(
        "--suggest-hands", type=int, default=10_000, help="十三水 hands to time suggest on (default 10,000)"
    )
    parser.add_argument(
        "--suggest-checked", type=int, default=1_000, help="of them, checked by brute force (default 1,000)"
    )
    parser.add_argument("--measure", choices=sorted(DOUDIZHU_SIDES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:  # one side of the 斗地主 comparison, in a process of its own
        print(json.dumps(measure(args.measure, args.seconds)))
        return

    rows: list[tuple[str, float, str, float | None]] = []
    ours: dict[str, float] = {}
    for slug in REGISTRY:
        if slug == "doudizhu":
            continue  # timed below, alternated with RLCard in fresh processes
        calls, elapsed = timed(our_playout(slug), args.seconds)
        ours[slug] = calls / elapsed
        print(f"  {slug}: {calls} hands in {elapsed:.2f} s", flush=True)

    peer_error = ensure_peers(["numpy", "rlcard", "treys"])
    doudizhu: dict | None = None
    if peer_error:
        print(f"peers unavailable ({peer_error}); reporting our own figures only")

    for slug, info in REGISTRY.items():
        if info.family == "solo":
            label = f"{info.name_zh} {slug} spins (a double-up on each win)"
        elif info.family == "banker":
            label = f"{info.name_zh} {slug} shoes (to the cut card)"
        else:
            label = f"{info.name_zh} {slug} playouts ({SEATS.get(slug, info.min_seats)} seats)"
        if slug == "doudizhu":
            rounds = doudizhu_rounds(args.rounds, args.seconds) if not peer_error else None
            if rounds is None or "error" in rounds:
                calls, elapsed = timed(our_playout(slug), args.seconds)
                reason = peer_error or rounds["error"]
                rows.append((label, calls / elapsed, f"RLCard unavailable: {reason}", None))
            else:
                doudizhu = rounds
                med = rounds["medians"]
                rows.append((label, med["ours"]["wall"], "RLCard DoudizhuGame", med["rlcard"]["wall"]))
                rows.append(
                    (label, med["ours"]["wall"], "RLCard, legal moves only", med["rlcard-lean"]["wall"])
                )
        else:
            rows.append((label, ours[slug], "-", None))

    sets = seven_card_sets(20_000)
    our_eval = evaluations_per_second(hand_rank, sets, args.seconds)
    try:
        from treys import Card, Evaluator

        evaluator = Evaluator()
        # Card conversion stays outside the timing: each library scores its own card type.
        theirs = [([Card.new(c) for c in s[:2]], [Card.new(c) for c in s[2:]]) for s in sets]
        peer_eval = evaluations_per_second(lambda hb: evaluator.evaluate(hb[0], hb[1]), theirs, args.seconds)
        rows.append(("7-card hold'em evaluation", our_eval, "treys Evaluator", peer_eval))
    except Exception as exc:  # any peer failure is reported, not fatal
        rows.append(("7-card hold'em evaluation", our_eval, f"treys unavailable: {exc}", None))

    print()
    print(f"{'game':<42} {'ours /s':>12}  {'peer':<22} {'peer /s':>12} {'ratio':>7}")
    for label, mine, peer, theirs in rows:
        peer_rate = f"{theirs:>12,.0f}" if theirs else f"{'':>12}"
        ratio = f"{mine / theirs:>6.1f}x" if theirs else f"{'':>7}"
        print(f"{label:<42} {mine:>12,.0f}  {peer:<22} {peer_rate} {ratio}")
    if doudizhu:
        med, ratio = doudizhu["medians"], doudizhu["round_ratio"]
        print(f"\n斗地主, medians of {args.rounds} alternated rounds, each side in a fresh process:")
        for peer, name in (("rlcard", "RLCard DoudizhuGame"), ("rlcard-lean", "RLCard, legal moves only")):
            print(
                f"  against {name}: wall {med['ours']['wall']:,.0f} against {med[peer]['wall']:,.0f}/s"
                f" ({med['ours']['wall'] / med[peer]['wall']:.1f}x, per-round median {ratio[peer]:.1f}x),"
                f" CPU time {med['ours']['cpu']:,.0f} against {med[peer]['cpu']:,.0f}/s"
                f" ({med['ours']['cpu'] / med[peer]['cpu']:.1f}x)"
            )
    arranging = suggest_timings(args.suggest_hands, args.suggest_checked)
    print(
        f"\n十三水 suggest over {arranging['hands']:,} random hands: median {arranging['median_ms']:.2f} ms,"
        f" p99 {arranging['p99_ms']:.2f} ms, max {arranging['max_ms']:.2f} ms (CPU time: median"
        f" {arranging['cpu_median_ms']:.2f} ms, p99 {arranging['cpu_p99_ms']:.2f} ms);"
        f" {arranging['checked']:,} checked against all 72,072 splits, {arranging['wrong']} wrong"
    )
    print(
        "\ntargets (reported, not asserted): 斗地主 >= 10x RLCard, hold'em evaluation >= 4x treys,"
        " 十三水 suggest median < 5 ms and p99 < 20 ms"
    )

    if args.profile:
        print("\n斗地主 playout profile (top 10 by cumulative time):")
        print(profile_doudizhu())


if __name__ == "__main__":
    main()
