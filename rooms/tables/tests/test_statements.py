"""``statements.run_in_one_trip``: a transaction of several statements in one round trip to PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection

from rooms.tables import statements

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def scratch():
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE trip_probe (id int PRIMARY KEY, v int NOT NULL)")
    yield
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE trip_probe")


def _syncs(tmp_path, call) -> int:
    """How many times the client asked the server to answer (protocol Sync messages) during ``call``."""
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    trace = tmp_path / "trace.txt"
    with trace.open("w") as out:
        pgconn.trace(out.fileno())
        try:
            call()
        finally:
            pgconn.untrace()
    return sum(
        1 for line in trace.read_text().splitlines() if line.split("\t")[1:2] == ["F"] and "\tSync" in line
    )


def test_the_statements_and_their_transaction_go_in_one_round_trip(scratch, tmp_path):
    result = []

    def trip():
        result.append(
            statements.run_in_one_trip(
                [
                    ("INSERT INTO trip_probe VALUES (1, 10), (2, 20)", []),
                    ("UPDATE trip_probe SET v = v + %s WHERE id = ANY(%s) RETURNING id, v", [5, [2]]),
                    ("SELECT count(*) FROM trip_probe", []),
                ]
            )
        )

    assert _syncs(tmp_path, trip) == 1
    assert result == [[[], [(2, 25)], [(2,)]]]
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, v FROM trip_probe ORDER BY id")
        assert cursor.fetchall() == [(1, 10), (2, 25)]  # committed


def test_a_failing_statement_rolls_the_whole_trip_back_and_the_connection_goes_on(scratch):
    with pytest.raises(IntegrityError):
        statements.run_in_one_trip(
            [
                ("INSERT INTO trip_probe VALUES (1, 10)", []),
                ("INSERT INTO trip_probe VALUES (1, 11)", []),  # the same key
                ("INSERT INTO trip_probe VALUES (3, 30)", []),
            ]
        )
    assert statements.run_in_one_trip([("SELECT count(*) FROM trip_probe", [])]) == [[(0,)]]


def test_it_refuses_to_run_inside_a_transaction(scratch):
    from django.db import transaction

    with transaction.atomic(), pytest.raises(RuntimeError):
        statements.run_in_one_trip([("SELECT 1", [])])
