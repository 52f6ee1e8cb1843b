"""Abuse of the table socket, on the real games: every hostile message gets a clear error and changes nothing.

test_consumers.py covers the basic refusals on the fake game; here each one
is checked for what a player would check afterwards: the table's ``seq``, the
hand's state and action count, the ledger and every balance are exactly as
before, and the same socket still answers a ping.
"""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from rooms.tables import services
from rooms.tables.broadcast import engine_for
from rooms.tables.models import Hand, Seat, Table
from rooms.tables.tests.conftest import expire, run_clock
from rooms.tables.tests.helpers import inject
from rooms.tables.tests.test_consumers import latest_state, next_of, session_cookie
from rooms.transport import user_group

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def game_tier(slug: str):
    """Return the demo's first room tier of ``slug`` (created from the catalogue, bots on)."""
    from rooms import services as room_services
    from rooms.demo import demo_tiers_for
    from rooms.models import Game

    room_services.catalogue_sync()
    game = Game.objects.get(slug=slug)
    tier, _created = room_services.tier_ensure(game=game, bots_enabled=True, **demo_tiers_for(game)[0])
    return tier


def fingerprint(table_id: int) -> dict:
    """Everything a hostile message must leave alone: the table, its seats, its hands, the ledger."""
    from wallets.models import Account, LedgerEntry, LedgerTransaction

    table = Table.objects.get(pk=table_id)
    return {
        "seq": table.seq,
        "status": table.status,
        "seats": list(
            Seat.objects.filter(table=table)
            .order_by("index")
            .values_list("user_id", "is_bot", "ready", "trustee", "connected")
        ),
        "hands": list(
            Hand.objects.filter(table=table)
            .order_by("pk")
            .values_list("pk", "status", "action_count", "state", "deadline_token")
        ),
        "transactions": LedgerTransaction.objects.count(),
        "entries": LedgerEntry.objects.count(),
        "balances": list(Account.objects.order_by("pk").values_list("pk", "balance")),
    }


async def open_socket(table_id: int, user=None, *, origin: bytes | None = b"http://testserver", cookie=None):
    """Open the table socket through the real ASGI app; return the communicator and whether it opened."""
    from platform.asgi import application

    headers = []
    if origin is not None:
        headers.append((b"origin", origin))
    if user is not None:
        cookie = await sync_to_async(session_cookie)(user)
    if cookie is not None:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _subprotocol = await comm.connect()
    return comm, connected


async def seat_and_wait_for_turn(slug: str, make_player, phase: str | None = None):
    """Seat a fresh player at a table of ``slug`` (bots fill it) and let the bots play until her turn.

    With ``phase``, wait for a turn of hers in that phase of the engine's view (over several hands if need be).
    """
    alice = await sync_to_async(make_player)(coins=5000)
    tier = await sync_to_async(game_tier)(slug)
    table = await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=alice)
    comm, connected = await open_socket(table.pk, alice)
    assert connected
    for _ in range(200):
        await sync_to_async(run_clock)()
        state = await latest_state(comm)
        hand = state["hand"]
        if hand and hand["status"] == "playing" and state["you"]["seat"] in hand["actors"]:
            if phase is None or hand["view"].get("phase") == phase:
                return alice, table, comm, state
            # Her turn in another phase: let her time run out, so the server plays it for her.
            await sync_to_async(_expire_hand)(hand["id"])
            continue
        if hand is None or hand["status"] != "playing":
            # The bots finished a hand without her (or none started yet): ready up for the next.
            await sync_to_async(_ready_if_waiting)(table.pk, alice)
    raise AssertionError("never reached the player's turn")


def _expire_hand(hand_id: int) -> None:
    expire(Hand.objects.get(pk=hand_id))


def _ready_if_waiting(table_id: int, user) -> None:
    if Table.objects.get(pk=table_id).status == Table.Status.WAITING:
        services.table_ready(table_id=table_id, user=user)


async def refused_without_effect(comm, table_id: int, frame: str, code: str, message: str | None) -> dict:
    """Send ``frame``; assert the error it gets, that nothing changed and the socket still answers."""
    before = await sync_to_async(fingerprint)(table_id)
    await comm.send_input({"type": "websocket.receive", "text": frame})
    error = await next_of(comm, "error")
    assert error["code"] == code, (frame[:200], error)
    if message is not None:
        assert error["message"] == message, (frame[:200], error)
    assert error["seq"] == before["seq"]
    await comm.send_json_to({"type": "ping"})
    assert (await next_of(comm, "pong"))["seq"] == before["seq"]
    assert await sync_to_async(fingerprint)(table_id) == before, frame[:200]
    return error


# --- frames -------------------------------------------------------------------------


NOT_JSON = "That message is not valid JSON."
NOT_OBJECT = "A message must be an object with a type."
BAD_FIELDS = "That message has missing or unexpected fields."

HOSTILE_FRAMES = [
    ("null", "malformed", NOT_OBJECT),
    ('"act"', "malformed", NOT_OBJECT),
    ("12", "malformed", NOT_OBJECT),
    ("", "malformed", NOT_JSON),
    ('{"type": "act", "seq": 1, "action": {"type": "pass"}', "malformed", NOT_JSON),
    # Nested deeper than the JSON decoder's recursion limit, yet under the size limit.
    ("[" * 2000 + "]" * 2000, "malformed", NOT_JSON),
    ('{"type": "act", "seq": 1, "action": ' + "[" * 1500 + "]" * 1500 + "}", "malformed", NOT_JSON),
    ('{"type": null}', "malformed", NOT_OBJECT),
    ('{"type": ["act"]}', "malformed", NOT_OBJECT),
    ('{"type": "ACT", "seq": 1, "action": {"type": "pass"}}', "unknown_type", "Unknown message type."),
    ('{"type": ""}', "unknown_type", "Unknown message type."),
    ('{"type": "__init__"}', "unknown_type", "Unknown message type."),
    ('{"type": "settle"}', "unknown_type", "Unknown message type."),
    ('{"type": "act", "seq": true, "action": {"type": "pass"}}', "malformed", BAD_FIELDS),
    ('{"type": "act", "seq": 1.5, "action": {"type": "pass"}}', "malformed", BAD_FIELDS),
    ('{"type": "act", "seq": null, "action": {"type": "pass"}}', "malformed", BAD_FIELDS),
    ('{"type": "act", "seq": 1, "action": [{"type": "pass"}]}', "malformed", BAD_FIELDS),
    ('{"type": "act", "seq": 1, "action": "pass"}', "malformed", BAD_FIELDS),
    ('{"type": "act", "seq": 1, "action": {"type": "pass"}, "user": 1}', "malformed", BAD_FIELDS),
    ('{"type": "act", "seq": 1, "action": {"type": "pass"}, "hand": 1}', "malformed", BAD_FIELDS),
    ('{"type": "ping", "seq": 1}', "malformed", BAD_FIELDS),
    ('{"type": "trustee", "on": 1}', "malformed", BAD_FIELDS),
    ('{"type": "trustee", "on": null}', "malformed", BAD_FIELDS),
    ('{"type": "ready", "table": 1}', "malformed", BAD_FIELDS),
    # 1,400 three-byte characters: under 4,096 characters but over 4,096 bytes.
    (
        json.dumps({"type": "ping", "pad": "字" * 1400}, ensure_ascii=False),
        "too_large",
        "That message is too large.",
    ),
    (json.dumps({"type": "ping", "pad": "x" * 100_000}), "too_large", "That message is too large."),
]


async def test_hostile_frames_are_refused_and_change_nothing(make_player, monkeypatch):
    from rooms import sockets

    monkeypatch.setattr(sockets, "RATE_PER_SECOND", 1000)  # this test is about content, not rate
    alice, table, comm, _state = await seat_and_wait_for_turn("doudizhu", make_player)
    for frame, code, message in HOSTILE_FRAMES:
        await refused_without_effect(comm, table.pk, frame, code, message)
    await comm.disconnect()


async def test_a_binary_frame_is_refused_and_changes_nothing(make_player):
    alice, table, comm, _state = await seat_and_wait_for_turn("doudizhu", make_player)
    before = await sync_to_async(fingerprint)(table.pk)
    await comm.send_to(bytes_data=json.dumps({"type": "act", "seq": 1, "action": {"type": "pass"}}).encode())
    error = await next_of(comm, "error")
    assert (error["code"], error["message"]) == ("malformed", "Messages must be JSON text.")
    assert await sync_to_async(fingerprint)(table.pk) == before
    await comm.disconnect()


async def test_a_lone_surrogate_in_a_message_is_malformed_and_the_reply_is_text(make_player):
    """``"\\ud800"`` decodes to no character: it is refused as malformed, not echoed back.

    The refusal of a play named the unknown card; with a lone surrogate in it
    the reply could not be encoded as UTF-8 when the server sent it, and the
    socket died with an exception in the server's log (the chaos soak found it).
    """
    alice, table, comm, _state = await seat_and_wait_for_turn("doudizhu", make_player, phase="playing")
    before = await sync_to_async(fingerprint)(table.pk)
    frame = '{"type": "act", "seq": 1, "action": {"type": "play", "cards": ["\\ud800"]}}'
    await comm.send_input({"type": "websocket.receive", "text": frame})
    while True:
        text = (await comm.receive_output(timeout=3))["text"]
        text.encode("utf-8")  # what the server does with every frame it sends
        error = json.loads(text)
        if error["type"] == "error":
            break
    assert (error["code"], error["message"], error["ref"]) == ("malformed", NOT_JSON, None)
    assert await sync_to_async(fingerprint)(table.pk) == before
    await comm.send_json_to({"type": "ping"})
    assert (await next_of(comm, "pong"))["seq"] == before["seq"]
    await comm.disconnect()


# --- actions ------------------------------------------------------------------------


async def test_out_of_turn_replayed_and_untimely_messages_change_nothing(make_player):
    alice, table, comm, state = await seat_and_wait_for_turn("doudizhu", make_player)
    seat = state["you"]["seat"]
    hand = await sync_to_async(Hand.objects.get)(table=table, status="playing")
    engine = engine_for("doudizhu")
    legal = engine.legal_actions(hand.state, seat)
    # 准备 / 离桌 while a hand is played.
    await refused_without_effect(
        comm, table.pk, '{"type": "ready"}', "not_now", "That cannot be done while a hand is being played."
    )
    await refused_without_effect(
        comm, table.pk, '{"type": "leave"}', "not_now", "That cannot be done while a hand is being played."
    )
    # One legal action goes through and moves the table on by exactly one.
    before = await sync_to_async(fingerprint)(table.pk)
    await comm.send_json_to({"type": "act", "seq": 10, "action": legal[0]})
    moved = await next_of(comm, "state")
    assert moved["seq"] == before["seq"] + 1
    # The same message again (a replay) and any older seq: stale.
    for seq in (10, 9, -1):
        frame = json.dumps({"type": "act", "seq": seq, "action": legal[-1]})
        await refused_without_effect(comm, table.pk, frame, "stale_seq", "That action was already sent.")
    # A fresh seq, but it is a bot's turn now and no tick has run.
    hand = await sync_to_async(Hand.objects.get)(pk=hand.pk)
    if hand.status == "playing" and seat not in engine.actors(hand.state):
        frame = json.dumps({"type": "act", "seq": 11, "action": {"type": "pass"}})
        await refused_without_effect(comm, table.pk, frame, "not_your_turn", "It is not your turn.")
    await comm.disconnect()


async def test_playing_another_seats_cards_or_naming_a_seat_is_refused(make_player):
    alice, table, comm, state = await seat_and_wait_for_turn("doudizhu", make_player)
    seat = state["you"]["seat"]
    hand = await sync_to_async(Hand.objects.get)(table=table, status="playing")
    other = (seat + 1) % 3
    theirs = hand.state["hands"][other][:1]
    frames = [
        {"type": "act", "seq": 1, "seat": other, "action": {"type": "pass"}},
        {"type": "act", "seq": 2, "action": {"type": "play", "cards": theirs}},
        {"type": "act", "seq": 3, "action": {"type": "play", "cards": ["3s", "3s"]}},
        {"type": "act", "seq": 4, "action": {"type": "play", "cards": ["ZZ"]}},
        {"type": "act", "seq": 5, "action": {"type": "bid", "points": 4}},
        {"type": "act", "seq": 6, "action": {"type": "bid", "points": True}},
        {"type": "act", "seq": 7, "action": {"type": "bid", "points": "3"}},
        {"type": "act", "seq": 9, "action": {"type": "settle"}},
        {"type": "act", "seq": 10, "action": {"type": None}},
    ]
    for message in frames:
        code = "malformed" if "seat" in message or message["action"]["type"] is None else "illegal"
        error = await refused_without_effect(comm, table.pk, json.dumps(message), code, None)
        # A clear reason from the engine, not the runtime's fallback for an action it could not read.
        assert error["message"] and error["message"] != "That action is not understood.", (message, error)
        if "seat" not in message:
            assert error["ref"] == message["seq"]
    await comm.disconnect()


@pytest.mark.parametrize(
    "slug",
    [
        "doudizhu",
        "zhajinhua",
        "texas",
    ],
)
async def test_an_action_naming_a_seat_inside_it_is_refused(make_player, slug):
    """Whatever an engine accepts its legal actions list: an action with an extra key is not one."""
    alice, table, comm, state = await seat_and_wait_for_turn(slug, make_player)
    seat = state["you"]["seat"]
    legal = (state["hand"]["view"]["choices"] or [{"type": "pass"}])[0]
    other = (seat + 1) % len(state["table"]["seats"])
    frame = json.dumps({"type": "act", "seq": 1, "action": {**legal, "seat": other}})
    error = await refused_without_effect(comm, table.pk, frame, "illegal", None)
    assert error["message"] in {"That is not an action in this game.", "That is not a valid bet."}
    await comm.disconnect()


async def test_a_fractional_bid_is_refused(make_player):
    alice, table, comm, state = await seat_and_wait_for_turn("doudizhu", make_player, phase="bidding")
    frame = json.dumps({"type": "act", "seq": 1, "action": {"type": "bid", "points": 2.0}})
    error = await refused_without_effect(comm, table.pk, frame, "illegal", None)
    assert error["message"] == "A bid is 1, 2 or 3 points."
    await comm.disconnect()


NOT_WHOLE = "That amount or seat is not a whole number."
# Raw JSON for an amount: negative, zero, fractional, infinite, NaN, enormous, bool, string, null, list, object.
BAD_AMOUNTS = [
    "-4",
    "0",
    "2.5",
    "4.0",
    "1e999",
    "-1e999",
    "NaN",
    str(10**60),
    str(-(10**60)),
    "true",
    '"4"',
    "null",
    "[4]",
    '{"coins": 4}',
]


def _whole(raw: str) -> bool:
    return raw.lstrip("-").isdigit()


async def test_bad_raise_amounts_in_zhajinhua_are_refused_and_change_nothing(make_player, monkeypatch):
    """炸金花 raise: only one of the amounts its view's ``choices`` list is a bet."""
    from rooms import sockets

    monkeypatch.setattr(sockets, "RATE_PER_SECOND", 1000)  # this test is about content, not rate
    alice, table, comm, state = await seat_and_wait_for_turn("zhajinhua", make_player)
    seq = 0
    for raw in BAD_AMOUNTS:
        for kind in ("raise", "compare"):
            seq += 1
            key = "amount" if kind == "raise" else "target"
            frame = f'{{"type": "act", "seq": {seq}, "action": {{"type": "{kind}", "{key}": {raw}}}}}'
            error = await refused_without_effect(comm, table.pk, frame, "illegal", None)
            expected = (
                {
                    "You cannot raise by that amount now.",
                    "You can compare only from the second round.",
                    "You cannot compare with that player now.",
                }
                if _whole(raw)
                else {NOT_WHOLE}
            )
            assert error["message"] in expected, (frame, error)
            assert error["ref"] == seq
    # After all that, a legal raise (if any) is still accepted: nothing is stuck.
    choices = [c for c in state["hand"]["view"]["choices"] if c["type"] in ("call", "raise")]
    if choices:
        await comm.send_json_to({"type": "act", "seq": seq + 1, "action": choices[-1]})
        assert (await next_of(comm, "state"))["seq"] == state["seq"] + 1
    await comm.disconnect()


async def test_bad_bet_amounts_in_texas_are_refused_and_change_nothing(make_player, monkeypatch):
    """必下德州 bets and raises: only the table's fixed stakes the seat can afford."""
    from rooms import sockets

    monkeypatch.setattr(sockets, "RATE_PER_SECOND", 1000)  # this test is about content, not rate
    alice, table, comm, state = await seat_and_wait_for_turn("texas", make_player)
    view = state["hand"]["view"]
    seq = 0
    for raw in BAD_AMOUNTS:
        for kind in ("bet", "raise"):
            seq += 1
            frame = f'{{"type": "act", "seq": {seq}, "action": {{"type": "{kind}", "amount": {raw}}}}}'
            error = await refused_without_effect(comm, table.pk, frame, "illegal", None)
            if not _whole(raw):
                assert error["message"] == "That is not a valid bet.", frame
            else:
                assert error["message"] in {
                    "That bet is not one of the table's stakes you can afford.",
                    "Choose one of the table's bets.",
                    "You posted a blind: check or raise.",
                }, (frame, error)
    # More than she carried, though a whole number of coins.
    seq += 1
    kind = "raise" if state["you"]["seat"] in view["blind_seats"] else "bet"
    over = view["carried"][state["you"]["seat"]] + 1
    frame = json.dumps({"type": "act", "seq": seq, "action": {"type": kind, "amount": over}})
    await refused_without_effect(comm, table.pk, frame, "illegal", None)
    await comm.send_json_to({"type": "act", "seq": seq + 1, "action": view["choices"][0]})
    # (Its settlement may overtake it here: tests run Celery in-process, inside the commit.)
    assert (await next_of(comm, "state"))["seq"] > state["seq"]
    await comm.disconnect()


# --- floods -------------------------------------------------------------------------


async def test_a_flood_is_rate_limited_then_closed_with_4408_and_nothing_changes(make_player, monkeypatch):
    from rooms import sockets

    alice, table, comm, state = await seat_and_wait_for_turn("doudizhu", make_player)
    before = await sync_to_async(fingerprint)(table.pk)
    # A second on: the bucket is full at the flood's first message (the pings that waited for her
    # turn took tokens), and the clock stops there: no tokens earned while flooding.
    frozen = sockets.bucket_clock() + 1
    monkeypatch.setattr(sockets, "bucket_clock", lambda: frozen)
    legal = state["hand"]["view"]["choices"] or [{"type": "pass"}]
    total = sockets.RATE_PER_SECOND + sockets.MAX_REFUSED_IN_A_ROW
    for n in range(total):
        # A flood of junk acts: the ones within the bucket are refused by the engine, the rest by the limiter.
        await comm.send_json_to({"type": "act", "seq": n + 1, "action": {"type": "play", "cards": ["ZZ"]}})
    replies = []
    while True:
        message = await comm.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            assert message["code"] == sockets.CLOSE_FLOODING
            break
        replies.append(json.loads(message["text"]))
    codes = [m["code"] for m in replies if m["type"] == "error"]
    assert codes.count("illegal") == sockets.RATE_PER_SECOND
    assert codes.count("rate_limited") == sockets.MAX_REFUSED_IN_A_ROW - 1
    assert {m["message"] for m in replies if m.get("code") == "rate_limited"} == {
        "Too many messages; slow down."
    }
    # Closing her socket marks her away (a presence change); the game itself did not move.
    after = await sync_to_async(fingerprint)(table.pk)
    assert [h[:4] for h in after["hands"]] == [h[:4] for h in before["hands"]]
    assert (after["transactions"], after["entries"], after["balances"]) == (
        before["transactions"],
        before["entries"],
        before["balances"],
    )
    monkeypatch.undo()
    # The server is fine: she reconnects and plays on.
    again, connected = await open_socket(table.pk, alice)
    assert connected
    fresh = await latest_state(again)
    await again.send_json_to({"type": "act", "seq": 1, "action": legal[0]})
    assert (await next_of(again, "state"))["seq"] == fresh["seq"] + 1
    await again.disconnect()


# --- who may connect ----------------------------------------------------------------


async def test_a_foreign_origin_is_refused_even_with_a_valid_session(make_player):
    """Cross-site WebSocket hijacking: another site's page cannot ride on the player's cookie."""
    alice, table, comm, state = await seat_and_wait_for_turn("doudizhu", make_player)
    await comm.disconnect()
    before = await sync_to_async(fingerprint)(table.pk)
    for origin in (b"https://evil.example", b"null", b"http://testserver.evil.example", None):
        hostile, connected = await open_socket(table.pk, alice, origin=origin)
        assert not connected, origin
        # Nothing was sent and the seat's presence did not change.
        assert await sync_to_async(fingerprint)(table.pk) == before, origin


async def test_no_session_a_forged_session_or_no_table_is_closed(make_player):
    alice, table, comm, state = await seat_and_wait_for_turn("doudizhu", make_player)
    before = await sync_to_async(fingerprint)(table.pk)
    for cookie in (None, "forged-session-key", "x" * 40):
        anon, connected = await open_socket(table.pk, cookie=cookie)
        assert connected
        assert await anon.receive_output(timeout=3) == {"type": "websocket.close", "code": 4401}
    missing, connected = await open_socket(999_999, alice)
    assert await missing.receive_output(timeout=3) == {"type": "websocket.close", "code": 4404}
    await comm.send_json_to({"type": "ping"})
    assert (await next_of(comm, "pong"))["type"] == "pong"
    assert await sync_to_async(fingerprint)(table.pk) == before
    await comm.disconnect()


# --- a session that ended while the socket was open -----------------------------------


def _log_out(cookie: str) -> None:
    """The player presses 退出 (log out) in the browser that holds ``cookie``."""
    from django.conf import settings
    from django.test import Client

    browser = Client()
    browser.cookies[settings.SESSION_COOKIE_NAME] = cookie
    assert browser.post("/accounts/logout/").status_code == 302


def _change_password(user) -> None:
    """The password changes (in another browser): every other session of the user ends."""
    user.set_password("a-new-Secret-456")
    user.save(update_fields=["password"])


def _disable(user) -> None:
    """Staff disable the account."""
    user.is_active = False
    user.save(update_fields=["is_active"])


@pytest.mark.parametrize("end", ["log_out", "password_changed", "disabled"])
async def test_a_socket_whose_session_ended_is_closed_before_it_acts(make_player, settings, end):
    """A stolen session cookie's socket no longer plays once the player logs out or changes the password.

    The socket's user was read once, at the handshake: it kept acting (and
    receiving the seat's cards) for as long as it stayed open.
    """
    from rooms.tables.tests.test_consumers import session_cookie

    settings.TABLE_SESSION_RECHECK = 0  # ask at every message
    alice, table, comm, state = await seat_and_wait_for_turn("doudizhu", make_player)
    cookie = await sync_to_async(session_cookie)(alice)
    stolen, connected = await open_socket(table.pk, cookie=cookie)
    assert connected
    await latest_state(stolen)
    before = await sync_to_async(fingerprint)(table.pk)
    ending = {"log_out": lambda: _log_out(cookie), "password_changed": lambda: _change_password(alice)}
    ending["disabled"] = lambda: _disable(alice)
    await sync_to_async(ending[end])()

    legal = state["hand"]["view"]["choices"] or [{"type": "pass"}]
    await stolen.send_json_to({"type": "act", "seq": 1, "action": legal[0]})
    assert await stolen.receive_output(timeout=3) == {"type": "websocket.close", "code": 4401}
    await stolen.disconnect()  # the browser's side of the close
    after = await sync_to_async(fingerprint)(table.pk)
    assert after["hands"] == before["hands"] and after["balances"] == before["balances"]
    if end == "log_out":
        # Her own browser's session is another one: it plays on.
        await comm.send_json_to({"type": "act", "seq": 1, "action": legal[0]})
        assert (await latest_state(comm))["seq"] > before["seq"]
    await comm.disconnect()


async def test_a_silent_socket_is_closed_at_the_next_recheck_once_its_session_ended(make_player):
    """A socket that only listens (to the seat's cards) is asked too, every recheck interval."""
    from rooms.tables.tests.test_consumers import session_cookie

    alice, table, comm, _state = await seat_and_wait_for_turn("doudizhu", make_player)
    await comm.disconnect()
    cookie = await sync_to_async(session_cookie)(alice)
    stolen, connected = await open_socket(table.pk, cookie=cookie)
    assert connected
    await latest_state(stolen)
    await sync_to_async(_log_out)(cookie)
    # The interval is up: the socket's session watch asks, as this word does.
    inject(user_group(alice.pk), {"type": "user.session_check"})
    assert await stolen.receive_output(timeout=3) == {"type": "websocket.close", "code": 4401}
    await stolen.disconnect()
    # Her seat no longer counts that socket: she is away, as after any close.
    assert not (await database_sync_to_async(Seat.objects.get)(user=alice)).connected


async def test_a_banker_tables_id_is_no_table_here(make_player):
    """A 百家乐 table on the seated table's socket and page: no such table, and its round is untouched."""
    from rooms.rounds.tests.conftest import make_tier, open_round

    alice = await database_sync_to_async(make_player)(coins=5000)
    banker, _round = await database_sync_to_async(lambda: open_round(make_tier(), alice))()
    before = await database_sync_to_async(fingerprint)(banker.pk)
    comm, connected = await open_socket(banker.pk, alice)
    assert await comm.receive_output(timeout=3) == {"type": "websocket.close", "code": 4404}
    assert await database_sync_to_async(_page_statuses)(alice, banker.pk) == (404, 200)
    assert await database_sync_to_async(fingerprint)(banker.pk) == before


def _page_statuses(user, table_id: int) -> tuple[int, int]:
    """The seated table page and the banker table page of ``table_id``, as ``user`` sees them."""
    from django.test import Client

    browser = Client()
    browser.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return browser.get(f"/tables/{table_id}/").status_code, browser.get(f"/rounds/{table_id}/").status_code


async def test_a_user_holds_at_most_the_cap_of_sockets(make_player, settings):
    """The rate limit is per socket: one player opening sockets by the dozen is refused past the cap."""
    settings.TABLE_SOCKETS_PER_USER = 3
    alice, table, comm, _state = await seat_and_wait_for_turn("doudizhu", make_player)
    second, _ = await open_socket(table.pk, alice)
    third, _ = await open_socket(table.pk, alice)
    for socket in (second, third):
        await latest_state(socket)
    before = await database_sync_to_async(fingerprint)(table.pk)

    fourth, _ = await open_socket(table.pk, alice)
    assert await fourth.receive_output(timeout=3) == {"type": "websocket.close", "code": 4429}
    await fourth.disconnect()
    assert await database_sync_to_async(fingerprint)(table.pk) == before
    # Another player is not affected, and a closed socket frees its place.
    bob = await database_sync_to_async(make_player)(coins=100)
    watcher, _ = await open_socket(table.pk, bob)
    assert (await latest_state(watcher))["you"]["seat"] is None
    await second.disconnect()
    again, _ = await open_socket(table.pk, alice)
    assert (await latest_state(again))["you"]["seat"] is not None
    for socket in (comm, third, watcher, again):
        await socket.disconnect()
