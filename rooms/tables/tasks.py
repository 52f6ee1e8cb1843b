"""Celery tasks of the table runtime: each loads what it needs and calls one service.

The settlement task lives with settlement (``rooms.tables.settlement.settle_hand``),
imported here so that a worker that autodiscovers this module registers it.
"""

from platform.staff.audit import audit_staff_only

from celery import shared_task

from rooms.tables import services
from rooms.tables.settlement import settle_hand

__all__ = ["settle_hand", "tick"]


@shared_task(name="tables.tick", acks_late=True, ignore_result=True, expires=5)
def tick() -> int:
    """Fire overdue deadlines, fill waiting tables with bots, re-queue lost settlements."""
    with audit_staff_only():  # a task is no staff change: auditlog need not read each seat saved
        return services.tables_tick()
