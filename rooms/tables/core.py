"""The runtime's shared steps: the table lock, the open hand, the action log, the next deadline.

Every service locks the table row first (``lock_table``); everything else
here runs under that lock.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from rooms.tables import hands
from rooms.tables.broadcast import engine_for, seat_is_auto
from rooms.tables.errors import TableNotFound
from rooms.tables.models import Hand, HandAction, Seat, Table


def setting(name: str, default):
    return getattr(settings, name, default)


# The hot path's three locking reads are written out in SQL: the ORM spent more CPU
# compiling them than PostgreSQL spent answering (bench/load_profile.py). They return
# the same model instances the querysets did (rooms/tables/tests/test_queries.py).


def _columns(model, alias: str) -> str:
    qn = connection.ops.quote_name
    return ", ".join(f"{alias}.{qn(f.column)}" for f in model._meta.concrete_fields)


def _instance(model, values):
    """Build ``model`` from one row's values in ``concrete_fields`` order, as a queryset would."""
    fields = model._meta.concrete_fields
    converted = [
        f.from_db_value(v, None, connection) if v is not None and hasattr(f, "from_db_value") else v
        for f, v in zip(fields, values, strict=True)
    ]
    return model.from_db(connection.alias, [f.attname for f in fields], converted)


def lock_table(table_id: int, *, bump: bool = False) -> Table:
    """Lock and return the table row (the one lock that serialises a table), with its tier and game.

    ``bump``: also move the event sequence on in the same statement (an UPDATE
    locks the row as well), for a service that always ends in ``table_changed``
    or raises (a refusal rolls the bump back); pass ``bumped=True`` there.
    """
    from rooms.models import Game, RoomTier

    qn = connection.ops.quote_name
    tier_join = f"r.{qn('id')} = t.{qn(Table._meta.get_field('tier').column)}"
    game_join = f"g.{qn('id')} = r.{qn(RoomTier._meta.get_field('game').column)}"
    columns = f"{_columns(Table, 't')}, {_columns(RoomTier, 'r')}, {_columns(Game, 'g')}"
    if bump:
        sql = (
            f"UPDATE {qn(Table._meta.db_table)} t SET {qn('seq')} = t.{qn('seq')} + 1 "
            f"FROM {qn(RoomTier._meta.db_table)} r JOIN {qn(Game._meta.db_table)} g ON {game_join} "
            f"WHERE t.{qn('id')} = %s AND {tier_join} RETURNING {columns}"
        )
    else:
        sql = (
            f"SELECT {columns} FROM {qn(Table._meta.db_table)} t "
            f"JOIN {qn(RoomTier._meta.db_table)} r ON {tier_join} JOIN {qn(Game._meta.db_table)} g ON {game_join} "
            f"WHERE t.{qn('id')} = %s FOR UPDATE OF t"
        )
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id])
        row = cursor.fetchone()
    if row is None:
        raise TableNotFound()
    n_table, n_tier = len(Table._meta.concrete_fields), len(RoomTier._meta.concrete_fields)
    table = _instance(Table, row[:n_table])
    tier = _instance(RoomTier, row[n_table : n_table + n_tier])
    tier.game = _instance(Game, row[n_table + n_tier :])
    table.tier = tier
    return table


def lock_seats(table: Table) -> list[Seat]:
    """Lock and return the table's seats in index order, with their users (the snapshot shows their names)."""
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {_columns(Seat, 's')}, {_columns(user_model, 'u')} "
            f"FROM {qn(Seat._meta.db_table)} s "
            f"LEFT JOIN {qn(user_model._meta.db_table)} u ON u.{qn('id')} = s.{qn(Seat._meta.get_field('user').column)} "
            f"WHERE s.{qn(Seat._meta.get_field('table').column)} = %s ORDER BY s.{qn('index')} FOR UPDATE OF s",
            [table.pk],
        )
        rows = cursor.fetchall()
    n_seat = len(Seat._meta.concrete_fields)
    seats = []
    for row in rows:
        seat = _instance(Seat, row[:n_seat])
        seat.user = _instance(user_model, row[n_seat:]) if seat.user_id is not None else None
        seats.append(seat)
    return seats


def open_hand(table: Table) -> Hand | None:
    """Lock and return the table's playing or finished hand (at most one), or None."""
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {_columns(Hand, 'h')} FROM {qn(Hand._meta.db_table)} h "
            f"WHERE h.{qn(Hand._meta.get_field('table').column)} = %s AND h.{qn('status')} IN (%s, %s) "
            f"ORDER BY h.{qn('id')} DESC LIMIT 1 FOR UPDATE OF h",
            [table.pk, Hand.Status.PLAYING, Hand.Status.FINISHED],
        )
        row = cursor.fetchone()
    return _instance(Hand, row) if row is not None else None


def record_action(hand: Hand, seat: int | None, action: dict, *, auto: bool, state: dict) -> None:
    hand.action_count += 1
    _action_insert(hand, seat, action, auto)
    countdown = hand.state.get(COUNTDOWN_KEY)
    if countdown is not None and COUNTDOWN_KEY not in state:
        state = {**state, COUNTDOWN_KEY: countdown}  # the runtime's, whatever the engine copied
    hand.state = state


# The runtime's record of a simultaneous countdown (several seats acting at once),
# kept in the hand's state under a private key (never in a view): the phase, the
# seats still to act and the round's deadline in epoch milliseconds.
COUNTDOWN_KEY = "_countdown"


def countdown_deadline(state: dict) -> datetime | None:
    """Return the deadline of the simultaneous countdown in progress, or None."""
    countdown = state.get(COUNTDOWN_KEY)
    if not countdown:
        return None
    return datetime.fromtimestamp(countdown["deadline"] / 1000, tz=timezone.get_current_timezone())


def countdown_over(state: dict, now: datetime) -> bool:
    """Say whether a simultaneous countdown is in progress and its time is up."""
    deadline = countdown_deadline(state)
    return deadline is not None and deadline <= now


def _countdown_update(hand: Hand, actors: list[int], seconds: int | None, now: datetime) -> datetime | None:
    """Keep the round's deadline while the same simultaneous phase goes on; return it (None: no countdown).

    A countdown starts when several seats may act at once. While the phase is
    the same and its actors only shrink (someone acted, a bot or the clock
    played for a seat), the deadline stays where it was, so one seat acting
    never gives the others more (or less) time.
    """
    state = hand.state
    previous = state.get(COUNTDOWN_KEY)
    phase = state.get("phase")
    if previous and actors and previous.get("phase") == phase and set(actors) <= set(previous["actors"]):
        deadline_ms = previous["deadline"]
    elif len(actors) > 1 and seconds is not None:
        deadline_ms = int((now + timedelta(seconds=seconds)).timestamp() * 1000)
    else:
        if previous is not None:
            hand.state = {k: v for k, v in state.items() if k != COUNTDOWN_KEY}
        return None
    hand.state = {**state, COUNTDOWN_KEY: {"phase": phase, "actors": sorted(actors), "deadline": deadline_ms}}
    return countdown_deadline(hand.state)


def schedule_next(table: Table, hand: Hand, seats: list[Seat]) -> None:
    """Save the hand with its next deadline (and a new token), or finish it if the engine says so."""
    engine = engine_for(hand.game_slug)
    now = timezone.now()
    outcome = engine.outcome(hand.state)
    hand.deadline_token += 1
    if outcome is not None:
        hands.hand_finish(table=table, hand=hand, outcome=outcome)
        return
    actors = engine.actors(hand.state)
    seconds = engine.deadline_seconds(hand.state)
    round_deadline = _countdown_update(hand, actors, seconds, now)
    by_index = {seat.index: seat for seat in seats}
    auto = [by_index[i] for i in actors if i in by_index and seat_is_auto(by_index[i])]
    if auto:
        away = all(not s.is_bot and not s.trustee for s in auto)
        delay = setting("TABLE_DISCONNECT_GRACE", 5.0) if away else setting("TABLE_AUTO_DELAY", 0.8)
        hand.deadline = now + timedelta(seconds=delay)
        if round_deadline is not None:
            hand.deadline = min(hand.deadline, round_deadline)
    elif round_deadline is not None:
        hand.deadline = round_deadline
    else:
        hand.deadline = now + timedelta(seconds=seconds or 0) if (seconds is not None or not actors) else None
    _hand_save_play(hand)
    from rooms.tables.timers import timer_enqueue

    hand_id, token, deadline = hand.pk, hand.deadline_token, hand.deadline
    transaction.on_commit(lambda: timer_enqueue(hand_id=hand_id, token=token, deadline=deadline))


def _action_insert(hand: Hand, seat: int | None, action: dict, auto: bool) -> None:
    """``HandAction.objects.create`` for the log's next entry, written out (see ``lock_table``)."""
    qn = connection.ops.quote_name
    meta = HandAction._meta
    action_value = meta.get_field("action").get_db_prep_save(action, connection)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {qn(meta.db_table)} ({qn(meta.get_field('hand').column)}, {qn('n')}, {qn('seat')}, "
            f"{qn('action')}, {qn('auto')}, {qn('created_at')}) VALUES (%s, %s, %s, %s, %s, %s)",
            [hand.pk, hand.action_count, seat, action_value, auto, timezone.now()],
        )


def _hand_save_play(hand: Hand) -> None:
    """``hand.save(update_fields=["state", "deadline", "deadline_token", "action_count"])``, written out."""
    qn = connection.ops.quote_name
    state = Hand._meta.get_field("state").get_db_prep_save(hand.state, connection)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {qn(Hand._meta.db_table)} SET {qn('state')} = %s, {qn('deadline')} = %s, "
            f"{qn('deadline_token')} = %s, {qn('action_count')} = %s WHERE {qn('id')} = %s",
            [state, hand.deadline, hand.deadline_token, hand.action_count, hand.pk],
        )
