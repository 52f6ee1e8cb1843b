"""The README's first command serves on the embedded default: SQLite, in-memory layer, eager tasks.

CI runs the suite on PostgreSQL and Redis, so nothing else there would notice
a statement SQLite cannot run (PostgreSQL-only SQL written out for speed once
slipped through this way and broke quick start on a fresh clone). This test
runs the table and round runtimes' own tests again in a child process with
no ``DATABASE_URL`` or ``REDIS_URL``, exactly as ``python3 dev.py`` would
configure them; the tests that need PostgreSQL, Redis, a worker or a browser
are left out there, since they run here on the real services.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Seating, quick start, every game's actions through the table services and sockets, settlement
# (single and batched), the 百家乐 rounds' services and the ledger: the paths that run raw SQL.
# Left out: the timer loop's and the rounds sockets' tests. Their threads share the test run's
# in-memory SQLite database, whose shared cache refuses a locked table at once ("database table
# is locked") where a file database, what ``python3 dev.py`` serves on, waits for the lock.
RUNTIME_TESTS = [
    "rooms/tables/tests/test_services.py",
    "rooms/tables/tests/test_doudizhu.py",
    "rooms/tables/tests/test_consumers.py",
    "rooms/tables/tests/test_play.py",
    "rooms/tables/tests/test_settlement_batch.py",
    "rooms/tables/tests/test_zhajinhua_runtime.py",
    "rooms/tables/tests/test_texas_runtime.py",
    "rooms/rounds/tests/test_services.py",
    "wallets/tests",
]


@pytest.mark.slow
def test_runtime_tests_pass_on_the_embedded_default(tmp_path):
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "REQUIRE_SERVICES", "CI")
    }
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            *RUNTIME_TESTS,
            "-q",
            "-p",
            "no:cacheprovider",
            "-m",
            "not postgres and not redis and not celery_worker and not browser",
            "-x",
            "--tb=short",
            "-p",
            "no:warnings",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    tail = "\n".join(result.stdout.splitlines()[-60:])
    assert result.returncode == 0, f"on SQLite:\n{tail}\n{result.stderr[-2000:]}"
    assert " passed" in tail
