"""Redis drops the hub's subscription (``CLIENT KILL``, a full output buffer): every socket catches up.

Runs its own ``redis-server`` (its settings are changed here, so not the
shared one). A frame bigger than the subscribers' output-buffer limit makes
Redis close the subscription, as it does to a subscriber that stalls past the
limit; ``CLIENT KILL TYPE pubsub`` closes it outright. Either way the hub
subscribes again and its sockets send their whole state; a change whose
broadcast was lost still reaches the client through its ``ping``, whose
``pong`` carries the table's ``seq``: a client behind it asks for its state.
"""

from __future__ import annotations

import asyncio

import pytest
import redis
from asgiref.sync import sync_to_async

from conftest import worker_port
from rooms.tables import services
from rooms.tables.models import Table
from rooms.tables.tests.servers import redis_hub
from rooms.tables.tests.test_consumers import latest_state, long_tier, open_socket, seated  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]

REDIS_PORT = worker_port(18201)


@pytest.fixture
def own_redis(settings):
    with redis_hub(settings, REDIS_PORT):
        client = redis.Redis(port=REDIS_PORT)
        yield client
        client.close()


async def caught_up(comm, seq: int) -> dict:
    """What a page does every 25 s: ``ping``; a ``pong`` ahead of what it has shown means ``resync``."""
    await comm.send_json_to({"type": "ping"})
    while (pong := await comm.receive_json_from(timeout=3))["type"] != "pong":
        pass
    assert pong["seq"] == seq
    await comm.send_json_to({"type": "resync"})
    return await latest_state(comm)


async def subscribed_again(client, subscribers: int) -> None:
    for _ in range(200):
        if client.pubsub_numpat() + len(client.pubsub_channels()) >= subscribers:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the hub did not subscribe again")


async def test_every_socket_catches_up_after_redis_drops_the_subscription(own_redis, long_tier, make_player):  # noqa: F811
    alice, bob = await sync_to_async(make_player)(), await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    watcher = await open_socket(table.pk, bob)
    await latest_state(comm), await latest_state(watcher)
    table_seq = sync_to_async(lambda: Table.objects.get(pk=table.pk).seq)
    subscribed = len(own_redis.pubsub_channels())
    assert subscribed >= 1

    # A subscriber whose output buffer passes the hard limit is closed by Redis.
    default_limits = own_redis.config_get("client-output-buffer-limit")["client-output-buffer-limit"]
    own_redis.config_set("client-output-buffer-limit", "pubsub 512 0 0")
    await sync_to_async(services.table_trustee)(table_id=table.pk, user=alice, on=True)  # frames > 512 bytes
    own_redis.config_set("client-output-buffer-limit", default_limits)
    await subscribed_again(own_redis, subscribed)
    seq = await table_seq()
    mine, theirs = await caught_up(comm, seq), await caught_up(watcher, seq)
    assert mine["seq"] == theirs["seq"] == seq and mine["you"]["trustee"] is True

    # CLIENT KILL TYPE pubsub: the same.
    assert own_redis.client_kill_filter(_type="pubsub") >= 1
    await sync_to_async(services.table_trustee)(table_id=table.pk, user=alice, on=False)
    await subscribed_again(own_redis, subscribed)
    seq = await table_seq()
    mine, theirs = await caught_up(comm, seq), await caught_up(watcher, seq)
    assert mine["seq"] == theirs["seq"] == seq and mine["you"]["trustee"] is False

    # And the broadcasts flow through the new subscription again.
    await sync_to_async(services.table_trustee)(table_id=table.pk, user=alice, on=True)
    assert (await latest_state(watcher))["seq"] == seq + 1
    await comm.disconnect()
    await watcher.disconnect()
