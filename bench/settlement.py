"""Settlement throughput: hands settled per second by Celery workers, beside pgbench on the same PostgreSQL.

Run from the project root (PostgreSQL and Redis running):

    DATABASE_URL=postgres://root@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/6 \\
        .venv/bin/python bench/settlement.py [--hands N] [--workers K] [--batch B]

The host, port and user of DATABASE_URL are used; the database is ``--db``
(default ``cardroom_bench_settle``, created and migrated if missing), so the
bench never touches a database you work in. One run:

1. Cost: settles a few hands in this process, one per transaction
   (``hand_settle``) and in batches (``hands_settle_batch``), and prints the
   SQL statements and milliseconds per hand.
2. Makes ``--hands`` finished hands the way the runtime does: every table
   (three seated players) starts a hand through ``hand_start`` (the carried
   coins move to escrow in one stake transaction), the engine plays it to the
   end with random legal moves (each recorded as a ``HandAction``) and
   ``hand_finish`` marks it finished. The settlement task it would queue is
   held back.
3. Starts ``--workers`` Celery worker processes on a queue of their own, queues
   ``tables.settle_hand`` once per hand (as ``hand_finish`` does), and times
   until every hand is settled: hands per second from the first queued task
   to the last settlement's commit.
4. Checks every hand settled exactly once with the right legs (carried ±
   result after rake, recomputed here) and runs ``ledger_check``.
5. Runs pgbench's built-in tpcb-like script on its own scratch database
   (``--pgbench-db``, initialised with ``-i -s 10`` once) with as many clients
   as workers, for as long as the settlements took (at least 5 s), and prints
   both rates and their ratio.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Before anything imports the standard library's ``platform``: the project's package of that name
# must win (it re-exports the standard library's API).
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from platform.worker_processes import WorkerProcesses  # noqa: E402
from urllib.parse import urlparse  # noqa: E402

PLAYERS_PER_TABLE = 3
GRANT = 1_000_000


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=3000, help="finished hands to settle (default 3000)")
    parser.add_argument(
        "--workers", type=int, default=4, help="Celery worker processes and pgbench clients (default 4)"
    )
    parser.add_argument(
        "--batch", type=int, default=None, help="hands per settlement transaction (default: the runtime's)"
    )
    parser.add_argument("--db", default="cardroom_bench_settle", help="bench database (created if missing)")
    parser.add_argument("--pgbench-db", default="cardroom_pgbench", help="pgbench's scratch database")
    parser.add_argument("--pgbench", default="/usr/bin/pgbench", help="pgbench executable")
    parser.add_argument(
        "--fresh-connections",
        action="store_true",
        help="let Celery close the database connection around every task (its default)",
    )
    parser.add_argument("--no-pgbench", action="store_true", help="skip the pgbench comparison")
    parser.add_argument(
        "--cost-hands", type=int, default=30, help="hands settled in-process for the cost table"
    )
    return parser.parse_args()


# --- databases --------------------------------------------------------------------------------


def server_url() -> tuple[str, dict]:
    url = os.environ.get("DATABASE_URL") or "postgres://root@127.0.0.1:5432/postgres"
    parsed = urlparse(url)
    if not parsed.scheme.startswith("postgres"):
        sys.exit("bench/settlement.py needs PostgreSQL: set DATABASE_URL=postgres://user@host:port/any")
    conn = {
        "host": parsed.hostname or "127.0.0.1",
        "port": str(parsed.port or 5432),
        "user": parsed.username or os.environ.get("USER", "postgres"),
    }
    if parsed.password:
        conn["password"] = parsed.password
    return url, conn


def ensure_database(conn: dict, name: str) -> bool:
    """Create database ``name`` if missing; return whether it was created."""
    import psycopg

    with psycopg.connect(dbname="postgres", autocommit=True, **conn) as pg:
        if pg.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return False
        pg.execute(f'CREATE DATABASE "{name}"')
    return True


def database_url(base: str, name: str) -> str:
    return urlparse(base)._replace(path="/" + name).geturl()


# --- fixtures: one room tier, tables of three seated players with funded wallets ---------------


def ensure_tables(count: int):
    """Return ``count`` waiting bench tables with every seat taken, creating what is missing."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    import games
    from rooms.models import Game, RoomTier
    from rooms.tables.models import Seat, Table
    from wallets.services import wallet_grant

    info = games.REGISTRY["doudizhu"]
    game, _ = Game.objects.get_or_create(
        slug=info.slug,
        defaults={
            "name_zh": info.name_zh,
            "name_en": info.name_en,
            "family": "seated",
            "min_seats": 3,
            "max_seats": 3,
        },
    )
    tier, _ = RoomTier.objects.get_or_create(
        game=game,
        code="bench-settle",
        defaults={
            "name": "结算测速场",
            "base_stake": 1,
            "room_factor": 1,
            "minimum_rule": RoomTier.MinimumRule.FIXED,
            "fixed_minimum": 100,
            "maximum_coins": 5000,
            "rake_bps": 500,
            "options": {"variant": "classic"},
            "bots_enabled": False,
            "is_open": False,  # not offered in the lobby
        },
    )
    tables = list(Table.objects.filter(tier=tier, status=Table.Status.WAITING).order_by("pk")[:count])
    missing = count - len(tables)
    if missing > 0:
        print(
            f"creating {missing} tables and {missing * PLAYERS_PER_TABLE} funded players (once)...",
            flush=True,
        )
        User = get_user_model()
        start = User.objects.filter(username__startswith="settle-bench-").count()
        for chunk in range(0, missing, 200):
            n = min(200, missing - chunk)
            with transaction.atomic():
                users = [
                    User(username=f"settle-bench-{start + chunk * PLAYERS_PER_TABLE + i}")
                    for i in range(n * PLAYERS_PER_TABLE)
                ]
                for user in users:
                    user.set_unusable_password()
                users = User.objects.bulk_create(users)
                for user in users:
                    wallet_grant(user=user, amount=GRANT, key=f"settle-bench-grant:{user.pk}", reason="bench")
                new_tables = Table.objects.bulk_create(
                    [Table(tier=tier, seat_count=PLAYERS_PER_TABLE) for _ in range(n)]
                )
                Seat.objects.bulk_create(
                    [
                        Seat(
                            table=table,
                            index=i,
                            user=users[t * PLAYERS_PER_TABLE + i],
                            connected=True,
                            ready=True,
                        )
                        for t, table in enumerate(new_tables)
                        for i in range(PLAYERS_PER_TABLE)
                    ]
                )
        tables = list(Table.objects.filter(tier=tier, status=Table.Status.WAITING).order_by("pk")[:count])
    Seat.objects.filter(table__in=tables).update(ready=True, connected=True, trustee=False)
    return tier, tables


def make_finished_hands(tables, rng: random.Random) -> list[int]:
    """Deal a hand at every table through the runtime's own path, play it out, finish it."""
    from unittest import mock

    from rooms.tables.settlement import settle_hand
    from rooms.tables.tests.helpers import deal_and_play_out

    ids = []
    with mock.patch.object(settle_hand, "delay"):  # the bench requests them itself, later
        for n, table in enumerate(tables):
            hand = deal_and_play_out(table.pk, rng)
            if hand is None:
                raise SystemExit(f"table {table.pk}: a wallet refused the stake")
            ids.append(hand.pk)
            if (n + 1) % 500 == 0:
                print(f"  {n + 1} hands played", flush=True)
    return ids


# Autovacuum may be off (it is on this project's CI machines); pgbench vacuums its own tables before
# every run, so the bench vacuums the ones a settlement reads and writes, once before timing.
VACUUMED = (
    "tables_hand",
    "tables_table",
    "tables_seat",
    "wallets_account",
    "wallets_ledgertransaction",
    "wallets_ledgerentry",
    "accounts_gamestats",
)


def vacuum(conn: dict, dbname: str) -> None:
    """VACUUM ANALYZE the tables settlement touches, as pgbench does with its own before each run."""
    import psycopg

    with psycopg.connect(dbname=dbname, autocommit=True, **conn) as pg:
        for table in VACUUMED:
            pg.execute(f"VACUUM ANALYZE {table}")


# --- cost per hand, in this process -------------------------------------------------------------


def measure_cost(tables, rng: random.Random, count: int, batch: int) -> list[tuple[str, float, float]]:
    """Settle ``count`` hands one per transaction, then ``count`` in batches; return (way, queries, ms) per hand."""
    from django.db import connection

    from rooms.tables.settlement import hand_settle

    statements = 0

    def count_statement(execute, sql, params, many, context):
        nonlocal statements
        statements += 1
        return execute(sql, params, many, context)

    rows = []
    for way, size in (("one hand per transaction", 1), (f"batches of {batch}", batch)):
        ids = make_finished_hands(tables[:count], rng)
        statements = 0
        with connection.execute_wrapper(count_statement):
            start = time.perf_counter()
            for hand_id in ids:  # as the workers do: the first task of a batch drains the others
                hand_settle(hand_id=hand_id, batch=size)
            elapsed = time.perf_counter() - start
        rows.append((way, statements / len(ids), elapsed * 1000 / len(ids)))
    return rows


# --- Celery workers -----------------------------------------------------------------------------


class Workers(WorkerProcesses):
    """K solo-pool workers consuming one queue of their own, with the bench's settings."""

    def __init__(self, db_url: str, count: int) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": db_url,
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "TABLE_TIMERS": "off",
            "DJANGO_SETTINGS_MODULE": "bench.settlement_settings",
        }
        super().__init__(os.environ["CELERY_QUEUE"], env, heartbeat=False)
        for _ in range(count):
            self.spawn()

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        import redis

        # Leftover messages (tasks that found nothing to do) and the queue's bindings go too.
        client = redis.Redis.from_url(os.environ["REDIS_URL"])
        client.delete(self.queue, *client.keys(f"_kombu.binding*.{self.queue}"))


def settle_with_workers(workers: Workers, ids: list[int], warmup: list[int]) -> float:
    """Request every hand's settlement as the runtime does and time the workers until all are settled.

    The workers first settle ``warmup`` (imports, connections), then stop
    consuming while the settlements are requested (one ``settle_hand`` task per
    hand, as the runtime queues it when a hand finishes), so the clock measures
    settling, not requesting: it starts when they are told to consume again.
    Returns the seconds.
    """
    from platform.celery_app import app

    from django.db.models import Max

    from rooms.tables.models import Hand
    from rooms.tables.settlement import settle_hand

    def wait_settled(hand_ids: list[int], timeout: float) -> None:
        # Polled every 20 ms while the workers run, so it must cost next to nothing: through
        # the status index and a primary-key range (this run made these hands one after the
        # other), not an IN list of every id (6 ms of this process's CPU and more of
        # PostgreSQL's per poll for 1,500 hands, a third of a core taken from the workers).
        pending = Hand.objects.filter(
            status=Hand.Status.FINISHED, pk__gte=min(hand_ids), pk__lte=max(hand_ids)
        )
        deadline = time.monotonic() + timeout
        while pending.exists():
            if time.monotonic() > deadline:
                raise SystemExit(f"{pending.count()} hands still unsettled after {timeout:.0f} s")
            time.sleep(0.02)

    for hand_id in warmup:  # one task each, so that every worker has run one
        settle_hand.apply_async(args=(hand_id,), kwargs={"batch": 1}, queue=workers.queue)
    wait_settled(warmup, 120)
    app.control.cancel_consumer(workers.queue, destination=workers.names, reply=True, timeout=10)
    queued = time.perf_counter()
    for hand_id in ids:  # what the runtime does when a hand finishes, once per hand
        settle_hand.delay(hand_id)
    print(
        f"  requested {len(ids)} settlements in {time.perf_counter() - queued:.1f} s (not timed)", flush=True
    )
    started = time.time()
    cpu = workers.cpu_seconds()
    app.control.add_consumer(workers.queue, destination=workers.names)
    wait_settled(ids, max(300, len(ids) / 5))
    ended = time.time()
    workers.cpu_per_hand = (workers.cpu_seconds() - cpu) / len(ids)
    last = Hand.objects.filter(pk__in=ids).aggregate(last=Max("settled_at"))["last"].timestamp()
    return min(ended, last + 0.05) - started


# --- checks -------------------------------------------------------------------------------------


def check_settlements(ids: list[int], rake_bps: int) -> list[str]:
    """Return what is wrong: a hand not settled exactly once, or a leg that differs from a recomputation."""
    from collections import defaultdict

    from games.base import apply_rake
    from rooms.tables.models import Hand
    from wallets.models import Account, LedgerEntry, LedgerTransaction

    problems = []
    refs = {f"hand:{pk}": pk for pk in ids}
    counts = defaultdict(int)
    for ref in LedgerTransaction.objects.filter(reference__in=refs, kind="settlement").values_list(
        "reference", flat=True
    ):
        counts[ref] += 1
    legs = defaultdict(dict)
    accounts = {}
    for key, account_id, amount in LedgerEntry.objects.filter(
        transaction__reference__in=refs, transaction__kind="settlement"
    ).values_list("transaction__key", "account_id", "amount"):
        legs[key][account_id] = amount
    wallets = dict(Account.objects.filter(kind="player").values_list("user_id", "pk"))
    accounts["escrow"] = Account.objects.get(code="escrow").pk
    accounts["rake"] = Account.objects.get(code="rake").pk
    for hand in Hand.objects.filter(pk__in=ids).only("pk", "status", "players", "outcome", "settlement_key"):
        if hand.status != Hand.Status.SETTLED or counts[f"hand:{hand.pk}"] != 1:
            problems.append(f"hand {hand.pk}: {hand.status}, {counts[f'hand:{hand.pk}']} settlements")
            continue
        net, rake = apply_rake(list(hand.outcome["deltas"]), rake_bps)
        expected = {accounts["escrow"]: -sum(p["carried"] for p in hand.players)}
        for player, amount in zip(hand.players, net, strict=True):
            if player["carried"] + amount:
                expected[wallets[player["user"]]] = player["carried"] + amount
        if rake:
            expected[accounts["rake"]] = rake
        if legs[hand.settlement_key] != expected:
            problems.append(f"hand {hand.pk}: legs {legs[hand.settlement_key]} != recomputed {expected}")
    return problems


# --- pgbench ------------------------------------------------------------------------------------


def run_pgbench(args, conn: dict, clients: int, seconds: int) -> float:
    """Initialise pgbench's scratch database once, run tpcb-like for ``seconds``; return its TPS."""
    import psycopg

    env = {**os.environ, "PGHOST": conn["host"], "PGPORT": conn["port"], "PGUSER": conn["user"]}
    if "password" in conn:
        env["PGPASSWORD"] = conn["password"]
    ensure_database(conn, args.pgbench_db)
    with psycopg.connect(dbname=args.pgbench_db, **conn) as pg:
        ready = pg.execute(
            "SELECT to_regclass('pgbench_branches') IS NOT NULL AND "
            "(SELECT count(*) FROM pg_class WHERE relname = 'pgbench_accounts') = 1"
        ).fetchone()[0]
        if ready:
            ready = pg.execute("SELECT count(*) FROM pgbench_branches").fetchone()[0] == 10
    if not ready:
        subprocess.run(
            [args.pgbench, "-i", "-s", "10", "-q", args.pgbench_db], env=env, check=True, capture_output=True
        )
    out = subprocess.run(
        [
            args.pgbench,
            "-c",
            str(clients),
            "-j",
            str(min(clients, os.cpu_count() or 2)),
            "-T",
            str(seconds),
            args.pgbench_db,
        ],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    line = next(line for line in out.splitlines() if line.startswith("tps"))
    return float(line.split("=")[1].split()[0])


# --- main ---------------------------------------------------------------------------------------


def main() -> None:
    args = parse_args()
    base, conn = server_url()
    created = ensure_database(conn, args.db)
    os.environ["DATABASE_URL"] = database_url(base, args.db)
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.settlement_settings"
    # The runtime queues settle_hand on the default queue: make it one of this run's own.
    os.environ["CELERY_QUEUE"] = f"settle-bench-{uuid.uuid4().hex[:8]}"
    if args.batch:
        os.environ["TABLE_SETTLE_BATCH"] = str(args.batch)
    if args.fresh_connections:
        os.environ["BENCH_FRESH_CONNECTIONS"] = "1"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from wallets.selectors import ledger_check

    call_command("migrate", verbosity=1 if created else 0, interactive=False)
    from django.conf import settings

    from rooms.tables.settlement import SETTLE_BATCH

    batch = getattr(settings, "TABLE_SETTLE_BATCH", SETTLE_BATCH)
    rng = random.Random(20261129)
    print(
        f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} "
        f"({os.cpu_count()} cores)",
        flush=True,
    )

    tier, tables = ensure_tables(max(args.hands + 2 * args.workers, args.cost_hands))
    vacuum(conn, args.db)
    if args.cost_hands:
        print(f"cost per hand, in this process ({args.cost_hands} hands each):")
        for way, queries, ms in measure_cost(tables, rng, args.cost_hands, batch):
            print(f"  {way:<28} {queries:5.1f} SQL statements  {ms:6.2f} ms")

    print(f"playing {args.hands} hands of 斗地主 (Dou Dizhu) to their end...", flush=True)
    start = time.perf_counter()
    warmup_tables = 2 * args.workers
    ids = make_finished_hands(tables[: args.hands + warmup_tables], rng)
    ids, warmup = ids[:-warmup_tables], ids[-warmup_tables:]
    print(f"  {len(ids)} finished hands in {time.perf_counter() - start:.1f} s", flush=True)
    connection.close()
    vacuum(conn, args.db)

    workers = Workers(os.environ["DATABASE_URL"], args.workers)
    try:
        workers.wait_ready(timeout=120)
        print(f"settling with {args.workers} Celery workers, batch {batch}...", flush=True)
        seconds = settle_with_workers(workers, ids, warmup)
    finally:
        workers.stop()
    rate = len(ids) / seconds
    load = os.getloadavg()
    print(
        f"  {len(ids)} hands settled in {seconds:.2f} s: {rate:,.0f} hands/s "
        f"(load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}); "
        f"workers' CPU {workers.cpu_per_hand * 1000:.2f} ms per hand",
        flush=True,
    )

    problems = check_settlements(ids, tier.rake_bps)
    print(f"  each hand settled exactly once with recomputed legs: {'OK' if not problems else 'FAILED'}")
    for problem in problems[:10]:
        print("   ", problem)
    start = time.perf_counter()
    ledger = ledger_check()
    print(f"  ledger_check: {'OK' if not ledger else ledger[:5]} ({time.perf_counter() - start:.1f} s)")

    if args.no_pgbench:
        return
    if not shutil.which(args.pgbench):
        print(f"pgbench not found at {args.pgbench}; no comparison")
        return
    connection.close()
    duration = max(5, round(seconds))
    tps = run_pgbench(args, conn, args.workers, duration)
    load = os.getloadavg()
    print(
        f"pgbench tpcb-like, {args.workers} clients, {duration} s: {tps:,.0f} TPS "
        f"(load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})"
    )
    print(f"settlement {rate:,.0f} hands/s / pgbench {tps:,.0f} TPS = {rate / tps:.2f}")
    if problems or ledger:
        sys.exit(1)


if __name__ == "__main__":
    main()
