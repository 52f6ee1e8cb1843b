"""炸金花 random legal play: coins conserved, no leaked card, JSON states, refusals change nothing."""

import random

from games.base import SeatSpec
from games.testing import InvariantError, check_engine_invariants, random_playout, strings_in
from games.zhajinhua import GAME

ENGINE = GAME.engine
DECK = frozenset(r + s for r in "23456789TJQKA" for s in "shcd")


def allowed_cards(state, viewer):
    """What ``viewer`` may see, worked out from the seed rules, independently of the engine's view code."""
    hands = state["_hands"]
    n = len(hands)
    seen: set[int] = set()
    if state["phase"] != "finished":
        if viewer is not None and state["status"][viewer] == "active" and state["looked"][viewer]:
            seen.add(viewer)
        if viewer is not None and state["compare_reveal"] == "immediate":
            for c in state["compares"]:
                if viewer in (c["seat"], c["target"]):
                    seen.update((c["seat"], c["target"]))
    else:
        ended_by = state["result"]["ended_by"]
        if state["reveal_all_at_end"]:
            seen.update(range(n))
        if ended_by == "compare":
            last = state["compares"][-1]
            seen.update((last["seat"], last["target"]))
        elif ended_by == "showdown":
            seen.update(i for i in range(n) if state["status"][i] == "active")
        if viewer is not None:
            seen.add(viewer)
            for c in state["compares"]:
                if viewer in (c["seat"], c["target"]):
                    seen.update((c["seat"], c["target"]))
    return {card for i in seen for card in hands[i]}


def view_check(state, viewer, view):
    leaked = strings_in(view, DECK) - allowed_cards(state, viewer)
    if leaked:
        raise InvariantError(f"view for {viewer} in phase {state['phase']} leaks {sorted(leaked)}")


def illegal_actions(state, rng):
    actors = ENGINE.actors(state)
    n = len(state["players"])
    others = [s for s in range(n) if s not in actors]
    if others:
        yield rng.choice(others), {"type": "call"}
    if actors:
        seat = actors[0]
        yield seat, {"type": "raise", "amount": 7}
        yield seat, {"type": "raise", "amount": 20.0}
        yield seat, {"type": "compare", "target": seat}
        yield seat, {"type": "call", "extra": 1}
        if state["looked"][seat]:
            yield seat, {"type": "look"}
        if state["turns"][seat] == 0:
            yield seat, {"type": "compare", "target": (seat + 1) % n}


def legal_check(state, seat, actions, rng):
    """Raise amounts stay under the single-bet cap and never exceed what the seat has left."""
    left = state["coins"][seat] - state["bets"][seat]
    cap = 2 * max(state["raise_steps"])
    for a in actions:
        if a["type"] == "raise":
            assert a["amount"] <= min(left, cap)
    assert ENGINE.hint(state, seat) in actions
    assert ENGINE.auto_action(state, seat) in actions


def test_random_playouts_keep_every_promise():
    rng = random.Random(20261129)
    hands = 0
    for k in range(1200):
        n = rng.randint(2, 5)
        coins = [rng.choice((40, 120, 300, 1000, 5000)) for _ in range(n)]
        options = {
            "max_rounds": rng.choice((2, 5, 20)),
            "pot_cap": rng.choice((None, None, 40, 200)),
            "player_cap": rng.choice((None, None, 30)),
            "showdown_ties": rng.choice(("split", "first_opens_loses")),
            "reveal_all_at_end": rng.random() < 0.2,
            "compare_reveal": rng.choice(("end", "immediate")),
            "max_players": 6,
        }
        config = {
            **GAME.default_options,
            **options,
            "base_stake": rng.choice((1, 5, 10)),
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
            legal_check=legal_check,
            deadline_rate=0.05,
        )
        assert outcome.details["next_first_seat"] == (state["dealer"] + 1) % n
        assert sum(outcome.deltas) == 0
        hands += 1
    assert hands == 1200


def test_six_seats_when_the_tier_allows_them():
    rng = random.Random(6)
    config = {**GAME.default_options, "base_stake": 10, "first_seat": None, "max_players": 6}
    for k in range(50):
        seats = [SeatSpec(i + 1, 1000) for i in range(6)]
        check_engine_invariants(ENGINE, config, seats, seed=k, rng_for_choices=rng, view_check=view_check)


class Counting:
    """The engine, counting the looks taken while another seat was on turn."""

    def __init__(self):
        self.looks_out_of_turn = 0

    def __getattr__(self, name):
        return getattr(ENGINE, name)

    def apply(self, state, seat, action):
        if seat not in ENGINE.actors(state) and action == {"type": "look"}:
            self.looks_out_of_turn += 1
        return ENGINE.apply(state, seat, action)


def test_random_playouts_look_out_of_turn():
    engine = Counting()
    config = {**GAME.default_options, "base_stake": 10, "first_seat": None}
    for k in range(40):
        seats = [SeatSpec(i + 1, 1000) for i in range(4)]
        random_playout(engine, config, seats, k, random.Random(k))
        check_engine_invariants(
            engine, config, seats, seed=k, rng_for_choices=random.Random(k), view_check=view_check
        )
    assert engine.looks_out_of_turn > 40
