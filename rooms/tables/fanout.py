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

A banker table's changes (``round.change``, rooms/rounds/broadcast.py: the
public state, the concerned players' parts and payouts, for the round
sockets) travel the same way, on the same per-table channel (a table is of
one kind or the other), each socket taking only its own user's part.

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

The same connections carry the moves forwarded to the process that keeps a
table's play (``TableFanout.keeper``) and that process's liveness: a key it
keeps alive in Redis (``_beat``), a word on the going channel when its loop
ends, and Redis's count of who received each forward; docs/architecture.md
(step 3) tells how a keeper that is gone costs no move.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import logging
import os
import threading
import urllib.parse

import msgpack

from rooms.tables.state_cache import play_forget

logger = logging.getLogger(__name__)

SUBSCRIBE_WAIT = 5.0  # seconds a joining socket waits for its table's subscription to be confirmed
# Messages a socket may have waiting (channels_redis' default capacity of a channel, which this replaces).
INBOX_SIZE = 100
RECONNECT_EVERY = 0.5  # seconds between attempts to reach Redis again
# Seconds the subscription may stay silent before it is pinged; when as long again brings nothing,
# not even the answer, the connection is given up as dead (see ``_watch``).
PING_EVERY = 5.0
CONNECT_TIMEOUT = 5.0
READ_SIZE = 1 << 16
UNSENT_MAX = 1000  # publishes kept while the publisher's connection is being made
# Every published message starts with its origin: the publishing process's fan-out, or NO_ORIGIN.
ORIGIN_SIZE = 16
NO_ORIGIN = bytes(ORIGIN_SIZE)
# What a process publishes on a table's channel once its subscription to it is confirmed (after the
# origin): msgpack's nil, which no change's message is. A process that plays the table alone
# (``TableFanout.solo``) publishes its changes again from then on.
HELLO = b"\xc0"
_RESYNC = msgpack.packb({"type": "table.resync"}, use_bin_type=True)  # read the table afresh

# Keepers' liveness (``TableFanout._beat``): every ``KEEPER_BEAT`` seconds each process sets its
# key to live ``KEEPER_ALIVE`` seconds more (Redis counts the time, so no two clocks are compared)
# and reads the keys of the processes it may forward to; one whose key is missing is not chosen.
KEEPER_BEAT = 1.0
KEEPER_ALIVE = 3.0
GOING_WAIT = 1.0  # seconds a process that is going spends telling the others so
WITHDRAWN_KEPT = 1024  # forwarded moves given up by their askers, remembered by the keeper (oldest forgotten)
# ``TableFanout.forward``: nobody received the move (the keeper's subscription is gone), so it was not made.
UNHEARD = object()

# The message types carried over pub/sub (to the table's group otherwise): a seated table's
# frames and a banker table's change.
FANOUT_TYPES = frozenset({"table.frames", "round.change"})

# The table runtime's handler of a move another process forwards here (``TableFanout.forward``):
# an async callable taking the request and a callable that says whether its asker has given it
# up meanwhile (then it must not be made), and returning the answer's fields.
forward_handler = None

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
    """Publish the table-group messages of ``FANOUT_TYPES`` in ``messages`` (group, message); return the others, to group_send.

    Called by the thread that committed the change. When that thread is
    running a call of a table socket of this process (``serving``), the
    messages are handed to that event loop's fan-out, which puts them in the
    inboxes of its own sockets of the table at once (no Redis round trip, no
    decoding) and publishes them for the other processes on its own
    connection; the thread does not wait for Redis. Anywhere else (the
    settlement worker, the clock, an HTTP view) they are published here,
    synchronously, in one round trip. A failure is logged, never raised: a lost
    broadcast, never a lost change (a client resyncs on the next gap). With
    any layer but channels_redis' ``RedisChannelLayer`` everything is returned.
    """
    target = layer_redis(layer)
    if target is None:
        return messages
    address, prefix = target
    frames, rest = [], []
    for group, message in messages:
        table_id = group_table(group)
        if table_id is not None and message.get("type") in FANOUT_TYPES:
            frames.append((table_id, message))
        else:
            rest.append((group, message))
    if not frames:
        return rest
    hub = _serving_fanout(address)
    if hub is not None:
        # Packed by ``publish`` if at all: the change of a table no other process listens to is not.
        packed = [(table_id, message, None) for table_id, message in frames]
        if hub.hand(packed):
            return rest
        # the loop closed meanwhile: publish from here
    try:
        _publish(
            address,
            [(frames_channel(prefix, t), NO_ORIGIN + msgpack.packb(m, use_bin_type=True)) for t, m in frames],
        )
    except Exception:  # noqa: BLE001 - a lost broadcast, never a lost change: clients resync on the gap
        logger.exception("publishing the frames of %d tables failed", len(frames))
    return rest


_serving = threading.local()


class serving:  # noqa: N801 - used like a function: ``with serving(loop): ...``
    """Mark the current thread as running a call for ``loop``'s table sockets (see ``fanout_publish``)."""

    __slots__ = ("loop", "previous")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def __enter__(self) -> None:
        self.previous = getattr(_serving, "loop", None)
        _serving.loop = self.loop

    def __exit__(self, *exc) -> None:
        _serving.loop = self.previous


def serving_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop whose socket's call this thread is running (``serving``), if it is still open."""
    loop = getattr(_serving, "loop", None)
    return loop if loop is not None and not loop.is_closed() else None


def _serving_fanout(address: str) -> TableFanout | None:
    loop = getattr(_serving, "loop", None)
    if loop is None or loop.is_closed():
        return None
    hub = _fanouts.get(id(loop))
    if hub is None or hub.loop is not loop or hub.address != address:
        return None
    return hub


def redis_client(address: str):
    """This process's synchronous Redis client for ``address`` (one pool, kept; thread-safe)."""
    client = _publishers.get(address)
    if client is None:
        import redis

        client = _publishers.setdefault(
            address, redis.Redis.from_url(address, socket_timeout=5, socket_connect_timeout=5)
        )
    return client


def _publish(address: str, payloads: list[tuple[str, bytes]]) -> None:
    client = redis_client(address)
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
        from django.conf import settings

        fanout = _fanouts[id(loop)] = TableFanout(
            *target,
            loop=loop,
            beat=getattr(settings, "TABLE_KEEPER_BEAT", KEEPER_BEAT),
            alive=getattr(settings, "TABLE_KEEPER_ALIVE", KEEPER_ALIVE),
        )
    return fanout


class TableFanout:
    """This process's two Redis connections for the tables' frames, on its event loop.

    The subscription: each table's channel is subscribed while a local socket
    shows the table; its messages go to the inboxes of those sockets. The
    publisher: the frames of the changes this process makes (``publish``).
    Both speak RESP directly on asyncio streams (``_Replies``): redis-py's
    pub/sub reader cost about a tenth of the event loop's time per message,
    and a publish from the committing thread was a blocking round trip there.
    """

    def __init__(
        self,
        address: str,
        prefix: str,
        *,
        loop: asyncio.AbstractEventLoop,
        beat: float = KEEPER_BEAT,
        alive: float = KEEPER_ALIVE,
    ) -> None:
        self.address = address
        self.prefix = prefix
        self.loop = loop
        # Marks this process's own messages, which its sockets already got from ``publish``.
        self.origin = os.urandom(ORIGIN_SIZE)
        self.inboxes: dict[int, set[asyncio.Queue]] = {}
        self.ready: dict[int, asyncio.Future] = {}  # table -> done once its subscription is confirmed
        self.unconfirmed: dict[int, int] = {}  # table -> SUBSCRIBE commands not yet confirmed
        self.subscriber: asyncio.StreamWriter | None = None  # set while the subscription is up
        self.reader: asyncio.Task | None = None
        self.heard = 0  # reads from the subscription's connection, for ``_watch``
        self.watcher: asyncio.Task | None = None
        self.publisher: asyncio.StreamWriter | None = None
        self.publisher_task: asyncio.Task | None = None
        self.unsent: list[bytes] = []  # PUBLISH commands waiting for the publisher's connection
        self.unsent_count = 0  # how many commands ``unsent`` holds
        # PUBLISH commands written on the publisher's connection, and replies read from it (``_watch_publisher``).
        self.sent = self.answered = 0
        # The replies owed on the publisher's connection, in order: runs of [count, None] nobody reads,
        # and [1, future] for a command whose reply is wanted (``_ask``).
        self.owed: collections.deque[list] = collections.deque()
        self.publisher_since = 0.0  # the loop's time when the publisher's connection was made
        # Frames handed over by the table threads (``hand``), published together by ``_flush``.
        self.handed: list[list[tuple[int, dict, bytes]]] = []
        self.handed_lock = threading.Lock()
        self.flush_due = False  # a ``_flush`` is scheduled on the loop
        # Forwarded moves (``forward``): the ASGI processes heard changing each table shown here
        # (``keeper`` picks one), and the answers awaited, each with the process asked.
        self.changers: dict[int, set[bytes]] = {}
        self.answers: dict[int, tuple[asyncio.Future, bytes]] = {}
        self.requests = 0
        # The keepers' liveness (``_beat``): processes not chosen because their key was missing,
        # or because they said they are going, or their channel had no listener.
        self.beat = beat
        self.alive = alive
        self.lapsed: set[bytes] = set()
        self.beater: asyncio.Task | None = None
        # (asker, request) of the forwarded moves whose askers gave up on them (``_serve``).
        self.withdrawn: collections.OrderedDict[tuple[bytes, int], None] = collections.OrderedDict()
        # Tables whose last PUBLISH reached this process alone: their changes are not published
        # (``publish``) until another process says it listens (``HELLO``); ``skipped``: those of
        # them whose changes were not published since; ``hellos``: hellos heard per table, so that
        # a count that left Redis before a hello does not make the table solo again.
        self.solo: set[int] = set()
        self.skipped: set[int] = set()
        self.hellos: collections.Counter[int] = collections.Counter()

    # --- subscription -----------------------------------------------------------

    async def join(self, table_id: int, inbox: asyncio.Queue) -> None:
        """Deliver the table's frames to ``inbox`` from now on (subscribed when this returns, if Redis is up)."""
        inboxes = self.inboxes.setdefault(table_id, set())
        inboxes.add(inbox)
        if len(inboxes) == 1:
            self.ready[table_id] = self.loop.create_future()
            self._subscribe([table_id])
        ready = self.ready.get(table_id)
        if ready is not None and not ready.done():
            try:
                await asyncio.wait_for(asyncio.shield(ready), SUBSCRIBE_WAIT)
            except TimeoutError:  # Redis is slow or down: the reader's reconnect resyncs this socket
                logger.warning("subscription to table %s not confirmed in %s s", table_id, SUBSCRIBE_WAIT)

    async def leave(self, table_id: int, inbox: asyncio.Queue) -> None:
        self.discard(table_id, inbox)

    def discard(self, table_id: int, inbox: asyncio.Queue) -> None:
        """Stop delivering the table's frames to ``inbox``; the last one unsubscribes the table (idempotent)."""
        inboxes = self.inboxes.get(table_id)
        if not inboxes or inbox not in inboxes:
            return
        inboxes.discard(inbox)
        if inboxes:
            return
        del self.inboxes[table_id]
        self._not_solo(table_id)
        self.changers.pop(table_id, None)
        self.ready.pop(table_id, None)
        self.unconfirmed.pop(table_id, None)
        if self.subscriber is not None:
            self._write(self.subscriber, [b"UNSUBSCRIBE", frames_channel(self.prefix, table_id).encode()])

    def _subscribe(self, tables: list[int]) -> None:
        if self.reader is None or self.reader.done():
            self.reader = self.loop.create_task(self._read(), name="table-fanout")
        if self.beater is None or self.beater.done():
            self.beater = self.loop.create_task(self._beat(), name="table-fanout-beat")
        if self.subscriber is None:
            return  # the reader subscribes every table once it is connected
        tables = [t for t in tables if t in self.inboxes]
        if not tables:
            return
        for table_id in tables:
            self.unconfirmed[table_id] = self.unconfirmed.get(table_id, 0) + 1
        self._write(
            self.subscriber, [b"SUBSCRIBE", *(frames_channel(self.prefix, t).encode() for t in tables)]
        )

    def _write(self, writer: asyncio.StreamWriter, command: list[bytes]) -> None:
        try:
            writer.write(_command(command))
        except Exception:  # noqa: BLE001 - the reader notices a broken connection and starts again
            logger.warning("could not write %s to Redis", command[0].decode(), exc_info=True)

    async def _read(self) -> None:
        """Receive every message of this process's subscription; reconnect and resync the sockets after a break."""
        broken = False
        while True:
            writer = None
            try:
                reader, writer = await _open(self.address)
                replies = _Replies()
                self.watcher = self.loop.create_task(self._watch(writer), name="table-fanout-watch")
                # This process's own channel keeps the subscription open while it shows no table.
                # It also carries the moves other processes forward here, and the answers to ours;
                # the going channel, the other processes' word that they stop.
                writer.write(
                    _command([b"SUBSCRIBE", self.process_channel(self.origin), self.going_channel()])
                )
                self.subscriber = writer
                self.unconfirmed.clear()
                self._subscribe(list(self.inboxes))
                if broken:
                    self._resync_everyone()
                broken = False
                while True:
                    data = await reader.read(READ_SIZE)
                    if not data:
                        raise ConnectionError("Redis closed the subscription's connection")
                    self.heard += 1
                    for reply in replies.feed(data):
                        try:
                            self._handle(reply)
                        except Exception:  # noqa: BLE001 - one bad message must not stop every table's frames
                            logger.exception("table fan-out could not handle a message %r", reply[:2])
            except asyncio.CancelledError:
                # The loop is ending (the server stops): this process serves no more forwarded moves.
                self._drop(writer)
                await self._say_going()
                raise
            except Exception:  # noqa: BLE001 - Redis went away: start again, then resync every socket
                if not broken:
                    logger.warning("table fan-out lost its Redis subscription; reconnecting", exc_info=True)
                broken = True
                self._drop(writer)
                await asyncio.sleep(RECONNECT_EVERY)

    def _drop(self, writer: asyncio.StreamWriter | None) -> None:
        if self.subscriber is writer:
            self.subscriber = None
        self.unconfirmed.clear()
        # Not subscribed, this process cannot hear another one say it listens: publish everything.
        for table_id in list(self.solo):
            self._not_solo(table_id)
        if self.watcher is not None:
            self.watcher.cancel()
            self.watcher = None
        if writer is not None:
            writer.transport.abort()

    async def _watch(self, writer: asyncio.StreamWriter) -> None:
        """Ping the subscription when it is quiet; abort its connection when even the ping brings nothing.

        A connection can die without a word: Redis fails over to another host,
        a network path or a NAT or firewall entry disappears, and no end of
        file ever arrives. The reader would then wait on it for good (TCP
        notices after hours), and this process's sockets would miss every
        other process's changes, the worker's settlements and the clock's. Whatever arrives
        counts as a sign of life, so a busy subscription is never pinged; a
        silent one is pinged (Redis answers ``pong`` in subscribed mode), and
        after another ``PING_EVERY`` without a byte the connection is aborted:
        the reader connects again and resyncs every socket.
        """
        heard, pinged = self.heard, False
        while not writer.transport.is_closing():
            await asyncio.sleep(PING_EVERY)
            if self.heard != heard:
                heard, pinged = self.heard, False
            elif not pinged:
                self._write(writer, [b"PING"])
                pinged = True
            else:
                logger.warning("table fan-out: Redis did not answer a PING in %s s; reconnecting", PING_EVERY)
                writer.transport.abort()
                return

    def _handle(self, reply) -> None:
        if isinstance(reply, _Error):
            raise ConnectionError(f"Redis refused the subscription: {reply}")
        if not isinstance(reply, list) or len(reply) < 3:
            return
        kind, channel = reply[0], reply[1]
        if kind == b"message":
            data = reply[2]
            if data[:ORIGIN_SIZE] == self.origin:
                return  # this process's own change: its sockets got it from ``publish``
            table_id = self._table(channel)
            if table_id is not None and data[ORIGIN_SIZE:] == HELLO:
                self._heard_hello(table_id)
                return
            if table_id is None:
                if channel == self.process_channel(self.origin):
                    self._answer_or_serve(msgpack.unpackb(memoryview(data)[ORIGIN_SIZE:], raw=False))
                elif channel == self.going_channel():
                    self._gone(bytes(data[:ORIGIN_SIZE]))
                return
            # Another process changed the table: a play this one kept is behind (owner.py),
            # and its next move here reads the table again instead of failing the check.
            play_forget(table_id)
            origin = bytes(data[:ORIGIN_SIZE])
            if origin != NO_ORIGIN and table_id in self.inboxes:
                self.changers.setdefault(table_id, set()).add(origin)  # an ASGI process that shows it
            inboxes = self.inboxes.get(table_id) if table_id is not None else None
            if inboxes:
                event = msgpack.unpackb(memoryview(data)[ORIGIN_SIZE:], raw=False)  # once for all the sockets
                for inbox in inboxes:
                    _deliver(inbox, event, table_id)
        elif kind == b"subscribe":
            table_id = self._table(channel)
            if table_id is None:
                return
            left = self.unconfirmed.get(table_id, 0) - 1
            if left > 0:
                self.unconfirmed[table_id] = left
                return
            self.unconfirmed.pop(table_id, None)
            # Listening now: a process that plays the table alone must publish its changes again.
            self._send(self._table_publish(table_id, HELLO), 1)
            ready = self.ready.get(table_id)
            if ready is not None and not ready.done():
                ready.set_result(None)

    def _table(self, channel: bytes) -> int | None:
        channel = channel.decode()
        if not channel.startswith(self.prefix):
            return None
        try:
            return int(channel[len(self.prefix) :])
        except ValueError:
            return None  # this process's own channel

    def _resync_everyone(self) -> None:
        """After a break in the subscription: every socket sends its whole current state."""
        for table_id, inboxes in self.inboxes.items():
            for inbox in inboxes:
                _deliver(inbox, {"type": "table.resync"}, table_id)

    # --- publishing ---------------------------------------------------------------

    def hand(self, packed: list[tuple[int, dict, bytes | None]]) -> bool:
        """From a table thread: have the loop ``publish`` these frames; False if the loop is closed.

        The changes committed between two turns of the loop are published
        together (one wake-up of the loop, one write to Redis): under load the
        threads commit several changes while the loop is busy, and a wake-up
        (``call_soon_threadsafe``) and a write for each was a good part of the
        loop's time per change. Their order is kept.
        """
        with self.handed_lock:
            self.handed.append(packed)
            if self.flush_due:
                return True
            self.flush_due = True
        try:
            self.loop.call_soon_threadsafe(self._flush)
        except RuntimeError:  # the loop is closed: the caller publishes what nobody will flush
            with self.handed_lock:
                self.handed.remove(packed)
                self.flush_due = False
            return False
        return True

    def _flush(self) -> None:
        with self.handed_lock:
            handed, self.handed = self.handed, []
            self.flush_due = False
        if len(handed) == 1:
            self.publish(handed[0])
        elif handed:
            self.publish([frames for packed in handed for frames in packed])

    def publish(self, packed: list[tuple[int, dict, bytes | None]]) -> None:
        """On the loop: the frames of changes this process committed, for its own sockets and every other process.

        ``packed``: (table, message, the message packed, or None to pack it
        here if it is published). This process's sockets get the message
        itself (nobody changes it); the other processes' get it through Redis,
        marked with this process's ``origin`` so that its own subscription
        skips it, unless none listens (``solo``).
        """
        commands = []
        counted: list[int | None] = []  # per command: the table whose reply tells who else listens
        for table_id, message, data in packed:
            counts = None
            inboxes = self.inboxes.get(table_id)
            if inboxes:
                self.changers.setdefault(table_id, set()).add(self.origin)
                for inbox in inboxes:
                    _deliver(inbox, message, table_id)
                if table_id in self.solo:
                    self.skipped.add(table_id)
                    continue
                ready = self.ready.get(table_id)
                if ready is not None and ready.done() and self.subscriber is not None:
                    counts = table_id
            if data is None:
                data = msgpack.packb(message, use_bin_type=True)
            commands.append(self._table_publish(table_id, data))
            counted.append(counts)
        if commands:
            self._send(b"".join(commands), len(commands), counted)

    def _counted(self, table_id: int, hellos: int, reply) -> None:
        """A PUBLISH of the table reached ``reply`` subscribers: when this process alone, stop publishing it.

        Only while this process still shows the table, its subscription was
        confirmed when the PUBLISH left (so the one is this process), and no
        other process has said since that it listens.
        """
        if reply == 1 and table_id in self.inboxes and self.hellos[table_id] == hellos:
            self.solo.add(table_id)

    def _heard_hello(self, table_id: int) -> None:
        """Another process listens to the table now: publish its changes again, and tell it to read
        the table afresh if changes it may have missed went unpublished."""
        self.hellos[table_id] += 1
        self.solo.discard(table_id)
        if table_id in self.skipped:
            self.skipped.discard(table_id)
            self._send(self._table_publish(table_id, _RESYNC), 1)

    def _table_publish(self, table_id: int, body: bytes) -> bytes:
        """The PUBLISH command of ``body`` (packed) on the table's channel, marked with this process's origin."""
        return _command([b"PUBLISH", frames_channel(self.prefix, table_id).encode(), self.origin + body])

    def _not_solo(self, table_id: int) -> None:
        self.solo.discard(table_id)
        self.skipped.discard(table_id)
        self.hellos.pop(table_id, None)

    def _send(self, commands: bytes, count: int, counted: list[int | None] | None = None) -> None:
        """Write ``count`` PUBLISH commands on the publisher's connection, or keep them until it is up.

        ``counted``: per command, None or the table whose PUBLISH reply goes to ``_counted``.
        """
        if self.publisher is not None:
            try:
                self.publisher.write(commands)
                self.sent += count
                if counted is None:
                    self._owe(count, None)
                else:
                    for table_id in counted:
                        self._owe(1, None if table_id is None else (table_id, self.hellos[table_id]))
                return
            except Exception:  # noqa: BLE001 - broken: connect again below
                logger.warning("the table fan-out's publisher broke; connecting again", exc_info=True)
                self.publisher = None
        if len(self.unsent) < UNSENT_MAX:
            self.unsent.append(commands)
            self.unsent_count += count
        else:  # Redis is away: a lost broadcast for the other processes, whose subscriptions resync
            logger.warning("table fan-out: Redis unreachable, dropped %d messages", count)
        self._connect_publisher()

    def _connect_publisher(self) -> None:
        if self.publisher_task is None or self.publisher_task.done():
            self.publisher_task = self.loop.create_task(self._publisher(), name="table-fanout-publisher")

    def _ask(self, command: list[bytes]) -> asyncio.Future | None:
        """Send one command on the publisher's connection; its reply comes in the future (None: lost with the connection).

        None instead of a future when the connection is not up (it is being
        made): the command is not kept for later, unlike a publish.
        """
        if self.publisher is None:
            self._connect_publisher()
            return None
        reply = self.loop.create_future()
        try:
            self.publisher.write(_command(command))
        except Exception:  # noqa: BLE001 - broken: the publisher's reader notices and connects again
            logger.warning("the table fan-out's publisher broke", exc_info=True)
            return None
        self.sent += 1
        self._owe(1, reply)
        return reply

    def _owe(self, count: int, reply: asyncio.Future | tuple[int, int] | None) -> None:
        if count <= 0:
            return
        owed = self.owed
        if reply is None and owed and owed[-1][1] is None:
            owed[-1][0] += count
        else:
            owed.append([count, reply])

    def _replied(self, reply) -> None:
        """The next reply on the publisher's connection: to its command's future, if one waits for it,
        or to ``_counted`` for a table's PUBLISH (table, hellos heard when it left)."""
        if not self.owed:
            return
        head = self.owed[0]
        head[0] -= 1
        if head[0] <= 0:
            self.owed.popleft()
            wants = head[1]
            if isinstance(wants, tuple):
                self._counted(*wants, reply)
            elif wants is not None and not wants.done():
                wants.set_result(reply)

    def _owed_lost(self) -> None:
        """The publisher's connection ended: the replies still owed will never come."""
        for _count, reply in self.owed:
            if isinstance(reply, asyncio.Future) and not reply.done():
                reply.set_result(None)
        self.owed.clear()

    # --- moves forwarded to the process that keeps the table's play -------------------------

    def keeper(self, table_id: int) -> bytes | None:
        """The process that should make the table's moves, when it is another one; None: this one.

        Among the ASGI processes heard changing the table (each socket's
        arrival is such a change, so every process with a player of the table
        is there once it has one) and not known gone (``lapsed``), the one
        whose origin hashes highest with the table's id: every process that
        has heard the same ones picks the same, and the tables spread evenly
        over the processes. That process's kept play then takes every move of
        the table.
        """
        changers = self.changers.get(table_id)
        if not changers or len(changers) == 1 and self.origin in changers:
            return None
        key = table_id.to_bytes(8, "big", signed=True)
        lapsed = self.lapsed
        chosen = max(
            (origin for origin in changers if origin not in lapsed),
            key=lambda origin: hashlib.blake2b(origin + key, digest_size=8).digest(),
            default=self.origin,
        )
        return None if chosen == self.origin else chosen

    def keeper_gone(self, table_id: int, origin: bytes) -> None:
        """``origin`` did not answer a forwarded move: stop choosing it for the table until it changes it again."""
        changers = self.changers.get(table_id)
        if changers is not None:
            changers.discard(origin)

    def process_channel(self, origin: bytes) -> bytes:
        """The pub/sub channel of the process whose messages start with ``origin``."""
        return f"{self.prefix}process:{origin.hex()}".encode()

    def going_channel(self) -> bytes:
        """The pub/sub channel on which a process that stops says so (its origin)."""
        return f"{self.prefix}going".encode()

    def alive_key(self, origin: bytes) -> bytes:
        """The key that lives while the process whose messages start with ``origin`` beats (``_beat``)."""
        return f"{self.prefix}alive:{origin.hex()}".encode()

    def _direct(self, origin: bytes, message: dict) -> None:
        """Publish ``message`` to the one process whose origin is ``origin``."""
        data = self.origin + msgpack.packb(message, use_bin_type=True)
        self._send(_command([b"PUBLISH", self.process_channel(origin), data]), 1)

    async def forward(self, keeper: bytes, request: dict, wait: float) -> dict | None | object:
        """Have the process ``keeper`` make a move of one of its tables; its answer, None, or ``UNHEARD``.

        The answer says what the call gave there (``seq``, or ``error``: code
        and text); the move's frames come as every change's do. None: no answer
        in time (that process may be gone, or slow), or it said it is going
        before it answered: the move may or may not have been made there.
        ``UNHEARD``: the move was not sent (the publisher's connection is being
        made, or msgpack cannot carry it), or Redis says no process listens on
        the keeper's channel (it died: Redis drops a subscription as its
        connection closes); either way nobody can make it, and in the last
        case the keeper is dropped from every table here. A keeper whose key
        lapses while its answer is awaited still has the whole ``wait``: one
        only slow may yet answer.
        """
        self.requests += 1
        ident = self.requests
        try:
            data = self.origin + msgpack.packb(
                {"type": "forward", "id": ident, "from": self.origin, **request}, use_bin_type=True
            )
        except (OverflowError, TypeError, ValueError):  # an integer past 64 bits, say: JSON has no limit
            return UNHEARD  # made here, where the rules refuse what makes no sense
        receivers = self._ask([b"PUBLISH", self.process_channel(keeper), data])
        if receivers is None:
            return UNHEARD
        answer = self.loop.create_future()
        self.answers[ident] = (answer, keeper)
        deadline = self.loop.time() + wait
        try:
            heard = await asyncio.wait_for(receivers, wait)
            if heard == 0:
                self._gone(keeper)
                return UNHEARD
            # None: the connection ended before Redis said; the move may have reached the keeper.
            given = await asyncio.wait_for(answer, max(0.0, deadline - self.loop.time()))
        except TimeoutError:
            given = None
        finally:
            self.answers.pop(ident, None)
        if given is None:
            # The player is told to try again: a keeper that was only stalled must not make it
            # when it wakes (its retry may be made meanwhile); one already making it does.
            self._direct(keeper, {"type": "withdraw", "id": ident, "from": self.origin})
        return given

    def _answer_or_serve(self, message: dict) -> None:
        if message.get("type") == "answer":
            waiting = self.answers.get(message.get("id"))
            if waiting is not None and not waiting[0].done():
                waiting[0].set_result(message)
        elif message.get("type") == "forward" and forward_handler is not None:
            self.loop.create_task(self._serve(message), name="table-forwarded-move")
        elif message.get("type") == "withdraw":
            self.withdrawn[(message.get("from"), message.get("id"))] = None
            while len(self.withdrawn) > WITHDRAWN_KEPT:
                self.withdrawn.popitem(last=False)

    def _gone(self, origin: bytes) -> None:
        """``origin`` stopped (it said so, or nobody listens on its channel): choose it for no table from now on.

        Its moves in flight get None at once: it will answer none of them.
        """
        if origin == self.origin:
            return
        for changers in self.changers.values():
            changers.discard(origin)
        self.lapsed.add(origin)  # until a beat finds its key (one that lives on after a false alarm)
        for answer, keeper in self.answers.values():
            if keeper == origin and not answer.done():
                answer.set_result(None)

    async def _beat(self) -> None:
        """Keep this process's liveness key, and read the others', every ``beat`` seconds.

        The key lives ``alive`` seconds (Redis's clock): a process killed, lost
        with its machine or stalled that long is not chosen any more once its
        key has expired, and again once it beats. One SET and one MGET a beat,
        never a round trip per move. A key found missing counts only when the
        publisher's connection is ``alive`` seconds old: after a restart Redis
        has no key until every process has beaten again.
        """
        ttl = str(max(1, int(self.alive * 1000))).encode()
        mine = self.alive_key(self.origin)
        while True:
            try:
                self._send(_command([b"SET", mine, b"1", b"PX", ttl]), 1)
                others = {origin for changers in self.changers.values() for origin in changers}
                others.discard(self.origin)
                self.lapsed &= others  # forget the processes no table here names
                if others:
                    others = sorted(others)
                    reply = self._ask([b"MGET", *(self.alive_key(origin) for origin in others)])
                    values = await asyncio.wait_for(reply, self.beat) if reply is not None else None
                    if isinstance(values, list) and len(values) == len(others):
                        self._heard_alive(others, values)
            except asyncio.CancelledError:
                raise
            except TimeoutError:
                pass  # Redis is slow: the lapsed stay as they were
            except Exception:  # noqa: BLE001 - the next beat tries again
                logger.warning("table fan-out: the keepers' liveness could not be read", exc_info=True)
            await asyncio.sleep(self.beat)

    def _heard_alive(self, others: list[bytes], values: list) -> None:
        trusted = self.loop.time() - self.publisher_since >= self.alive
        for origin, value in zip(others, values, strict=True):
            if value is not None:
                self.lapsed.discard(origin)
            elif trusted and origin not in self.lapsed:
                logger.info(
                    "table fan-out: process %s stopped beating; its tables move elsewhere", origin.hex()
                )
                self.lapsed.add(origin)

    async def _say_going(self) -> None:
        """Tell the other processes that this one stops, so none forwards it a move again (at most ``GOING_WAIT``)."""
        writer = None
        try:
            reader, writer = await asyncio.wait_for(_open(self.address, select=True), GOING_WAIT)
            writer.write(
                _command([b"DEL", self.alive_key(self.origin)])
                + _command([b"PUBLISH", self.going_channel(), self.origin])
            )
            replies, answers = _Replies(), []
            async with asyncio.timeout(GOING_WAIT):
                while len(answers) < 2:
                    data = await reader.read(READ_SIZE)
                    if not data:
                        break
                    answers.extend(replies.feed(data))
        except Exception:  # noqa: BLE001 - the others notice when its key expires, or its channel is silent
            logger.info("table fan-out: could not say this process is going", exc_info=True)
        finally:
            if writer is not None:
                writer.transport.abort()

    async def close(self) -> None:
        """Stop this fan-out (its loop is ending): say it is going, end its connections and tasks."""
        tasks = [t for t in (self.beater, self.reader, self.publisher_task) if t is not None and not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)  # the reader says it is going as it ends

    async def _serve(self, message: dict) -> None:
        """Make a forwarded move, unless its asker withdraws it before it is made; answer the asker."""
        asked = (message.get("from"), message.get("id"))
        withdrawn = self.withdrawn
        try:
            # Read from the table's thread: a dict lookup, safe while the loop adds to it.
            answer = await forward_handler(message, lambda: asked in withdrawn)
        except Exception:  # noqa: BLE001 - the asking process tells its player to try again
            logger.exception("a forwarded move of table %s failed", message.get("table"))
            answer = {"error": None}
        finally:
            withdrawn.pop(asked, None)
        self._direct(message["from"], {"type": "answer", "id": message["id"], **answer})

    async def _publisher(self) -> None:
        """Connect the publisher, send what waited, then read (and check) its replies until it breaks."""
        writer = watcher = None
        try:
            reader, writer = await _open(self.address, select=True)
            self.sent = self.answered = 0
            self._owed_lost()
            if self.unsent:
                writer.write(b"".join(self.unsent))
                self.sent = self.unsent_count
                self._owe(self.unsent_count, None)
                self.unsent.clear()
                self.unsent_count = 0
            self.publisher = writer
            self.publisher_since = self.loop.time()
            watcher = self.loop.create_task(
                self._watch_publisher(writer), name="table-fanout-publisher-watch"
            )
            replies = _Replies()
            while True:
                data = await reader.read(READ_SIZE)
                if not data:
                    raise ConnectionError("Redis closed the publisher's connection")
                answers = replies.feed(data)
                self.answered += len(answers)
                for reply in answers:
                    if isinstance(reply, _Error):
                        logger.error("Redis refused a command of the table fan-out: %s", reply)
                    self._replied(reply)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the next publish connects again
            logger.warning("the table fan-out's publisher lost Redis", exc_info=True)
            if self.publisher is None:
                self.unsent.clear()  # could not connect: those broadcasts are lost for the other processes
                self.unsent_count = 0
        finally:
            if self.publisher is writer:
                self.publisher = None
                self._owed_lost()
            if watcher is not None:
                watcher.cancel()
            if writer is not None:
                writer.transport.abort()

    async def _watch_publisher(self, writer: asyncio.StreamWriter) -> None:
        """Abort the publisher's connection when a reply owed for a whole ``PING_EVERY`` has not come.

        Every PUBLISH is answered. A connection that died without a word (see
        ``_watch``) takes every write for hours, and every change this process
        makes is lost for the other processes all that time; given up, the
        next publish connects again (the frames it swallowed stay lost: the
        other processes' clients resync on the gap).
        """
        owed = 0  # replies owed at the previous look
        while True:
            await asyncio.sleep(PING_EVERY)
            if writer.transport.is_closing():
                return
            if self.answered < owed:
                logger.warning(
                    "table fan-out: Redis did not answer a PUBLISH in %s s; reconnecting", PING_EVERY
                )
                writer.transport.abort()
                return
            owed = self.sent


def _deliver(inbox: asyncio.Queue, event: dict, table_id: int) -> None:
    """Queue a message for one socket; a socket that is this far behind loses it, as a full channel did."""
    try:
        inbox.put_nowait(event)
    except asyncio.QueueFull:  # its client sees the gap and resyncs
        logger.info("a socket of table %s is %d messages behind; dropped one", table_id, inbox.maxsize)


# --- RESP, the little of it used here --------------------------------------------------


def _command(parts: list[bytes]) -> bytes:
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        out.append(b"$%d\r\n" % len(part))
        out.append(part)
        out.append(b"\r\n")
    return b"".join(out)


class _Error(str):
    """An error reply."""


class _Incomplete(Exception):
    pass


class _Replies:
    """Splits what Redis sends into replies: arrays, bulk and simple strings, integers, errors (RESP2)."""

    def __init__(self) -> None:
        self.buffer = b""

    def feed(self, data: bytes) -> list:
        buffer = self.buffer + data if self.buffer else data
        replies, pos = [], 0
        while pos < len(buffer):
            try:
                reply, pos_next = _parse(buffer, pos)
            except _Incomplete:
                break
            replies.append(reply)
            pos = pos_next
        self.buffer = buffer[pos:]
        return replies


def _parse(buffer: bytes, pos: int):
    end = buffer.find(b"\r\n", pos)
    if end < 0:
        raise _Incomplete
    kind, line = buffer[pos : pos + 1], buffer[pos + 1 : end]
    pos = end + 2
    if kind == b"$":
        size = int(line)
        if size < 0:
            return None, pos
        if len(buffer) < pos + size + 2:
            raise _Incomplete
        return buffer[pos : pos + size], pos + size + 2
    if kind == b"*":
        count = int(line)
        if count < 0:
            return None, pos
        items = []
        for _ in range(count):
            item, pos = _parse(buffer, pos)
            items.append(item)
        return items, pos
    if kind == b":":
        return int(line), pos
    if kind == b"+":
        return line.decode(), pos
    if kind == b"-":
        return _Error(line.decode(errors="replace")), pos
    raise ConnectionError(f"unexpected reply from Redis: {buffer[pos - 2 - len(line) - 1 : pos]!r}")


async def _open(address: str, *, select: bool = False) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection to the Redis of ``address`` (redis://, rediss:// or unix://), authenticated if it says so.

    ``select``: on the address's database too (for keys; pub/sub channels are the same in every database).
    """
    url = urllib.parse.urlparse(address)
    query = urllib.parse.parse_qs(url.query)
    if url.scheme == "unix":
        connecting = asyncio.open_unix_connection(url.path)
    elif url.scheme in ("redis", "rediss"):
        ssl = None
        if url.scheme == "rediss":
            import ssl as ssl_module

            ssl = ssl_module.create_default_context()
        connecting = asyncio.open_connection(url.hostname or "localhost", url.port or 6379, ssl=ssl)
    else:
        raise ValueError(f"unsupported Redis address {address!r}")
    reader, writer = await asyncio.wait_for(connecting, CONNECT_TIMEOUT)
    password = urllib.parse.unquote(url.password) if url.password else (query.get("password") or [None])[0]
    username = urllib.parse.unquote(url.username) if url.username else None
    commands = []
    if password:
        commands.append([b"AUTH", *([username.encode()] if username else []), password.encode()])
    database = (url.path.strip("/") if url.scheme != "unix" else "") or (query.get("db") or ["0"])[0]
    if select and database != "0":
        commands.append([b"SELECT", database.encode()])
    if commands:
        writer.write(b"".join(_command(command) for command in commands))
        replies = _Replies()
        answers: list = []
        try:
            while len(answers) < len(commands):
                data = await asyncio.wait_for(reader.read(READ_SIZE), CONNECT_TIMEOUT)
                if not data:
                    raise ConnectionError("Redis closed the connection while it was being set up")
                answers.extend(replies.feed(data))
        except BaseException:
            writer.transport.abort()
            raise
        for command, answer in zip(commands, answers, strict=False):
            if isinstance(answer, _Error):
                writer.transport.abort()
                raise ConnectionError(f"Redis refused {command[0].decode()}: {answer}")
    return reader, writer
