"""What every game socket does whatever its game (rooms/sockets.py), on both kinds: table and round.

An unknown path is refused cleanly, a flood is closed once, and a session
that ends (logging out, a new password, staff disabling the account) closes
that session's sockets at once, not at the next periodic recheck.
"""

from __future__ import annotations

import logging

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from rooms import sockets
from rooms.tables import services
from rooms.tables.tests.test_consumers import latest_state, next_of, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]

PASSWORD = "pw-Secret-123"


async def open_socket(path: str, cookie: str | None = None) -> tuple[WebsocketCommunicator, bool]:
    from platform.asgi import application

    headers = [(b"origin", b"http://testserver")]
    if cookie is not None:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _subprotocol = await comm.connect()
    return comm, connected


def errors_logged(caplog) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]


# --- an unknown path ------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/ws/x/", "/ws/tables/abc/", "/ws/tables/1/extra/", "/ws/rounds/abc/", "/ws/", "/elsewhere"]
)
@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
async def test_an_unknown_socket_path_is_closed_with_4404_and_logs_no_error(
    make_player, caplog, path, signed_in
):
    """It answered 500 with a traceback logged at ERROR (Channels' "No route found")."""
    caplog.set_level(logging.INFO)
    cookie = None
    if signed_in:
        cookie = await sync_to_async(session_cookie)(await sync_to_async(make_player)(coins=500))
    comm, connected = await open_socket(path, cookie)
    assert connected
    assert await comm.receive_output(timeout=3) == {"type": "websocket.close", "code": 4404}
    await comm.send_input({"type": "websocket.disconnect", "code": 4404})
    await comm.wait(timeout=3)  # the application ended without raising
    assert errors_logged(caplog) == []


# --- a flood ----------------------------------------------------------------------------


async def table_socket(tier, user) -> tuple[WebsocketCommunicator, int]:
    table = await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=user)
    comm, connected = await open_socket(f"/ws/tables/{table.pk}/", await sync_to_async(session_cookie)(user))
    assert connected
    await latest_state(comm)
    return comm, table.pk


def _round_table(user) -> int:
    from rooms.rounds import services as round_services
    from rooms.rounds.tests.conftest import make_tier

    return round_services.round_enter(tier_id=make_tier().pk, user=user).pk


async def round_socket(user, cookie: str | None = None, table_id: int | None = None) -> WebsocketCommunicator:
    table_id = table_id or await sync_to_async(_round_table)(user)
    cookie = cookie or await sync_to_async(session_cookie)(user)
    comm, connected = await open_socket(f"/ws/rounds/{table_id}/", cookie)
    assert connected
    await next_of(comm, "state")
    return comm


@pytest.mark.parametrize("kind", ["table", "round"])
async def test_a_flood_is_closed_once_and_what_was_queued_behind_it_is_not_read(
    tier, make_player, monkeypatch, caplog, kind
):
    """The messages queued after the 4408 close closed the socket again, each logging
    ``RuntimeError: Unexpected ASGI message 'websocket.close'`` at ERROR under a real server."""
    caplog.set_level(logging.INFO)
    alice = await sync_to_async(make_player)(coins=5000)
    comm = (await table_socket(tier, alice))[0] if kind == "table" else await round_socket(alice)
    frozen = sockets.bucket_clock()
    monkeypatch.setattr(sockets, "bucket_clock", lambda: frozen)  # no tokens earned while flooding
    limit = sockets.RATE_PER_SECOND + sockets.MAX_REFUSED_IN_A_ROW
    for _ in range(limit + 50):
        await comm.send_json_to({"type": "no-such-type"})
    closes = 0
    while closes == 0:
        message = await comm.receive_output(timeout=5)
        closes += message["type"] == "websocket.close"
    assert message == {"type": "websocket.close", "code": sockets.CLOSE_FLOODING}
    await comm.send_input({"type": "websocket.disconnect", "code": sockets.CLOSE_FLOODING})
    await comm.wait(timeout=5)  # every queued message was handled, and the application ended cleanly
    after = []
    while not comm.output_queue.empty():
        after.append(comm.output_queue.get_nowait())
    assert after == []  # no second close, and nothing sent on the closed socket
    assert errors_logged(caplog) == []


# --- a session that ends closes its sockets at once -----------------------------------


def _log_out(cookie: str) -> None:
    """退出 (log out) in the browser whose session is ``cookie``."""
    browser = Client()
    browser.cookies[django_settings.SESSION_COOKIE_NAME] = cookie
    assert browser.post(reverse("accounts:logout")).status_code == 302


def _change_password(cookie: str) -> None:
    """The player changes the password on the profile's page, in the browser whose session is ``cookie``."""
    browser = Client()
    browser.cookies[django_settings.SESSION_COOKIE_NAME] = cookie
    form = {
        "old_password": PASSWORD,
        "new_password1": "a-New-secret-456",
        "new_password2": "a-New-secret-456",
    }
    assert browser.post(reverse("accounts:password_change"), form).status_code == 302


def _disable(user) -> None:
    """Staff untick "active" on the account's admin page (the form saves the whole user)."""
    user.refresh_from_db()
    user.is_active = False
    user.save()


async def still_open(comm) -> bool:
    await comm.send_json_to({"type": "ping"})
    return (await next_of(comm, "pong"))["type"] == "pong"


async def close_code(comm) -> int:
    """The code the socket is closed with, past the frames of changes sent before it."""
    while True:
        message = await comm.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            return message["code"]


@pytest.mark.parametrize("end", ["log_out", "password_changed", "disabled"])
async def test_the_end_of_a_session_closes_its_table_and_round_sockets_at_once(
    tier, make_player, settings, end
):
    """Logging out left the user's sockets working for up to 30 s (bets were accepted).

    The periodic recheck is an hour away here: only the word sent on the
    user's channel can close the sockets, and they say nothing meanwhile.
    """
    settings.TABLE_SESSION_RECHECK = 3600
    tier.bots_enabled = False  # she waits at her table with her coins in her wallet, for 百家乐 too
    await sync_to_async(tier.save)(update_fields=["bots_enabled"])
    alice = await sync_to_async(make_player)(coins=5000)
    # Two browsers: "here" is the one that logs out or changes the password, "elsewhere" another.
    here, elsewhere = [await sync_to_async(session_cookie)(alice), await sync_to_async(session_cookie)(alice)]
    table = await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=alice)
    banker = await sync_to_async(_round_table)(alice)
    sockets_of = {}
    for browser, cookie in (("here", here), ("elsewhere", elsewhere)):
        comm, connected = await open_socket(f"/ws/tables/{table.pk}/", cookie)
        assert connected
        await latest_state(comm)
        sockets_of[browser] = [comm, await round_socket(alice, cookie, banker)]

    ending = {
        "log_out": lambda: _log_out(here),
        "password_changed": lambda: _change_password(here),
        "disabled": lambda: _disable(alice),
    }
    await sync_to_async(ending[end])()

    # Which sessions ended: logging out ends that browser's; a new password every session (the
    # browser that changed it goes on under a new session key, which its open sockets do not
    # hold: a reload of their page is still signed in); disabling the account ends them all.
    ended = {
        "log_out": ["here"],
        "password_changed": ["here", "elsewhere"],
        "disabled": ["here", "elsewhere"],
    }
    for browser, comms in sockets_of.items():
        for comm in comms:
            if browser in ended[end]:
                assert await close_code(comm) == sockets.CLOSE_ANONYMOUS, (browser, end)
            else:
                assert await still_open(comm), (browser, end)
            await comm.disconnect()
