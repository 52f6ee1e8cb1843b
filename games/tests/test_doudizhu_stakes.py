"""斗地主's 倍数 as a seat sees it (games/doudizhu/stakes.py) and the 提示 list in its view."""

from __future__ import annotations

import math
import random

import pytest

import games
from games.doudizhu.stakes import rockets_played
from games.tests.ddz_helpers import config, seats
from games.tests.test_doudizhu_engine import PASS, act, landlord_state, play, rng

ENGINE = games.REGISTRY["doudizhu"].engine


def keys(stakes: dict) -> list[list[str]]:
    return [[factor["key"] for factor in part["factors"]] for part in stakes["parts"]]


def product(part: dict) -> int:
    return math.prod(factor.get("times", 1) for factor in part["factors"])


def test_the_figure_is_the_seats_own_and_the_landlords_is_both_farmers():
    """The issue: the top bar said ×1 while the seats said ×6 and ×3; each viewer now gets the one it plays for."""
    state, ll = landlord_state("classic", ["3 K Q", "5 2", "6 7"])
    farmer = (ll + 1) % 3
    mine = ENGINE.view(state, farmer)["stakes"]
    assert mine == {
        "multiple": 3,
        "role": "farmer",
        "parts": [{"seat": farmer, "multiple": 3, "factors": [{"key": "bid", "times": 3}]}],
    }
    landlord = ENGINE.view(state, ll)["stakes"]
    assert landlord["multiple"] == 6 and landlord["role"] == "landlord"
    assert [part["multiple"] for part in landlord["parts"]] == [3, 3]
    # A spectator sees the landlord's figure: what moves between the sides.
    assert ENGINE.view(state, None)["stakes"] == landlord


def test_bombs_rockets_and_spring_are_factors_and_the_figure_is_the_settlements():
    state, ll = landlord_state("classic", ["3333 X D KK", "5", "6"], bid_points=2)
    for action in (play("3333"), PASS, PASS, play("X D"), PASS, PASS, play("KK")):
        state = act(state, action)
    assert state["phase"] == "finished" and state["spring"] == "spring"
    assert rockets_played(state["history"]) == 1
    view = ENGINE.view(state, ll)["stakes"]
    assert keys(view) == [["bid", "bomb", "rocket", "spring"]] * 2
    assert view["parts"][0]["factors"][1:] == [
        {"key": "bomb", "count": 1, "times": 2},
        {"key": "rocket", "count": 1, "times": 2},
        {"key": "spring", "times": 2},
    ]
    multiples = ENGINE.outcome(state).details["multiples"]
    for seat in range(3):
        assert ENGINE.view(state, seat)["stakes"]["multiple"] == multiples[seat]
    assert multiples[ll] == 2 * (2 * 8)


def test_a_cap_is_shown_when_it_stops_the_multiple():
    """001 1.4.1: 3 × 2^4 = 48 stops at 30."""
    state, ll = landlord_state("classic", ["3333 4444 5555 6666 A", "7", "8"])
    for bomb in ("3333", "4444", "5555", "6666"):
        state = act(state, play(bomb))
        state = act(state, PASS)
        state = act(state, PASS)
    farmer_view = ENGINE.view(state, (ll + 1) % 3)["stakes"]
    assert farmer_view["multiple"] == 30
    assert farmer_view["parts"][0]["factors"][-1] == {"key": "cap", "value": 30}


def test_a_jiabei_farmer_who_doubled_sees_his_double_and_the_robs():
    state = ENGINE.new_hand(config("jiabei", first_seat=0), seats(), rng("stakes-jiabei"))
    while state["phase"] != "playing":
        seat = state["turn"]
        choices = ENGINE.legal_actions(state, seat)
        wanted = next(
            (c for c in choices if c["type"] in ("bid", "rob", "double") and c.get("points", 3) == 3), PASS
        )
        state = act(state, wanted)
    ll = state["landlord"]
    for farmer in {0, 1, 2} - {ll}:
        part = ENGINE.view(state, farmer)["stakes"]["parts"][0]
        factor_keys = [factor["key"] for factor in part["factors"]]
        assert ("double" in factor_keys) == bool(state["doubles"][farmer])
        assert ("rob" in factor_keys) == bool(state["rob_events"])
        assert part["multiple"] == product(part)


@pytest.mark.parametrize("variant", ["classic", "yifa", "jiabei"])
def test_every_view_shows_the_figure_the_hand_would_settle_at(variant):
    """Random legal play: each viewer's figure is ``multiples`` (its seat's, or the landlord's), the
    landlord's is the sum of the farmers', a part without a cap is the product of its factors, and at
    the end every seat's figure is the settlement's."""
    chooser = random.Random(f"stakes-{variant}")
    for number in range(40):
        state = ENGINE.new_hand(config(variant), seats(), rng(f"stakes-{variant}-{number}"))
        while ENGINE.outcome(state) is None:
            views = ENGINE.views(state, [0, 1, 2, None])
            for seat, view in zip([0, 1, 2, None], views, strict=True):
                stakes = view["stakes"]
                if state["landlord"] is None:
                    assert stakes is None
                    continue
                shown = state["landlord"] if seat is None else seat
                assert stakes["multiple"] == view["multiples"][shown]
                if stakes["role"] == "landlord":
                    assert stakes["multiple"] == sum(part["multiple"] for part in stakes["parts"])
                for part in stakes["parts"]:
                    if not any("cap" in factor["key"] for factor in part["factors"]):
                        assert part["multiple"] == product(part)
            seat = state["turn"]
            state = act(state, chooser.choice(ENGINE.legal_actions(state, seat)), seat)
        result = ENGINE.outcome(state).details
        if result["multiples"] is None:
            continue
        for seat in range(3):
            assert ENGINE.view(state, seat)["stakes"]["multiple"] == result["multiples"][seat]


def test_the_view_lists_the_hints_to_cycle_through_for_the_seat_on_turn_only():
    """提示 cycles: the view carries the engine's whole list, cheapest first, to the seat whose turn it is."""
    state, ll = landlord_state("classic", ["7 3", "888 K 2 X D", "4"])
    state = act(state, play("7"))
    seat = (ll + 1) % 3
    view = ENGINE.view(state, seat)
    assert view["hints"] == ENGINE.hints(state, seat)
    assert [hint["cards"] for hint in view["hints"][:3]] == [["Ks"], ["2s"], ["8c"]]
    assert all(ENGINE.view(state, other)["hints"] == [] for other in (ll, (ll + 2) % 3, None))
    # Nothing beats: the list says pass.
    state, ll = landlord_state("classic", ["2 3", "K Q", "4"])
    state = act(state, play("2"))
    assert ENGINE.view(state, (ll + 1) % 3)["hints"] == [PASS]
