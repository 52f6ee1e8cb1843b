"""What an ASGI process keeps per table, per user and per socket returns to nothing once the sockets are gone.

A process serves tables for days: quick start opens tables and a table
closes when its last human leaves, so table ids only grow; sockets open and
close by the thousand, and now and then one fails (its handler raised, its
channel layer's Redis went away). Whatever the process keeps for a table or a
socket must go with them, on every path, or it grows for as long as the process
lives (bench/soak.py measures it on the whole stack).
"""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers, get_channel_layer
from django.db import connection

from rooms.tables import consumers, fanout, services
from rooms.tables.broadcast import table_group
from rooms.tables.models import Seat
from rooms.tables.tests.helpers import fail_socket
from rooms.tables.tests.servers import suite_redis_layer
from rooms.tables.tests.test_consumers import long_tier, open_socket, seated  # noqa: F401 - fixture

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


@pytest.fixture
def memory_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture
def redis_layer(settings):
    yield from suite_redis_layer(settings)


def lanes_of(table_ids: set[int]) -> dict:
    return {table_id: lane for table_id, lane in consumers._lanes.items() if table_id in table_ids}


def kept_for(table_ids: set[int], lanes_seen: list) -> dict:
    """What the process keeps for these tables: their lanes, and call wrappers bound to any lane they had."""
    wrappers = list(getattr(consumers, "_wrapped", {}).values())
    for lane in consumers._lanes.values():
        wrappers += list(getattr(lane, "wrapped", {}).values())
    bound = [w for w in wrappers if any(w._executor is lane for lane in lanes_seen)]
    return {"lanes": sorted(lanes_of(table_ids)), "wrappers": len(bound)}


async def fail(comm, user) -> None:
    """Make the socket's handler raise (an unknown message on its channel) and read until it ends."""
    (name,) = await sync_to_async(lambda: Seat.objects.get(user=user).sockets)()
    await fail_socket(comm, name)


@pytest.mark.usefixtures("memory_layer")
async def test_tables_shown_and_left_keep_no_lane_wrapper_or_socket_count(long_tier, make_player):  # noqa: F811
    """Quick start opens new tables all day: each one's lane and wrappers went nowhere before, for good."""
    tables, users, lanes_seen = set(), [], []
    for _n in range(4):
        player, watcher = await sync_to_async(make_player)(), await sync_to_async(make_player)()
        users += [player.pk, watcher.pk]
        table, comm = await seated(player, long_tier)
        tables.add(table.pk)
        spectator = await open_socket(table.pk, watcher)
        await spectator.receive_nothing(timeout=0.2)
        assert list(lanes_of({table.pk})) == [table.pk]  # in use while the table is shown
        lanes_seen.append(consumers._lanes[table.pk])
        await comm.send_json_to({"type": "resync"})
        await comm.receive_nothing(timeout=0.2)
        await comm.disconnect()
        await spectator.disconnect()
        await sync_to_async(close_table)(table, player)
    assert kept_for(tables, lanes_seen) == {"lanes": [], "wrappers": 0}
    assert not set(users) & set(sockets._sockets_per_user)


def close_table(table, player) -> None:
    """End the table's hand and stand its one human up: the table closes, as it does once its players go."""
    from rooms.tables.models import Hand, Table

    services.hand_cancel(hand_id=Hand.objects.get(table=table).pk, reason="test")
    if Seat.objects.filter(table=table, user=player).exists():  # else stood up already: away, hand over
        services.table_leave(table_id=table.pk, user=player)
    assert Table.objects.get(pk=table.pk).status == Table.Status.CLOSED


class GoneClient:
    """The ASGI application behind a server whose client can vanish: then every send raises, as uvicorn's does.

    uvicorn answers a send on a connection that has dropped (no close frame,
    a phone losing its network) with ``ClientDisconnected`` and drops the
    application's error without a word; the disconnect itself comes later.
    Under play a frame is nearly always on its way when a client drops.
    """

    def __init__(self) -> None:
        self.gone = False

    async def __call__(self, scope, receive, send):
        from platform.asgi import application

        from uvicorn.protocols.utils import ClientDisconnected

        async def guarded(message):
            if self.gone and message["type"] == "websocket.send":
                raise ClientDisconnected
            await send(message)

        return await application(scope, receive, guarded)


async def seated_behind(app, user, tier):
    from channels.testing import WebsocketCommunicator

    from rooms.tables.tests.test_consumers import session_cookie

    table = await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=user)
    cookie = await sync_to_async(session_cookie)(user)
    headers = [(b"origin", b"http://testserver"), (b"cookie", f"sessionid={cookie}".encode())]
    comm = WebsocketCommunicator(app, f"/ws/tables/{table.pk}/", headers=headers)
    assert (await comm.connect())[0]
    await comm.receive_nothing(timeout=0.2)
    return table, comm


@pytest.mark.redis
@pytest.mark.usefixtures("redis_layer")
@pytest.mark.parametrize("how", ["client_gone", "handler_failed"])
async def test_a_socket_that_fails_leaves_its_table_s_fan_out_and_group(long_tier, make_player, how):  # noqa: F811
    """A failed socket's inbox stayed in the fan-out and its name in the table's group, for the process's life.

    The fan-out went on filling the dead inbox with every change of the table
    (up to ``INBOX_SIZE`` messages, then a log line per change), the table's
    subscription was never dropped, and whatever was sent to the group reached
    a channel nobody reads. Most often the socket "failed" only because its
    client dropped while a frame was on its way (``GoneClient``).
    """
    alice = await sync_to_async(make_player)()
    app = GoneClient()
    table, comm = await seated_behind(app, alice, long_tier)
    hub = fanout.fanout_for(get_channel_layer())
    assert len(hub.inboxes.get(table.pk, ())) == 1
    lanes_seen = list(lanes_of({table.pk}).values())
    (name,) = await sync_to_async(lambda: Seat.objects.get(user=alice).sockets)()
    if how == "client_gone":
        app.gone = True
        await comm.send_json_to({"type": "resync"})  # its answer finds the client gone
        from uvicorn.protocols.utils import ClientDisconnected

        with pytest.raises(ClientDisconnected):  # the application ended (uvicorn drops the error)
            await comm.wait(timeout=3)
    else:
        await fail(comm, alice)

    assert table.pk not in hub.inboxes and table.pk not in hub.ready and table.pk not in hub.changers
    layer = get_channel_layer()
    members = await layer.connection(layer.consistent_hash(table_group(table.pk))).zrange(
        layer._group_key(table_group(table.pk)), 0, -1
    )
    assert name.encode() not in members
    assert not set(sockets._sockets_per_user) & {alice.pk}
    assert kept_for({table.pk}, lanes_seen) == {"lanes": [], "wrappers": 0}
    seat = await sync_to_async(Seat.objects.get)(user=alice)
    assert seat.sockets == [] and not seat.connected
    await sync_to_async(lambda: connection.close())()


@pytest.mark.usefixtures("memory_layer")
async def test_a_round_socket_that_fails_stops_watching(make_player):
    """A failed 百家乐 socket kept its Viewer row open (the table dealt on for nobody) and its groups."""
    from rooms.rounds.models import Viewer
    from rooms.rounds.tests.conftest import make_tier
    from rooms.rounds.tests.test_consumers import connected

    alice = await sync_to_async(make_player)(coins=5000)
    tier = await sync_to_async(make_tier)()
    table = await sync_to_async(services_round_enter)(tier_id=tier.pk, user=alice)
    comm = await connected(table.pk, alice)
    await comm.receive_nothing(timeout=0.2)
    viewer = await sync_to_async(Viewer.objects.get)(table_id=table.pk)
    layer = get_channel_layer()
    await fail_socket(comm, viewer.channel)

    viewer = await sync_to_async(Viewer.objects.get)(pk=viewer.pk)
    assert viewer.left_at is not None
    assert viewer.channel not in layer.groups.get(table_group(table.pk), {})
    assert not set(sockets._sockets_per_user) & {alice.pk}
    await sync_to_async(lambda: connection.close())()


def services_round_enter(**kwargs):
    from rooms.rounds.services import round_enter

    return round_enter(**kwargs)


@pytest.mark.redis
@pytest.mark.usefixtures("redis_layer")
async def test_what_reaches_a_closed_socket_s_channel_late_is_dropped(long_tier, make_player, monkeypatch):  # noqa: F811
    """channels_redis files each message under its channel for the socket that reads it.

    A message sent to a group before a socket left it, but pulled off Redis
    after the socket stopped reading (the process's stream lags under load),
    was filed under a channel nobody would ever read again: up to 100 messages
    per closed socket, for the process's life (bench/soak.py saw it grow).
    """
    monkeypatch.setattr(consumers, "LAYER_BUFFER_GRACE", 0.5)
    alice, bob = await sync_to_async(make_player)(), await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    reader = await open_socket(table.pk, bob)  # keeps the process pulling its messages off Redis
    await reader.receive_nothing(timeout=0.2)
    (name,) = await sync_to_async(lambda: Seat.objects.get(user=alice).sockets)()
    await comm.disconnect()
    layer = get_channel_layer()
    await layer.send(name, {"type": "table.event", "events": []})  # late, for the closed socket
    for _ in range(100):
        filed = layer.receive_buffer.get(name)
        if filed is not None and filed.qsize():
            break
        await asyncio.sleep(0.02)
    assert filed.qsize() == 1  # filed, for nobody
    await asyncio.sleep(0.6)
    assert name not in layer.receive_buffer
    await reader.disconnect()
    await sync_to_async(lambda: connection.close())()
