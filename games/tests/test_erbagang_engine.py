"""二八杠 hands from start to end: 抢庄, bets, the die, the banker against each player, the pledge cap."""

import pytest

from games.base import IllegalAction, SeatSpec, SeededRng
from games.erbagang import GAME
from games.erbagang.settle import settle

ENGINE = GAME.engine


def start(coins, base=10, seed=1):
    seats = [SeatSpec(i + 1, c) for i, c in enumerate(coins)]
    return ENGINE.new_hand(
        {**GAME.default_options, "base_stake": base}, seats, SeededRng(seed.to_bytes(16, "big"), "h")
    )


def play(state, grabs, bets, hands_in_deal_order=None, die=None):
    """Bid ``grabs``, bet ``bets`` (seat → amount), set the tiles the deal gives (seat order from the die)."""
    if die is not None:
        state["_die"] = die
    for seat, multiple in enumerate(grabs):
        state = ENGINE.apply(state, seat, {"type": "grab", "multiple": multiple})
    for seat, amount in bets.items():
        if state["phase"] == "bet":
            state = ENGINE.apply(state, seat, {"type": "bet", "amount": amount})
    assert state["phase"] == "dice"
    if hands_in_deal_order is not None:
        order = ENGINE.deal_order(state)
        hands = [None] * len(order)
        for seat, hand in zip(order, hands_in_deal_order, strict=True):
            hands[seat] = hand.split()
        state["_hands"] = hands
    return ENGINE.on_deadline(state)


def banker_of(state):
    return state["banker"]


def test_only_one_bidder_takes_the_bank_and_the_die_orders_the_deal():
    state = start([1000, 1000, 1000, 1000])
    state["_die"] = 3
    for seat, m in enumerate([0, 5, 0, 0]):
        state = ENGINE.apply(state, seat, {"type": "grab", "multiple": m})
    assert state["phase"] == "bet" and state["banker"] == 1 and state["pledge"] == 50
    assert ENGINE.actors(state) == [0, 2, 3]
    view = ENGINE.view(state, 0)
    assert view["die"] is None and view["hands"] is None
    for seat in (0, 2, 3):
        state = ENGINE.apply(state, seat, {"type": "bet", "amount": 10})
    # 001:285: 1 is the banker, 2 the banker's next seat: a 3 deals seat 3 first.
    assert state["phase"] == "dice" and state["die"] == 3 and state["first"] == 3
    assert ENGINE.deal_order(state) == [3, 0, 1, 2]
    assert ENGINE.actors(state) == [] and ENGINE.deadline_seconds(state) == 3
    assert ENGINE.view(state, 0)["hands"] is None  # the die is shown before the tiles
    done = ENGINE.on_deadline(state)
    assert done["phase"] == "finished" and ENGINE.outcome(done) is not None


def test_the_banker_wins_ties_and_pays_one_to_one():
    state = start([1000, 1000, 1000])
    # die 1: the banker (seat 0, the only bidder) is dealt first, then seats 1 and 2.
    end = play(state, [5, 0, 0], {1: 30, 2: 20}, ["3p 6p", "6p 3p", "9p 9p"], die=1)
    outcome = ENGINE.outcome(end)
    assert outcome.deltas == [30 - 20, -30, 20]
    assert outcome.details["player_wins"] == [None, False, True]
    assert outcome.details["kinds"] == ["points", "points", "pair"]


def test_tongsha_and_tongpei_only_at_a_full_table():
    state = start([1000] * 4)
    end = play(state, [5, 0, 0, 0], {1: 10, 2: 10, 3: 10}, ["5z 5z", "9p 9p", "2p 8p", "4p 5p"], die=1)
    assert ENGINE.outcome(end).details["sweep"] == "all_lose"  # 通杀
    assert ENGINE.outcome(end).deltas == [30, -10, -10, -10]
    state = start([1000] * 4)
    end = play(state, [5, 0, 0, 0], {1: 10, 2: 10, 3: 10}, ["1p 9p", "1p 5z", "2p 8p", "4p 5p"], die=1)
    assert ENGINE.outcome(end).details["sweep"] == "all_win"  # 通赔
    state = start([1000] * 3)
    end = play(state, [5, 0, 0], {1: 10, 2: 10}, ["5z 5z", "9p 9p", "2p 8p"], die=1)
    assert ENGINE.outcome(end).details["sweep"] is None  # three seats: no 通杀


def test_the_pledge_caps_what_the_banker_pays():
    state = start([5000, 1000, 1000, 1000], base=10)
    # Bank bid 1×: the banker pays at most 10 of their own coins beyond what the losers pay.
    end = play(state, [1, 0, 0, 0], {1: 100, 2: 50, 3: 30}, ["3p 4p", "5z 5z", "9p 9p", "1p 2p"], die=1)
    deltas = ENGINE.outcome(end).deltas
    assert deltas[0] == -10
    assert deltas[3] == -30
    assert deltas[1] + deltas[2] == 40  # the winners share 30 + 10 in proportion to 100 : 50
    assert deltas[1:3] == [27, 13]


def test_the_banker_wins_at_most_what_they_carried():
    assert settle([0, 100, 100], [50, 100, 100], 0, 50, {1: False, 2: False}, [0, 1, 2]) == [50, -25, -25]


def test_bids_and_bets_are_limited_by_the_coins_carried():
    state = start([100, 1000], base=10)
    assert {a["multiple"] for a in ENGINE.legal_actions(state, 0)} == {0, 1, 5, 10}
    with pytest.raises(IllegalAction, match="coins do not cover"):
        ENGINE.apply(state, 0, {"type": "grab", "multiple": 20})
    state = ENGINE.apply(state, 0, {"type": "grab", "multiple": 0})
    state = ENGINE.apply(state, 1, {"type": "grab", "multiple": 100})
    assert state["banker"] == 1 and state["pledge"] == 1000
    assert [a["amount"] for a in ENGINE.legal_actions(state, 0)] == [10, 20, 30, 50, 100]
    with pytest.raises(IllegalAction, match="already chosen"):
        ENGINE.apply(state, 1, {"type": "bet", "amount": 10})


def test_nobody_bidding_draws_the_bank_at_the_smallest_multiple():
    state = start([1000, 1000])
    state = ENGINE.apply(state, 0, {"type": "grab", "multiple": 0})
    state = ENGINE.apply(state, 1, {"type": "grab", "multiple": 0})
    assert state["banker_multiple"] == 1 and state["pledge"] == 10


def test_timeouts_pass_on_the_bank_and_bet_the_least():
    state = start([1000, 1000, 1000])
    state = ENGINE.on_deadline(state)
    assert state["grabs"] == [0, 0, 0]
    state = ENGINE.on_deadline(state)
    assert sorted(state["bets"]) == [0, 10, 10] and state["phase"] == "dice"
