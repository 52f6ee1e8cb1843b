"""A 斗地主 table where every seat is under 托管: nobody ever bids, and the hand must still end.

托管 never bids (001:340), and everybody passing redeals (003:125, 001:222); the engine's
``redeal_limit`` ends the hand with no result after the third redeal (docs/rules/doudizhu.md).
"""

import pytest
from django.urls import reverse

from games.tests.test_presentation import redeal_doudizhu
from rooms.tables import services
from rooms.tables.models import HandAction, Seat
from rooms.tables.tests.helpers import open_hand, play_until_over
from rooms.tables.tests.test_verify_page import shown_deals
from wallets.models import Account
from wallets.selectors import ledger_check, wallet_balance

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def test_a_hand_where_every_seat_is_under_tuoguan_ends_void_and_every_coin_comes_back(human_table):
    players = [
        s.user for s in Seat.objects.filter(table=human_table).select_related("user").order_by("index")
    ]
    hand = open_hand(human_table)
    carried = hand.players[0]["carried"]
    assert [p["carried"] for p in hand.players] == [carried] * 3 and 0 < carried < 5000
    for user in players:
        services.table_trustee(table_id=human_table.pk, user=user, on=True)

    hand = play_until_over(hand.pk)

    assert hand.status == "settled"
    assert hand.outcome["deltas"] == [0, 0, 0] and hand.outcome["winners"] == []
    assert hand.outcome["details"]["winner"] == "void" and hand.outcome["details"]["redeals"] == 3
    actions = HandAction.objects.filter(hand=hand)
    assert actions.count() == 12  # four deals, three automatic passes each
    assert all(a.auto and a.action == {"type": "pass"} for a in actions)
    # Nobody won or lost, and the house took no fee: every player holds what they held.
    assert [wallet_balance(user=user) for user in players] == [5000, 5000, 5000]
    assert (Account.objects.filter(code="escrow").values_list("balance", flat=True).first() or 0) == 0
    assert (Account.objects.filter(code="rake").values_list("balance", flat=True).first() or 0) == 0
    assert ledger_check() == []
    # The next hand is not dealt by itself: the table waits, no timer runs.
    assert open_hand(human_table) is None


def test_the_verify_page_calls_a_void_hand_void_not_settled(human_table, client):
    players = [
        s.user for s in Seat.objects.filter(table=human_table).select_related("user").order_by("index")
    ]
    hand = open_hand(human_table)
    for user in players:
        services.table_trustee(table_id=human_table.pk, user=user, on=True)
    hand = play_until_over(hand.pk)
    assert hand.outcome["details"]["winner"] == "void"

    client.force_login(players[0])
    url = reverse("tables:verify", kwargs={"hand_id": hand.pk})
    for language, void, settled in (
        ("en", "Void hand, no coins moved", "Settled"),
        ("zh-hans", "流局，无输赢", "已结算"),
    ):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        status = html.split('class="verify-status">', 1)[1].split("<", 1)[0]
        assert status == void and settled not in status


def test_the_verify_page_shows_every_deal_of_a_hand_dealt_again_in_order(human_table, client):
    """Everybody passed three times: four deals, each from its own stream of the seed, each said why."""
    players = [
        s.user for s in Seat.objects.filter(table=human_table).select_related("user").order_by("index")
    ]
    hand = open_hand(human_table)
    for user in players:
        services.table_trustee(table_id=human_table.pk, user=user, on=True)
    hand = play_until_over(hand.pk)
    assert hand.outcome["details"]["redeals"] == 3

    client.force_login(players[0])
    html = client.get(reverse("tables:verify", kwargs={"hand_id": hand.pk}), HTTP_ACCEPT_LANGUAGE="en")
    html = html.content.decode()

    deals = shown_deals(html)
    assert len(deals) == 4
    for number, shown in enumerate(deals):
        hands, shared = redeal_doudizhu(bytes(hand.seed), dict(hand.config), 3, number, {})
        assert [sorted(cards) for cards in shown["hands"]] == [sorted(cards) for cards in hands]
        assert [(label, sorted(cards)) for label, cards in shown["shared"]] == [
            (label, sorted(cards)) for label, cards in shared
        ]
    assert "Deal 1 of 4" in html and "Deal 4 of 4" in html
    assert html.count("Nobody bid, so the cards were dealt again.") == 3
    # The last deal is the one the hand ended with: what the players held.
    assert [sorted(cards) for cards in deals[-1]["hands"]] == [
        sorted(h) for h in hand.outcome["details"]["hands"]
    ]


def test_under_the_first_bidder_rule_an_all_tuoguan_hand_is_played_out_and_settled(human_table, ddz_tier):
    """The tier's other all-pass rule: after the third redeal the first bidder is landlord at 1 point."""
    ddz_tier.options = {"variant": "classic", "all_pass": "first_bidder"}
    ddz_tier.save(update_fields=["options"])
    # The dealt hand keeps the options it was dealt under: cancel it and deal one under the new rule.
    from rooms.tables.services import hand_cancel

    players = [
        s.user for s in Seat.objects.filter(table=human_table).select_related("user").order_by("index")
    ]
    assert hand_cancel(hand_id=open_hand(human_table).pk, reason="test") is True
    for user in players:
        services.table_trustee(table_id=human_table.pk, user=user, on=True)
        services.table_ready(table_id=human_table.pk, user=user)
    hand = open_hand(human_table)
    assert hand is not None and hand.config.get("all_pass") == "first_bidder"

    hand = play_until_over(hand.pk)

    assert hand.status == "settled"
    details = hand.outcome["details"]
    assert details["bid"] == 1 and details["landlord"] == hand.state["first_bidder"]
    assert sum(hand.outcome["deltas"]) == 0 and any(hand.outcome["deltas"])
    rake = Account.objects.filter(code="rake").values_list("balance", flat=True).first() or 0
    assert sum(wallet_balance(user=user) for user in players) + rake == 15000
    assert ledger_check() == []
