"""The 战绩 page shows a 炸金花 hand's cards exactly as the player's final view does."""

import pytest
from django.urls import reverse

import games
from rooms.tables.tests.helpers import my_seat, sit_connected
from rooms.tables.tests.test_zhajinhua_runtime import play_out, zjh_game, zjh_tier  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def test_history_shows_only_the_cards_the_rules_reveal_to_the_player(zjh_tier, make_player, client):  # noqa: F811
    alice = make_player(coins=5000)
    table = sit_connected(alice, zjh_tier)
    hand = play_out(table, alice)
    assert hand.status == "settled"
    seat = my_seat(alice).index
    final_view = games.REGISTRY["zhajinhua"].engine.view(hand.state, seat)

    client.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    page = client.get(reverse("tables:history"), HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert f'data-hand="{hand.pk}"' in page
    assert "Dealt" not in page  # the one-column layout, not 斗地主's dealt / left
    hidden_everywhere = {card for cards in hand.state["_hands"] for card in cards}
    for index, cards in enumerate(final_view["hands"]):
        row = page.split(f'data-seat="{index}"', 1)[1].split("</tr>", 1)[0]
        if cards:
            for card in cards:
                assert f'data-card="{card}"' in row, (index, card)
                hidden_everywhere.discard(card)
        else:
            assert "not shown" in row
    # No card the final view hides appears anywhere on the page.
    for card in hidden_everywhere:
        assert f'data-card="{card}"' not in page, card
    assert bytes(hand.seed).hex() in page
