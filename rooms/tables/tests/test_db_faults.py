"""PostgreSQL drops a table thread's connection: the action is refused with a clear error, and play goes on.

A backend can be terminated at any time (a restart or failover of the
database, an administrator's ``pg_terminate_backend``, an idle timeout of a
pooler). The action whose transaction dies is rolled back by PostgreSQL, so it
is never half-applied; the player gets an ``error`` (``unavailable``) on the
same socket instead of a closed socket, and the table's next action runs on a
new connection. A connection kept between calls (``DB_CONN_MAX_AGE``) that
the database ended while it was idle is replaced before it is used, so no
action fails for it at all. A socket's close that the database could not
record is recorded once it answers again.
"""

from __future__ import annotations

import asyncio

import psycopg
import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from rooms.tables import services, store
from rooms.tables.models import Hand, HandAction, Seat, Table
from rooms.tables.tests.helpers import inject, lease_lapsed
from rooms.tables.tests.test_consumers import (  # noqa: F401 - fixtures
    long_tier,
    next_of,
    seated,
    until_my_turn,
)
from rooms.transport import user_group
from wallets.selectors import ledger_check

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_tables"),
]


def terminate(pids: list[int]) -> None:
    """``pg_terminate_backend`` those of ``pids`` still alive, from a connection of its own; wait until they are gone."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("prepare_threshold", None)
    with psycopg.connect(**params, autocommit=True) as side:
        ended = side.execute(
            "SELECT bool_and(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity WHERE pid = ANY(%s)",
            [pids],
        ).fetchone()[0]
    assert ended


def close_own_connection() -> None:
    """Close the calling thread's connection (the test's own thread: the test database is dropped at the end)."""
    connection.close()


def table_record(table_id: int) -> tuple:
    """What an action changes: the table's seq, the hand's state and log."""
    hand = Hand.objects.get(table_id=table_id, status="playing")
    return (
        Table.objects.get(pk=table_id).seq,
        hand.state,
        hand.action_count,
        HandAction.objects.filter(hand=hand).count(),
    )


async def test_a_backend_terminated_mid_action_is_an_error_and_changes_nothing(
    long_tier,  # noqa: F811
    make_player,
    monkeypatch,
):
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    state = await until_my_turn(comm)
    before = await sync_to_async(table_record)(table.pk)

    real_write = store.write_many
    killed = []

    def write_and_lose_the_connection(ws):
        # Inside the write's transaction (the group commit's): the table row not yet locked.
        if not killed:
            connection.ensure_connection()
            killed.append(connection.connection.info.backend_pid)
            terminate(killed)
        return real_write(ws)

    monkeypatch.setattr(store, "write_many", write_and_lose_the_connection)
    await comm.send_json_to({"type": "act", "seq": 1, "action": {"type": "add", "n": 2}})
    error = await next_of(comm, "error")
    assert killed
    assert error["code"] == "unavailable" and error["ref"] == 1 and error["seq"] == state["seq"]
    assert error["message"] == "The server could not do that just now. Please try again."
    assert await sync_to_async(table_record)(table.pk) == before  # nothing of it was applied

    # The same socket plays on; the table's thread has a working connection again.
    await comm.send_json_to({"type": "act", "seq": 2, "action": {"type": "add", "n": 2}})
    played = await next_of(comm, "state")
    assert played["seq"] == state["seq"] + 1
    assert played["hand"]["view"]["total"] == state["hand"]["view"]["total"] + 2
    after = await sync_to_async(table_record)(table.pk)
    assert after[0] == before[0] + 1 and after[2] == before[2] + 1 and after[3] == before[3] + 1
    assert await sync_to_async(ledger_check)() == []
    await comm.disconnect()
    await sync_to_async(close_own_connection)()


def table_thread_backends() -> list[int]:
    """Open a connection on every thread of the sockets' pool and on the group commit's (kept: persistent);
    return their pids."""
    import threading

    from django.conf import settings

    from rooms import sockets

    threads = settings.TABLE_DB_THREADS
    together = threading.Barrier(threads)  # each job holds its thread until all have one

    def backend() -> int:
        connection.ensure_connection()
        together.wait(timeout=10)
        return connection.connection.info.backend_pid

    jobs = [sockets._executor().submit(backend) for _ in range(threads)]
    committer = store.group_commit().thread.submit(
        lambda: (connection.ensure_connection(), connection.connection.info.backend_pid)[1]
    )
    return [job.result() for job in jobs] + [committer.result()]


async def test_connections_the_database_dropped_while_idle_are_replaced_before_the_next_call(
    long_tier,  # noqa: F811
    make_player,
    monkeypatch,
):
    """A restart of PostgreSQL ends every kept connection; no player's action should pay for it."""
    assert connection.settings_dict["CONN_MAX_AGE"] is not None
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", None)  # kept, as DB_CONN_MAX_AGE does
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    state = await until_my_turn(comm)

    await sync_to_async(terminate)(await sync_to_async(table_thread_backends)())
    await comm.send_json_to({"type": "act", "seq": 1, "action": {"type": "add", "n": 2}})
    played = await next_of(comm, "state")
    assert played["seq"] == state["seq"] + 1

    state = await until_my_turn(comm)
    await sync_to_async(terminate)(await sync_to_async(table_thread_backends)())
    await comm.send_json_to({"type": "resync"})
    assert (await next_of(comm, "state"))["seq"] == state["seq"]
    await comm.send_json_to({"type": "act", "seq": 2, "action": {"type": "add", "n": 2}})
    assert (await next_of(comm, "state"))["seq"] == state["seq"] + 1
    await comm.disconnect()
    await sync_to_async(close_own_connection)()


async def test_the_first_socket_after_a_restart_of_the_database_opens(
    long_tier,  # noqa: F811
    make_player,
    monkeypatch,
):
    """Its handshake failed: Channels reads the session on its shared thread, whose kept connection was dead.

    ``rooms.sockets.ConnectionCheck`` (platform/asgi.py) replaces it first.
    """
    from platform.asgi import application

    from channels.testing import WebsocketCommunicator

    from rooms.tables.tests.test_consumers import session_cookie

    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", None)  # kept, as DB_CONN_MAX_AGE does
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    await comm.disconnect()
    cookie = await sync_to_async(session_cookie)(alice)  # signed in before the restart

    def shared_thread_backend() -> list[int]:  # Channels' thread, which runs this test's sync_to_async
        connection.ensure_connection()
        return [connection.connection.info.backend_pid]

    await sync_to_async(terminate)(await sync_to_async(shared_thread_backend)())
    again = WebsocketCommunicator(
        application,
        f"/ws/tables/{table.pk}/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={cookie}".encode())],
    )
    assert (await again.connect())[0]
    assert (await next_of(again, "state"))["you"]["seat"] is not None
    await again.disconnect()
    await sync_to_async(close_own_connection)()


async def test_a_close_the_database_could_not_record_ends_with_the_seat_s_lease(
    long_tier,  # noqa: F811
    make_player,
    monkeypatch,
    settings,
):
    """Otherwise the seat keeps the closed socket's name, and the player never goes away."""
    from rooms.tables.tests.conftest import run_clock

    settings.TABLE_PRESENCE_LEASE = 0.5
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    await next_of(comm, "state")
    failing = patch_failing(monkeypatch, store, "write_many")
    await comm.disconnect()  # its presence's write fails
    assert failing.killed
    seat = await sync_to_async(Seat.objects.get)(user=alice)
    assert seat.connected and len(seat.sockets) == 1  # the close is not recorded
    await lease_lapsed(alice)  # the lease its socket would have renewed
    await sync_to_async(run_clock)()  # the sweep: she is away, and the hand is played out for her
    seat = await sync_to_async(Seat.objects.get)(table=table, index=seat.index)
    assert seat.sockets == [] and not seat.connected
    await sync_to_async(close_own_connection)()


def _first_call_fails(real, fail):
    """``real``, whose first call runs ``fail(killed)`` first; ``.killed`` says whether it did."""
    killed = []

    def call(*args, **kwargs):
        if not killed:
            fail(killed)
        return real(*args, **kwargs)

    call.killed = killed
    return call


def losing_the_connection_once(real):
    """``real``, whose first call first loses its database connection (its backend terminated).

    The call then fails as it would in a restart of PostgreSQL: with an
    ``OperationalError`` from its first query.
    """

    def lose(killed: list) -> None:
        connection.ensure_connection()
        killed.append(connection.connection.info.backend_pid)
        terminate(killed)

    return _first_call_fails(real, lose)


def failing_once(real):
    """``real``, whose first call fails as a call on a connection the server has closed does."""
    from django.db import OperationalError

    def fail(killed: list) -> None:
        killed.append(True)
        raise OperationalError("server closed the connection unexpectedly")

    return _first_call_fails(real, fail)


def patch_failing(monkeypatch, owner, name: str, wrap=losing_the_connection_once):
    """Replace ``owner.name`` by ``wrap`` of it for the test; return the replacement (its ``.killed``)."""
    failing = wrap(getattr(owner, name))
    monkeypatch.setattr(owner, name, failing)
    return failing


async def test_a_session_recheck_the_database_fails_leaves_the_socket_open(
    long_tier,  # noqa: F811
    make_player,
    monkeypatch,
):
    """The periodic recheck of a silent socket ended it with 1011 (a server error) when PostgreSQL blinked."""
    from rooms import sockets

    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    state = await next_of(comm, "state")
    [channel] = (await sync_to_async(Seat.objects.get)(user=alice)).sockets
    failing = patch_failing(monkeypatch, sockets, "session_user_id")
    inject(user_group(alice.pk), {"type": "user.session_check"})  # a check is due
    for _ in range(100):  # the check runs when the socket takes the message
        if failing.killed:
            break
        await asyncio.sleep(0.02)
    assert failing.killed
    await comm.send_json_to({"type": "ping"})
    assert await next_of(comm, "pong") == {"type": "pong", "seq": state["seq"]}
    # Asked again, the session still signs her in: the socket plays on, and stays on its seat.
    inject(user_group(alice.pk), {"type": "user.session_check"})
    await comm.send_json_to({"type": "resync"})
    assert (await next_of(comm, "state"))["you"]["seat"] == state["you"]["seat"]
    assert (await sync_to_async(Seat.objects.get)(user=alice)).sockets == [channel]
    await comm.disconnect()
    await sync_to_async(close_own_connection)()


async def test_an_act_whose_session_check_fails_is_refused_and_changes_nothing(
    long_tier,  # noqa: F811
    make_player,
    monkeypatch,
    settings,
):
    """The check before a message closed the socket (1011); the act is refused as any failed call is."""
    from rooms import sockets

    settings.TABLE_SESSION_RECHECK = 0  # ask at every message
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    state = await until_my_turn(comm)
    before = await sync_to_async(table_record)(table.pk)
    failing = patch_failing(monkeypatch, sockets, "session_user_id")

    await comm.send_json_to({"type": "act", "seq": 1, "action": {"type": "add", "n": 2}})
    error = await next_of(comm, "error")
    assert failing.killed
    assert error["code"] == "unavailable" and error["ref"] == 1 and error["seq"] == state["seq"]
    assert await sync_to_async(table_record)(table.pk) == before  # not run unchecked

    await comm.send_json_to({"type": "act", "seq": 2, "action": {"type": "add", "n": 2}})
    assert (await next_of(comm, "state"))["seq"] == state["seq"] + 1
    await comm.disconnect()
    await sync_to_async(close_own_connection)()


async def test_a_connect_the_database_could_not_record_is_closed_with_1013_and_the_retry_works(
    long_tier,  # noqa: F811
    make_player,
    monkeypatch,
):
    """It ended the handshake with a server error; now the page is told to try again, and its retry sits."""
    from rooms.tables.tests.test_consumers import open_socket

    alice = await sync_to_async(make_player)()
    table = await sync_to_async(services.table_quick_start)(tier_id=long_tier.pk, user=alice)
    failing = patch_failing(monkeypatch, store, "write_many")  # the connect's presence is its first write
    comm = await open_socket(table.pk, alice)
    assert await comm.receive_output(timeout=3) == {"type": "websocket.close", "code": 1013}
    await comm.disconnect()  # the browser's side of the close
    assert failing.killed
    seat = await sync_to_async(Seat.objects.get)(user=alice)
    assert seat.sockets == [] and not seat.connected  # nothing of it was recorded

    again = await open_socket(table.pk, alice)
    state = await next_of(again, "state")
    assert state["you"]["seat"] == seat.index
    assert (await sync_to_async(Seat.objects.get)(user=alice)).connected
    await again.disconnect()
    await sync_to_async(close_own_connection)()


async def test_a_seat_change_the_socket_could_not_follow_is_an_error_and_resync_follows_it(
    long_tier,  # noqa: F811
    make_player,
    monkeypatch,
):
    """Following the player's seat after a broadcast ended the socket (1011) when the database failed."""
    from rooms.tables import selectors
    from rooms.tables.tests.test_consumers import latest_state

    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    await next_of(comm, "state")
    hand = await sync_to_async(Hand.objects.get)(table=table, status="playing")
    await sync_to_async(services.hand_cancel)(hand_id=hand.pk, reason="test")  # between hands: she may leave
    assert (await latest_state(comm))["you"]["seat"] is not None
    failing = patch_failing(monkeypatch, selectors, "seat_for_user")
    await sync_to_async(services.table_leave)(table_id=table.pk, user=alice)  # say, from another tab
    error = await next_of(comm, "error")
    assert failing.killed
    assert error["code"] == "unavailable" and error["ref"] is None

    await comm.send_json_to({"type": "resync"})
    assert (await next_of(comm, "state"))["you"]["seat"] is None  # a spectator now, as she is
    await comm.disconnect()
    await sync_to_async(close_own_connection)()


@pytest.mark.parametrize(
    ("message", "module", "name"),
    [
        ({"type": "resync"}, "selectors", "table_snapshot"),
        ({"type": "ready"}, "services", "table_ready"),
        ({"type": "trustee", "on": True}, "store", "write_many"),
        ({"type": "leave"}, "services", "table_leave"),
    ],
)
async def test_the_other_messages_the_database_fails_are_errors_on_an_open_socket(
    long_tier,  # noqa: F811
    make_player,
    monkeypatch,
    message,
    module,
    name,
):
    """Handled as ``act`` is (they passed before this change too: a check that they stay so)."""
    from rooms.tables import selectors

    owner = {"selectors": selectors, "services": services, "store": store}[module]
    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, long_tier)
    state = await next_of(comm, "state")
    before = await sync_to_async(table_record)(table.pk)
    failing = patch_failing(monkeypatch, owner, name)
    await comm.send_json_to(message)
    error = await next_of(comm, "error")
    assert failing.killed
    assert error["code"] == "unavailable" and error["ref"] is None
    assert await sync_to_async(table_record)(table.pk) == before
    seat = await sync_to_async(Seat.objects.get)(user=alice)
    assert seat.index == state["you"]["seat"] and not seat.trustee
    await comm.send_json_to({"type": "ping"})
    assert (await next_of(comm, "pong"))["seq"] == state["seq"]
    await comm.disconnect()
    await sync_to_async(close_own_connection)()
