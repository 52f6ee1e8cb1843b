"""The statements of one bet (``services.round_bet``), written out on PostgreSQL.

A table's bets run one at a time under its row lock, so each round trip of a
bet is a round trip of the whole table's betting (bench/README.md, "百家乐
bets in fewer statements"). After the table's lock (``lock_table``), a bet
reads everything it checks and shows in ``bet_read`` and writes its row and
the round's totals in ``bet_write``; its coins move through the ledger
between them. The texts are built once per process and run through
``rooms.tables.statements`` (bound, prepared once they repeat), as the
seated tables' action path does. Another database (the embedded SQLite)
runs the querysets these replace.

Both statements run after the table's lock is held, each with its own
snapshot (READ COMMITTED), so they see every bet and round change committed
before the lock was granted: folding them into the locking statement would
read with a snapshot taken before its wait.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Q
from django.utils import timezone

from rooms.rounds.broadcast import user_stakes
from rooms.rounds.models import Bet, Round, Shoe
from rooms.tables import statements
from rooms.tables.core import _instance, _relate, _sql
from rooms.tables.models import Table

ESCROW = "escrow"


@dataclass
class BetRead:
    """What a bet at a locked table checks and shows, read in one statement.

    ``round``: the table's live round, locked, with its shoe (None: none is
    live); ``stakes``: the bettor's stakes on it by area; ``wallet`` and
    ``escrow``: the two accounts of the bet's ledger transaction, read, not
    locked (the ledger locks them), None if not made yet; ``finished_shoe``:
    the newer finished one of the table's last two shoes, whose seed the
    state reveals (``broadcast.public_state``).
    """

    round: Round | None
    stakes: dict[str, int]
    wallet: object
    escrow: object
    finished_shoe: Shoe | None


def bet_read(table: Table, user) -> BetRead:
    """Lock the locked table's live round (with its shoe) and read the rest of ``BetRead`` with it."""
    from wallets.models import Account

    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":
        return _bet_read_orm(table, user)
    row = statements.run(
        _sql("round_bet_read", _bet_read_sql),
        [table.pk, user.pk, user.pk, table.pk],
        statements.fetch_one,
        db=db,
    )
    n_round, n_shoe, n_account = (len(m._meta.concrete_fields) for m in (Round, Shoe, Account))
    at = 0

    def take(n: int) -> tuple:
        nonlocal at
        values = row[at : at + n]
        at += n
        return values

    round_values, shoe_values = take(n_round), take(n_shoe)
    areas, totals = take(2)
    wallet_values, escrow_values = take(n_account), take(n_account)
    finished_id, finished_number, finished_seed = take(3)
    rnd = None
    if round_values[0] is not None:
        rnd = _instance(Round, round_values, db)
        _relate(rnd, "shoe", _instance(Shoe, shoe_values, db))
    finished = None
    if finished_number is not None:
        # Only what the state shows of it; the rest is deferred (never read here).
        finished = Shoe.from_db(
            db.alias, ["id", "number", "seed"], [finished_id, finished_number, finished_seed]
        )
    return BetRead(
        round=rnd,
        stakes=dict(zip(areas or [], (int(t) for t in totals or []), strict=True)),
        wallet=_instance(Account, wallet_values, db) if wallet_values[0] is not None else None,
        escrow=_instance(Account, escrow_values, db) if escrow_values[0] is not None else None,
        finished_shoe=finished,
    )


def _bet_read_orm(table: Table, user) -> BetRead:
    from rooms.rounds.services import _live_round

    rnd = _live_round(table)
    wallet, escrow = _bet_accounts(user)
    shoes = list(Shoe.objects.filter(table=table).order_by("-number").defer("state")[:2])
    return BetRead(
        round=rnd,
        stakes=user_stakes(rnd.pk if rnd is not None else None, user.pk),
        wallet=wallet,
        escrow=escrow,
        finished_shoe=next((s for s in shoes if s.finished_at is not None), None),
    )


def _bet_accounts(user) -> tuple:
    """The player's wallet and the escrow account in one read; either None when it does not exist yet."""
    from wallets.models import Account

    wallet = escrow = None
    for account in Account.objects.filter(Q(user_id=user.pk) | Q(code="escrow")):
        if account.user_id == user.pk:
            wallet = account
        elif account.code == "escrow":
            escrow = account
    return wallet, escrow


def _aliased(model, alias: str, prefix: str) -> str:
    qn = connection.ops.quote_name
    return ", ".join(
        f"{alias}.{qn(f.column)} AS {prefix}{i}" for i, f in enumerate(model._meta.concrete_fields)
    )


def _bet_read_sql() -> str:
    from wallets.models import Account

    qn = connection.ops.quote_name
    rounds, shoes, bets = (qn(m._meta.db_table) for m in (Round, Shoe, Bet))
    accounts = qn(Account._meta.db_table)
    n_round, n_shoe = len(Round._meta.concrete_fields), len(Shoe._meta.concrete_fields)
    live = ", ".join(
        f"'{phase}'" for phase in Round.LIVE_PHASES if phase.isalpha()
    )  # written in (partial index)
    round_table = qn(Round._meta.get_field("table").column)
    round_shoe = qn(Round._meta.get_field("shoe").column)
    shoe_table = qn(Shoe._meta.get_field("table").column)
    bet_round, bet_user = qn(Bet._meta.get_field("round").column), qn(Bet._meta.get_field("user").column)
    picked = [f"r.r{i}" for i in range(n_round)] + [f"r.s{i}" for i in range(n_shoe)]
    account = ", ".join(f"{{a}}.{qn(f.column)}" for f in Account._meta.concrete_fields)
    return (
        # The live round is locked in a CTE of its own: the row of an outer join cannot be.
        f"WITH r AS MATERIALIZED (SELECT {_aliased(Round, 'rr', 'r')}, {_aliased(Shoe, 'ss', 's')} "
        f"FROM {rounds} rr JOIN {shoes} ss ON ss.{qn('id')} = rr.{round_shoe} "
        f"WHERE rr.{round_table} = %s AND rr.{qn('phase')} IN ({live}) "
        f"ORDER BY rr.{qn('id')} DESC LIMIT 1 FOR UPDATE OF rr) "
        f"SELECT {', '.join(picked)}, st.areas, st.totals, "
        f"{account.format(a='w')}, {account.format(a='e')}, fs.{qn('id')}, fs.{qn('number')}, fs.{qn('seed')} "
        f"FROM (SELECT 1) one LEFT JOIN r ON TRUE "
        # The bettor's stakes on the round by area (限红, the first-bet rule, the bettor's part).
        f"LEFT JOIN LATERAL (SELECT array_agg(b.area ORDER BY b.area) AS areas, "
        f"array_agg(b.total ORDER BY b.area) AS totals FROM (SELECT {qn('area')} AS area, "
        f"sum({qn('amount')})::bigint AS total FROM {bets} WHERE {bet_round} = r.r0 AND {bet_user} = %s "
        f"GROUP BY {qn('area')}) b) st ON TRUE "
        f"LEFT JOIN {accounts} w ON w.{qn('user_id')} = %s "
        f"LEFT JOIN {accounts} e ON e.{qn('code')} = '{ESCROW}' "
        f"LEFT JOIN LATERAL (SELECT x.{qn('id')}, x.{qn('number')}, x.{qn('seed')} FROM (SELECT {qn('id')}, "
        f"{qn('number')}, {qn('seed')}, "
        f"{qn('finished_at')} FROM {shoes} WHERE {shoe_table} = %s ORDER BY {qn('number')} DESC LIMIT 2) x "
        f"WHERE x.{qn('finished_at')} IS NOT NULL ORDER BY x.{qn('number')} DESC LIMIT 1) fs ON TRUE"
    )


def bet_write(rnd: Round, user, area: str, amount: int) -> str:
    """Insert the bet with its ledger key ``round:<round>:bet:<bet>`` and save the round's totals; return the key.

    ``rnd``: the locked round with its new ``area_totals`` and ``staked``
    set. On PostgreSQL in one statement: the bet's id is drawn from its
    sequence first, so the key that names it goes in with the row, and the
    round's UPDATE carries the INSERT in a CTE.
    """
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":
        bet = Bet.objects.create(round=rnd, user=user, area=area, amount=amount)
        bet.ledger_key = f"round:{rnd.pk}:bet:{bet.pk}"
        bet.save(update_fields=["ledger_key"])
        rnd.save(update_fields=["area_totals", "staked"])
        return bet.ledger_key
    totals = Round._meta.get_field("area_totals").get_db_prep_save(rnd.area_totals, db)
    params = [
        *[Bet._meta.db_table, rnd.pk, user.pk, area, amount, f"round:{rnd.pk}:bet:", timezone.now()],
        *[totals, rnd.staked, rnd.pk],
    ]
    return statements.run(_sql("round_bet_write", _bet_write_sql), params, statements.fetch_one, db=db)[0]


def _bet_write_sql() -> str:
    qn = connection.ops.quote_name
    bets, rounds = qn(Bet._meta.db_table), qn(Round._meta.db_table)
    return (
        f"WITH n AS (SELECT nextval(pg_get_serial_sequence(%s, 'id')) AS id), "
        f"b AS (INSERT INTO {bets} ({qn('id')}, {qn('round_id')}, {qn('user_id')}, {qn('area')}, "
        f"{qn('amount')}, {qn('ledger_key')}, {qn('created_at')}) "
        f"SELECT n.id, %s, %s, %s, %s, %s::text || n.id, %s FROM n RETURNING {qn('ledger_key')}) "
        f"UPDATE {rounds} SET {qn('area_totals')} = %s, {qn('staked')} = %s WHERE {qn('id')} = %s "
        f"RETURNING (SELECT b.{qn('ledger_key')} FROM b)"
    )
