"""How a table's change is written: its statements, the same on PostgreSQL and SQLite, alone or in a group.

A change is one ``Write``: the table's ``seq`` moved on from the one the change
was made on (``UPDATE … SET seq = seq + 1 WHERE (id, seq) IN …``, which also
locks the row and proves nobody else changed the table meanwhile: every
writer of a table moves its ``seq`` on), then the hand's new log entries, the
hand's changed fields and the seats' changed fields. If the ``seq`` check
fails, nothing of the change is written and the writer is told so.

``write_alone`` writes one change in a transaction of its own. The group
commit (``group_commit``) writes every change waiting from this process's
tables in one transaction on one thread, with the same statements for all of
them (``write_many``): a few round trips, one commit, one flush of the
database's log.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime

import orjson
from django.db import DEFAULT_DB_ALIAS, close_old_connections, connections, transaction

from rooms.connections import drop_closed_connections
from rooms.tables.models import Hand, HandAction, Seat, Table

logger = logging.getLogger(__name__)

_JSON_FIELDS = {"state", "clock", "outcome", "action", "sockets"}


@dataclass(eq=False)
class Write:
    """One change of a table to write: the ``seq`` it was made on, and what changed."""

    table_id: int
    seq: int
    hand_id: int | None = None
    hand: dict = field(default_factory=dict)  # field name -> new value
    log: list[tuple] = field(default_factory=list)  # (n, seat, action, auto, time)
    seats: list[tuple[int, dict]] = field(default_factory=list)  # (seat id, {field name: value})


def write(w: Write) -> bool:
    """Write ``w`` inside the caller's transaction; False (nothing written) if the table moved on meanwhile."""
    return write_many([w])[0]


def write_many(ws: list[Write]) -> list[bool]:
    """Write changes of distinct tables inside the caller's transaction, in a few statements for them all.

    One statement moves on every table whose ``seq`` is still the change's
    (and returns which); the others are not written (False). Then one
    statement inserts all their log entries, and one per set of changed field
    names updates the hands, and the seats (a multi-row ``executemany``, one
    round trip on PostgreSQL).
    """
    if not ws:
        return []
    if len({w.table_id for w in ws}) < len(ws):  # one change of a table at a time
        return [written for w in ws for written in write_many([w])]
    db = connections[DEFAULT_DB_ALIAS]
    with db.cursor() as cursor:
        cursor.execute(_sql(db, "bump", len(ws)), [value for w in ws for value in (w.table_id, w.seq)])
        moved = {row[0] for row in cursor.fetchall()}
        done = [w for w in ws if w.table_id in moved]
    with _pipeline(db), db.cursor() as cursor:
        entries = [(w.hand_id, entry) for w in done for entry in w.log]
        if entries:
            cursor.execute(_sql(db, "log", len(entries)), _log_params(entries, db))
        hands: dict[tuple, list] = {}
        seats: dict[tuple, list] = {}
        for w in done:
            if w.hand:
                names = tuple(w.hand)
                hands.setdefault(names, []).append([*(_value(n, w.hand[n], db) for n in names), w.hand_id])
            for seat_id, changed in w.seats:
                names = tuple(changed)
                seats.setdefault(names, []).append([*(_value(n, changed[n], db) for n in names), seat_id])
        for kind, groups in (("hand", hands), ("seat", seats)):
            for names, rows in groups.items():
                if len(rows) == 1:
                    cursor.execute(_sql(db, kind, names), rows[0])
                else:
                    cursor.executemany(_sql(db, kind, names), rows)
    return [w.table_id in moved for w in ws]


def _pipeline(db):
    """Send the block's statements together and wait for their answers once (PostgreSQL's pipeline
    mode): the writing thread waits for the GIL after each answer it reads, so one answer costs
    less than one per statement. SQLite runs them one by one."""
    return db.connection.pipeline() if db.vendor == "postgresql" else nullcontext()


def locked_seq(table_id: int) -> int | None:
    """Lock the table's row for the caller's transaction and return its ``seq`` (None: no such table).

    SQLite has no row locks: its transactions take the database's write lock
    when they begin (``transaction_mode`` IMMEDIATE in the settings).
    """
    db = connections[DEFAULT_DB_ALIAS]
    with db.cursor() as cursor:
        cursor.execute(_sql(db, "lock"), [table_id])
        row = cursor.fetchone()
    return row[0] if row else None


def write_alone(w: Write) -> bool:
    """``write`` in a transaction of its own."""
    with transaction.atomic(durable=True):
        return write(w)


def _value(name: str, value, db):
    if name in _JSON_FIELDS:
        return orjson.dumps(value).decode()  # the JSON text either database stores
    if isinstance(value, datetime):
        return db.ops.adapt_datetimefield_value(value)
    return value


def _log_params(entries: list[tuple[int, tuple]], db) -> list:
    params = []
    for hand_id, (n, seat, action, auto, created_at) in entries:
        params += [
            hand_id,
            n,
            seat,
            orjson.dumps(action).decode(),
            auto,
            db.ops.adapt_datetimefield_value(created_at),
        ]
    return params


# Each statement's text, written once per process (the ORM compiled them at every move).
_texts: dict[tuple, str] = {}


def _sql(db, kind: str, arg=None) -> str:
    key = (db.vendor, kind, arg)
    text = _texts.get(key)
    if text is None:
        qn = db.ops.quote_name
        if kind == "lock":
            lock = " FOR UPDATE" if db.features.has_select_for_update else ""
            text = f"SELECT seq FROM {qn(Table._meta.db_table)} WHERE id = %s{lock}"
        elif kind == "bump":  # the tables still at the change's seq (row values: PostgreSQL and SQLite alike)
            rows = ", ".join(["(%s, %s)"] * arg)
            text = (
                f"UPDATE {qn(Table._meta.db_table)} SET seq = seq + 1 "
                f"WHERE (id, seq) IN (VALUES {rows}) RETURNING id"
            )
        elif kind in ("hand", "seat"):
            model = Hand if kind == "hand" else Seat
            columns = ", ".join(f"{qn(model._meta.get_field(name).column)} = %s" for name in arg)
            text = f"UPDATE {qn(model._meta.db_table)} SET {columns} WHERE id = %s"
        else:  # the log entries
            meta = HandAction._meta
            names = ("hand", "n", "seat", "action", "auto", "created_at")
            columns = ", ".join(qn(meta.get_field(name).column) for name in names)
            rows = ", ".join(["(%s, %s, %s, %s, %s, %s)"] * arg)
            text = f"INSERT INTO {qn(meta.db_table)} ({columns}) VALUES {rows}"
        _texts[key] = text
    return text


class GroupCommit:
    """One thread that writes every waiting change in one transaction, then answers each.

    A change's future gets True (written), False (its table had moved on: not
    written) or the error that failed the transaction (every change in it).
    While a transaction runs, the next changes gather for the next one.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.waiting: list[tuple[Write, Future]] = []
        self.scheduled = False
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="table-commit")
        self.transactions = 0  # figures for the bench and tests
        self.changes = 0

    def submit(self, w: Write) -> Future:
        future: Future = Future()
        with self.lock:
            self.waiting.append((w, future))
            if not self.scheduled:
                self.scheduled = True
                self.thread.submit(self._commit)
        return future

    def _commit(self) -> None:
        with self.lock:
            batch, self.waiting, self.scheduled = self.waiting, [], False
        drop_closed_connections()
        try:
            with transaction.atomic(durable=True):
                written = write_many([w for w, _future in batch])
        except BaseException as exc:  # noqa: BLE001 - every change waiting gets it
            close_old_connections()
            for _w, future in batch:
                future.set_exception(exc)
            return
        self.transactions += 1
        self.changes += len(batch)
        for (_w, future), ok in zip(batch, written, strict=True):
            future.set_result(ok)

    def close(self) -> None:
        """End the thread and its connection (tests: the test database is dropped at the end)."""
        self.thread.submit(connections.close_all).result()
        self.thread.shutdown(wait=True)


_group: GroupCommit | None = None


def group_commit() -> GroupCommit:
    global _group
    if _group is None:
        _group = GroupCommit()
    return _group


def group_commit_close() -> None:
    global _group
    group, _group = _group, None
    if group is not None:
        group.close()
