"""二八杠 random legal play: coins conserved, no tile shown before its time, JSON states, refusals change nothing."""

import random

from games.base import SeatSpec, SeededRng
from games.erbagang import GAME
from games.erbagang.rules import TILES
from games.testing import InvariantError, check_engine_invariants, random_playout, strings_in

ENGINE = GAME.engine
TILE_NAMES = frozenset(TILES)


def view_check(state, viewer, view):
    """No tile leaves the server before the hands are opened; then every hand, as dealt."""
    if state["phase"] != "finished":
        leaked = strings_in(view, TILE_NAMES)
        if leaked:
            raise InvariantError(f"view for {viewer} in phase {state['phase']} shows tiles {sorted(leaked)}")
        return
    if view["hands"] != state["hands"]:
        raise InvariantError("the opened hands are not the hands dealt")


def illegal_actions(state, rng):
    n = len(state["players"])
    actors = ENGINE.actors(state)
    others = [s for s in range(n) if s not in actors]
    if others:
        yield rng.choice(others), {"type": "grab", "multiple": 1}
        yield rng.choice(others), {"type": "bet", "amount": state["base"]}
    if actors:
        seat = actors[0]
        yield seat, {"type": "grab", "multiple": 201}
        yield seat, {"type": "grab", "multiple": -1}
        yield seat, {"type": "grab", "multiple": 1.0}
        yield seat, {"type": "grab", "multiple": True}
        yield seat, {"type": "bet", "amount": 7 * state["base"] + 1}
        yield seat, {"type": "bet", "amount": state["coins"][seat] + state["base"]}
        yield seat, {"type": "bet", "amount": "10"}
        yield seat, {"type": "bet"}
        yield seat, ["grab", 1]
        if state["phase"] == "grab":
            yield seat, {"type": "bet", "amount": state["base"]}
        else:
            yield seat, {"type": "grab", "multiple": 0}


def legal_check(state, seat, actions, rng):
    for a in actions:
        if a["type"] == "grab":
            assert a["multiple"] == 0 or a["multiple"] * state["base"] <= state["coins"][seat]
            assert a["multiple"] <= 200
        else:
            assert 0 < a["amount"] <= state["coins"][seat]
    assert ENGINE.hint(state, seat) in actions
    assert ENGINE.auto_action(state, seat) in actions


def test_random_playouts_keep_every_promise():
    rng = random.Random(2028)
    for k in range(1000):
        n = rng.randint(2, 4)
        base = rng.choice((1, 5, 10))
        coins = [rng.choice((3, 40, 200, 1000, 5000)) * base for _ in range(n)]
        config = {**GAME.default_options, "base_stake": base}
        seats = [SeatSpec(i + 1, c) for i, c in enumerate(coins)]
        state, _steps, outcome = check_engine_invariants(
            ENGINE,
            config,
            seats,
            seed=k,
            rng_for_choices=rng,
            illegal_actions=illegal_actions,
            view_check=view_check,
            legal_check=legal_check,
            deadline_rate=0.05,
        )
        banker = state["banker"]
        assert -outcome.deltas[banker] <= state["pledge"]  # the pledge caps what the banker pays
        assert outcome.details["sweep"] is None or n == 4


def test_the_bank_goes_to_higher_bids_more_often():
    """001:287: the higher the bid, the likelier the bank; the odds are bid over all bids."""
    won = {1: 0, 10: 0}
    config = {**GAME.default_options, "base_stake": 1}
    seats = [SeatSpec(1, 1000), SeatSpec(2, 1000)]
    for k in range(1100):
        state = ENGINE.new_hand(config, seats, SeededRng(k.to_bytes(16, "big"), "hand"))
        state = ENGINE.apply(state, 0, {"type": "grab", "multiple": 1})
        state = ENGINE.apply(state, 1, {"type": "grab", "multiple": 10})
        won[state["grabs"][state["banker"]]] += 1
    assert 60 <= won[1] <= 150  # 1/11 of 1100 is 100
    assert won[10] == 1100 - won[1]


def test_playouts_end():
    rng = random.Random(5)
    for k in range(200):
        seats = [SeatSpec(i + 1, 500) for i in range(4)]
        state, _ = random_playout(ENGINE, {**GAME.default_options, "base_stake": 2}, seats, k, rng)
        assert state["phase"] == "finished"
