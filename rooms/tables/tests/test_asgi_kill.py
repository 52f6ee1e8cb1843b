"""SIGKILL the ASGI server mid-hand and start it again: clients catch up, the dead sockets go away, the hand settles once.

A real uvicorn process serves the table sockets (Redis channel layer and
fan-out, as in production); the clock runs here, in the test (beat's tick in
production), so the hand goes on whatever happens to the server. The server
is killed with SIGKILL: no socket's close is recorded, so every seat keeps the
dead process's socket names. A new server starts on the same port. Alice and
the spectator reconnect (their clients follow docs/protocol.md: reconnect
when closed, resync on a gap) and end at the database's state. Carol never
comes back: her seat's presence lease, which her dead socket no longer renews,
lapses (``TABLE_PRESENCE_LEASE``, shortened here), the tick's presence sweep
drops her socket names, her seat is away, and the clock plays for her. Alice's
new socket renews hers. The hand finishes, is settled once, and
``ledger_check`` finds nothing.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection

from conftest import worker_port
from rooms.tables import services
from rooms.tables.models import Hand, Seat, Table
from rooms.tables.selectors import table_snapshot
from rooms.tables.tests.conftest import run_clock
from rooms.tables.tests.helpers import lease_lapsed, play_until_over
from rooms.tables.tests.servers import ChildServer, database_sessions, port_open
from rooms.tables.tests.test_abuse import game_tier
from rooms.tables.tests.test_consumers import session_cookie
from wallets.models import Account, LedgerTransaction
from wallets.selectors import ledger_check

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_tables"),
]

PORT = worker_port(18210)
LEASE = 3.0  # seconds a seat's presence lasts unless one of its sockets renews it
APPLICATION = "asgi-kill-test"  # the server's database sessions, to wait for their end
ROOT = settings.BASE_DIR


class AsgiServer(ChildServer):
    """``uvicorn platform.asgi:application`` in its own process, on the test database and Redis."""

    name = "uvicorn"
    start_timeout = 30.0

    def __init__(self, port: int) -> None:
        super().__init__(port)
        db = connection.settings_dict
        self.env = {
            **os.environ,
            "DATABASE_URL": (
                f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}?application_name={APPLICATION}"
            ),
            "REDIS_URL": settings.REDIS_URL,
            "DB_CONN_MAX_AGE": "60",
            "TABLE_TIMERS": "off",  # the clock is this test's
            "CELERY_TASK_ALWAYS_EAGER": "1",
            "TABLE_DISCONNECT_GRACE": "0",
            "TABLE_AUTO_DELAY": "0",
            "TABLE_SESSION_RECHECK": "0.5",  # each socket renews its seat's presence this often
            "TABLE_PRESENCE_LEASE": str(LEASE),
        }

    def command(self) -> list[str]:
        server = [sys.executable, "-m", "uvicorn", "platform.asgi:application", "--host", "127.0.0.1"]
        return [
            *server,
            "--port",
            str(self.port),
            "--lifespan",
            "off",
            "--log-level",
            "warning",
            "--no-access-log",
        ]

    def popen_options(self) -> dict:
        return {"cwd": ROOT, "env": self.env}

    def kill(self) -> None:
        super().kill()
        # PostgreSQL ends the dead process's sessions as it notices; the test database is
        # dropped at the end of the run, which their lingering would refuse.
        deadline = time.monotonic() + 10
        while database_sessions(APPLICATION):
            assert time.monotonic() < deadline, "the killed server's database sessions stayed"
            time.sleep(0.05)


@pytest.fixture
def asgi_server():
    assert not port_open(PORT), f"port {PORT} is taken"
    server = AsgiServer(PORT)
    yield server
    server.kill()


class Client:
    """A table client over a real WebSocket: apply seq+1, resync on a gap, reconnect when closed."""

    def __init__(self, table_id: int, user, cookie: str) -> None:
        self.table_id, self.user, self.cookie = table_id, user, cookie
        self.ws = None
        self.state: dict | None = None
        self.reconnects = 0
        self.awaiting_snapshot = True

    async def connect(self, timeout: float = 30) -> None:
        from websockets.asyncio.client import connect

        deadline = time.monotonic() + timeout
        while True:
            try:
                self.ws = await connect(
                    f"ws://127.0.0.1:{PORT}/ws/tables/{self.table_id}/",
                    origin=f"http://127.0.0.1:{PORT}",
                    additional_headers={"Cookie": f"sessionid={self.cookie}"},
                    open_timeout=5,
                )
                self.awaiting_snapshot = True  # the server sends the full state on connect
                return
            except (OSError, TimeoutError):
                assert time.monotonic() < deadline, "the server never came back"
                await asyncio.sleep(0.1)

    async def pump(self, quiet: float = 0.3) -> None:
        """Read until the socket is quiet, handling every message as the browser would."""
        from websockets.exceptions import ConnectionClosed

        while True:
            try:
                text = await asyncio.wait_for(self.ws.recv(), quiet)
            except TimeoutError:
                return
            except ConnectionClosed:
                self.reconnects += 1
                await self.connect()
                continue
            message = json.loads(text)
            if message["type"] != "state":
                continue
            last = self.state["seq"] if self.state else 0
            if self.awaiting_snapshot or message["seq"] == last + 1:
                self.state = message
                self.awaiting_snapshot = False
            elif message["seq"] > last + 1:
                self.awaiting_snapshot = True  # a gap: ask for the whole state
                await self.ws.send(json.dumps({"type": "resync"}))

    async def catch_up(self, expected_seq: int) -> None:
        """Read (and resync) until the client shows the table's current seq (``expected_seq`` at least:
        a socket's own connect is a change of the table too)."""
        from websockets.exceptions import ConnectionClosed

        for _ in range(20):
            await self.pump()
            now = await sync_to_async(lambda: Table.objects.get(pk=self.table_id).seq)()
            if self.state and self.state["seq"] == now >= expected_seq:
                return
            try:  # heard nothing new for a while: the browser's keep-alive resyncs
                self.awaiting_snapshot = True
                await self.ws.send(json.dumps({"type": "resync"}))
            except ConnectionClosed:
                self.reconnects += 1
                await self.connect()
        raise AssertionError(
            f"client stuck at seq {self.state and self.state['seq']}, table at {expected_seq}"
        )

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def _sockets(user) -> list[str]:
    return Seat.objects.get(user=user).sockets


async def test_a_killed_asgi_server_loses_no_hand_and_its_dead_sockets_go_away(
    asgi_server, make_player, settings
):
    settings.TABLE_PRESENCE_LEASE = LEASE  # the sweep, run here, reads it as the server does
    settings.TABLE_BOT_WAIT = 3600  # carol joins alice's table before the bots fill it
    alice, carol = await sync_to_async(make_player)(coins=5000), await sync_to_async(make_player)(coins=5000)
    bob = await sync_to_async(make_player)()
    tier = await sync_to_async(game_tier)("zhajinhua")
    table = await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=alice)
    assert (await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=carol)).pk == table.pk
    clients = {
        user.username: Client(table.pk, user, await sync_to_async(session_cookie)(user))
        for user in (alice, carol, bob)
    }
    await sync_to_async(asgi_server.start)()
    for client in clients.values():
        await client.connect()
    player, watcher = clients[alice.username], clients[bob.username]  # carol never comes back
    settings.TABLE_BOT_WAIT = 0
    await sync_to_async(run_clock)(1)  # bots sit down, the hand is dealt
    hand = await sync_to_async(Hand.objects.get)(table=table, status="playing")
    await sync_to_async(services.table_trustee)(table_id=table.pk, user=alice, on=True)
    await sync_to_async(run_clock)(2)
    table_seq = sync_to_async(lambda: Table.objects.get(pk=table.pk).seq)
    seq = await table_seq()
    for client in clients.values():
        await client.catch_up(seq)
    dead_names = await sync_to_async(_sockets)(carol)
    assert len(dead_names) == 1

    await sync_to_async(asgi_server.kill)()
    await sync_to_async(run_clock)(2)  # the clock does not need the server
    await sync_to_async(asgi_server.start)()
    seq = await table_seq()
    await player.catch_up(seq)  # its socket closed: it reconnects to the new server
    await watcher.catch_up(seq)
    assert player.reconnects == watcher.reconnects == 1
    alice_names = await sync_to_async(_sockets)(alice)
    assert len(alice_names) == 2  # the dead process's name and the new one
    assert await sync_to_async(_sockets)(carol) == dead_names  # nobody recorded the close

    # Nothing renews carol's lease now; alice's new socket renews hers. Once it lapses, the
    # tick's sweep takes carol's names off her seat: she is away.
    await lease_lapsed(carol)
    for client in (player, watcher):
        await client.pump(quiet=0.1)
    await sync_to_async(services.tables_tick)()
    alice_seat = await sync_to_async(Seat.objects.get)(user=alice)
    carol_seat = await sync_to_async(Seat.objects.get)(user=carol)
    assert alice_seat.connected
    assert not carol_seat.connected and carol_seat.sockets == [] and carol_seat.away_since is not None

    # Carol is away, so the clock plays for her: the hand finishes and is paid once.
    finished = await sync_to_async(play_until_over)(hand.pk)
    assert finished.status == Hand.Status.SETTLED, finished.cancel_reason
    seq = await table_seq()
    for client in (player, watcher):
        await client.catch_up(seq)
        truth = await sync_to_async(table_snapshot)(table_id=table.pk, user=client.user)
        assert client.state["last_hand"] == truth["last_hand"]
        assert client.state["table"]["seats"] == truth["table"]["seats"]
    keys = await sync_to_async(
        lambda: sorted(
            LedgerTransaction.objects.filter(reference=f"hand:{hand.pk}").values_list("key", flat=True)
        )
    )()
    assert keys == [f"hand:{hand.pk}:settle", f"hand:{hand.pk}:stake"]
    assert await sync_to_async(lambda: Account.objects.get(code="escrow").balance)() == 0
    assert await sync_to_async(ledger_check)() == []
    for client in clients.values():
        await client.close()
    # Close this test's own thread's connection, or the test database cannot be dropped.
    await sync_to_async(lambda: connection.close())()
