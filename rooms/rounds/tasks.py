"""Celery tasks of the round runtime: each loads what it needs and calls one service."""

from celery import shared_task
from django.db import OperationalError

from rooms.rounds import services


@shared_task(
    name="rounds.settle_round",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=10,
)
def settle_round(round_id: int) -> str | None:
    """Pay out a round (idempotent: a retry or a second worker changes nothing)."""
    return services.round_settle(round_id=round_id)


@shared_task(name="rounds.tick", acks_late=True, ignore_result=True, expires=5)
def tick() -> int:
    """Move due rounds on, open rounds at watched tables, re-queue lost payouts."""
    return services.rounds_tick()
