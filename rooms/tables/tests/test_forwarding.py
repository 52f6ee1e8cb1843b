"""A move made on one ASGI process is forwarded to the process that changed its table last (owner.py).

Two fan-outs on the suite's Redis stand for two processes (each has its own
origin and process channel). What a player must get: the move made once, by
the process that keeps the table's play, its refusal in their own language,
and when that process does not answer, an error to try again, never a move
made twice.
"""

from __future__ import annotations

import asyncio
import os

import pytest
import redis
from channels.db import database_sync_to_async as sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from rooms.tables import consumers, fanout, owner, services
from rooms.tables.models import HandAction, Table
from rooms.tables.tests.helpers import open_hand
from rooms.tables.tests.servers import suite_redis_layer
from rooms.tables.tests.test_consumers import long_tier, next_of, seated, until_my_turn  # noqa: F401 - a fixture
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


def _hubs(**liveness) -> tuple[fanout.TableFanout, fanout.TableFanout]:
    """Two fan-outs on the suite's Redis, standing for two ASGI processes (``liveness``: beat, alive)."""
    address, prefix = fanout.layer_redis(get_channel_layer())
    loop = asyncio.get_running_loop()
    return (
        fanout.TableFanout(address, prefix, loop=loop, **liveness),
        fanout.TableFanout(address, prefix, loop=loop, **liveness),
    )


async def _joined(hub: fanout.TableFanout, table_id: int) -> asyncio.Queue:
    inbox: asyncio.Queue = asyncio.Queue()
    await hub.join(table_id, inbox)
    return inbox


async def _stop(*hubs: fanout.TableFanout) -> None:
    for hub in hubs:
        await hub.close()


async def test_processes_that_show_a_table_agree_on_its_keeper_and_forward_there(monkeypatch):
    served = []

    async def handler(request, withdrawn):
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


async def _connected(*hubs: fanout.TableFanout) -> None:
    """Wait until each fan-out's publisher is up (its beat connects it)."""
    for _ in range(300):
        if all(hub.publisher is not None for hub in hubs):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the publishers did not connect")


async def _both_heard(here: fanout.TableFanout, there: fanout.TableFanout, table_id: int) -> None:
    """Each process's player arrives at the table; wait until both processes heard both."""
    here.publish([(table_id, {"type": "table.frames", "seq": 1}, b"\x80")])
    there.publish([(table_id, {"type": "table.frames", "seq": 2}, b"\x80")])
    for _ in range(300):
        if len(here.changers.get(table_id, ())) == len(there.changers.get(table_id, ())) == 2:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the processes did not hear each other")


async def _until(condition, seconds: float) -> float:
    """Wait until ``condition()`` holds (at most ``seconds``); return how long it took."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    while not condition():
        assert loop.time() - start < seconds, "not in time"
        await asyncio.sleep(0.01)
    return loop.time() - start


async def test_a_table_shown_only_here_is_not_published_until_another_process_listens():
    """Redis says a table's changes reach this process alone: they stop going to Redis (and back)
    until another process subscribes and says so; it then reads the table afresh, and gets every
    change after. The process's own sockets get every change all along."""
    here, there = _hubs()
    table_id = 7

    def change(seq: int) -> None:
        message = {"type": "table.frames", "seq": seq}
        here.publish([(table_id, message, fanout.msgpack.packb(message))])

    async def next_in(inbox: asyncio.Queue) -> dict:
        return await asyncio.wait_for(inbox.get(), 5)

    try:
        mine = await _joined(here, table_id)
        change(1)  # its publisher connects; what waited for it counts nobody
        await _until(lambda: here.publisher is not None and here.answered == here.sent, 5)
        change(2)
        await _until(lambda: table_id in here.solo, 5)  # its PUBLISH reached this process only
        sent = here.sent
        change(3)
        change(4)
        assert here.sent == sent  # not published
        assert [(await next_in(mine))["seq"] for _ in range(4)] == [1, 2, 3, 4]

        theirs = await _joined(there, table_id)  # subscribed, then says so on the table's channel
        await _until(lambda: table_id not in here.solo, 5)
        assert await next_in(theirs) == {"type": "table.resync"}  # change 4 may have passed it by
        change(5)
        assert (await next_in(theirs))["seq"] == 5
        assert (await next_in(mine))["seq"] == 5
        change(6)
        assert (await next_in(theirs))["seq"] == 6  # a PUBLISH that reached both keeps it published
        assert table_id not in here.solo

        there.discard(table_id, theirs)  # the other process's last socket of the table went
        await _until(lambda: there.unconfirmed == {} and here.answered == here.sent, 5)
        change(7)
        await _until(lambda: table_id in here.solo, 5)
    finally:
        await _stop(here, there)


async def test_a_forward_nobody_receives_is_not_made_and_its_keeper_is_dropped_at_once():
    here, there = _hubs()
    try:
        await _joined(here, 8)
        await _joined(here, 9)
        await _connected(here)
        gone = bytes(fanout.ORIGIN_SIZE - 1) + b"\x01"  # no process listens there (it was SIGKILLed)
        for table_id in (8, 9):
            here.changers[table_id] = {here.origin, gone}
        loop = asyncio.get_running_loop()
        start = loop.time()
        answer = await here.forward(gone, {"table": 8, "user": 1, "action": {"type": "pass"}}, 5)
        assert answer is fanout.UNHEARD and loop.time() - start < 1  # one round trip, not the 5 s wait
        assert here.keeper(8) is None and here.keeper(9) is None  # dropped for every table
        assert here.changers == {8: {here.origin}, 9: {here.origin}} and here.answers == {}
    finally:
        await _stop(here, there)


async def test_a_move_msgpack_cannot_carry_is_made_here(monkeypatch):
    """JSON's integers have no limit, msgpack's stop at 64 bits: such a move is not forwarded, nor a crash."""
    here, there = _hubs()
    try:
        await _joined(here, 8)
        await _joined(there, 8)
        await _connected(here)
        action = {"type": "play", "cards": [2**64]}
        answer = await here.forward(there.origin, {"table": 8, "user": 1, "action": action}, 5)
        assert answer is fanout.UNHEARD  # made here, where the rules refuse it
    finally:
        await _stop(here, there)


async def test_a_forward_received_but_not_answered_gives_none_in_time(monkeypatch):
    monkeypatch.setattr(fanout, "forward_handler", None)  # the keeper hears it and never answers
    here, there = _hubs()
    try:
        await _joined(here, 8)
        await _joined(there, 8)
        await _connected(here)
        answer = await here.forward(there.origin, {"table": 8, "user": 1, "action": {"type": "pass"}}, 0.3)
        assert answer is None  # it may have been made there: the player gets unavailable
        assert here.answers == {}
    finally:
        await _stop(here, there)


async def test_a_move_its_asker_gave_up_on_is_withdrawn_from_a_keeper_that_was_only_slow(monkeypatch):
    seen = []

    async def handler(request, withdrawn):
        await asyncio.sleep(0.5)  # a stalled keeper: it gets to the move after the asker gave up
        seen.append(withdrawn())
        return {"seq": 41}

    monkeypatch.setattr(fanout, "forward_handler", handler)
    here, there = _hubs()
    try:
        await _joined(here, 8)
        await _joined(there, 8)
        await _connected(here, there)
        answer = await here.forward(there.origin, {"table": 8, "user": 1, "action": {"type": "pass"}}, 0.2)
        assert answer is None  # the player is told to try again ...
        await _until(lambda: seen, 2)
        assert seen == [True]  # ... and the keeper, told so, does not make it
        await _until(lambda: not there.withdrawn, 1)  # nothing left to remember once it is served
    finally:
        await _stop(here, there)


async def test_a_keeper_whose_liveness_lapsed_is_not_chosen_until_it_beats_again():
    here, there = _hubs(beat=0.05, alive=0.3)
    try:
        await _joined(here, 7)
        await _joined(there, 7)
        await _both_heard(here, there, 7)
        asker, keeper = (here, there) if here.keeper(7) == there.origin else (there, here)
        await asyncio.sleep(0.6)  # several lives of a key: a keeper that beats is still chosen
        assert asker.keeper(7) == keeper.origin and not asker.lapsed
        keeper.beater.cancel()  # stalled, or its machine lost: no beat, no goodbye
        took = await _until(lambda: asker.keeper(7) is None, 2)
        assert took < 0.3 + 0.2  # at most a key's life and a beat or two
        assert keeper.origin in asker.lapsed and keeper.origin in asker.changers[7]
        keeper.beater = asyncio.get_running_loop().create_task(keeper._beat())  # it comes back
        await _until(lambda: asker.keeper(7) == keeper.origin, 2)
    finally:
        await _stop(here, there)


async def test_a_missing_key_counts_only_once_the_connection_is_a_key_s_life_old():
    """After Redis restarts nobody's key is there until each process beats again: nobody is dropped meanwhile."""
    here, there = _hubs(alive=3)
    try:
        loop = asyncio.get_running_loop()
        here.publisher_since = loop.time() - 1  # connected again a second ago
        here._heard_alive([there.origin], [None])
        assert not here.lapsed
        here.publisher_since = loop.time() - 3
        here._heard_alive([there.origin], [None])
        assert here.lapsed == {there.origin}
        here._heard_alive([there.origin], [b"1"])
        assert not here.lapsed
    finally:
        await _stop(here, there)


async def test_a_process_that_stops_cleanly_is_dropped_by_the_others_at_once(monkeypatch):
    monkeypatch.setattr(fanout, "forward_handler", None)
    here, there = _hubs(alive=30)  # its key would live on for 30 s: only its word can explain the drop
    try:
        await _joined(here, 7)
        await _joined(there, 7)
        await _both_heard(here, there, 7)
        if here.keeper(7) != there.origin:  # ``there`` must keep the table: make it so
            here, there = there, here
        in_flight = asyncio.ensure_future(
            here.forward(there.origin, {"table": 7, "user": 1, "action": {"type": "pass"}}, 5)
        )
        await _until(lambda: here.answers, 1)
        await asyncio.sleep(0.05)
        await there.close()
        took = await _until(lambda: here.keeper(7) is None, 1)
        assert took < 0.5 and there.origin not in here.changers[7]
        assert (
            await asyncio.wait_for(in_flight, 0.5) is None
        )  # its move in flight: unavailable now, not in 5 s
        client = redis.Redis.from_url(settings.REDIS_URL)
        assert client.get(there.alive_key(there.origin)) is None  # no key left to make it look alive
        client.close()
    finally:
        await _stop(here, there)


async def test_a_move_of_a_table_whose_keeper_died_is_made_here_at_once(long_tier, make_player):  # noqa: F811
    """A SIGKILLed keeper: its liveness key still lives, but Redis knows its channel has no listener."""
    table, comm = await seated(await sync_to_async(make_player)(), long_tier)
    state = await until_my_turn(comm)
    hub = fanout.fanout_for(get_channel_layer())
    await _connected(hub)
    while True:  # a dead process that would keep this table
        dead = os.urandom(fanout.ORIGIN_SIZE)
        hub.changers[table.pk] = {hub.origin, dead}
        if hub.keeper(table.pk) == dead:
            break
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.set(hub.alive_key(dead), "1", px=30_000)
    try:
        count = await sync_to_async(HandAction.objects.count)()
        loop = asyncio.get_running_loop()
        start = loop.time()
        await comm.send_json_to({"type": "act", "seq": 1, "action": {"type": "add", "n": 2}})
        moved = await next_of(comm, "state")
        assert loop.time() - start < 1  # no TABLE_FORWARD_WAIT stall
        assert moved["seq"] == state["seq"] + 1
        assert await sync_to_async(HandAction.objects.count)() == count + 1  # made once, here
        assert hub.keeper(table.pk) is None and dead not in hub.changers[table.pk]
        assert await comm.receive_nothing(timeout=0.2)  # no unavailable error
    finally:
        client.delete(hub.alive_key(dead))
        client.close()
        await comm.disconnect()


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


async def test_a_withdrawn_forwarded_move_is_not_made(human_table):
    hand, engine, seat = await sync_to_async(_actor)(human_table)
    await sync_to_async(services.table_act)(
        table_id=human_table.pk, user=seat.user, action=engine.legal_actions(hand.state, seat.index)[-1]
    )  # a locking move: the next one could be made on the kept play, on the loop
    hand, engine, seat = await sync_to_async(_actor)(human_table)
    count = await sync_to_async(HandAction.objects.count)()
    request = {
        "table": human_table.pk,
        "user": seat.user.pk,
        "action": engine.legal_actions(hand.state, seat.index)[-1],
        "language": "en",
    }
    assert await consumers.serve_forwarded_move(request, lambda: True) == {"error": None}
    assert await sync_to_async(HandAction.objects.count)() == count


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
