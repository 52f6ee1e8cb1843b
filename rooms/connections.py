"""This thread's database connections, kept between requests and socket calls (``DB_CONN_MAX_AGE``)."""

from __future__ import annotations

import select

from django.db import connections


def drop_closed_connections() -> None:
    """Close each of this thread's kept connections (``DB_CONN_MAX_AGE``) that the database ended while
    it was idle (a restart, a failover, a terminated backend), so the next statement opens a new one.

    The server says goodbye before it closes: an idle connection with anything to read is finished.
    One poll of its socket, no round trip.
    """
    for db in connections.all(initialized_only=True):
        raw = db.connection
        if raw is None or db.in_atomic_block or db.vendor != "postgresql":
            continue
        try:
            poller = select.poll()  # not select(): a process may hold more than 1024 descriptors
            poller.register(raw.fileno(), select.POLLIN)
            ended = bool(poller.poll(0))
        except Exception:  # noqa: BLE001 - no usable socket (psycopg: "the connection is lost"): it is gone
            ended = True
        if ended:
            db.close()
