"""``bench/ceiling.py`` runs, and its group commit loses, reorders and invents no change.

The ceiling bench (bench/README.md) serves 斗地主 from memory to the load
bench's own clients; with ``--durable`` each change is group-committed to
PostgreSQL before its frames go out. A few seconds here check what its
figures rest on: the clients played (acts answered, hands finished), no
frame was refused, skipped or went backwards, and every change each table
numbered is in the database once, in order, the table's row at its last one.
"""

import json
import os
import subprocess
import sys
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.db import connection

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PORT = 18330  # and PORT + 1: the two servers


def test_ceiling_bench_group_commits_every_change_in_order(tmp_path):
    db = urlparse(os.environ["DATABASE_URL"])._replace(path="/" + connection.settings_dict["NAME"])
    env = {**os.environ, "CEILING_DATABASE_URL": db.geturl()}
    out = tmp_path / "ceiling.json"
    command = [
        sys.executable,
        "bench/ceiling.py",
        *("--clients", "12", "--servers", "2", "--seconds", "3", "--warmup", "1", "--seed", "3"),
        *("--durable", "--port", str(PORT), "--json", str(out)),
    ]
    run = subprocess.run(
        command, cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert out.exists(), run.stdout + run.stderr
    report = json.loads(out.read_text())
    assert run.returncode == 0, run.stdout + run.stderr
    assert report["actions_per_second"] > 10 and report["hands_per_second"] > 0, report
    assert report["errors"] == {} and report["seq_gaps"] == 0 and report["seq_backwards"] == 0, report
    check = report["database_check"]
    assert check["tables"] == 4 and check["broken_tables"] == [], check
    assert check["changes"] > report["actions_per_second"], check
