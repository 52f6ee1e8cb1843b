"""What an ASGI process keeps per table, per user and per socket returns to nothing once the sockets are gone.

A process serves tables for days: quick start opens tables and a table
closes when its last human leaves, so table ids only grow; sockets open and
close by the thousand, and now and then one fails (its handler raised, its
client vanished). Whatever the process keeps for a table or a socket goes with
them, on every path (bench/soak.py measures it on the whole stack).
"""

from __future__ import annotations

import gc

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from rooms import sockets, transport
from rooms.tables import play, services, timers
from rooms.tables.models import Hand, Seat, Table
from rooms.tables.tests.helpers import fail_socket
from rooms.tables.tests.test_consumers import (  # noqa: F401 - long_tier is a fixture
    frame_waiting,
    long_tier,
    nothing_before_pong,
    open_socket,
    seated,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def kept_for(table_ids: set[int], user_ids: set[int]) -> dict:
    """What the process keeps for these tables and users."""
    gc.collect()  # a table's lock lives while a socket holds it (a weak map)
    return {
        "locks": sorted(set(sockets._table_locks.keys()) & table_ids),
        "clocks": sorted(set(timers._watched) & table_ids),
        "sockets": sorted(set(sockets._sockets_per_user) & user_ids),
        "listening": sorted(
            channel
            for channel in transport.hub().listeners
            if channel
            in {transport.table_group(t) for t in table_ids} | {transport.user_group(u) for u in user_ids}
        ),
    }


def close_table(table, player) -> None:
    """End the table's hand and stand its one human up: the table closes, as it does once its players go."""
    services.hand_cancel(hand_id=Hand.objects.get(table=table).pk, reason="test")
    if Seat.objects.filter(table=table, user=player).exists():  # else stood up already: away, hand over
        services.table_leave(table_id=table.pk, user=player)
    assert Table.objects.get(pk=table.pk).status == Table.Status.CLOSED


async def test_tables_shown_and_left_keep_no_lock_clock_or_socket_count(long_tier, make_player):  # noqa: F811
    """Quick start opens new tables all day: nothing of a table shown stays once its sockets are gone."""
    tables, users = set(), set()
    for _n in range(4):
        player, watcher = await sync_to_async(make_player)(), await sync_to_async(make_player)()
        users |= {player.pk, watcher.pk}
        table, comm = await seated(player, long_tier)
        tables.add(table.pk)
        spectator = await open_socket(table.pk, watcher)
        await frame_waiting(spectator)
        assert kept_for({table.pk}, users)["clocks"] == [table.pk]  # in use while the table is shown
        await comm.send_json_to({"type": "resync"})
        assert await nothing_before_pong(comm) is False  # the resync's state came first
        await comm.disconnect()
        await spectator.disconnect()
        await sync_to_async(close_table)(table, player)
    assert kept_for(tables, users) == {"locks": [], "clocks": [], "sockets": [], "listening": []}
    assert not set(play._kept) & tables  # a hand over is no play to keep


class GoneClient:
    """The ASGI application behind a server whose client can vanish: then every send raises, as uvicorn's does."""

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
    await frame_waiting(comm)
    return table, comm


@pytest.mark.parametrize("how", ["client_gone", "handler_failed"])
async def test_a_socket_that_fails_leaves_its_seat_its_groups_and_the_process(long_tier, make_player, how):  # noqa: F811
    """Most often a socket "fails" only because its client dropped while a frame was on its way."""
    alice = await sync_to_async(make_player)()
    app = GoneClient()
    table, comm = await seated_behind(app, alice, long_tier)
    if how == "client_gone":
        app.gone = True
        await comm.send_json_to({"type": "resync"})  # its answer finds the client gone
        from uvicorn.protocols.utils import ClientDisconnected

        with pytest.raises(ClientDisconnected):  # the application ended (uvicorn drops the error)
            await comm.wait(timeout=3)
    else:
        await fail_socket(comm, alice.pk)

    assert kept_for({table.pk}, {alice.pk}) == {"locks": [], "clocks": [], "sockets": [], "listening": []}
    seat = await sync_to_async(Seat.objects.get)(user=alice)
    assert seat.sockets == [] and not seat.connected
    await sync_to_async(lambda: connection.close())()


async def test_a_round_socket_that_fails_stops_watching(make_player):
    """A failed 百家乐 socket kept its Viewer row open (the table dealt on for nobody) and its groups."""
    from rooms.rounds.models import Viewer
    from rooms.rounds.services import round_enter
    from rooms.rounds.tests.conftest import make_tier
    from rooms.rounds.tests.test_consumers import connected

    alice = await sync_to_async(make_player)(coins=5000)
    tier = await sync_to_async(make_tier)()
    table = await sync_to_async(round_enter)(tier_id=tier.pk, user=alice)
    comm = await connected(table.pk, alice)
    await frame_waiting(comm)
    viewer = await sync_to_async(Viewer.objects.get)(table_id=table.pk)
    await fail_socket(comm, alice.pk)

    viewer = await sync_to_async(Viewer.objects.get)(pk=viewer.pk)
    assert viewer.left_at is not None
    assert kept_for({table.pk}, {alice.pk}) == {"locks": [], "clocks": [], "sockets": [], "listening": []}
    await sync_to_async(lambda: connection.close())()
