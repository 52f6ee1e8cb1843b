"""The wallet page says where the coins of an open hand are."""

import pytest
from django.urls import reverse

from rooms.tables.tests.helpers import open_hand, sit_connected

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def test_coins_carried_into_an_open_hand_are_shown_on_the_wallet_page(client, tier, make_player):
    alice = make_player(coins=5000)
    table = sit_connected(alice, tier)
    hand = open_hand(table)
    assert hand is not None, "bots fill the table and a hand starts"
    client.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    page = client.get(reverse("wallets:wallet"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1,000 coins are in play at" in page  # 10 × the minimum; 4,000 stay available
    assert reverse("tables:table", args=[table.pk]) in page


def test_a_player_at_no_table_sees_no_coins_in_play(client, make_player):
    bob = make_player(coins=700)
    client.force_login(bob, backend="django.contrib.auth.backends.ModelBackend")
    page = client.get(reverse("wallets:wallet"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "in play" not in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Fight the Landlord · Novice room · table {t} · hand {n}"),
        ("zh-hans", "斗地主 · 初级场 · {t}号桌 · 第{n}局"),
    ],
)
def test_the_wallet_says_which_hand_moved_the_coins_and_links_its_check_once_it_is_over(
    client, make_player, language, words
):
    from rooms.tables.tests.test_abuse import game_tier
    from rooms.tables.tests.test_doudizhu import play_hand_under_trustee

    alice = make_player(coins=5000)
    table = sit_connected(alice, game_tier("doudizhu"))
    client.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    client.cookies["django_language"] = language
    playing = open_hand(table)
    assert playing is not None
    verify_url = reverse("tables:verify", kwargs={"hand_id": playing.pk})

    # While the hand is played its stake is named, with nothing to verify yet.
    page = client.get(reverse("wallets:wallet")).content.decode()
    assert words.format(t=table.pk, n=playing.number) in page
    assert f"hand:{playing.pk}" not in page  # the ledger's own reference is not for players
    assert verify_url not in page

    hand = play_hand_under_trustee(table, alice)
    assert hand.pk == playing.pk and hand.status == "settled", hand.cancel_reason
    page = client.get(reverse("wallets:wallet")).content.decode()
    assert f'<a href="{verify_url}">{words.format(t=table.pk, n=hand.number)}</a>' in page
    assert f"hand:{hand.pk}" not in page
