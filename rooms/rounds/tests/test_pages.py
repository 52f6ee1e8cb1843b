"""The 百家乐 table page and the game page's 进入 button, rendered by Django (the browser test drives them live)."""

import json
import re

import pytest
from django.urls import reverse

from rooms.game_pages import page_for
from rooms.rounds.pages import ROUND_LABELS
from rooms.rounds.tests.conftest import make_tier

pytestmark = pytest.mark.django_db


def _json_script(html: str, element_id: str) -> dict:
    match = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', html, re.S)
    assert match, f"no #{element_id} script tag"
    return json.loads(match.group(1))


def test_the_game_page_offers_enter_to_a_banker_tier(client, make_player):
    tier = make_tier(fixed_minimum=100)
    client.force_login(make_player(coins=1000))

    html = client.get(reverse("rooms:game", args=["baccarat"])).content.decode()

    enter = reverse("rounds:enter", args=[tier.pk])
    assert f'action="{enter}"' in html
    assert ">Enter</button>" in html
    assert "Quick start" not in html
    assert "1 player" not in html  # seats mean nothing in a banker game


def test_the_lobby_counts_players_at_a_banker_table_once_each_and_shows_no_seat_count(client, make_player):
    from rooms.rounds.services import round_enter, round_presence

    tier = make_tier(fixed_minimum=100)
    alice, bob = make_player(coins=1000), make_player(coins=1000)
    table = round_enter(tier_id=tier.pk, user=alice)
    round_presence(table_id=table.pk, user=alice, channel="phone", connected=True)
    round_presence(table_id=table.pk, user=alice, channel="desktop", connected=True)
    round_presence(table_id=table.pk, user=bob, channel="bob", connected=True)
    round_presence(table_id=table.pk, user=bob, channel="bob", connected=False)
    client.force_login(alice)

    lobby = client.get(reverse("rooms:lobby")).content.decode()
    card = lobby[lobby.index("Baccarat") :]
    card = card[: card.index("</li>")]
    assert "1 playing" in card  # alice's two tabs are one player; bob has left
    assert "1 player<" not in card

    game = client.get(reverse("rooms:game", args=["baccarat"])).content.decode()
    assert re.search(r'class="seated">1<', game)


def test_the_game_page_disables_enter_below_the_tier_minimum(client, make_player):
    tier = make_tier(fixed_minimum=5000)
    client.force_login(make_player(coins=1000))

    html = client.get(reverse("rooms:game", args=["baccarat"])).content.decode()

    assert reverse("rounds:enter", args=[tier.pk]) not in html
    assert re.search(r"<button[^>]*disabled[^>]*>Enter</button>", html)


def test_the_table_page_asks_a_visitor_to_log_in(client, make_player):
    from rooms.rounds.services import round_enter

    table = round_enter(tier_id=make_tier().pk, user=make_player(coins=1000))

    response = client.get(reverse("rounds:table", args=[table.pk]))

    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


def test_the_table_page_carries_its_socket_and_every_label_translated(client, make_player):
    from rooms.rounds.services import round_enter

    player = make_player(coins=1000)
    table = round_enter(tier_id=make_tier().pk, user=player)
    client.force_login(player)

    response = client.get(reverse("rounds:table", args=[table.pk]))

    assert response.status_code == 200
    html = response.content.decode()
    config = _json_script(html, "table-config")
    assert config["wsPath"] == f"/ws/rounds/{table.pk}/"
    labels = _json_script(html, "table-labels")
    assert set(labels) == set(ROUND_LABELS) | set(page_for("baccarat").labels)
    assert labels["area_banker"] == "Banker" and labels["phase_betting"] == "Place your bets"
    assert "js/baccarat.js" in html and "css/baccarat.css" in html


@pytest.mark.zh
def test_the_table_page_speaks_chinese_by_default(client, make_player):
    from django.utils import translation

    from rooms.rounds.services import round_enter

    player = make_player(coins=1000)
    table = round_enter(tier_id=make_tier().pk, user=player)
    client.force_login(player)

    with translation.override("zh-hans"):
        html = client.get(reverse("rounds:table", args=[table.pk])).content.decode()

    # The connection badge comes from the table pages' labels, already translated.
    assert _json_script(html, "table-labels")["connected"] != "Connected"


@pytest.mark.zh
@pytest.mark.parametrize(
    ("language", "headings"), [("zh-hans", ("珠盘路", "大路")), ("en", ("Bead plate", "Big road"))]
)
def test_each_road_is_named_once_in_chinese_and_with_its_chinese_term_in_english(
    client, make_player, language, headings
):
    from django.conf import settings

    from rooms.rounds.services import round_enter

    player = make_player(coins=1000)
    table = round_enter(tier_id=make_tier().pk, user=player)
    client.force_login(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get(reverse("rounds:table", args=[table.pk])).content.decode()

    roads = html[html.index('class="bc-roads"') : html.index("</aside>")]
    for heading in headings:
        assert heading in roads
    # A Chinese page said 珠盘路 珠盘路; an English one keeps the term beside its translation.
    assert roads.count("珠盘路") == 1 and roads.count("大路") == 1


def test_a_seated_table_is_not_a_banker_page(client, make_player):
    from rooms.models import Game, RoomTier
    from rooms.services import catalogue_sync
    from rooms.tables.models import Table

    catalogue_sync()
    tier = RoomTier.objects.create(
        game=Game.objects.get(slug="doudizhu"),
        code="t-ddz",
        name="初级场",
        base_stake=1,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=0,
        seats=3,
    )
    table = Table.objects.create(tier=tier, seat_count=3)
    client.force_login(make_player(coins=1000))

    assert client.get(reverse("rounds:table", args=[table.pk])).status_code == 404


@pytest.mark.usefixtures("fast_rounds")
def test_the_wallet_page_says_where_coins_bet_on_a_round_are_until_the_payout(client, bacc_tier, make_player):
    """A bet leaves the wallet for escrow at once; as for a seated hand, the wallet page says where it is."""
    from rooms.rounds import services
    from rooms.rounds.tests.conftest import PLAYER_NATURAL_9, open_round, run_to, stack_shoe

    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    services.round_bet(table_id=table.pk, user=alice, area="player", amount=100)
    services.round_bet(table_id=table.pk, user=alice, area="tie", amount=20)
    client.force_login(alice)

    page = client.get(reverse("wallets:wallet"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "120 coins are bet at" in page
    assert reverse("rounds:table", args=[table.pk]) in page
    page_zh = client.get(reverse("wallets:wallet"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "120金币已在" in page_zh and "本局派彩时结算" in page_zh

    stack_shoe(rnd, PLAYER_NATURAL_9)
    run_to(rnd, "result")  # eager Celery: paid on entering the result
    page = client.get(reverse("wallets:wallet"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "coins are bet at" not in page


@pytest.mark.zh
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_game_page_names_each_baccarat_table_in_words_not_its_option_code(client, make_player, language):
    make_tier(code="classic", variant="commission")
    make_tier(code="super6", variant="super6")
    client.force_login(make_player(coins=1000))

    html = client.get(
        reverse("rooms:game", args=["baccarat"]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()

    variants = re.findall(r'<p class="variant">(.*?)</p>', html)
    assert len(variants) == 2
    # The player reads which table takes a commission, not the raw option code.
    assert "commission" not in variants and "super6" not in variants
    if language == "en":  # English only on an English page
        assert variants == ["Banker wins pay a commission of 5%", "No commission; Super 6 and big/small bets"]
    else:
        assert "5%" in variants[0] and "免佣" in variants[1]
