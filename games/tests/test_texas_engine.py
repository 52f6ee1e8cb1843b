"""必下德州 hands step by step: blinds, the one betting countdown, pots, who sees what."""

import pytest

from games.base import IllegalAction, SeatSpec, SeededRng, apply_rake
from games.texas import GAME

ENGINE = GAME.engine


def make(coins, dealer=0, small_blind=100, hands=None, board=None, **options):
    n = len(coins)
    config = {
        **GAME.default_options,
        "base_stake": small_blind,
        "room_factor": 1,
        "first_seat": dealer,
        **options,
    }
    state = ENGINE.new_hand(
        config, [SeatSpec(10 + i, c) for i, c in enumerate(coins)], SeededRng(b"texas-tests-0000")
    )
    if hands is not None:
        state["_hands"] = [h.split() for h in hands]
    if board is not None:
        state["board"] = board.split()
    assert len(state["board"]) == 5 and all(len(h) == 2 for h in state["_hands"][:n])
    return state


def act(state, seat, **action):
    return ENGINE.apply(state, seat, action)


def test_seed_worked_example_a_plus_950():
    """001:186-197: board A 7 8 9 K; A (AA) 400, B (22) 200, C (33) 800, D (44) 1600.

    Seats A, B, C, D = 0, 1, 2, 3 with D dealing: A posts the small blind and
    raises to 400, B posts the big blind and checks at 200, C bets 800, D 1600.
    """
    state = make(
        [400, 200, 800, 1600],
        dealer=3,
        hands=["As Ah", "2s 2h", "3s 3h", "4s 4h"],
        board="Ac 7d 8h 9s Kd",
    )
    assert state["blind_seats"] == [0, 1] and state["stakes"] == [100, 200, 0, 0]
    assert ENGINE.actors(state) == [0, 1, 2, 3]  # one countdown, everyone at once
    state = act(state, 2, type="bet", amount=800)
    state = act(state, 0, type="raise", amount=400)
    state = act(state, 3, type="bet", amount=1600)
    state = act(state, 1, type="check")
    outcome = ENGINE.outcome(state)
    assert [p["amount"] for p in outcome.details["pots"]] == [800, 600, 800, 800]
    assert [p["winners"] for p in outcome.details["pots"]] == [[0], [0], [3], [3]]
    assert outcome.deltas == [1000, -200, -800, 0]
    net, rake = apply_rake(outcome.deltas, 500)
    assert net == [950, -200, -800, 0] and rake == 50
    assert outcome.details["categories"] == ["three_of_a_kind", "pair", "pair", "pair"]


def test_blinds_check_or_raise_and_the_others_bet_a_fixed_stake_or_fold():
    state = make([5000] * 4, dealer=0)
    assert state["blind_seats"] == [1, 2] and state["stakes"] == [0, 100, 200, 0]
    assert ENGINE.legal_actions(state, 1) == [{"type": "check"}] + [
        {"type": "raise", "amount": a} for a in (200, 400, 800, 1600)
    ]
    assert ENGINE.legal_actions(state, 2) == [{"type": "check"}] + [
        {"type": "raise", "amount": a} for a in (400, 800, 1600)
    ]
    assert ENGINE.legal_actions(state, 3) == [{"type": "bet", "amount": a} for a in (200, 400, 800, 1600)] + [
        {"type": "fold"}
    ]


def test_refusals_explain_themselves_and_change_nothing():
    state = make([5000] * 3, dealer=0)
    with pytest.raises(IllegalAction, match="posted a blind"):
        act(state, 1, type="bet", amount=400)
    with pytest.raises(IllegalAction, match="Only the blinds may check"):
        act(state, 0, type="check")
    with pytest.raises(IllegalAction, match="cannot fold"):
        act(state, 2, type="fold")
    with pytest.raises(IllegalAction, match="stakes you can afford"):
        act(state, 0, type="bet", amount=300)
    with pytest.raises(IllegalAction, match="not an action in this game"):
        act(state, 1, type="check", amount=0)
    with pytest.raises(IllegalAction, match="not a valid bet"):
        act(state, 0, type="bet", amount=200.0)
    state = act(state, 0, type="bet", amount=200)
    with pytest.raises(IllegalAction, match="already made your bet"):
        act(state, 0, type="bet", amount=400)


def test_short_stack_bets_all_it_has():
    state = make([150, 5000, 5000], dealer=1)  # blinds: seat 2 small, seat 0 big (150 of 200)
    assert state["blind_seats"] == [2, 0] and state["stakes"][0] == 150
    assert ENGINE.legal_actions(state, 0) == [{"type": "check"}]
    state = make([5000, 5000, 5000, 150], dealer=0)
    assert ENGINE.legal_actions(state, 3) == [{"type": "bet", "amount": 150}, {"type": "fold"}]


def test_heads_up_the_seat_after_the_dealer_posts_the_small_blind():
    state = make([1000, 1000], dealer=0)
    assert state["blind_seats"] == [1, 0] and state["stakes"] == [200, 100]


def test_timeout_checks_the_blinds_and_bets_the_smallest_stake_for_the_rest():
    """托管 and the countdown's end make the least 001:181 offers: 必下, nobody is folded."""
    state = make([5000] * 4, dealer=0)
    assert ENGINE.deadline_seconds(state) == 20
    state = act(state, 3, type="bet", amount=400)
    state = ENGINE.on_deadline(state)
    assert state["phase"] == "finished"
    assert state["folded"] == [False, False, False, False]
    assert state["stakes"] == [200, 100, 200, 400]  # seat 0 bets one big blind; the blinds stand
    assert ENGINE.view(state, None)["coins"] == [4800, 4900, 4800, 4600]
    assert sum(ENGINE.outcome(state).deltas) == 0
    assert ENGINE.deadline_seconds(state) is None


def test_tuoguan_bets_all_a_short_stack_has_and_folds_only_a_seat_with_nothing():
    state = make([5000, 5000, 5000, 150, 0], dealer=0)
    assert ENGINE.auto_action(state, 3) == {"type": "bet", "amount": 150}
    assert ENGINE.auto_action(state, 4) == {"type": "fold"}
    assert ENGINE.auto_action(state, 1) == {"type": "check"}  # the small blind
    assert ENGINE.auto_action(state, 0) == ENGINE.hint(state, 0) == {"type": "bet", "amount": 200}


def test_views_show_own_cards_and_the_board_then_live_hands_at_the_end():
    state = make([5000] * 3, dealer=0, hands=["As Ks", "2c 7d", "Qh Qd"], board="Ac Kd 5h 6s 9c")
    view = ENGINE.view(state, 1)
    assert view["hand"] == ["2c", "7d"] and view["board"] == ["Ac", "Kd", "5h", "6s", "9c"]
    assert view["hands"] == [None, ["2c", "7d"], None]
    assert ENGINE.view(state, None)["hands"] == [None, None, None]
    state = act(state, 0, type="fold")
    state = act(state, 1, type="check")
    state = act(state, 2, type="check")
    spectator = ENGINE.view(state, None)
    assert spectator["hands"] == [None, ["2c", "7d"], ["Qh", "Qd"]]  # the folded hand stays hidden
    assert spectator["best"][2] == {"category": "pair", "cards": ["Qh", "Qd", "Ac", "Kd", "9c"]}
    assert ENGINE.outcome(state).deltas == [0, -100, 100]
    assert ENGINE.outcome(state).details["next_first_seat"] == 1


def test_equal_hands_split_with_the_odd_coin_first_clockwise_from_the_dealer():
    state = make(
        [5000] * 3, dealer=0, small_blind=5, hands=["2h 3h", "Ah 2c", "Ad 3c"], board="Tc Jd Qh Ks 4s"
    )
    state = act(state, 0, type="bet", amount=10)
    state = act(state, 1, type="check")
    state = act(state, 2, type="check")
    outcome = ENGINE.outcome(state)
    # Stakes 10, 5, 10. Main pot 15 (seats 0, 1, 2): seats 1 and 2 tie with Broadway,
    # 8 to seat 1 (first after the dealer) and 7 to seat 2. Side pot 10 (0, 2): seat 2.
    assert [(p["amount"], p["winners"]) for p in outcome.details["pots"]] == [(15, [1, 2]), (10, [2])]
    assert outcome.deltas == [-10, 3, 7]


def test_a_seat_that_folds_before_betting_loses_nothing_and_wins_nothing():
    state = make([5000] * 3, dealer=0, hands=["As Ad", "2c 7d", "3c 8d"], board="Ac Kd 5h 6s 9c")
    state = act(state, 0, type="fold")
    state = act(state, 1, type="check")
    state = act(state, 2, type="raise", amount=800)
    assert ENGINE.outcome(state).deltas == [0, -100, 100]
