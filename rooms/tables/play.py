"""The one path of every change of a table: take its play, change it, write it, show it.

A *play* is what a change of a table needs: the table (its tier and game),
its seats with their players, the open hand and the seated players' balances
and win counts that the frames show. Every change goes through the same four
steps, in this module:

1. **Take** the play: the one this process kept after the table's last change
   here, or the rows read from the database.
2. **Change** it in memory: the caller's *step* (``services``), with
   ``hand_step`` for each engine step; a refusal raises.
3. **Write** it (``store.write``): the table's ``seq`` moved on *if it is still
   the one the play was taken at*, the hand's log and changed fields, the
   seats' changed fields. The clock sets the hand's next deadline first, or
   finds the hand over.
4. **Show** it: every viewer's frames, built with the change, are sent after
   the commit; the play is kept while its hand is played; a finished hand's
   settlement is queued.

There are two ways through the steps, for two kinds of change:

- A **move** (a player's action, 托管, a timeout, a bot, 托管 switched, a
  socket's presence) changes only the play's rows, so its step runs on the kept
  play without holding any lock (the change takes the kept play: one at a
  time owns it), and its write's ``seq`` check proves after the fact that the
  play was current. If it was not (another process, the worker
  or a seating change moved the table on), or the step refused it on a kept
  play, the play is read again and the step runs again: a refusal is always
  decided on the database's state; the last try reads it under the table's
  row lock, so a move on a busy table waits but is never refused as busy.
  From an ASGI process's event loop
  (``amove``) the step runs on the loop and the write goes to the group commit;
  anywhere else (``move``) the write is alone.
- A **locked change** (``changing``: seating, the deal, a cancel) also moves
  coins or creates rows, so it reads the play under the table's row lock and
  runs inside that transaction.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from rooms import transport
from rooms.tables import broadcast, clock, store
from rooms.tables.errors import TableNotFound
from rooms.tables.models import Hand, Seat, Table
from rooms.tables.settlement import settle_hand

OPEN = (Hand.Status.PLAYING, Hand.Status.FINISHED)
# What a step changes of a hand; a finished hand writes its status, time and outcome too.
MOVE_FIELDS = ("state", "clock", "deadline", "deadline_token", "action_count")
FINISH_FIELDS = (*MOVE_FIELDS, "status", "finished_at", "outcome")
ATTEMPTS = 4  # a move's tries; the last, if the table moved on under all the others, takes its lock


@dataclass(eq=False)
class Play(broadcast.Scene):
    """One table's play: the rows a change reads and writes, and what the change did to them."""

    log: list[tuple] = field(default_factory=list)  # new log entries: (n, seat, action, auto, time)
    hand_fields: set[str] = field(default_factory=set)  # the hand's fields to write
    seat_fields: dict[int, set[str]] = field(default_factory=dict)  # seat index -> fields to write
    # The hand changed only by actions out of turn: the actors' clock stays as it was.
    keep_clock: bool = False

    def seat_of(self, user_id: int | None) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    @property
    def engine(self):
        return clock.engine_for(self.hand.game_slug)

    def users(self) -> list[int]:
        return [seat.user_id for seat in self.seats if seat.user_id]

    def seat_changed(self, seat: Seat, *fields: str) -> None:
        """Write these fields of ``seat`` with the change (a move's own way of saving a seat)."""
        self.seat_fields.setdefault(seat.index, set()).update(fields)


# --- the plays this process committed last --------------------------------------------------

_kept: OrderedDict[int, Play] = OrderedDict()
_kept_lock = threading.Lock()


def _keep(play: Play) -> None:
    most = int(clock.setting("TABLE_STATE_CACHE", 1024))
    with _kept_lock:
        known = _kept.get(play.table.pk)
        if known is not None and known.table.seq > play.table.seq:
            return  # a later change of the table was kept meanwhile
        _kept[play.table.pk] = play
        _kept.move_to_end(play.table.pk)
        while len(_kept) > most:
            _kept.popitem(last=False)


def forget(table_id: int) -> None:
    with _kept_lock:
        _kept.pop(table_id, None)


def forget_all() -> None:
    with _kept_lock:
        _kept.clear()


def kept_count() -> int:
    return len(_kept)


def _take(table_id: int) -> Play | None:
    """The kept play of the table, taken: one change at a time owns it (another reads the rows meanwhile),
    and it is kept again only once its change committed."""
    with _kept_lock:
        return _kept.pop(table_id, None)


# --- taking a play --------------------------------------------------------------------------


def read(table_id: int, *, lock: bool = False) -> Play:
    """Read the table's play; ``lock``: under the table's row lock (no other change commits meanwhile)."""
    tables = Table.objects.select_related("tier__game")
    if lock:
        tables = tables.select_for_update(of=("self",))
    table = tables.filter(pk=table_id).first()
    if table is None:
        raise TableNotFound()
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("index"))
    # The open hand is the latest one (numbers only grow); when none is open, the frames show the latest.
    latest = broadcast.latest_hand(table)
    hand = latest if latest is not None and latest.status in OPEN else None
    play = Play(table, seats, hand)
    if hand is None:
        play.last_hand = latest
    play.balances, play.wins = broadcast.balances_and_wins(table.tier.game.slug, play.users())
    return play


# --- a change's write and frames --------------------------------------------------------------


def hand_step(play: Play, seat: int | None, action: dict, *, auto: bool) -> None:
    """Apply one engine step to the play's hand in memory (``seat`` None: the deadline) and log it.

    Raises the engine's ``IllegalAction`` (or what a malformed action makes it
    raise) with nothing changed.
    """
    hand = play.hand
    engine = play.engine
    on_turn = seat is None or seat in engine.actors(hand.state)
    state = engine.on_deadline(hand.state) if seat is None else engine.apply(hand.state, seat, action)
    # An action out of turn (engine.out_of_turn_actions) moves nobody's turn on: unless something
    # else in this change does, the clock keeps the actors' deadline.
    play.keep_clock = not on_turn and (play.keep_clock or not play.hand_fields)
    hand.state = state
    hand.action_count += 1
    play.log.append((hand.action_count, seat, action, auto, timezone.now()))
    play.hand_fields.update(MOVE_FIELDS)


def reschedule(play: Play) -> None:
    """Let the clock set the open hand's next deadline (a seat's presence or 托管 changed)."""
    if play.hand is not None and play.hand.status == Hand.Status.PLAYING:
        play.hand_fields.update(MOVE_FIELDS)
        play.keep_clock = False


def _prepared(play: Play) -> tuple[store.Write, dict]:
    """The change's write and frames (step 3's statements, step 4's message), its ``seq`` moved on."""
    hand = play.hand
    w = store.Write(table_id=play.table.pk, seq=play.table.seq)
    if hand is not None and play.hand_fields:
        fields = MOVE_FIELDS
        if hand.status == Hand.Status.PLAYING:
            outcome = clock.plan_next(hand, play.seats, timezone.now(), keep=play.keep_clock)
            if outcome is not None:
                hand.status = Hand.Status.FINISHED
                hand.finished_at = timezone.now()
                hand.outcome = {
                    "deltas": outcome.deltas,
                    "winners": outcome.winners,
                    "details": outcome.details,
                }
                fields = FINISH_FIELDS
        w.hand_id, w.log = hand.pk, play.log
        w.hand = {name: getattr(hand, name) for name in (*fields, *play.hand_fields - set(fields))}
    by_index = {seat.index: seat for seat in play.seats}
    w.seats = [
        (by_index[index].pk, {name: getattr(by_index[index], name) for name in names})
        for index, names in sorted(play.seat_fields.items())
    ]
    play.table.seq += 1
    return w, broadcast.frames_message(play)


def _done(play: Play) -> Hand | None:
    """After the commit: keep the play while its hand is played or its table waits for the next; return
    a hand to settle, if it finished (its settlement moves the table on: the play is read again)."""
    play.log, play.hand_fields, play.seat_fields, play.notices = [], set(), {}, []
    play.keep_clock = False
    hand = play.hand
    playing = hand is not None and hand.status == Hand.Status.PLAYING
    if playing or (hand is None and play.table.status == Table.Status.WAITING):
        _keep(play)
    else:
        forget(play.table.pk)
    return hand if hand is not None and hand.status == Hand.Status.FINISHED else None


def _shown(play: Play, message: dict) -> None:
    """Step 4 for a caller on a thread: the frames after the commit, then the settlement if due."""
    finished = _done(play)
    transport.send(transport.table_group(play.table.pk), message)
    if finished is not None:
        settle_hand.delay(finished.pk)  # after the frames that show it finished (it may settle at once)


# --- a move: judged on the kept play, its write proves it current ---------------------------------

Step = Callable[[Play], object]


def move(table_id: int, step: Step) -> Play:
    """Make a move from any thread: the step on the kept play (else the rows read), written alone."""
    for attempt in range(ATTEMPTS - 1):
        kept = _take(table_id) if attempt == 0 else None
        play = kept if kept is not None else read(table_id)
        try:
            step(play)
            w, message = _prepared(play)
        except Exception:
            if kept is None:
                raise  # refused on the database's state
            continue  # refused on the kept play: ask the database's
        if store.write_alone(w):
            _shown(play, message)
            return play
    return locked_move(table_id, step)


async def amove(table_id: int, step: Step, *, database) -> Play:
    """Make a move from an ASGI process's event loop: the step here, the write in the group commit.

    The caller holds the table's ``asyncio.Lock`` (this process's moves of a
    table one at a time); ``database`` runs a function on the sockets' pool.
    """
    for attempt in range(ATTEMPTS - 1):
        kept = _take(table_id) if attempt == 0 else None
        play = kept if kept is not None else await database(read)(table_id)
        try:
            step(play)
            w, message = _prepared(play)
        except Exception:
            if kept is None:
                raise
            continue
        if await asyncio.wrap_future(store.group_commit().submit(w)):
            finished = _done(play)
            transport.send_now([(transport.table_group(table_id), message)])
            if finished is not None:
                await database(settle_hand.delay)(finished.pk)
            return play
    return await database(locked_move)(table_id, step)


def locked_move(table_id: int, step: Step) -> Play:
    """The last try of a move whose table kept moving on under it: under the table's row lock, where
    no other change can commit first, so a busy table delays a move but never starves it."""
    with changing(table_id) as play:
        step(play)
    return play


# --- a locked change: read under the table's lock, in its transaction ------------------------------


@contextmanager
def changing(table_id: int, *, nested: bool = False) -> Iterator[Play]:
    """Read the table's play under its row lock for a change that also moves coins or creates rows.

    The caller changes the play in the ``with`` block, inside the transaction
    (raising there rolls it all back); then the change is written and shown as
    a move is. ``nested``: inside a transaction the caller opened (a service
    that changes two tables); otherwise this is the outermost one.
    """
    with transaction.atomic(savepoint=False) if nested else transaction.atomic(durable=True):
        seq = store.locked_seq(table_id)
        if seq is None:
            raise TableNotFound()
        kept = _take(table_id)
        play = kept if kept is not None and kept.table.seq == seq else read(table_id)
        yield play
        w, message = _prepared(play)
        if not store.write(w):  # under the lock nobody can move the table on
            raise RuntimeError(f"table {table_id} moved on under its lock")
        transaction.on_commit(lambda: _shown(play, message))
