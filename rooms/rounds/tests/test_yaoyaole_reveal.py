"""开骰盅 on the round runtime (001:398): red's top bettor opens red's cup, then blue's top bettor blue's.

The engine declares two reveal pauses (docs/rules/yaoyaole.md); the runtime names each opener
when the betting closes, waits for them, opens the whole cup on their word or by the clock,
and skips the wait for a side nobody bet on.
"""

import pytest
from django.utils import timezone

from rooms.rounds import services
from rooms.rounds.broadcast import public_state
from rooms.rounds.errors import NotYourReveal
from rooms.rounds.tests.conftest import advance, expire, open_round, run_to
from rooms.rounds.tests.test_yaoyaole_rounds import make_tier, stack_throw
from rooms.tables.models import Table
from wallets.selectors import wallet_balance

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_rounds")]


def bet(table, user, area, amount):
    return services.round_bet(table_id=table.pk, user=user, area=area, amount=amount)


def step(rnd):
    """Let the round's time run out once and tick: the next thing the clock does."""
    expire(rnd)
    advance(rnd.table_id)
    rnd.refresh_from_db()
    return rnd


def shown(table) -> dict:
    return public_state(Table.objects.get(pk=table.pk))["round"]


def test_each_sides_top_bettor_opens_its_cup(make_player, settings):
    settings.ROUNDS_REVEAL_SECONDS = 6
    alice, bob, carol, dave = (make_player(coins=5000) for _ in range(4))
    table, rnd = open_round(make_tier(), alice)
    stack_throw(rnd, [6, 5, 4], [1, 1, 2])
    bet(table, alice, "red", 300)
    bet(table, carol, "red", 200)
    bet(table, carol, "red_triple", 500)  # 红豹子 is not 红: Carol is not red's top bettor
    bet(table, dave, "blue", 100)
    bet(table, bob, "blue", 400)
    rnd = run_to(rnd, "dealing")
    # Once the betting closes, everybody sees who opens which cup.
    assert shown(table)["revealers"] == [
        {"after": 0, "areas": ["red"], "user": alice.pk, "name": alice.stored_name, "area": "red"},
        {"after": 3, "areas": ["blue"], "user": bob.pk, "name": bob.stored_name, "area": "blue"},
    ]
    rnd = step(rnd)  # red's cup waits for Alice
    assert (rnd.revealer_id, rnd.revealer_step, rnd.revealed) == (alice.pk, 0, 0)
    left = rnd.deadline - timezone.now()
    assert timezone.timedelta(seconds=3) < left <= timezone.timedelta(seconds=6)
    assert advance(table.pk) is False  # the clock waits
    state = shown(table)
    assert state["revealer"] == {"user": alice.pk, "name": alice.stored_name, "area": "red", "waiting": True}
    assert state["cards"] == {"red": [], "blue": []}
    for other in (bob, carol):
        with pytest.raises(NotYourReveal):
            services.round_reveal(table_id=table.pk, user=other)
    services.round_reveal(table_id=table.pk, user=alice)
    state = shown(table)
    assert state["cards"] == {"red": [6, 5, 4], "blue": []}  # the whole cup at once
    assert state["totals"]["red"] == {"points": 15, "combo": "straight"}
    assert state["revealer"]["waiting"] is False
    with pytest.raises(NotYourReveal):
        services.round_reveal(table_id=table.pk, user=alice)  # red's cup is open
    rnd = step(rnd)  # blue's cup waits for Bob
    assert (rnd.revealer_id, rnd.revealer_area, rnd.revealer_step, rnd.revealed) == (bob.pk, "blue", 3, 3)
    with pytest.raises(NotYourReveal):
        services.round_reveal(table_id=table.pk, user=alice)
    services.round_reveal(table_id=table.pk, user=bob)
    assert shown(table)["cards"] == {"red": [6, 5, 4], "blue": [1, 1, 2]}
    rnd = run_to(rnd, "result")
    assert rnd.status == "settled" and rnd.result["winner"] == "red"
    # Payouts as without the opening: red 15 points pays 1赔2 (+1 per coin).
    assert wallet_balance(user=alice) == 5000 + 300
    assert wallet_balance(user=carol) == 5000 + 200 - 500
    assert wallet_balance(user=bob) == 5000 - 400 and wallet_balance(user=dave) == 5000 - 100


def test_a_cup_opens_by_the_clock_when_its_opener_does_not(make_player):
    alice, bob = make_player(coins=5000), make_player(coins=5000)
    table, rnd = open_round(make_tier(), alice)
    bet(table, alice, "red", 100)
    bet(table, bob, "blue", 100)
    rnd = step(run_to(rnd, "dealing"))
    assert (rnd.revealer_id, rnd.revealed) == (alice.pk, 0)
    rnd = step(rnd)  # Alice's time is up: the clock opens red's whole cup
    assert rnd.revealed == 3 and len(shown(table)["cards"]["red"]) == 3
    rnd = step(rnd)
    assert (rnd.revealer_id, rnd.revealed) == (bob.pk, 3)
    rnd = step(rnd)
    assert rnd.revealed == 6
    assert run_to(rnd, "result").status == "settled"


def test_a_side_nobody_bet_on_opens_without_a_wait(make_player):
    alice = make_player(coins=5000)
    table, rnd = open_round(make_tier(), alice)
    bet(table, alice, "blue", 100)
    bet(table, alice, "red_pair", 100)  # 红对子 names no opener for red's cup
    rnd = run_to(rnd, "dealing")
    assert [entry["user"] for entry in shown(table)["revealers"]] == [None, alice.pk]
    rnd = step(rnd)
    assert rnd.revealer_id is None and rnd.revealed == 3  # red's cup opened straight away
    rnd = step(rnd)
    assert (rnd.revealer_id, rnd.revealed) == (alice.pk, 3)  # blue's waits for Alice
    services.round_reveal(table_id=table.pk, user=alice)
    assert run_to(rnd, "result").status == "settled"


def test_with_no_bets_both_cups_open_by_the_clock(make_player):
    alice = make_player(coins=5000)
    table, rnd = open_round(make_tier(), alice)
    rnd = step(run_to(rnd, "dealing"))
    assert rnd.revealer_id is None and rnd.revealed == 3
    rnd = step(rnd)
    assert rnd.revealer_id is None and rnd.revealed == 6
    assert run_to(rnd, "result").status == "settled"
