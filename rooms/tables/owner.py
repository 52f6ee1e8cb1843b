"""A player's move from the play this process keeps in memory, committed with other tables' moves.

The locking path of ``services.table_act`` costs five round trips to
PostgreSQL a move (begin, lock the table, lock the seats and the hand, write,
commit) while the table's thread waits, and PostgreSQL reads back the seats,
users, balances and hand that this very process committed one move earlier.
Here a process keeps, per table, the play it last committed
(``state_cache.KeptPlay``: the table with its event sequence, the seats, the
open hand and the row version that holds it, the balances and wins its frames
show). The next player's move is checked and applied to that play in memory,
its frames are built, and its write joins one **group commit** with the moves
of every other table this process has in flight: one transaction locks all
their tables and hands in table order, checks that each is still the version
the move was made on, writes those that are (each table's sequence moved on,
its hand's state, deadline and token, its log entry) and commits. Only then
do the move's frames go out: no frame shows a move the database may not
have.

The database stays the truth. Every other writer of a table (another ASGI
process, the clock, settlement, staff, seating) locks its row and moves its
sequence on, and every write of a hand changes its row version, so a kept
play that is behind fails the check: that move, and any move the kept play
cannot judge alone (a refusal, a hand that ends, a seat under 托管 or away),
runs the locking path instead, which reads everything again. Forgetting is
always safe; a kept play is only ever a shortcut.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import logging
import threading
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections
from django.utils import timezone

from rooms.tables import broadcast, statements
from rooms.tables.broadcast import change_message, engine_for, frame_text, table_group
from rooms.tables.core import (
    PLAY_FIELDS,
    UNSAVED_ACTIONS,
    _postgres,
    _sql,
    plan_next,
    record_action,
    setting,
)
from rooms.tables.models import Hand, HandAction, Table
from rooms.tables.state_cache import KeptPlay, play_forget, play_keep, play_kept, state_known

logger = logging.getLogger(__name__)


class ActingUser(NamedTuple):
    """The player of a move another process forwarded (``services.table_act`` needs only the pk)."""

    pk: int


def kept_play_enabled() -> bool:
    return bool(setting("TABLE_KEPT_PLAY", True)) and _default_database_is_postgres()


@functools.cache
def _default_database_is_postgres() -> bool:
    # Asked up to three times a move; the ``connection`` proxy looks its connection up in
    # asgiref's Local each time (~5 µs), and a process's default database never changes.
    return _postgres(connections[DEFAULT_DB_ALIAS])


def play_keep_on_commit(table: Table, seats: list, hand: Hand | None, counts) -> None:
    """After the current transaction commits, keep the play a locking move just wrote.

    Call last in a move of a hand still playing, after its ``hand_write``: the
    hand's row version comes from what that write kept (``state_cache``).
    """
    if hand is None or hand.status != Hand.Status.PLAYING or not kept_play_enabled():
        return
    balances, wins = counts

    def keep() -> None:
        known = state_known(table.pk)
        if known is None or known.hand_id != hand.pk or known.state is not hand.state:
            return  # the write kept nothing (or something later did): nothing to build on
        play_keep(table.pk, KeptPlay(table, seats, hand, balances, wins, known.xmin, known.ctid))

    connections[DEFAULT_DB_ALIAS].on_commit(keep)


def table_act_kept(*, table_id: int, user, action: dict) -> int | None:
    """Make the move on the kept play and commit it with others; the new sequence, or None.

    None: nothing was changed and the locking path must take the move (no kept
    play, a move it cannot judge alone, or the play was behind the database).
    Database errors propagate as from the locking path. From a table's thread;
    a socket's own moves take ``table_act_kept_here``, on its event loop.
    """
    move = _kept_move(table_id, user, action)
    if move is None:
        return None
    try:
        version = group_commit().commit(move.write)
    except BaseException:
        play_forget(table_id)
        raise
    if not _kept_done(move, version):
        return None
    broadcast.send_messages([(table_group(table_id), move.message)])
    queue_timer = _near_timer(move)
    if queue_timer is not None:
        queue_timer()
    return move.table.seq


# The kept move of each table that an event loop is committing (``table_act_kept_here``).
_in_flight: dict[int, asyncio.Task] = {}


async def table_act_kept_here(*, table_id: int, user, action: dict) -> int | None:
    """``table_act_kept`` on the event loop of the socket that asked: no hop to a table thread.

    A kept move needs no database until its commit, and the group commit
    thread does that: the loop judges the move, builds its frames, hands the
    write to the group commit and awaits it while it serves other sockets,
    then publishes the frames itself. The hop to the table's thread and back
    (``TableSyncToAsync``) cost more of the process's one core than the move.
    The loop makes one kept move of a table at a time: a second one waits for
    the first to commit and is then judged on the play that one left. The
    commit and its frames run as a task of their own, so a socket that goes
    away meanwhile (its task cancelled) leaves no committed move unsent.
    """
    loop = asyncio.get_running_loop()
    while (busy := _in_flight.get(table_id)) is not None and busy.get_loop() is loop and not busy.done():
        await asyncio.wait((busy,))  # never cancels the other move
    move = _kept_move(table_id, user, action)
    if move is None:
        return None
    task = loop.create_task(_commit_here(move))
    _in_flight[table_id] = task
    task.add_done_callback(functools.partial(_committed_here, table_id))
    return await asyncio.shield(task)


async def _commit_here(move: _KeptMove) -> int | None:
    table_id = move.write.table_id
    try:
        version = await asyncio.wrap_future(group_commit().submit(move.write))
    except BaseException:
        play_forget(table_id)
        raise
    if not _kept_done(move, version):
        return None
    await broadcast.send_messages_here([(table_group(table_id), move.message)])
    queue_timer = _near_timer(move)
    if queue_timer is not None:  # a call to the workers' broker: not on the loop
        asyncio.get_running_loop().run_in_executor(None, queue_timer)
    return move.table.seq


def _near_timer(move: _KeptMove):
    """The call that sends the committed move's near deadline to the workers, or None (``timer_wanted``)."""
    from rooms.tables.timers import timer_enqueue, timer_wanted

    hand = move.write.hand
    if not timer_wanted(hand.deadline, move.now):
        return None
    return functools.partial(
        timer_enqueue, hand_id=hand.pk, token=hand.deadline_token, deadline=hand.deadline
    )


def _committed_here(table_id: int, task: asyncio.Task) -> None:
    if _in_flight.get(table_id) is task:
        del _in_flight[table_id]
    if not task.cancelled():
        # Marked as retrieved: a caller still waiting gets it through the shield; one that went
        # away has nobody to tell (the move's play is forgotten, the next move reads it again).
        task.exception()


class _KeptMove(NamedTuple):
    """A move judged and applied on a kept play, its frames built, its write not yet committed."""

    kept: KeptPlay
    table: Table  # a copy, its ``seq`` the move's
    write: _Write
    message: dict
    now: datetime


def _kept_move(table_id: int, user, action: dict) -> _KeptMove | None:
    """Judge and apply the move on the kept play, in memory; None: the locking path must take it."""
    kept = play_kept(table_id)
    if kept is None or not kept_play_enabled():
        return None
    user_id = user.pk  # once: ``user`` is the socket's lazy object, each read a proxy's calls
    seat = next((s for s in kept.seats if s.user_id == user_id), None)
    if seat is None or seat.trustee or not seat.connected:
        return None  # not seated here (as far as this process knows), or taking back control
    hand = kept.hand
    engine = engine_for(hand.game_slug)
    if seat.index not in engine.actors(hand.state):
        return None  # the refusal comes from the database's state, not a kept one
    try:
        state = engine.apply(hand.state, seat.index, action)
    except Exception:  # noqa: BLE001 - refused or not understood: the locking path says which
        return None
    hand = _copied(hand)  # the kept one is shared; a failed commit must leave it as it was
    hand.__dict__.pop(UNSAVED_ACTIONS, None)
    record_action(hand, seat.index, action, auto=False, state=state)
    now = timezone.now()
    if plan_next(hand, kept.seats, now) is not None:
        return None  # the hand ends: settlement is queued by the locking path
    table = _copied(kept.table)
    table.seq = kept.table.seq + 1
    message = change_message(table, kept.seats, hand, (kept.balances, kept.wins))
    write = _Write(
        table_id=table_id,
        seq=kept.table.seq,
        hand=hand,
        xmin=kept.xmin,
        ctid=kept.ctid,
        actions=hand.__dict__.pop(UNSAVED_ACTIONS),
    )
    return _KeptMove(kept, table, write, message, now)


def _copied(instance):
    """A shallow copy of a model instance, as ``copy.copy`` makes it, without pickling's detour.

    ``copy.copy`` goes through ``Model.__reduce__``, ``__getstate__`` and
    ``__setstate__`` (a version check, a scan for memoryviews): twice the
    cost, twice a move. The copy has its own ``_state`` and related-object
    cache, and shares the field values, which nobody changes in place.
    """
    new = instance.__class__.__new__(instance.__class__)
    values = instance.__dict__.copy()
    state = copy.copy(values["_state"])
    state.fields_cache = dict(values["_state"].fields_cache)
    values["_state"] = state
    new.__dict__ = values
    return new


def _kept_done(move: _KeptMove, version: tuple[str, str] | None) -> bool:
    """Keep the play a committed move left; False (and forget the play) when the commit refused it."""
    table_id = move.write.table_id
    if version is None:
        play_forget(table_id)  # something else changed the table: read it again
        return False
    kept = move.kept
    play_keep(table_id, KeptPlay(move.table, kept.seats, move.write.hand, kept.balances, kept.wins, *version))
    return True


@dataclass(slots=True, eq=False)
class _Write:
    """One move's write: the table's sequence it was made on, the hand's version, what changed."""

    table_id: int
    seq: int
    hand: Hand
    xmin: str
    ctid: str
    actions: list[list]


class GroupCommit:
    """One thread that commits the waiting moves of every table together, then answers each.

    A move's caller waits for its answer: the hand's new row version, or None
    when its table or hand was no longer what the move was made on. While a
    transaction runs, the next moves gather; each transaction takes up to
    ``TABLE_GROUP_COMMIT_MAX`` of them.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._waiting: list[tuple[_Write, Future]] = []
        self._thread: threading.Thread | None = None
        self.transactions = 0  # figures for benches and tests
        self.moves = 0

    def commit(self, write: _Write) -> tuple[str, str] | None:
        return self.submit(write).result()

    def submit(self, write: _Write) -> Future:
        """Queue the write for the next transaction; the future's result is what ``commit`` returns."""
        return self._submit(write)

    def close_connection(self) -> None:
        """Close the thread's database connection (tests: the test database is dropped at the end)."""
        if self._thread is not None and self._thread.is_alive():
            self.on_thread(connections.close_all)

    def on_thread(self, func):
        """Run ``func`` on the commit thread, between two transactions, and return its result."""
        return self._submit(func).result()

    def _submit(self, item) -> Future:
        future: Future = Future()
        with self._cond:
            self._waiting.append((item, future))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="table-group-commit", daemon=True)
                self._thread.start()
            self._cond.notify()
        return future

    def _run(self) -> None:
        most = max(1, int(setting("TABLE_GROUP_COMMIT_MAX", 64)))
        while True:
            with self._cond:
                while not self._waiting:
                    self._cond.wait()
                taken, self._waiting = self._waiting[:most], self._waiting[most:]
            try:
                self._serve(taken)
            except BaseException as exc:  # noqa: BLE001 - a caller left waiting would wait for good
                if not isinstance(exc, DatabaseError):  # the callers report those, as the locking path's
                    logger.exception("the group commit failed")
                for _item, future in taken:
                    if not future.done():
                        future.set_exception(exc)

    def _serve(self, taken: list[tuple[object, Future]]) -> None:
        batch = []
        for item, future in taken:
            if isinstance(item, _Write):
                batch.append((item, future))
                continue
            try:
                future.set_result(item())
            except BaseException as exc:  # noqa: BLE001 - the caller gets it
                future.set_exception(exc)
        if not batch:
            return
        try:
            versions = self._write([write for write, _future in batch])
        except BaseException:
            _close_after_failure()
            raise  # every waiting move gets the error
        self.transactions += 1
        self.moves += len(batch)
        for (_write, future), version in zip(batch, versions, strict=True):
            future.set_result(version)

    def _write(self, writes: list[_Write]) -> list[tuple[str, str] | None]:
        db = connections[DEFAULT_DB_ALIAS]
        statements.drop_if_closed_by_server(db)
        # Two moves of one table cannot both be in a batch (a table's moves are made one at a
        # time), but should they, the later one must fail its check, not overwrite.
        first: dict[int, _Write] = {}
        for w in writes:
            first.setdefault(w.table_id, w)
        tried = list(first.values())
        # One round trip: the lock takes the rows in table order (as every writer of a table
        # does); the write checks each move's versions itself, under those locks.
        _locked, written = statements.run_in_one_trip(
            [
                (_sql("group_lock", _lock_sql), [[w.table_id for w in tried], [w.hand.pk for w in tried]]),
                (_sql("group_write", _write_sql), _write_params(tried)),
            ],
            db=db,
        )
        versions = {hand_id: (xmin, ctid) for hand_id, xmin, ctid in written}
        return [versions.get(w.hand.pk) if first[w.table_id] is w else None for w in writes]


def _close_after_failure() -> None:
    db = connections[DEFAULT_DB_ALIAS]
    try:
        db.close_if_unusable_or_obsolete()
    except Exception:  # noqa: BLE001 - the next batch opens a new connection
        logger.exception("closing the group commit's connection failed")


def _lock_sql() -> str:
    qn = connection.ops.quote_name
    hand_table = qn(Hand._meta.get_field("table").column)
    return (
        f"SELECT t.{qn('id')} FROM {qn(Table._meta.db_table)} t "
        f"JOIN {qn(Hand._meta.db_table)} h ON h.{hand_table} = t.{qn('id')} "
        f"WHERE t.{qn('id')} = ANY(%s) AND h.{qn('id')} = ANY(%s) "
        f"ORDER BY t.{qn('id')} FOR UPDATE OF t, h"
    )


# The log entries' columns, in the order of ``record_action``'s entries.
_ACTION_COLUMNS = ("hand", "n", "seat", "action", "auto", "created_at")


def _write_sql() -> str:
    """One statement for any number of moves: the moves come as two JSON documents (rows, log entries).

    A move is written only if its table's sequence and its hand's row version
    are still the ones it was made on (``ok``), checked under the locks
    ``_lock_sql`` took; ``RETURNING`` names the hands written.

    One text for every batch size, so psycopg parses it once and PostgreSQL
    plans it once (prepared after ``DB_PREPARE_THRESHOLD`` runs); a text per
    batch size (``VALUES`` rows) was parsed and planned anew for most batches.
    JSON rather than one array per column: psycopg writes a ``jsonb[]`` in
    Python, escaping every quote of every state in a regular expression's
    template (1.8 ms for one 5.7 KB 斗地主 state, more than the rest of the
    move), where orjson writes the whole batch in C.
    """
    qn = connection.ops.quote_name

    def record(model, names):
        fields = [model._meta.get_field(name) for name in names]
        return ", ".join(f"f{i} {f.db_type(connection)}" for i, f in enumerate(fields)), fields

    play, fields = record(Hand, PLAY_FIELDS)
    logged, log_fields = record(HandAction, _ACTION_COLUMNS)
    columns = ", ".join(f"{qn(f.column)} = ok.f{i}" for i, f in enumerate(fields))
    picked = ", ".join(f"f{i}" for i in range(len(log_fields)))
    table, hands = qn(Table._meta.db_table), qn(Hand._meta.db_table)
    hand_table = qn(Hand._meta.get_field("table").column)
    pk, seq = qn("id"), qn("seq")
    return (
        f"WITH v AS (SELECT * FROM jsonb_to_recordset(%s::jsonb) "
        f"AS v (tid bigint, seq bigint, hid bigint, xmin text, ctid text, {play})), "
        f"ok AS (SELECT v.* FROM v JOIN {table} t ON t.{pk} = v.tid AND t.{seq} = v.seq "
        f"JOIN {hands} h ON h.{pk} = v.hid AND h.{hand_table} = v.tid "
        f"AND h.xmin::text = v.xmin AND h.ctid::text = v.ctid), "
        f"bumped AS (UPDATE {table} t SET {seq} = t.{seq} + 1 FROM ok WHERE t.{pk} = ok.tid), "
        f"logged AS (INSERT INTO {qn(HandAction._meta.db_table)} "
        f"({', '.join(qn(f.column) for f in log_fields)}) "
        f"SELECT {picked} FROM jsonb_to_recordset(%s::jsonb) AS a ({logged}) "
        f"WHERE a.f0 IN (SELECT hid FROM ok)) "
        f"UPDATE {hands} h SET {columns} FROM ok WHERE h.{pk} = ok.hid "
        f"RETURNING h.{qn('id')}, h.xmin::text, h.ctid::text"
    )


def _json_value(value):
    """A column's value as ``_write_sql``'s JSON carries it (a time as ISO 8601 text, with its offset)."""
    return value.isoformat() if isinstance(value, datetime) else value


def _write_params(writes: list[_Write]) -> list[str]:
    """The two JSON documents of ``_write_sql``: one object per move (its table and the sequence it was
    made on, its hand and the row version, each play field as ``f0`` …), then one per log entry (each
    of ``_ACTION_COLUMNS`` as ``f0`` …)."""
    names = [f"f{i}" for i in range(max(len(PLAY_FIELDS), len(_ACTION_COLUMNS)))]
    rows = []
    for w in writes:
        row = {"tid": w.table_id, "seq": w.seq, "hid": w.hand.pk, "xmin": w.xmin, "ctid": w.ctid}
        for key, name in zip(names, PLAY_FIELDS, strict=False):
            row[key] = _json_value(getattr(w.hand, name))
        rows.append(row)
    entries = [dict(zip(names, map(_json_value, entry), strict=False)) for w in writes for entry in w.actions]
    # Compact JSON, UTF-8 kept (orjson): PostgreSQL parses it as it would the JSON Django writes.
    return [frame_text(rows), frame_text(entries)]


_group_commit: GroupCommit | None = None
_group_commit_lock = threading.Lock()


def group_commit() -> GroupCommit:
    """This process's group commit (one thread, started at its first move)."""
    global _group_commit
    if _group_commit is None:
        with _group_commit_lock:
            if _group_commit is None:
                _group_commit = GroupCommit()
    return _group_commit


def group_commit_close() -> None:
    """Close the group commit's database connection, if it has one (tests)."""
    if _group_commit is not None:
        _group_commit.close_connection()
