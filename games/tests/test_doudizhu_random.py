"""Random legal play for every 斗地主 variant through the shared harness (games/testing.py)."""

import json
import os
import random

import pytest

import games
from games.testing import check_engine_invariants, check_outcome, random_playout
from games.tests.ddz_helpers import config, illegal_actions, legal_check, seats, view_check

ENGINE = games.REGISTRY["doudizhu"].engine
VARIANTS = ("classic", "yifa", "jiabei")
# Fully checked hands per variant; raise it for a long soak: DDZ_CHECKED_HANDS=1000.
CHECKED_HANDS = int(os.environ.get("DDZ_CHECKED_HANDS", "40"))


def _coins(rng: random.Random) -> tuple[int, int, int]:
    """Mix deep and shallow pockets so that 有限责任制 often bites."""
    return tuple(rng.choice((30, 90, 250, 1000, 100000)) for _ in range(3))


def _checked(cfg: dict, table, seed: str, rng: random.Random, deadline_rate: float):
    """One hand through the harness with 斗地主's own checks; its final state, steps and outcome."""
    return check_engine_invariants(
        ENGINE,
        cfg,
        table,
        seed=seed,
        rng_for_choices=rng,
        illegal_actions=illegal_actions,
        view_check=view_check,
        legal_check=legal_check,
        deadline_rate=deadline_rate,
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_checked_random_hands(variant):
    """Every step: JSON round trip, no mutation, refused actions change nothing, no view leaks."""
    for hand in range(CHECKED_HANDS):
        rng = random.Random(f"{variant}-{hand}")
        table = seats(_coins(rng))
        _checked(config(variant), table, f"checked-{variant}-{hand}", rng, deadline_rate=0.1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_thousand_random_hands(variant):
    """A thousand hands per variant: coins conserved, limited liability held, final state and views sound.

    Each step of these hands is not re-checked (see the checked runs above and
    the slow run below): that would take minutes.
    """
    wins = {"landlord": 0, "farmers": 0}
    for hand in range(1000):
        rng = random.Random(f"bulk-{variant}-{hand}")
        table = seats(_coins(rng))
        state, steps = random_playout(ENGINE, config(variant), table, f"bulk-{variant}-{hand}", rng)
        outcome = ENGINE.outcome(state)
        check_outcome(outcome, table)
        assert json.loads(json.dumps(state)) == state
        for viewer in (0, 1, 2, None):
            view_check(state, viewer, ENGINE.view(state, viewer))
        details = outcome.details
        wins[details["winner"]] += 1
        assert details["next_first_seat"] in outcome.winners
        assert state["hands"][details["next_first_seat"]] == []
        assert (
            sum(len(h) for h in details["hands"])
            + sum(
                len(e["action"]["cards"])
                for e in state["history"]
                if e.get("action", {}).get("type") == "play"
            )
            == 54
        )
    assert wins["landlord"] > 100 and wins["farmers"] > 100


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("all_pass", ("void", "first_bidder"))
def test_all_tuoguan_hands_keep_every_invariant_and_end(variant, all_pass):
    """Every step is 托管 (nobody ever bids): the hand still ends, under the harness's checks."""
    for hand in range(5):
        rng = random.Random(f"auto-{variant}-{all_pass}-{hand}")
        state, steps, outcome = _checked(
            config(variant, all_pass=all_pass),
            seats(_coins(rng)),
            f"auto-{variant}-{all_pass}-{hand}",
            rng,
            1.0,
        )
        assert state["redeals"] == 3
        if all_pass == "void":
            assert steps == 12 and outcome.deltas == [0, 0, 0] and outcome.winners == []
        else:
            assert outcome.details["landlord"] == state["first_bidder"] and outcome.details["bid"] == 1
