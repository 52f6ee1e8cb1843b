"""Redis restarts in the middle of a hand: clients catch up from sequence numbers, no hand is lost or paid twice.

The test runs its own ``redis-server`` (no persistence, a port of its own) as
the hub's pub/sub, plays a table through real consumers, SIGKILLs that Redis
mid-hand and starts a fresh, empty one on the same port. Broadcasts sent
while it was down are lost; the hub's pub/sub connection comes back
and subscribes again, so the sockets stay open and each client does what the
browser client does: on a ``seq`` gap (or a ``pong`` ahead of it) it sends
``resync``, on a closed socket it reconnects, and it ends up with the same
state as the database. The hand goes on (every change is in PostgreSQL, not
Redis) and settles exactly once.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from conftest import worker_port
from rooms.tables import services
from rooms.tables.models import Hand, Table
from rooms.tables.selectors import table_snapshot
from rooms.tables.tests.conftest import run_clock
from rooms.tables.tests.helpers import play_until_over
from rooms.tables.tests.servers import redis_hub
from rooms.tables.tests.test_abuse import game_tier, open_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]

REDIS_PORT = worker_port(6391)  # this suite's own range, away from the shared Redis


@pytest.fixture
def own_redis(settings):
    with redis_hub(settings, REDIS_PORT) as server:
        yield server


class Client:
    """A table client that follows docs/protocol.md: apply seq+1, resync on a gap, reconnect when closed."""

    def __init__(self, table_id: int, user) -> None:
        self.table_id, self.user = table_id, user
        self.comm = None
        self.state: dict | None = None
        self.reconnects = self.resyncs = self.applied = 0

    async def connect(self) -> None:
        self.comm, connected = await open_socket(self.table_id, self.user)
        assert connected
        self.awaiting_snapshot = True  # the server sends the full state on connect

    async def resync(self) -> None:
        self.resyncs += 1
        self.awaiting_snapshot = True
        await self.comm.send_json_to({"type": "resync"})

    async def pump(self, quiet: float = 0.3) -> None:
        """Read until the socket is quiet, handling every message as the browser would."""
        while True:
            try:
                if await self.comm.receive_nothing(timeout=quiet):
                    return
                output = await self.comm.receive_output(timeout=1)
            except Exception:  # noqa: BLE001 - the consumer died: a closed socket
                output = {"type": "websocket.close"}
            if output["type"] == "websocket.close":
                self.reconnects += 1
                await self.connect()
                continue
            message = json.loads(output["text"])
            if message["type"] != "state":
                continue
            last = self.state["seq"] if self.state else None
            if message["seq"] == (last or 0) + 1 and not self.awaiting_snapshot:
                self.applied += 1
            if self.awaiting_snapshot or message["seq"] == last + 1:
                # A full snapshot (connect, resync) carries the current seq; a broadcast the next one.
                self.state = message
                self.awaiting_snapshot = False
            elif message["seq"] > last + 1:
                await self.resync()  # a gap: broadcasts were lost

    async def reconnect_when_closed(self, timeout: float = 5) -> None:
        """Wait until the server closes the socket, then reconnect at once, as the browser does."""
        for _ in range(int(timeout / 0.05)):
            if self.comm.future.done():
                break
            await asyncio.sleep(0.05)
        await self.pump()

    async def catch_up(self, expected_seq: int, *, attempts: int = 20) -> None:
        """Keep reading; a client that heard nothing for a while resyncs (the browser's keep-alive does)."""
        for _ in range(attempts):
            await self.pump()
            if self.state and self.state["seq"] == expected_seq:
                return
            try:
                await self.resync()
            except Exception:  # noqa: BLE001
                self.reconnects += 1
                await self.connect()
        raise AssertionError(
            f"client stuck at seq {self.state and self.state['seq']}, table at {expected_seq}"
        )

    async def close(self) -> None:
        try:
            await self.comm.disconnect()
        except Exception:  # noqa: BLE001 - it may already be gone
            pass


def _table_seq(table_id: int) -> int:
    return Table.objects.get(pk=table_id).seq


async def _play_until_over_reading(hand_id: int, clients) -> Hand:
    """Run the clock until the hand is over, the clients reading (and reconnecting) between its steps."""
    for _ in range(500):
        for client in clients:
            await client.pump(quiet=0.05)
        await sync_to_async(run_clock)(1)
        hand = await sync_to_async(Hand.objects.get)(pk=hand_id)
        if hand.status in (Hand.Status.SETTLED, Hand.Status.CANCELLED):
            return hand
    raise AssertionError(f"hand {hand_id} never finished")


async def test_a_redis_restart_mid_hand_loses_no_hand_and_settles_once(own_redis, make_player):
    from wallets.models import Account, LedgerTransaction

    alice, bob = await sync_to_async(make_player)(coins=5000), await sync_to_async(make_player)()
    tier = await sync_to_async(game_tier)("zhajinhua")
    table = await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=alice)
    player, watcher = Client(table.pk, alice), Client(table.pk, bob)
    await player.connect()
    await watcher.connect()
    await sync_to_async(run_clock)(1)  # bots sit down and the hand is dealt
    hand = await sync_to_async(Hand.objects.get)(table=table, status="playing")
    await sync_to_async(services.table_trustee)(table_id=table.pk, user=alice, on=True)
    await sync_to_async(run_clock)(2)  # a few moves with Redis up
    for client in (player, watcher):
        await client.pump()
    seq_before = await sync_to_async(_table_seq)(table.pk)
    assert player.state["seq"] == watcher.state["seq"] == seq_before

    own_redis.kill()
    # Play goes on while Redis is down: every change commits, its broadcast is lost.
    await sync_to_async(run_clock)(3)
    seq_down = await sync_to_async(_table_seq)(table.pk)
    assert seq_down > seq_before
    own_redis.start()  # empty: no subscriptions, no queued messages
    # The clients keep reading while the hand goes on, as browsers do (a player with no open
    # socket when the hand ends is stood up), and catch up on a gap.

    finished = await _play_until_over_reading(hand.pk, (player, watcher))
    assert finished.status == Hand.Status.SETTLED, finished.cancel_reason
    seq_now = await sync_to_async(_table_seq)(table.pk)
    for client in (player, watcher):
        await client.catch_up(seq_now)
        truth = await sync_to_async(table_snapshot)(table_id=table.pk, user=client.user)
        assert client.state["seq"] == truth["seq"]
        assert client.state["last_hand"] == truth["last_hand"]
        assert client.state["table"]["seats"] == truth["table"]["seats"]
    assert player.reconnects + player.resyncs > 0  # the client did have to catch up

    # The hand is not lost and was paid once: one stake, one settlement, an empty escrow.
    keys = await sync_to_async(
        lambda: sorted(
            LedgerTransaction.objects.filter(reference=f"hand:{hand.pk}").values_list("key", flat=True)
        )
    )()
    assert keys == [f"hand:{hand.pk}:settle", f"hand:{hand.pk}:stake"]
    assert await sync_to_async(lambda: Account.objects.get(code="escrow").balance)() == 0

    # After the restart the table runs as before: the next hand's broadcasts arrive in order.
    await sync_to_async(services.table_ready)(table_id=table.pk, user=alice)
    await sync_to_async(run_clock)(1)
    second = await sync_to_async(Hand.objects.get)(table=table, status="playing")
    await sync_to_async(services.table_trustee)(table_id=table.pk, user=alice, on=True)
    reconnects, applied = player.reconnects, player.applied
    done = await sync_to_async(play_until_over)(second.pk)
    assert done.status == Hand.Status.SETTLED
    await player.catch_up(await sync_to_async(_table_seq)(table.pk))
    # The socket stayed up and the broadcasts flowed again, one seq after another. (A resync may
    # still happen at the very end: tests settle in-process, inside the commit, so the result's
    # broadcast can overtake the last move's.)
    assert player.reconnects == reconnects
    assert player.applied - applied >= done.action_count // 2, (player.applied, applied, done.action_count)
    assert (
        await sync_to_async(
            lambda: LedgerTransaction.objects.filter(key=f"hand:{second.pk}:settle").count()
        )()
        == 1
    )
    await player.close()
    await watcher.close()
