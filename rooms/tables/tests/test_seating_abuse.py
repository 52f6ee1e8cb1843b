"""Abuse of seating and the coins at stake: what a hostile player tries between hands.

test_abuse.py covers hostile socket messages; here the player plays by the
protocol and bends the money rules instead: an account that passes for a bot,
and a wallet emptied after sitting down.
"""

from __future__ import annotations

import pytest

from rooms.tables import services
from rooms.tables.models import Hand, Seat
from wallets.selectors import wallet_balance

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_tables")]


def test_a_players_account_named_like_a_bot_is_never_seated_or_funded_as_a_bot(ddz_tier, make_player):
    """A person named ``bot_...`` (made before sign-up refused the name, or by staff) stays a person.

    bot_acquire took any free user whose name starts with ``bot_``: such a
    player, broke, was seated as a bot and topped up from the cashier.
    """
    from django.contrib.auth import get_user_model

    mallory = get_user_model().objects.create_user(username="bot_mallory", password="pw-Secret-123")
    assert wallet_balance(user=mallory) == 0
    alice = make_player(coins=5000)

    table = services.table_quick_start(tier_id=ddz_tier.pk, user=alice)

    seated = list(Seat.objects.filter(table=table).values_list("user__username", "is_bot"))
    assert ("bot_mallory", True) not in seated
    assert not Seat.objects.filter(user=mallory).exists()
    assert wallet_balance(user=mallory) == 0
    hand = Hand.objects.get(table=table)
    assert [p["is_bot"] for p in hand.players].count(True) == 2
    assert mallory.pk not in [p["user"] for p in hand.players]
