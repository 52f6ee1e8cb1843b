"""What this host can serve at all: the load bench's clients against tables held in memory.

    .venv/bin/python bench/ceiling.py [--clients 60] [--seconds 20] [--servers 1]

``bench/load.py``'s 斗地主 clients (``bench.load.Bot``: the same frames, seq
rule, random legal play and act → broadcast latency) play against
``bench/ceiling_server.py``: uvicorn with the real engine, each seat's view
and 提示 hint and compact JSON frames as the platform sends them, but no
database, no Redis, no channel layer, no sessions, no clock and no
settlement. With ``--servers N`` the tables are spread over N processes, all
seats of a table on the table's process (the table-owner design at its best:
nothing forwarded between processes). What it prints (actions per second,
latency percentiles, CPU per action of the server processes and of the
clients) is therefore a ceiling for any design of the platform on this host,
for comparison with ``bench/load.py``'s figures in the same minutes.

``--durable`` adds what a table-owner design must still pay: every change is
group-committed to PostgreSQL (its action and its table's jsonb state, in
the bench's own database ``cardroom_ceiling``) before its frames are sent;
the run then checks that every change each table numbered is in the
database, in order, and reports the commits and their size.
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
import os
import random
import signal
import tempfile
import time

from bench.load import (
    HOST,
    Bot,
    CpuWindow,
    Processes,
    Stats,
    _interrupt,
    database_ensure,
    deflate_argument,
    event_loop_run,
    latency_figures,
    load_average,
    quiet_options,
    servers_wait,
)

SEATS = 3
DEFAULT_DATABASE_URL = "postgres://root@127.0.0.1:5432/cardroom_ceiling"
SCHEMA = (
    "DROP TABLE IF EXISTS ceiling_action, ceiling_hand",
    "CREATE TABLE ceiling_hand (table_id integer PRIMARY KEY, number integer NOT NULL,"
    " seq integer NOT NULL, state jsonb)",
    "CREATE TABLE ceiling_action (id bigserial PRIMARY KEY, table_id integer NOT NULL,"
    " number integer NOT NULL, seq integer NOT NULL, seat integer NOT NULL, action jsonb NOT NULL,"
    " UNIQUE (table_id, seq))",
)


def database_prepare(url: str) -> None:
    import psycopg

    database_ensure(url)
    with psycopg.connect(url, autocommit=True) as conn:
        for statement in SCHEMA:
            conn.execute(statement)


def commits(url: str) -> int:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")
        return int(row.fetchone()[0])


def database_check(url: str) -> dict:
    """Every table's committed changes: numbered 1, 2, … without a gap, the table's row at the last one."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT a.table_id, count(*), min(a.seq), max(a.seq), h.seq FROM ceiling_action a"
            " JOIN ceiling_hand h USING (table_id) GROUP BY a.table_id, h.seq"
        ).fetchall()
    broken = [r[0] for r in rows if not (r[1] == r[3] and r[2] == 1 and r[4] == r[3])]
    return {"tables": len(rows), "changes": sum(r[1] for r in rows), "broken_tables": broken}


class SeatCookie:
    """What ``Bot`` needs of its ``Browser``: the server's port and origin, and a cookie naming its seat."""

    def __init__(self, port: int, table: int, seat: int) -> None:
        self.port = port
        self.origin = f"http://{HOST}:{port}"
        self.cookie = f"ceiling={table}:{seat}"

    def cookie_header(self) -> str:
        return self.cookie


async def clients_run(args, ports: list[int], stats: Stats, procs: Processes) -> dict:
    rng = random.Random(args.seed)
    stop = asyncio.Event()
    bots: list[Bot] = []
    tasks = []
    for i in range(args.clients):
        table, seat = divmod(i, SEATS)
        browser = SeatCookie(ports[table % len(ports)], table + 1, seat)
        bot = Bot(
            name=f"ceiling-{i}",
            game="doudizhu",
            browser=browser,
            table_id=table + 1,
            stats=stats,
            rng=random.Random(rng.getrandbits(64)),
        )
        bots.append(bot)
        tasks.append(asyncio.create_task(bot.run(stop)))
    await asyncio.wait_for(asyncio.gather(*(bot.connected.wait() for bot in bots)), 60)
    print(f"{len(bots)} clients at {args.clients // SEATS} tables connected; warming up {args.warmup} s")
    await asyncio.sleep(args.warmup)
    procs.check_alive()
    commits_before = await asyncio.to_thread(commits, args.database) if args.durable else None
    window = CpuWindow(procs.cpu_seconds())
    clients_cpu = time.process_time()
    load_before = load_average()
    stats.measuring = True
    started = time.perf_counter()
    end = started + args.seconds
    while (left := end - time.perf_counter()) > 0:
        await asyncio.sleep(min(left, 1.0))
        window.add(procs.cpu_seconds())
    stats.measuring = False
    elapsed = time.perf_counter() - started
    commits_during = (
        await asyncio.to_thread(commits, args.database) - commits_before if args.durable else None
    )
    cpu = window.used()
    cpu["clients (this process)"] = time.process_time() - clients_cpu
    load_after = load_average()
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.sleep(1)  # the last batch commits
    check = await asyncio.to_thread(database_check, args.database) if args.durable else None
    return {
        "elapsed": elapsed,
        "cpu": cpu,
        "load_before": load_before,
        "load_after": load_after,
        "commits": commits_during,
        "check": check,
    }


def report(args, stats: Stats, run: dict) -> dict:
    elapsed = run["elapsed"]
    actions = stats.accepted
    figures = {
        "clients": args.clients,
        "tables": args.clients // SEATS,
        "servers": args.servers,
        "seconds": round(elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
        "latency_ms": latency_figures(stats),
        "hands_per_second": round(stats.results / SEATS / elapsed, 1),
        "errors": dict(stats.errors),
        "seq_gaps": stats.gaps,
        "seq_backwards": stats.decreasing,
        "cpu_ms_per_action": {
            name: round(seconds * 1000 / actions, 2) if actions else None
            for name, seconds in run["cpu"].items()
        },
        "load_average": [run["load_before"], run["load_after"]],
        "durable": args.durable,
    }
    if args.durable:
        figures["commits_per_second"] = round(run["commits"] / elapsed, 1)
        figures["actions_per_commit"] = round(actions / run["commits"], 1) if run["commits"] else None
        figures["database_check"] = run["check"]
    lat = figures["latency_ms"]
    print(
        f"\n{figures['actions_per_second']} actions/s over {figures['seconds']} s "
        f"({figures['tables']} tables, {args.servers} server process(es), "
        + ("moves group-committed to PostgreSQL, " if args.durable else "no database, ")
        + "no Redis)\n"
        f"act → broadcast p50 {lat['p50']} ms, p95 {lat['p95']} ms, p99 {lat['p99']} ms, max {lat['max']} ms\n"
        f"hands finished {figures['hands_per_second']}/s; errors {figures['errors'] or 'none'}; "
        f"seq gaps {stats.gaps}, backwards {stats.decreasing}\n"
        f"CPU per action (ms): "
        + ", ".join(f"{k} {v}" for k, v in figures["cpu_ms_per_action"].items())
        + f"\nload average {run['load_before']} → {run['load_after']}"
    )
    if args.durable:
        check = run["check"]
        print(
            f"commits {figures['commits_per_second']}/s, {figures['actions_per_commit']} acts per commit; "
            f"database: {check['changes']} changes of {check['tables']} tables, "
            + (
                f"BROKEN at tables {check['broken_tables']}"
                if check["broken_tables"]
                else "every change in order"
            )
        )
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=60, help="bot clients (rounded down to whole tables)")
    parser.add_argument("--seconds", type=float, default=20, help="measured seconds, after the warm-up")
    parser.add_argument("--warmup", type=float, default=3, help="seconds of play before measuring")
    parser.add_argument("--servers", type=int, default=1, help="server processes, each owning its tables")
    parser.add_argument("--port", type=int, default=18200, help="first server port on 127.0.0.1")
    parser.add_argument("--seed", type=int, default=None, help="seed of the clients' random choices")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures to this file")
    deflate_argument(parser)
    parser.add_argument(
        "--durable", action="store_true", help="group-commit every change to PostgreSQL before its frames"
    )
    parser.add_argument(
        "--committers", type=int, default=1, help="with --durable: transactions in flight at once, per server"
    )
    args = parser.parse_args()
    args.database = os.environ.get("CEILING_DATABASE_URL") or DEFAULT_DATABASE_URL
    args.clients -= args.clients % SEATS
    if args.clients <= 0 or args.servers < 1:
        parser.error("--clients must fill at least one table, --servers be at least 1")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("CEILING_DATABASE_URL", None)
    if args.durable:
        database_prepare(args.database)
        # Processes counts the CPU of the backends of the database DATABASE_URL names.
        env.update(
            CEILING_DATABASE_URL=args.database,
            DATABASE_URL=args.database,
            CEILING_COMMITTERS=str(args.committers),
        )
    logdir = Path(tempfile.mkdtemp(prefix="cardroom-ceiling-"))
    procs = Processes(env, logdir)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        ports = [args.port + i for i in range(args.servers)]
        for i, port in enumerate(ports):
            procs.start_uvicorn(f"server{i}", "bench.ceiling_server:app", port, *quiet_options(args))
        servers_wait(ports, procs)
        stats = Stats()
        run = event_loop_run(clients_run(args, ports, stats, procs))
        figures = report(args, stats, run)
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False))
        return 1 if args.durable and run["check"]["broken_tables"] else 0
    except KeyboardInterrupt:
        print("\ninterrupted; stopping the servers")
        return 130
    finally:
        procs.stop()


if __name__ == "__main__":
    sys.exit(main())
