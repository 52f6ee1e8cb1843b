"""十三水 random legal play: coins conserved, no card seen before 比牌, JSON states, refusals change nothing."""

import random

from games.base import SeatSpec
from games.shisanshui.engine import DEFAULT_OPTIONS, ShisanshuiEngine
from games.shisanshui.piles import DECK
from games.testing import InvariantError, check_engine_invariants, strings_in

ENGINE = ShisanshuiEngine()


def allowed_cards(state, viewer):
    if state["phase"] != "arranging":
        return set(DECK)  # 比牌 shows every pile (001:465)
    return set(state["_hands"][viewer]) if viewer is not None else set()


def view_check(state, viewer, view):
    leaked = strings_in(view, frozenset(DECK)) - allowed_cards(state, viewer)
    if leaked:
        raise InvariantError(f"view for {viewer} in phase {state['phase']} leaks {sorted(leaked)}")
    own = state["_specials"][viewer] if viewer is not None else None
    if (view["special"] or {}).get("name") != (own or {}).get("special"):
        raise InvariantError(f"view for {viewer} names a special hand not its own")
    if state["phase"] == "arranging" and view["arrangements"] is not None:
        raise InvariantError("the piles are shown before 比牌")


def illegal_actions(state, rng):
    actors = ENGINE.actors(state)
    n = len(state["players"])
    done = [s for s in range(n) if s not in actors]
    if done and state["phase"] == "arranging":
        seat = rng.choice(done)
        yield seat, {"type": "arrange", **state["_options"][seat][0]}
    for seat in actors[:2]:
        option = rng.choice(state["_options"][seat])
        front, middle, back = option["front"], option["middle"], option["back"]
        other = state["_hands"][(seat + 1) % n]
        yield seat, {"type": "arrange", "front": front, "middle": middle, "back": back[:4] + [other[0]]}
        yield seat, {"type": "arrange", "front": front, "middle": middle, "back": back[:4] + [back[0]]}
        yield seat, {"type": "arrange", "front": front + middle[:1], "middle": middle[1:], "back": back}
        yield seat, {"type": "arrange", "front": front, "middle": middle, "back": "".join(back)}
        yield seat, {"type": "arrange", "front": front, "middle": middle, "back": back, "extra": 1}
        yield seat, {"type": "arrange", "front": front, "middle": middle}
        if (
            ENGINE.is_legal(state, seat, {"type": "arrange", "front": front, "middle": back, "back": middle})
            is False
        ):
            yield seat, {"type": "arrange", "front": front, "middle": back, "back": middle}  # 倒水
        if not state["_specials"][seat]:
            yield seat, {"type": "special"}
        yield seat, {"type": "special", "name": "清龙"}
        yield seat, "arrange"


def choices_are_legal(state, seat, actions, rng):
    assert ENGINE.hint(state, seat) in actions
    assert ENGINE.auto_action(state, seat) in actions
    for action in actions:
        assert ENGINE.is_legal(state, seat, action)


def test_random_playouts_keep_every_promise():
    rng = random.Random(2929)
    for k in range(250):
        n = rng.randint(2, 4)
        base = rng.choice((1, 5, 20))
        coins = [rng.choice((base, 10 * base, 200 * base, 5000 * base)) for _ in range(n)]
        config = {**DEFAULT_OPTIONS, "base_stake": base, "suggestions": rng.choice((1, 3, 6))}
        seats = [SeatSpec(i + 1, c) for i, c in enumerate(coins)]
        state, _steps, outcome = check_engine_invariants(
            ENGINE,
            config,
            seats,
            seed=k,
            rng_for_choices=rng,
            illegal_actions=illegal_actions,
            view_check=view_check,
            legal_check=choices_are_legal,
            deadline_rate=0.1,
        )
        assert sum(outcome.details["water"]) == 0
        assert state["phase"] == "finished"
        for i, delta in enumerate(outcome.deltas):
            water = outcome.details["water"][i]
            assert (delta > 0) <= (water > 0) and (delta < 0) <= (water < 0)
            assert abs(delta) <= abs(water) * base
