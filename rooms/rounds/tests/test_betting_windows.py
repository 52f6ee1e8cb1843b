"""Several betting windows in one round (an engine's ``betting_windows``), with 保险楚汉德州's engine.

The runtime's growth is for every banker engine: after some reveal steps the round takes
bets again on the window's own areas, then the reveal goes on (with a 咪牌 pause if the
engine declares one there).
"""

from fractions import Fraction

import pytest

import games
from rooms.rounds import services
from rooms.rounds.errors import BadArea
from rooms.rounds.models import Bet
from rooms.rounds.tests.conftest import advance, expire, open_round, run_to, stack_shoe
from wallets.selectors import wallet_balance

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_rounds")]

ENGINE = games.REGISTRY["chuhan_insured"].engine
# 汉 Ah Kd, 楚 Qc Js, flop 2c 7d 9h, turn 3s, river 4c: 汉 wins on ace high; neither later
# street is one-sided enough to be skipped.
COUP = ["Ah", "Qc", "Kd", "Js", "2c", "7d", "9h", "3s", "4c"]


@pytest.fixture
def insured_tier(db):
    from rooms.models import Game, RoomTier

    info = games.REGISTRY["chuhan_insured"]
    game, _ = Game.objects.get_or_create(
        slug=info.slug,
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
        code="insured",
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


def to_phase(rnd, phase: str, *, revealed: int | None = None):
    """Expire and tick until the round is in ``phase`` (at ``revealed`` steps, if given)."""
    for _ in range(40):
        rnd.refresh_from_db()
        if rnd.phase == phase and (revealed is None or rnd.revealed == revealed):
            return rnd
        expire(rnd)
        advance(rnd.table_id)
    raise AssertionError(f"never reached {phase} at {revealed}: {rnd.phase} {rnd.revealed}")


def test_a_round_takes_bets_on_each_street_and_pays_each_at_its_odds(insured_tier, make_player):
    alice, bob, carol = (make_player(coins=5000) for _ in range(3))
    table, rnd = open_round(insured_tier, alice)
    stack_shoe(rnd, COUP)
    bet(table, alice, "chu", 100)
    bet(table, bob, "han", 50)
    bet(table, bob, "high_pair", 20)
    with pytest.raises(BadArea):
        bet(table, alice, "chu_2", 10)  # the turn street's areas are not open yet
    rnd = to_phase(rnd, "dealing")
    # The hands and the flop turn, then the turn street's window opens on its own areas.
    rnd = to_phase(rnd, "betting", revealed=7)
    assert rnd.window == 1
    assert [a["area"] for a in rnd.areas] == ["chu_2", "tie_2", "han_2"]
    street2 = rnd.result["streets"]["2"]["odds"]
    assert rnd.areas[0]["odds"] == f"1:{(street2['chu'] - 100) / 100:.2f}".rstrip("0").rstrip(".")
    with pytest.raises(BadArea):
        bet(table, carol, "full_house", 10)  # hand-type areas only on the first street
    bet(table, carol, "chu_2", 100)
    bet(table, alice, "chu_2", 40)
    # 撤销 in a later window returns only that window's bets.
    services.round_cancel(table_id=table.pk, user=alice)
    standing = Bet.objects.standing().filter(round=rnd, user=alice)
    assert list(standing.values_list("area", "amount")) == [("chu", 100)]
    # The window closes; the 咪牌 waits for the top bettor of the side with the higher odds.
    rnd = to_phase(rnd, "dealing", revealed=7)
    expire(rnd)
    advance(table.pk)
    rnd.refresh_from_db()
    side = "chu" if street2["chu"] >= street2["han"] else "han"
    # Pooled over the streets: on 楚 Alice's 100 (flop) and Carol's 100 (turn), Alice's first; on 汉 Bob.
    leader = alice if side == "chu" else bob
    assert rnd.revealer_id == leader.pk and rnd.revealer_step == 7
    # Named again as the turn street's window closed, and shown to every viewer.
    assert (rnd.revealers[0]["after"], rnd.revealers[0]["user"]) == (7, leader.pk)
    services.round_reveal(table_id=table.pk, user=leader)
    rnd = to_phase(rnd, "betting", revealed=8)
    assert rnd.window == 2 and [a["area"] for a in rnd.areas] == ["chu_3", "tie_3", "han_3"]
    bet(table, bob, "han_3", 30)
    rnd = run_to(rnd, "result")
    assert rnd.status == "settled" and rnd.result["winner"] == "han"
    config = rnd.config
    for user in (alice, bob, carol):
        nets = [
            ENGINE.payout(config, rnd.result, b.area, b.amount)
            for b in Bet.objects.standing().filter(round=rnd, user=user)
        ]
        assert wallet_balance(user=user) == 5000 + sum(nets)
    # 汉 won: Bob's 汉 bets (flop street, river street) pay; Carol's 楚 on the turn street loses.
    assert ENGINE.payout(config, rnd.result, "han_3", 30) == int(
        30 * (Fraction(rnd.result["streets"]["3"]["odds"]["han"], 100) - 1)
    )
    assert wallet_balance(user=carol) == 4900


def test_a_later_window_still_shows_each_players_earlier_bets_at_their_odds(insured_tier, make_player):
    from rooms.rounds.selectors import round_snapshot

    alice, bob = make_player(coins=5000), make_player(coins=5000)
    table, rnd = open_round(insured_tier, alice)
    stack_shoe(rnd, COUP)
    first_odds = {a["area"]: a["odds"] for a in rnd.areas}
    bet(table, alice, "chu", 100)
    bet(table, bob, "chu", 30)
    bet(table, bob, "han", 50)
    rnd = to_phase(rnd, "betting", revealed=7)
    bet(table, alice, "han_2", 20)
    state = round_snapshot(table_id=table.pk, user=alice)
    [street1] = state["round"]["earlier_windows"]
    shown = {a["area"]: a for a in street1["areas"]}
    assert street1["window"] == 0 and list(shown) == list(first_odds)
    assert shown["chu"] == {"area": "chu", "odds": first_odds["chu"], "total": 130, "mine": 100}
    assert shown["han"]["mine"] == 0 and shown["han"]["total"] == 50
    assert {a["area"]: a["mine"] for a in state["round"]["areas"]} == {"chu_2": 0, "tie_2": 0, "han_2": 20}
    assert state["you"]["staked"] == 120
    # Each viewer sees only their own stakes in the earlier window.
    bobs = {
        a["area"]: a["mine"]
        for a in round_snapshot(table_id=table.pk, user=bob)["round"]["earlier_windows"][0]["areas"]
    }
    assert bobs["chu"] == 30 and bobs["han"] == 50
    # The river street: both earlier windows, each at its own odds, through to the result.
    turn_odds = {a["area"]: a["odds"] for a in rnd.areas}
    rnd = to_phase(rnd, "betting", revealed=8)
    state = round_snapshot(table_id=table.pk, user=alice)
    street1, street2 = state["round"]["earlier_windows"]
    assert street2["window"] == 1
    assert {a["area"]: (a["odds"], a["mine"]) for a in street2["areas"]} == {
        area: (odds, 20 if area == "han_2" else 0) for area, odds in turn_odds.items()
    }
    rnd = to_phase(rnd, "result")
    state = round_snapshot(table_id=table.pk, user=alice)
    assert [w["window"] for w in state["round"]["earlier_windows"]] == [0, 1]
