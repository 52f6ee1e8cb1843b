"""Scale-out is routing: HAProxy keeps each table's sockets on one web process, and any process serves any table.

HAProxy (Debian's package) runs the shipped deploy/haproxy.cfg, with only its
addresses set through the environment, in front of two uvicorn processes
(``web1``, ``web2``: the config's server names, which its ``X-Served-By``
response header reports) on the test database and Redis. The table clock runs
here, in the test (beat's tick in production). Each client is a browser's page
following docs/protocol.md: it applies ``seq + 1``, resyncs on a gap and opens
a new socket when its socket closes.

- Through HAProxy, every socket of a table reaches the same process. SIGKILL
  that process mid-hand: its tables' sockets close, their pages reconnect
  through HAProxy to the other process and show the database's state, the
  hand goes on and is settled once, and the next hand is dealt and played on
  the other process. A table the killed process did not serve keeps its sockets.
- Without the proxy, one table played from both processes at once (alice's
  socket on one, bob's on the other, each acting on their turns) applies
  every move once and ends both sockets at the database's state: wrong routing
  costs speed, never correctness.
- The app reads the client's address from HAProxy's ``X-Forwarded-For``
  (``TRUSTED_PROXIES``), as docker-compose.yml sets it up.
"""

from __future__ import annotations

import http.client
import random
import re
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from conftest import require_service, worker_port
from rooms.tables import services
from rooms.tables.models import Hand, HandAction, Seat
from rooms.tables.selectors import table_snapshot
from rooms.tables.tests.conftest import run_clock
from rooms.tables.tests.helpers import play_until_over
from rooms.tables.tests.pages import Page, table_seq
from rooms.tables.tests.servers import HAPROXY_BINARY, Haproxy, WebProcess, port_open
from wallets.models import Account, LedgerTransaction
from wallets.selectors import ledger_check

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_tables"),
]

PROXY = worker_port(18400)
# The config's server names, and the ports their processes listen on.
WEB = {"web1": worker_port(18401), "web2": worker_port(18402)}
CLIENT_ADDRESS = "127.0.0.3"  # a client of the proxy, not the proxy itself (also 127.0.0.1 here)


@pytest.fixture
def web():
    """Both web processes, started together; killed at the end whatever happened."""
    processes = {label: WebProcess(label, port) for label, port in WEB.items()}
    for process in processes.values():
        assert not port_open(process.port), f"port {process.port} is taken"
    try:
        for process in processes.values():
            process.launch()
        for process in processes.values():
            process.wait_ready()
        yield processes
    finally:
        for process in processes.values():
            process.kill()


@pytest.fixture
def proxy(web):
    """HAProxy on ``PROXY`` in front of both web processes; yields the processes by name."""
    require_service("haproxy", Path(HAPROXY_BINARY).exists(), "apt-get install haproxy (Debian's package)")
    assert not port_open(PROXY), f"port {PROXY} is taken"
    haproxy = Haproxy(PROXY, WEB)
    try:
        haproxy.start()  # after the web processes: its first health checks find them up
        yield web
    finally:
        haproxy.kill()


def tier_of(slug: str, index: int):
    """The demo's room tier number ``index`` of ``slug`` (bots on)."""
    from rooms import services as room_services
    from rooms.demo import demo_tiers_for
    from rooms.models import Game

    room_services.catalogue_sync()
    game = Game.objects.get(slug=slug)
    tier, _created = room_services.tier_ensure(game=game, bots_enabled=True, **demo_tiers_for(game)[index])
    return tier


def process_of(table_id: int) -> str:
    """The process HAProxy sends the table's sockets to (a plain GET of the socket's path)."""
    return request(f"/ws/tables/{table_id}/")[1]["X-Served-By"]


def seat_at_a_table_of(user, tier_id: int, process: str) -> int:
    """Quick-start ``user`` at a table whose sockets go to ``process``; return the table.

    A table is routed by its id: standing up from a table nobody else sits at closes it, and
    the next quick start opens a new one, with a new id.
    """
    for _ in range(20):
        table_id = services.table_quick_start(tier_id=tier_id, user=user).pk
        if process_of(table_id) == process:
            return table_id
        services.table_leave(table_id=table_id, user=user)
    raise AssertionError(f"no table of 20 went to {process}")


def settled_once(hand_id: int) -> bool:
    keys = LedgerTransaction.objects.filter(reference=f"hand:{hand_id}").values_list("key", flat=True)
    return sorted(keys) == [f"hand:{hand_id}:settle", f"hand:{hand_id}:stake"]


def books_balance() -> list:
    """What finance would check: escrow back at zero and every ledger invariant holding (none broken)."""
    assert Account.objects.get(code="escrow").balance == 0
    return ledger_check()


async def shows_the_database(page: Page) -> None:
    """The page is at the table's seq and shows what the database says this viewer sees."""
    await page.catch_up()
    truth = await sync_to_async(table_snapshot)(table_id=page.table_id, user=page.user)
    for key in ("seq", "table", "hand", "last_hand"):
        assert page.state[key] == truth[key], (page.user.username, key)
    if truth["you"]["seat"] is None:  # a watcher's wallet is no table's news: broadcasts leave it out
        truth["you"]["balance"] = page.state["you"]["balance"]
    assert page.state["you"] == truth["you"], page.user.username


async def test_haproxy_keeps_each_table_on_one_process_and_the_other_takes_it_when_that_one_dies(
    proxy, make_player, settings
):
    settings.TABLE_BOT_WAIT = 3600  # bob sits at alice's table before the bots fill it
    alice, bob, dave = [await sync_to_async(make_player)(coins=5000) for _ in range(3)]
    carol = await sync_to_async(make_player)()
    first, second = await sync_to_async(tier_of)("zhajinhua", 0), await sync_to_async(tier_of)("zhajinhua", 1)
    table = (await sync_to_async(services.table_quick_start)(tier_id=first.pk, user=alice)).pk
    assert (await sync_to_async(services.table_quick_start)(tier_id=first.pk, user=bob)).pk == table
    killed = await sync_to_async(process_of)(table)
    survivor = next(label for label in WEB if label != killed)
    other = await sync_to_async(seat_at_a_table_of)(dave, second.pk, survivor)
    pages = {
        "alice": Page(alice, table, PROXY),
        "bob": Page(bob, table, PROXY),
        "carol": Page(carol, table, PROXY),  # watching
        "dave": Page(dave, other, PROXY),
    }
    try:
        for page in pages.values():
            await page.start()
        served = {name: page.served_by for name, page in pages.items()}
        # Every socket of a table on its one process.
        assert served == {"alice": [killed], "bob": [killed], "carol": [killed], "dave": [survivor]}

        # The hands are dealt (the bots sit down); the players put themselves under 托管 from their
        # sockets, and the clock plays.
        settings.TABLE_BOT_WAIT = 0
        await sync_to_async(run_clock)(1)
        hand = await sync_to_async(Hand.objects.get)(table_id=table, status="playing")
        other_hand = await sync_to_async(Hand.objects.get)(table_id=other, status="playing")
        for name in ("alice", "bob", "dave"):
            await trustee(pages[name])
        await sync_to_async(run_clock)(2)
        for page in pages.values():
            await page.catch_up()

        # The process serving the table dies mid-hand; the clock goes on without it.
        assert (await sync_to_async(Hand.objects.get)(pk=hand.pk)).status == "playing"
        before = await sync_to_async(table_seq)(table)
        await sync_to_async(proxy[killed].kill)()
        await sync_to_async(run_clock)(2)
        assert await sync_to_async(table_seq)(table) > before
        for page in pages.values():
            await shows_the_database(page)
        # The table's pages reconnected, through HAProxy, to the survivor; dave's socket stayed.
        served = {name: (page.served_by, page.reconnects) for name, page in pages.items()}
        moved = ([killed, survivor], 1)
        assert served == {"alice": moved, "bob": moved, "carol": moved, "dave": ([survivor], 0)}

        for hand_id in (hand.pk, other_hand.pk):
            finished = await sync_to_async(play_until_over)(hand_id)
            assert finished.status == Hand.Status.SETTLED, finished.cancel_reason
            assert await sync_to_async(settled_once)(hand_id)
        for page in pages.values():
            await shows_the_database(page)

        # The next hand at the table is dealt and played on the survivor: ready, 托管, the clock.
        for name in ("alice", "bob"):
            await pages[name].send({"type": "ready"})

        async def dealt() -> bool:
            shown = pages["alice"].state["hand"]
            return shown is not None and shown["status"] == "playing" and shown["id"] != hand.pk

        await pages["alice"].wait_until(dealt, "the next hand dealt")
        following = await sync_to_async(Hand.objects.get)(table_id=table, status="playing")
        for name in ("alice", "bob"):
            await trustee(pages[name])
        finished = await sync_to_async(play_until_over)(following.pk)
        assert finished.status == Hand.Status.SETTLED, finished.cancel_reason
        assert await sync_to_async(settled_once)(following.pk)
        for page in pages.values():
            await shows_the_database(page)
        assert {name: (page.served_by, page.reconnects) for name, page in pages.items()} == served
        assert await sync_to_async(books_balance)() == []
        assert all(not page.errors for page in pages.values()), {n: p.errors for n, p in pages.items()}
    finally:
        for page in pages.values():
            await page.close()
        # Close this test's own thread's connection, or the test database cannot be dropped.
        await sync_to_async(lambda: connection.close())()


async def trustee(page: Page) -> None:
    """Put the page's player under 托管 from their socket, and wait until their page shows it."""
    await page.send({"type": "trustee", "on": True})

    async def shown() -> bool:
        seat = page.state["you"]["seat"]
        return page.state["table"]["seats"][seat]["trustee"]

    await page.wait_until(shown, "托管 on")


def two_seat_table(make_player):
    """炸金花 (Golden Flower) for two, bots off: alice and bob, seated, the first hand dealt."""
    from rooms import services as room_services
    from rooms.models import Game, RoomTier

    room_services.catalogue_sync()
    tier = RoomTier.objects.create(
        game=Game.objects.get(slug="zhajinhua"),
        code="two-processes",
        name="初级场",
        base_stake=1,
        room_factor=1,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        rake_bps=500,
        seats=2,
        bots_enabled=False,
    )
    alice, bob = make_player(coins=5000), make_player(coins=5000)
    table = services.table_quick_start(tier_id=tier.pk, user=alice)
    assert services.table_quick_start(tier_id=tier.pk, user=bob).pk == table.pk
    return table.pk, alice, bob


def moves_of(hand_id: int, seat: int) -> list[dict]:
    rows = HandAction.objects.filter(hand_id=hand_id, seat=seat).order_by("n")
    return [row.action for row in rows if not row.auto]


def automatic_moves(table_id: int) -> int:
    return HandAction.objects.filter(hand__table_id=table_id, auto=True).count()


def seat_index(table_id: int, user) -> int:
    return Seat.objects.get(table_id=table_id, user=user).index


HANDS = 6  # whole hands the two players play from two processes


async def test_one_table_played_from_two_processes_applies_every_move_once(web, make_player):
    """No proxy: alice's socket on web1 and bob's on web2, the same table; each acts on their turns."""
    table, alice, bob = await sync_to_async(two_seat_table)(make_player)
    rng = random.Random(25)
    pages = {
        "alice": Page(alice, table, WEB["web1"], rng=random.Random(rng.getrandbits(64)), hands=HANDS),
        "bob": Page(bob, table, WEB["web2"], rng=random.Random(rng.getrandbits(64)), hands=HANDS),
    }
    try:
        for page in pages.values():
            await page.start()
        for page in pages.values():  # every hand played out, each page's last act answered

            async def done(page=page) -> bool:
                return page.results >= HANDS and page.pending is None

            await page.wait_until(done, f"{HANDS} results")
        for page in pages.values():
            await shows_the_database(page)
            assert page.reconnects == 0
        # Each hand settled once, and the moves in the database are the players' own, each
        # applied once, in the order they made them (the clock never ran: nothing automatic).
        hands = await sync_to_async(list)(Hand.objects.filter(table_id=table).order_by("pk"))
        assert [hand.status for hand in hands] == [Hand.Status.SETTLED] * HANDS
        for hand in hands:
            assert await sync_to_async(settled_once)(hand.pk)
        assert await sync_to_async(automatic_moves)(table) == 0
        for page in pages.values():
            seat = await sync_to_async(seat_index)(table, page.user)
            for hand in hands:
                assert await sync_to_async(moves_of)(hand.pk, seat) == page.accepted[hand.pk]
        assert sum(len(moves) for page in pages.values() for moves in page.accepted.values()) >= HANDS
        # Only the refusals a player may meet; none because of the two processes.
        refusals = {error["code"] for page in pages.values() for error in page.errors}
        assert refusals <= {"not_your_turn", "illegal"}, [p.errors for p in pages.values()]
        assert await sync_to_async(books_balance)() == []
    finally:
        for page in pages.values():
            await page.close()
        await sync_to_async(lambda: connection.close())()


def test_haproxy_routes_by_the_table_id_and_forwards_the_client_address(proxy, make_player):
    """Each table's socket path goes to one process, whatever follows the id; both processes get
    tables; and the app counts a log-in under the address of the client behind HAProxy."""
    served: dict[str, str] = {}
    for kind in ("tables", "rounds"):
        for table_id in range(1, 21):
            for tail in ("", "?reload=1", "extra/"):
                status, headers, _text = request(f"/ws/{kind}/{table_id}/{tail}")
                assert status == 404  # a plain GET of a socket's path, routed as its socket would be
                first = served.setdefault(f"{kind}/{table_id}", headers["X-Served-By"])
                assert headers["X-Served-By"] == first, (kind, table_id, tail)
    assert set(served.values()) == set(WEB)

    # A wrong password through HAProxy, from another loopback address than HAProxy's own.
    from axes.models import AccessAttempt

    user = make_player()
    _status, headers, page = request("/accounts/login/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    cookies = "; ".join(value.split(";", 1)[0] for value in headers.get_all("Set-Cookie"))
    form = f"csrfmiddlewaretoken={token}&username={user.username}&password=wrong-password"
    status, _headers, _text = request(
        "/accounts/login/",
        body=form,
        headers={"Cookie": cookies, "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert status == 200  # the form again, with its error
    attempts = AccessAttempt.objects.values_list("username", "ip_address")
    assert list(attempts) == [(user.username, CLIENT_ADDRESS)]


def request(path: str, *, body: str | None = None, headers: dict | None = None):
    """One HTTP request to HAProxy from ``CLIENT_ADDRESS``; return its status, headers and text."""
    conn = http.client.HTTPConnection("127.0.0.1", PROXY, timeout=60, source_address=(CLIENT_ADDRESS, 0))
    try:
        conn.request("POST" if body is not None else "GET", path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.headers, response.read().decode()
    finally:
        conn.close()
