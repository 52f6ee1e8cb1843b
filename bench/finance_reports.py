"""Load ~1,000,000 ledger entries into PostgreSQL and time every finance report.

Run from the project root against your own database:

    DATABASE_URL=postgres://root@127.0.0.1:5432/finance_dev .venv/bin/python bench/finance_reports.py

The first run creates the database if it is missing, migrates, then bulk-loads
balanced transactions with COPY: sign-up grants, then 斗地主 hands (a stake of three wallets into escrow and a settlement
back with 5% rake, referenced "hand:<id>" to real Hand rows across three room
tiers) and a few house-bank rounds ("zhajinhua:<n>"), spread over 90 days. Every
entry carries its true running balance and the accounts end with the sums of
their entries, so ``ledger_check`` passes; the database's deferred "balanced"
trigger checks every transaction at each chunk's commit. Later runs find the
data and only time the reports. ``--entries N`` changes the size.
"""

import argparse
import datetime as dt
import io
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "platform.settings")


def database_ensure(url: str) -> None:
    """Create the PostgreSQL database named in ``url`` if it does not exist, as the other benches do."""
    from urllib.parse import urlparse

    if urlparse(url).scheme not in ("postgres", "postgresql"):
        return  # main() says that this bench needs PostgreSQL
    import psycopg
    from psycopg import sql

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            print(f"created database {name}")


database_ensure(os.environ.get("DATABASE_URL", ""))

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

PLAYERS = 3000
GRANT = 1_000_000
HANDS_PER_CHUNK = 20_000
DAYS = 90


def copy_rows(cursor, table: str, columns: list[str], rows: list[tuple]) -> None:
    buffer = io.StringIO()
    for row in rows:
        buffer.write("\t".join("\\N" if value is None else str(value) for value in row) + "\n")
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        copy.write(buffer.getvalue())


def setup_catalogue():
    from rooms.models import Game, RoomTier
    from rooms.tables.models import Table

    ddz, _ = Game.objects.get_or_create(
        slug="doudizhu",
        defaults={
            "name_zh": "斗地主",
            "name_en": "Fight the Landlord",
            "family": "seated",
            "min_seats": 3,
            "max_seats": 3,
        },
    )
    Game.objects.get_or_create(
        slug="zhajinhua",
        defaults={
            "name_zh": "扎金花",
            "name_en": "Three cards",
            "family": "banker",
            "min_seats": 2,
            "max_seats": 6,
        },
    )
    tables = []
    for n, (code, name, base) in enumerate(
        [("bench-low", "初级场", 1), ("bench-mid", "中级场", 5), ("bench-high", "高级场", 20)]
    ):
        tier, _ = RoomTier.objects.get_or_create(
            game=ddz, code=code, defaults={"name": name, "base_stake": base, "sort_order": n}
        )
        tables.append(Table.objects.create(tier=tier, seat_count=3))
    return tables


def load(entries_wanted: int) -> None:
    from platform.accounts.models import User

    from rooms.tables.models import Hand
    from wallets.models import Account, LedgerEntry, LedgerTransaction
    from wallets.services import house_account

    rng = random.Random(20261129)
    started = time.perf_counter()
    tables = setup_catalogue()
    users = User.objects.bulk_create(
        [User(username=f"bench{n:05d}", password="!") for n in range(PLAYERS)], batch_size=1000
    )
    wallets = Account.objects.bulk_create(
        [Account(kind="player", user=user) for user in users], batch_size=1000
    )
    cashier, escrow, rake, bank = (house_account(code=c) for c in ("cashier", "escrow", "rake", "bank"))
    balance = {a.pk: a.balance for a in Account.objects.all()}
    next_txn = (LedgerTransaction.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    next_entry = (LedgerEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    now = dt.datetime.now(dt.UTC)
    first_day = now - dt.timedelta(days=DAYS)

    txns: list[tuple] = []
    legs: list[tuple] = []

    def post(kind: str, key: str, reference: str, moment: dt.datetime, pairs: list[tuple[int, int]]) -> None:
        nonlocal next_txn, next_entry
        txns.append((next_txn, key, "bench", kind, reference, None, "", None, moment.isoformat()))
        for account_id, amount in sorted(pairs):
            balance[account_id] += amount
            legs.append((next_entry, next_txn, account_id, amount, balance[account_id]))
            next_entry += 1
        next_txn += 1

    def flush() -> None:
        with transaction.atomic(), connection.cursor() as cursor:
            copy_rows(
                cursor.cursor,
                "wallets_ledgertransaction",
                [
                    "id",
                    "key",
                    "fingerprint",
                    "kind",
                    "reference",
                    "actor_id",
                    "memo",
                    "reversal_of_id",
                    "created_at",
                ],
                txns,
            )
            copy_rows(
                cursor.cursor,
                "wallets_ledgerentry",
                ["id", "transaction_id", "account_id", "amount", "balance_after"],
                legs,
            )
        txns.clear()
        legs.clear()

    for wallet in wallets:
        post("grant", f"bench:grant:{wallet.pk}", "", first_day, [(cashier.pk, -GRANT), (wallet.pk, GRANT)])
    flush()

    hands_wanted = max(1, (entries_wanted - len(wallets) * 2) // 9)
    seconds = DAYS * 86400
    made = 0
    while made < hands_wanted:
        count = min(HANDS_PER_CHUNK, hands_wanted - made)
        numbers = {t.pk: Hand.objects.filter(table=t).count() for t in tables}
        batch = []
        for n in range(count):
            table = tables[n % 3]
            numbers[table.pk] += 1
            batch.append(
                Hand(
                    table=table,
                    number=numbers[table.pk],
                    game_slug="doudizhu",
                    seed=b"b" * 32,
                    status="settled",
                )
            )
        hands = Hand.objects.bulk_create(batch, batch_size=5000)
        for n, hand in enumerate(hands):
            moment = first_day + dt.timedelta(seconds=(made + n) * seconds // hands_wanted)
            seated = rng.sample(wallets, 3)
            carried = 100 * (1 + hand.table_id % 3)
            winner, loss = rng.randrange(3), rng.randrange(10, 50)
            rake_fee = (2 * loss) * 5 // 100
            payouts = [carried - loss] * 3
            payouts[winner] = carried + 2 * loss - rake_fee
            post(
                "stake",
                f"bench:hand:{hand.pk}:stake",
                f"hand:{hand.pk}",
                moment,
                [*((w.pk, -carried) for w in seated), (escrow.pk, 3 * carried)],
            )
            post(
                "settlement",
                f"bench:hand:{hand.pk}:settle",
                f"hand:{hand.pk}",
                moment + dt.timedelta(seconds=40),
                [
                    (escrow.pk, -3 * carried),
                    *((w.pk, p) for w, p in zip(seated, payouts, strict=True)),
                    (rake.pk, rake_fee),
                ],
            )
            if n % 50 == 0:  # a house-banked round now and then
                player, stake = rng.choice(wallets), rng.randrange(10, 100)
                result = stake if rng.random() < 0.5 else -stake
                post(
                    "bet",
                    f"bench:zjh:{hand.pk}",
                    f"zhajinhua:{hand.pk}",
                    moment,
                    [(player.pk, -result), (bank.pk, result)],
                )
        flush()
        made += count
        print(
            f"  loaded {made:,} hands ({next_entry - 1:,} entry ids) in {time.perf_counter() - started:.1f}s",
            flush=True,
        )

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE bench_balance (id bigint, balance bigint) ON COMMIT DROP")
        copy_rows(cursor.cursor, "bench_balance", ["id", "balance"], list(balance.items()))
        cursor.execute(
            "UPDATE wallets_account a SET balance = b.balance FROM bench_balance b WHERE a.id = b.id"
        )
        for table in ("wallets_ledgertransaction", "wallets_ledgerentry", "tables_hand"):
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))"
            )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"Loaded in {time.perf_counter() - started:.1f}s")


def timed(label: str, run, repeat: int = 3):
    best, result = None, None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    print(f"{label:<58} {best * 1000:8.0f} ms")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=1_000_000)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Run this against PostgreSQL: set DATABASE_URL=postgres://...")
    call_command("migrate", verbosity=0)

    from platform.accounts.models import User

    from wallets import reports
    from wallets.models import LedgerEntry, LedgerTransaction
    from wallets.selectors import ledger_check

    if not LedgerTransaction.objects.filter(key__startswith="bench:").exists():
        print(f"Loading ~{args.entries:,} ledger entries ...")
        load(args.entries)
    print(
        f"Ledger: {LedgerTransaction.objects.count():,} transactions, {LedgerEntry.objects.count():,} entries"
    )

    today = reports.site_today()
    start = today - dt.timedelta(days=89)
    player = User.objects.get(username="bench00042")
    some_hand = (
        LedgerTransaction.objects.filter(kind="settlement", key__startswith="bench:").order_by("-pk").first()
    )

    tb = timed("trial balance (today)", lambda: reports.trial_balance(on=today))
    timed("trial balance (45 days ago)", lambda: reports.trial_balance(on=today - dt.timedelta(days=45)))
    rake = timed("rake income, 90 days x game x tier", lambda: reports.rake_income(start=start, end=today))
    timed("rake income, 7 days", lambda: reports.rake_income(start=today - dt.timedelta(days=6), end=today))
    bank = timed("house-bank result, 90 days x game", lambda: reports.bank_result(start=start, end=today))

    def statement():
        report = reports.player_statement(player=player, start=start, end=today)
        return report, len(list(report.entries))

    (stmt, stmt_rows) = timed("player statement, 90 days (all rows)", statement)
    timed(
        "search: reference = one hand",
        lambda: list(reports.transaction_search(reference=some_hand.reference)),
    )
    timed(
        "search: reference prefix 'zhajinhua:*', page 1",
        lambda: list(reports.transaction_search(reference="zhajinhua:*")[:100]),
    )
    timed(
        "search: kind=stake, amount 600..900, page 1",
        lambda: list(reports.transaction_search(kind="stake", amount_min=600, amount_max=900)[:100]),
    )
    timed(
        "search: one player, last 7 days, page 1",
        lambda: list(reports.transaction_search(player=player, start=today - dt.timedelta(days=6))[:100]),
    )
    problems = timed("ledger_check (the nightly reconciliation)", ledger_check, repeat=1)

    print()
    print(
        f"trial balance: grand total {tb.grand_total:,}; issued {tb.issued:,}; players {tb.held_by_players:,}; "
        f"escrow {tb.in_escrow:,}; rake {tb.house_rake:,}; bank {tb.house_bank:,}; alerts {len(tb.alerts)}"
    )
    print(f"rake income: {len(rake.rows)} rows, total {rake.total:,} over {rake.count:,} hands")
    print(f"house bank: {len(bank.rows)} rows, total {bank.total:+,}")
    print(
        f"statement of {player.username}: {stmt_rows} entries, opening {stmt.opening:,}, closing {stmt.closing:,}"
    )
    print(f"ledger_check: {len(problems)} problem(s)")


if __name__ == "__main__":
    main()
