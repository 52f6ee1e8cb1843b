"""How the table runtime's written-out statements run: bound and prepared by the server on PostgreSQL.

Django's cursor quotes every parameter into the statement's text in Python
(psycopg's ``ClientCursor``; the hand's state is the largest), PostgreSQL
parses and plans that text again each time (the action's locking read joins
five relations: planning it cost PostgreSQL more than running it), and
Django's cursor wrapper adds its own work to each statement. The statements
of ``rooms/tables/core.py`` are few and fixed, so here they run on psycopg's
own ``Cursor``: the parameters travel apart from the text, and psycopg
prepares a text once it has run ``prepare_threshold`` times on the connection
(``DB_PREPARE_THRESHOLD`` in the settings, default 5; "off", nothing is
prepared, for a pooler that cannot keep prepared statements). PostgreSQL
then uses one generic plan for it (the texts keep constants such as the open
statuses written in, so that plan can use the partial indexes). psycopg
forgets its prepared statements at every rollback (a refused action), and
prepares them again five runs later. The ORM's statements keep Django's
cursor, which never prepares.

Errors are Django's (``wrap_database_errors``), as from any cursor. When
something watches the statements (the query log of ``DEBUG`` and of tests'
``CaptureQueriesContext``, an ``execute_wrapper``) they run on Django's own
cursor, as before, so the log shows each with its values (psycopg keeps no
text of a prepared statement's run for it). Another database (the embedded
SQLite) runs them on Django's cursor too.
"""

from __future__ import annotations

import select
from collections.abc import Callable, Sequence
from datetime import UTC
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections

_TIMESTAMPTZ_OID = 1184  # PostgreSQL's oid of timestamptz


def fetch_one(cursor) -> tuple | None:
    return cursor.fetchone()


def fetch_all(cursor) -> list[tuple]:
    return cursor.fetchall()


def fetch_none(cursor) -> None:
    return None


def run(sql: str, params: Sequence[Any], fetch: Callable[[Any], Any] = fetch_none, db=None) -> Any:
    """Execute ``sql`` with ``params`` on the default database (``db``: its connection) and return ``fetch(cursor)``."""
    db = db or connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql" or db.queries_logged or db.execute_wrappers:
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            return fetch(cursor)
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_no_broken_transaction()
    with db.wrap_database_errors, _server_cursor(db) as cursor:
        cursor.execute(sql, params)
        return fetch(cursor)


def run_in_one_trip(steps: Sequence[tuple[str, Sequence[Any]]], db=None) -> list[list[tuple]]:
    """Run ``steps`` (statement, parameters) in one transaction of their own, in one round trip.

    BEGIN, every statement and COMMIT go to PostgreSQL together (psycopg's
    pipeline mode) and their answers come back together: a thread that waits
    for the database wakes up once instead of once a statement, which on a
    busy process also means taking the interpreter's lock back once. Returns
    each statement's rows. A statement that fails rolls the whole transaction
    back and raises as Django's error. The statements bypass Django's cursor,
    so they are not in ``connection.queries``.
    """
    import psycopg

    db = db or connections[DEFAULT_DB_ALIAS]
    if db.in_atomic_block:
        raise RuntimeError("run_in_one_trip runs a transaction of its own, outside atomic()")
    db.close_if_health_check_failed()
    db.ensure_connection()
    raw = db.connection
    with db.wrap_database_errors:
        cursors = []
        try:
            # BEGIN and COMMIT as statements of the pipeline: psycopg's own transaction block
            # would wait for the server's answer to each.
            with raw.pipeline():
                psycopg.Cursor(raw).execute("BEGIN")
                for sql, params in steps:
                    cursor = psycopg.Cursor(raw)  # server-side binding, prepared once used often
                    cursor.execute(sql, params)
                    cursors.append(cursor)
                psycopg.Cursor(raw).execute("COMMIT")
        except BaseException:
            # A failed statement leaves the transaction aborted (the rest of the trip skipped).
            if not raw.closed and raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                raw.rollback()
            raise
        return [cursor.fetchall() if cursor.description is not None else [] for cursor in cursors]


def _server_cursor(db):
    import psycopg

    connection = db.connection
    cursor = psycopg.Cursor(connection)
    if db.timezone is UTC and connection.pgconn.parameter_status(b"TimeZone") == b"UTC":
        # Django's timestamp loader (a Python subclass of psycopg's, which then sets
        # Django's time zone) gives the same aware datetimes in UTC as psycopg's own
        # loader (C) in a UTC session, at a twentieth of the cost; 14 per action.
        cursor.adapters.register_loader(
            _TIMESTAMPTZ_OID, psycopg.adapters.get_loader(_TIMESTAMPTZ_OID, _TEXT)
        )
    elif connection.adapters.get_loader(_TIMESTAMPTZ_OID, _TEXT).timezone != db.timezone:
        # As Django's create_cursor: timestamps in Django's time zone, should the connection's differ.
        from django.db.backends.postgresql.psycopg_any import register_tzloader

        register_tzloader(db.timezone, cursor)
    return cursor


_TEXT = 0  # psycopg.pq.Format.TEXT


def drop_if_closed_by_server(db=None) -> None:
    """Close ``db``'s kept connection if PostgreSQL ended it while it was idle (no round trip).

    A connection kept between calls (``DB_CONN_MAX_AGE``) outlives a restart
    or failover of the database, or a terminated backend, and Django notices
    only when a statement fails on it: the player whose action ran first on
    each such connection would get an error. The server announces the end (an
    error message, then end of file), so an idle connection with anything to
    read is finished: it is closed here, and the call opens a new one. A
    connection inside a transaction, or any other database, is left alone.
    """
    db = db or connections[DEFAULT_DB_ALIAS]
    raw = db.connection
    if raw is None or db.vendor != "postgresql" or db.in_atomic_block or not hasattr(select, "poll"):
        return  # (no poll() on Windows: the statement's failure tells, as before)
    try:
        fileno = raw.pgconn.socket
        poller = select.poll()  # not select(): an ASGI process may hold more than 1024 descriptors
        poller.register(fileno, select.POLLIN)
        ended = bool(poller.poll(0))
    except Exception:  # noqa: BLE001 - no usable socket: the connection is gone
        ended = True
    if ended:
        db.close()
