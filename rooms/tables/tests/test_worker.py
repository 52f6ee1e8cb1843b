"""Settlement with REAL Celery worker processes on PostgreSQL and Redis.

Each test starts ``celery worker`` subprocesses on a queue of its own, pointed
at the pytest test database, sends ``settle_hand`` there, and checks the
ledger: one settlement per hand, whatever the workers do.
"""

import os
import signal
import subprocess
import time
import uuid
from contextlib import contextmanager
from platform.worker_processes import WorkerProcesses
from unittest import mock
from urllib.parse import urlparse

import pytest
from django.db import DatabaseError, connection, transaction

from rooms.tables import services
from rooms.tables.models import Hand
from rooms.tables.tasks import settle_hand
from rooms.tables.tests.conftest import run_clock
from rooms.tables.tests.helpers import open_hand, sit_connected
from wallets.models import Account, LedgerTransaction

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_tables"),
]


class Workers(WorkerProcesses):
    """Worker processes on a unique queue, pointed at the pytest test database."""

    def __init__(self) -> None:
        super().__init__(f"tables-test-{uuid.uuid4().hex[:10]}", env={})

    def start(self, timeout: float = 60, **extra: str) -> subprocess.Popen:
        # The test database's name is only known once the test has its database.
        db = urlparse(os.environ["DATABASE_URL"])._replace(path="/" + connection.settings_dict["NAME"])
        self.env = {
            **os.environ,
            "DATABASE_URL": db.geturl(),
            "REDIS_URL": os.environ["REDIS_URL"],
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "TABLE_TIMERS": "off",
        }
        return super().start(timeout, **extra)

    def send_settle(self, hand_id: int) -> None:
        settle_hand.apply_async(args=(hand_id,), queue=self.queue)


@pytest.fixture
def workers():
    pool = Workers()
    yield pool
    pool.stop_all()


@contextmanager
def settlement_held_back():
    """Play in-process (eager) but keep the settlement task, so a real worker gets it later."""
    from platform.celery_app import app

    app.conf.task_always_eager = True
    try:
        with mock.patch.object(settle_hand, "delay") as queued:
            yield queued
    finally:
        app.conf.task_always_eager = False


def finished_hand(tier, user) -> Hand:
    """Play a whole hand (the human under 托管, bots elsewhere) up to its end, unsettled."""
    with settlement_held_back() as queued:
        table = sit_connected(user, tier)
        hand = open_hand(table)
        services.table_trustee(table_id=table.pk, user=user, on=True)
        for _ in range(20):
            run_clock(max_steps=1000)
            hand.refresh_from_db()
            if hand.status != "playing":
                break
    assert hand.status == "finished"
    queued.assert_called_once_with(hand.pk)
    return hand


def settlements(hand: Hand) -> int:
    return LedgerTransaction.objects.filter(reference=f"hand:{hand.pk}", kind="settlement").count()


def wait_for(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def hand_is_locked(hand: Hand) -> bool:
    try:
        with transaction.atomic():
            Hand.objects.select_for_update(nowait=True).filter(pk=hand.pk).exists()
        return False
    except DatabaseError:
        return True


def settled(hand: Hand) -> bool:
    return Hand.objects.filter(pk=hand.pk, status="settled").exists()


def test_two_workers_settling_the_same_hand_at_once_post_one_transaction(ddz_tier, make_player, workers):
    hand = finished_hand(ddz_tier, make_player(coins=3000))
    # A short pause after taking the locks makes the two deliveries overlap.
    workers.start(TABLES_TEST_SETTLE_PAUSE="1")
    workers.start(TABLES_TEST_SETTLE_PAUSE="1")
    workers.send_settle(hand.pk)
    workers.send_settle(hand.pk)

    assert wait_for(lambda: settled(hand), 60)
    assert wait_for(workers.drained, 60)  # the second delivery ran too (and found nothing to do)
    assert settlements(hand) == 1
    assert Account.objects.get(code="escrow").balance == 0


def test_a_worker_killed_mid_settlement_is_redelivered_and_settles_exactly_once(
    ddz_tier, make_player, workers
):
    hand = finished_hand(ddz_tier, make_player(coins=3000))
    doomed = workers.start(TABLES_TEST_SETTLE_PAUSE="60", CELERY_VISIBILITY_TIMEOUT="3")
    workers.send_settle(hand.pk)
    assert wait_for(lambda: hand_is_locked(hand), 30), "the worker never started settling"

    doomed.send_signal(signal.SIGKILL)
    doomed.wait(10)
    assert wait_for(lambda: not hand_is_locked(hand), 30)
    assert not settled(hand) and settlements(hand) == 0  # the killed transaction rolled back

    # Redis hands an unacknowledged message out again once it is older than the visibility
    # timeout, checked when a worker starts polling (then only every ~100 s): wait until it is.
    assert wait_for(lambda: workers.lost_visible(visibility_timeout=3), 30)
    workers.start(CELERY_VISIBILITY_TIMEOUT="3")
    assert wait_for(lambda: settled(hand), 90), "the task was not redelivered"
    assert settlements(hand) == 1
    assert Account.objects.get(code="escrow").balance == 0
