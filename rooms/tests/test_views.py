"""The lobby and a game's room page, for visitors and for signed-in players."""

import pytest
from django.urls import reverse

from rooms.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(monkeypatch):
    """Pretend the table runtime has these humans seated (tier id → count)."""
    counts: dict[int, int] = {}
    monkeypatch.setattr("rooms.selectors.seated_counts_by_tier", lambda: dict(counts))
    return counts


def test_lobby_with_no_games_explains_how_to_add_them(client, registry):
    response = client.get(reverse("rooms:lobby"))
    assert response.status_code == 200
    assert "load_demo" in response.content.decode()


def test_lobby_shows_game_cards_to_a_visitor(client, make_tier, seated):
    tier = make_tier(room_factor=1)
    make_tier(room_factor=5)
    seated[tier.pk] = 2
    response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    # An English page names the game in English only.
    assert "Test Cards" in html and "测试牌" not in html
    assert 'href="/games/fakecards/"' in html
    assert "2 rooms" in html and "from 96 coins" in html and "2 playing" in html
    assert f"{reverse('accounts:login')}?next=/" in html
    assert "css/lobby.css" in html


def test_lobby_shows_a_signed_in_players_balance(client, make_tier, make_player):
    make_tier()
    client.force_login(make_player(777, username="dora"))
    html = client.get("/").content.decode()
    assert "777 coins" in html and "Dora" in html


def test_game_page_asks_a_visitor_to_log_in(client, make_tier):
    make_tier(name="初级场")
    response = client.get(reverse("rooms:game", args=["fakecards"]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "初级场" in html and "Log in to play" in html
    assert f"{reverse('accounts:login')}?next=/games/fakecards/" in html
    assert "<form" not in html.split('class="tier-grid"')[1]


def test_game_page_offers_quick_start_and_disables_a_tier_above_the_balance(
    client, make_tier, make_player, seated
):
    novice = make_tier(name="初级场", room_factor=1)
    middle = make_tier(name="中级场", base_stake=2, room_factor=5)
    seated[novice.pk] = 3
    client.force_login(make_player(200))
    html = client.get("/games/fakecards/").content.decode()
    novice_card, middle_card = html.split(f'data-tier="{novice.pk}"')[1].split(f'data-tier="{middle.pk}"')
    assert f'action="{reverse("tables:quick_start", args=[novice.pk])}"' in novice_card
    assert "csrfmiddlewaretoken" in novice_card
    assert '<dd class="seated">3</dd>' in novice_card
    assert '<dd class="minimum">96</dd>' in novice_card and "5%" in novice_card
    assert "<form" not in middle_card and "disabled" in middle_card
    assert "中级场 needs at least 480 coins to enter; your balance is 200." in middle_card


def test_game_page_shows_a_closed_tier_disabled(client, make_tier, make_player):
    make_tier(name="高级场", is_open=False)
    client.force_login(make_player(10000))
    html = client.get("/games/fakecards/").content.decode()
    assert "高级场 is closed right now." in html and "<form" not in html.split('class="tier-grid"')[1]


def test_unknown_or_disabled_game_is_not_found(client, game):
    assert client.get("/games/nosuchgame/").status_code == 404
    Game.objects.filter(pk=game.pk).update(is_enabled=False)
    assert client.get("/games/fakecards/").status_code == 404
    assert "测试牌" not in client.get("/").content.decode()


def test_every_page_names_its_icon_so_browsers_do_not_ask_for_a_missing_favicon(client, registry):
    from django.contrib.staticfiles import finders

    html = client.get(reverse("rooms:lobby")).content.decode()

    # Without a declared icon every visit logged a 404 for /favicon.ico in the console.
    assert '<link rel="icon" type="image/svg+xml" href="/static/img/icon.svg">' in html
    assert finders.find("img/icon.svg")


def test_coin_amounts_on_the_game_page_are_grouped_by_thousands(client, make_tier, make_player):
    make_tier(name="大师场", room_factor=200)  # 200 × 96 = 19,200 to enter
    client.force_login(make_player(12345))
    html = client.get(reverse("rooms:game", args=["fakecards"])).content.decode()
    assert '<dd class="minimum">19,200</dd>' in html
    assert "大师场 needs at least 19,200 coins to enter; your balance is 12,345." in html
