"""炸金花 hands played step by step: stakes, 看牌, 比牌, caps, showdown, who sees what."""

import pytest

from games import REGISTRY
from games.base import IllegalAction, SeatSpec, SeededRng
from games.zhajinhua import GAME

ENGINE = GAME.engine


def make(hands, coins=1000, dealer=0, base_stake=10, **options):
    """Start a hand with the given hands (seat order); base stake 10 unless told."""
    n = len(hands)
    config = {
        **GAME.default_options,
        "base_stake": base_stake,
        "room_factor": 1,
        "first_seat": dealer,
        **options,
    }
    coins = coins if isinstance(coins, list) else [coins] * n
    seats = [SeatSpec(100 + i, c) for i, c in enumerate(coins)]
    state = ENGINE.new_hand(config, seats, SeededRng(b"zhajinhua-tests-0", "hand"))
    state["_hands"] = [h.split() for h in hands]
    return state


def act(state, seat, **action):
    return ENGINE.apply(state, seat, action)


STRONG, MIDDLE, WEAK = "As Ah Kd", "9s 9h 2d", "7c 5d 3h"


def test_everyone_antes_and_the_seat_after_the_dealer_starts():
    state = make([STRONG, MIDDLE, WEAK], dealer=1)
    assert state["bets"] == [10, 10, 10]
    assert ENGINE.actors(state) == [2]
    view = ENGINE.view(state, 2)
    assert view["pot"] == 30 and view["call_cost"] == 10 and view["hand"] is None


def test_random_first_dealer_when_first_seat_is_none():
    config = {**GAME.default_options, "base_stake": 10, "first_seat": None}
    dealers = {
        ENGINE.new_hand(config, [SeatSpec(i, 500) for i in range(4)], SeededRng(bytes([k]) * 16))["dealer"]
        for k in range(30)
    }
    assert dealers <= {0, 1, 2, 3} and len(dealers) > 1


def test_a_seen_player_pays_twice_the_blind_stake():
    state = make([STRONG, MIDDLE, WEAK])
    assert {"type": "raise", "amount": 20} in ENGINE.legal_actions(state, 1)
    state = act(state, 1, type="raise", amount=20)  # blind raise to a stake of 20
    state = act(state, 2, type="look")
    assert ENGINE.actors(state) == [2]  # looking does not end the turn
    assert ENGINE.view(state, 2)["call_cost"] == 40
    raises = [a["amount"] for a in ENGINE.legal_actions(state, 2) if a["type"] == "raise"]
    assert raises == [60, 100, 200]  # 2 × the stakes 30, 50, 100; the cap is 2 × 100
    state = act(state, 2, type="call")
    assert state["bets"][2] == 50


def test_looking_twice_or_a_raise_off_the_steps_is_refused_with_a_reason():
    state = make([STRONG, MIDDLE, WEAK])
    state = act(state, 1, type="look")
    with pytest.raises(IllegalAction, match="already looked"):
        act(state, 1, type="look")
    with pytest.raises(IllegalAction, match="cannot raise by that amount"):
        act(state, 1, type="raise", amount=25)
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, 2, type="call")
    with pytest.raises(IllegalAction, match="not an action in this game"):
        act(state, 1, type="call", amount=10)
    with pytest.raises(IllegalAction, match="not a whole number"):
        act(state, 1, type="raise", amount="20")


def test_compare_only_from_the_second_round_and_it_costs_twice_the_call():
    state = make([WEAK, STRONG, MIDDLE])
    with pytest.raises(IllegalAction, match="second round"):
        act(state, 1, type="compare", target=2)
    state = act(state, 1, type="call")
    state = act(state, 2, type="call")
    state = act(state, 0, type="call")
    state = act(state, 1, type="look")
    before = state["bets"][1]
    assert ENGINE.view(state, 1)["compare_cost"] == 2 * 20  # what the button says
    assert ENGINE.view(state, 2)["compare_cost"] is None  # not seat 2's turn
    state = act(state, 1, type="compare", target=2)
    assert state["bets"][1] - before == 2 * 20  # seen: call 20, comparison 40
    assert state["status"] == ["active", "active", "lost"]
    assert state["compares"] == [{"seat": 1, "target": 2, "winner": 1}]


def test_on_equal_hands_the_player_who_asked_loses():
    state = make(["9s 9h 2d", "9c 9d 2h", WEAK])
    for seat in (1, 2, 0):
        state = act(state, seat, type="call")
    state = act(state, 1, type="compare", target=0)
    assert state["status"][1] == "lost"


def test_235_wins_a_comparison_against_a_leopard():
    state = make(["2s 3h 5d", "Ks Kh Kd"], dealer=1)
    state = act(state, 0, type="call")
    state = act(state, 1, type="call")
    state = act(state, 0, type="compare", target=1)
    outcome = ENGINE.outcome(state)
    assert outcome.winners == [0] and outcome.deltas == [20, -20]  # pot 60: seat 0 put in 40


def test_a_comparison_that_decides_the_pot_shows_both_hands_to_everyone():
    state = make([WEAK, STRONG, MIDDLE])
    for seat in (1, 2, 0):
        state = act(state, seat, type="call")
    state = act(state, 1, type="compare", target=2)  # 2 loses
    state = act(state, 0, type="call")
    mid = ENGINE.view(state, None)
    assert mid["hands"] == [None, None, None]  # 001:734: nobody sees a comparison's cards
    assert ENGINE.view(state, 1)["hands"] == [None, None, None]
    state = act(state, 1, type="compare", target=0)  # 0 loses, 1 takes the pot
    outcome = ENGINE.outcome(state)
    assert outcome.winners == [1] and outcome.details["ended_by"] == "compare"
    assert sum(outcome.deltas) == 0
    spectator = ENGINE.view(state, None)
    assert spectator["hands"] == [WEAK.split(), STRONG.split(), None]
    # Seat 2 compared with seat 1 earlier: it sees its own and seat 1's, and the final pair.
    assert ENGINE.view(state, 2)["hands"] == [WEAK.split(), STRONG.split(), MIDDLE.split()]
    # Seat 0 never compared with seat 2: seat 2's hand stays hidden from it.
    assert ENGINE.view(state, 0)["hands"][2] is None


def test_compare_reveal_immediate_shows_the_two_hands_to_the_two_players_only():
    state = make([WEAK, STRONG, MIDDLE], compare_reveal="immediate")
    for seat in (1, 2, 0):
        state = act(state, seat, type="call")
    state = act(state, 1, type="compare", target=2)
    assert ENGINE.view(state, 1)["hands"] == [None, STRONG.split(), MIDDLE.split()]
    assert ENGINE.view(state, 2)["hands"] == [None, STRONG.split(), MIDDLE.split()]
    assert ENGINE.view(state, 0)["hands"] == [None, None, None]
    assert ENGINE.view(state, None)["hands"] == [None, None, None]


def test_last_player_standing_after_folds_shows_nobody_anything():
    state = make([STRONG, MIDDLE, WEAK])
    state = act(state, 1, type="look")
    assert ENGINE.view(state, 1)["hand"] == MIDDLE.split()
    state = act(state, 1, type="fold")
    assert ENGINE.view(state, 1)["hand"] is None  # 002:31: folded, no peeking until the end
    state = act(state, 2, type="fold")
    outcome = ENGINE.outcome(state)
    assert outcome.deltas == [20, -10, -10] and outcome.details["ended_by"] == "fold"
    assert ENGINE.view(state, None)["hands"] == [None, None, None]
    assert ENGINE.view(state, 1)["hands"] == [None, MIDDLE.split(), None]
    assert outcome.details["next_first_seat"] == 1


def test_reveal_all_at_end_option_shows_every_hand():
    state = make([STRONG, MIDDLE, WEAK], reveal_all_at_end=True)
    state = act(state, 1, type="fold")
    state = act(state, 2, type="fold")
    assert ENGINE.view(state, None)["hands"] == [STRONG.split(), MIDDLE.split(), WEAK.split()]


def test_round_cap_forces_a_showdown_and_equal_hands_split_with_the_odd_coin():
    state = make(["As Kh 9d", "Ac Kd 9s", "2c 3d 7h"], dealer=2, max_rounds=1)
    state = act(state, 0, type="call")
    state = act(state, 1, type="call")
    state = act(state, 2, type="raise", amount=20)
    assert ENGINE.actors(state) == [] and state["phase"] == "finished"
    outcome = ENGINE.outcome(state)
    # Pot 10+10+10 antes + 10 + 10 + 20 = 70; 0 and 1 tie: 35 each.
    assert outcome.details["ended_by"] == "showdown"
    assert outcome.winners == [0, 1]
    assert outcome.deltas == [15, 15, -30]
    assert ENGINE.view(state, None)["hands"] == [h.split() for h in ("As Kh 9d", "Ac Kd 9s", "2c 3d 7h")]


def test_odd_coin_goes_to_the_first_winner_clockwise_from_the_dealer():
    state = make(["As Kh 9d", "Ac Kd 9s", "2c 3d 7h"], coins=[1000, 1000, 3], base_stake=5, max_rounds=1)
    state = act(state, 1, type="call")  # seat 2 (3 coins, all anted) cannot call 5: folded
    state = act(state, 0, type="call")
    outcome = ENGINE.outcome(state)
    # Pot 5 + 5 + 3 + 5 + 5 = 23: 11 each, the odd coin to seat 1 (first after the dealer, seat 0).
    assert outcome.winners == [1, 0]
    assert outcome.deltas == [1, 2, -3]


def test_first_opens_loses_option_gives_equal_hands_to_the_last_in_betting_order():
    state = make(
        ["As Kh 9d", "Ac Kd 9s", "2c 3d 7h"], dealer=2, max_rounds=1, showdown_ties="first_opens_loses"
    )
    for seat in (0, 1, 2):
        state = act(state, seat, type="call")
    assert ENGINE.outcome(state).winners == [1]


def test_pot_cap_forces_a_showdown():
    state = make([STRONG, MIDDLE, WEAK], pot_cap=6)
    state = act(state, 1, type="call")
    assert state["phase"] == "betting"
    state = act(state, 2, type="raise", amount=20)  # pot 60 = the cap
    outcome = ENGINE.outcome(state)
    assert outcome.details["ended_by"] == "showdown" and outcome.winners == [0]


def test_a_player_who_cannot_cover_the_call_is_folded():
    state = make([STRONG, MIDDLE, WEAK], coins=[1000, 1000, 25])
    state = act(state, 1, type="raise", amount=20)
    # Seat 2 has 15 left and a call costs 20: the system folds it and seat 0 acts.
    assert state["status"][2] == "folded" and ENGINE.actors(state) == [0]
    state = act(state, 0, type="fold")
    assert ENGINE.outcome(state).deltas == [-10, 20, -10]


def test_nobody_antes_more_than_they_carry():
    state = make([STRONG, MIDDLE], coins=[1000, 6])
    assert state["bets"] == [10, 6]
    # Seat 1 acts first with nothing left to call: folded at once, losing only its 6.
    outcome = ENGINE.outcome(state)
    assert outcome.deltas == [6, -6] and outcome.details["ended_by"] == "fold"


def test_on_deadline_calls_for_the_player_on_turn_blind_or_seen():
    """托管 and a timeout make 002:39's 自动跟注: the call at the seat's own rate, never a look."""
    state = make([STRONG, MIDDLE, WEAK])
    assert ENGINE.deadline_seconds(state) == 20
    assert ENGINE.auto_action(state, 1) == {"type": "call"}
    state = ENGINE.on_deadline(state)
    assert state["status"][1] == "active" and not state["looked"][1]
    assert state["bets"][1] == 10 + 10 and ENGINE.actors(state) == [2]  # ante + a blind call
    state = ENGINE.apply(state, 2, {"type": "look"})
    state = ENGINE.on_deadline(state)
    assert state["bets"][2] == 10 + 20  # seen: the call costs twice the blind stake
    assert ENGINE.hint(state, 0) == {"type": "call"}  # blind in the first round


def test_auto_call_folds_only_a_seat_that_cannot_call():
    state = make([STRONG, MIDDLE], coins=[1000, 25])  # seat 1: ante 10, 15 left
    state = ENGINE.apply(state, 1, {"type": "look"})  # the seen call (20) is now beyond it
    assert state["status"][1] == "folded"  # 001:749, the system folds it
    assert ENGINE.auto_action(state, 1) == {"type": "fold"}  # not its turn: nothing to call


def test_a_hand_played_by_tuoguan_alone_ends_at_the_round_cap():
    state = make([STRONG, MIDDLE, WEAK], max_rounds=3)
    steps = 0
    while ENGINE.outcome(state) is None:
        state = ENGINE.on_deadline(state)
        steps += 1
    assert steps == 9 and state["result"]["ended_by"] == "showdown"
    assert not any(state["looked"])


def test_hint_plays_whole_hands_to_an_end():
    config = {**GAME.default_options, "base_stake": 10, "first_seat": None}
    for k in range(40):
        seats = [SeatSpec(i, 2000) for i in range(4)]
        state = ENGINE.new_hand(config, seats, SeededRng(bytes([k + 1]) * 16))
        steps = 0
        while ENGINE.outcome(state) is None:
            seat = ENGINE.actors(state)[0]
            state = ENGINE.apply(state, seat, ENGINE.hint(state, seat))
            steps += 1
        assert steps < 40 and sum(ENGINE.outcome(state).deltas) == 0


def test_a_blind_player_sees_no_cards_and_looking_shows_only_their_own():
    state = make([STRONG, MIDDLE, WEAK])
    assert ENGINE.view(state, 1)["hand"] is None
    state = act(state, 1, type="look")
    view = ENGINE.view(state, 1)
    assert view["hand"] == MIDDLE.split() and view["hand_category"] == "pair"
    assert view["hands"] == [None, MIDDLE.split(), None]
    assert ENGINE.view(state, 0)["hands"] == [None, None, None]
    assert view["looked"] == [False, True, False]


def test_a_player_may_look_out_of_turn_and_the_turn_stays():
    """001:748 sets no moment for 看牌: a seat still in the hand may look while another is on turn."""
    state = make([STRONG, MIDDLE, WEAK])  # seat 1 on turn
    assert ENGINE.out_of_turn_actions(state, 2) == [{"type": "look"}]
    assert ENGINE.out_of_turn_actions(state, 1) == []  # on turn: its actions are legal_actions
    assert ENGINE.legal_actions(state, 2) == []
    on_turn = ENGINE.legal_actions(state, 1)
    state = act(state, 2, type="look")
    assert ENGINE.actors(state) == [1] and ENGINE.legal_actions(state, 1) == on_turn
    assert ENGINE.deadline_seconds(state) == 20 and state["bets"] == [10, 10, 10]
    assert ENGINE.view(state, 2)["hand"] == WEAK.split()
    assert ENGINE.view(state, 1)["hands"] == [None, None, None]  # seat 1 sees only that 2 looked
    assert ENGINE.view(state, 1)["looked"] == [False, False, True]
    assert state["log"][-1] == {"seat": 2, "type": "look"}
    assert ENGINE.out_of_turn_actions(state, 2) == []  # once
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, 2, type="look")
    state = act(state, 1, type="call")
    assert ENGINE.view(state, 2)["call_cost"] == 20  # seat 2's turn: a seen call


def test_no_look_out_of_turn_after_folding_or_when_the_tier_follows_002():
    state = make([STRONG, MIDDLE, WEAK])
    state = act(state, 1, type="fold")
    assert ENGINE.out_of_turn_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, 1, type="look")
    on_turn_only = make([STRONG, MIDDLE, WEAK], look_any_time=False)  # 002:30, 003:191
    assert ENGINE.out_of_turn_actions(on_turn_only, 2) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        act(on_turn_only, 2, type="look")
    assert {"type": "look"} in ENGINE.legal_actions(on_turn_only, 1)


def test_a_seat_that_looks_out_of_turn_and_cannot_call_seen_is_folded_on_its_turn():
    state = make([STRONG, MIDDLE, WEAK], coins=[1000, 1000, 25])  # seat 2: ante 10, 15 left
    state = act(state, 2, type="look")  # out of turn: the seen call (20) is beyond it
    assert state["status"][2] == "active" and ENGINE.actors(state) == [1]
    state = act(state, 1, type="call")
    assert state["status"][2] == "folded" and ENGINE.actors(state) == [0]  # 001:749, when its turn came
    assert state["log"][-1] == {"seat": 2, "type": "fold", "reason": "cannot_cover"}


def test_other_games_take_no_action_out_of_turn():
    for slug in ("doudizhu", "texas"):
        engine = REGISTRY[slug].engine
        assert engine.out_of_turn_actions({}, 0) == []
