"""推筒子 random legal play: coins conserved, only the tiles each seat may see, JSON states, refusals change nothing."""

import random

from games.base import SeatSpec
from games.testing import InvariantError, check_engine_invariants, random_playout, strings_in
from games.tuitongzi import GAME
from games.tuitongzi.rules import TILES

ENGINE = GAME.engine
TILE_NAMES = frozenset(TILES)


def allowed(state, viewer, seat):
    """The tiles of ``seat``'s hand that ``viewer`` may see, from 001:650 and 001:659 (None: hidden)."""
    hand = state["_hands"][seat]
    if state["phase"] == "wheel":
        return None
    if state["phase"] == "finished" or viewer == seat:
        return list(hand)
    return [hand[0], None]


def view_check(state, viewer, view):
    n = len(state["players"])
    for seat in range(n):
        if view["hands"][seat] != allowed(state, viewer, seat):
            raise InvariantError(f"view for {viewer} shows seat {seat}'s tiles as {view['hands'][seat]}")
    rest = {k: v for k, v in view.items() if k not in ("hands", "hand")}
    if strings_in(rest, TILE_NAMES):
        raise InvariantError(f"view for {viewer} shows tiles outside the hands")
    if viewer is not None and view["hand"] != view["hands"][viewer]:
        raise InvariantError("the seat's own hand differs from its place among the hands")


def illegal_actions(state, rng):
    n = len(state["players"])
    actors = ENGINE.actors(state)
    others = [s for s in range(n) if s not in actors]
    if others:
        yield rng.choice(others), {"type": "pass"}
    if actors:
        seat = actors[0]
        left = state["coins"][seat] - state["antes"][seat]
        yield seat, {"type": "raise", "amount": 3 * state["base"]}
        yield seat, {"type": "raise", "amount": left + 1}
        yield seat, {"type": "raise", "amount": -state["base"]}
        yield seat, {"type": "raise", "amount": float(state["base"])}
        yield seat, {"type": "raise"}
        yield seat, {"type": "pass", "amount": 0}
        yield seat, "pass"


def legal_check(state, seat, actions, rng):
    left = state["coins"][seat] - state["antes"][seat]
    assert actions[0] == {"type": "pass"}
    assert all(0 < a["amount"] <= left for a in actions[1:])
    assert ENGINE.hint(state, seat) in actions


def test_random_playouts_keep_every_promise():
    rng = random.Random(2029)
    for k in range(700):
        n = rng.randint(2, 6)
        base = rng.choice((1, 10, 50))
        coins = [rng.choice((1, 2, 5, 30, 300)) * base + rng.choice((0, 0, 3)) for _ in range(n)]
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
        assert 1 <= state["wheel"] <= 9
        assert state["start"] == (state["wheel"] - 1 if state["wheel"] <= n else 0)


def test_playouts_end():
    rng = random.Random(6)
    for k in range(200):
        seats = [SeatSpec(i + 1, 500) for i in range(4)]
        state, _ = random_playout(ENGINE, {**GAME.default_options, "base_stake": 10}, seats, k, rng)
        assert state["phase"] == "finished"
