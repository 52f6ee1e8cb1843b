"""Which ASGI processes are alive, so a seat forgets the sockets of a process that died.

A seat keeps the channel names of its player's open sockets (``Seat.sockets``)
and is away only when the last one closes. A socket's close is recorded by its
consumer; a process that is killed (or crashes) records nothing, and its names
would keep the seat "connected" after the player has gone: 托管 would never
play for them and they would never be stood up. So every ASGI process with
table sockets keeps a short-lived key in Redis alive (``ALIVE_TTL``, refreshed
every ``BEAT`` seconds), and the tick drops the names of processes whose key
has been missing for ``DEAD_AFTER`` seconds (two sweeps at least, so a Redis
restart, which loses every key until the next beats, drops nobody), exactly as
their consumers' disconnects would have.

A channel-layer name of channels_redis reads ``specific.<process>!<socket>``,
``<process>`` being the layer's random ``client_prefix`` (32 hex digits). Names
of any other form (another layer, tests) are never dropped.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time

from django.conf import settings

logger = logging.getLogger(__name__)

ALIVE_KEY = "cardroom:asgi-alive:{}"
ALIVE_TTL = 30  # seconds a process counts as alive after its last beat
BEAT = 10  # seconds between beats
SWEEP_EVERY = 10.0  # seconds between sweeps of one ticking process
DEAD_AFTER = 25.0  # seconds a process's key must stay missing before its sockets are dropped

_PROCESS = re.compile(r"^[^.!]+\.([0-9a-f]{32})!")
_beats: dict[int, asyncio.Task] = {}
_last_sweep = 0.0
_missing_since: dict[str, float] = {}  # process -> when this process's sweep first missed its key


def process_of(channel: str) -> str | None:
    """Return the ASGI process part of a channels_redis socket name, or None for any other name."""
    match = _PROCESS.match(channel)
    return match.group(1) if match else None


def _redis():
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=5)


async def heartbeat_ensure_started(layer) -> None:
    """Mark this process alive now, and keep it so from the running event loop (once per loop)."""
    process = getattr(layer, "client_prefix", None)
    if not getattr(settings, "REDIS_URL", "") or not process:
        return
    loop = asyncio.get_running_loop()
    task = _beats.get(id(loop))
    if task is not None and not task.done() and task.get_loop() is loop:
        return
    _beats[id(loop)] = loop.create_task(_run(process), name="asgi-alive")
    await _beat(process)  # alive before the first socket of this process is recorded


async def _beat(process: str) -> None:
    import redis.asyncio

    client = redis.asyncio.Redis.from_url(settings.REDIS_URL, socket_timeout=5)
    try:
        await client.set(ALIVE_KEY.format(process), "1", ex=ALIVE_TTL)
    finally:
        await client.aclose()


async def _run(process: str) -> None:
    while True:
        await asyncio.sleep(BEAT)
        try:
            await _beat(process)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - a missed beat is retried; the key outlives two of them
            logger.warning("could not mark ASGI process %s alive", process, exc_info=True)


def presence_sweep(*, force: bool = False, now: float | None = None) -> int:
    """Drop the socket names of dead ASGI processes from the seats; return how many were dropped.

    Each name is dropped through ``table_presence``, as its consumer's
    disconnect would have: a seat left without sockets goes away (托管 plays for
    it on its turn; between hands it stands up later). Runs at most every
    ``SWEEP_EVERY`` seconds in one process unless ``force``. Without Redis, or
    when Redis cannot tell, nothing is dropped; ``now`` (monotonic seconds) is
    for tests.
    """
    global _last_sweep
    if not getattr(settings, "REDIS_URL", ""):
        return 0
    now = time.monotonic() if now is None else now
    if not force and now - _last_sweep < SWEEP_EVERY:
        return 0
    _last_sweep = now

    from django.contrib.auth import get_user_model

    from rooms.tables import services
    from rooms.tables.errors import TableError
    from rooms.tables.models import Seat

    rows = [
        (table_id, user_id, [(name, process_of(name)) for name in sockets])
        for table_id, user_id, sockets in Seat.objects.exclude(sockets=[])
        .filter(user__isnull=False)
        .values_list("table_id", "user_id", "sockets")
    ]
    processes = sorted({process for _t, _u, names in rows for _name, process in names if process})
    for process in list(_missing_since):
        if process not in processes:
            del _missing_since[process]  # no seat names it any more: nothing left to drop
    if not processes:
        return 0
    try:
        client = _redis()
        try:
            alive = client.mget([ALIVE_KEY.format(process) for process in processes])
        finally:
            client.close()
    except Exception:  # noqa: BLE001 - unsure who is alive: drop nothing
        logger.warning("could not read which ASGI processes are alive", exc_info=True)
        return 0
    missing = {process for process, value in zip(processes, alive, strict=True) if value is None}
    for process in list(_missing_since):
        if process not in missing:
            del _missing_since[process]  # it beat again (or has no sockets left)
    for process in missing:
        _missing_since.setdefault(process, now)
    dead = {process for process in missing if now - _missing_since[process] >= DEAD_AFTER}
    dropped = 0
    user_model = get_user_model()
    for table_id, user_id, names in rows:
        for name, process in names:
            if process in dead:
                try:
                    services.table_presence(
                        table_id=table_id, user=user_model(pk=user_id), connected=False, channel=name
                    )
                except TableError:
                    continue
                dropped += 1
    if dropped:
        logger.info("dropped %d sockets of %d dead ASGI processes", dropped, len(dead))
    return dropped
