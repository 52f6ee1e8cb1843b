"""A move made on one ASGI process is forwarded to the process that changed its table last (owner.py).

Two fan-outs on the suite's Redis stand for two processes (each has its own
origin and process channel). What a player must get: the move made once, by
the process that keeps the table's play, its refusal in their own language,
and when that process does not answer, an error to try again, never a move
made twice.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.layers import get_channel_layer

from rooms.tables import consumers, fanout, owner, services
from rooms.tables.models import HandAction, Table
from rooms.tables.tests.helpers import open_hand
from rooms.tables.tests.servers import suite_redis_layer
from rooms.tables.tests.test_queries import _actor

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_tables", "fresh_group_commit"),
    pytest.mark.redis,
    pytest.mark.postgres,
]


@pytest.fixture(autouse=True)
def redis_layer(settings):
    yield from suite_redis_layer(settings)


def _hubs() -> tuple[fanout.TableFanout, fanout.TableFanout]:
    address, prefix = fanout.layer_redis(get_channel_layer())
    loop = asyncio.get_running_loop()
    return fanout.TableFanout(address, prefix, loop=loop), fanout.TableFanout(address, prefix, loop=loop)


async def _joined(hub: fanout.TableFanout, table_id: int) -> asyncio.Queue:
    inbox: asyncio.Queue = asyncio.Queue()
    await hub.join(table_id, inbox)
    return inbox


async def _stop(*hubs: fanout.TableFanout) -> None:
    for hub in hubs:
        for task in (hub.reader, hub.publisher_task):
            if task is not None:
                task.cancel()
        hub._drop(hub.subscriber)


async def test_processes_that_show_a_table_agree_on_its_keeper_and_forward_there(monkeypatch):
    served = []

    async def handler(request):
        served.append(request)
        return {"seq": 41}

    monkeypatch.setattr(fanout, "forward_handler", handler)
    here, there = _hubs()
    try:
        await _joined(here, 7)
        await _joined(there, 7)
        assert here.keeper(7) is None and there.keeper(7) is None  # nobody else heard yet: make it here
        here.publish([(7, {"type": "table.frames", "seq": 39}, b"\x80")])  # each process's player arrives
        there.publish([(7, {"type": "table.frames", "seq": 40}, b"\x80")])
        for _ in range(100):
            if len(here.changers.get(7, ())) == len(there.changers.get(7, ())) == 2:
                break
            await asyncio.sleep(0.01)
        picks = {here.keeper(7), there.keeper(7)}
        assert picks in ({None, here.origin}, {None, there.origin})  # one process keeps it, for both
        asker, keeper = (here, there) if here.keeper(7) == there.origin else (there, here)
        answer = await asker.forward(keeper.origin, {"table": 7, "user": 3, "action": {"type": "pass"}}, 5)
        assert answer["seq"] == 41
        assert [(r["table"], r["user"], r["action"]) for r in served] == [(7, 3, {"type": "pass"})]
        asker.keeper_gone(7, keeper.origin)  # no answer once: that process is not chosen again
        assert asker.keeper(7) is None
    finally:
        await _stop(here, there)


def test_the_tables_spread_over_the_processes():
    loop = asyncio.new_event_loop()
    try:
        hubs = [fanout.TableFanout("redis://127.0.0.1:1/0", "test:frames:0:", loop=loop) for _ in range(2)]
        for hub in hubs:
            for table_id in range(1, 201):
                hub.changers[table_id] = {h.origin for h in hubs}
        first = [t for t in range(1, 201) if hubs[0].keeper(t) is None]
        assert first == [t for t in range(1, 201) if hubs[1].keeper(t) == hubs[0].origin]
        assert (
            60 <= len(first) <= 140
        )  # about half each (a binomial of 200 at 1/2 lies here but once in 10^8)
    finally:
        loop.close()


async def test_a_forward_nobody_answers_gives_none_in_time():
    here, there = _hubs()
    try:
        await _joined(here, 8)
        gone = bytes(fanout.ORIGIN_SIZE - 1) + b"\x01"  # no process listens there
        assert await here.forward(gone, {"table": 8, "user": 1, "action": {"type": "pass"}}, 0.3) is None
        assert here.answers == {}
    finally:
        await _stop(here, there)


async def test_the_keeper_makes_a_forwarded_move_on_its_kept_play(human_table):
    hand, engine, seat = await sync_to_async(_actor)(human_table)
    await sync_to_async(services.table_act)(
        table_id=human_table.pk, user=seat.user, action=engine.legal_actions(hand.state, seat.index)[-1]
    )  # a locking move: the play is kept here
    hand, engine, seat = await sync_to_async(_actor)(human_table)
    request = {
        "table": human_table.pk,
        "user": seat.user.pk,
        "action": engine.legal_actions(hand.state, seat.index)[-1],
        "language": "en",
    }
    answer = await consumers.serve_forwarded_move(request)
    assert answer == {"seq": await sync_to_async(lambda: Table.objects.get(pk=human_table.pk).seq)()}
    assert owner.group_commit().moves == 1  # made on the kept play
    assert await sync_to_async(lambda: open_hand(human_table).action_count)() == 2


@pytest.mark.parametrize(("language", "text"), [("en", "It is not your turn."), ("zh-hans", "还没轮到你。")])
async def test_a_forwarded_move_refused_answers_in_the_player_s_language(human_table, language, text):
    hand, engine, seat = await sync_to_async(_actor)(human_table)
    other = await sync_to_async(
        lambda: human_table.seats.select_related("user").exclude(pk=seat.pk).first().user
    )()
    count = await sync_to_async(HandAction.objects.count)()
    answer = await consumers.serve_forwarded_move(
        {"table": human_table.pk, "user": other.pk, "action": {"type": "pass"}, "language": language}
    )
    assert answer == {"error": ["not_your_turn", text]}
    assert await sync_to_async(HandAction.objects.count)() == count
