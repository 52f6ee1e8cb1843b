"""A seat's presence counts every socket of its player; a socket sends its table's changes in seq order."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from rooms.tables import services
from rooms.tables.broadcast import seat_is_auto, table_group
from rooms.tables.models import Seat
from rooms.tables.tests.test_consumers import long_tier, memory_layer, open_socket, seated  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def _seat(user) -> Seat:
    return Seat.objects.get(user=user)


async def test_closing_one_of_two_sockets_leaves_the_seat_connected(long_tier, make_player):  # noqa: F811
    """A second tab, or a reconnect the server sees before the old socket's close: 托管 must not play."""
    alice = await sync_to_async(make_player)()
    table, first = await seated(alice, long_tier)
    second = await open_socket(table.pk, alice)
    await second.receive_nothing(timeout=0.2)

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
    """Read what the socket has sent so far (its snapshot); return the last seq."""
    seq = (await comm.receive_json_from(timeout=3))["seq"]
    while not await comm.receive_nothing(timeout=0.2):
        seq = max(seq, (await comm.receive_json_from())["seq"])
    return seq


def _frame(**payload) -> str:
    return json.dumps(payload, separators=(",", ":"))


async def test_a_change_that_overtakes_an_earlier_one_waits_for_it(long_tier, make_player):  # noqa: F811
    """Settlement's ``state``+``result`` (seq N) arriving after another player's ``ready`` (N+1).

    Both reach the socket by different roads (the worker's message after its
    commit, the ASGI process's own); the client
    drops an older ``result``, so before this the player lost the result panel.
    """
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    seat = await sync_to_async(_seat)(alice)
    seq = await _drained_seq(comm)
    layer = get_channel_layer()

    later = _frame(type="state", seq=seq + 2, marker="ready")
    await layer.group_send(
        table_group(table.pk),
        {
            "type": "table.frames",
            "seq": seq + 2,
            "seats": [[seat.index, alice.pk, [later]]],
            "watch": [],
            "seat_users": [alice.pk],
        },
    )
    assert await comm.receive_nothing(timeout=0.2)  # held: seq + 1 has not come yet
    settled = {
        "type": "state",
        "seq": seq + 1,
        "marker": "settled",
        "you": {"seat": seat.index, "balance": 1},
    }
    result = {"type": "result", "seq": seq + 1, "hand": 1}
    await layer.group_send(
        table_group(table.pk),
        {
            "type": "table.frames",
            "seq": seq + 1,
            "seats": [[seat.index, alice.pk, [_frame(**settled), _frame(**result)]]],
            "watch": [],
            "seat_users": [alice.pk],
        },
    )
    got = [await comm.receive_json_from(timeout=3) for _ in range(3)]
    assert [(m["type"], m["seq"]) for m in got] == [
        ("state", seq + 1),
        ("result", seq + 1),
        ("state", seq + 2),
    ]
    await comm.disconnect()


async def test_a_seq_that_never_comes_holds_a_change_only_a_moment(long_tier, make_player, settings):  # noqa: F811
    settings.TABLE_REORDER_WAIT = 0.3
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    seat = await sync_to_async(_seat)(alice)
    seq = await _drained_seq(comm)
    await get_channel_layer().group_send(
        table_group(table.pk),
        {
            "type": "table.frames",
            "seq": seq + 3,
            "seats": [[seat.index, alice.pk, [_frame(type="state", seq=seq + 3)]]],
            "watch": [],
            "seat_users": [alice.pk],
        },
    )
    assert await comm.receive_nothing(timeout=0.1)
    message = await comm.receive_json_from(timeout=2)
    assert message["seq"] == seq + 3  # goes out with its gap; the client resyncs
    await comm.disconnect()


async def test_a_change_older_than_what_the_socket_sent_is_not_sent_after_it(
    long_tier,  # noqa: F811
    make_player,
    settings,
):
    """The seq a socket sends never goes down (docs/protocol.md: broadcasts in seq order).

    Two roads led backwards, both seen by the chaos soak: a change older than
    the snapshot the socket had just sent (on connect or resync, read after
    the change committed, while its frames were still on the way), and the
    missing change of a gap arriving after the frames held for it had gone
    out at the end of the wait. The client ignores such a frame anyway.
    """
    settings.TABLE_REORDER_WAIT = 0.3
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    seat = await sync_to_async(_seat)(alice)
    seq = await _drained_seq(comm)  # the snapshot's seq

    async def send(at: int, *frames: dict) -> None:
        await get_channel_layer().group_send(
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
    assert await comm.receive_nothing(timeout=0.2)
    # The same change as the snapshot: its notice still goes out (the client applies it).
    await send(seq, {"type": "state", "seq": seq}, {"type": "result", "seq": seq, "hand": 1})
    assert [(m["type"], m["seq"]) for m in [await comm.receive_json_from(timeout=3) for _ in range(2)]] == [
        ("state", seq),
        ("result", seq),
    ]
    await send(seq + 2, {"type": "state", "seq": seq + 2})  # held for seq + 1, then sent with its gap
    assert (await comm.receive_json_from(timeout=2))["seq"] == seq + 2
    await send(seq + 1, {"type": "state", "seq": seq + 1}, {"type": "result", "seq": seq + 1, "hand": 1})
    assert await comm.receive_nothing(timeout=0.3)
    await comm.send_json_to({"type": "ping"})
    assert (await comm.receive_json_from(timeout=3)) == {"type": "pong", "seq": seq + 2}
    await comm.disconnect()


async def test_a_spectator_socket_that_sits_down_counts_for_the_seat(long_tier, make_player):  # noqa: F811
    """Sitting down at the table one is watching, without reloading: the open socket is the player's."""
    long_tier.bots_enabled = False  # alice's table waits for a second player
    await sync_to_async(long_tier.save)()
    alice = await sync_to_async(make_player)()
    bob = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    watcher = await open_socket(table.pk, bob)
    await watcher.receive_nothing(timeout=0.2)
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


async def test_frames_held_for_a_client_that_went_away_end_quietly():
    """The wait for a missing seq ends after the client has gone: nothing to send, no error left behind.

    The release runs in a task of its own that nobody awaits; the send's
    ``ClientDisconnected`` (an ``OSError``) escaped it and the server's log
    read "Task exception was never retrieved" (the chaos soak saw it).
    """
    import asyncio

    from uvicorn.protocols.utils import ClientDisconnected

    from rooms.tables.consumers import TableConsumer

    consumer = TableConsumer()
    consumer.seq, consumer.sending, consumer.held_timer = 4, asyncio.Lock(), None
    consumer.held = {6: [_frame(type="state", seq=6)]}

    async def gone(*args, **kwargs):
        raise ClientDisconnected()

    consumer.base_send = gone  # the socket's send, under the consumer's
    await consumer._release_held(everything=True)
    assert consumer.held == {}
