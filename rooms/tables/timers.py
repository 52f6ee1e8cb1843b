"""The clock of the tables an ASGI process shows: their deadlines fired from the process that serves them.

Every deadline is stored with its hand. Celery beat's ``tables.tick`` fires
every table's overdue deadline each second, so a killed process delays a
timeout and never loses one. ``TABLE_TIMERS`` says what each ASGI process
does besides, every ``TABLE_TIMER_INTERVAL`` seconds:

- ``shown`` (with Redis, the default): fire the deadlines of the tables its
  sockets show, each after that table's earlier calls (its ``asyncio.Lock``),
  so a bot's or 托管's quick turn goes out on time from the process that keeps
  the table's play;
- ``all`` (the embedded default, no beat): run every task of beat's schedule
  that repeats by seconds (the tables' tick and the rounds' tick); its first tick
  (the process started) or one after a stall first resumes the tables (``tables_resume``);
- ``off``: nothing (beat alone; tests that move the clock themselves).

A deadline fired twice, late or after it moved on does nothing: its move
is written only if the hand still holds that deadline's token.
"""

from __future__ import annotations

import asyncio
import functools
import logging

from celery import current_app
from django.conf import settings
from django.utils.translation import gettext as _

from rooms.sockets import database, table_lock
from rooms.tables import services
from rooms.tables.errors import TableError
from rooms.tables.play import amove

logger = logging.getLogger(__name__)

_watched: dict[int, int] = {}  # table id -> sockets of this process showing it
_clock: asyncio.Task | None = None


def clock_watch(table_id: int) -> None:
    """A socket shows the table: fire its deadlines from here (the clock starts with the first socket)."""
    global _clock
    _watched[table_id] = _watched.get(table_id, 0) + 1
    if _clock is None or _clock.done() or _clock.get_loop() is not asyncio.get_running_loop():
        _clock = asyncio.get_running_loop().create_task(_run_clock(), name="table-clock")


def clock_unwatch(table_id: int) -> None:
    left = _watched.get(table_id, 0) - 1
    if left > 0:
        _watched[table_id] = left
    else:
        _watched.pop(table_id, None)


async def clock_stop() -> None:
    """Stop this process's clock (tests)."""
    global _clock
    task, _clock = _clock, None
    if task is not None and task.get_loop() is asyncio.get_running_loop():
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass


async def _fire(table_id: int, hand_id: int, token: int) -> None:
    """The deadline's move, made here as a socket's move is (after the table's earlier ones)."""
    try:
        async with table_lock(table_id):
            await amove(table_id, services.timeout_step(hand_id, token), database=database)
    except services.Unchanged:
        pass
    except services.CannotContinue:
        logger.exception("hand %s cannot continue; cancelling it", hand_id)
        await database(services.hand_cancel)(hand_id=hand_id, reason=_("The game could not continue."))
    except TableError:
        pass  # the table kept moving on: the next tick sees the deadline again if it is still due


# A pause of the whole clock longer than this is time the site did not run (see ``_run_clock``).
RESUME_GAP = 10.0


@functools.cache
def _beat_ticks() -> list:
    """The tasks beat would run every few seconds (``CELERY_BEAT_SCHEDULE``): the clocks of each runtime."""
    current_app.loader.import_default_modules()  # the apps' tasks modules, as a worker loads them
    schedule = getattr(settings, "CELERY_BEAT_SCHEDULE", {})
    names = [entry["task"] for entry in schedule.values() if isinstance(entry["schedule"], (int, float))]
    return [current_app.tasks[name] for name in names]


async def _run_clock() -> None:
    interval = float(getattr(settings, "TABLE_TIMER_INTERVAL", 0.25))
    ticked: float | None = None  # when this process's whole tick last ran (loop time)
    while True:
        await asyncio.sleep(interval)
        timers = getattr(settings, "TABLE_TIMERS", "shown")
        try:
            if timers == "off":
                continue
            if timers == "all":
                # This process is the site's only clock: its first tick (a restart) or one after a
                # stall resumes it, so the time it was down counts as nobody's absence.
                now = asyncio.get_running_loop().time()
                if ticked is None or now - ticked > RESUME_GAP:
                    await database(services.tables_resume)()
                ticked = now
                for task in _beat_ticks():
                    await database(task.apply)()
                continue
            for table_id, hand_id, token in await database(services.due_hands)(list(_watched)):
                await _fire(table_id, hand_id, token)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - one bad tick must not stop every table's clock
            logger.exception("table clock tick failed")
