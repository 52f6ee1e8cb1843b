"""A short chaos soak: ``bench/chaos.py`` against real servers on the test database, every invariant held.

Two uvicorn processes, a Celery worker and beat (started by the script) serve
a few clients of every game that play legally and misbehave every couple of
seconds (reconnects, second tabs, replays, junk frames, 托管, leaving, dropped
sockets) for about 25 seconds. The script then checks what a player, staff
and finance would: no exception in any server's log, the ledger balances,
every finished hand settled once and replaying to its stored result, no table
stuck, no seq going backwards on a socket, no card shown before the rules
reveal it (bench/README.md). The longer soak is the same command with more
clients and seconds.
"""

import pytest
from django.conf import settings

from conftest import worker_port
from rooms.tables.tests.servers import current_database_url, run_bench

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

PORT = worker_port(18320)  # and PORT + 1: the two servers


def test_a_short_chaos_soak_breaks_no_invariant(tmp_path):
    report, run = run_bench(
        "chaos.py",
        *("--seconds", "25", "--clients", "8", "--chaos-every", "2", "--seed", "7"),
        *("--drain", "60", "--port", str(PORT)),
        out=tmp_path / "chaos.json",
        env={"DATABASE_URL": current_database_url(), "REDIS_URL": settings.REDIS_URL},
    )
    assert report["violations"] == [], run.stdout
    assert all(report["verdicts"].values()), report["verdicts"]
    assert run.returncode == 0, run.stdout + run.stderr
    # It did play and misbehave: hands were settled and replayed, frames were checked.
    assert report["hands"].get("settled", 0) >= 2 and report["hands"]["verified"] >= 2, report["hands"]
    assert report["hidden"]["frames"] > 50, report["hidden"]
    assert sum(report["misdeeds"].values()) >= 30, report["misdeeds"]
    assert report["refusals"].get("malformed", 0) > 0 and report["refusals"].get("stale_seq", 0) > 0
