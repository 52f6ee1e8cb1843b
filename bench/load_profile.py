"""What one table action costs on the server: SQL queries, channel-layer sends, time, and a profile.

    DATABASE_URL=postgres://... REDIS_URL=redis://... .venv/bin/python bench/load_profile.py [--actions 300] [--profile]

    # instructions of the calls alone, repeatable on a busy machine (divide by --actions):
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=starmap_next \
        .venv/bin/python bench/load_profile.py --actions 150 --no-sql-log --deal-seed 1 --callgrind

Plays 斗地主 hands of the ``bench-load`` tier (made by bench/load.py; run that
once first) in this process through ``services.table_act``, exactly as the
consumer calls it, with three bench users at one table: random choices
between pass and the hint, as the load clients do. Prints the SQL queries per
action (``CaptureQueriesContext``, the statements grouped by their first
words), the group sends per action, the mean time per action including the
broadcast after commit, the CPU of the calling thread and of the
connection's PostgreSQL backend, and with ``--profile`` the top functions by
cumulative time. Measure CPU with ``--no-sql-log``: while statements are
captured the runtime runs them on Django's own cursor, not the server-bound,
prepared one (rooms/tables/statements.py).
"""

# ruff: noqa: E402 - the path is set before the imports
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import argparse
import contextlib
import cProfile
import io
import itertools
import os
import pstats
import random
import re
import resource
import time
from collections import Counter

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.load_settings")


class _Backend:
    """The CPU seconds of one PostgreSQL backend process, from /proc (same host only)."""

    def __init__(self, pid: int) -> None:
        self.path = Path(f"/proc/{pid}/stat")
        self.tick = 1 / os.sysconf("SC_CLK_TCK")
        self.readable = self.path.exists()

    def cpu(self) -> float:
        if not self.readable:
            return 0.0
        fields = self.path.read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * self.tick  # utime, stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument(
        "--warmup",
        type=int,
        default=60,
        help="actions played first and not measured (at least one hand's end among them): the "
        "first calls import modules and open connections, a one-off cost of millions of instructions",
    )
    parser.add_argument(
        "--deal-seed",
        type=int,
        default=None,
        help="deal every hand from seeds drawn from random.Random(N) instead of secrets, so two "
        "versions of the code play the very same hands (compare --callgrind counts)",
    )
    parser.add_argument(
        "--readies",
        type=int,
        default=0,
        help="measure this many table_ready calls (the three presses between hands, from the second "
        "hand's end on) instead of actions; the actions are played unmeasured",
    )
    parser.add_argument(
        "--waiting-tables",
        type=int,
        default=0,
        help="also seat three users at each of this many other tables of the tier, between hands, one "
        "of them ready and none with a free seat: every ready's 分组 finds and locks them, as under "
        "the load bench (whose waiting tables are mostly full of humans)",
    )
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--sort", default="cumulative", help="profile order: cumulative or tottime")
    parser.add_argument("--profile-out", help="also write the profile's stats to this file (pstats)")
    parser.add_argument("--show-sql", action="store_true", help="print the statements of one action")
    parser.add_argument(
        "--no-sql-log",
        action="store_true",
        help="do not capture the statements (the capture's debug cursor costs CPU of its own)",
    )
    parser.add_argument(
        "--callgrind",
        action="store_true",
        help="call table_act through itertools.starmap, so that valgrind --tool=callgrind "
        "--collect-atstart=no --toggle-collect=starmap_next counts the instructions of the "
        "calls alone (this thread's: the channel layer's send runs on another)",
    )
    parser.add_argument(
        "--clock",
        choices=["wall", "cpu"],
        default="wall",
        help="the profile's clock: wall, or this thread's CPU time (what the load does not move)",
    )
    args = parser.parse_args()
    import django

    django.setup()
    from channels.layers import get_channel_layer
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from rooms.models import RoomTier
    from rooms.tables import services
    from rooms.tables.broadcast import engine_for
    from rooms.tables.errors import TableError
    from rooms.tables.models import Hand, Seat

    # A tier of its own, so the three players never join a load run's leftover tables.
    base = RoomTier.objects.get(game__slug="doudizhu", code="bench-load")
    tier, _ = RoomTier.objects.update_or_create(
        game=base.game,
        code="bench-profile",
        defaults={
            "name": "Profile bench",
            "base_stake": 1,
            "minimum_rule": RoomTier.MinimumRule.FIXED,
            "fixed_minimum": 100,
            "options": {"variant": "classic"},
            "seats": 3,
            "bots_enabled": False,
            "sort_order": 99,
        },
    )
    users = list(get_user_model().objects.filter(username__startswith="bench-p").order_by("pk")[:3])
    if len(users) < 3:
        from platform.accounts.services import user_create

        users = [user_create(username=f"bench-p{i}", password="x") for i in range(3)]
    for user in users:
        seat = Seat.objects.filter(user=user).first()
        if seat is not None:
            hand = Hand.objects.filter(table_id=seat.table_id, status__in=["playing", "finished"]).first()
            if hand is not None:
                services.hand_cancel(hand_id=hand.pk, reason="profile reset")
            try:
                services.table_leave(table_id=seat.table_id, user=user)
            except TableError:
                pass
    layer = get_channel_layer()
    sends = Counter()
    real_send = layer.group_send

    async def counting_send(group, message):
        sends["group_send"] += 1
        return await real_send(group, message)

    layer.group_send = counting_send
    if hasattr(layer, "group_send_many"):
        real_many = layer.group_send_many

        async def counting_many(*a, **kw):
            sends["group_send_many"] += 1
            return await real_many(*a, **kw)

        layer.group_send_many = counting_many
    from rooms.tables import fanout

    real_publish = fanout._publish

    def counting_publish(address, payloads):  # a table's frames over pub/sub (rooms/tables/fanout.py)
        sends["publish"] += len(payloads)
        return real_publish(address, payloads)

    fanout._publish = counting_publish

    if args.deal_seed is not None:
        from rooms.tables import hands as hands_module

        deals = random.Random(args.deal_seed)

        class _SeededSecrets:
            @staticmethod
            def token_bytes(n: int) -> bytes:
                return deals.randbytes(n)

        hands_module.secrets = _SeededSecrets  # only hand_start draws from it

    if args.waiting_tables:
        _waiting_tables(tier, args.waiting_tables)
    table = None
    for user in users:
        table = services.table_quick_start(tier_id=tier.pk, user=user)
        services.table_presence(table_id=table.pk, user=user, connected=True)
    by_seat = {s.index: s.user for s in Seat.objects.filter(table=table).select_related("user")}
    rng = random.Random(7)
    per_action: list[int] = []
    kinds: Counter = Counter()
    sample: list[str] = []
    elapsed = cpu = 0.0
    thread_cpu = thread_sys = 0.0
    if not args.profile:
        profiler = None
    elif args.clock == "cpu":
        profiler = cProfile.Profile(time.thread_time)
    else:
        profiler = cProfile.Profile()
    done = 0
    idle = 0
    warm = 0  # warm-up actions played
    hands_ended = 0
    backend_cpu = 0.0
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = _Backend(cursor.fetchone()[0])
    # The presses that leave the table waiting for the others, and the last one, which deals.
    readies = _Tally(backend, args.no_sql_log, profiler)
    dealing = _Tally(backend, args.no_sql_log, profiler)
    while (readies.n + dealing.n < args.readies) if args.readies else (done < args.actions):
        hand = Hand.objects.filter(table=table, status="playing").first()
        if hand is None:
            idle += 1
            if idle > 5:
                raise SystemExit("no hand starts at the profile table")
            finished = Hand.objects.filter(table=table, status="finished").first()
            hands_ended += 1
            if finished is not None:
                services.hand_settle(hand_id=finished.pk)
            for i, user in enumerate(users):
                try:
                    if args.readies and hands_ended > 1:
                        tally = dealing if i == len(users) - 1 else readies
                        tally.measure(lambda user=user: services.table_ready(table_id=table.pk, user=user))
                    else:
                        services.table_ready(table_id=table.pk, user=user)
                except TableError:
                    pass
            continue
        idle = 0
        engine = engine_for(hand.game_slug)
        seat = engine.actors(hand.state)[0]
        view = engine.view(hand.state, seat)
        options = []
        if view["phase"] == "playing":
            if view.get("can_pass"):
                options.append({"type": "pass"})
            if view.get("can_play"):
                options.append(engine.hint(hand.state, seat))
        else:
            options = view["choices"]
        action = rng.choice(options)
        if args.readies or warm < args.warmup or (args.warmup and not hands_ended):
            services.table_act(table_id=table.pk, user=by_seat[seat], action=action)
            warm += 1
            continue
        if not done:
            sends.clear()  # count the measured actions' sends only
        with (
            contextlib.nullcontext(None) if args.no_sql_log else CaptureQueriesContext(connection) as queries
        ):
            started = time.perf_counter()
            cpu_started = time.process_time()
            thread_started = time.thread_time()
            backend_started = backend.cpu()
            usage_started = resource.getrusage(resource.RUSAGE_THREAD)
            if profiler:
                profiler.enable()
            kwargs = {"table_id": table.pk, "user": by_seat[seat], "action": action, "client_seq": done + 1}
            if args.callgrind:
                list(itertools.starmap(lambda kw: services.table_act(**kw), [(kwargs,)]))
            else:
                services.table_act(**kwargs)
            if profiler:
                profiler.disable()
            elapsed += time.perf_counter() - started
            cpu += time.process_time() - cpu_started
            thread_cpu += time.thread_time() - thread_started
            usage = resource.getrusage(resource.RUSAGE_THREAD)
            thread_sys += usage.ru_stime - usage_started.ru_stime
            backend_cpu += backend.cpu() - backend_started
        per_action.append(len(queries) if queries is not None else 0)
        for q in queries.captured_queries if queries is not None else ():
            kinds[" ".join(re.sub(r'"[^"]*"\.', "", q["sql"]).split()[:3])[:60]] += 1
        if not sample and queries is not None:
            sample = [q["sql"][:300] for q in queries.captured_queries]
        done += 1
    if args.readies:
        readies.report("table_ready (others still to press)", show_sql=args.show_sql)
        dealing.report("table_ready (the last press: deals the hand)", show_sql=args.show_sql)
        _Tally.total(readies, dealing)
        if profiler:
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats(args.sort).print_stats(45)
            if args.profile_out:
                profiler.dump_stats(args.profile_out)
            print(out.getvalue())
        return 0
    print(
        f"{done} actions: {sum(per_action) / done:.1f} SQL queries per action (min {min(per_action)}, max {max(per_action)})"
    )
    print(f"  channel layer per action: { {k: round(v / done, 2) for k, v in sends.items()} }")
    print(
        f"  {elapsed / done * 1000:.2f} ms per action, {cpu / done * 1000:.2f} ms of CPU "
        "(service + broadcast, this process)"
    )
    print(
        f"  {thread_cpu / done * 1000:.2f} ms of CPU in the calling thread (the service and the frames; "
        "the channel layer's send runs on its own event loop thread), "
        f"{thread_sys / done * 1000:.2f} ms of it in the kernel"
    )
    if backend.readable:
        print(
            f"  {backend_cpu / done * 1000:.2f} ms of CPU in this connection's PostgreSQL backend "
            f"(/proc, {backend.tick * 1000:.0f} ms ticks)"
        )
    print("  statements per action by kind:")
    for kind, n in kinds.most_common(20):
        print(f"    {n / done:5.2f}  {kind}")
    if args.show_sql:
        print("\n".join(sample))
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(args.sort).print_stats(35)
        if args.profile_out:
            profiler.dump_stats(args.profile_out)
        print(out.getvalue())
    return 0


class _Tally:
    """Statements, time and CPU of measured calls (``--readies``), per call."""

    def __init__(self, backend: _Backend, no_sql_log: bool, profiler=None) -> None:
        self.backend = backend
        self.profiler = profiler
        self.no_sql_log = no_sql_log
        self.n = 0
        self.statements: list[int] = []
        self.kinds: Counter = Counter()
        self.sample: list[str] = []
        self.elapsed = self.thread_cpu = self.backend_cpu = 0.0

    def measure(self, call) -> None:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with (
            contextlib.nullcontext(None) if self.no_sql_log else CaptureQueriesContext(connection) as queries
        ):
            started, thread_started = time.perf_counter(), time.thread_time()
            backend_started = self.backend.cpu()
            if self.profiler:
                self.profiler.enable()
            try:
                call()
            finally:
                if self.profiler:
                    self.profiler.disable()
                self.elapsed += time.perf_counter() - started
                self.thread_cpu += time.thread_time() - thread_started
                self.backend_cpu += self.backend.cpu() - backend_started
                self.n += 1
        captured = queries.captured_queries if queries is not None else []
        if not self.sample:
            self.sample = [q["sql"][:4000] for q in captured]
        self.statements.append(len(captured))
        for q in captured:
            self.kinds[" ".join(re.sub(r'"[^"]*"\.', "", q["sql"]).split()[:3])[:60]] += 1

    @staticmethod
    def total(*tallies: _Tally) -> None:
        n = sum(t.n for t in tallies)
        statements = sum(sum(t.statements) for t in tallies)
        cpu = sum(t.thread_cpu for t in tallies)
        backend = sum(t.backend_cpu for t in tallies)
        print(
            f"all {n} calls: {statements / n:.1f} statements, {cpu / n * 1000:.2f} ms of CPU in the calling "
            f"thread, {backend / n * 1000:.2f} ms in the backend, per call"
        )

    def report(self, what: str, *, show_sql: bool = False) -> None:
        n = self.n
        print(f"{n} {what} calls:", end=" ")
        if not self.no_sql_log:
            print(
                f"{sum(self.statements) / n:.1f} SQL statements per call "
                f"(transaction control included; min {min(self.statements)}, max {max(self.statements)})"
            )
        else:
            print("statements not captured (--no-sql-log)")
        print(
            f"  {self.elapsed / n * 1000:.2f} ms per call, {self.thread_cpu / n * 1000:.2f} ms of CPU in the calling thread"
        )
        if self.backend.readable:
            print(f"  {self.backend_cpu / n * 1000:.2f} ms of CPU in this connection's PostgreSQL backend")
        if self.kinds:
            print("  statements per call by kind:")
            for kind, count in self.kinds.most_common(25):
                print(f"    {count / n:5.2f}  {kind}")
        if show_sql:
            print("\n".join(f"    {sql}" for sql in self.sample))


def _waiting_tables(tier, count: int) -> None:
    """Seat three ``bench-w…`` users at each of ``count`` new waiting tables of ``tier``, one of them ready.

    The tables of an earlier run are closed and emptied first (they never play: no wallets needed).
    """
    from platform.accounts.services import user_create

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from rooms.tables.models import Seat, Table

    earlier = Seat.objects.filter(user__username__startswith="bench-w")
    Table.objects.filter(pk__in=earlier.values("table_id")).update(status=Table.Status.CLOSED)
    earlier.update(user=None, ready=False)
    user_model = get_user_model()
    for t in range(count):
        table = Table.objects.create(tier=tier, seat_count=3)
        seats = []
        for i in range(3):
            name = f"bench-w{t:03d}-{i}"
            user = user_model.objects.filter(username=name).first() or user_create(
                username=name, password="x"
            )
            seats.append(Seat(table=table, index=i, user=user, ready=i == 0, seated_at=timezone.now()))
        Seat.objects.bulk_create(seats)


if __name__ == "__main__":
    sys.exit(main())
