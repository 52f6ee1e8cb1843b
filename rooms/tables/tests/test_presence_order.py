"""A seat's presence counts every socket of its player."""

import pytest
from asgiref.sync import sync_to_async

from rooms.tables import services
from rooms.tables.broadcast import seat_is_auto
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
