"""The solo API and pages over HTTP: log-in, JSON refusals that change nothing, the records and verify pages."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from rooms.solo.models import Play
from wallets.selectors import wallet_balance

pytestmark = pytest.mark.django_db


def _post(client, name, body):
    return client.post(reverse(f"solo:{name}"), data=json.dumps(body), content_type="application/json")


def test_a_visitor_is_sent_to_log_in(client, solo_tier):
    assert client.get(reverse("solo:play", args=[solo_tier.pk])).status_code == 302
    assert _post(client, "spin", {"tier": solo_tier.pk, "stake": 20, "key": "visitor-1"}).status_code == 302


def test_the_api_refuses_bad_requests_in_words_and_changes_nothing(client, make_player, solo_tier):
    ann = make_player(coins=500)
    client.force_login(ann)
    for body in ({"tier": solo_tier.pk, "stake": 20, "key": "short"}, {"tier": 99999, "stake": 20, "key": "no-tier-1"},
                 {"tier": solo_tier.pk, "stake": 21, "key": "bad-stake-1"}):  # fmt: skip
        response = _post(client, "spin", body)
        assert response.status_code == 400 and response.json()["error"]
    response = client.post(reverse("solo:spin"), data="not json", content_type="application/json")
    assert response.status_code == 400
    assert (
        _post(client, "gamble", {"multiple": 2, "pick": "boy", "key": "nothing-1"}).json()["code"]
        == "no_offer"
    )
    assert wallet_balance(user=ann) == 500 and not Play.objects.exists()


def test_a_spin_over_http_returns_the_play_and_a_retry_returns_the_same(client, make_player, solo_tier):
    bea = make_player(coins=500)
    client.force_login(bea)
    page = client.get(reverse("solo:play", args=[solo_tier.pk]))
    assert page.status_code == 200 and "95.8025" in page.content.decode()
    first = _post(client, "spin", {"tier": solo_tier.pk, "stake": 20, "key": "http-spin-1"}).json()
    again = _post(client, "spin", {"tier": solo_tier.pk, "stake": 20, "key": "http-spin-1"}).json()
    assert first["play"] == again["play"] and first["balance"] == again["balance"] == wallet_balance(user=bea)
    assert first["pair"]["nonce"] == 1
    state = client.get(reverse("solo:state"), {"tier": solo_tier.pk}).json()
    assert [play["id"] for play in state["recent"]] == [first["play"]["id"]]


def test_the_records_and_verify_pages_are_the_players_own(client, make_player, solo_tier):
    cat, dog = make_player(coins=500), make_player(coins=500)
    client.force_login(cat)
    play = _post(client, "spin", {"tier": solo_tier.pk, "stake": 20, "key": "records-1"}).json()["play"]
    records = client.get(reverse("solo:records")).content.decode()
    assert f'data-play="{play["id"]}"' in records
    secret = client.get(play["verify_url"]).content.decode()
    assert 'data-testid="server-seed"' not in secret
    _post(client, "rotate", {"client_seed": "after-1"})
    verified = client.get(play["verify_url"]).content.decode()
    assert 'data-testid="server-seed"' in verified and "Verified" in verified
    client.force_login(dog)
    assert client.get(play["verify_url"]).status_code == 404


def test_the_wallet_names_a_play_and_links_it_to_its_verification(make_player, solo_tier):
    from rooms.solo import services
    from wallets import sources

    eve = make_player(coins=500)
    play = services.solo_spin(user=eve, tier_id=solo_tier.pk, stake=20, request_key="wallet-label-1")
    label = sources.reference_labels([f"play:{play.pk}"])[f"play:{play.pk}"]
    assert "Fortune Lines" in label.text and label.url == reverse("solo:verify", args=[play.pk])


def test_the_game_page_offers_play_in_each_room_and_the_lobby_lists_the_game(client, make_player, solo_tier):
    client.force_login(make_player(coins=5_000))
    page = client.get(reverse("rooms:game", args=["duocaiduofu"])).content.decode()
    assert f'href="{reverse("solo:play", args=[solo_tier.pk])}"' in page and 'data-action="play"' in page
    assert "Fortune Lines" in client.get(reverse("rooms:lobby")).content.decode()
    poor = make_player(coins=10)  # below the room's minimum (10 × 底分 20): entering is refused
    client.force_login(poor)
    assert client.get(reverse("solo:play", args=[solo_tier.pk])).status_code == 302
