"""扯旋 hands played step by step: 簸簸, 底皮, 大/跟/敲/休/丢, the split, timeouts, who sees what, who pays."""

import pytest

from games.base import IllegalAction, SeatSpec, SeededRng
from games.chexuan.engine import DEFAULT_OPTIONS, ChexuanEngine
from games.chexuan.settle import prorate, settle

ENGINE = ChexuanEngine()


def make(hands, coins=2000, dealer=0, base=10, bobo=None, **options):
    """A hand with the given four cards per seat (seat order); every 簸簸 set to ``bobo`` if given."""
    n = len(hands)
    config = {
        **DEFAULT_OPTIONS,
        "base_stake": base,
        "first_seat": dealer,
        "bobo_steps": [6, 10, 50, 100],
        **options,
    }
    coins = coins if isinstance(coins, list) else [coins] * n
    state = ENGINE.new_hand(
        config, [SeatSpec(100 + i, c) for i, c in enumerate(coins)], SeededRng(b"chexuan-tests-00", "hand")
    )
    state["_hands"] = [h.split() for h in hands]
    if bobo is not None:
        for seat, amount in enumerate(bobo if isinstance(bobo, list) else [bobo] * n):
            state = act(state, seat, type="bobo", amount=amount)
    return state


def act(state, seat, **action):
    return ENGINE.apply(state, seat, action)


def play(state, *moves):
    """Apply (seat, type[, amount]) moves in turn, checking each seat is the one on turn."""
    for move in moves:
        seat, kind, *amount = move
        assert ENGINE.actors(state) == [seat], (move, ENGINE.actors(state))
        action = {"type": kind, **({"amount": amount[0]} if amount else {})}
        state = act(state, seat, **action)
    return state


def split_all(state, heads):
    for seat, head in heads.items():
        state = act(state, seat, type="split", head=head.split())
    return state


TIAN = "Qh Qd Ts Tc"  # 天牌 + 梅十
DI = "2h 2d Js Jc"  # 地牌 + 虎头
REN = "8h 8d 5s 7c"  # 人牌 + 2 points


def test_every_seat_sets_its_bobo_at_once_and_nobody_sees_the_others_until_all_have():
    state = make([TIAN, DI, REN], coins=[2000, 300, 2000], bobo_steps=DEFAULT_OPTIONS["bobo_steps"])
    assert ENGINE.phase(state) == "bobo" and ENGINE.actors(state) == [0, 1, 2]
    assert [a["amount"] for a in ENGINE.legal_actions(state, 1)] == [200, 300]  # capped by what it carried
    state = act(state, 1, type="bobo", amount=300)
    assert ENGINE.view(state, 0)["bobo"] == [None, None, None]
    assert ENGINE.view(state, 1)["bobo"] == [None, 300, None]
    assert ENGINE.view(state, 0)["bobo_set"] == [False, True, False]
    with pytest.raises(IllegalAction, match="limits offered"):
        act(state, 0, type="bobo", amount=333)
    state = act(state, 0, type="bobo", amount=500)
    state = act(state, 2, type="bobo", amount=1000)
    assert ENGINE.view(state, 0)["bobo"] == [500, 300, 1000]
    # 底皮 paid by everyone, two cards each, the seat after the dealer speaks first.
    assert state["bets"] == [10, 10, 10] and ENGINE.phase(state) == "betting"
    assert ENGINE.actors(state) == [1]


def test_two_cards_down_then_one_up_each_round():
    state = make([TIAN, DI, REN], bobo=500)
    view = ENGINE.view(state, 1)
    assert view["hands"] == [[None, None], ["2h", "2d"], [None, None]]
    state = play(state, (1, "check"), (2, "check"), (0, "raise", 10), (1, "call"), (2, "call"))
    assert state["round"] == 2
    view = ENGINE.view(state, None)
    assert view["hands"] == [[None, None, "Ts"], [None, None, "Js"], [None, None, "5s"]]
    state = play(state, (1, "raise", 10), (2, "fold"), (0, "call"))
    view = ENGINE.view(state, 0)
    # A seat that folded gets no more cards; the others get their fourth.
    assert view["hands"] == [["Qh", "Qd", "Ts", "Tc"], [None, None, "Js", "Jc"], [None, None, "5s"]]


def test_no_check_once_somebody_has_bet_and_a_raise_reopens_the_round():
    state = make([TIAN, DI, REN], bobo=500)
    state = play(state, (1, "raise", 20))
    with pytest.raises(IllegalAction, match="cannot check"):
        act(state, 2, type="check")
    state = play(state, (2, "raise", 30), (0, "call"))
    assert ENGINE.actors(state) == [1] and {"type": "call"} in ENGINE.legal_actions(state, 1)
    state = play(state, (1, "call"))
    assert state["round"] == 2 and state["bets"] == [40, 40, 40]


def test_everyone_checks_in_a_round_and_the_hand_ends_with_no_result():
    state = make([TIAN, DI, REN], bobo=500)
    state = play(state, (1, "raise", 10), (2, "call"), (0, "call"))
    state = play(state, (1, "check"), (2, "check"), (0, "check"))
    outcome = ENGINE.outcome(state)
    assert outcome.deltas == [0, 0, 0] and outcome.winners == []
    assert outcome.details["ended_by"] == "void"
    assert ENGINE.view(state, 1)["hands"][0] == [None, None, "Ts"]  # nothing is shown


def test_all_in_stops_betting_for_that_seat_and_the_others_play_on():
    state = make([TIAN, DI, REN], bobo=[500, 100, 500])
    state = play(state, (1, "allin"))
    assert state["status"][1] == "allin" and state["bets"][1] == 100 and state["level"] == 100
    state = play(state, (2, "call"), (0, "call"))
    assert ENGINE.actors(state) == [2]  # round 2: seat 1 has nothing left to say
    state = play(state, (2, "check"), (0, "raise", 10))
    with pytest.raises(IllegalAction, match="cannot raise by that amount"):
        act(state, 2, type="raise", amount=7)
    state = play(state, (2, "call"), (2, "raise", 10), (0, "call"))
    assert ENGINE.phase(state) == "split" and ENGINE.actors(state) == [0, 1, 2]


def test_all_in_for_less_than_the_stake_is_allowed_and_call_needs_more_than_that():
    state = make([TIAN, DI, REN], bobo=[500, 60, 500])
    state = play(state, (1, "check"), (2, "raise", 100))
    assert ENGINE.legal_actions(state, 0)[0] == {"type": "call"}
    state = play(state, (0, "call"))
    assert {"type": "call"} not in ENGINE.legal_actions(state, 1)  # 100 is more than its 60
    state = play(state, (1, "allin"))
    assert state["bets"] == [110, 60, 110] and state["round"] == 2


def test_the_split_and_the_showdown_pay_pairwise_within_each_stake():
    # Seat 1 put in only 100 (its 簸簸): it wins or loses at most 100 from each (003:67).
    state = make([TIAN, DI, REN], bobo=[1000, 100, 1000])
    state = play(state, (1, "allin"), (2, "raise", 290), (0, "call"))
    state = play(state, (2, "check"), (0, "check"))
    assert state["phase"] == "finished" and state["result"]["ended_by"] == "void"
    state = make([TIAN, DI, REN], bobo=[1000, 100, 1000])
    state = play(state, (1, "allin"), (2, "raise", 290), (0, "call"))
    state = play(state, (2, "raise", 10), (0, "call"), (2, "check"), (0, "check"))
    assert state["phase"] == "finished"  # a round of checks, after one with bets, also ends it
    state = make([TIAN, DI, REN], bobo=[1000, 100, 1000])
    state = play(state, (1, "allin"), (2, "raise", 290), (0, "call"))
    state = play(state, (2, "raise", 10), (0, "call"), (2, "raise", 10), (0, "call"))
    assert ENGINE.phase(state) == "split"
    choices = ENGINE.legal_actions(state, 0)
    assert len(choices) == 3 and {"type": "split", "head": ["Qh", "Qd"]} in choices
    with pytest.raises(IllegalAction, match="larger as the head"):
        act(state, 0, type="split", head=["Ts", "Tc"])
    state = split_all(state, {0: "Qh Qd", 1: "2h 2d", 2: "8h 8d"})
    assert state["bets"] == [320, 100, 320]
    outcome = ENGINE.outcome(state)
    # 天牌/梅十 beats both, 地牌/虎头 beats 人牌/2 points; a pair's winner takes at most the smaller
    # stake, and seat 2's 320 goes first to seat 0, which beat everyone, as a pot would.
    assert outcome.deltas == [100 + 320, -100, -320]
    assert outcome.winners == [0]
    assert outcome.details["names"][0] == ["tian", "meishi"]
    assert outcome.details["names"][2] == ["ren", "points_2"]
    assert ENGINE.view(state, 2)["hands"][0] == TIAN.split()  # the showdown shows every hand still in


def test_sanhua_neither_wins_nor_loses():
    state = make(["Ts Th Js 4c", DI, REN], bobo=500)  # 三花十: 黑10 + 红10 + 黑J + any
    state = play(state, (1, "raise", 50), (2, "call"), (0, "call"))
    state = play(
        state, (1, "raise", 10), (2, "call"), (0, "call"), (1, "raise", 10), (2, "call"), (0, "call")
    )
    state = split_all(state, {0: "Js 4c", 1: "2h 2d", 2: "8h 8d"})
    outcome = ENGINE.outcome(state)
    assert outcome.deltas == [0, 80, -80] and outcome.details["specials"][0] == "sanhua_shi"


def test_a_timeout_while_betting_folds_and_at_the_split_takes_the_best_split():
    state = make([TIAN, DI, REN], bobo=500)
    assert ENGINE.auto_action(state, 1) == {"type": "fold"}
    state = ENGINE.on_deadline(state)
    assert state["status"][1] == "folded" and ENGINE.actors(state) == [2]
    state = play(
        state, (2, "raise", 10), (0, "call"), (2, "raise", 10), (0, "call"), (2, "raise", 10), (0, "call")
    )
    state = ENGINE.on_deadline(state)  # nobody split in time: best_split for both
    assert state["splits"][0] == [["Qh", "Qd"], ["Ts", "Tc"]]
    outcome = ENGINE.outcome(state)
    assert outcome.deltas == [40 + 10, -10, -40]  # the folded seat's 底皮 goes to the best hand


def test_a_bobo_timeout_takes_the_smallest_amount():
    state = make([TIAN, DI], bobo_steps=DEFAULT_OPTIONS["bobo_steps"])
    state = act(state, 0, type="bobo", amount=2000)
    state = ENGINE.on_deadline(state)
    assert state["bobo"] == [2000, 200]


def test_the_last_seat_standing_wins_what_it_covered_and_shows_nothing():
    state = make([TIAN, DI, REN], bobo=500)
    state = play(state, (1, "raise", 100), (2, "fold"), (0, "fold"))
    outcome = ENGINE.outcome(state)
    assert outcome.deltas == [-10, 20, -10] and outcome.details["ended_by"] == "fold"
    assert ENGINE.view(state, 0)["hands"][1] == [None, None]


def test_bad_moves_are_refused_with_a_reason():
    state = make([TIAN, DI, REN], bobo=500)
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, 0, type="check")
    with pytest.raises(IllegalAction, match="nothing to call"):
        act(state, 1, type="call")
    with pytest.raises(IllegalAction, match="whole number"):
        act(state, 1, type="raise", amount="10")
    with pytest.raises(IllegalAction, match="not an action in this game"):
        act(state, 1, type="check", amount=1)


def test_settle_caps_a_loss_at_the_stake_and_a_win_at_what_was_carried():
    # Seat 2 loses to both: claims of 300 + 300 against a stake of 300 are shared.
    deltas = settle(
        [300, 300, 300],
        [5000] * 3,
        [0, 1, 2],
        [],
        lambda i, j: {0: 1, 1: 1, 2: -1}[i] if {i, j} & {2} else 0,
        [1, 2, 0],
    )
    assert deltas == [150, 150, -300]
    # Seat 0 carried 200: it wins no more than that.
    deltas = settle(
        [150, 150, 150],
        [200, 5000, 5000],
        [0, 1, 2],
        [],
        lambda i, j: 1 if i == 0 else (-1 if j == 0 else 0),
        [0, 1, 2],
    )
    assert deltas[0] == 200 and sum(deltas) == 0 and min(deltas) >= -150
    assert prorate(10, {0: 9, 1: 9, 2: 9}, [2, 0, 1]) == {0: 3, 1: 3, 2: 4}
