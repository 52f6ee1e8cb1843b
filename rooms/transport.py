"""How a change reaches the sockets that show it: one message, published once, delivered once per process.

Every change of a table (seated or banker) is one message on the table's
channel (``table:<id>``), and a word to every socket of one user (they signed
out) one on the user's (``user:<id>``). Each ASGI process has one ``Hub`` on
its event loop: it subscribes to the channels its sockets listen to (redis-py's
asyncio pub/sub, one subscription for the whole process, channel names under
``REDIS_PREFIX``) and hands each message once to each of its sockets on that
channel. Without Redis (the embedded default, one process) the hub delivers
what the process publishes directly.

A message lost on the way (Redis restarted, a subscription dropped) costs a
resync, never a wrong screen: every frame carries the table's ``seq``, the hub
tells its sockets to send their whole state again when its subscription
comes back, and a client that sees a gap (or a ``pong`` ahead of it) asks.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
from collections.abc import Callable

import orjson
import redis
import redis.asyncio as aioredis
from django.conf import settings

logger = logging.getLogger(__name__)

LOST = {"type": "transport.lost"}  # to every listener: messages may have been lost; resync
# A socket's listener takes a message at once, without waiting (it queues it for the socket's own task),
# so that no socket slow to send holds up the others.
Listener = Callable[[dict], None]


def table_group(table_id: int) -> str:
    """The channel every socket of a table listens on, whatever its seat."""
    return f"table:{table_id}"


def user_group(user_id: int) -> str:
    """The channel of every table and round socket a user holds (closed at once when they sign out)."""
    return f"user:{user_id}"


def frame_text(payload) -> str:
    """A frame as a socket sends it: compact JSON, UTF-8 kept (integer keys written as strings)."""
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode()


def _key(channel: str) -> str:
    return f"{settings.REDIS_PREFIX}:{channel}"


class Hub:
    """This process's subscriptions, on its event loop, and the listeners (sockets) of each channel.

    What this process publishes reaches its own listeners at once, and other
    processes through Redis: one task sends every waiting message in one
    pipeline, and the copies Redis hands back to this hub are known by its
    token and skipped.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.listeners: dict[str, set[Listener]] = {}
        self.redis = aioredis.Redis.from_url(settings.REDIS_URL) if settings.REDIS_URL else None
        self.pubsub = None
        self.reader: asyncio.Task | None = None
        self.token = secrets.token_hex(8).encode()  # this hub's mark on what it publishes
        self.outgoing: list[tuple[str, bytes]] = []
        self.sender: asyncio.Task | None = None

    async def join(self, channel: str, listener: Listener) -> None:
        """Deliver the channel's messages to ``listener`` (subscribed before this returns)."""
        listeners = self.listeners.setdefault(channel, set())
        listeners.add(listener)
        if self.redis is not None and len(listeners) == 1:
            if self.pubsub is None:
                self.pubsub = self._subscription()
            await self.pubsub.subscribe(_key(channel))
            if self.reader is None or self.reader.done():
                self.reader = self.loop.create_task(self._read(), name="transport-hub")

    def _subscription(self):
        """A new pub/sub connection whose pushed messages arrive as Redis sent them (``_as_received``)."""
        return self.redis.pubsub(push_handler_func=_as_received)

    async def leave(self, channel: str, listener: Listener) -> None:
        listeners = self.listeners.get(channel)
        if listeners is None or listener not in listeners:
            return
        listeners.discard(listener)
        if not listeners:
            del self.listeners[channel]
            if self.pubsub is not None:
                try:
                    await self.pubsub.unsubscribe(_key(channel))
                except redis.RedisError:  # the reader subscribes to what is listened to when it recovers
                    logger.warning("could not unsubscribe from %s", channel, exc_info=True)

    def publish(self, messages: list[tuple[str, dict]]) -> None:
        """Deliver the messages here now and queue them for the other processes (in order)."""
        for channel, message in messages:
            self.deliver(channel, message)
        if self.redis is None:
            return
        self.outgoing += [
            (_key(channel), self.token + orjson.dumps(message)) for channel, message in messages
        ]
        if self.sender is None or self.sender.done():
            self.sender = self.loop.create_task(self._send(), name="transport-send")

    async def _send(self) -> None:
        """Publish what waits, in one round trip per batch; a failure loses them only (a client resyncs
        on the next seq gap)."""
        while self.outgoing:
            batch, self.outgoing = self.outgoing, []
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for key, data in batch:
                        pipe.publish(key, data)
                    await pipe.execute()
            except redis.RedisError:
                logger.warning("broadcast of %d messages failed", len(batch), exc_info=True)

    def deliver(self, channel: str, message: dict) -> None:
        for listener in list(self.listeners.get(channel, ())):
            try:
                listener(message)
            except Exception:  # noqa: BLE001 - one socket's failure is its own, not the others'
                logger.warning("a listener of %s failed", channel, exc_info=True)

    def _received(self, channel: bytes, data: bytes) -> None:
        if data.startswith(self.token):
            return  # this hub's own, delivered when published
        if data[:1] != b"{":
            data = data[len(self.token) :]  # another hub's
        self.deliver(channel.decode()[len(settings.REDIS_PREFIX) + 1 :], orjson.loads(data))

    async def _read(self) -> None:
        """Hand every message received to its channel's listeners; after a lost subscription, subscribe
        again to what is listened to and tell every listener to resync."""
        while self.listeners:
            try:
                async for received in self.pubsub.listen():
                    if received["type"] == "message":
                        self._received(received["channel"], received["data"])
                    if not self.listeners:
                        return
            except (redis.RedisError, OSError):
                logger.warning("the hub's subscription broke; subscribing again", exc_info=True)
            await asyncio.sleep(0.5)
            try:
                self.pubsub = self._subscription()
                if self.listeners:
                    await self.pubsub.subscribe(*(_key(channel) for channel in self.listeners))
            except (redis.RedisError, OSError):
                continue
            for channel in list(self.listeners):
                self.deliver(channel, LOST)


async def _as_received(response):
    """A pushed message, as Redis sent it. redis-py's own handler formats the whole message for a
    debug log line first, whatever the log level: a table's frames every change (3 % of a server's
    CPU under load, bench/README.md)."""
    return response


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}
_sync_redis: redis.Redis | None = None
_sync_lock = threading.Lock()


def hub() -> Hub:
    """This event loop's hub (made with its first use)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        for closed in [other for other in _hubs if other.is_closed()]:
            del _hubs[closed]
        found = _hubs[loop] = Hub(loop)
    return found


def reset() -> None:
    """Forget this process's hubs and Redis client (a test that moved ``REDIS_URL``)."""
    global _sync_redis
    _hubs.clear()
    _sync_redis = None


# --- sending, from anywhere --------------------------------------------------------------------

_calls = threading.local()


class outbox:
    """Within a socket's call on a thread: the messages the call sends are kept for its socket, which
    publishes them from its event loop once the call returns (``rooms.sockets.database``)."""

    def __enter__(self) -> list[tuple[str, dict]]:
        self.previous = getattr(_calls, "outbox", None)
        _calls.outbox = box = []
        return box

    def __exit__(self, *exc) -> None:
        _calls.outbox = self.previous


def send_many(messages: list[tuple[str, dict]]) -> None:
    """Publish messages in order, from any thread; a failure loses a broadcast, never a change.

    In a socket's call they go back with the call to its event loop
    (``outbox``); with Redis, anywhere else (a view, the worker, the clock) they
    are published from here in one round trip; without it, the hub of the
    process's event loop delivers them.
    """
    if not messages:
        return
    box = getattr(_calls, "outbox", None)
    if box is not None:
        box.extend(messages)
        return
    if settings.REDIS_URL:
        try:
            pipe = _redis().pipeline(transaction=False)
            for channel, message in messages:
                pipe.publish(_key(channel), orjson.dumps(message))
            pipe.execute()
        except redis.RedisError:  # a client resyncs on the next seq gap
            logger.warning("broadcast of %d messages failed", len(messages), exc_info=True)
        return
    for loop, found in list(_hubs.items()):
        if not loop.is_closed():
            loop.call_soon_threadsafe(found.publish, messages)


def send(channel: str, message: dict) -> None:
    send_many([(channel, message)])


def send_now(messages: list[tuple[str, dict]]) -> None:
    """``send_many`` from an event loop: delivered here at once, published without waiting."""
    if messages:
        hub().publish(messages)


def _redis() -> redis.Redis:
    global _sync_redis
    if _sync_redis is None:
        with _sync_lock:
            if _sync_redis is None:
                _sync_redis = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=5)
    return _sync_redis
