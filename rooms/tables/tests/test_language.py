"""The table socket speaks the player's language, engine refusals included."""

import re

import pytest
from django.utils import translation

from games.base import IllegalAction, gettext_noop
from rooms.sockets import scope_language
from rooms.tables import play
from rooms.tables.broadcast import frames_message, snapshot
from rooms.tables.services import illegal_action_text
from rooms.tables.tests.helpers import open_hand, sit_connected
from rooms.tables.tests.test_consumers import open_socket, seated  # noqa: F401
from rooms.tables.tests.test_zhajinhua_runtime import zjh_game, zjh_tier  # noqa: F401 - fixtures

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def scope(cookie: str | None = None, accept: str | None = None) -> dict:
    headers = [(b"accept-language", accept.encode())] if accept else []
    return {"cookies": {"django_language": cookie} if cookie else {}, "headers": headers}


def test_the_language_cookie_wins_over_the_browser_then_the_site_default(settings):
    assert scope_language(scope(cookie="en", accept="zh-CN,zh;q=0.9")) == "en"
    assert scope_language(scope(accept="zh-CN,zh;q=0.9")) == "zh-hans"
    assert scope_language(scope(accept="fr-FR")) == settings.LANGUAGE_CODE
    assert scope_language(scope()) == settings.LANGUAGE_CODE


@pytest.mark.zh
def test_an_engine_refusal_is_translated_then_filled_in():
    refusal = IllegalAction(gettext_noop("You do not hold {card}."), card="Ks")
    assert str(refusal) == "You do not hold Ks."
    with translation.override("zh-hans"):
        text = illegal_action_text(refusal)
    assert "Ks" in text and text != "You do not hold Ks."
    with translation.override("en"):
        assert illegal_action_text(refusal) == "You do not hold Ks."


def test_a_refusal_without_a_template_is_passed_through():
    assert illegal_action_text(IllegalAction("Plain words.")) == "Plain words."


async def test_socket_errors_follow_the_browser_language(tier, make_player):
    from platform.asgi import application

    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from rooms.tables.tests.test_consumers import session_cookie

    alice = await sync_to_async(make_player)()
    table, comm = await seated(alice, tier)
    cookie = await sync_to_async(session_cookie)(alice)
    for accept, expected in (
        ("zh-CN,zh;q=0.9", "未知的消息类型。"),
        ("en-US,en;q=0.9", "Unknown message type."),
    ):
        headers = [
            (b"origin", b"http://testserver"),
            (b"cookie", f"sessionid={cookie}".encode()),
            (b"accept-language", accept.encode()),
        ]
        ws = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=headers)
        connected, _ = await ws.connect()
        assert connected
        await ws.send_json_to({"type": "dance"})
        while True:
            message = await ws.receive_json_from(timeout=3)
            if message["type"] == "error":
                break
        assert message["message"] == expected
        await ws.disconnect()
    await comm.disconnect()


def test_every_engine_refusal_is_marked_for_translation():
    """A refusal written as a bare string would reach zh-hans players in English."""
    import ast
    from pathlib import Path

    import games

    bare = []
    for path in Path(games.__file__).parent.rglob("*.py"):
        if "tests" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "IllegalAction"
                and node.args
                and isinstance(node.args[0], ast.Constant | ast.JoinedStr)
            ):
                bare.append(f"{path.name}:{node.lineno}")
    assert bare == []


def test_frames_carry_tier_level_and_bot_names_in_both_languages(zjh_tier, make_player):  # noqa: F811
    """One frame goes to every socket whatever its language: data names come in Chinese and English."""

    zjh_tier.name_en = "Novice room"
    zjh_tier.save(update_fields=["name_en"])
    alice = make_player(coins=5000, name="Alice")
    table = sit_connected(alice, zjh_tier)
    scene = play.read(table.pk)
    me = next(seat.index for seat in scene.seats if seat.user_id == alice.pk)
    with translation.override("zh-hans"):  # whatever the building thread speaks
        state = snapshot(scene, seat_index=me, balance=0)
    tier = state["table"]["tier"]
    assert (tier["name"], tier["name_en"]) == ("初级场", "Novice room")
    assert (tier["game_name"], tier["game_name_en"]) == ("炸金花", "Golden Flower")
    rows = state["table"]["seats"]
    mine = rows[me]
    assert (mine["name"], mine["name_en"]) == (alice.stored_name, alice.stored_name)
    assert (mine["level"], mine["level_en"]) == ("包身工", "Indentured labourer")
    bots = [row for row in rows if row["is_bot"]]
    assert bots and all(re.fullmatch(r"机器人(\d+)", row["name"]) for row in bots)
    assert all(row["name_en"] == "Bot " + row["name"].removeprefix("机器人") for row in bots)
    assert all(row["level"] is None and row["level_en"] is None for row in bots)
    assert frames_message(scene)["type"] == "table.frames"
    # The hand records its players' names as kept (a bot's in Chinese), whatever language dealt it.
    hand = open_hand(table)
    assert [player["name"] for player in hand.players] == [seat["name"] for seat in rows]
