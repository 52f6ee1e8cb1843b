"""Settings for the settlement benchmark's process and Celery workers: production settings, two changes.

Used only by ``bench/settlement.py`` (``DJANGO_SETTINGS_MODULE=bench.settlement_settings``):

- ``DEBUG`` off, as in production (no query log kept per statement); logging at WARNING.
- Each worker keeps its database connection across tasks, as pgbench's
  clients keep theirs: ``DB_CONN_MAX_AGE`` 600 and ``CELERY_DB_REUSE_MAX``.
  Without the latter, Celery's Django fixup closes the connection before and
  after every task, so every task pays a new PostgreSQL connection (a backend
  fork and authentication: 30-130 ms here under load), which no batching can
  hide. ``bench/settlement.py --fresh-connections`` measures that default.
"""

import os

os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("LOG_LEVEL", "WARNING")
os.environ.setdefault("DB_CONN_MAX_AGE", "600")

from platform.settings import *  # noqa: E402,F403

# Hands per settlement transaction (bench/settlement.py --batch; default: the runtime's).
if os.environ.get("TABLE_SETTLE_BATCH"):
    TABLE_SETTLE_BATCH = int(os.environ["TABLE_SETTLE_BATCH"])

if os.environ.get("BENCH_FRESH_CONNECTIONS") != "1":
    CELERY_DB_REUSE_MAX = 1_000_000
