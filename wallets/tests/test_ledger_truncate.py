"""The database refuses TRUNCATE of the ledger, the one bulk erase that row triggers never see."""

import pytest
from django.db import IntegrityError, connection, transaction

from wallets.models import LedgerEntry, LedgerTransaction
from wallets.services import wallet_grant

# Committed rows, as in production: inside an open test transaction the ledger's deferred balance
# checks are still pending and PostgreSQL refuses any TRUNCATE for that reason alone.
pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _truncate(sql: str) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)


@pytest.mark.parametrize(
    ("sql", "table"),
    [
        ("TRUNCATE wallets_ledgerentry, wallets_ledgertransaction CASCADE", "wallets_ledger"),
        ("TRUNCATE wallets_ledgerentry", "wallets_ledgerentry"),
        ("TRUNCATE wallets_ledgertransaction CASCADE", "wallets_ledger"),
        # Reached only through CASCADE from the accounts the entries reference.
        ("TRUNCATE wallets_account CASCADE", "wallets_ledgerentry"),
    ],
)
def test_truncating_the_ledger_is_refused_and_changes_nothing(player, sql, table):
    wallet_grant(user=player, amount=5, key="g", reason="start")

    with pytest.raises(IntegrityError, match=f"append-only: TRUNCATE of {table}[a-z]* refused"):
        _truncate(sql)

    assert LedgerTransaction.objects.filter(key="g").count() == 1
    assert sorted(LedgerEntry.objects.values_list("amount", flat=True)) == [-5, 5]


def test_the_owner_can_still_disable_the_trigger_on_purpose(player):
    # Documented, not a hole: TRUNCATE guards against a careless statement, not against the owner.
    wallet_grant(user=player, amount=5, key="g", reason="start")
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE wallets_ledgerentry DISABLE TRIGGER wallets_ledgerentry_no_truncate")
        cursor.execute("TRUNCATE wallets_ledgerentry")
        assert not LedgerEntry.objects.exists()
        transaction.set_rollback(True)
    assert LedgerEntry.objects.count() == 2
