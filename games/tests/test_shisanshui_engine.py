"""十三水 hands step by step: the simultaneous 理牌 countdown, who sees what, 比牌, coins."""

import pytest

from games.base import IllegalAction, SeatSpec, SeededRng
from games.shisanshui import rules
from games.shisanshui.engine import DEFAULT_OPTIONS, ShisanshuiEngine

ENGINE = ShisanshuiEngine()
STRONG = "As Ah Ac Ks Kh Qs Qh Qc Js Jh 2c 3d 4h"
WEAK = "2s 3s 5h 6d 7c 8s 9h Tc Jd 4s 6c 8d 9c"
SIX_PAIRS = "2h 2d 4h 4d 6h 6s 7s 7h Td Th Kc Kd 5c"


def make(hands, coins=1000, base_stake=10):
    n = len(hands)
    coins = coins if isinstance(coins, list) else [coins] * n
    seats = [SeatSpec(100 + i, c) for i, c in enumerate(coins)]
    state = ENGINE.new_hand(
        {**DEFAULT_OPTIONS, "base_stake": base_stake}, seats, SeededRng(b"shisanshui-test-00", "hand")
    )
    # Deal the given hands, with their suggestions, as new_hand would have.
    state["_hands"] = [h.split() for h in hands]
    state["_options"] = []
    state["_specials"] = []
    for hand in state["_hands"]:
        options = rules.suggest(hand)
        state["_specials"].append(options[-1] if "special" in options[-1] else None)
        state["_options"].append([{"type": "arrange", **o} for o in options if "special" not in o][:6])
    return state


def arrange(front, middle, back):
    return {"type": "arrange", "front": front.split(), "middle": middle.split(), "back": back.split()}


def test_everyone_arranges_at_once_and_confirming_leaves_the_countdown():
    state = make([STRONG, WEAK, SIX_PAIRS])
    assert ENGINE.actors(state) == [0, 1, 2]
    assert ENGINE.deadline_seconds(state) == DEFAULT_OPTIONS["arrange_seconds"]
    state = ENGINE.apply(state, 1, ENGINE.legal_actions(state, 1)[0])
    assert ENGINE.actors(state) == [0, 2]
    assert ENGINE.phase(state) == "arranging"
    with pytest.raises(IllegalAction, match="already confirmed"):
        ENGINE.apply(state, 1, ENGINE.legal_actions(state, 0)[0])


def test_nobody_sees_another_seats_cards_or_piles_before_the_reveal():
    state = make([STRONG, WEAK])
    state = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    view = ENGINE.view(state, 1)
    assert view["hands"][0] is None and view["hand"] == WEAK.split()
    assert view["arrangements"] is None and view["mine"] is None
    assert view["confirmed"] == [True, False]
    spectator = ENGINE.view(state, None)
    assert spectator["hands"] == [None, None] and spectator["choices"] == []


def test_comparing_shows_every_pile_and_each_pairs_water():
    state = make([STRONG, WEAK])
    state = ENGINE.apply(state, 0, arrange("Js Jh 4h", "Ks Kh Qs Qh 2c", "As Ah Ac Qc 3d"))
    state = ENGINE.apply(state, 1, arrange("2s 3s 4s", "5h 6d 7c 8s 6c", "9h Tc Jd 8d 9c"))
    assert ENGINE.phase(state) == "finished" and ENGINE.actors(state) == []
    view = ENGINE.view(state, 1)
    assert view["arrangements"][0]["back"] == ["As", "Ah", "Ac", "Qc", "3d"]
    pair = view["result"]["pairs"][0]
    assert pair["piles"] == [1, 1, 1] and pair["shot"] == 0 and pair["water"] == 6  # 打枪
    outcome = ENGINE.outcome(state)
    assert outcome.deltas == [60, -60] and outcome.winners == [0]  # 6 水 × 底分 10


def test_dao_shui_is_refused_with_a_reason():
    state = make([STRONG, WEAK])
    with pytest.raises(IllegalAction, match="may not beat the middle"):
        ENGINE.apply(state, 0, arrange("As Ah Ac", "Ks Kh Qs Qh 2c", "Js Jh Qc 4h 3d"))
    with pytest.raises(IllegalAction, match="13 cards you were dealt"):
        ENGINE.apply(state, 0, arrange("2s Ah Ac", "Ks Kh Qs Qh 2c", "Js Jh Qc 4h 3d"))
    with pytest.raises(IllegalAction, match="no special hand"):
        ENGINE.apply(state, 0, {"type": "special"})


def test_any_legal_arrangement_is_taken_not_only_the_suggested_ones():
    state = make([STRONG, WEAK])
    odd = arrange("2c 3d 4h", "Js Jh Qc Ks Kh", "As Ah Ac Qs Qh")
    assert odd not in ENGINE.legal_actions(state, 0)
    assert ENGINE.is_legal(state, 0, odd)
    state = ENGINE.apply(state, 0, odd)
    assert state["confirmed"] == [True, False]


def test_a_special_hand_is_declared_and_wins_its_water_from_each():
    state = make([SIX_PAIRS, WEAK, STRONG])
    assert ENGINE.view(state, 0)["special"] == {"name": "六对半", "water": 6}
    assert ENGINE.legal_actions(state, 0)[-1] == {"type": "special"}
    state = ENGINE.apply(state, 0, {"type": "special"})
    state = ENGINE.on_deadline(state)  # the others time out and play their best
    outcome = ENGINE.outcome(state)
    assert outcome.details["water"][0] == 12
    assert outcome.deltas[0] == 120


def test_a_timeout_plays_the_special_hand_else_the_best_suggestion():
    state = make([SIX_PAIRS, WEAK])
    assert ENGINE.auto_action(state, 0) == {"type": "special"}
    assert ENGINE.auto_action(state, 1) == ENGINE.legal_actions(state, 1)[0]
    assert ENGINE.hint(state, 1) == ENGINE.auto_action(state, 1)


def test_limited_liability_caps_what_a_short_seat_pays():
    state = make([STRONG, WEAK, WEAK.replace("2s", "2d").replace("3s", "3h")], coins=[1000, 25, 1000])
    state = ENGINE.on_deadline(state)
    outcome = ENGINE.outcome(state)
    assert outcome.deltas[1] >= -25
    assert sum(outcome.deltas) == 0


def test_two_to_four_seats():
    with pytest.raises(ValueError):
        make([STRONG])
    seats = [SeatSpec(i, 100) for i in range(5)]
    with pytest.raises(ValueError):
        ENGINE.new_hand(dict(DEFAULT_OPTIONS), seats, SeededRng(b"shisanshui-test-00", "hand"))
