"""Deadlines: how a hand's stored deadline turns into a ``table_timeout`` call.

Two drivers call the same services, and either may run alone:

- Celery beat runs ``tables.tick`` every second (settings.CELERY_BEAT_SCHEDULE);
  the tick scans for overdue hands, so a killed worker delays a timeout and
  never loses one. With a broker, a deadline a few seconds away (bots and 托管
  "thinking") is also sent as a task with an ETA so it fires on time.
- The embedded default (settings.TABLE_TIMERS_IN_PROCESS) runs an asyncio loop
  inside the ASGI process, started lazily by the first table socket, which
  calls the same tick every ``TABLE_TIMER_INTERVAL`` seconds.

A timer that fires late, twice, or for a deadline that has moved on does
nothing: ``table_timeout`` re-checks the token under the table lock.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

logger = logging.getLogger(__name__)

_loops: dict[int, asyncio.Task] = {}


# A deadline further away than this is left to the beat tick: no task per human turn.
TIMER_TASK_HORIZON = timedelta(seconds=10)


def timer_wanted(deadline: datetime | None, now: datetime) -> bool:
    """Say whether ``timer_enqueue`` would send this deadline as a task (cheap checks first)."""
    if deadline is None or deadline - now > TIMER_TASK_HORIZON:
        return False
    if getattr(settings, "TABLE_TIMERS_IN_PROCESS", False):
        return False
    from platform.celery_app import app

    return not app.conf.task_always_eager


def timer_enqueue(*, hand_id: int, token: int, deadline: datetime | None) -> None:
    """Send a near deadline to the workers as a task with an ETA (only when a broker runs the timers)."""
    if not timer_wanted(deadline, timezone.now()):
        return
    from rooms.tables.tasks import hand_timeout

    try:
        hand_timeout.apply_async(args=(hand_id, token), eta=deadline)
    except Exception:  # noqa: BLE001 - the beat tick still fires it
        logger.warning("could not queue the timer of hand %s", hand_id, exc_info=True)


def timers_ensure_started() -> None:
    """Start the in-process timer loop on the running event loop, once (embedded mode only)."""
    if not getattr(settings, "TABLE_TIMERS_IN_PROCESS", False):
        return
    loop = asyncio.get_running_loop()
    task = _loops.get(id(loop))
    if task is not None and not task.done():
        return
    _loops[id(loop)] = loop.create_task(_run(), name="table-timers")


async def _run() -> None:
    from rooms.tables.services import tables_tick

    interval = float(getattr(settings, "TABLE_TIMER_INTERVAL", 0.25))
    while True:
        try:
            await database_sync_to_async(tables_tick)()
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - one bad tick must not stop every table's clock
            logger.exception("table timer tick failed")
        await asyncio.sleep(interval)


async def timers_stop() -> None:
    """Stop the in-process timer loop of the running event loop (tests, shutdown)."""
    task = _loops.pop(id(asyncio.get_running_loop()), None)
    if task is not None:
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
