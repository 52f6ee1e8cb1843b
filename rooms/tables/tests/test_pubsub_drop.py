"""Redis drops the fan-out's subscription (``CLIENT KILL``, a full output buffer): every socket catches up.

Runs its own ``redis-server`` (its settings are changed here, so not the shared
one). A frame bigger than the subscribers' output-buffer limit makes Redis
close the subscription, as it does to a subscriber that stalls past the limit;
``CLIENT KILL TYPE pubsub`` closes it outright. Either way the change whose
broadcast was lost reaches every socket: the fan-out reconnects and resyncs.
"""

from __future__ import annotations

import asyncio

import pytest
import redis
from asgiref.sync import sync_to_async

from rooms.tables import services
from rooms.tables.models import Table
from rooms.tables.tests.servers import redis_channel_layer
from rooms.tables.tests.test_consumers import latest_state, long_tier, open_socket, seated  # noqa: F401
from rooms.tables.tests.test_fanout import player_and_watcher

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]

REDIS_PORT = 18201


@pytest.fixture
def own_redis(settings):
    with redis_channel_layer(settings, REDIS_PORT):
        client = redis.Redis(port=REDIS_PORT)
        yield client
        client.close()


async def _replaced(hub, old, timeout: float = 10) -> None:
    for _ in range(int(timeout / 0.05)):
        if hub.subscriber is not None and hub.subscriber is not old:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the fan-out did not subscribe again")


async def test_every_socket_catches_up_after_redis_drops_the_subscription(own_redis, long_tier, make_player):  # noqa: F811
    alice, table, comm, watcher, hub = await player_and_watcher(long_tier, make_player)
    table_seq = sync_to_async(lambda: Table.objects.get(pk=table.pk).seq)

    # A subscriber whose output buffer passes the hard limit is closed by Redis.
    first = hub.subscriber
    default_limits = own_redis.config_get("client-output-buffer-limit")["client-output-buffer-limit"]
    own_redis.config_set("client-output-buffer-limit", "pubsub 512 0 0")
    await sync_to_async(services.table_trustee)(
        table_id=table.pk, user=alice, on=True
    )  # its frames > 512 bytes
    await _replaced(hub, first)
    own_redis.config_set("client-output-buffer-limit", default_limits)
    seq = await table_seq()
    mine, theirs = await latest_state(comm), await latest_state(watcher)  # the broadcast was lost: resynced
    assert mine["seq"] == theirs["seq"] == seq
    assert mine["you"]["trustee"] is True

    # CLIENT KILL TYPE pubsub: the same.
    second = hub.subscriber
    assert own_redis.client_kill_filter(_type="pubsub") >= 1
    await sync_to_async(services.table_trustee)(table_id=table.pk, user=alice, on=False)
    await _replaced(hub, second)
    seq = await table_seq()
    mine, theirs = await latest_state(comm), await latest_state(watcher)
    assert mine["seq"] == theirs["seq"] == seq
    assert mine["you"]["trustee"] is False

    # And the broadcasts flow through the new subscription again.
    await sync_to_async(services.table_trustee)(table_id=table.pk, user=alice, on=True)
    assert (await latest_state(watcher))["seq"] == seq + 1
    await comm.disconnect()
    await watcher.disconnect()
