"""必下德州 random legal play: coins conserved, no leaked hole card, JSON states, refusals change nothing.

The shared harness's ``check_outcome`` caps every win at the coins carried.
必下德州's own seed settles by side pots instead (001:182-184): a player loses
at most their stake, and wins from each opponent at most their own stake, so
its worked example pays A +1000 on a 400 stake. ``texas_check_outcome`` keeps
every other check of the shared one and swaps that cap for the side-pot bound.
"""

import random

import pytest

import games.testing
from games.base import SeatSpec, apply_rake
from games.testing import InvariantError, check_engine_invariants, strings_in
from games.texas import GAME

ENGINE = GAME.engine
DECK = frozenset(r + s for r in "23456789TJQKA" for s in "shcd")


def texas_check_outcome(outcome, seats, *, rake_bps=500, zero_sum=True):
    if len(outcome.deltas) != len(seats) or not all(isinstance(d, int) for d in outcome.deltas):
        raise InvariantError(f"one integer delta per seat: {outcome.deltas}")
    if sum(outcome.deltas) != 0:
        raise InvariantError(f"deltas do not sum to zero: {outcome.deltas}")
    net, rake = apply_rake(outcome.deltas, rake_bps)
    if sum(net) + rake != 0 or rake < 0:
        raise InvariantError(f"rake breaks conservation: {net} + {rake}")
    coins = [s.coins for s in seats]
    for i, delta in enumerate(outcome.deltas):
        if -delta > coins[i]:
            raise InvariantError(f"a seat carrying {coins[i]} loses {-delta}")
        bound = sum(min(coins[i], coins[j]) for j in range(len(coins)) if j != i)
        if delta > bound:
            raise InvariantError(f"seat {i} wins {delta}, more than its side-pot bound {bound}")


def allowed_cards(state, viewer):
    seen = set(state["board"])  # 001:181: all five community cards are turned up at once
    if viewer is not None:
        seen.update(state["_hands"][viewer])
    if state["phase"] == "finished":
        for i, folded in enumerate(state["folded"]):
            if not folded:
                seen.update(state["_hands"][i])
    return seen


def view_check(state, viewer, view):
    leaked = strings_in(view, DECK) - allowed_cards(state, viewer)
    if leaked:
        raise InvariantError(f"view for {viewer} in phase {state['phase']} leaks {sorted(leaked)}")


def illegal_actions(state, rng):
    actors = ENGINE.actors(state)
    n = len(state["players"])
    done = [s for s in range(n) if s not in actors]
    if done:
        yield rng.choice(done), {"type": "fold"}
    for seat in actors[:2]:
        blind = seat in state["blind_seats"]
        yield seat, {"type": "bet" if blind else "check"}
        yield seat, {"type": "raise" if not blind else "bet", "amount": state["bet_sizes"][-1]}
        yield seat, {"type": "bet", "amount": state["coins"][seat] + 1}
        yield seat, {"type": "raise", "amount": float(state["bet_sizes"][0])}
        if blind:
            yield seat, {"type": "fold"}


def hint_is_legal(state, seat, actions, rng):
    assert ENGINE.hint(state, seat) in actions
    assert ENGINE.auto_action(state, seat) in actions


def final_checks(state, outcome):
    stakes = state["stakes"]
    for i, delta in enumerate(outcome.deltas):
        assert -delta <= stakes[i] <= state["coins"][i]
        assert delta <= sum(min(stakes[i], stakes[j]) for j in range(len(stakes)) if j != i)
        if state["folded"][i]:
            assert stakes[i] == 0 and delta == 0
    assert sum(p["amount"] for p in outcome.details["pots"]) == sum(stakes)


@pytest.fixture
def side_pot_outcome_check(monkeypatch):
    monkeypatch.setattr(games.testing, "check_outcome", texas_check_outcome)


def test_random_playouts_keep_every_promise(side_pot_outcome_check):
    rng = random.Random(177)
    for k in range(1200):
        n = rng.randint(2, 9)
        small = rng.choice((1, 5, 50))
        coins = [rng.choice((small, 3 * small, 10 * small, 40 * small, 500 * small)) for _ in range(n)]
        config = {
            **GAME.default_options,
            "bet_sizes": rng.choice(([1, 2, 4, 8], [1, 3], [2, 5, 10, 20])),
            "base_stake": small,
            "room_factor": 1,
            "first_seat": rng.choice((None, rng.randrange(n))),
        }
        seats = [SeatSpec(i + 1, c) for i, c in enumerate(coins)]
        state, _steps, outcome = check_engine_invariants(
            ENGINE,
            config,
            seats,
            seed=k,
            rng_for_choices=rng,
            illegal_actions=illegal_actions,
            view_check=view_check,
            legal_check=hint_is_legal,
            deadline_rate=0.1,
        )
        final_checks(state, outcome)
        assert outcome.details["next_first_seat"] == (state["dealer"] + 1) % n
