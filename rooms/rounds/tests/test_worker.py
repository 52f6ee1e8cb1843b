"""Payouts by REAL Celery worker processes on PostgreSQL and Redis.

As in rooms/tables/tests/test_worker.py: ``celery worker`` subprocesses on a
queue of their own, pointed at the pytest test database, receive
``rounds.settle_round``; the ledger must show one payout per round whatever
the workers do.
"""

from unittest import mock

import pytest
from django.db.models import Sum

from rooms.rounds import services
from rooms.rounds.models import Round
from rooms.rounds.tasks import settle_round
from rooms.rounds.tests.conftest import BANKER_NATURAL_9, PLAYER_NATURAL_9, open_round, run_to, stack_shoe
from rooms.tables.tests.test_worker import Workers, wait_for
from wallets.models import Account, LedgerEntry, LedgerTransaction
from wallets.selectors import wallet_balance

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_rounds"),
]


@pytest.fixture
def workers():
    pool = Workers()
    yield pool
    pool.stop_all()


def due_round(tier, bets, cards):
    """Play one round to its result with the payout held back (due), for a worker to pay."""
    from platform.celery_app import app

    app.conf.task_always_eager = True
    try:
        with mock.patch("rooms.rounds.services._queue_settlement") as queued:
            user = bets[0][0]
            table, rnd = open_round(tier, user)
            for player, area, amount in bets:
                services.round_bet(table_id=table.pk, user=player, area=area, amount=amount)
            stack_shoe(rnd, cards)
            rnd = run_to(rnd, "result")
    finally:
        app.conf.task_always_eager = False
    queued.assert_called_once_with(rnd.pk)
    assert rnd.status == "due"
    return table, rnd


def payouts(rnd) -> int:
    return LedgerTransaction.objects.filter(reference=f"round:{rnd.pk}", kind="payout").count()


def settled(rnd) -> bool:
    return Round.objects.filter(pk=rnd.pk, status="settled").exists()


def escrow_of(rnd) -> int:
    rows = LedgerEntry.objects.filter(transaction__reference=f"round:{rnd.pk}", account__code="escrow")
    return rows.aggregate(s=Sum("amount"))["s"]


def test_two_workers_paying_the_same_round_at_once_post_one_payout(bacc_tier, make_player, workers):
    alice, bob = make_player(coins=1000), make_player(coins=1000)
    _table, rnd = due_round(
        bacc_tier, [(alice, "player", 100), (bob, "banker", 200), (alice, "tie", 10)], PLAYER_NATURAL_9
    )
    # A pause after taking the locks makes the two deliveries overlap.
    workers.start(ROUNDS_TEST_SETTLE_PAUSE="1")
    workers.start(ROUNDS_TEST_SETTLE_PAUSE="1")
    settle_round.apply_async(args=(rnd.pk,), queue=workers.queue)
    settle_round.apply_async(args=(rnd.pk,), queue=workers.queue)

    assert wait_for(lambda: settled(rnd), 60)
    assert wait_for(workers.drained, 60)  # the second delivery ran too (and found nothing to do)
    assert payouts(rnd) == 1
    assert wallet_balance(user=alice) == 1000 + 100 - 10
    assert wallet_balance(user=bob) == 800
    assert escrow_of(rnd) == 0
    assert Account.objects.get(code="escrow").balance == 0


def test_a_worker_pays_the_rounds_the_tick_finds_unpaid(bacc_tier, make_player, workers):
    from django.utils import timezone

    alice = make_player(coins=1000)
    _table, first = due_round(bacc_tier, [(alice, "banker", 100)], BANKER_NATURAL_9)
    # The queued task was lost (the broker went away): the tick sends it again after 30 s.
    Round.objects.filter(pk=first.pk).update(result_at=timezone.now() - timezone.timedelta(seconds=31))
    workers.start()

    def to_test_queue(round_id):
        return settle_round.apply_async(args=(round_id,), queue=workers.queue)

    with mock.patch.object(settle_round, "delay", side_effect=to_test_queue) as sent:
        assert services.rounds_tick() >= 1
    sent.assert_called_once_with(first.pk)
    assert wait_for(lambda: settled(first), 60)
    assert payouts(first) == 1
    assert wallet_balance(user=alice) == 1000 + 95
    assert escrow_of(first) == 0
