"""The runtime with the real 十三水 engine: one simultaneous 理牌 countdown, 托管, settlement, 战绩."""

import pytest
from django.urls import reverse

import games
from rooms.tables.clock import actors_deadline
from rooms.tables.models import Hand, HandAction, Seat
from rooms.tables.tests.conftest import expire, run_clock
from rooms.tables.tests.helpers import open_hand, sit_connected
from rooms.tables.tests.test_abuse import game_tier
from wallets.models import Account, LedgerTransaction

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]
ENGINE = games.REGISTRY["shisanshui"].engine


def test_a_hand_is_arranged_at_once_timed_out_and_settled_with_the_rake(make_player, client):
    alice = make_player(coins=5000)
    table = sit_connected(alice, game_tier("shisanshui"))
    hand = open_hand(table)
    me = Seat.objects.get(user=alice).index
    assert len(ENGINE.actors(hand.state)) == 4  # every seat arranges in the same countdown
    deadline = actors_deadline(hand)

    run_clock()  # the bots confirm at once; alice's countdown is the round's, not a fresh one
    hand.refresh_from_db()
    assert ENGINE.actors(hand.state) == [me]
    assert actors_deadline(hand) == deadline

    expire(hand)  # her time runs out: the best arrangement (or her special hand) is played for her
    run_clock()
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED, hand.cancel_reason
    mine = HandAction.objects.get(hand=hand, seat=me)
    best = {"type": "special"} if hand.state["_specials"][me] else hand.state["_options"][me][0]
    assert mine.auto and mine.action == best
    outcome = hand.outcome
    assert sum(outcome["deltas"]) == 0
    assert sum(outcome["details"]["water"]) == 0
    won = sum(d for d in outcome["deltas"] if d > 0)
    assert outcome["rake"] == sum(d * 500 // 10000 for d in outcome["deltas"] if d > 0) <= won
    tx = LedgerTransaction.objects.get(key=f"hand:{hand.pk}:settle")
    assert sum(tx.entries.values_list("amount", flat=True)) == 0
    assert Account.objects.get(code="escrow").balance == 0

    # 战绩: every seat's three piles, as 比牌 showed them to everyone.
    client.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    page = client.get(reverse("tables:history"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'data-hand="{hand.pk}"' in page and "Middle pile" in page
    for piles in hand.state["arrangements"]:
        for card in piles["front"] + piles["middle"] + piles["back"]:
            assert f'data-card="{card}"' in page, card
