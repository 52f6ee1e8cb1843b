"""The table page and the 战绩 (hand history) page, rendered by Django."""

import json

import pytest
from django.urls import reverse
from django.utils import translation

from rooms.game_pages import page_for
from rooms.tables import history, pages, services
from rooms.tables.broadcast import engine_for
from rooms.tables.models import Hand
from rooms.tables.tests.conftest import run_clock
from rooms.tables.tests.helpers import my_seat, open_hand, sit_connected

# Quick start deals through transaction.on_commit, so the runtime needs real commits.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


@pytest.fixture
def doudizhu_tier(transactional_db):
    from rooms.models import Game, RoomTier
    from rooms.services import catalogue_sync

    catalogue_sync()
    return RoomTier.objects.create(
        game=Game.objects.get(slug="doudizhu"),
        code="pages-junior",
        name="初级场",
        base_stake=1,
        room_factor=1,
        options={"variant": "classic"},
        seats=3,
        bots_enabled=True,
    )


def play_hand_through_services(table, user) -> Hand:
    """Play one whole hand: bots by the clock, the player by the engine's 提示 (or 托管 move)."""
    hand = open_hand(table)
    assert hand is not None, "quick start did not deal a hand"
    for _ in range(200):
        run_clock()
        hand.refresh_from_db()
        if hand.status != Hand.Status.PLAYING:
            break
        engine = engine_for(hand.game_slug)
        seat = my_seat(user).index
        if seat in engine.actors(hand.state):
            action = engine.hint(hand.state, seat) or engine.auto_action(hand.state, seat)
            services.table_act(table_id=table.pk, user=user, action=action)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
    return hand


def test_the_table_page_needs_a_login(client, doudizhu_tier, make_player):
    table = sit_connected(make_player(), doudizhu_tier)
    response = client.get(reverse("tables:table", args=[table.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_an_unknown_table_is_not_found(client, make_player):
    client.force_login(make_player())
    assert client.get(reverse("tables:table", args=[999999])).status_code == 404


def test_the_table_page_carries_the_socket_path_and_every_label_translated(
    client, doudizhu_tier, make_player
):
    user = make_player()
    table = sit_connected(user, doudizhu_tier)
    client.force_login(user)
    response = client.get(reverse("tables:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'src="/static/js/table.js"' in html and 'type="module"' in html
    config = response.context["client_config"]
    assert config["wsPath"] == f"/ws/tables/{table.pk}/"
    assert config["tableId"] == table.pk
    labels = json.loads(html.split('id="table-labels" type="application/json">')[1].split("</script>")[0])
    assert set(labels) == set(pages.TABLE_LABELS) | set(page_for("doudizhu").labels)
    assert labels["play"] == "Play" and labels["rob"] == "Rob the landlord"
    assert "Fight the Landlord" in html and "初级场" in html


def test_labels_follow_the_active_language():
    with translation.override("en"):
        english = pages.table_labels()
    assert english["hint"] == "Hint"
    assert all(isinstance(text, str) and text for text in english.values())


def test_the_history_page_needs_a_login(client):
    response = client.get(reverse("tables:history"))
    assert response.status_code == 302


def test_the_history_page_shows_a_finished_hand_with_its_cards_result_and_seed(
    client, doudizhu_tier, make_player
):
    from wallets.selectors import wallet_balance

    user = make_player(name="historian")
    table = sit_connected(user, doudizhu_tier)
    before = wallet_balance(user=user) + open_hand(table).players[my_seat(user).index]["carried"]
    hand = play_hand_through_services(table, user)
    delta = wallet_balance(user=user) - before

    client.force_login(user)
    response = client.get(reverse("tables:history"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    html = response.content.decode()
    [record] = response.context["records"]
    assert record.hand.pk == hand.pk
    assert record.delta == delta
    assert f'data-delta="{delta}"' in html
    details = hand.outcome["details"]
    facts = {fact.key: fact for fact in record.facts}
    assert facts["multiple"].text == f"×{details['multiple']}" and f"×{details['multiple']}" in html
    landlord = details["landlord"]
    assert facts["landlord"].label == "Landlord"
    assert facts["landlord"].text == hand.players[landlord]["name"]
    assert bytes(hand.seed).hex() in html
    # Every seat's dealt 17 cards plus the 底牌 are the whole deck, each card once.
    assert record.columns == ["Dealt", "Left at the end"]
    dealt = [card["code"] for seat in record.seats for card in seat.cells[0][1]]
    [(label, bottom_faces)] = record.shared
    bottom = [card["code"] for card in bottom_faces]
    assert label == "Bottom cards" and len(dealt) == 51 and len(set(dealt + bottom)) == 54
    assert [seat.role for seat in record.seats].count("Landlord") == 1 and record.seats[landlord].role
    for seat, final in zip(record.seats, details["hands"], strict=True):
        assert sorted(card["code"] for card in seat.cells[1][1]) == sorted(final)
        for card in final:
            assert f'data-card="{card}"' in html


def test_the_history_page_is_paginated_newest_first(client, doudizhu_tier, make_player, monkeypatch):
    monkeypatch.setattr(history, "HISTORY_PAGE_SIZE", 1)
    user = make_player()
    table = sit_connected(user, doudizhu_tier)
    first = play_hand_through_services(table, user)
    services.table_ready(table_id=table.pk, user=user)
    second = play_hand_through_services(table, user)

    client.force_login(user)
    newest = client.get(reverse("tables:history"))
    assert [r.hand.pk for r in newest.context["records"]] == [second.pk]
    assert 'rel="next"' in newest.content.decode()
    older = client.get(reverse("tables:history") + "?page=2")
    assert [r.hand.pk for r in older.context["records"]] == [first.pk]
