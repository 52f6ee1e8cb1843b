"""The round socket on channels_redis' layer: one publish per change, each socket its own part, in order.

The other round socket tests run on the in-memory layer; these run it as
production does, where a banker table's ``round.change`` travels through each
ASGI process's one subscription to the table (rooms/tables/fanout.py), as a
seated table's frames do. Some of them are the consumer tests, run again here.
"""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection

from rooms.rounds.models import Viewer
from rooms.rounds.tests.conftest import expire, live_round, tick
from rooms.rounds.tests.test_consumers import (  # noqa: F401 - helpers, and tests run again on Redis
    betting_table,
    connected,
    latest_state,
    next_of,
    test_a_bet_reaches_the_bettor_and_the_other_viewers,
    test_a_refused_bet_is_an_error_to_the_sender_only,
    test_closing_the_socket_marks_the_viewer_gone,
    test_resync_and_ping_answer_without_moving_the_sequence,
    test_the_bettor_gets_the_payout_and_the_new_balance,
)
from rooms.tables import consumers, fanout
from rooms.tables.broadcast import table_group
from rooms.tables.tests.helpers import fail_socket
from rooms.tables.tests.servers import fanout_subscribers, suite_redis_layer

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("redis_rounds"),
    pytest.mark.redis,
]


@pytest.fixture
def redis_rounds(fast_rounds, settings):
    """``fast_rounds`` on channels_redis' layer (``fast_rounds`` alone puts the in-memory one)."""
    yield from suite_redis_layer(settings)


def _close_connection() -> None:
    connection.close()


async def test_a_bet_is_published_once_and_each_socket_sends_only_its_own_part(
    bacc_tier, make_player, monkeypatch
):
    alice, bob = await sync_to_async(make_player)(coins=1000), await sync_to_async(make_player)(coins=1000)
    table, comm, state = await betting_table(bacc_tier, alice)
    watcher = await connected(table.pk, bob)
    await latest_state(watcher)
    assert await sync_to_async(fanout_subscribers)(table.pk) == 1  # one subscription for both sockets
    hub = fanout.fanout_for(get_channel_layer())
    layer = get_channel_layer()
    published, synchronous, group_sent = [], [], []
    real_publish, real_sync, real_group_send = hub.publish, fanout._publish, layer.group_send
    monkeypatch.setattr(hub, "publish", lambda packed: (published.append(packed), real_publish(packed)))
    monkeypatch.setattr(fanout, "_publish", lambda *a: (synchronous.append(a), real_sync(*a)))

    async def group_send(group, message):
        group_sent.append(message["type"])
        await real_group_send(group, message)

    monkeypatch.setattr(layer, "group_send", group_send)

    await comm.send_json_to({"type": "bet", "seq": 1, "area": "banker", "amount": 100})
    mine = await next_of(comm, "state")
    theirs = await next_of(watcher, "state")
    assert mine["seq"] == theirs["seq"] == state["seq"] + 1
    assert mine["you"] == {"balance": 900, "stakes": {"banker": 100}, "staked": 100}
    assert theirs["you"] == {"balance": 1000, "stakes": {}, "staked": 0}  # never Alice's part
    assert mine["round"]["areas"][0]["total"] == theirs["round"]["areas"][0]["total"] == 100
    # One message for the change, handed to this loop's fan-out by the bet's thread; none per socket.
    ((table_id, message, _packed),) = [frames for packed in published for frames in packed]
    assert (
        table_id == table.pk
        and message["type"] == "round.change"
        and set(message["parts"]) == {str(alice.pk)}
    )
    assert not synchronous and not group_sent
    # Redis echoes it back to this process's subscription, which skips it: no second copy.
    await asyncio.sleep(0.2)
    for socket in (comm, watcher):
        while not await socket.receive_nothing(timeout=0.2):
            assert (await socket.receive_json_from())["seq"] != mine["seq"]

    await watcher.disconnect()
    assert await sync_to_async(fanout_subscribers)(table.pk) == 1  # Alice's socket still shows the table
    await comm.disconnect()
    await asyncio.sleep(0.1)  # the unsubscribe's reply
    assert await sync_to_async(fanout_subscribers)(table.pk) == 0
    assert table.pk not in hub.inboxes


async def test_a_change_made_by_another_process_reaches_this_process_s_sockets(bacc_tier, make_player):
    """Another ASGI process's bet, the clock (beat) and the payout worker all publish to the same channel."""
    alice = await sync_to_async(make_player)(coins=1000)
    table, comm, state = await betting_table(bacc_tier, alice)
    # A second process's fan-out: its own connections and origin, one inbox of its own for the table.
    address, prefix = fanout.layer_redis(get_channel_layer())
    other = fanout.TableFanout(address, prefix, loop=asyncio.get_running_loop())
    inbox: asyncio.Queue = asyncio.Queue()
    await other.join(table.pk, inbox)
    try:
        # This process's bet reaches the other process once, with the bettor's part in it.
        await comm.send_json_to({"type": "bet", "seq": 1, "area": "player", "amount": 50})
        mine = await next_of(comm, "state")
        change = await asyncio.wait_for(inbox.get(), 3)
        assert change["type"] == "round.change" and change["seq"] == mine["seq"]
        assert change["parts"][str(alice.pk)]["you"]["stakes"] == {"player": 50}
        # The clock, from a thread serving no socket (as beat would), reaches both.
        await sync_to_async(expire)(await sync_to_async(live_round)(table))
        await sync_to_async(tick)()  # betting closes: the coup is dealt
        dealt = await next_of(comm, "state")
        assert dealt["seq"] == mine["seq"] + 1 and dealt["round"]["phase"] == "dealing"
        assert dealt["you"]["stakes"] == {"player": 50}  # the part it kept, merged
        change = await asyncio.wait_for(inbox.get(), 3)
        assert change["seq"] == dealt["seq"] and change["parts"] == {}
        assert inbox.empty()
    finally:
        other.discard(table.pk, inbox)
        for task in (other.reader, other.watcher, other.publisher_task):
            if task is not None:
                task.cancel()
    await comm.disconnect()


async def test_after_the_subscription_breaks_the_round_socket_gets_its_current_state(bacc_tier, make_player):
    """A change published while this process's subscription is down is lost for it: its sockets resync."""
    alice = await sync_to_async(make_player)(coins=1000)
    table, comm, state = await betting_table(bacc_tier, alice)
    hub = fanout.fanout_for(get_channel_layer())
    hub.subscriber.transport.abort()  # as when Redis restarts or the network drops
    for _ in range(200):
        if hub.subscriber is None:
            break
        await asyncio.sleep(0.01)
    assert hub.subscriber is None
    await sync_to_async(expire)(await sync_to_async(live_round)(table))
    await sync_to_async(tick)()  # the clock deals while the subscription is down
    again = await next_of(comm, "state")
    assert again["seq"] == state["seq"] + 1 and again["round"]["phase"] == "dealing"
    await comm.disconnect()


async def test_a_round_socket_that_fails_leaves_the_fan_out_and_the_group(bacc_tier, make_player):
    """Its inbox would fill with every change of the table (bench/soak.py's finding for the table sockets)."""
    alice = await sync_to_async(make_player)(coins=1000)
    table, comm, _state = await betting_table(bacc_tier, alice)
    hub = fanout.fanout_for(get_channel_layer())
    assert len(hub.inboxes[table.pk]) == 1
    viewer = await sync_to_async(Viewer.objects.get)(table_id=table.pk)
    layer = get_channel_layer()
    await fail_socket(comm, viewer.channel)

    assert table.pk not in hub.inboxes and table.pk not in hub.ready
    members = await layer.connection(layer.consistent_hash(table_group(table.pk))).zrange(
        layer._group_key(table_group(table.pk)), 0, -1
    )
    assert viewer.channel.encode() not in members
    assert (await sync_to_async(Viewer.objects.get)(pk=viewer.pk)).left_at is not None
    assert not set(consumers._sockets_per_user) & {alice.pk}
    await sync_to_async(_close_connection)()
