"""xuezhan: random legal play keeps every promise (coins, hidden tiles, JSON states, refusals), and a keen
player's hands show the claims the rules are about."""

import random

from games.base import SeatSpec
from games.testing import check_engine_invariants
from games.tests.mahjong_helpers import illegal_actions, keen_playouts, view_check
from games.xuezhan import ENGINE, VARIANTS


def _sampler(state, rng):
    return illegal_actions(ENGINE, state, rng)


def test_random_playouts_keep_every_promise():
    rng = random.Random(20261207)
    for k in range(40):
        tier = VARIANTS["003" if k % 2 else "001"]
        coins = rng.choice([100_000, 300, 60])  # small purses bring limited liability into play
        seats = [SeatSpec(i + 1, coins if i % 2 else 100_000) for i in range(4)]
        check_engine_invariants(
            ENGINE,
            {"base_stake": 10, **tier},
            seats,
            k,
            rng,
            illegal_actions=_sampler,
            view_check=view_check,
            deadline_rate=0.1,
            views_per_step=2,
        )


def test_keen_hands_show_pungs_kongs_robbed_kongs_shared_wins_and_drawn_ends():
    seen = keen_playouts(ENGINE, {"base_stake": 10}, 150, 7)
    for event in (
        "pung",
        "kong exposed",
        "kong concealed",
        "kong added",
        "robbed kong",
        "wins sharing a discard",
        "ended drawn",
        "ended won",
        "self-drawn win",
        "win on a discard",
        "transfer",
        "pig",
        "ready",
    ):
        assert seen[event] > 0, (event, seen)
