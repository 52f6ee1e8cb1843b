"""进入: the enter button checks the tier's entry rule and leads to the tier's one banker table."""

import pytest
from django.urls import reverse

from rooms.tables.models import Table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_rounds")]


def test_entering_redirects_to_the_tiers_table(client, bacc_tier, make_player):
    alice, bob = make_player(coins=1000), make_player(coins=1000)
    client.force_login(alice)
    response = client.post(reverse("rounds:enter", args=[bacc_tier.pk]))
    table = Table.objects.get(tier=bacc_tier)
    assert response.status_code == 302
    assert response["Location"] == reverse("rounds:table", args=[table.pk]) == f"/rounds/{table.pk}/"
    client.force_login(bob)
    assert client.post(reverse("rounds:enter", args=[bacc_tier.pk]))["Location"] == f"/rounds/{table.pk}/"


def test_a_refused_entry_goes_back_to_the_game_page_with_the_reason(client, bacc_tier, make_player):
    poor = make_player(coins=50)
    client.force_login(poor)
    response = client.post(reverse("rounds:enter", args=[bacc_tier.pk]), follow=True)
    assert response.redirect_chain[0][0] == reverse("rooms:game", args=["baccarat"])
    assert "needs at least 100 coins to enter; your balance is 50" in response.content.decode()
    assert not Table.objects.filter(tier=bacc_tier).exists()


def test_entering_needs_a_signed_in_post(client, bacc_tier):
    assert client.get(reverse("rounds:enter", args=[bacc_tier.pk])).status_code == 405
    response = client.post(reverse("rounds:enter", args=[bacc_tier.pk]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "Baccarat · Classic room · round {n}"), ("zh-hans", "百家乐 · 经典场 · 第{n}局")],
)
def test_the_wallet_says_which_round_took_a_bet(client, bacc_tier, make_player, language, words):
    from rooms.rounds import services
    from rooms.rounds.tests.conftest import open_round

    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    services.round_bet(table_id=table.pk, user=alice, area="player", amount=100)
    client.force_login(alice)
    client.cookies["django_language"] = language
    page = client.get(reverse("wallets:wallet")).content.decode()
    assert words.format(n=rnd.number) in page
    assert f"round:{rnd.pk}" not in page
