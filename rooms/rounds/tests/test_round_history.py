"""战绩 of the banker tables: each paid round with its result by side, the bets' nets and the shoe's verify link."""

import pytest
from django.urls import reverse

from rooms.rounds import services
from rooms.rounds.tests.conftest import PLAYER_NATURAL_9, open_round, run_to, stack_shoe
from rooms.rounds.tests.conftest import make_tier as baccarat_tier
from rooms.rounds.tests.test_yaoyaole_rounds import make_tier as dice_tier
from rooms.rounds.tests.test_yaoyaole_rounds import stack_throw
from wallets.models import LedgerEntry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_rounds")]


def bet(table, user, area, amount):
    services.round_bet(table_id=table.pk, user=user, area=area, amount=amount)


def test_the_record_lists_each_paid_round_with_its_result_bets_and_shoe(client, make_player):
    alice, bob = make_player(coins=5000), make_player(coins=5000)
    table, rnd = open_round(dice_tier(), alice)
    bet(table, alice, "red", 100)
    bet(table, alice, "blue_pair", 10)
    bet(table, bob, "tie", 50)
    stack_throw(rnd, [6, 6, 5], [2, 2, 1])
    run_to(rnd, "result")
    rnd.refresh_from_db()
    cards_table, other = open_round(baccarat_tier(), alice)
    bet(cards_table, alice, "player", 100)
    stack_shoe(other, PLAYER_NATURAL_9)
    run_to(other, "result")
    # A round alice bet on and cancelled is not hers.
    nxt = open_round(baccarat_tier(code="other"), alice)
    bet(nxt[0], alice, "tie", 10)
    services.round_cancel(table_id=nxt[0].pk, user=alice)
    run_to(nxt[1], "result")

    client.force_login(alice)
    html = client.get(reverse("rounds:history"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert html.count('class="history-hand history-round"') == 2
    dice = html[html.index(f'data-round="{rnd.pk}"') :]
    dice = dice[: dice.index("</li>")]
    paid = sum(
        LedgerEntry.objects.filter(transaction__key=rnd.settle_key, account__user=alice).values_list(
            "amount", flat=True
        )
    )
    assert f'data-delta="{paid - 110}"' in dice and paid - 110 == 100 + 13
    assert '<tr data-area="red" data-net="100"><td>Red</td><td>100</td><td>+100</td></tr>' in dice
    assert '<tr data-area="blue_pair" data-net="13"><td>Blue pair</td>' in dice
    assert "<dt>Red</dt><dd>6 6 5</dd>" in dice and "<dt>Blue</dt><dd>2 2 1</dd>" in dice
    assert reverse("rounds:verify_shoe", args=[table.pk, rnd.shoe.number]) in dice
    assert 'data-area="tie"' not in dice  # bob's bet is bob's
    cards = html[html.index(f'data-round="{other.pk}"') :]
    assert "<dt>Player</dt><dd>9s Ks</dd>" in cards[: cards.index("</li>")]

    record = client.get(reverse("tables:history"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'href="{reverse("rounds:history")}"' in record
    client.force_login(bob)
    zh = client.get(reverse("rounds:history"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "百人场的下注记录" in zh and "<td>平</td>" in zh
