"""A seat's presence counts every socket of its player; a socket sends its table's changes in seq order."""

import json

import pytest
from asgiref.sync import sync_to_async

from rooms.tables import services
from rooms.tables.clock import seat_is_auto
from rooms.tables.models import Seat
from rooms.tables.tests.helpers import inject
from rooms.tables.tests.test_consumers import (  # noqa: F401 - long_tier is a fixture
    frame_waiting,
    long_tier,
    nothing_before_pong,
    open_socket,
    seated,
)
from rooms.transport import table_group

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def _seat(user) -> Seat:
    return Seat.objects.get(user=user)


async def test_closing_one_of_two_sockets_leaves_the_seat_connected(long_tier, make_player):  # noqa: F811
    """A second tab, or a reconnect the server sees before the old socket's close: 托管 must not play."""
    alice = await sync_to_async(make_player)()
    table, first = await seated(alice, long_tier)
    second = await open_socket(table.pk, alice)
    await frame_waiting(second)

    await first.disconnect()
    seat = await sync_to_async(_seat)(alice)
    assert seat.connected and seat.away_since is None
    assert not seat_is_auto(seat)
    assert len(seat.sockets) == 1

    await second.disconnect()
    seat = await sync_to_async(_seat)(alice)
    assert not seat.connected and seat.away_since is not None
    assert seat.sockets == []


async def test_presence_of_one_socket_twice_or_an_unknown_one_changes_nothing(long_tier, make_player):  # noqa: F811
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    presence = sync_to_async(services.table_presence)
    await presence(table_id=table.pk, user=alice, connected=False, channel="specific.gone!1")
    seat = await sync_to_async(_seat)(alice)
    assert seat.connected and len(seat.sockets) == 1
    await comm.disconnect()
    assert not (await sync_to_async(_seat)(alice)).connected


async def _drained_seq(comm) -> int:
    """Read what the socket has sent before the pong of a ping (its snapshot); return the last seq."""
    await comm.send_json_to({"type": "ping"})
    seq = -1
    while (message := await comm.receive_json_from(timeout=5))["type"] != "pong":
        seq = max(seq, message["seq"])
    return seq


def _frame(**payload) -> str:
    return json.dumps(payload, separators=(",", ":"))


async def test_a_socket_sends_its_table_s_changes_in_seq_order_and_never_an_older_one(
    long_tier,  # noqa: F811
    make_player,
):
    """The seq a socket sends never goes down (docs/protocol.md): an older change is dropped.

    A change made in another process (a settlement in the worker) may reach the
    socket after a later one, or after a snapshot read once it committed. The
    later frame goes out at once, gap and all (the client asks for its state
    again), and the late one is dropped: the snapshot the client then gets
    shows it, the settled hand's result included.
    """
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    seat = await sync_to_async(_seat)(alice)
    seq = await _drained_seq(comm)  # the snapshot's seq

    async def send(at: int, *frames: dict) -> None:
        inject(
            table_group(table.pk),
            {
                "type": "table.frames",
                "seq": at,
                "seats": [[seat.index, alice.pk, [_frame(**f) for f in frames]]],
                "watch": [],
                "seat_users": [alice.pk],
            },
        )

    await send(seq - 1, {"type": "state", "seq": seq - 1})  # older than the snapshot
    await send(
        seq, {"type": "state", "seq": seq}, {"type": "result", "seq": seq, "hand": 1}
    )  # the snapshot's
    assert await nothing_before_pong(comm)
    await send(seq + 2, {"type": "state", "seq": seq + 2})  # ahead of a change still on its way
    assert (await comm.receive_json_from(timeout=2))["seq"] == seq + 2
    await send(seq + 1, {"type": "state", "seq": seq + 1}, {"type": "result", "seq": seq + 1, "hand": 1})
    assert await nothing_before_pong(comm)
    await comm.disconnect()


async def test_a_ping_is_answered_with_the_table_s_seq_so_a_client_behind_it_resyncs(
    long_tier,  # noqa: F811
    make_player,
    monkeypatch,
):
    """A broadcast lost on its way (the channel layer's Redis restarted) is caught by the next ``ping``."""
    from rooms import transport

    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    seq = await _drained_seq(comm)
    monkeypatch.setattr(transport, "send_many", lambda messages: None)  # the broadcast is lost
    await sync_to_async(services.table_trustee)(table_id=table.pk, user=alice, on=True)
    await comm.send_json_to({"type": "ping"})
    assert await comm.receive_json_from(timeout=3) == {"type": "pong", "seq": seq + 1}
    await comm.send_json_to({"type": "resync"})
    state = await comm.receive_json_from(timeout=3)
    assert state["seq"] == seq + 1 and state["you"]["trustee"] is True
    await comm.disconnect()


async def test_a_spectator_socket_that_sits_down_counts_for_the_seat(long_tier, make_player):  # noqa: F811
    """Sitting down at the table one is watching, without reloading: the open socket is the player's."""
    long_tier.bots_enabled = False  # alice's table waits for a second player
    await sync_to_async(long_tier.save)()
    alice = await sync_to_async(make_player)()
    bob = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    watcher = await open_socket(table.pk, bob)
    await frame_waiting(watcher)
    await sync_to_async(services.table_quick_start)(tier_id=long_tier.pk, user=bob)
    for _ in range(20):  # the socket sees bob in a seat and follows it
        seat = await sync_to_async(_seat)(bob)
        if seat.connected:
            break
        # Read what the watcher got: ``receive_nothing`` returns at once while output waits,
        # which left the consumer no time to follow the seat.
        while not await watcher.receive_nothing(timeout=0.1):
            await watcher.receive_output()
    assert seat.table_id == table.pk
    assert seat.connected and len(seat.sockets) == 1
    await watcher.disconnect()
    assert not (await sync_to_async(_seat)(bob)).connected
    await comm.disconnect()
