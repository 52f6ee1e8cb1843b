"""扯旋 random legal play: coins conserved, limits kept, no leaked card, JSON states, refusals change nothing."""

import random

from games.base import SeatSpec, SeededRng
from games.chexuan import rules
from games.chexuan.engine import DEFAULT_OPTIONS, ChexuanEngine
from games.testing import InvariantError, check_engine_invariants, strings_in

ENGINE = ChexuanEngine()
DECK = frozenset(rules.DECK)


def allowed_cards(state, viewer):
    """What ``viewer`` may see, from 003's rules, apart from the engine's view code.

    A seat's first two cards are face down (its own player sees them), the cards dealt
    after them are face up; at a showdown every hand still in is shown.
    """
    allowed = set()
    shown = set()
    if state["phase"] == "finished" and state["result"]["ended_by"] == "showdown":
        shown = {i for i, s in enumerate(state["status"]) if s != "folded"}
    for i, hand in enumerate(state["_hands"]):
        dealt = hand[: state["dealt"][i]]
        allowed.update(dealt[2:])
        if i == viewer or i in shown:
            allowed.update(dealt)
    return allowed


def view_check(state, viewer, view):
    leaked = strings_in(view, DECK) - allowed_cards(state, viewer)
    if leaked:
        raise InvariantError(f"view for {viewer} in phase {state['phase']} leaks {sorted(leaked)}")
    if state["phase"] == "bobo" and viewer is not None:
        others = [b for i, b in enumerate(view["bobo"]) if i != viewer]
        if any(b is not None for b in others):
            raise InvariantError("a 簸簸 is shown before everyone has set one")


def illegal_actions(state, rng):
    actors = ENGINE.actors(state)
    n = len(state["players"])
    others = [s for s in range(n) if s not in actors]
    if others:
        yield rng.choice(others), {"type": "fold"}
    if not actors:
        return
    seat = actors[0]
    phase = state["phase"]
    yield seat, {"type": "bobo", "amount": -5}
    yield seat, {"type": "bobo", "amount": 2.5}
    yield seat, {"type": "raise", "amount": 0}
    yield seat, {"type": "call", "extra": 1}
    yield seat, {"type": "split", "head": ["Qh", "XJ"]}
    if phase == "bobo":
        yield seat, {"type": "bobo", "amount": state["coins"][seat] + 1}
        yield seat, {"type": "check"}
    if phase == "betting":
        yield seat, {"type": "raise", "amount": state["bobo"][seat] - state["bets"][seat]}  # that is 敲
    if phase == "betting" and state["opened"]:
        yield seat, {"type": "check"}  # 003:65: no 休 once somebody has bet
    if phase == "betting" and not state["opened"]:
        yield seat, {"type": "call"}
    if phase == "split":
        yield seat, {"type": "split", "head": list(state["_hands"][(seat + 1) % n][:2])}
        yield seat, {"type": "raise", "amount": state["base"]}


def legal_check(state, seat, actions, rng):
    """No stake beyond the 簸簸; the hint and the timeout move are legal; a timeout while betting folds."""
    if state["phase"] == "betting":
        left = state["bobo"][seat] - state["bets"][seat]
        for a in actions:
            if a["type"] == "raise":
                assert a["amount"] < left
        assert ENGINE.auto_action(state, seat) == {"type": "fold"}
    if state["phase"] == "bobo":
        assert all(0 < a["amount"] <= state["coins"][seat] for a in actions)
    assert ENGINE.hint(state, seat) in actions
    assert ENGINE.auto_action(state, seat) in actions


def check_limits(state, outcome):
    """003:67: nobody loses more than they put in; from any one player nobody wins more than they put in."""
    bets = state["bets"]
    n = len(bets)
    for i, delta in enumerate(outcome.deltas):
        assert -bets[i] <= delta <= sum(min(bets[i], bets[j]) for j in range(n) if j != i)
        assert bets[i] <= state["bobo"][i] <= state["coins"][i]
    result = state["result"]
    if result["ended_by"] == "void":
        assert outcome.deltas == [0] * n
    for i, special in enumerate(result["specials"]):
        if special in ("sanhua_shi", "sanhua_liu"):
            assert outcome.deltas[i] == 0


def test_random_playouts_keep_every_promise():
    rng = random.Random(20261207)
    ended = {"fold": 0, "showdown": 0, "void": 0}
    for k in range(300):
        n = rng.randint(2, 6)
        base = rng.choice((1, 5, 10))
        coins = [rng.choice((3, 30, 120, 400, 2000)) * base for _ in range(n)]
        config = {
            **DEFAULT_OPTIONS,
            "base_stake": base,
            "first_seat": rng.choice((None, rng.randrange(n))),
            "bobo_steps": rng.choice(([20, 50, 100, 200], [2, 5], [10])),
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
            views_per_step=3,
        )
        check_limits(state, outcome)
        ended[state["result"]["ended_by"]] += 1
    assert min(ended.values()) >= 3, ended


def test_bots_play_hands_to_the_end():
    """Hands where every seat plays the hint (as bots do) end, most of them at a showdown."""
    ended = {"fold": 0, "showdown": 0, "void": 0}
    for k in range(200):
        n = 2 + k % 5
        config = {**DEFAULT_OPTIONS, "base_stake": 10, "first_seat": None}
        seats = [SeatSpec(i, 3000) for i in range(n)]
        state = ENGINE.new_hand(config, seats, SeededRng(k.to_bytes(16, "big"), "hand"))
        for _step in range(500):
            actors = ENGINE.actors(state)
            if not actors:
                break
            state = ENGINE.apply(state, actors[0], ENGINE.hint(state, actors[0]))
        ended[ENGINE.outcome(state).details["ended_by"]] += 1
    assert ended["showdown"] > 50, ended
