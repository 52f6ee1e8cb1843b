"""Celery tasks of the table runtime: each loads what it needs and calls one service."""

from celery import shared_task
from django.db import OperationalError

from rooms.tables import hands, services
from rooms.tables.core import setting


@shared_task(
    name="tables.settle_hand",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=10,
)
def settle_hand(hand_id: int, batch: int | None = None) -> str | None:
    """Settle a finished hand, draining other finished hands into the same transaction.

    Idempotent: a retry, a redelivery or a second worker changes nothing. ``batch``
    (hands per transaction) defaults to the ``TABLE_SETTLE_BATCH`` setting.
    """
    if batch is None:
        batch = setting("TABLE_SETTLE_BATCH", hands.SETTLE_BATCH)
    return hands.hand_settle_batch(hand_id=hand_id, batch=batch)


@shared_task(name="tables.tick", acks_late=True, ignore_result=True, expires=5)
def tick() -> int:
    """Fire overdue deadlines, fill waiting tables with bots, re-queue lost settlements."""
    return services.tables_tick()


@shared_task(
    name="tables.hand_timeout",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
    max_retries=3,
    ignore_result=True,
)
def hand_timeout(hand_id: int, token: int) -> bool:
    """Fire one hand's deadline if it is still current."""
    return services.table_timeout(hand_id=hand_id, token=token)
