"""The table socket through the real ASGI application, signed in with a session cookie."""

import asyncio
import json
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client

from rooms import transport
from rooms.tables import services
from rooms.tables.models import Hand, Seat
from rooms.tables.tests.conftest import expire, run_clock
from rooms.tables.tests.helpers import fail_socket, inject

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


@pytest.fixture
def long_tier(tier):
    tier.options = {"target": 40}
    tier.save()
    return tier


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client.cookies["sessionid"].value


async def open_socket(table_id: int, user=None) -> WebsocketCommunicator:
    from platform.asgi import application

    headers = [(b"origin", b"http://testserver")]
    if user is not None:
        cookie = await sync_to_async(session_cookie)(user)
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    return comm


async def frame_waiting(comm, timeout: float = 10) -> None:
    """Wait until the socket has sent a frame (its first state after the connect), leaving it unread."""
    deadline = time.monotonic() + timeout
    while comm.output_queue.empty():
        assert time.monotonic() < deadline, "the socket sent nothing"
        await asyncio.sleep(0.01)


async def nothing_before_pong(comm) -> bool:
    """Ping and read up to the pong: whether no other frame came first (what was on its way is out by then)."""
    await comm.send_json_to({"type": "ping"})
    return (await comm.receive_json_from(timeout=5))["type"] == "pong"


async def next_of(comm, kind: str, timeout: float = 3) -> dict:
    while True:
        message = await comm.receive_json_from(timeout=timeout)
        if message["type"] == kind:
            return message


async def latest_state(comm) -> dict:
    """The newest state: read on until the socket has sent the seq its ping's pong says the table is at."""
    await comm.send_json_to({"type": "ping"})
    state, table_seq = None, None
    while table_seq is None or state is None or state["seq"] < table_seq:
        message = await comm.receive_json_from(timeout=5)
        if message["type"] == "pong":
            table_seq = message["seq"]
        elif message["type"] == "state" and (state is None or message["seq"] >= state["seq"]):
            state = message
    return state


async def until_my_turn(comm) -> dict:
    """Tick the clock (bots play) and return the newest state, in which this seat may act."""
    await sync_to_async(run_clock)()
    state = await latest_state(comm)
    hand = state["hand"]
    assert hand and hand["status"] == "playing" and state["you"]["seat"] in hand["actors"], state
    return state


async def seated(user, tier):
    table = await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=user)
    comm = await open_socket(table.pk, user)
    await frame_waiting(comm)  # the connect has sent its snapshot before the test goes on
    return table, comm


async def test_anonymous_is_closed_with_4401(tier, make_player):
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, tier)
    anon = await open_socket(table.pk)
    assert await anon.receive_output() == {"type": "websocket.close", "code": 4401}
    await comm.disconnect()


async def test_join_sends_the_seat_its_own_view_and_spectators_none(long_tier, make_player):
    alice, bob = await sync_to_async(make_player)(), await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    state = await next_of(comm, "state")
    hand = await sync_to_async(Hand.objects.get)(table=table)
    seat = (await sync_to_async(Seat.objects.get)(user=alice)).index
    assert state["you"]["seat"] == seat
    assert state["hand"]["view"]["secret"] == hand.state["secrets"][seat]
    assert state["table"]["seats"][seat]["name"] == alice.username

    watcher = await open_socket(table.pk, bob)
    watch = await next_of(watcher, "state")
    assert watch["you"]["seat"] is None
    assert watch["hand"]["view"]["secret"] is None
    await comm.disconnect()
    await watcher.disconnect()


async def test_an_act_reaches_every_viewer_with_the_next_seq(long_tier, make_player):
    alice, bob = await sync_to_async(make_player)(), await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    state = await until_my_turn(comm)
    watcher = await open_socket(table.pk, bob)
    await next_of(watcher, "state")
    total = state["hand"]["view"]["total"]

    await comm.send_json_to({"type": "act", "seq": 1, "action": {"type": "add", "n": 2}})
    mine = await next_of(comm, "state")
    theirs = await next_of(watcher, "state")
    assert mine["seq"] == theirs["seq"] == state["seq"] + 1
    assert mine["hand"]["view"]["total"] == total + 2
    assert theirs["hand"]["view"]["secret"] is None
    await comm.disconnect()
    await watcher.disconnect()


async def test_an_illegal_act_is_an_error_to_that_player_only(long_tier, make_player):
    alice, bob = await sync_to_async(make_player)(), await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    state = await until_my_turn(comm)
    watcher = await open_socket(table.pk, bob)
    await next_of(watcher, "state")

    await comm.send_json_to({"type": "act", "seq": 1, "action": {"type": "add", "n": 9}})
    error = await next_of(comm, "error")
    assert error == {
        "type": "error",
        "seq": state["seq"],
        "ref": 1,
        "code": "illegal",
        "message": "Add 1 or 2.",
    }
    assert await nothing_before_pong(watcher)
    await comm.disconnect()
    await watcher.disconnect()


async def test_acting_out_of_turn_replaying_a_seq_or_for_another_seat_is_refused(long_tier, make_player):
    alice, bob = await sync_to_async(make_player)(), await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    await until_my_turn(comm)
    await comm.send_json_to({"type": "act", "seq": 5, "action": {"type": "add", "n": 1}})
    await next_of(comm, "state")  # now the bot's turn, and no tick has run
    await comm.send_json_to({"type": "act", "seq": 6, "action": {"type": "add", "n": 1}})
    assert (await next_of(comm, "error"))["code"] == "not_your_turn"
    await comm.send_json_to({"type": "act", "seq": 6, "action": {"type": "add", "n": 1}})
    assert (await next_of(comm, "error"))["code"] == "stale_seq"
    # Naming a seat is not part of the protocol: the act always plays for the sender's own seat.
    bot_seat = 1 - (await sync_to_async(Seat.objects.get)(user=alice)).index
    await comm.send_json_to({"type": "act", "seq": 7, "seat": bot_seat, "action": {"type": "add", "n": 1}})
    assert (await next_of(comm, "error"))["code"] == "malformed"

    watcher = await open_socket(table.pk, bob)
    await next_of(watcher, "state")
    await watcher.send_json_to({"type": "act", "seq": 1, "action": {"type": "add", "n": 1}})
    assert (await next_of(watcher, "error"))["code"] == "not_seated"
    log = await sync_to_async(
        lambda: list(Hand.objects.get(table=table).actions.values_list("seat", "auto"))
    )()
    assert log[-1] == ((1 - bot_seat), False)  # her one accepted act is the last entry
    await comm.disconnect()
    await watcher.disconnect()


async def test_malformed_and_oversize_messages_get_errors_not_crashes(tier, make_player):
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, tier)
    await next_of(comm, "state")
    cases = [
        ("{not json", "malformed"),
        ("[1, 2]", "malformed"),
        ('{"type": 3}', "malformed"),
        ('{"type": "shout"}', "unknown_type"),
        ('{"type": "act", "seq": "1", "action": {"type": "pass"}}', "malformed"),
        ('{"type": "act", "seq": 1}', "malformed"),
        ('{"type": "trustee", "on": "yes"}', "malformed"),
        (json.dumps({"type": "ping", "pad": "x" * 5000}), "too_large"),
    ]
    for text, code in cases:
        await comm.send_to(text_data=text)
        assert (await next_of(comm, "error"))["code"] == code, text
    await comm.send_to(bytes_data=b"\x00\x01")
    assert (await next_of(comm, "error"))["code"] == "malformed"
    await comm.send_json_to({"type": "ping"})
    assert (await next_of(comm, "pong"))["type"] == "pong"
    await comm.disconnect()


async def test_a_flood_is_rate_limited(tier, make_player, monkeypatch):
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, tier)
    await next_of(comm, "state")
    # Stop the bucket's clock: on a busy machine the 30 pings would otherwise
    # spread over enough time to earn new tokens.
    from rooms import sockets

    frozen = sockets.bucket_clock()
    monkeypatch.setattr(sockets, "bucket_clock", lambda: frozen)
    for _ in range(30):
        await comm.send_json_to({"type": "ping"})
    replies = []
    while len(replies) < 30:
        message = await comm.receive_json_from(timeout=5)
        if message["type"] in ("pong", "error"):
            replies.append(message)
    assert [m["type"] for m in replies].count("pong") <= sockets.RATE_PER_SECOND
    limited = [m for m in replies if m["type"] == "error"]
    assert len(limited) >= 30 - sockets.RATE_PER_SECOND
    assert {m["code"] for m in limited} == {"rate_limited"}
    await comm.disconnect()


async def test_reconnect_and_resync_bring_the_full_current_view(long_tier, make_player, settings):
    settings.TABLE_DISCONNECT_GRACE = 60  # away for less than the grace: nobody plays for her
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    state = await until_my_turn(comm)
    await comm.send_json_to({"type": "act", "seq": 1, "action": {"type": "add", "n": 1}})
    await next_of(comm, "state")
    await comm.disconnect()
    await sync_to_async(run_clock)()  # the bot plays while she is away

    again = await open_socket(table.pk, alice)
    fresh = await next_of(again, "state")
    hand = await sync_to_async(Hand.objects.get)(table=table)
    assert fresh["seq"] > state["seq"] + 1
    assert fresh["hand"]["view"]["total"] == hand.state["total"]
    await again.send_json_to({"type": "resync"})
    assert (await next_of(again, "state"))["seq"] == fresh["seq"]
    await again.disconnect()


async def test_a_timeout_puts_the_player_under_trustee_and_one_click_takes_back_control(
    long_tier, make_player
):
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    await until_my_turn(comm)
    hand = await sync_to_async(Hand.objects.get)(table=table)
    await sync_to_async(expire)(hand)
    await sync_to_async(services.tables_tick)()  # her time ran out: the server plays for her
    state = await next_of(comm, "state")
    assert state["you"]["trustee"] is True
    assert state["table"]["seats"][state["you"]["seat"]]["trustee"] is True

    await comm.send_json_to({"type": "trustee", "on": False})
    while state["you"]["trustee"]:
        state = await next_of(comm, "state")
    assert await sync_to_async(lambda: Seat.objects.get(user=alice).trustee)() is False
    await comm.disconnect()


async def test_a_socket_that_fails_still_takes_its_name_off_the_seat(long_tier, make_player):
    """A socket that ends without ``disconnect`` (a handler failed, its channel layer went away) is not a ghost.

    The presence sweep only drops the names of dead processes; a name left
    behind by a live one kept the player connected for good: never away, never
    played for at once, never stood up.
    """

    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    await fail_socket(comm, alice.pk)
    seat = await sync_to_async(Seat.objects.get)(user=alice)
    assert seat.sockets == [] and not seat.connected and seat.away_since is not None
    await sync_to_async(lambda: connection.close())()  # this thread's, or the test database cannot be dropped


async def test_a_resync_answer_ahead_of_the_changes_on_their_way_is_never_followed_by_older_frames(
    long_tier, make_player, monkeypatch
):
    """The snapshot may be read before the broadcasts of earlier changes reach the socket.

    It goes out at once, and the late frames of the changes it already shows
    are dropped: the seq a socket sends never goes back, so the client neither
    shows an older state nor takes the late frames for a gap.
    """
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    state = await latest_state(comm)
    on_the_way: list = []
    monkeypatch.setattr(transport, "send_many", lambda messages: on_the_way.extend(messages))
    for on in (True, False):  # two changes committed whose frames have not reached the socket yet
        await sync_to_async(services.table_trustee)(table_id=table.pk, user=alice, on=on)
    await comm.send_json_to({"type": "resync"})
    answer = await next_of(comm, "state")
    assert answer["seq"] == state["seq"] + 2 and answer["you"]["trustee"] is False
    for channel, message in on_the_way:
        inject(channel, message)
    assert await nothing_before_pong(comm)
    await comm.disconnect()
