"""ledger_check finds every broken invariant and names the row; the command exits non-zero."""

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from wallets.models import Account, LedgerEntry
from wallets.selectors import Problem, ledger_check
from wallets.services import house_account, ledger_post, wallet_for_user, wallet_grant, wallet_withdraw

pytestmark = pytest.mark.django_db


@pytest.fixture
def books(player):
    wallet_grant(user=player, amount=1000, key="g", reason="start")
    wallet_withdraw(user=player, amount=200, key="w", reason="out")
    return wallet_for_user(user=player)


def test_a_healthy_ledger_has_no_problems_and_the_command_says_so(books, capsys):
    assert ledger_check() == []
    call_command("ledger_check")
    assert "Ledger OK: 2 transactions, 4 entries" in capsys.readouterr().out


def test_a_corrupted_balance_is_named_and_the_command_fails(books, capsys):
    # Simulate corruption behind the service's back (Account rows carry no trigger).
    Account.objects.filter(pk=books.pk).update(balance=900)

    problems = ledger_check()

    assert (
        Problem("balance", f"account #{books.pk} ({books})", "balance is 900 but its entries sum to 800")
        in problems
    )
    assert Problem("total", "all accounts", "balances sum to 100; expected 0") in problems
    with pytest.raises(CommandError, match=r"Ledger check failed: 2 problem\(s\)"):
        call_command("ledger_check")
    assert f"[balance] account #{books.pk}" in capsys.readouterr().err


def test_a_negative_house_balance_that_must_not_be_negative_is_named(books):
    escrow = house_account(code="escrow")
    # Drop the CHECK for this test only (rolled back with it) to plant the corruption.
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # ALTER TABLE refuses pending deferred checks
            cursor.execute("ALTER TABLE wallets_account DROP CONSTRAINT wallets_account_balance_not_negative")
            Account.objects.filter(pk=escrow.pk).update(balance=-5)
        else:
            cursor.execute("PRAGMA ignore_check_constraints = ON")
            Account.objects.filter(pk=escrow.pk).update(balance=-5)
            cursor.execute("PRAGMA ignore_check_constraints = OFF")

    assert Problem("not_negative", f"account #{escrow.pk} ({escrow})", "balance is -5") in ledger_check()


def test_a_wrong_running_balance_and_an_unbalanced_transaction_are_named(books):
    entry = LedgerEntry.objects.filter(account=books).order_by("pk").first()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # The append-only trigger refuses this; switch it off inside this test's transaction.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # ALTER TABLE refuses pending deferred checks
            cursor.execute("ALTER TABLE wallets_ledgerentry DISABLE TRIGGER wallets_ledgerentry_append_only")
        cursor.execute("UPDATE wallets_ledgerentry SET balance_after = 999 WHERE id = %s", [entry.pk])
        cursor.execute("UPDATE wallets_ledgerentry SET amount = 1001 WHERE id = %s", [entry.pk])

    problems = {(p.check, p.row) for p in ledger_check()}

    assert (
        "balance_after",
        f"entry #{entry.pk} (account #{books.pk}, transaction #{entry.transaction_id})",
    ) in problems
    assert ("balanced", f"transaction #{entry.transaction_id}") in problems
    assert ("balance", f"account #{books.pk} ({books})") in problems


def test_ledger_post_keeps_running_balances_for_house_accounts_too(books):
    rake = house_account(code="rake")
    for n in range(3):
        ledger_post(key=f"r{n}", kind="settlement", legs=[(books, -10), (rake, 10)], reference=f"hand:{n}")
    assert list(rake.entries.order_by("pk").values_list("balance_after", flat=True)) == [10, 20, 30]
    assert ledger_check() == []


def test_escrow_left_behind_or_overdrawn_by_one_hand_is_named(player, make_player):
    """Balanced postings that release the wrong amount from escrow: every other check stays green.

    Escrow pools every open hand's stakes, so a settlement that pays out less than the hand
    staked leaves coins in escrow for good, and one that pays out more takes another
    table's stakes; both sum to zero in every transaction and in every balance.
    """
    other = make_player()
    escrow, rake = house_account(code="escrow"), house_account(code="rake")
    wallet, other_wallet = wallet_for_user(user=player), wallet_for_user(user=other)
    wallet_grant(user=player, amount=1000, key="g1", reason="start")
    wallet_grant(user=other, amount=1000, key="g2", reason="start")
    for hand, who in ((1, wallet), (2, other_wallet), (3, wallet), (4, other_wallet)):  # 4 still plays
        ledger_post(
            key=f"hand:{hand}:stake",
            kind="stake",
            legs=[(who, -100), (escrow, 100)],
            reference=f"hand:{hand}",
        )
    # Hand 1 settles right; hand 2 releases 90 of its 100; hand 3 releases 120 (20 of hand 2's).
    ledger_post(
        key="hand:1:settle",
        kind="settlement",
        legs=[(escrow, -100), (wallet, 95), (rake, 5)],
        reference="hand:1",
    )
    ledger_post(
        key="hand:2:settle", kind="settlement", legs=[(escrow, -90), (other_wallet, 90)], reference="hand:2"
    )
    ledger_post(
        key="hand:3:settle", kind="settlement", legs=[(escrow, -120), (wallet, 120)], reference="hand:3"
    )

    assert ledger_check() == [
        Problem(
            "escrow",
            "reference hand:2",
            "escrow holds 10 for it after 1 settlement, payout or refund; expected 0",
        ),
        Problem("escrow", "reference hand:3", "escrow paid out 20 more than was staked for it"),
    ]


def test_escrow_of_a_hand_or_round_still_open_is_not_a_problem(player):
    escrow = house_account(code="escrow")
    wallet = wallet_for_user(user=player)
    wallet_grant(user=player, amount=1000, key="g", reason="start")
    ledger_post(key="hand:7:stake", kind="stake", legs=[(wallet, -300), (escrow, 300)], reference="hand:7")
    ledger_post(key="round:4:bet:1", kind="bet", legs=[(wallet, -50), (escrow, 50)], reference="round:4")
    assert ledger_check() == []
