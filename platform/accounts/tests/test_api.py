"""GET and PATCH /api/me/: the signed-in player's profile and levels."""

from platform.accounts.models import GameStats

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(player) -> APIClient:
    client = APIClient()
    client.force_authenticate(player)
    return client


def test_me_needs_a_log_in():
    assert APIClient().get("/api/me/").status_code == 403


def test_me_shows_the_profile_and_the_level_per_game(api, player, catalogue):
    catalogue.append(("doudizhu", "Dou Dizhu"))  # the catalogue's name in the request's language
    GameStats.objects.create(user=player, game_slug="doudizhu", hands=700, wins=310)

    body = api.get("/api/me/").json()

    assert body["username"] == "alice"
    assert body["nickname"] == "Alice"
    assert body["display_name"] == "Alice"
    assert body["date_joined"]
    (game,) = body["games"]
    assert game["game_slug"] == "doudizhu"
    assert game["game_name"] == "Dou Dizhu"  # the request's language
    assert (game["hands"], game["wins"]) == (700, 310)
    assert game["level"]["name"] == "佃户"
    assert (game["level"]["wins_from"], game["level"]["wins_to"]) == (300, 500)
    assert game["wins_to_next"] == 190
    assert game["next_level"]["name"] == "贫农"


def test_me_at_the_top_level_has_no_next(api, player):
    GameStats.objects.create(user=player, game_slug="doudizhu", hands=200_000, wins=123_456)
    (game,) = api.get("/api/me/").json()["games"]
    assert game["level"]["name"] == "帝王"
    assert game["level"]["wins_to"] is None
    assert game["wins_to_next"] is None
    assert game["next_level"] is None


def test_patch_me_changes_the_nickname(api, player):
    response = api.patch("/api/me/", {"nickname": "  雀神 "}, format="json")
    assert response.status_code == 200
    assert response.json()["nickname"] == "雀神"
    player.refresh_from_db()
    assert player.nickname == "雀神"


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"nickname": "q"}, "A nickname has 2 to 16 characters; this one has 1."),
        ({"nickname": "<b>hi</b>"}, "is not allowed"),
        ({}, "This field is required."),
    ],
)
def test_patch_me_refuses_a_bad_nickname_and_changes_nothing(api, player, payload, message):
    response = api.patch("/api/me/", payload, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert message in " ".join(response.json()["nickname"])
    player.refresh_from_db()
    assert player.nickname == "Alice"


def test_me_is_in_the_openapi_schema(player):
    client = APIClient()
    client.force_authenticate(player)
    schema = client.get("/api/schema/", {"format": "json"}).json()
    assert {"get", "patch"} <= set(schema["paths"]["/api/me/"])
