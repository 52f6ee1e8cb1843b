"""咪牌 on the round runtime: an engine's ``reveal_pause`` lets the top bettor turn the cards (楚汉德州 here).

The pause is the runtime's, for any banker engine that declares one; 楚汉德州 names the areas
楚 and 汉 and pauses after the five community cards (docs/rules/chuhan.md).
"""

import pytest
from django.utils import timezone

import games
from rooms.rounds import services
from rooms.rounds.broadcast import public_state
from rooms.rounds.errors import NotYourReveal
from rooms.rounds.models import Round
from rooms.rounds.tests.conftest import advance, expire, open_round, run_to, stack_shoe
from rooms.tables.models import Table
from wallets.selectors import wallet_balance

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_rounds")]

# 汉 Kh Kd, 楚 As 7c, board 2c 5d 9h Js 3s: 汉 wins with a pair of kings.
HAN_PAIR = ["Kh", "As", "Kd", "7c", "2c", "5d", "9h", "Js", "3s"]
# Both play the board's royal flush: 平, and the winning hand is a straight flush.
TIE_ROYAL = ["2c", "2h", "3d", "3s", "Ts", "Js", "Qs", "Ks", "As"]


@pytest.fixture
def chuhan_tier(db):
    from rooms.models import Game, RoomTier

    info = games.REGISTRY["chuhan"]
    game, _ = Game.objects.get_or_create(
        slug="chuhan",
        defaults={
            "name_zh": info.name_zh,
            "name_en": info.name_en,
            "family": "banker",
            "min_seats": 1,
            "max_seats": 1,
        },
    )
    return RoomTier.objects.create(
        game=game,
        code="chuhan",
        name="初级场",
        name_en="Beginner room",
        base_stake=10,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        rake_bps=0,
        options={},
    )


def bet(table, user, area, amount):
    return services.round_bet(table_id=table.pk, user=user, area=area, amount=amount)


def to_the_pause(rnd):
    """Expire and tick through the betting and the board: stop where the reveal waits (or moves past)."""
    rnd = run_to(rnd, "dealing")
    for _ in range(10):
        rnd.refresh_from_db()
        if rnd.revealed == 5:
            return rnd
        expire(rnd)
        advance(rnd.table_id)
    raise AssertionError(f"the board never came out: {rnd.revealed}")


def test_the_top_bettor_of_the_most_backed_side_turns_the_hands(chuhan_tier, make_player, settings):
    settings.ROUNDS_REVEAL_SECONDS = 8
    alice, bob, carol = (make_player(coins=5000) for _ in range(3))
    table, rnd = open_round(chuhan_tier, alice)
    stack_shoe(rnd, HAN_PAIR)
    bet(table, alice, "chu", 300)  # 楚 totals 500 ...
    bet(table, carol, "chu", 200)
    bet(table, bob, "han", 400)  # ... 汉 only 400, though Bob is the single highest bettor
    bet(table, bob, "full_house", 1000)  # hand-type areas do not count
    rnd = to_the_pause(rnd)
    expire(rnd)
    advance(table.pk)  # the board is out: the pause starts for 楚's top bettor, Alice
    rnd.refresh_from_db()
    assert (rnd.revealer_id, rnd.revealer_area, rnd.revealer_step, rnd.revealed) == (alice.pk, "chu", 5, 5)
    left = rnd.deadline - timezone.now()
    assert timezone.timedelta(seconds=7) < left <= timezone.timedelta(seconds=8)
    # Before the deadline the clock does not turn anything.
    assert advance(table.pk) is False
    state = public_state(Table.objects.get(pk=table.pk))
    assert state["round"]["revealer"] == {
        "user": alice.pk,
        "name": alice.stored_name,
        "area": "chu",
        "waiting": True,
    }
    assert state["round"]["cards"]["han"] == [] and state["round"]["cards"]["chu"] == []
    # Only Alice may turn them.
    with pytest.raises(NotYourReveal):
        services.round_reveal(table_id=table.pk, user=bob)
    rnd.refresh_from_db()
    assert rnd.revealed == 5
    services.round_reveal(table_id=table.pk, user=alice)
    rnd.refresh_from_db()
    assert rnd.revealed == 6 and rnd.deadline - timezone.now() < timezone.timedelta(seconds=2)
    with pytest.raises(NotYourReveal):
        services.round_reveal(table_id=table.pk, user=alice)  # the pause is over
    state = public_state(Table.objects.get(pk=table.pk))
    assert state["round"]["revealer"]["waiting"] is False
    rnd = run_to(rnd, "result")
    assert rnd.status == "settled" and rnd.result["winner"] == "han"
    # 汉 wins with a pair: Bob +400 (汉) −1000 (葫芦); Alice −300; Carol −200.
    assert wallet_balance(user=bob) == 5000 + 400 - 1000
    assert wallet_balance(user=alice) == 5000 - 300 and wallet_balance(user=carol) == 5000 - 200


def test_equal_stakes_go_to_who_reached_them_first(chuhan_tier, make_player):
    alice, bob = make_player(coins=5000), make_player(coins=5000)
    table, rnd = open_round(chuhan_tier, alice)
    bet(table, bob, "han", 100)
    bet(table, alice, "han", 50)
    bet(table, alice, "han", 50)  # Alice reaches 100 after Bob did
    rnd = to_the_pause(rnd)
    assert services.reveal_leader(rnd, ["chu", "han"]) == (bob.pk, "han")


def test_the_clock_turns_the_hands_when_the_revealer_does_not(chuhan_tier, make_player):
    alice = make_player(coins=5000)
    table, rnd = open_round(chuhan_tier, alice)
    bet(table, alice, "han", 100)
    rnd = to_the_pause(rnd)
    expire(rnd)
    advance(table.pk)
    rnd.refresh_from_db()
    assert rnd.revealer_id == alice.pk and rnd.revealed == 5
    expire(rnd)
    advance(table.pk)
    rnd.refresh_from_db()
    assert rnd.revealed == 6  # turned by the clock; the pause is not started again
    assert run_to(rnd, "result").status == "settled"


def test_with_nobody_on_chu_or_han_the_cards_open_by_themselves(chuhan_tier, make_player):
    alice = make_player(coins=5000)
    table, rnd = open_round(chuhan_tier, alice)
    stack_shoe(rnd, TIE_ROYAL)
    bet(table, alice, "tie", 100)
    bet(table, alice, "quads_plus", 10)
    rnd = to_the_pause(rnd)
    expire(rnd)
    advance(table.pk)
    rnd.refresh_from_db()
    assert rnd.revealer_id is None and rnd.revealed == 6  # 001:210: no reveal, straight on
    rnd = run_to(rnd, "result")
    assert rnd.result["winner"] == "tie" and rnd.status == "settled"
    assert wallet_balance(user=alice) == 5000 + 100 * 23 + 10 * 250


def test_on_a_tie_half_of_the_chu_and_han_stakes_come_back(chuhan_tier, make_player):
    alice, bob = make_player(coins=5000), make_player(coins=5000)
    table, rnd = open_round(chuhan_tier, alice)
    stack_shoe(rnd, TIE_ROYAL)
    bet(table, alice, "chu", 100)
    bet(table, bob, "han", 35)
    rnd = run_to(rnd, "result")
    assert Round.objects.get(pk=rnd.pk).status == "settled"
    assert wallet_balance(user=alice) == 5000 - 50
    assert wallet_balance(user=bob) == 5000 - 18  # half of 35 back, rounded down: 17
