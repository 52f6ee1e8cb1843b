"""推筒子 hands from start to end: the 底注, the wheel, one tile up, 加注, two pools (001:640-662)."""

import pytest

from games.base import IllegalAction, SeatSpec, SeededRng
from games.tuitongzi import GAME

ENGINE = GAME.engine


def start(coins, base=10, seed=1, hands=None, wheel=None):
    seats = [SeatSpec(i + 1, c) for i, c in enumerate(coins)]
    state = ENGINE.new_hand(
        {**GAME.default_options, "base_stake": base}, seats, SeededRng(seed.to_bytes(16, "big"), "h")
    )
    if hands is not None:
        state["_hands"] = [h.split() for h in hands]
    if wheel is not None:
        state["wheel"], state["start"] = wheel, (wheel - 1 if wheel <= len(coins) else 0)
    return state


def raise_round(state, raises):
    state = ENGINE.on_deadline(state)  # the wheel stops: the tiles are dealt
    for seat, amount in enumerate(raises):
        if seat in ENGINE.actors(state):
            action = {"type": "raise", "amount": amount} if amount else {"type": "pass"}
            state = ENGINE.apply(state, seat, action)
    return state


def test_the_wheel_is_shown_before_the_deal_and_one_tile_is_up_after():
    state = start([1000, 1000, 1000], hands=["1p 2p", "3p 4p", "5z 9p"], wheel=2)
    view = ENGINE.view(state, 0)
    assert view["phase"] == "wheel" and view["wheel"] == 2 and view["start"] == 1
    assert view["hands"] == [None, None, None] and ENGINE.actors(state) == []
    assert view["ante_pool"] == 30  # 001:646: everyone's 底注
    state = ENGINE.on_deadline(state)
    view = ENGINE.view(state, 0)
    assert view["hands"] == [["1p", "2p"], ["3p", None], ["5z", None]]
    assert ENGINE.view(state, None)["hands"] == [["1p", None], ["3p", None], ["5z", None]]
    assert ENGINE.actors(state) == [0, 1, 2]


def test_a_wheel_number_without_a_player_passes_on():
    for seed in range(40):
        state = start([100] * 3, seed=seed)
        assert state["start"] == (state["wheel"] - 1 if state["wheel"] <= 3 else 0)


def test_the_raise_pool_goes_to_the_best_raiser_and_the_ante_pool_to_the_best_hand():
    # Seat 2 holds the best hand but does not raise: it takes the 底注 pool, seat 1 the 加注 pool.
    state = start([1000, 1000, 1000], hands=["1p 2p", "3p 5p", "5z 5z"], wheel=1)
    end = raise_round(state, [20, 50, 0])
    outcome = ENGINE.outcome(end)
    assert outcome.deltas == [-10 - 20, -10 + 20, 20]
    pools = {p["pool"]: p for p in outcome.details["pools"]}
    assert pools["raise"] == {"pool": "raise", "amount": 70, "seats": [0, 1], "winners": [1]}
    assert pools["ante"]["winners"] == [2] and pools["ante"]["amount"] == 30


def test_no_raise_leaves_only_the_ante_pool():
    state = start([1000, 1000], hands=["1p 2p", "3p 5p"], wheel=1)
    end = raise_round(state, [0, 0])
    assert ENGINE.outcome(end).deltas == [-10, 10]


def test_ties_split_each_pool():
    state = start([1000, 1000, 1000], hands=["3p 6p", "6p 3p", "1p 2p"], wheel=1)
    end = raise_round(state, [10, 10, 20])
    # 加注 pool: 0 and 1 tie and share seat 2's 20; 底注 pool: they share seat 2's 10.
    assert ENGINE.outcome(end).deltas == [15, 15, -30]


def test_odd_coins_go_to_the_first_seat_dealt():
    state = start([1000, 1000, 1000], hands=["3p 6p", "6p 3p", "1p 2p"], wheel=2, base=5)
    end = raise_round(state, [0, 0, 0])
    assert ENGINE.outcome(end).deltas == [2, 3, -5]  # seat 1 is dealt first: it gets the odd coin


def test_nobody_wins_more_than_they_carried():
    state = start([10, 1000, 1000, 1000], hands=["5z 5z", "1p 2p", "1p 3p", "1p 4p"], wheel=1)
    end = raise_round(state, [0, 100, 100, 100])
    deltas = ENGINE.outcome(end).deltas
    assert deltas[0] == 10 and sum(deltas) == 0


def test_time_out_is_a_pass_and_bad_raises_are_refused():
    state = ENGINE.on_deadline(start([1000, 1000]))
    with pytest.raises(IllegalAction, match="not one offered"):
        ENGINE.apply(state, 0, {"type": "raise", "amount": 30})
    state = ENGINE.apply(state, 0, {"type": "raise", "amount": 20})
    with pytest.raises(IllegalAction, match="already chosen"):
        ENGINE.apply(state, 0, {"type": "pass"})
    end = ENGINE.on_deadline(state)  # 001:653: who has not raised when the countdown ends passes
    assert end["raises"] == [20, 0] and end["phase"] == "finished"
