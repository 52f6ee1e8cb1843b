"""PostgreSQL drops the round socket's connection: the socket is told to come back, or plays on.

As for the table socket (rooms/tables/tests/test_db_faults.py): a failure
while the socket opens closes it with 1013, which the page retries; a failure
while it only notes it is still watching goes unseen; a failed bet is error
``unavailable`` and changes nothing.
"""

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from rooms.rounds import services
from rooms.rounds.models import Bet, Viewer
from rooms.rounds.tests.test_consumers import betting_table, latest_state, next_of, open_socket  # noqa: F401
from rooms.tables.tests.test_db_faults import close_own_connection, failing_once, patch_failing, terminate
from wallets.selectors import ledger_check, wallet_balance

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_rounds"),
]


async def test_a_connect_the_database_could_not_record_is_closed_with_1013_and_the_retry_watches(
    bacc_tier, make_player, monkeypatch
):
    """It ended the handshake with a server error; now the page is told to try again."""
    alice = await sync_to_async(make_player)(coins=1000)
    table = await sync_to_async(services.round_enter)(tier_id=bacc_tier.pk, user=alice)
    failing = patch_failing(monkeypatch, services, "round_presence")
    comm = await open_socket(table.pk, alice)
    ok, _ = await comm.connect()
    assert ok
    assert await comm.receive_output(timeout=3) == {"type": "websocket.close", "code": 1013}
    await comm.disconnect()
    assert failing.killed
    assert not await sync_to_async(Viewer.objects.filter(left_at__isnull=True).exists)()

    again = await open_socket(table.pk, alice)
    ok, _ = await again.connect()
    assert ok
    assert (await next_of(again, "state"))["you"]["balance"] == 1000
    assert await sync_to_async(Viewer.objects.filter(table=table, left_at__isnull=True).count)() == 1
    await again.disconnect()
    await sync_to_async(close_own_connection)()


async def test_a_watching_note_the_database_fails_leaves_the_socket_playing(
    bacc_tier, make_player, monkeypatch, settings
):
    """Noting that the socket still watches ended it (1011), and the player saw it drop."""
    settings.TABLE_SESSION_RECHECK = 0.2  # the socket notes it (and checks its session) this often
    alice = await sync_to_async(make_player)(coins=1000)
    table, comm, state = await betting_table(bacc_tier, alice)
    failing = patch_failing(monkeypatch, services, "round_presence_seen")
    for _ in range(50):
        if failing.killed:
            break
        await comm.receive_nothing(timeout=0.1)
    await comm.send_json_to({"type": "bet", "seq": 1, "area": "banker", "amount": 100})
    placed = await latest_state(comm)
    assert failing.killed
    assert placed["you"] == {"balance": 900, "stakes": {"banker": 100}, "staked": 100}
    await comm.disconnect()
    await sync_to_async(close_own_connection)()


async def test_a_bet_the_database_fails_is_an_error_and_changes_nothing(bacc_tier, make_player, monkeypatch):
    """The error answered the bet with ``ref`` null (only an ``act``'s seq was taken): now its seq."""
    alice = await sync_to_async(make_player)(coins=1000)
    table, comm, state = await betting_table(bacc_tier, alice)
    failing = patch_failing(monkeypatch, services, "round_bet")
    await comm.send_json_to({"type": "bet", "seq": 1, "area": "banker", "amount": 100})
    error = await next_of(comm, "error")
    assert failing.killed
    assert error["code"] == "unavailable" and error["ref"] == 1
    assert not await sync_to_async(Bet.objects.exists)()
    assert await sync_to_async(wallet_balance)(user=alice) == 1000
    await comm.send_json_to({"type": "bet", "seq": 2, "area": "banker", "amount": 100})
    assert (await latest_state(comm))["you"]["stakes"] == {"banker": 100}
    assert await sync_to_async(ledger_check)() == []
    await comm.disconnect()
    await sync_to_async(close_own_connection)()


async def test_a_resync_the_database_fails_is_an_error_on_an_open_socket(bacc_tier, make_player, monkeypatch):
    """Handled as a bet is (it passed before this change too: a check that it stays so)."""
    from rooms.rounds import selectors

    alice = await sync_to_async(make_player)(coins=1000)
    table, comm, state = await betting_table(bacc_tier, alice)
    # Raised rather than a terminated backend: the test communicator turns Channels' own
    # ``close_old_connections`` (which drops a broken connection after the call) into a no-op.
    failing = patch_failing(monkeypatch, selectors, "round_snapshot", failing_once)
    await comm.send_json_to({"type": "resync"})
    error = await next_of(comm, "error")
    assert failing.killed
    assert error["code"] == "unavailable" and error["ref"] is None and error["seq"] == state["seq"]
    await comm.send_json_to({"type": "resync"})
    assert (await next_of(comm, "state"))["seq"] == state["seq"]
    await comm.disconnect()
    await sync_to_async(close_own_connection)()


def _own_backend() -> list[int]:
    """The backend of the calling thread's connection (opened and kept)."""
    connection.ensure_connection()
    return [connection.connection.info.backend_pid]


async def test_a_connection_the_database_dropped_while_idle_is_replaced_before_a_round_socket_reads(
    bacc_tier, make_player, monkeypatch
):
    """After a restart of PostgreSQL the first round socket to open was closed with 1013.

    Its reads (the table check, its presence, its first state) ran through
    Channels' own wrapper, which does not notice a kept connection the
    database has ended; the table sockets' calls check for it first.
    """
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", None)  # kept, as DB_CONN_MAX_AGE does
    alice = await sync_to_async(make_player)(coins=1000)
    table = await sync_to_async(services.round_enter)(tier_id=bacc_tier.pk, user=alice)
    comm = await open_socket(table.pk, alice)
    assert (await comm.connect())[0]
    await next_of(comm, "state")
    await comm.disconnect()

    again = await open_socket(table.pk, alice)  # signed in before the restart
    # Channels' shared thread, which runs the socket's reads (and this test's sync_to_async calls).
    await sync_to_async(terminate)(await sync_to_async(_own_backend)())
    assert (await again.connect())[0]
    first = await again.receive_json_from(timeout=3)  # not a close with 1013
    assert first["type"] == "state" and first["you"]["balance"] == 1000
    await again.disconnect()
    await sync_to_async(close_own_connection)()


async def test_a_connection_the_database_dropped_while_idle_is_replaced_before_an_open_socket_reads(
    bacc_tier, make_player, monkeypatch
):
    """An open round socket's resync after a restart of PostgreSQL was error ``unavailable``; now it reads."""
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", None)
    alice = await sync_to_async(make_player)(coins=1000)
    table, comm, state = await betting_table(bacc_tier, alice)
    await sync_to_async(terminate)(await sync_to_async(_own_backend)())
    await comm.send_json_to({"type": "resync"})
    answer = await comm.receive_json_from(timeout=3)
    assert answer["type"] == "state" and answer["seq"] == state["seq"]
    await comm.disconnect()
    await sync_to_async(close_own_connection)()
