"""SIGKILL a real Celery worker in the middle of batched settlements, restart it: every hand settles once.

200 finished hands, one ``settle_hand`` task each, as the runtime queues them.
The first worker settles in batches and holds each batch's locks for a moment
(``TABLES_TEST_SETTLE_PAUSE``), so it can be killed with a batch in flight.
That batch's transaction rolls back; its unacknowledged task comes back after
the broker's visibility timeout, and the other tasks are still queued. A new
worker finishes the job. Then every hand has exactly one settlement, every
wallet holds what a recomputation from the outcomes says, and ``ledger_check``
finds nothing.
"""

import random
import signal
from collections import Counter
from unittest import mock

import pytest
from django.contrib.auth import get_user_model

from games.base import apply_rake
from rooms.tables.models import Hand, Seat, Table
from rooms.tables.settlement import settle_hand
from rooms.tables.tests.helpers import deal_and_play_out
from rooms.tables.tests.test_worker import Workers, hand_is_locked, wait_for
from wallets.models import Account, LedgerTransaction
from wallets.selectors import ledger_check
from wallets.services import wallet_adjust

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_tables"),
]

HANDS = 200
COINS = 1000


@pytest.fixture
def workers():
    pool = Workers()
    yield pool
    pool.stop_all()


def finished_hands(tier, count: int) -> list[Hand]:
    """Deal ``count`` hands through ``hand_start`` (stakes into escrow), play them out, finish them."""
    User = get_user_model()
    seats = 3  # 斗地主 (the worker process knows only the registered games)
    users = User.objects.bulk_create([User(username=f"kill-{n}") for n in range(count * seats)])
    for user in users:
        wallet_adjust(user=user, amount=COINS, key=f"kill-test:{user.pk}", reason="test setup")
    tables = Table.objects.bulk_create([Table(tier=tier, seat_count=seats) for _ in range(count)])
    Seat.objects.bulk_create(
        [
            Seat(table=table, index=i, user=users[seats * n + i], connected=True, ready=True)
            for n, table in enumerate(tables)
            for i in range(seats)
        ]
    )
    choices = random.Random(7)
    with mock.patch.object(settle_hand, "delay"):  # the test queues the settlements itself
        return [deal_and_play_out(table.pk, choices) for table in tables]


def settled_count(hands: list[Hand]) -> int:
    return Hand.objects.filter(pk__in=[h.pk for h in hands], status="settled").count()


def test_a_worker_killed_mid_batch_loses_no_hand_and_settles_none_twice(ddz_tier, workers):
    tier = ddz_tier
    hands = finished_hands(tier, HANDS)
    queue = {"CELERY_QUEUE": workers.queue, "CELERY_VISIBILITY_TIMEOUT": "3"}
    doomed = workers.start(TABLES_TEST_SETTLE_PAUSE="1.5", **queue)
    for hand in hands:
        workers.send_settle(hand.pk)

    # Kill it once a batch has committed and the next one holds its locks.
    def batch_in_flight() -> bool:
        return settled_count(hands) > 0 and any(hand_is_locked(h) for h in hands)

    assert wait_for(batch_in_flight, 40), "the worker never settled a batch"
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(10)
    assert wait_for(lambda: not any(hand_is_locked(h) for h in hands), 30)
    before = settled_count(hands)
    assert 0 < before < HANDS
    assert (
        LedgerTransaction.objects.filter(kind="settlement").count() == before
    )  # the killed batch rolled back

    # The next worker hands the killed worker's task out again once it is past its visibility timeout.
    assert wait_for(lambda: workers.lost_visible(visibility_timeout=3), 30)
    workers.start(**queue)
    assert wait_for(lambda: settled_count(hands) == HANDS, 60), (
        f"{HANDS - settled_count(hands)} hands unsettled"
    )

    per_hand = Counter(
        LedgerTransaction.objects.filter(kind="settlement").values_list("reference", flat=True)
    )
    assert per_hand == Counter({f"hand:{h.pk}": 1 for h in hands})
    expected = Counter()
    for hand in Hand.objects.filter(pk__in=[h.pk for h in hands]):
        net, _rake = apply_rake(list(hand.outcome["deltas"]), tier.rake_bps)
        for player, amount in zip(hand.players, net, strict=True):
            expected[player["user"]] += amount
    for user_id, balance in Account.objects.filter(kind="player").values_list("user_id", "balance"):
        assert balance == COINS + expected[user_id], f"user {user_id}"
    assert Account.objects.get(code="escrow").balance == 0
    assert ledger_check() == []
