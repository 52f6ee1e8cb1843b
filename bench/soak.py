"""Soak benchmark: clients that churn for minutes; what each long-running process keeps, sampled.

    .venv/bin/python bench/soak.py [--clients 60] [--minutes 5] [--port 18800] [--churn 20] [--watchers 6]

Finds what grows without bound in the ASGI server, the Celery worker and beat
when tables run for days (bench/README.md has the method and the figures).
It reuses ``bench/load.py``'s processes, database preparation, browser and bot
(the bots answer exactly as load.py's do), and adds churn:

- every ``--churn`` seconds on average each client does one of: drop its
  socket abruptly (the transport is aborted, no close frame; it reconnects as
  the browser does), leave its table between hands and take another through
  quick start (tables close when their last human leaves and new ones open, so
  table ids keep growing, as over days), or open a spectator socket on another
  table for a few seconds;
- ``--watchers`` clients open and close 百家乐 (baccarat) round sockets on a
  bench banker tier, one after another, half of them closed abruptly.

The ASGI process runs through ``bench/soak_asgi.py``, which writes the sizes of
its per-table, per-user and per-socket structures every ``--every`` seconds;
this script reads the RSS of every process it started (the worker's pool child
included) at the same moments and prints, per series, the first and last value
after the warm-up and the growth extrapolated to an hour (a straight line
through the samples, least squares). Figures, not a test.
"""

# ruff: noqa: E402 - the path is set before the imports, as in bench/load.py
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import argparse
import asyncio
import json
import random
import signal
import tempfile
import time

from bench import load
from bench.load import HOST, Bot, Browser, Processes, Stats

BANKER_TIER_CODE = "bench-soak-banker"


class ChurnBot(Bot):
    """load.py's bot, plus the ability to drop its socket, change tables and peek at another table."""

    def __init__(self, *, tier_id: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.tier_id = tier_id

    def drop(self) -> bool:
        """Cut the socket without a close frame (a phone losing its network); the run loop reconnects."""
        if self.ws is None:
            return False
        self.ws.transport.abort()
        return True

    def between_hands(self) -> bool:
        state = self.state or {}
        hand = state.get("hand")
        view = (hand or {}).get("view") or {}
        return (
            bool(state)
            and (hand is None or view.get("phase") == "finished")
            and (state.get("table", {}).get("status") == "waiting")
        )

    async def move(self) -> bool:
        """Between hands: leave, take a table through quick start, follow it (like a player changing tables)."""
        if not self.between_hands():
            return False
        await self.send({"type": "leave"})
        await asyncio.sleep(0.3)
        try:
            table_id = await asyncio.to_thread(self.browser.quick_start, self.game, self.tier_id)
        except RuntimeError:
            return False
        self.table_id = table_id
        self.drop()  # the read loop follows self.table_id on its next connection
        return True


async def peek(browser: Browser, table_id: int, seconds: float) -> None:
    """A spectator socket on another table for a while, then a clean close."""
    from websockets.asyncio.client import connect

    url = f"ws://{HOST}:{browser.port}/ws/tables/{table_id}/"
    async with connect(
        url, origin=browser.origin, additional_headers={"Cookie": browser.cookie_header()}
    ) as ws:
        await ws.send('{"type":"resync"}')
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                await asyncio.wait_for(ws.recv(), left)
            except TimeoutError:
                break


async def churn(
    bot: ChurnBot, *, every: float, tables: list[int], counts: dict, stop: asyncio.Event, rng
) -> None:
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), rng.expovariate(1 / every))
            return
        except TimeoutError:
            pass
        kind = rng.choice(("drop", "move", "peek"))
        try:
            if kind == "drop":
                done = bot.drop()
            elif kind == "move":
                done = await bot.move()
            else:
                others = [t for t in tables if t != bot.table_id] or tables
                await peek(bot.browser, rng.choice(others), rng.uniform(1, 5))
                done = True
        except Exception:  # noqa: BLE001 - a failed churn step is counted, the run goes on
            kind, done = kind + "_failed", True
        if done:
            counts[kind] = counts.get(kind, 0) + 1
        if bot.table_id not in tables:
            tables.append(bot.table_id)


async def watcher(browser: Browser, table_id: int, *, counts: dict, stop: asyncio.Event, rng) -> None:
    """Open a round socket, watch (and now and then bet) for a few seconds, close it; again and again."""
    from websockets.asyncio.client import connect

    url = f"ws://{HOST}:{browser.port}/ws/rounds/{table_id}/"
    bet_seq = 0
    while not stop.is_set():
        try:
            async with connect(
                url, origin=browser.origin, additional_headers={"Cookie": browser.cookie_header()}
            ) as ws:
                deadline = time.monotonic() + rng.uniform(2, 8)
                while (left := deadline - time.monotonic()) > 0 and not stop.is_set():
                    try:
                        message = json.loads(await asyncio.wait_for(ws.recv(), left))
                    except TimeoutError:
                        break
                    phase = ((message.get("round") or {}) if message.get("type") == "state" else {}).get(
                        "phase"
                    )
                    if phase == "betting" and rng.random() < 0.2:
                        bet_seq += 1
                        area = rng.choice(("player", "banker"))
                        await ws.send(json.dumps({"type": "bet", "seq": bet_seq, "area": area, "amount": 10}))
                if rng.random() < 0.5:
                    ws.transport.abort()
                    counts["round_abort"] = counts.get("round_abort", 0) + 1
                else:
                    counts["round_close"] = counts.get("round_close", 0) + 1
        except Exception:  # noqa: BLE001 - the socket died: open the next one
            counts["round_failed"] = counts.get("round_failed", 0) + 1
            await asyncio.sleep(0.5)


def banker_prepare() -> tuple[int, int]:
    """A bench 百家乐 tier and its open table (tier id, table id)."""
    from django.contrib.auth import get_user_model

    from rooms.models import Game, RoomTier
    from rooms.rounds.services import round_enter

    game = Game.objects.get(slug="baccarat")
    tier, _ = RoomTier.objects.update_or_create(
        game=game,
        code=BANKER_TIER_CODE,
        defaults={
            "name": "Soak bench",
            "base_stake": 10,
            "minimum_rule": RoomTier.MinimumRule.FIXED,
            "fixed_minimum": 100,
            "rake_bps": 0,
            "options": {"variant": "commission"},
            "is_open": True,
            "sort_order": 99,
        },
    )
    user = get_user_model().objects.get(username=f"{load.USER_PREFIX}00000")
    return tier.pk, round_enter(tier_id=tier.pk, user=user).pk


def process_rss(procs: Processes) -> dict[str, int]:
    """RSS in KiB of every started process and its children (the worker's pool child apart), by name."""
    groups = {proc.pid: name for name, proc in procs.procs}
    out: dict[str, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            pgrp = int(fields[2])
            if pgrp not in groups:
                continue
            name = groups[pgrp] if int(entry.name) == pgrp else f"{groups[pgrp]}-child"
            out[name] = out.get(name, 0) + load_rss(entry.name)
        except (OSError, IndexError, ValueError):
            continue
    return out


def load_rss(pid: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def slope_per_hour(points: list[tuple[float, float]]) -> float | None:
    if len(points) < 3:
        return None
    n = len(points)
    mt = sum(t for t, _ in points) / n
    mv = sum(v for _, v in points) / n
    var = sum((t - mt) ** 2 for t, _ in points)
    if var == 0:
        return None
    return sum((t - mt) * (v - mv) for t, v in points) / var * 3600


async def clients_run(args, *, tier_id: int, banker_table: int, names: list[str], procs, probe: Path) -> dict:
    rng = random.Random(args.seed)
    stop = asyncio.Event()
    stats = Stats()
    counts: dict = {}
    gate = asyncio.Semaphore(8)
    bots: list[ChurnBot] = []
    tables: list[int] = []
    tasks: list[asyncio.Task] = []
    players, watchers = names[: args.clients], names[args.clients :]

    async def join(name: str) -> None:
        browser = Browser(args.port)
        async with gate:
            await asyncio.to_thread(browser.sign_in, name)
            table_id = await asyncio.to_thread(browser.quick_start, args.game, tier_id)
        bot = ChurnBot(
            name=name, game=args.game, browser=browser, table_id=table_id, stats=stats,
            rng=random.Random(rng.getrandbits(64)), tier_id=tier_id,
        )  # fmt: skip
        bots.append(bot)
        if table_id not in tables:
            tables.append(table_id)
        tasks.append(asyncio.create_task(bot.run(stop)))

    async def watch(name: str) -> None:
        browser = Browser(args.port)
        async with gate:
            await asyncio.to_thread(browser.sign_in, name)
        tasks.append(
            asyncio.create_task(
                watcher(
                    browser, banker_table, counts=counts, stop=stop, rng=random.Random(rng.getrandbits(64))
                )
            )
        )

    await asyncio.gather(*(join(n) for n in players), *(watch(n) for n in watchers))
    for bot in bots:
        tasks.append(
            asyncio.create_task(
                churn(
                    bot,
                    every=args.churn,
                    tables=tables,
                    counts=counts,
                    stop=stop,
                    rng=random.Random(rng.getrandbits(64)),
                )
            )
        )
    print(
        f"{len(bots)} players at {len(tables)} tables and {len(watchers)} round watchers; running {args.minutes} min"
    )
    samples: list[dict] = []
    started = time.monotonic()
    end = started + args.minutes * 60
    seen = 0
    while time.monotonic() < end:
        await asyncio.sleep(args.every)
        procs.check_alive()
        lines = probe.read_text().splitlines() if probe.exists() else []
        inner = json.loads(lines[-1]) if len(lines) > seen else {}
        seen = len(lines)
        row = {
            "t": round(time.monotonic() - started, 1),
            "rss_kb": process_rss(procs),
            "asgi": inner,
            "churn": dict(counts),
            "tables_seen": len(tables),
            "disconnects": stats.disconnects,
            "load": load.load_average(),
        }
        samples.append(row)
        brief = {k: inner.get(k) for k in ("table_locks", "tables_clocked", "layer_channels", "layer_queued",
                                           "consumers_alive", "sockets_counted", "kept_plays", "tasks")}  # fmt: skip
        print(f"t={row['t']:6.0f}s rss={row['rss_kb']} {brief} churn={counts} load={row['load']}", flush=True)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"samples": samples, "errors": dict(stats.errors_total), "tables_seen": len(tables)}


def summarise(samples: list[dict], warmup: float) -> dict:
    """First and last value after the warm-up, and a least-squares growth per hour, of every series."""
    kept = [s for s in samples if s["t"] >= warmup] or samples
    series: dict[str, list[tuple[float, float]]] = {}
    for s in kept:
        for name, kb in s["rss_kb"].items():
            series.setdefault(f"rss_kb:{name}", []).append((s["t"], kb))
        for key, value in s["asgi"].items():
            if isinstance(value, (int, float)) and key != "t":
                series.setdefault(f"asgi:{key}", []).append((s["t"], value))
    return {
        name: {"first": points[0][1], "last": points[-1][1], "per_hour": slope_per_hour(points)}
        for name, points in sorted(series.items())
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--clients", type=int, default=60, help="seated clients (rounded down to whole tables)"
    )
    parser.add_argument(
        "--watchers", type=int, default=6, help="clients opening and closing 百家乐 round sockets"
    )
    parser.add_argument("--minutes", type=float, default=5)
    parser.add_argument("--warmup", type=float, default=60, help="seconds left out of the growth figures")
    parser.add_argument("--every", type=float, default=10, help="seconds between samples")
    parser.add_argument("--churn", type=float, default=20, help="mean seconds between a client's churn steps")
    parser.add_argument("--game", default="doudizhu")
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--port", type=int, default=18800)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--tracemalloc", action="store_true", help="the ASGI probe also reports allocation growth"
    )
    parser.add_argument(
        "--json", type=Path, default=None, help="also write every sample and the summary here"
    )
    args = parser.parse_args()
    args.clients -= args.clients % args.seats

    env = load.stack_env("soak")
    logdir = Path(tempfile.mkdtemp(prefix="cardroom-soak-"))
    probe = logdir / "asgi-probe.jsonl"
    procs = Processes(env, logdir)
    signal.signal(signal.SIGTERM, load._interrupt)
    try:
        print(load.stack_banner(env, logdir))
        load.stack_database(env)
        tiers, names = load.data_prepare(
            game=args.game, clients=args.clients + args.watchers, seats=args.seats
        )
        # load.py returns a list of tier ids since its 百家乐 mode; one tier before.
        tier_id = tiers[0] if isinstance(tiers, list) else tiers
        _banker_tier, banker_table = banker_prepare()
        worker_name = procs.start_celery(env["CELERY_QUEUE"])
        asgi = [
            "bench/soak_asgi.py",
            "--port",
            str(args.port),
            "--probe",
            str(probe),
            "--every",
            str(args.every),
        ]
        procs.start("asgi", asgi + (["--tracemalloc"] if args.tracemalloc else []))
        load.servers_wait([args.port], procs)
        load.worker_wait(worker_name, procs)
        run = load.event_loop_run(
            clients_run(
                args, tier_id=tier_id, banker_table=banker_table, names=names, procs=procs, probe=probe
            )
        )
        summary = summarise(run["samples"], args.warmup)
        print(f"\nsoak: {args.clients} players, {args.watchers} round watchers, {args.minutes} min, "
              f"{run['tables_seen']} tables seen; errors {run['errors'] or 'none'}")  # fmt: skip
        print(f"  {'series':32} {'first':>12} {'last':>12} {'per hour':>14}")
        for name, row in summary.items():
            per_hour = "" if row["per_hour"] is None else f"{row['per_hour']:+.0f}"
            print(f"  {name:32} {row['first']:>12} {row['last']:>12} {per_hour:>14}")
        check = load.manage(env, "ledger_check", check=False)
        ledger = (check.stdout.strip() or check.stderr.strip()).splitlines()[-1:] or ["(no output)"]
        print(f"  ledger_check: {ledger[0]}")
        if args.json:
            args.json.write_text(json.dumps({"args": vars(args) | {"json": str(args.json)}, **run, "summary": summary,
                                             "ledger_check": ledger[0]}, indent=1, default=str))  # fmt: skip
        return 0 if check.returncode == 0 else 1
    except KeyboardInterrupt:
        print("\ninterrupted; stopping everything the benchmark started")
        return 130
    finally:
        procs.stop()


if __name__ == "__main__":
    sys.exit(main())
