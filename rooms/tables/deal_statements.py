"""The statements of a deal (``hands.hand_start``), written out in SQL on PostgreSQL.

As for a move and a press of ready (``core.py``, ``ready_reads.py``): the ORM
spent more CPU compiling a deal's dozen statements than PostgreSQL spent
answering them. A deal now reads in one statement (``stake_lock``) and writes
the hand, its participants, the seats and the table in one (``hand_insert``);
the stake itself goes through the ledger (``wallets.services``). Each has its
ORM form, which runs on any other database, and
``rooms/tables/tests/test_queries.py`` compares the two.
"""

from __future__ import annotations

from typing import NamedTuple

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Max

from rooms.tables import statements
from rooms.tables.core import _columns, _instance, _postgres, _sql
from rooms.tables.models import Hand, Seat, Table

# A hand's stake transaction key; ``{}`` is the hand's id (the INSERT fills it in).
STAKE_KEY = "hand:{}:stake"
ESCROW = "escrow"


class StakeReads(NamedTuple):
    """What a deal reads before it stakes: the seated users' wallets (locked), their wins, the escrow account."""

    wallets: dict  # user id -> Account, locked, current
    wins: dict  # user id -> wins in the table's game (absent: none yet)
    escrow: object | None  # the escrow Account (only its id and kind read), or None if it does not exist yet


def stake_lock(table: Table, user_ids: list[int]) -> StakeReads:
    """Lock the users' wallets in primary-key order and read their wins and the escrow account's id.

    One statement on PostgreSQL. The wallets are locked in the ledger's own
    order for player wallets (it locks the house accounts after them), so the
    stake's posting takes no lock out of order; the escrow row is only read.
    """
    db = connections[DEFAULT_DB_ALIAS]
    if not _postgres(db):
        return stake_lock_orm(table, user_ids)
    from wallets.models import Account

    rows = statements.run(
        _sql("stake_lock", _stake_lock_sql),
        [table.tier.game.slug, sorted(user_ids)],
        statements.fetch_all,
        db=db,
    )
    wallets, wins, escrow_id = {}, {}, None
    for row in rows:
        account = _instance(Account, row[:-2], db)
        wallets[account.user_id] = account
        if row[-2] is not None:
            wins[account.user_id] = row[-2]
        escrow_id = row[-1]
    escrow = Account(pk=escrow_id, kind=Account.Kind.ESCROW, code=ESCROW) if escrow_id is not None else None
    return StakeReads(wallets, wins, escrow)


def stake_lock_orm(table: Table, user_ids: list[int]) -> StakeReads:
    from platform.accounts.models import GameStats

    from wallets.models import Account

    wallets = {
        account.user_id: account
        for account in Account.objects.select_for_update(of=("self",))
        .filter(user_id__in=user_ids)
        .order_by("pk")
    }
    wins = dict(
        GameStats.objects.filter(user_id__in=user_ids, game_slug=table.tier.game.slug).values_list(
            "user_id", "wins"
        )
    )
    escrow = Account.objects.filter(code=ESCROW).first() if wallets else None
    return StakeReads(wallets, wins, escrow)


def _stake_lock_sql() -> str:
    from platform.accounts.models import GameStats

    from wallets.models import Account

    qn = connection.ops.quote_name
    account = qn(Account._meta.db_table)
    wins = (
        f"(SELECT g.{qn('wins')} FROM {qn(GameStats._meta.db_table)} g "
        f"WHERE g.{qn('user_id')} = a.{qn('user_id')} AND g.{qn('game_slug')} = %s)"
    )
    escrow = f"(SELECT e.{qn('id')} FROM {account} e WHERE e.{qn('code')} = '{ESCROW}')"
    # A locking SELECT sorts before it locks: the rows are locked one by one in id order.
    return (
        f"SELECT {_columns(Account, 'a')}, {wins}, {escrow} FROM {account} a "
        f"WHERE a.{qn('user_id')} = ANY(%s::bigint[]) ORDER BY a.{qn('id')} FOR UPDATE OF a"
    )


# The hand's columns the INSERT writes from the instance, in this order (after its id and number).
_HAND_FIELDS = (
    "table",
    "game_slug",
    "seed",
    "config",
    "players",
    "state",
    "status",
    "deadline",
    "deadline_token",
    "action_count",
    "outcome",
    "cancel_reason",
    "settlement_key",
    "started_at",
    "finished_at",
    "settled_at",
)


class Inserted(NamedTuple):
    """The row version the INSERT wrote (PostgreSQL's ``xmin`` and ``ctid``), or Nones elsewhere."""

    xmin: str | None
    ctid: str | None


def hand_insert(hand: Hand, *, table: Table, humans: list[int], staked: bool, now) -> Inserted:
    """Insert the dealt ``hand`` (numbered after the table's last), its participants, seats not ready, table playing.

    One statement on PostgreSQL (the hand's id drawn first, so its stake key,
    ``STAKE_KEY``, is written with it when ``staked``). Sets the instance's id,
    number and stake key, as saved. The caller holds the table's lock and its
    seats', and sets ``table`` and the seats in memory.
    """
    db = connections[DEFAULT_DB_ALIAS]
    if not _postgres(db):
        return hand_insert_orm(hand, table=table, humans=humans, staked=staked, now=now)
    meta = Hand._meta
    values = [
        meta.get_field(name).get_db_prep_save(getattr(hand, meta.get_field(name).attname), db)
        for name in _HAND_FIELDS
    ]
    params = [table.pk, STAKE_KEY if staked else "", *values, sorted(humans), table.pk, now, table.pk]
    row = statements.run(_sql("hand_insert", _hand_insert_sql), params, statements.fetch_one, db=db)
    hand.pk, hand.number, hand.stake_key, xmin, ctid = row
    hand._state.adding = False
    hand._state.db = db.alias
    return Inserted(xmin, ctid)


def hand_insert_orm(hand: Hand, *, table: Table, humans: list[int], staked: bool, now) -> Inserted:
    hand.number = (Hand.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0) + 1
    started_at = hand.started_at
    hand.save(force_insert=True)
    if started_at is not None:  # auto_now_add set its own clock; keep the deal's, as on PostgreSQL
        Hand.objects.filter(pk=hand.pk).update(started_at=started_at)
        hand.started_at = started_at
    if staked:
        hand.stake_key = STAKE_KEY.format(hand.pk)
        Hand.objects.filter(pk=hand.pk).update(stake_key=hand.stake_key)
    hand.participants.add(*humans)
    Seat.objects.filter(table=table).update(ready=False)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING, updated_at=now)
    return Inserted(None, None)


def _hand_insert_sql() -> str:
    qn = connection.ops.quote_name
    meta = Hand._meta
    hand_table = qn(meta.db_table)
    through = Hand.participants.through._meta
    columns = ", ".join(qn(meta.get_field(name).column) for name in _HAND_FIELDS)
    placeholders = ", ".join(["%s"] * len(_HAND_FIELDS))
    table_column = qn(meta.get_field("table").column)
    seat_table = qn(Seat._meta.get_field("table").column)
    # VALUES, not SELECT: each parameter takes its column's type (a NULL deadline needs no cast).
    # ``n`` is referenced twice, so it is materialised: one id drawn.
    return (
        f"WITH n AS (SELECT nextval(pg_get_serial_sequence('{meta.db_table}', 'id')) AS id), "
        f"h AS (INSERT INTO {hand_table} ({qn('id')}, {qn('number')}, {qn('stake_key')}, {columns}) VALUES ("
        f"(SELECT id FROM n), "
        f"COALESCE((SELECT MAX(x.{qn('number')}) FROM {hand_table} x WHERE x.{table_column} = %s), 0) + 1, "
        f"replace(%s, '{{}}', (SELECT id FROM n)::text), {placeholders}) "
        f"RETURNING {qn('id')}, {qn('number')}, {qn('stake_key')}, xmin::text, ctid::text), "
        f"p AS (INSERT INTO {qn(through.db_table)} ({qn(through.get_field('hand').column)}, "
        f"{qn(through.get_field('user').column)}) SELECT h.{qn('id')}, u FROM h, unnest(%s::bigint[]) AS u), "
        f"s AS (UPDATE {qn(Seat._meta.db_table)} SET {qn('ready')} = false WHERE {seat_table} = %s), "
        f"t AS (UPDATE {qn(Table._meta.db_table)} SET {qn('status')} = '{Table.Status.PLAYING.value}', "
        f"{qn('updated_at')} = %s WHERE {qn('id')} = %s) "
        f"SELECT {qn('id')}, {qn('number')}, {qn('stake_key')}, xmin, ctid FROM h"
    )
