"""The database itself refuses bad money, whatever code writes to it."""

import pytest
from django.db import IntegrityError, connection, transaction

from wallets.models import Account, LedgerEntry, LedgerTransaction
from wallets.services import house_account, wallet_for_user, wallet_grant


@pytest.mark.django_db
def test_a_player_wallet_escrow_or_rake_cannot_hold_a_negative_balance(player):
    wallet = wallet_for_user(user=player)
    for account in (wallet, house_account(code="escrow"), house_account(code="rake")):
        with (
            pytest.raises(IntegrityError, match="wallets_account_balance_not_negative"),
            transaction.atomic(),
        ):
            Account.objects.filter(pk=account.pk).update(balance=-1)
    for code in ("cashier", "bank"):
        Account.objects.filter(code=code).update(balance=-1)
    assert Account.objects.get(pk=wallet.pk).balance == 0


@pytest.mark.django_db
def test_an_account_owner_must_match_its_kind(player):
    with pytest.raises(IntegrityError, match="wallets_account_owner_matches_kind"), transaction.atomic():
        Account.objects.create(kind="player", code="nobody")
    with pytest.raises(IntegrityError, match="wallets_account_owner_matches_kind"), transaction.atomic():
        Account.objects.create(kind="rake", user=player, code="rake-2")


@pytest.mark.django_db
def test_an_entry_of_zero_coins_is_refused(player):
    txn = wallet_grant(user=player, amount=5, key="g", reason="start")
    with pytest.raises(IntegrityError, match="wallets_entry_amount_not_zero"), transaction.atomic():
        LedgerEntry.objects.create(
            transaction=txn, account=house_account(code="rake"), amount=0, balance_after=0
        )


@pytest.mark.django_db
def test_idempotency_keys_are_unique(player):
    txn = wallet_grant(user=player, amount=5, key="g", reason="start")
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerTransaction.objects.create(key=txn.key, fingerprint="x", kind="grant")


@pytest.mark.postgres
@pytest.mark.django_db
def test_ledger_rows_cannot_be_updated_or_deleted(player):
    txn = wallet_grant(user=player, amount=5, key="g", reason="start")
    # Raw SQL, as a careless script would send it: the trigger does not care who asks.
    attempts = [
        (
            "UPDATE on wallets_ledgerentry",
            "UPDATE wallets_ledgerentry SET amount = 6 WHERE transaction_id = %s",
        ),
        ("DELETE on wallets_ledgerentry", "DELETE FROM wallets_ledgerentry WHERE transaction_id = %s"),
        (
            "UPDATE on wallets_ledgertransaction",
            "UPDATE wallets_ledgertransaction SET memo = 'x' WHERE id = %s",
        ),
        ("DELETE on wallets_ledgertransaction", "DELETE FROM wallets_ledgertransaction WHERE id = %s"),
    ]
    for message, sql in attempts:
        with pytest.raises(IntegrityError, match=f"ledger rows are append-only: {message} refused"):
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(sql, [txn.pk])
    with pytest.raises(IntegrityError, match="append-only: UPDATE"), transaction.atomic():
        LedgerEntry.objects.filter(transaction=txn).update(amount=6)
    assert sorted(LedgerEntry.objects.filter(transaction=txn).values_list("amount", flat=True)) == [-5, 5]


def _insert_raw_transaction(key: str, amounts: list[int], accounts: list[Account]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO wallets_ledgertransaction (key, fingerprint, kind, reference, memo, created_at)"
            " VALUES (%s, '', 'adjustment', '', 'raw', now()) RETURNING id",
            [key],
        )
        (txn_id,) = cursor.fetchone()
        for account, amount in zip(accounts, amounts, strict=False):
            cursor.execute(
                "INSERT INTO wallets_ledgerentry (transaction_id, account_id, amount, balance_after)"
                " VALUES (%s, %s, %s, 0)",
                [txn_id, account.pk, amount],
            )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("amounts", "message"),
    [
        ([5, -4], "is unbalanced: its entries sum to 1"),
        ([5], "has 1 entries; at least 2 are required"),
        ([], "has 0 entries; at least 2 are required"),
    ],
)
def test_the_database_refuses_an_unbalanced_transaction_at_commit(amounts, message):
    accounts = [house_account(code="cashier"), house_account(code="bank")]
    with pytest.raises(IntegrityError, match=message):
        with transaction.atomic():
            _insert_raw_transaction("raw-1", amounts, accounts)
    assert not LedgerTransaction.objects.filter(key="raw-1").exists()
    # A balanced one passes: the trigger checks sums, not who wrote the rows.
    with transaction.atomic():
        _insert_raw_transaction("raw-2", [5, -5], accounts)
    assert LedgerTransaction.objects.filter(key="raw-2").exists()
