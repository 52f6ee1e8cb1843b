"""升级 random legal play and bot hands: legal follows, 200 points, coins, no leaked card, JSON states."""

import random
from collections import Counter

import pytest

from games.base import SeatSpec
from games.shengji import rules, selfplay
from games.shengji.engine import ShengjiEngine
from games.testing import check_engine_invariants

ENGINE = ShengjiEngine()
SEATS = [SeatSpec(player_id=i + 1, coins=c) for i, c in enumerate((40, 1000, 7, 300))]
CONFIGS = {
    "first_hand": {"base_stake": 10, "first_seat": None},
    "later_hand": {"base_stake": 10, "first_seat": 1, "levels": ["K", "4"]},
}


def view_check(state, viewer, view):
    """A seat sees its own cards only; the bottom only its last burier, and everyone at the end."""
    hands = state["_hands"]
    if viewer is None:
        assert view["hand"] is None
    else:
        assert Counter(view["hand"]) == Counter(hands[viewer])
    may_see_bottom = state["phase"] == "finished" or (
        viewer is not None and viewer == state["buried_by"] and state["burier"] is None
    )
    assert (view["bottom"] is not None) == may_see_bottom
    assert view["counts"] == [len(h) for h in hands]
    for key in ("hands", "_hands", "deck"):
        assert key not in view


def legal_check(state, seat, actions, _rng):
    """Every listed play is a legal lead or follow by the rules themselves."""
    if state["phase"] != "play":
        return
    trump = ENGINE.trump(state)
    hand = state["_hands"][seat]
    for action in actions:
        if state["trick"]:
            assert rules.legal_follow(hand, state["trick"][0]["cards"], action["cards"], trump), action
        else:
            assert rules.shape(action["cards"], trump) is not None


def illegal_actions(state, rng):
    """Wrong turn, cards not held, a follow off suit, a short bury, a declaration out of time."""
    n = len(SEATS)
    turn = state["turn"]
    if turn is None:
        yield rng.randrange(n), {"type": "pass"}
        return
    yield (turn + 1) % n, {"type": "pass"}
    yield turn, {"type": "play", "cards": ["NO"]}
    yield turn, {"type": "declare", "cards": ["2s", "XJ"]}
    hand = state["_hands"][turn]
    if state["phase"] == "bury":
        yield turn, {"type": "bury", "cards": hand[:7]}
    if state["phase"] == "play" and state["trick"]:
        trump = ENGINE.trump(state)
        led = state["trick"][0]["cards"]
        tries = [sorted(rng.sample(hand, len(led))) for _ in range(4)]
        for cards in tries:
            if not rules.legal_follow(hand, led, cards, trump):
                yield turn, {"type": "play", "cards": cards}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_random_playouts_keep_every_promise(name):
    for seed in range(5):
        state, _steps, outcome = check_engine_invariants(
            ENGINE,
            CONFIGS[name],
            SEATS,
            seed,
            random.Random(seed),
            illegal_actions=illegal_actions,
            view_check=view_check,
            legal_check=legal_check,
            deadline_rate=0.05,
            views_per_step=2,
        )
        assert sum(state["taken"]) + rules.points(state["_bottom"]) == rules.TOTAL_POINTS
        assert sum(outcome.deltas) == 0


def test_bot_hands_follow_legally_and_conserve_the_200_points():
    """The issue's check, over 20 hands here (1,000 in bench/shengji_bots.py)."""
    ended = selfplay.run(20)
    assert sum(ended.values()) == 20
    assert len(ended) >= 3  # the bots' hands end in more than one way
