"""The runtime's shared steps: the table lock, the open hand, the action log, the next deadline.

Every service locks the table row first (``lock_table``); everything else
here runs under that lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import F
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init
from django.utils import timezone

from rooms.tables import hands, statements
from rooms.tables.broadcast import engine_for, seat_is_auto
from rooms.tables.errors import TableNotFound
from rooms.tables.models import Hand, HandAction, Seat, Table
from rooms.tables.state_cache import state_forget, state_keep_on_commit, state_known


def setting(name: str, default):
    return getattr(settings, name, default)


# The hot path's statements are written out in SQL on PostgreSQL: the ORM spent more
# CPU compiling them than PostgreSQL spent answering (bench/load_profile.py). They return
# the same model instances the querysets do (rooms/tables/tests/test_queries.py); the
# text of each is built once per process. Another database (the embedded SQLite) runs
# the querysets themselves, which it serialises anyway.


def _postgres(db=None) -> bool:
    return (db or connection).vendor == "postgresql"


_SQL: dict[str, str] = {}


def _sql(name: str, build) -> str:
    text = _SQL.get(name)
    if text is None:
        text = _SQL[name] = build()
    return text


def _columns(model, alias: str) -> str:
    qn = connection.ops.quote_name
    return ", ".join(f"{alias}.{qn(f.column)}" for f in model._meta.concrete_fields)


# Per model: the attribute names of its concrete fields, in order, the (position,
# converter) of each field that converts what the database returns (a JSONField's
# text), and whether anything listens to its pre_init/post_init signals.
_ROW_SHAPES: dict[type, tuple[list[str], list[tuple[int, object]], bool]] = {}


def _row_shape(model) -> tuple[list[str], list[tuple[int, object]], bool]:
    shape = _ROW_SHAPES.get(model)
    if shape is None:
        fields = model._meta.concrete_fields
        converters = [(i, f.from_db_value) for i, f in enumerate(fields) if hasattr(f, "from_db_value")]
        signalled = pre_init.has_listeners(model) or post_init.has_listeners(model)
        shape = _ROW_SHAPES[model] = ([f.attname for f in fields], converters, signalled)
    return shape


def _instance(model, values, db=None):
    """Build ``model`` from one row's values in ``concrete_fields`` order, as a queryset would.

    The instance is what ``Model.from_db`` returns (every field loaded, not
    ``adding``, from ``db``), with the values put in its ``__dict__`` at once
    instead of one ``setattr`` per field; a model with pre_init/post_init
    receivers goes through ``from_db`` itself.
    """
    db = db or connections[DEFAULT_DB_ALIAS]
    attnames, converters, signalled = _row_shape(model)
    values = list(values)
    for i, convert in converters:
        if values[i] is not None:
            values[i] = convert(values[i], None, db)
    if signalled:
        return model.from_db(db.alias, attnames, values)
    obj = model.__new__(model)
    obj._state = state = ModelState()
    state.adding = False
    state.db = db.alias
    obj.__dict__.update(zip(attnames, values, strict=True))
    return obj


def _relate(obj, name: str, related) -> None:
    """``obj.<name> = related`` for a foreign key whose id the row already gave ``obj``, as ``select_related`` does.

    Only the relation's cache is set (``ForeignKey.set_cached_value``): the
    descriptor's own checks (types, database routers) cost more than building
    the instance.
    """
    obj._state.fields_cache[name] = related


def lock_table(table_id: int, *, bump: bool = False) -> Table:
    """Lock and return the table row (the one lock that serialises a table), with its tier and game.

    ``bump``: also move the event sequence on in the same statement (an UPDATE
    locks the row as well), for a service that always ends in ``table_changed``
    or raises (a refusal rolls the bump back); pass ``bumped=True`` there.
    """
    from rooms.models import Game, RoomTier

    # The connection itself, looked up once: each use of the ``connection`` proxy looks it
    # up again (asgiref's Local, ~5 µs), and an action made some twenty of them.
    db = connections[DEFAULT_DB_ALIAS]
    if not _postgres(db):
        if bump:
            Table.objects.filter(pk=table_id).update(seq=F("seq") + 1)
        table = Table.objects.select_for_update(of=("self",)).select_related("tier__game").filter(pk=table_id)
        table = table.first()
        if table is None:
            raise TableNotFound()
        return table
    sql = _sql("lock_table_bump" if bump else "lock_table", lambda: _lock_table_sql(bump))
    row = statements.run(sql, [table_id], statements.fetch_one, db=db)
    if row is None:
        raise TableNotFound()
    n_table, n_tier = len(Table._meta.concrete_fields), len(RoomTier._meta.concrete_fields)
    table = _instance(Table, row[:n_table], db)
    tier = _instance(RoomTier, row[n_table : n_table + n_tier], db)
    _relate(tier, "game", _instance(Game, row[n_table + n_tier :], db))
    _relate(table, "tier", tier)
    return table


def _lock_table_sql(bump: bool) -> str:
    from rooms.models import Game, RoomTier

    qn = connection.ops.quote_name
    tier_join = f"r.{qn('id')} = t.{qn(Table._meta.get_field('tier').column)}"
    game_join = f"g.{qn('id')} = r.{qn(RoomTier._meta.get_field('game').column)}"
    columns = f"{_columns(Table, 't')}, {_columns(RoomTier, 'r')}, {_columns(Game, 'g')}"
    if bump:
        return (
            f"UPDATE {qn(Table._meta.db_table)} t SET {qn('seq')} = t.{qn('seq')} + 1 "
            f"FROM {qn(RoomTier._meta.db_table)} r JOIN {qn(Game._meta.db_table)} g ON {game_join} "
            f"WHERE t.{qn('id')} = %s AND {tier_join} RETURNING {columns}"
        )
    return (
        f"SELECT {columns} FROM {qn(Table._meta.db_table)} t "
        f"JOIN {qn(RoomTier._meta.db_table)} r ON {tier_join} JOIN {qn(Game._meta.db_table)} g ON {game_join} "
        f"WHERE t.{qn('id')} = %s FOR UPDATE OF t"
    )


def lock_seats(table: Table) -> list[Seat]:
    """Lock and return the table's seats in index order, with their users (the snapshot shows their names)."""
    from django.contrib.auth import get_user_model

    if not _postgres():
        return list(
            Seat.objects.select_for_update(of=("self",))
            .filter(table=table)
            .select_related("user")
            .order_by("index")
        )
    rows = statements.run(_sql("lock_seats", _lock_seats_sql), [table.pk], statements.fetch_all)
    return _seats_from_rows(rows, get_user_model())


def _lock_seats_sql() -> str:
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    qn = connection.ops.quote_name
    return (
        f"SELECT {_columns(Seat, 's')}, {_columns(user_model, 'u')} "
        f"FROM {qn(Seat._meta.db_table)} s "
        f"LEFT JOIN {qn(user_model._meta.db_table)} u ON u.{qn('id')} = s.{qn(Seat._meta.get_field('user').column)} "
        f"WHERE s.{qn(Seat._meta.get_field('table').column)} = %s ORDER BY s.{qn('index')} FOR UPDATE OF s"
    )


def _seats_from_rows(rows, user_model, db=None) -> list[Seat]:
    n_seat, n_user = len(Seat._meta.concrete_fields), len(user_model._meta.concrete_fields)
    db = db or connections[DEFAULT_DB_ALIAS]
    seats = []
    for row in rows:
        seat = _instance(Seat, row[:n_seat], db)
        user = _instance(user_model, row[n_seat : n_seat + n_user], db) if seat.user_id is not None else None
        _relate(seat, "user", user)
        seats.append(seat)
    return seats


def open_hand(table: Table) -> Hand | None:
    """Lock and return the table's playing or finished hand (at most one), or None."""
    if not _postgres():
        hands_ = Hand.objects.select_for_update(of=("self",)).filter(table=table, status__in=OPEN_STATUSES)
        return hands_.order_by("-pk").first()
    row = statements.run(_sql("open_hand", _open_hand_sql), [table.pk], statements.fetch_one)
    return _instance(Hand, row) if row is not None else None


OPEN_STATUSES = (Hand.Status.PLAYING, Hand.Status.FINISHED)


def hand_table_id(hand_id: int) -> int | None:
    """The id of the hand's table, or None if there is no such hand (read, not locked: a timer's first step)."""
    if not _postgres():
        return Hand.objects.filter(pk=hand_id).values_list("table_id", flat=True).first()
    row = statements.run(_sql("hand_table", _hand_table_sql), [hand_id], statements.fetch_one)
    return row[0] if row is not None else None


def _hand_table_sql() -> str:
    qn = connection.ops.quote_name
    column = qn(Hand._meta.get_field("table").column)
    return f"SELECT {column} FROM {qn(Hand._meta.db_table)} WHERE {qn('id')} = %s"


def _open_hand_sql(state: str | None = None) -> str:
    """The locking read of the open hand; ``state``: the expression that stands for the state column."""
    qn = connection.ops.quote_name
    # The statuses are written in the text, not bound: a plan made for any parameters
    # (a prepared statement's generic plan) can then use the partial index of open hands.
    statuses = ", ".join(f"'{status}'" for status in OPEN_STATUSES if status.isalpha())
    columns = _columns(Hand, "h")
    if state is not None:
        columns = ", ".join(
            state if f.attname == "state" else f"h.{qn(f.column)}" for f in Hand._meta.concrete_fields
        )
    return (
        f"SELECT {columns} FROM {qn(Hand._meta.db_table)} h "
        f"WHERE h.{qn(Hand._meta.get_field('table').column)} = %s AND h.{qn('status')} IN ({statuses}) "
        f"ORDER BY h.{qn('id')} DESC LIMIT 1 FOR UPDATE OF h"
    )


@dataclass
class Play:
    """What an action at a locked table needs: its seats (users loaded), its open hand, and for the
    broadcast the seated users' balances and win counts in the table's game."""

    seats: list[Seat]
    hand: Hand | None
    balances: dict[int, int]
    wins: dict[int, int]


def lock_play(table: Table) -> Play:
    """``lock_seats``, ``open_hand`` and the broadcast's balances and wins, in one statement.

    The seats and the open hand are locked (the hand in a CTE of its own: the
    row of an outer join cannot be locked); the balances and win counts are
    read, not locked, as ``table_changed`` reads them. Only the first seat's
    row carries the hand (the others' would be copies of its large state).
    Only for a service that changes no balance before its broadcast
    (``table_act``, ``table_timeout``): the broadcast shows the balances read
    here.
    """
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    db = connections[DEFAULT_DB_ALIAS]
    if not _postgres(db):
        seats = lock_seats(table)
        from rooms.tables.broadcast import balances_and_wins

        balances, wins = balances_and_wins(table, [s.user_id for s in seats if s.user_id])
        return Play(seats, open_hand(table), balances, wins)
    known = state_known(table.pk)
    key = [known.hand_id, known.xmin, known.ctid] if known is not None else [None, None, None]
    params = [*key, table.pk, table.tier.game.slug, table.pk, table.pk]
    rows = statements.run(_sql("lock_play", _lock_play_sql), params, statements.fetch_all, db=db)
    n_seat, n_user = len(Seat._meta.concrete_fields), len(user_model._meta.concrete_fields)
    n_people = n_seat + n_user
    seats = _seats_from_rows([row[:n_people] for row in rows], user_model, db)
    balances: dict[int, int] = {}
    wins: dict[int, int] = {}
    for seat, row in zip(seats, rows, strict=True):
        if seat.user_id is not None:
            if row[n_people] is not None:
                balances[seat.user_id] = row[n_people]
            if row[n_people + 1] is not None:
                wins[seat.user_id] = row[n_people + 1]
    hand = None
    if rows and rows[0][n_people + 2] is not None:
        hand = _instance(Hand, rows[0][n_people + 2 :], db)
        if hand.state is None:  # the row is still the version this process committed (the column is NOT NULL)
            if known is None or known.hand_id != hand.pk:
                raise RuntimeError(f"hand {hand.pk}: no state read and none kept")
            hand.state = known.state
    return Play(seats, hand, balances, wins)


def _lock_play_sql() -> str:
    from platform.accounts.models import GameStats

    from django.contrib.auth import get_user_model

    from wallets.models import Account

    user_model = get_user_model()
    qn = connection.ops.quote_name
    seat_user = f"s.{qn(Seat._meta.get_field('user').column)}"
    seat_table = qn(Seat._meta.get_field("table").column)
    first_seat = f"(SELECT min(f.{qn('index')}) FROM {qn(Seat._meta.db_table)} f WHERE f.{seat_table} = %s)"
    # The hand's state only when the row is not the version this process committed last
    # (``state_cache``): the key's three parameters come first, NULL when nothing is kept.
    known = f"h.{qn('id')} = %s AND h.xmin = %s::xid AND h.ctid = %s::tid"
    state = f"CASE WHEN {known} THEN NULL ELSE h.{qn('state')} END AS {qn('state')}"
    return (
        f"WITH h AS MATERIALIZED ({_open_hand_sql(state=state)}) "
        f"SELECT {_columns(Seat, 's')}, {_columns(user_model, 'u')}, a.{qn('balance')}, w.{qn('wins')}, h.* "
        f"FROM {qn(Seat._meta.db_table)} s "
        f"LEFT JOIN {qn(user_model._meta.db_table)} u ON u.{qn('id')} = {seat_user} "
        f"LEFT JOIN {qn(Account._meta.db_table)} a ON a.{qn('user_id')} = {seat_user} "
        f"LEFT JOIN {qn(GameStats._meta.db_table)} w ON w.{qn('user_id')} = {seat_user} "
        f"AND w.{qn('game_slug')} = %s "
        f"LEFT JOIN h ON s.{qn('index')} = {first_seat} "
        f"WHERE s.{seat_table} = %s ORDER BY s.{qn('index')} FOR UPDATE OF s"
    )


def record_action(hand: Hand, seat: int | None, action: dict, *, auto: bool, state: dict) -> None:
    """Append ``action`` to the hand's log and take the engine's new ``state``.

    The log entry is written with the hand's next save (``hand_write``, in the
    same statement on PostgreSQL), or by ``hand_write_actions``.
    """
    hand.action_count += 1
    unsaved = hand.__dict__.setdefault(UNSAVED_ACTIONS, [])
    unsaved.append([hand.pk, hand.action_count, seat, action, auto, timezone.now()])
    countdown = hand.state.get(COUNTDOWN_KEY)
    if countdown is not None and COUNTDOWN_KEY not in state:
        state = {**state, COUNTDOWN_KEY: countdown}  # the runtime's, whatever the engine copied
    hand.state = state


# The log entries ``record_action`` appended and no statement has written yet (on the hand instance).
UNSAVED_ACTIONS = "_unsaved_actions"


# The runtime's record of a simultaneous countdown (several seats acting at once),
# kept in the hand's state under a private key (never in a view): the phase, the
# seats still to act and the round's deadline in epoch milliseconds.
COUNTDOWN_KEY = "_countdown"


def _record_deadline(state: dict, key: str) -> datetime | None:
    """Return the deadline of the runtime's clock record under ``key`` (epoch ms), or None."""
    record = state.get(key)
    if not record:
        return None
    # In UTC, as the database gives datetimes back: the active time zone is a context-local
    # lookup, and a kept move on the event loop reads this deadline at every turn.
    return datetime.fromtimestamp(record["deadline"] / 1000, tz=UTC)


def countdown_deadline(state: dict) -> datetime | None:
    """Return the deadline of the simultaneous countdown in progress, or None."""
    return _record_deadline(state, COUNTDOWN_KEY)


def countdown_over(state: dict, now: datetime) -> bool:
    """Say whether the actors' own time is up: a simultaneous countdown's, or a lone actor's turn's."""
    deadline = countdown_deadline(state) or turn_deadline(state)
    return deadline is not None and deadline <= now


# The runtime's record of a lone actor's turn, under a private key of the hand's state like
# the countdown: the action count the turn began at and its deadline in epoch milliseconds.
# It outlives the actor's presence and 托管 switches, which only reschedule: going away
# shortens the turn to the grace, and coming back gives back what was left of it, not a
# fresh turn (or a player could stall a table by reloading their page).
TURN_KEY = "_turn"


def turn_deadline(state: dict) -> datetime | None:
    """Return the deadline of the lone actor's turn in progress, or None."""
    return _record_deadline(state, TURN_KEY)


def _turn_update(hand: Hand, seconds: int | None, now: datetime) -> datetime | None:
    """Keep a lone actor's deadline until an action is recorded; return it (None: no clock).

    Called with ``seconds`` None when the turn has no clock of its own (no time limit, or a
    simultaneous countdown sets the time), which drops any record.
    """
    state = hand.state
    previous = state.get(TURN_KEY)
    if seconds is not None and previous and previous["n"] == hand.action_count:
        return turn_deadline(state)
    if seconds is None:
        if previous is not None:
            hand.state = {k: v for k, v in state.items() if k != TURN_KEY}
        return None
    deadline_ms = int((now + timedelta(seconds=seconds)).timestamp() * 1000)
    hand.state = {**state, TURN_KEY: {"n": hand.action_count, "deadline": deadline_ms}}
    return turn_deadline(hand.state)


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
    now = timezone.now()
    outcome = plan_next(hand, seats, now)
    if outcome is not None:
        hands.hand_finish(table=table, hand=hand, outcome=outcome)
        return
    hand_write(hand)
    from rooms.tables.timers import timer_enqueue, timer_wanted

    hand_id, token, deadline = hand.pk, hand.deadline_token, hand.deadline
    if timer_wanted(deadline, now):  # a human's turn is left to the beat tick: no hook at all
        transaction.on_commit(lambda: timer_enqueue(hand_id=hand_id, token=token, deadline=deadline))


def plan_next(hand: Hand, seats: list[Seat], now: datetime):
    """Set the hand's next deadline and a new token in memory; return the engine's outcome if it is over.

    Writes nothing: ``schedule_next`` saves the hand (or finishes it), the
    kept-play path (``rooms/tables/owner.py``) hands the write to its group commit.
    """
    engine = engine_for(hand.game_slug)
    outcome = engine.outcome(hand.state)
    hand.deadline_token += 1
    if outcome is not None:
        if TURN_KEY in hand.state:  # the engine copied the last turn's clock; a finished hand has none
            hand.state = {k: v for k, v in hand.state.items() if k != TURN_KEY}
        return outcome
    actors = engine.actors(hand.state)
    seconds = engine.deadline_seconds(hand.state)
    clock = _countdown_update(hand, actors, seconds, now)
    if clock is None:
        clock = _turn_update(hand, seconds if len(actors) == 1 else None, now)
    elif TURN_KEY in hand.state:
        _turn_update(hand, None, now)
    by_index = {seat.index: seat for seat in seats}
    auto = [by_index[i] for i in actors if i in by_index and seat_is_auto(by_index[i])]
    if auto:
        away = all(not s.is_bot and not s.trustee for s in auto)
        delay = setting("TABLE_DISCONNECT_GRACE", 5.0) if away else setting("TABLE_AUTO_DELAY", 0.8)
        hand.deadline = now + timedelta(seconds=delay)
        if clock is not None:  # going away or 托管 never lengthens the actors' own time
            hand.deadline = min(hand.deadline, clock)
    elif clock is not None:
        hand.deadline = clock
    else:
        hand.deadline = now + timedelta(seconds=seconds or 0) if (seconds is not None or not actors) else None
    return None


# What a move saves of the hand (``hand.save(update_fields=...)``); a finished hand saves more.
PLAY_FIELDS = ("state", "deadline", "deadline_token", "action_count")


def hand_write(hand: Hand, fields: tuple[str, ...] = PLAY_FIELDS) -> None:
    """``hand.save(update_fields=fields)`` and the log entries ``record_action`` appended, written out.

    On PostgreSQL one statement does both (the INSERT in a CTE of the UPDATE).
    """
    db = connections[DEFAULT_DB_ALIAS]
    postgres = _postgres(db)
    if not postgres:
        hand_write_actions(hand)  # the log entries in a statement of their own, then the hand
    actions = hand.__dict__.pop(UNSAVED_ACTIONS, [])
    meta = Hand._meta
    values = [meta.get_field(name).get_db_prep_save(getattr(hand, name), db) for name in fields]
    values.append(hand.pk)
    count = len(actions)
    # A move of a hand still playing: keep the state it commits, keyed by the row version
    # this statement writes, for this process's next locking read (``state_cache``).
    keep = postgres and "state" in fields and hand.status == Hand.Status.PLAYING
    if "state" in fields and not keep:
        state_forget(hand.table_id)
    name = f"hand_write:{','.join(fields)}:{count}:{keep}"
    sql = _sql(name, lambda: _hand_write_sql(fields, count, returning=keep))
    params = [*_actions_params(actions, db), *values]
    row = statements.run(sql, params, statements.fetch_one if keep else statements.fetch_none, db=db)
    if keep and row is not None:
        xmin, ctid = row
        state_keep_on_commit(
            table_id=hand.table_id, hand_id=hand.pk, xmin=xmin, ctid=ctid, state=hand.state, db=db
        )


def hand_write_actions(hand: Hand) -> None:
    """Write the log entries ``record_action`` appended, without the hand (which a caller saves its own way)."""
    actions = hand.__dict__.pop(UNSAVED_ACTIONS, [])
    if actions:
        sql = _sql(f"actions:{len(actions)}", lambda: _actions_insert_sql(len(actions)))
        statements.run(sql, _actions_params(actions))


def _actions_params(actions: list[list], db=None) -> list:
    action_field = HandAction._meta.get_field("action")
    db = db or connection
    params = []
    for hand_id, n, seat, action, auto, created_at in actions:
        params += [hand_id, n, seat, action_field.get_db_prep_save(action, db), auto, created_at]
    return params


def _actions_insert_sql(count: int) -> str:
    qn = connection.ops.quote_name
    meta = HandAction._meta
    rows = ", ".join(["(%s, %s, %s, %s, %s, %s)"] * count)
    return (
        f"INSERT INTO {qn(meta.db_table)} ({qn(meta.get_field('hand').column)}, {qn('n')}, {qn('seat')}, "
        f"{qn('action')}, {qn('auto')}, {qn('created_at')}) VALUES {rows}"
    )


def _hand_write_sql(fields: tuple[str, ...], actions: int, *, returning: bool = False) -> str:
    qn = connection.ops.quote_name
    meta = Hand._meta
    columns = ", ".join(f"{qn(meta.get_field(name).column)} = %s" for name in fields)
    update = f"UPDATE {qn(meta.db_table)} SET {columns} WHERE {qn('id')} = %s"
    if returning:  # the key of the row version written (rooms/tables/state_cache.py)
        update += " RETURNING xmin::text, ctid::text"
    if not actions:
        return update
    return f"WITH logged AS ({_actions_insert_sql(actions)}) {update}"
