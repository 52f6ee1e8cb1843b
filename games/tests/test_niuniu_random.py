"""牛牛 and 通比牛牛 random legal play: coins conserved, no leaked card, JSON states, refusals change nothing."""

import random

import pytest

from games.base import SeatSpec
from games.niuniu.engine import DEFAULT_OPTIONS, NiuniuEngine
from games.testing import InvariantError, check_engine_invariants, strings_in

DECK = frozenset(r + s for r in "A23456789TJQK" for s in "shcd")
ENGINES = {"banker": NiuniuEngine("banker"), "tongbi": NiuniuEngine("tongbi")}


def allowed_cards(state, viewer):
    """What ``viewer`` may see, from the rules: nothing before the deal, then its own and the shown hands."""
    phase = state["phase"]
    seen = set()
    for i, hand in enumerate(state["_hands"]):
        if phase == "finished" or state["shown"][i] is not None or (phase == "show" and viewer == i):
            seen.update(hand)
    return seen


def view_check(state, viewer, view):
    leaked = strings_in(view, DECK) - allowed_cards(state, viewer)
    if leaked:
        raise InvariantError(f"view for {viewer} in phase {state['phase']} leaks {sorted(leaked)}")


def illegal_sampler(engine):
    def illegal_actions(state, rng):
        n = len(state["players"])
        actors = engine.actors(state)
        others = [s for s in range(n) if s not in actors]
        if others:
            yield rng.choice(others), {"type": "grab", "multiple": 1}
            yield rng.choice(others), {"type": "bet", "multiple": 1}
        if not actors:
            return
        seat = actors[0]
        yield seat, {"type": "grab", "multiple": 99}
        yield seat, {"type": "bet", "multiple": 0}
        yield seat, {"type": "bet", "multiple": 2.0}
        yield seat, {"type": "bet", "multiple": -1}
        yield seat, {"type": "grab", "multiple": "1"}
        yield seat, {"type": "show", "three": ["As", "As", "As"]}
        yield seat, {"type": "show", "three": "As"}
        yield seat, {"type": "show", "three": [], "extra": 1}
        if state["phase"] == "show":
            hand = state["_hands"][seat]
            other = next(c for c in sorted(DECK) if c not in hand)
            yield seat, {"type": "show", "three": [hand[0], hand[1], other]}
            legal = [a["three"] for a in engine.legal_actions(state, seat)]
            for three in ([hand[0], hand[1], hand[2]], [hand[2], hand[3], hand[4]]):
                if sorted(three) not in [sorted(t) for t in legal]:
                    yield seat, {"type": "show", "three": three}
        else:
            yield seat, {"type": "show", "three": state["_hands"][seat][:3]}

    return illegal_actions


def legal_check(engine):
    def check(state, seat, actions, rng):
        assert engine.auto_action(state, seat) in actions
        assert engine.hint(state, seat) in actions

    return check


@pytest.mark.parametrize("mode", ["banker", "tongbi"])
def test_random_playouts_keep_every_promise(mode):
    engine = ENGINES[mode]
    rng = random.Random(27 if mode == "banker" else 28)
    finished = 0
    for k in range(400):
        n = rng.randint(2, 6)
        coins = [rng.choice((0, 10, 100, 500, 3000, 100000)) for _ in range(n)]
        config = {
            **DEFAULT_OPTIONS,
            "base_stake": rng.choice((1, 5, 20)),
            "multiplier_table": rng.choice((None, "niuniu", "tongbi")),
            "grab_multiples": rng.choice(([1, 2, 3, 4], [1, 2])),
            "bet_multiples": rng.choice(([1, 2, 3, 4, 5], [5, 10, 15])),
        }
        seats = [SeatSpec(i + 1, c) for i, c in enumerate(coins)]
        state, _steps, outcome = check_engine_invariants(
            engine,
            config,
            seats,
            seed=k,
            rng_for_choices=rng,
            illegal_actions=illegal_sampler(engine),
            view_check=view_check,
            legal_check=legal_check(engine),
            deadline_rate=0.1,
            views_per_step=3,
        )
        assert sum(outcome.deltas) == 0
        if mode == "banker":
            banker = state["banker"]
            assert state["grabs"][banker] == max(state["grabs"])
            assert state["bets"][banker] is None
        else:
            best = outcome.details["best"]
            assert all(d <= 0 for i, d in enumerate(outcome.deltas) if i != best)
        finished += 1
    assert finished == 400
