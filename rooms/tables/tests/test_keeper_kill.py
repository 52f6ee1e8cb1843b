"""SIGKILL the ASGI process that keeps tables' plays mid-play: their players go on playing at once, each move once.

Two real uvicorn processes serve four 斗地主 tables (Redis channel layer and
fan-out, as in production); each table has a player on each process, so both
processes hear each other change it and one of them keeps its play
(``TableFanout.keeper``). The process keeping the most tables is killed with
SIGKILL. Its players reconnect to the other (as the browser does when its
socket closes) and every table's players make their next moves there: each
move is made within a short bound, with no ``unavailable`` error, and the
table's ``seq`` moves on once per move. Before the keepers' liveness, the first
move of each table kept by the dead process waited ``TABLE_FORWARD_WAIT`` (5 s)
and got ``unavailable``.

Then the same with SIGSTOP (a machine lost without a word, or a process
stalled; its players' second tabs are open on the other process): one move
waits ``TABLE_FORWARD_WAIT`` and gets ``unavailable``; by
then the stopped process's liveness key has lapsed, and every later move is
made at once on the other process;
woken with SIGCONT, the stopped process reads the moves sent to it and makes
none of them (their askers withdrew them).
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import os
import signal
import time

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

from rooms.tables import fanout
from rooms.tables.models import Table
from rooms.tables.tests.servers import port_open, suite_redis_layer
from rooms.tables.tests.test_asgi_kill import AsgiServer, _sessions
from rooms.tables.tests.test_consumers import session_cookie
from rooms.tables.tests.test_queries import _actor

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_tables"),
]

PORTS = (18520, 18521)
TABLES = 4
BOUND = 1.5  # seconds a move may take after the kill (the forward's wait was 5 s)
_acts = itertools.count(1)  # each act's ``seq``, increasing on every socket


@pytest.fixture(autouse=True)
def redis_layer(settings):
    yield from suite_redis_layer(settings)


class Server(AsgiServer):
    """A uvicorn process whose database sessions carry a name of its own (the other one lives on)."""

    def __init__(self, port: int) -> None:
        super().__init__(port)
        self.application = f"keeper-kill-{port}"
        self.env["DATABASE_URL"] = self.env["DATABASE_URL"].replace("asgi-kill-test", self.application)

    def kill(self) -> None:
        super(AsgiServer, self).kill()
        deadline = time.monotonic() + 10
        while _sessions(self.application):
            assert time.monotonic() < deadline, "the killed server's database sessions stayed"
            time.sleep(0.05)


@pytest.fixture
def servers():
    for port in PORTS:
        assert not port_open(port), f"port {port} is taken"
    started = [Server(port) for port in PORTS]
    yield started
    for server in started:
        server.kill()


class Socket:
    """One player's table socket on one server: it notes the newest ``seq`` and every error."""

    def __init__(self, table_id: int, cookie: str, port: int) -> None:
        self.table_id, self.cookie, self.port = table_id, cookie, port
        self.ws = None
        self.seq = 0
        self.errors: list[dict] = []
        self.reader: asyncio.Task | None = None
        self.changed = asyncio.Event()

    async def open(self, port: int | None = None) -> None:
        from websockets.asyncio.client import connect

        self.port = port or self.port
        self.seq = 0
        self.ws = await connect(
            f"ws://127.0.0.1:{self.port}/ws/tables/{self.table_id}/",
            origin=f"http://127.0.0.1:{self.port}",
            additional_headers={"Cookie": f"sessionid={self.cookie}"},
            open_timeout=10,
        )
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for text in self.ws:
                message = json.loads(text)
                if message["type"] == "error":
                    self.errors.append(message)
                elif isinstance(message.get("seq"), int) and message["seq"] > self.seq:
                    self.seq = message["seq"]
                self.changed.set()
        except ConnectionClosed:
            pass

    async def close(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
        if self.ws is not None:
            await self.ws.close()

    def drop(self) -> None:
        """Give the socket up without a close handshake (its server does not answer)."""
        if self.reader is not None:
            self.reader.cancel()
        self.ws.transport.abort()


def _tables(tier, make_player) -> list[tuple[int, list]]:
    """``TABLES`` 斗地主 tables of three humans each, their first hands dealt; (table, its users in seat order)."""
    from rooms.tables import services

    tier.bots_enabled = False
    tier.save(update_fields=["bots_enabled"])
    tables = []
    for _ in range(TABLES):
        users = [make_player(coins=5000) for _ in range(3)]
        for user in users:
            table = services.table_quick_start(tier_id=tier.pk, user=user)
            services.table_presence(table_id=table.pk, user=user, connected=True)
        tables.append((table.pk, users))
    return tables


def _keeper(origins: list[bytes], table_id: int) -> bytes:
    """The rendezvous pick of ``TableFanout.keeper`` among ``origins``."""
    key = table_id.to_bytes(8, "big", signed=True)
    return max(origins, key=lambda origin: hashlib.blake2b(origin + key, digest_size=8).digest())


def _alive_origins(client: redis.Redis, prefix: str) -> set[bytes]:
    return {bytes.fromhex(key.decode().rsplit(":", 1)[1]) for key in client.keys(f"{prefix}alive:*")}


async def _wait(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


async def _move(table_id: int, sockets: dict[int, Socket], *, retry: bool = False) -> tuple[float, int]:
    """The table's actor makes a move (a pass while bidding: the hand goes on), once.

    Returns how long until its frame came, and how many ``unavailable`` errors
    it got first (``retry``: the client sends the move again on each, as the
    browser's player would; else an error fails the test).
    """
    hand, engine, seat = await sync_to_async(_actor)(Table(pk=table_id))
    socket = sockets[seat.user.pk]
    before = await sync_to_async(lambda: Table.objects.get(pk=table_id).seq)()
    action = engine.legal_actions(hand.state, seat.index)[-1]
    start = time.monotonic()
    unavailable = 0
    while True:
        socket.errors.clear()
        socket.changed.clear()
        await socket.ws.send(json.dumps({"type": "act", "seq": next(_acts), "action": action}))
        while socket.seq <= before and not socket.errors:
            socket.changed.clear()
            await asyncio.wait_for(socket.changed.wait(), 15)
        if socket.seq > before:
            break
        assert retry and [e["code"] for e in socket.errors] == ["unavailable"], socket.errors
        unavailable += 1
    took = time.monotonic() - start
    assert await sync_to_async(lambda: Table.objects.get(pk=table_id).seq)() == before + 1  # made once
    return took, unavailable


async def _two_servers(servers, tables, client: redis.Redis, prefix: str) -> tuple[dict, dict]:
    """Start both servers and seat every table's players over both; return the sockets and the origins.

    Sockets: table -> user -> Socket. Origins: port -> the origin of the
    process serving it, learnt from the liveness key its fan-out sets when
    its first socket arrives.
    """
    sockets: dict[int, dict[int, Socket]] = {}
    origins: dict[int, bytes] = {}
    for server in servers:
        await sync_to_async(server.start)()
    for index, server in enumerate(servers):
        for table_id, users in tables:
            for user in users[index::2]:  # seats 0 and 2 on the first process, seat 1 on the second
                cookie = await sync_to_async(session_cookie)(user)
                socket = Socket(table_id, cookie, server.port)
                await socket.open()
                sockets.setdefault(table_id, {})[user.pk] = socket
        await _wait(lambda n=index: len(_alive_origins(client, prefix)) == n + 1, 10, "no liveness key")
        (origins[server.port],) = _alive_origins(client, prefix) - set(origins.values())
    for table_id, _users in tables:  # moves forwarded to each table's keeper
        for _ in range(2):
            await _move(table_id, sockets[table_id])
    return sockets, origins


def _kept(origins: dict[int, bytes], tables) -> dict[int, list[int]]:
    """Port -> the tables whose play its process keeps."""
    return {
        port: [t for t, _u in tables if _keeper(list(origins.values()), t) == origin]
        for port, origin in origins.items()
    }


def _busiest_keeper(servers, origins: dict[int, bytes], tables) -> tuple:
    """The server keeping the most tables (at least one), and the other."""
    kept = _kept(origins, tables)
    busiest = max(servers, key=lambda server: len(kept[server.port]))
    assert kept[busiest.port], kept
    return busiest, next(server for server in servers if server is not busiest)


@pytest.fixture
def redis_client():
    _address, prefix = fanout.layer_redis(get_channel_layer())
    client = redis.Redis.from_url(settings.REDIS_URL)
    for key in client.keys(f"{prefix}alive:*"):
        client.delete(key)
    yield client, prefix
    for key in client.keys(f"{prefix}alive:*"):
        client.delete(key)
    client.close()


async def _close_all(sockets: dict[int, dict[int, Socket]]) -> None:
    for table_sockets in sockets.values():
        for socket in table_sockets.values():
            await socket.close()
    await sync_to_async(lambda: connection.close())()


async def test_the_players_of_a_killed_keeper_s_tables_play_on_at_once(
    servers, redis_client, ddz_tier, make_player
):
    client, prefix = redis_client
    tables = await sync_to_async(_tables)(ddz_tier, make_player)
    sockets: dict[int, dict[int, Socket]] = {}
    try:
        sockets, origins = await _two_servers(servers, tables, client, prefix)
        doomed, survivor = _busiest_keeper(servers, origins, tables)

        await sync_to_async(doomed.kill)()
        for table_sockets in sockets.values():  # its players' browsers reconnect to the other server
            for socket in table_sockets.values():
                if socket.port == doomed.port:
                    await socket.close()
                    await socket.open(survivor.port)
        # Its key usually still lives here (3 s): the moves then learn it is gone from Redis's count
        # of who received them (its subscription went with its connection), not from the key's expiry.
        still_alive = client.exists(f"{prefix}alive:{origins[doomed.port].hex()}")
        times = {}
        for table_id, _users in tables:
            times[table_id] = [(await _move(table_id, sockets[table_id]))[0] for _ in range(3)]
        slowest = max(took for took_list in times.values() for took in took_list)
        assert slowest < BOUND, (times, still_alive)
    finally:
        await _close_all(sockets)


async def test_a_stalled_keeper_is_passed_over_once_its_key_lapses_and_makes_no_move_late(
    servers, redis_client, ddz_tier, make_player
):
    """SIGSTOP, as a machine lost without a word: its connections stay open, the moves sent to it wait."""
    client, prefix = redis_client
    tables = await sync_to_async(_tables)(ddz_tier, make_player)
    sockets: dict[int, dict[int, Socket]] = {}
    stopped = None
    try:
        sockets, origins = await _two_servers(servers, tables, client, prefix)
        stalled, survivor = _busiest_keeper(servers, origins, tables)

        # Its players' second tabs, already open on the other process: their moves go out at once
        # after the stop, well inside the stopped process's liveness (3 s). Reconnecting after the
        # stop instead could outlast it on a slow host, and then no move ever waited for it.
        fresh = {}
        for table_id, table_sockets in sockets.items():
            for user_id, socket in table_sockets.items():
                if socket.port == stalled.port:
                    fresh[table_id, user_id] = Socket(table_id, socket.cookie, survivor.port)
                    await fresh[table_id, user_id].open()
        stopped = stalled.process.pid
        os.kill(stopped, signal.SIGSTOP)
        for (table_id, user_id), socket in fresh.items():
            sockets[table_id][user_id].drop()
            sockets[table_id][user_id] = socket
        results = {}
        for table_id, _users in tables:
            results[table_id] = [await _move(table_id, sockets[table_id], retry=True) for _ in range(3)]
        # One move waited TABLE_FORWARD_WAIT (5 s) and got unavailable; the player sent it again,
        # and by then the stopped process's key had lapsed (3 s): it was made here, as every later one.
        waits = [took for moves in results.values() for took, _u in moves]
        unavailable = sum(u for moves in results.values() for _t, u in moves)
        assert max(waits) < 5.0 + BOUND, results
        assert unavailable == 1, results
        seqs = {t: await sync_to_async(lambda t=t: Table.objects.get(pk=t).seq)() for t, _u in tables}

        os.kill(stopped, signal.SIGCONT)  # it wakes with the moves it was sent still to read
        stopped = None
        await _wait(lambda: len(_alive_origins(client, prefix)) == 2, 10, "the woken process never beat")
        await asyncio.sleep(1.0)
        after = {t: await sync_to_async(lambda t=t: Table.objects.get(pk=t).seq)() for t, _u in tables}
        assert after == seqs  # the moves its askers gave up on were withdrawn: none made late
    finally:
        if stopped is not None:
            os.kill(stopped, signal.SIGCONT)
        await _close_all(sockets)
