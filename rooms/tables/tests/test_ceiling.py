"""``bench/ceiling.py`` runs, and its group commit loses, reorders and invents no change.

The ceiling bench (bench/README.md) serves 斗地主 from memory to the load
bench's own clients; with ``--durable`` each change is group-committed to
PostgreSQL before its frames go out. A few seconds here check what its
figures rest on: the clients played (acts answered, hands finished), no
frame was refused, skipped or went backwards, and every change each table
numbered is in the database once, in order, the table's row at its last one.
"""

import pytest

from rooms.tables.tests.servers import current_database_url, run_bench

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PORT = 18330  # and PORT + 1: the two servers


def test_ceiling_bench_group_commits_every_change_in_order(tmp_path):
    report, run = run_bench(
        "ceiling.py",
        *("--clients", "12", "--servers", "2", "--seconds", "3", "--warmup", "1", "--seed", "3"),
        *("--durable", "--committers", "2", "--port", str(PORT)),
        out=tmp_path / "ceiling.json",
        env={"CEILING_DATABASE_URL": current_database_url()},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert report["actions_per_second"] > 10 and report["hands_per_second"] > 0, report
    assert report["errors"] == {} and report["seq_gaps"] == 0 and report["seq_backwards"] == 0, report
    check = report["database_check"]
    assert check["tables"] == 4 and check["broken_tables"] == [], check
    assert check["changes"] > report["actions_per_second"], check
