"""What one 百家乐 (baccarat) bet costs on the server: SQL statements, time, and CPU.

    DATABASE_URL=postgres://... REDIS_URL=redis://... .venv/bin/python bench/bet_profile.py [--bets 300]

Places bets at the table of the ``bench-load`` 百家乐 tier (made by
``bench/load.py --game baccarat``; run that once first) in this process
through ``rooms.rounds.services.round_bet``, as the round socket calls it:
``--players`` bench users in turn, a random chip of 10 on player or banker,
in one betting window held open for the run (the round clock is driven here,
not by beat: stop any load run first). Prints the statements of one bet
(``CaptureQueriesContext``, grouped by their first words), then, measured
with the statements not captured (capturing adds its own cost), the wall time per bet
and the CPU of the calling thread and of the connection's PostgreSQL
backend (read from /proc: same host only). The broadcast goes to an
in-memory channel layer, so Redis plays no part. The bets' coins stay in
escrow until the round ends: run ``--settle`` last to refund it.
"""

# ruff: noqa: E402 - the path is set before the imports
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import argparse
import os
import random
import re
import time
from collections import Counter

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.load_settings")


def _backend_cpu(pid: int) -> float:
    path = Path(f"/proc/{pid}/stat")
    if not path.exists():
        return 0.0
    fields = path.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _betting_round(table, user):
    """Drive the table's clock until a round takes bets for the next hour; return it."""
    from datetime import timedelta

    from django.utils import timezone

    from rooms.rounds.models import Round
    from rooms.rounds.services import round_advance, round_presence

    round_presence(table_id=table.pk, user=user, channel="bench-bet-profile", connected=True)
    for _ in range(100):
        rnd = Round.objects.filter(table=table, phase__in=Round.LIVE_PHASES).first()
        if rnd is not None and rnd.phase == Round.Phase.BETTING and rnd.deadline > timezone.now():
            return rnd
        if rnd is not None:
            Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        round_advance(table_id=table.pk)
    raise SystemExit("the table's round never opened for bets")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bets", type=int, default=300)
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=30, help="bets placed first and not measured")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--settle", action="store_true", help="refund the round the bets are in, and stop")
    args = parser.parse_args()
    import django
    from django.conf import settings

    django.setup()
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.ROUNDS_BET_SECONDS = 3600
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from rooms.models import RoomTier
    from rooms.rounds import services

    tier = RoomTier.objects.get(game__slug="baccarat", code="bench-load")
    users = list(
        get_user_model().objects.filter(username__startswith="bench-").order_by("pk")[: args.players]
    )
    table = services.round_enter(tier_id=tier.pk, user=users[0])
    if args.settle:
        from rooms.rounds.models import Round

        rnd = Round.objects.filter(table=table, phase__in=Round.LIVE_PHASES).first()
        if rnd is not None:
            services.round_refund(round_id=rnd.pk, reason="bench/bet_profile.py")
        return 0
    _betting_round(table, users[0])
    rng = random.Random(args.seed)

    def bet(n: int) -> None:
        services.round_bet(
            table_id=table.pk, user=users[n % len(users)], area=rng.choice(["player", "banker"]), amount=10
        )

    for n in range(args.warmup):
        bet(n)
    with CaptureQueriesContext(connection) as queries:
        bet(0)
    kinds = Counter(re.match(r"\s*(\w+(?:\s+\w+)?)", q["sql"]).group(1) for q in queries.captured_queries)
    print(f"statements of one bet: {len(queries.captured_queries)}: {dict(kinds)}")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    wall, cpu, pg = time.perf_counter(), time.thread_time(), _backend_cpu(backend)
    for n in range(args.bets):
        bet(n)
    wall, cpu, pg = time.perf_counter() - wall, time.thread_time() - cpu, _backend_cpu(backend) - pg
    per = 1000 / args.bets
    print(
        f"{args.bets} bets: wall {wall * per:.2f} ms, CPU {cpu * per:.2f} ms (this thread), "
        f"PostgreSQL {pg * per:.2f} ms per bet; load average {os.getloadavg()[0]:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
