"""Real threads against PostgreSQL: row locks, not luck, keep the ledger right."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from wallets.errors import InsufficientFunds
from wallets.models import LedgerTransaction
from wallets.selectors import ledger_check, wallet_balance
from wallets.services import house_account, ledger_post, wallet_for_user, wallet_grant, wallet_withdraw
from wallets.tests.factories import UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_at_once(count: int, work):
    """Run ``work(i)`` in ``count`` threads released together; return each result or exception."""
    barrier = threading.Barrier(count)

    def one(i):
        try:
            barrier.wait()
            return work(i)
        except Exception as error:  # noqa: BLE001 - the test inspects every outcome
            return error
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(one, range(count)))


def test_fifty_concurrent_withdrawals_never_overdraw_and_lose_no_update():
    player = UserFactory()
    wallet_grant(user=player, amount=1000, key="start", reason="start")

    results = run_at_once(50, lambda i: wallet_withdraw(user=player, amount=30, key=f"w{i}", reason="race"))

    succeeded = [r for r in results if isinstance(r, LedgerTransaction)]
    failed = [r for r in results if not isinstance(r, LedgerTransaction)]
    assert all(isinstance(r, InsufficientFunds) for r in failed), failed
    assert len(succeeded) == 1000 // 30
    assert wallet_balance(user=player) == 1000 - len(succeeded) * 30 == 10
    assert ledger_check() == []


def test_one_transaction_retried_concurrently_twenty_times_posts_once():
    player = UserFactory()
    wallet_for_user(user=player)
    house_account(code="cashier")

    results = run_at_once(20, lambda i: wallet_grant(user=player, amount=777, key="once", reason="bonus"))

    assert all(isinstance(r, LedgerTransaction) for r in results), results
    assert {r.pk for r in results} == {results[0].pk}
    assert LedgerTransaction.objects.filter(key="once").count() == 1
    assert wallet_balance(user=player) == 777
    assert ledger_check() == []


def test_crossing_transfers_through_house_accounts_do_not_deadlock():
    a, b = UserFactory(), UserFactory()
    wallet_grant(user=a, amount=1000, key="a", reason="start")
    wallet_grant(user=b, amount=1000, key="b", reason="start")
    wallet_a, wallet_b = wallet_for_user(user=a), wallet_for_user(user=b)
    rake = house_account(code="rake")

    def transfer(i):
        # Legs listed in opposite orders on purpose: the service, not the caller, orders the locks.
        if i % 2:
            legs = [(rake, 1), (wallet_b, 9), (wallet_a, -10)]
        else:
            legs = [(wallet_b, -10), (wallet_a, 9), (rake, 1)]
        return ledger_post(key=f"t{i}", kind="settlement", legs=legs, reference=f"hand:{i}")

    results = run_at_once(30, transfer)

    assert all(isinstance(r, LedgerTransaction) for r in results), results
    assert wallet_balance(user=a) + wallet_balance(user=b) == 2000 - 30
    assert house_account(code="rake").balance == 30
    assert ledger_check() == []


def test_a_batch_locks_the_player_wallets_before_the_house_accounts():
    """The batch's one locking statement keeps the global order: with escrow held, it holds the wallet and waits.

    Taken the other way round (escrow first, as its lower pk would put it), the
    posting would wait for escrow without holding the wallet.
    """
    from django.db import OperationalError, transaction

    from wallets.models import Account
    from wallets.services import Posting, ledger_post_many

    player = UserFactory()
    wallet_grant(user=player, amount=100, key="start", reason="start")
    wallet, escrow = wallet_for_user(user=player), house_account(code="escrow")
    held, release = threading.Event(), threading.Event()
    posted: list = []

    def hold_escrow():
        try:
            with transaction.atomic():
                Account.objects.select_for_update().get(pk=escrow.pk)
                held.set()
                release.wait(20)
        finally:
            connection.close()

    def post():
        try:
            held.wait(20)
            with transaction.atomic():
                legs = [(wallet, -10), (escrow, 10)]
                posted.extend(ledger_post_many(postings=[Posting(key="bet:1", kind="bet", legs=legs)]))
        finally:
            connection.close()

    threads = [threading.Thread(target=hold_escrow), threading.Thread(target=post)]
    for thread in threads:
        thread.start()
    try:
        wallet_taken = False
        for _ in range(200):  # up to ~10 s on a busy host
            try:
                with transaction.atomic():
                    Account.objects.select_for_update(nowait=True).get(pk=wallet.pk)
            except OperationalError:
                wallet_taken = True
                break
            threading.Event().wait(0.05)
        assert wallet_taken, "the posting never held the wallet while escrow was held"
        assert not posted  # still waiting for escrow
    finally:
        release.set()
        for thread in threads:
            thread.join(30)
    assert len(posted) == 1
    assert wallet_balance(user=player) == 90
    assert ledger_check() == []
