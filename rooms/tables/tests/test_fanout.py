"""A table's frames over Redis pub/sub: each socket still sends exactly its own view, in order, and catches up after a break.

The other consumer tests run on the in-memory channel layer; these run the
socket on channels_redis' layer, as production does, where ``table.frames``
travel through each ASGI process's one subscription (rooms/tables/fanout.py).
Some of them are the consumer and hidden-card tests, run again here: the
hidden-card test also checks that no seat misses a broadcast.
"""

from __future__ import annotations

import asyncio
import threading

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from rooms.tables import fanout, services
from rooms.tables.models import Seat, Table
from rooms.tables.tests.servers import fanout_subscribers, suite_redis_layer
from rooms.tables.tests.test_consumers import (  # noqa: F401 - fixtures, and tests run again on Redis
    latest_state,
    long_tier,
    next_of,
    open_socket,
    seated,
    test_an_act_reaches_every_viewer_with_the_next_seq,
    test_join_sends_the_seat_its_own_view_and_spectators_none,
    until_my_turn,
)
from rooms.tables.tests.test_hidden_cards import (  # noqa: F401 - run again on Redis: every frame of every seat
    test_no_frame_shows_a_card_before_the_rules_reveal_it,
    truth,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_tables"),
    pytest.mark.redis,
]


@pytest.fixture(autouse=True)
def redis_layer(settings):
    yield from suite_redis_layer(settings)


async def test_frames_are_published_once_and_each_socket_sends_its_own(long_tier, make_player, monkeypatch):  # noqa: F811
    alice, bob = await sync_to_async(make_player)(), await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    state = await until_my_turn(comm)
    watcher = await open_socket(table.pk, bob)
    await next_of(watcher, "state")
    assert await sync_to_async(fanout_subscribers)(table.pk) == 1  # one subscription for both sockets

    layer = get_channel_layer()
    group_sent = []
    real_group_send = layer.group_send

    async def group_send(group, message):
        group_sent.append(message["type"])
        await real_group_send(group, message)

    monkeypatch.setattr(layer, "group_send", group_send)
    await comm.send_json_to({"type": "act", "seq": 1, "action": {"type": "add", "n": 2}})
    mine = await next_of(comm, "state")
    theirs = await next_of(watcher, "state")
    assert mine["seq"] == theirs["seq"] == state["seq"] + 1
    seat = (await sync_to_async(Seat.objects.get)(user=alice)).index
    assert mine["you"]["seat"] == seat and mine["you"]["balance"] is not None
    assert mine["hand"]["view"]["secret"] is not None
    assert theirs["you"] == {"seat": None, "balance": None, "trustee": False}
    assert theirs["hand"]["view"]["secret"] is None
    assert "table.frames" not in group_sent  # they went through pub/sub, not the group

    await watcher.disconnect()
    assert await sync_to_async(fanout_subscribers)(table.pk) == 1  # alice's socket still shows the table
    await comm.disconnect()
    await asyncio.sleep(0.1)  # the unsubscribe's reply
    assert await sync_to_async(fanout_subscribers)(table.pk) == 0


async def test_a_change_made_here_reaches_this_process_s_sockets_once(long_tier, make_player, monkeypatch):  # noqa: F811
    """The socket's own act: its frames come from this process's loop, and its own subscription skips them."""
    alice, bob = await sync_to_async(make_player)(), await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    state = await until_my_turn(comm)
    watcher = await open_socket(table.pk, bob)
    await latest_state(watcher)
    hub = fanout.fanout_for(get_channel_layer())
    published, synchronous = [], []
    real_publish, real_sync = hub.publish, fanout._publish
    monkeypatch.setattr(hub, "publish", lambda packed: (published.append(packed), real_publish(packed)))
    monkeypatch.setattr(fanout, "_publish", lambda *a: (synchronous.append(a), real_sync(*a)))

    await comm.send_json_to({"type": "act", "seq": 1, "action": {"type": "add", "n": 2}})
    mine = await next_of(comm, "state")
    theirs = await next_of(watcher, "state")
    assert mine["seq"] == theirs["seq"] == state["seq"] + 1
    assert [[t for t, _m, _d in packed] for packed in published] == [[table.pk]]
    assert not synchronous  # handed to the loop, not published from the table's thread
    # Redis echoes the message back to this process's subscription, which drops it: no second copy.
    await asyncio.sleep(0.2)
    for socket in (comm, watcher):
        while not await socket.receive_nothing(timeout=0.2):
            assert (await socket.receive_json_from())["seq"] != mine["seq"]
    await comm.disconnect()
    await watcher.disconnect()


async def player_and_watcher(long_tier, make_player):  # noqa: F811
    """Alice seated at a table of ``long_tier`` and Bob watching it, both read up; and this process's fan-out."""
    alice, bob = await sync_to_async(make_player)(), await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    watcher = await open_socket(table.pk, bob)
    await latest_state(comm)
    await latest_state(watcher)
    return alice, table, comm, watcher, fanout.fanout_for(get_channel_layer())


async def player_alone(long_tier, make_player):  # noqa: F811
    """A player seated at a table of ``long_tier``, read up; and this process's fan-out."""
    table, comm = await seated(await sync_to_async(make_player)(), long_tier)
    await latest_state(comm)
    return table, comm, fanout.fanout_for(get_channel_layer())


async def test_after_the_subscription_breaks_every_socket_gets_its_current_state(long_tier, make_player):  # noqa: F811
    """Messages published while a process's subscription is down are lost for it: it resyncs its sockets."""
    alice, table, comm, watcher, hub = await player_and_watcher(long_tier, make_player)
    assert hub.subscriber is not None

    hub.subscriber.transport.abort()  # as when Redis restarts or the network drops
    for _ in range(200):
        if hub.subscriber is None:
            break
        await asyncio.sleep(0.01)
    assert hub.subscriber is None  # the reader noticed and waits RECONNECT_EVERY before trying again
    # A change made while the subscription is down: its broadcast is lost for this process.
    await sync_to_async(services.table_trustee)(table_id=table.pk, user=alice, on=True)
    seq = await sync_to_async(lambda: Table.objects.get(pk=table.pk).seq)()
    mine = await latest_state(comm)
    theirs = await latest_state(watcher)
    assert mine["seq"] == theirs["seq"] == seq
    assert mine["you"]["trustee"] is True
    assert theirs["you"]["seat"] is None and theirs["hand"]["view"]["secret"] is None
    await comm.disconnect()
    await watcher.disconnect()


async def test_a_subscription_that_goes_silent_is_given_up_and_every_socket_resynced(
    long_tier,  # noqa: F811
    make_player,
    monkeypatch,
):
    """A connection that dies without a word (a failover to another host, a lost network path) is noticed."""
    monkeypatch.setattr(fanout, "PING_EVERY", 0.5)
    alice, table, comm, watcher, hub = await player_and_watcher(long_tier, make_player)
    silent = hub.subscriber
    silent.transport.pause_reading()  # from now on nothing arrives on it, and nothing says it ended

    # A change from elsewhere (another process, the worker, the clock) travels only through Redis.
    await sync_to_async(services.table_trustee)(table_id=table.pk, user=alice, on=True)
    seq = await sync_to_async(lambda: Table.objects.get(pk=table.pk).seq)()
    for _ in range(200):  # given up after two quiet periods, then subscribed again
        if hub.subscriber is not None and hub.subscriber is not silent:
            break
        await asyncio.sleep(0.05)
    mine = await latest_state(comm)
    theirs = await latest_state(watcher)
    assert mine["seq"] == theirs["seq"] == seq
    assert mine["you"]["trustee"] is True
    assert hub.subscriber is not silent
    assert silent.transport.is_closing()
    await comm.disconnect()
    await watcher.disconnect()


async def test_a_quiet_subscription_is_pinged_and_kept(long_tier, make_player, monkeypatch):  # noqa: F811
    monkeypatch.setattr(fanout, "PING_EVERY", 0.5)
    table, comm, hub = await player_alone(long_tier, make_player)
    subscriber = hub.subscriber
    pings = []
    real_write = hub._write

    def write(writer, command):
        pings.extend(command[:1] if command[0] == b"PING" else [])
        real_write(writer, command)

    monkeypatch.setattr(hub, "_write", write)
    for _ in range(200):
        if len(pings) >= 3:
            break
        await asyncio.sleep(0.1)
    assert len(pings) >= 3  # each answered in time, or the connection would have been given up
    assert hub.subscriber is subscriber
    await comm.disconnect()


async def test_a_publisher_that_gets_no_answer_is_given_up(long_tier, make_player, monkeypatch):  # noqa: F811
    """Writes to a connection that died without a word go nowhere, for hours: every change made here is lost elsewhere."""
    monkeypatch.setattr(fanout, "PING_EVERY", 0.5)
    table, comm, hub = await player_alone(long_tier, make_player)
    await comm.send_json_to({"type": "trustee", "on": True})  # a change made here: this process publishes it
    await next_of(comm, "state")
    for _ in range(100):  # its connection is made on that first publish
        if hub.publisher is not None:
            break
        await asyncio.sleep(0.05)
    silent = hub.publisher
    assert silent is not None
    silent.transport.pause_reading()  # no reply arrives from now on

    await comm.send_json_to({"type": "trustee", "on": False})
    await next_of(comm, "state")
    for _ in range(100):
        if silent.transport.is_closing():
            break
        await asyncio.sleep(0.05)
    assert silent.transport.is_closing()

    # The next change connects again, and the other processes get it.
    address, prefix = fanout.layer_redis(get_channel_layer())
    other = redis.Redis.from_url(address).pubsub(ignore_subscribe_messages=True)
    other.subscribe(fanout.frames_channel(prefix, table.pk))
    other.get_message(timeout=1)  # reads the confirmation: subscribed from here on
    # Said once subscribed, as every process's fan-out says it: this process may play the table alone.
    client = redis.Redis.from_url(address)
    try:
        client.publish(fanout.frames_channel(prefix, table.pk), fanout.NO_ORIGIN + fanout.HELLO)
    finally:
        client.close()
    await comm.send_json_to({"type": "trustee", "on": True})
    state = await next_of(comm, "state")
    heard = None
    for _ in range(50):
        # Skipped: the hello, and the word to read the table afresh that this process answers it
        # with if it had played the table alone meanwhile (a change it did not publish).
        message = await sync_to_async(other.get_message, thread_sensitive=False)(timeout=0.1)
        body = message["data"][fanout.ORIGIN_SIZE :] if message is not None else None
        if body is None or body == fanout.HELLO:
            continue
        heard = fanout.msgpack.unpackb(body)
        if heard.get("seq"):
            break
        heard = None
    other.close()
    assert heard is not None
    assert heard["seq"] == state["seq"]
    assert hub.publisher is not silent
    await comm.disconnect()


async def test_a_message_that_cannot_be_read_stops_nothing(long_tier, make_player):  # noqa: F811
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    await latest_state(comm)
    address, prefix = fanout.layer_redis(get_channel_layer())
    client = redis.Redis.from_url(address)
    try:
        client.publish(fanout.frames_channel(prefix, table.pk), b"\xc1 not msgpack")
    finally:
        client.close()
    await sync_to_async(services.table_trustee)(table_id=table.pk, user=alice, on=True)
    state = await next_of(comm, "state")
    assert state["you"]["trustee"] is True
    await comm.disconnect()


def test_a_count_that_left_before_another_process_said_it_listens_does_not_stop_the_publishing():
    hub = fanout.TableFanout("redis://127.0.0.1:1/0", "test:frames:0:", loop=asyncio.new_event_loop())
    try:
        hub.inboxes[5] = {asyncio.Queue()}
        hellos = hub.hellos[5]
        hub._heard_hello(5)  # heard on the subscription before the PUBLISH's reply arrived
        hub._counted(5, hellos, 1)
        assert 5 not in hub.solo
        hub._counted(5, hub.hellos[5], 2)  # two listeners
        assert 5 not in hub.solo
        hub._counted(5, hub.hellos[5], 1)
        assert 5 in hub.solo
        hub._drop(None)  # the subscription broke: a hello could go unheard
        assert 5 not in hub.solo
    finally:
        hub.loop.close()


def test_a_socket_far_behind_loses_messages_instead_of_queueing_without_end():
    inbox = asyncio.Queue(maxsize=2)
    for n in range(3):
        fanout._deliver(inbox, {"n": n}, table_id=1)
    assert [inbox.get_nowait()["n"] for _ in range(inbox.qsize())] == [0, 1]


async def test_the_changes_handed_over_before_the_loop_turns_are_published_together_in_order():
    loop = asyncio.get_running_loop()
    hub = fanout.TableFanout("redis://127.0.0.1:1/0", "test:frames:0:", loop=loop)
    published = []
    hub.publish = published.append
    first, second, third = [(1, {"seq": 1}, b"a")], [(2, {"seq": 1}, b"b")], [(1, {"seq": 2}, b"c")]
    # From threads, as the table threads do, while the loop is not turning.
    threads = [threading.Thread(target=hub.hand, args=(packed,)) for packed in (first, second)]
    for thread in threads:
        thread.start()
        thread.join()
    assert hub.hand(third)
    assert published == []
    await asyncio.sleep(0)
    assert published == [first + second + third]  # one publish: one write to Redis
    assert hub.hand(first)
    await asyncio.sleep(0)
    assert published[1:] == [first]


def test_a_closed_loop_takes_nothing():
    loop = asyncio.new_event_loop()
    hub = fanout.TableFanout("redis://127.0.0.1:1/0", "test:frames:0:", loop=loop)
    loop.close()
    assert not hub.hand([(1, {"seq": 1}, b"a")])  # the caller publishes it itself
    assert hub.handed == [] and not hub.flush_due
