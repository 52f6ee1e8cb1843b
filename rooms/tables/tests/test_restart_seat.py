"""A seated player whose server restarts mid-hand is back in their seat, with their cards, and plays on.

Two restarts of a real uvicorn process (the one the pages talk to):

- stopped gracefully (SIGTERM, as Ctrl-C or a deploy does) while the clock goes on elsewhere
  (beat's tick, run here): the server's own close of the socket is no player leaving, so the seat
  keeps its presence lease and nobody plays the player's turn for them;
- killed (SIGKILL) and started again after longer than the presence lease, with the clock inside
  the server (``TABLE_TIMERS=all``, as ``dev.py`` runs it): the clock's first tick resumes the tables,
  so the time the site was down counts as nobody's absence, whoever's page reconnects first.

Before the fix both players came back as spectators at an emptied table.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.utils import timezone

import games
from rooms.tables import services
from rooms.tables.models import Hand, Seat, Table
from rooms.tables.tests.conftest import run_clock
from rooms.tables.tests.servers import database_sessions, port_open
from rooms.tables.tests.test_abuse import game_tier
from rooms.tables.tests.test_asgi_kill import APPLICATION, PORT, AsgiServer, Client
from rooms.tables.tests.test_consumers import session_cookie

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_tables"),
]

WAIT = 60.0  # seconds: a bound on what the test waits for, to fail a hang and nothing else


class RestartedServer(AsgiServer):
    """The table server of test_asgi_kill.py, which can also be stopped as Ctrl-C stops it."""

    def __init__(self, port: int, **env: str) -> None:
        super().__init__(port)
        self.env.update(env)

    def stop(self) -> None:
        """SIGTERM: uvicorn closes its sockets (close code 1012) and exits."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        self.process = None
        deadline = time.monotonic() + 10
        while database_sessions(APPLICATION):
            assert time.monotonic() < deadline, "the stopped server's database sessions stayed"
            time.sleep(0.05)


@pytest.fixture
def server_on():
    made: list[RestartedServer] = []

    def make(**env: str) -> RestartedServer:
        assert not port_open(PORT), f"port {PORT} is taken"
        server = RestartedServer(PORT, **env)
        made.append(server)
        return server

    yield make
    for server in made:
        server.kill()


def long_turns_tier():
    """斗地主 with turns long enough that no turn runs out while the test restarts the server."""
    tier = game_tier("doudizhu")
    tier.options = {**tier.options, "bid_seconds": 600, "turn_seconds": 600}
    tier.save(update_fields=["options"])
    return tier


def seat_of(user) -> Seat:
    return Seat.objects.get(user=user)


def cards_of(hand_id: int, seat: int) -> list[str]:
    hand = Hand.objects.get(pk=hand_id)
    return games.REGISTRY[hand.game_slug].engine.view(hand.state, seat)["hand"]


async def pump_until(client: Client, check, what: str) -> None:
    """Read the client's socket until ``check(state)`` holds."""
    deadline = time.monotonic() + WAIT
    while not (client.state and check(client.state)):
        assert time.monotonic() < deadline, f"never saw {what}: {client.state}"
        await client.pump(quiet=0.2)


async def until(check, what: str) -> None:
    """Wait until ``check()`` (read from the database) holds."""
    deadline = time.monotonic() + WAIT
    while not await sync_to_async(check)():
        assert time.monotonic() < deadline, f"never saw {what}"
        await asyncio.sleep(0.05)


def my_turn(seat: int):
    return lambda state: bool(state.get("hand")) and seat in state["hand"]["actors"]


async def assert_back_in_the_seat(client: Client, user, hand_id: int) -> dict:
    seq = await sync_to_async(lambda: Table.objects.get(pk=client.table_id).seq)()
    await client.catch_up(seq)
    seat = await sync_to_async(seat_of)(user)
    state = client.state
    assert state["you"]["seat"] == seat.index, "the player came back as a spectator"
    assert state["hand"] is not None and state["hand"]["id"] == hand_id, state["last_hand"]
    assert state["hand"]["view"]["hand"] == await sync_to_async(cards_of)(hand_id, seat.index)
    assert state["table"]["seats"][seat.index]["connected"]
    return state


async def test_a_gracefully_restarted_server_keeps_the_player_in_their_seat(server_on, make_player):
    alice = await sync_to_async(make_player)(coins=5000)
    tier = await sync_to_async(long_turns_tier)()
    table = await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=alice)
    server = server_on(TABLE_TIMERS="off")  # the clock is this test's (beat's tick)
    await sync_to_async(server.start)()
    client = Client(table.pk, alice, await sync_to_async(session_cookie)(alice))
    await client.connect()
    await sync_to_async(run_clock)()  # bots sit down, the hand is dealt, bots play up to alice's turn
    hand = await sync_to_async(Hand.objects.get)(table=table, status="playing")
    seat = (await sync_to_async(seat_of)(alice)).index
    await pump_until(client, my_turn(seat), "alice's turn")
    cards = client.state["hand"]["view"]["hand"]
    assert cards

    await sync_to_async(server.stop)()
    await sync_to_async(run_clock)()  # the clock goes on while no server runs: alice is not away
    await sync_to_async(server.start)()

    state = await assert_back_in_the_seat(client, alice, hand.pk)
    assert client.reconnects == 1
    assert state["hand"]["view"]["hand"] == cards and seat in state["hand"]["actors"]
    assert not state["you"]["trustee"]
    # The hand goes on: her own move is taken.
    before = (await sync_to_async(Hand.objects.get)(pk=hand.pk)).action_count
    await client.ws.send(
        json.dumps({"type": "act", "seq": 1, "action": state["hand"]["hint"] or {"type": "pass"}})
    )
    await until(lambda: Hand.objects.get(pk=hand.pk).action_count > before, "alice's move applied")
    await client.close()
    await sync_to_async(lambda: connection.close())()  # this thread's, or the test database cannot be dropped


async def test_the_clock_of_a_restarted_server_does_not_count_its_downtime_as_absence(server_on, make_player):
    alice, bob = await sync_to_async(make_player)(coins=5000), await sync_to_async(make_player)()
    tier = await sync_to_async(long_turns_tier)()
    table = await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=alice)
    # The clock inside the server, as dev.py runs it: bots sit down and play at once.
    server = server_on(TABLE_TIMERS="all", TABLE_BOT_WAIT="0")
    await sync_to_async(server.start)()
    player = Client(table.pk, alice, await sync_to_async(session_cookie)(alice))
    await player.connect()
    seat = (await sync_to_async(seat_of)(alice)).index
    await pump_until(player, my_turn(seat), "alice's turn")
    hand_id = player.state["hand"]["id"]
    cards = player.state["hand"]["view"]["hand"]

    await sync_to_async(server.kill)()
    # The site stays down longer than the presence lease: alice's dead socket renewed nothing.
    lapsed = timezone.now() - timezone.timedelta(seconds=1)
    await sync_to_async(lambda: Seat.objects.filter(user=alice).update(present_until=lapsed))()
    await sync_to_async(server.start)()
    # Another page reconnects first and starts the server's clock; its first tick has run once
    # alice's lease was renewed (or, as before the fix, once her hand was played out without her).
    watcher = Client(table.pk, bob, await sync_to_async(session_cookie)(bob))
    await watcher.connect()

    def ticked() -> bool:
        renewed = Seat.objects.filter(user=alice, present_until__gt=lapsed).exists()
        return renewed or not Hand.objects.filter(pk=hand_id, status="playing").exists()

    await until(ticked, "the restarted server's clock tick")

    state = await assert_back_in_the_seat(player, alice, hand_id)
    assert state["hand"]["view"]["hand"] == cards
    await player.close()
    await watcher.close()
    await sync_to_async(lambda: connection.close())()
