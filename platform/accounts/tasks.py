"""Celery tasks of the accounts app: each loads what it needs and calls a service."""

from platform.accounts.grants import grant_progress

from celery import shared_task


@shared_task(name="accounts.grant_progress", acks_late=True, ignore_result=True)
def grant_progress_task(user_ids: list[int]) -> int:
    """Pay the sign-up grant parts that these players' settled hands have earned (idempotent)."""
    return grant_progress(user_ids=user_ids)
