"""The state of each open hand as this process last committed it, so a move need not read it back.

Every move reads its hand under the lock (``core.lock_play``) and writes it
back (``core.hand_write``). The hand's state is a ~4 KB JSON document:
PostgreSQL decompressed and printed it and Python parsed it on every move,
although it is, almost always, the very state this process committed one move
earlier. Here a process keeps, per table, that last committed state with the
key of the row version that holds it: PostgreSQL's ``xmin`` (the writing
transaction) and ``ctid`` (the version's place), which every write of the row
changes, whoever makes it. The locking read sends the key, and PostgreSQL
returns the state only when the row is no longer that version (another
process, the worker, the clock, staff, a later write of the same transaction
changed it): the database stays the truth, the lock is taken as before, and a
miss reads the state as before.

An entry is stored only after its transaction committed (``on_commit``: a
rolled-back write never leaves one, nor does one in a savepoint rolled back),
and a key names one row version for as long as a hand can last: a transaction
id comes round again only after about four billion transactions, and a
version's ``ctid`` cannot be taken by another version of the same transaction
while it lives. The stored object is shared by every later move
that hits, so nothing may change it in place: the engines' methods never
mutate their input (``games/testing.py`` checks ``apply``, ``view`` and the
others on every step), and the runtime replaces ``hand.state``, never edits it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections


@dataclass(frozen=True, slots=True)
class KnownState:
    """One table's open hand as this process committed it: the hand, its row version, its state."""

    hand_id: int
    xmin: str
    ctid: str
    state: dict


_known: dict[int, KnownState] = {}  # by table id, oldest first
_lock = threading.Lock()  # for writers: dict reads and single assignments need none under the GIL


def _capacity() -> int:
    # Each entry holds a parsed state (tens of KB of objects): a process showing more tables
    # than this rereads the states of the ones it served longest ago.
    return getattr(settings, "TABLE_STATE_CACHE", 1024)


def state_known(table_id: int) -> KnownState | None:
    """The state this process last committed for the table's open hand, if it kept one."""
    return _known.get(table_id)


def state_keep_on_commit(*, table_id: int, hand_id: int, xmin: str, ctid: str, state: dict, db=None) -> None:
    """Keep ``state`` as row version (``xmin``, ``ctid``) of the hand once the current transaction commits.

    ``db``: the connection that wrote it, if the caller holds it (the default one otherwise).
    """
    entry = KnownState(hand_id, xmin, ctid, state)
    (db or connections[DEFAULT_DB_ALIAS]).on_commit(lambda: _keep(table_id, entry))  # transaction.on_commit


def _keep(table_id: int, entry: KnownState) -> None:
    _put(_known, table_id, entry)


def _put(kept: dict, table_id: int, entry) -> None:
    """Keep ``entry`` for the table at the newest end of ``kept``, dropping the oldest past the capacity."""
    capacity = _capacity()
    with _lock:
        kept.pop(table_id, None)  # to the newest end
        if capacity <= 0:
            return
        kept[table_id] = entry
        while len(kept) > capacity:
            del kept[next(iter(kept))]


def state_forget(table_id: int) -> None:
    """Drop what was kept for the table (its hand is over); forgetting is always safe."""
    with _lock:
        _known.pop(table_id, None)
        _plays.pop(table_id, None)


def states_clear() -> None:
    """Forget every kept state and play (tests)."""
    with _lock:
        _known.clear()
        _plays.clear()


# --- whole plays, for the kept-play path of an action (rooms/tables/owner.py) -----------------


@dataclass(frozen=True, slots=True)
class KeptPlay:
    """A table in play as this process committed it: what ``lock_play`` would read back.

    ``table.seq`` is the committed event sequence; ``hand`` is the open hand
    (row version ``xmin``/``ctid``); ``seats`` carry their users. Shared and
    read-only, as ``KnownState``: a move works on copies.
    """

    table: object  # Table, with its tier and game
    seats: list
    hand: object  # Hand
    balances: dict[int, int]
    wins: dict[int, int]
    xmin: str
    ctid: str


_plays: dict[int, KeptPlay] = {}  # by table id, oldest first


def play_kept(table_id: int) -> KeptPlay | None:
    """The play this process last committed at the table, if it kept one."""
    return _plays.get(table_id)


def play_keep(table_id: int, play: KeptPlay) -> None:
    """Keep ``play`` (already committed) and its hand's state for the next move at the table.

    A play older than the one kept is not kept: a table's thread and an event
    loop can both commit moves of one table, and the later commit's caller
    may get here first.
    """
    current = _plays.get(table_id)
    if current is not None and current.table.seq > play.table.seq:
        return
    _put(_plays, table_id, play)
    _keep(table_id, KnownState(play.hand.pk, play.xmin, play.ctid, play.hand.state))


def play_forget(table_id: int) -> None:
    """Drop the kept play of the table (something else changed it); its kept state stays."""
    if table_id in _plays:
        with _lock:
            _plays.pop(table_id, None)
