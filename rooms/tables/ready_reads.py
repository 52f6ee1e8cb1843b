"""The statements of a press of ready (``seating.table_ready``), written out in SQL on PostgreSQL.

As for an action (``core.py``): the ORM spent more CPU compiling these than
PostgreSQL spent answering them, and a ready comes three times a hand. Each
returns what its queryset returns (the queryset is the code for any other
database, and ``rooms/tables/tests/test_queries.py`` compares the two); the
texts are built once per process and run through ``statements.run``.
"""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Q, Subquery

from rooms.tables import statements
from rooms.tables.core import _columns, _instance, _postgres, _relate, _sql
from rooms.tables.models import Hand, Seat, Table

_WAITING = Table.Status.WAITING.value


def own_seat_lock(table: Table, user) -> tuple[Seat | None, int]:
    """Lock the user's seat at ``table`` (None if they sit elsewhere or nowhere) and read their balance.

    One statement: the seat as ``select_for_update(of=("self",))`` returns it,
    and the wallet's balance (0 before the wallet exists) as ``wallet_balance``
    reads it, for the entry check.
    """
    db = connections[DEFAULT_DB_ALIAS]
    if not _postgres(db):
        return own_seat_lock_orm(table, user)
    row = statements.run(
        _sql("own_seat", _own_seat_sql), [user.pk, table.pk, user.pk], statements.fetch_one, db=db
    )
    if row is None:
        return None, 0
    return _instance(Seat, row[:-1], db), row[-1] or 0


def own_seat_lock_orm(table: Table, user) -> tuple[Seat | None, int]:
    from wallets.models import Account

    balance = Account.objects.filter(user=user).values("balance")[:1]
    seat = (
        Seat.objects.select_for_update(of=("self",))
        .filter(table=table, user=user)
        .annotate(_balance=Subquery(balance))
        .first()
    )
    if seat is None:
        return None, 0
    return seat, seat.__dict__.pop("_balance") or 0


def _own_seat_sql() -> str:
    from wallets.models import Account

    qn = connection.ops.quote_name
    seat_user, seat_table = qn(Seat._meta.get_field("user").column), qn(Seat._meta.get_field("table").column)
    balance = (
        f"(SELECT a.{qn('balance')} FROM {qn(Account._meta.db_table)} a "
        f"WHERE a.{qn('user_id')} = %s ORDER BY a.{qn('id')} LIMIT 1)"
    )
    return (
        f"SELECT {_columns(Seat, 's')}, {balance} FROM {qn(Seat._meta.db_table)} s "
        f"WHERE s.{seat_table} = %s AND s.{seat_user} = %s LIMIT 1 FOR UPDATE OF s"
    )


def seat_ready_save(seat: Seat) -> None:
    """Save the seat's ``ready`` and ``seated_at``, as ``seat.save(update_fields=["ready", "seated_at"])`` does.

    One UPDATE of the locked seat by its key. ``Model.save`` compiled it through
    the ORM at every press (a sixth of a press's CPU under the load bench) and
    sent the seat's signals, which only the staff audit trail hears, and a
    press is never a staff change (``audit_staff_only``).
    """
    db = connections[DEFAULT_DB_ALIAS]
    if not _postgres(db):
        seat.save(update_fields=["ready", "seated_at"])
        return
    statements.run(_sql("seat_ready", _seat_ready_sql), [seat.ready, seat.seated_at, seat.pk], db=db)


def _seat_ready_sql() -> str:
    qn = connection.ops.quote_name
    return (
        f"UPDATE {qn(Seat._meta.db_table)} SET {qn('ready')} = %s, {qn('seated_at')} = %s "
        f"WHERE {qn('id')} = %s"
    )


def regroup_candidates(table: Table) -> list[Table]:
    """Lock and return the tier's other waiting tables where a human is ready and a seat is free (分组).

    The tables with a ready human are listed and locked in one statement
    (``skip_locked``: another player regrouping at the same moment keeps their
    table; no deadlock), still waiting when locked (a table whose hand started
    meanwhile has no seat to give), in primary-key order, with their tiers and
    games. Which of them has a free (empty or bot) seat is asked once they are
    locked (a later snapshot than the locking statement's), in one statement.
    """
    db = connections[DEFAULT_DB_ALIAS]
    if not _postgres(db):
        return regroup_candidates_orm(table)
    from rooms.models import Game, RoomTier

    rows = statements.run(
        _sql("regroup_lock", _regroup_lock_sql), [table.tier_id, table.pk], statements.fetch_all, db=db
    )
    if not rows:
        return []
    n_table, n_tier = len(Table._meta.concrete_fields), len(RoomTier._meta.concrete_fields)
    others = []
    for row in rows:
        other = _instance(Table, row[:n_table], db)
        tier = _instance(RoomTier, row[n_table : n_table + n_tier], db)
        _relate(tier, "game", _instance(Game, row[n_table + n_tier :], db))
        _relate(other, "tier", tier)
        others.append(other)
    free = statements.run(
        _sql("regroup_free", _regroup_free_sql), [[t.pk for t in others]], statements.fetch_all, db=db
    )
    roomy = {table_id for (table_id,) in free}
    return [t for t in others if t.pk in roomy]


def regroup_candidates_orm(table: Table) -> list[Table]:
    ready_humans = Seat.objects.filter(
        table__tier=table.tier_id,
        table__status=Table.Status.WAITING,
        ready=True,
        is_bot=False,
        user__isnull=False,
    ).exclude(table=table.pk)
    others = list(
        Table.objects.select_for_update(of=("self",), skip_locked=True)
        .select_related("tier__game")
        .filter(pk__in=ready_humans.values("table_id"), status=Table.Status.WAITING)
        .order_by("pk")
    )
    if not others:
        return []
    free = Seat.objects.filter(Q(user__isnull=True) | Q(is_bot=True), table__in=[t.pk for t in others])
    roomy = set(free.values_list("table_id", flat=True).distinct())
    return [t for t in others if t.pk in roomy]


def _regroup_lock_sql() -> str:
    from rooms.models import Game, RoomTier

    qn = connection.ops.quote_name
    table_tier, seat_table = (
        qn(Table._meta.get_field("tier").column),
        qn(Seat._meta.get_field("table").column),
    )
    # The status is written in the text, not bound, as in core.py: a prepared statement's
    # generic plan can then use the (tier, status) index.
    ready_humans = (
        f"SELECT s.{seat_table} FROM {qn(Seat._meta.db_table)} s "
        f"JOIN {qn(Table._meta.db_table)} w ON w.{qn('id')} = s.{seat_table} "
        f"WHERE w.{table_tier} = %s AND w.{qn('status')} = '{_WAITING}' AND s.{qn('ready')} "
        f"AND NOT s.{qn('is_bot')} AND s.{qn(Seat._meta.get_field('user').column)} IS NOT NULL "
        f"AND s.{seat_table} <> %s"
    )
    columns = f"{_columns(Table, 't')}, {_columns(RoomTier, 'r')}, {_columns(Game, 'g')}"
    return (
        f"SELECT {columns} FROM {qn(Table._meta.db_table)} t "
        f"JOIN {qn(RoomTier._meta.db_table)} r ON r.{qn('id')} = t.{table_tier} "
        f"JOIN {qn(Game._meta.db_table)} g ON g.{qn('id')} = r.{qn(RoomTier._meta.get_field('game').column)} "
        f"WHERE t.{qn('id')} IN ({ready_humans}) AND t.{qn('status')} = '{_WAITING}' "
        f"ORDER BY t.{qn('id')} FOR UPDATE OF t SKIP LOCKED"
    )


def _regroup_free_sql() -> str:
    qn = connection.ops.quote_name
    seat_table = qn(Seat._meta.get_field("table").column)
    return (
        f"SELECT DISTINCT {seat_table} FROM {qn(Seat._meta.db_table)} "
        f"WHERE {seat_table} = ANY(%s) AND ({qn(Seat._meta.get_field('user').column)} IS NULL OR {qn('is_bot')})"
    )


def latest_hand(table: Table) -> Hand | None:
    """The table's hand of the highest number, or None (read, not locked), as ``load_context`` reads the last one."""
    db = connections[DEFAULT_DB_ALIAS]
    if not _postgres(db):
        return latest_hand_orm(table)
    row = statements.run(_sql("latest_hand", _latest_hand_sql), [table.pk], statements.fetch_one, db=db)
    return _instance(Hand, row, db) if row is not None else None


def latest_hand_orm(table: Table) -> Hand | None:
    return Hand.objects.filter(table=table).order_by("-number").first()


def _latest_hand_sql() -> str:
    qn = connection.ops.quote_name
    return (
        f"SELECT {_columns(Hand, 'h')} FROM {qn(Hand._meta.db_table)} h "
        f"WHERE h.{qn(Hand._meta.get_field('table').column)} = %s ORDER BY h.{qn('number')} DESC LIMIT 1"
    )
