"""Celery tasks of the wallets app: each loads what it needs and calls a service."""

from celery import shared_task
from django.contrib.auth import get_user_model

from wallets.reconciliation import reconciliation_run


@shared_task(name="wallets.reconcile", acks_late=True, ignore_result=True)
def reconcile(trigger: str = "schedule", actor_id: int | None = None) -> int:
    """Run the nightly (or staff-requested) reconciliation; return the record's id."""
    actor = get_user_model().objects.filter(pk=actor_id).first() if actor_id else None
    return reconciliation_run(trigger=trigger, actor=actor).pk
