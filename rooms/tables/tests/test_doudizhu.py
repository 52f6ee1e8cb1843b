"""The runtime with the real 斗地主 (doudizhu) engine: whole hands with no human click."""

import pytest
from django.db.models import Sum

from rooms.tables import services
from rooms.tables.models import Hand, HandAction, Seat
from rooms.tables.tests.conftest import expire, run_clock
from rooms.tables.tests.helpers import open_hand, sit_connected
from wallets.models import Account, LedgerTransaction

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def play_hand_under_trustee(table, user) -> Hand:
    hand = open_hand(table)
    assert hand is not None and hand.status == "playing"
    services.table_trustee(table_id=table.pk, user=user, on=True)
    for _ in range(60):  # a deal the clock makes card by card (升级: 25 rounds) takes one pass a round
        run_clock(max_steps=1000)
        hand.refresh_from_db()
        if hand.status != "playing":
            break
        expire(hand)  # a phase only the clock ends (a die shown for a few seconds): its time passes
    return hand


def test_bots_and_trustee_play_a_whole_doudizhu_hand_to_settlement(ddz_tier, make_player):
    alice = make_player(coins=5000)
    table = sit_connected(alice, ddz_tier)
    assert Seat.objects.filter(table=table, is_bot=True).count() == 2

    hand = play_hand_under_trustee(table, alice)

    assert hand.status == "settled", hand.cancel_reason
    assert hand.state["phase"] == "finished"
    assert HandAction.objects.filter(hand=hand).count() == hand.action_count > 3
    assert sum(hand.outcome["deltas"]) == 0
    tx = LedgerTransaction.objects.get(key=f"hand:{hand.pk}:settle")
    assert sum(tx.entries.values_list("amount", flat=True)) == 0
    assert Account.objects.get(code="escrow").balance == 0
    # The landlord of the outcome is the one the view names.
    assert hand.outcome["details"].get("winner") in ("landlord", "farmers")


def test_after_several_bot_hands_the_ledger_sums_to_zero_and_escrow_is_empty(ddz_tier, make_player):
    alice = make_player(coins=5000)
    table = sit_connected(alice, ddz_tier)
    for _ in range(3):
        hand = play_hand_under_trustee(table, alice)
        assert hand.status == "settled", hand.cancel_reason
        assert Account.objects.get(code="escrow").balance == 0
        services.table_ready(table_id=table.pk, user=alice)
    assert Account.objects.aggregate(total=Sum("balance"))["total"] == 0
    settled = Hand.objects.filter(status="settled")
    assert settled.count() == 3
    assert LedgerTransaction.objects.filter(kind="settlement").count() == 3
    # Each hand after the first starts with the seat the engine named (the first player out).
    first, second = list(settled.order_by("number"))[:2]
    assert second.config["first_seat"] == first.outcome["details"].get("next_first_seat")
