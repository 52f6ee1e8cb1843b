"""A seat forgets the sockets of an ASGI process that died without recording their close."""

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from rooms.tables import presence, services
from rooms.tables.models import Seat
from rooms.tables.tests.test_consumers import long_tier, open_socket  # noqa: F401

pytestmark = [
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_tables"),
]

DEAD = "specific." + "a" * 32 + "!one"
LIVE = "specific." + "b" * 32 + "!two"


@pytest.fixture
def alive_keys():
    """A Redis client for the liveness keys, and a fresh record of missing processes."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    keys = [presence.ALIVE_KEY.format(p) for p in ("a" * 32, "b" * 32)]
    client.delete(*keys)
    presence._missing_since.clear()
    yield client
    client.delete(*keys)
    presence._missing_since.clear()
    client.close()


def test_names_of_other_forms_have_no_process():
    assert presence.process_of(DEAD) == "a" * 32
    assert presence.process_of("specific.inmemory!abc") is None
    assert presence.process_of("c1") is None


def test_the_sockets_of_a_dead_process_are_dropped_once_its_key_stays_missing(
    long_tier,  # noqa: F811
    make_player,
    alive_keys,
):
    alice = make_player()
    table = services.table_quick_start(tier_id=long_tier.pk, user=alice)
    for channel in (DEAD, LIVE):
        services.table_presence(table_id=table.pk, user=alice, connected=True, channel=channel)
    alive_keys.set(presence.ALIVE_KEY.format("b" * 32), "1", ex=presence.ALIVE_TTL)

    assert presence.presence_sweep(force=True, now=1000.0) == 0  # missing once: maybe Redis just restarted
    assert presence.presence_sweep(force=True, now=1000.0 + presence.DEAD_AFTER) == 1
    seat = Seat.objects.get(user=alice)
    assert seat.sockets == [LIVE] and seat.connected  # the live process's socket still counts

    alive_keys.delete(presence.ALIVE_KEY.format("b" * 32))  # that process dies too
    assert presence.presence_sweep(force=True, now=2000.0) == 0
    assert presence.presence_sweep(force=True, now=2000.0 + presence.DEAD_AFTER) == 1
    seat = Seat.objects.get(user=alice)
    assert seat.sockets == [] and not seat.connected and seat.away_since is not None


def test_a_process_that_beats_again_is_not_dropped(long_tier, make_player, alive_keys):  # noqa: F811
    alice = make_player()
    table = services.table_quick_start(tier_id=long_tier.pk, user=alice)
    services.table_presence(table_id=table.pk, user=alice, connected=True, channel=DEAD)

    assert presence.presence_sweep(force=True, now=1000.0) == 0
    alive_keys.set(presence.ALIVE_KEY.format("a" * 32), "1", ex=presence.ALIVE_TTL)  # its next beat
    assert presence.presence_sweep(force=True, now=1000.0 + presence.DEAD_AFTER) == 0
    alive_keys.delete(presence.ALIVE_KEY.format("a" * 32))
    assert presence.presence_sweep(force=True, now=1000.0 + 2 * presence.DEAD_AFTER) == 0  # missing anew
    assert Seat.objects.get(user=alice).sockets == [DEAD]


async def test_a_table_socket_marks_its_process_alive(long_tier, make_player):  # noqa: F811
    alice = await sync_to_async(make_player)()
    table = await sync_to_async(services.table_quick_start)(tier_id=long_tier.pk, user=alice)
    comm = await open_socket(table.pk, alice)
    await comm.receive_nothing(timeout=0.2)
    process = get_channel_layer().client_prefix
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        assert client.ttl(presence.ALIVE_KEY.format(process)) > 0
        seat = await sync_to_async(Seat.objects.get)(user=alice)
        assert [presence.process_of(name) for name in seat.sockets] == [process]
        assert await sync_to_async(presence.presence_sweep)(force=True) == 0
    finally:
        await comm.disconnect()
        client.close()


def test_a_dead_process_is_forgotten_once_no_seat_names_it(long_tier, make_player, alive_keys):  # noqa: F811
    """The sweeping worker lives for days and ASGI processes come and go: their records must not pile up."""
    alice = make_player()
    table = services.table_quick_start(tier_id=long_tier.pk, user=alice)
    services.table_presence(table_id=table.pk, user=alice, connected=True, channel=DEAD)
    presence.presence_sweep(force=True, now=1000.0)
    assert set(presence._missing_since) == {"a" * 32}
    assert presence.presence_sweep(force=True, now=1000.0 + presence.DEAD_AFTER) == 1  # its last name

    presence.presence_sweep(force=True, now=2000.0)  # no seat names any process now
    assert presence._missing_since == {}
