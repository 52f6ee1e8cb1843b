"""The catalogue API: payloads for visitors and players, and its place in the schema."""

import pytest

from rooms.models import Game

pytestmark = pytest.mark.django_db


def test_games_list_is_paginated_and_open_to_visitors(client, make_tier):
    make_tier(name="初级场", room_factor=1)
    response = client.get("/api/games/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 1 and body["next"] is None
    (game,) = body["results"]
    assert {k: game[k] for k in ("slug", "name_zh", "name_en", "family", "min_seats", "max_seats")} == {
        "slug": "fakecards",
        "name_zh": "测试牌",
        "name_en": "Test Cards",
        "family": "seated",
        "min_seats": 2,
        "max_seats": 4,
    }
    (tier,) = game["tiers"]
    assert tier["name"] == "初级场"
    assert tier["minimum_coins"] == 96 and tier["minimum_rule"] == "factor"
    assert tier["rake_bps"] == 500 and tier["rake_percent"] == "5.00"
    assert tier["seated"] == 0 and tier["seats_per_table"] == 4
    assert tier["can_enter"] is False
    assert (tier["refusal_code"], tier["refusal"]) == ("login_required", "Log in to play.")


def test_games_list_tells_a_player_what_they_may_enter(client, make_tier, make_player, monkeypatch):
    novice = make_tier(name="初级场", room_factor=1)
    middle = make_tier(name="中级场", room_factor=5)
    monkeypatch.setattr("rooms.selectors.seated_counts_by_tier", lambda: {novice.pk: 2})
    client.force_login(make_player(300))
    tiers = {t["id"]: t for t in client.get("/api/games/").json()["results"][0]["tiers"]}
    assert tiers[novice.pk]["can_enter"] is True and tiers[novice.pk]["refusal"] == ""
    assert tiers[novice.pk]["seated"] == 2
    assert tiers[middle.pk]["can_enter"] is False
    assert tiers[middle.pk]["refusal"] == "中级场 needs at least 480 coins to enter; your balance is 300."


def test_game_detail_and_tier_detail(client, make_tier, make_player):
    tier = make_tier(name="高级场", base_stake=5, room_factor=10, options={"turn_seconds": 15})
    client.force_login(make_player(960))
    game = client.get("/api/games/fakecards/").json()
    assert game["slug"] == "fakecards" and [t["id"] for t in game["tiers"]] == [tier.pk]
    body = client.get(f"/api/tiers/{tier.pk}/").json()
    assert body["game"] == "fakecards" and body["base_stake"] == 5 and body["room_factor"] == 10
    assert body["minimum_coins"] == 960 and body["can_enter"] is True
    assert body["options"] == {"turn_seconds": 15}


def test_missing_or_disabled_games_are_404(client, game, make_tier):
    tier = make_tier()
    assert client.get("/api/games/nosuchgame/").status_code == 404
    assert client.get("/api/tiers/999999/").status_code == 404
    Game.objects.filter(pk=game.pk).update(is_enabled=False)
    assert client.get("/api/games/fakecards/").status_code == 404
    assert client.get(f"/api/tiers/{tier.pk}/").status_code == 404
    assert client.get("/api/games/").json()["count"] == 0


def test_schema_documents_the_catalogue_paths(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for path in ("/api/games/", "/api/games/{slug}/", "/api/tiers/{tier_id}/"):
        assert path in schema["paths"], path
    list_schema = schema["paths"]["/api/games/"]["get"]["responses"]["200"]["content"]["application/json"]
    assert "Paginated" in list_schema["schema"]["$ref"]
    tier_props = schema["components"]["schemas"]["Tier"]["properties"]
    assert {"minimum_coins", "rake_percent", "seated", "can_enter", "refusal"} <= set(tier_props)
