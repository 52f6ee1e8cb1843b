"""The one path of every change of a table: take its play, change it, write it, show it.

A *play* is what a change of a table needs: the table (its tier and game),
its seats with their players, the open hand and the seated players' balances
and win counts that the frames show. Every writer of a table (a player's move,
托管, a timeout, a bot, seating, presence, a deal, a cancel) goes through
:func:`changing`:

1. **Take** the play under the table's row lock, with its event ``seq`` moved
   on. When this process committed the table's last change, the play it kept
   is taken without reading anything: ``UPDATE … SET seq = seq + 1 WHERE id =
   %s AND seq = %s`` both locks the row and proves nobody else changed the
   table since (every writer moves ``seq`` on under that lock, here or in any
   other process). Otherwise the play is read from the database under the lock.
2. **Change** it in memory: the caller's code, with :func:`hand_step` for each
   engine step (a refusal raises and rolls everything back, ``seq`` included).
3. **Write** what changed of the hand and its new log entries, after the
   clock has set its next deadline (or found it over: it is finished and its
   settlement queued).
4. **Show** it: every viewer's frames are built in the transaction and sent
   after the commit; the play is kept for this process's next change while
   its hand is being played.

The statements are the same on PostgreSQL and SQLite.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import orjson
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from rooms import transport
from rooms.tables import broadcast, clock
from rooms.tables.errors import TableNotFound
from rooms.tables.models import Hand, HandAction, Seat, Table
from rooms.tables.settlement import settle_hand

OPEN = (Hand.Status.PLAYING, Hand.Status.FINISHED)
# What a step changes of a hand; a finished hand writes its status, time and outcome too.
MOVE_FIELDS = ("state", "clock", "deadline", "deadline_token", "action_count")
FINISH_FIELDS = (*MOVE_FIELDS, "status", "finished_at", "outcome")


@dataclass(eq=False)
class Play(broadcast.Scene):
    """One table's play: the rows a change reads and writes, loaded once, and what the change did."""

    log: list[HandAction] = field(default_factory=list)  # new log entries of the hand
    hand_fields: set[str] = field(default_factory=set)  # the hand's fields to save

    def seat_of(self, user_id: int | None) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    @property
    def engine(self):
        return clock.engine_for(self.hand.game_slug)

    def users(self) -> list[int]:
        return [seat.user_id for seat in self.seats if seat.user_id]


# --- the plays this process committed last --------------------------------------------------

_kept: OrderedDict[int, Play] = OrderedDict()
_kept_lock = threading.Lock()


def _keep(play: Play) -> None:
    most = int(clock.setting("TABLE_STATE_CACHE", 1024))
    with _kept_lock:
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


# --- taking a play --------------------------------------------------------------------------


def _take(table_id: int) -> Play:
    """The table's current play, its row locked and its ``seq`` moved on (step 1)."""
    with _kept_lock:
        play = _kept.pop(table_id, None)
    if play is not None:
        with connection.cursor() as cursor:
            cursor.execute(_sql("bump"), [table_id, play.table.seq])
            if cursor.rowcount == 1:
                play.table.seq += 1
                return play
    return read(table_id, lock=True, bump=True)


def read(table_id: int, *, lock: bool = False, bump: bool = False) -> Play:
    """Read the table's play; ``lock``: under the table's row lock (no change commits meanwhile);
    ``bump``: and move its ``seq`` on."""
    tables = Table.objects.select_related("tier__game")
    if lock:
        tables = tables.select_for_update(of=("self",))
    table = tables.filter(pk=table_id).first()
    if table is None:
        raise TableNotFound()
    if bump:
        Table.objects.filter(pk=table_id).update(seq=F("seq") + 1)
        table.seq += 1
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("index"))
    hand = Hand.objects.filter(table=table, status__in=OPEN).first()
    play = Play(table, seats, hand)
    play.balances, play.wins = broadcast.balances_and_wins(table.tier.game.slug, play.users())
    return play


@contextmanager
def changing(table_id: int, *, nested: bool = False) -> Iterator[Play]:
    """Take the table's play for a change, then write it and show it (see the module's steps).

    The caller changes the play in the ``with`` block; raising there rolls the
    whole change back. ``nested``: inside a transaction the caller opened (a
    service that changes two tables); otherwise this is the outermost one.
    """
    with transaction.atomic(savepoint=False) if nested else transaction.atomic(durable=True):
        play = _take(table_id)
        yield play
        _write(play)
        message = broadcast.frames_message(play)
        transaction.on_commit(lambda: _committed(play, message))


def _committed(play: Play, message: dict) -> None:
    play.log, play.hand_fields, play.notices, play.last_hand = [], set(), [], None
    hand = play.hand
    if hand is not None and hand.status == Hand.Status.PLAYING:
        _keep(play)
    transport.send(transport.table_group(play.table.pk), message)
    if hand is not None and hand.status == Hand.Status.FINISHED:
        settle_hand.delay(hand.pk)  # after the frames that show it finished (it may settle at once)


# --- changing a hand ------------------------------------------------------------------------


def hand_step(play: Play, seat: int | None, action: dict, *, auto: bool) -> None:
    """Apply one engine step to the play's hand in memory (``seat`` None: the deadline) and log it.

    Raises the engine's ``IllegalAction`` (or what a malformed action makes it
    raise) with nothing changed.
    """
    hand = play.hand
    engine = play.engine
    if seat is None:
        state = engine.on_deadline(hand.state)
    else:
        state = engine.apply(hand.state, seat, action)
    hand.state = state
    hand.action_count += 1
    play.log.append(
        HandAction(
            hand=hand, n=hand.action_count, seat=seat, action=action, auto=auto, created_at=timezone.now()
        )
    )
    play.hand_fields.update(MOVE_FIELDS)


def reschedule(play: Play) -> None:
    """Let the clock set the open hand's next deadline (a seat's presence or 托管 changed)."""
    if play.hand is not None and play.hand.status == Hand.Status.PLAYING:
        play.hand_fields.update(MOVE_FIELDS)


def _write(play: Play) -> None:
    """Write the hand's changes and log (step 3), after the clock planned its next deadline."""
    hand = play.hand
    if hand is None or not play.hand_fields:
        return
    fields = MOVE_FIELDS
    if hand.status == Hand.Status.PLAYING:
        outcome = clock.plan_next(hand, play.seats, timezone.now())
        if outcome is not None:
            hand.status = Hand.Status.FINISHED
            hand.finished_at = timezone.now()
            hand.outcome = {"deltas": outcome.deltas, "winners": outcome.winners, "details": outcome.details}
            fields = FINISH_FIELDS
    write_hand(play, fields)


def write_hand(play: Play, fields: tuple[str, ...]) -> None:
    """Write the play's new log entries and the hand's ``fields``."""
    if play.log:
        with connection.cursor() as cursor:
            cursor.execute(_sql("log", len(play.log)), _log_params(play.log))
        play.log = []
    save_hand(play.hand, fields)
    play.hand_fields.clear()


def save_hand(hand: Hand, fields: tuple[str, ...]) -> None:
    """``hand.save(update_fields=fields)``, as one statement written once per field list."""
    values = [_db_value(Hand._meta.get_field(name), getattr(hand, name)) for name in fields]
    with connection.cursor() as cursor:
        cursor.execute(_sql("hand", fields), [*values, hand.pk])


def _db_value(model_field, value):
    if model_field.get_internal_type() == "JSONField":
        return orjson.dumps(value).decode()  # the JSON text either database stores
    return model_field.get_db_prep_save(value, connection)


def _log_params(entries: list[HandAction]) -> list:
    created = HandAction._meta.get_field("created_at")
    params = []
    for entry in entries:
        action = orjson.dumps(entry.action).decode()
        params += [
            entry.hand_id,
            entry.n,
            entry.seat,
            action,
            entry.auto,
            _db_value(created, entry.created_at),
        ]
    return params


# The runtime's own statements, written once per process (the ORM compiled them at every move).
_texts: dict[tuple, str] = {}


def _sql(kind: str, arg=None) -> str:
    key = (connection.vendor, kind, arg)
    text = _texts.get(key)
    if text is None:
        qn = connection.ops.quote_name
        if kind == "bump":
            text = f"UPDATE {qn(Table._meta.db_table)} SET seq = seq + 1 WHERE id = %s AND seq = %s"
        elif kind == "hand":
            columns = ", ".join(f"{qn(Hand._meta.get_field(name).column)} = %s" for name in arg)
            text = f"UPDATE {qn(Hand._meta.db_table)} SET {columns} WHERE id = %s"
        else:  # the log entries
            meta = HandAction._meta
            names = ("hand", "n", "seat", "action", "auto", "created_at")
            columns = ", ".join(qn(meta.get_field(name).column) for name in names)
            rows = ", ".join(["(%s, %s, %s, %s, %s, %s)"] * arg)
            text = f"INSERT INTO {qn(meta.db_table)} ({columns}) VALUES {rows}"
        _texts[key] = text
    return text
