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
    assert "5,000 coins are in play at" in page
    assert reverse("tables:table", args=[table.pk]) in page


def test_a_player_at_no_table_sees_no_coins_in_play(client, make_player):
    bob = make_player(coins=700)
    client.force_login(bob, backend="django.contrib.auth.backends.ModelBackend")
    page = client.get(reverse("wallets:wallet"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "in play" not in page
