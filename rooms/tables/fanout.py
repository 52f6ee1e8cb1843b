"""A table's frames over Redis pub/sub: one subscription per ASGI process, fanned out to its sockets in memory.

Every committed change of a table is one ``table.frames`` message
(``broadcast.frames_message``). Through channels_redis' ``group_send`` it cost
four Redis round trips to send and, in each ASGI process with a socket of the
table, four more to receive (a sorted set per process, with a backup queue),
plus a wake-up of every socket's own channel-layer receive. Here the sender
publishes it once (``PUBLISH``, one round trip, straight from the thread that
committed) to the table's pub/sub channel, and each ASGI process that has a
socket of the table subscribes to that channel once (``TableFanout``): its
reader decodes the message once and puts it in the inbox of each of the
process's sockets of the table, which handle it exactly as before (each sends
only its own seat's frames, in seq order).

It applies when the channel layer is channels_redis' ``RedisChannelLayer``, on
the same Redis; sockets still join the table's channel-layer group, which
settlement uses to skip tables nobody listens to, and which still delivers
whatever is sent to it. Any other layer (in memory: the embedded default and
most tests) carries the frames as before.

Pub/sub keeps nothing for a subscriber that is not connected: a message
published while a process's subscription is down is lost for it, as a
broadcast sent while Redis is down always was. So when the reader reconnects
it sends every socket of the process its whole current state (as ``resync``
does), and a socket that joins a table waits until its subscription is
confirmed before it reads its first state. A socket whose inbox holds
``INBOX_SIZE`` messages (its client stopped reading) loses the next ones, as
a full channel-layer channel did; its client resyncs on the gap.
"""

from __future__ import annotations

import asyncio
import logging
import urllib.parse

import msgpack

logger = logging.getLogger(__name__)

SUBSCRIBE_WAIT = 5.0  # seconds a joining socket waits for its table's subscription to be confirmed
# Messages a socket may have waiting (channels_redis' default capacity of a channel, which this replaces).
INBOX_SIZE = 100
RECONNECT_EVERY = 0.5  # seconds between attempts to reach Redis again

_publishers: dict[str, object] = {}
_fanouts: dict[int, TableFanout] = {}


def layer_redis(layer) -> tuple[str, str] | None:
    """Return (Redis URL, channel prefix) when ``layer`` is channels_redis' RedisChannelLayer, else None."""
    from channels_redis.core import RedisChannelLayer

    if not isinstance(layer, RedisChannelLayer) or not layer.hosts:
        return None
    host = layer.hosts[0]
    address = host.get("address") if isinstance(host, dict) else None
    if not isinstance(address, str):
        return None
    # Pub/sub channels are not per database: the database is part of the name, so two
    # sites (or test runs) on one Redis server never hear each other's tables.
    database = urllib.parse.urlparse(address).path.strip("/") or "0"
    return address, f"{layer.prefix}:frames:{database}:"


def frames_channel(prefix: str, table_id: int) -> str:
    return f"{prefix}{table_id}"


def group_table(group: str) -> int | None:
    """The table whose channel-layer group (``broadcast.table_group``) this is, else None."""
    head, _sep, tail = group.partition("-")
    return int(tail) if head == "table" and tail.isdigit() else None


def fanout_publish(layer, messages: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """Publish the ``table.frames`` messages of ``messages`` (group, message); return the others, to group_send.

    Synchronous (one round trip for all of them, pipelined), for the thread that
    committed the change. A failure is logged, never raised: a lost broadcast,
    never a lost change (a client resyncs on the next gap). With any layer but
    channels_redis' ``RedisChannelLayer`` everything is returned.
    """
    target = layer_redis(layer)
    if target is None:
        return messages
    address, prefix = target
    frames, rest = [], []
    for group, message in messages:
        table_id = group_table(group)
        if table_id is not None and message.get("type") == "table.frames":
            frames.append((table_id, message))
        else:
            rest.append((group, message))
    if frames:
        try:
            _publish(
                address, [(frames_channel(prefix, t), msgpack.packb(m, use_bin_type=True)) for t, m in frames]
            )
        except Exception:  # noqa: BLE001 - a lost broadcast, never a lost change: clients resync on the gap
            logger.exception("publishing the frames of %d tables failed", len(frames))
    return rest


def _publish(address: str, payloads: list[tuple[str, bytes]]) -> None:
    client = _publishers.get(address)
    if client is None:
        import redis

        client = _publishers.setdefault(
            address, redis.Redis.from_url(address, socket_timeout=5, socket_connect_timeout=5)
        )
    if len(payloads) == 1:
        client.publish(*payloads[0])
        return
    pipe = client.pipeline(transaction=False)
    for channel, payload in payloads:
        pipe.publish(channel, payload)
    pipe.execute()


def fanout_for(layer) -> TableFanout | None:
    """The running event loop's fan-out for ``layer``, created on first use; None when not applicable."""
    target = layer_redis(layer)
    if target is None:
        return None
    loop = asyncio.get_running_loop()
    fanout = _fanouts.get(id(loop))
    if fanout is None or fanout.loop is not loop or fanout.address != target[0]:
        fanout = _fanouts[id(loop)] = TableFanout(*target, loop=loop)
    return fanout


class TableFanout:
    """One pub/sub connection of this process; each table's channel subscribed while a local socket shows it."""

    def __init__(self, address: str, prefix: str, *, loop: asyncio.AbstractEventLoop) -> None:
        self.address = address
        self.prefix = prefix
        self.loop = loop
        self.inboxes: dict[int, set[asyncio.Queue]] = {}
        self.ready: dict[int, asyncio.Future] = {}  # table -> done once its subscription is confirmed
        self.unconfirmed: dict[int, int] = {}  # table -> SUBSCRIBE commands not yet confirmed
        self.pubsub = None
        self.client = None
        self.reader: asyncio.Task | None = None
        self.lock = asyncio.Lock()  # one command at a time on the subscription's connection

    async def join(self, table_id: int, inbox: asyncio.Queue) -> None:
        """Deliver the table's frames to ``inbox`` from now on (subscribed when this returns, if Redis is up)."""
        inboxes = self.inboxes.setdefault(table_id, set())
        inboxes.add(inbox)
        if len(inboxes) == 1:
            self.ready[table_id] = self.loop.create_future()
            await self._subscribe([table_id])
        ready = self.ready.get(table_id)
        if ready is not None and not ready.done():
            try:
                await asyncio.wait_for(asyncio.shield(ready), SUBSCRIBE_WAIT)
            except TimeoutError:  # Redis is slow or down: the reader's reconnect resyncs this socket
                logger.warning("subscription to table %s not confirmed in %s s", table_id, SUBSCRIBE_WAIT)

    async def leave(self, table_id: int, inbox: asyncio.Queue) -> None:
        inboxes = self.inboxes.get(table_id)
        if not inboxes or inbox not in inboxes:
            return
        inboxes.discard(inbox)
        if inboxes:
            return
        del self.inboxes[table_id]
        self.ready.pop(table_id, None)
        self.unconfirmed.pop(table_id, None)
        async with self.lock:
            if self.pubsub is None or table_id in self.inboxes:
                return
            try:
                await self.pubsub.unsubscribe(frames_channel(self.prefix, table_id))
            except Exception:  # noqa: BLE001 - the reader notices a broken connection and starts again
                logger.warning("could not unsubscribe from table %s", table_id, exc_info=True)

    async def _subscribe(self, tables: list[int]) -> None:
        async with self.lock:
            if self.reader is None or self.reader.done():
                self.reader = self.loop.create_task(self._read(), name="table-fanout")
            if self.pubsub is None:
                return  # the reader subscribes every table once it is connected
            tables = [t for t in tables if t in self.inboxes]
            if not tables:
                return
            for table_id in tables:
                self.unconfirmed[table_id] = self.unconfirmed.get(table_id, 0) + 1
            try:
                await self.pubsub.subscribe(*(frames_channel(self.prefix, t) for t in tables))
            except Exception:  # noqa: BLE001 - the reader notices a broken connection and starts again
                logger.warning("could not subscribe to %d tables", len(tables), exc_info=True)

    async def _connect(self) -> None:
        import redis.asyncio
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        # No retries (redis-py's default here, made explicit): a retried read would reconnect and
        # subscribe again under this reader, which would never learn that messages were lost.
        client = redis.asyncio.Redis.from_url(
            self.address, socket_connect_timeout=5, socket_keepalive=True, retry=Retry(NoBackoff(), 0)
        )
        pubsub = client.pubsub()
        try:
            # This process's own channel keeps the subscription open while it shows no table.
            await pubsub.subscribe(f"{self.prefix}process:{id(self)}")
        except BaseException:
            await _close_quietly(pubsub, client)
            raise
        async with self.lock:
            self.pubsub, self.client = pubsub, client
            self.unconfirmed.clear()
        await self._subscribe(list(self.inboxes))

    async def _read(self) -> None:
        """Receive every message of this process's subscription; reconnect and resync the sockets after a break."""
        broken = False
        while True:
            try:
                if self.pubsub is None:
                    await self._connect()
                    if broken:
                        self._resync_everyone()
                    broken = False
                message = await self.pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - Redis went away: start again, then resync every socket
                if not broken:
                    logger.warning("table fan-out lost its Redis subscription; reconnecting", exc_info=True)
                broken = True
                await self._drop_connection()
                await asyncio.sleep(RECONNECT_EVERY)
                continue
            if message is not None:
                try:
                    self._handle(message)
                except Exception:  # noqa: BLE001 - one bad message must not stop every table's frames
                    logger.exception("table fan-out could not handle a message on %r", message.get("channel"))

    def _handle(self, message: dict) -> None:
        kind = message["type"]
        channel = message["channel"]
        if isinstance(channel, bytes):
            channel = channel.decode()
        if not channel.startswith(self.prefix):
            return
        try:
            table_id = int(channel[len(self.prefix) :])
        except ValueError:
            return  # this process's own channel
        if kind == "message":
            inboxes = self.inboxes.get(table_id)
            if inboxes:
                event = msgpack.unpackb(message["data"], raw=False)  # once for all the sockets
                for inbox in inboxes:
                    _deliver(inbox, event, table_id)
        elif kind == "subscribe":
            left = self.unconfirmed.get(table_id, 0) - 1
            if left > 0:
                self.unconfirmed[table_id] = left
                return
            self.unconfirmed.pop(table_id, None)
            ready = self.ready.get(table_id)
            if ready is not None and not ready.done():
                ready.set_result(None)

    def _resync_everyone(self) -> None:
        """After a break in the subscription: every socket sends its whole current state."""
        for table_id, inboxes in self.inboxes.items():
            for inbox in inboxes:
                _deliver(inbox, {"type": "table.resync"}, table_id)

    async def _drop_connection(self) -> None:
        async with self.lock:
            pubsub, self.pubsub = self.pubsub, None
            client, self.client = self.client, None
            self.unconfirmed.clear()
        await _close_quietly(pubsub, client)


def _deliver(inbox: asyncio.Queue, event: dict, table_id: int) -> None:
    """Queue a message for one socket; a socket that is this far behind loses it, as a full channel did."""
    try:
        inbox.put_nowait(event)
    except asyncio.QueueFull:  # its client sees the gap and resyncs
        logger.info("a socket of table %s is %d messages behind; dropped one", table_id, inbox.maxsize)


async def _close_quietly(pubsub, client) -> None:
    for closing in (pubsub, client):
        if closing is not None:
            try:
                await closing.aclose()
            except Exception:  # noqa: BLE001 - it is broken already
                pass
