"""梭哈 engine: named hands for the rules of seeds 002 and 003."""

import pytest

from games.base import IllegalAction, SeatSpec, SeededRng
from games.suoha import GAME
from games.suoha.engine import settle

ENGINE = GAME.engine


def deal(coins, variant="yifa", down=None, up=None, rest=None, **options):
    """A hand whose cards the test sets: ``down`` 底牌, ``up`` first face-up cards, ``rest`` the next rounds' cards by seat."""
    config = {**GAME.default_options, "variant": variant, "base_stake": 10, **options}
    state = ENGINE.new_hand(config, [SeatSpec(i + 1, c) for i, c in enumerate(coins)], SeededRng(b"s" * 16))
    if down:
        state["_down"] = list(down)
        state["up"] = [[c] for c in up]
        n = len(coins)
        state["_cards"] = [[down[i], up[i], *rest[i::n][:3]] for i in range(n)]
        ENGINE._start_round(state)
    return state


def act(state, seat, kind, **extra):
    return ENGINE.apply(state, seat, {"type": kind, **extra})


def types(state, seat):
    return [
        a["type"] if a["type"] != "raise" else ("raise", a["amount"])
        for a in ENGINE.legal_actions(state, seat)
    ]


def test_the_best_face_up_card_speaks_first_and_round_one_is_capped_at_five_times():  # 002:55, 002:67
    s = deal([1000, 1000, 1000], down=["8s", "8h", "8c"], up=["Kd", "As", "Ah"], rest=["9s", "9h", "9c"] * 3)
    assert s["turn"] == 1  # A♠ beats A♥ and K♦
    assert types(s, 1) == ["check", ("raise", 10), ("raise", 20), ("raise", 50), "fold"]  # no 梭 yet
    s = act(s, 1, "raise", amount=50)
    assert s["turn"] == 2 and types(s, 2) == ["call", "fold"]  # the round cap is reached
    with pytest.raises(IllegalAction, match="raise"):
        act(s, 2, "raise", amount=60)


def test_suo_stakes_the_smallest_stack_and_everyone_can_call_it():  # 002:56
    s = deal(
        [1000, 230, 600],
        room_cap=None,
        down=["8s", "8h", "8c"],
        up=["Kd", "As", "Ah"],
        rest=["9s", "9h", "9c", "Ts", "Th", "Tc", "Js", "Jh", "Jc", "Qs", "Qh", "Qc"],
    )
    for seat in (1, 2, 0):
        s = act(s, seat, "check")
    assert s["round"] == 2 and "suo" in types(s, s["turn"])  # from the third card (002:55)
    s = act(s, s["turn"], "suo")
    assert s["suo"] == 230 and max(s["bets"]) == 230
    while s["phase"] == "betting":
        assert types(s, s["turn"]) == ["call", "fold"]
        s = act(s, s["turn"], "call")
    while s["phase"] == "swap":  # no more betting, but 换牌 is still offered on rounds 3 and 4
        s = act(s, s["deciding"][0], "keep")
    assert s["phase"] == "finished" and s["bets"] == [230, 230, 230]
    out = ENGINE.outcome(s)
    assert out.winners == [1]  # A♥ high; it carried 230, so it wins 230, not 460 (有限责任制)
    assert out.deltas == [-115, 230, -115]


def test_swap_puts_the_old_hole_card_face_up():  # 002:56
    s = deal([1000, 1000], down=["8s", "8h"], up=["Kd", "As"], rest=["9s", "9h", "Ts", "Th", "Js", "Jh"])
    for _ in range(2):  # rounds 1 and 2: check round
        s = act(s, s["turn"], "check")
        s = act(s, s["turn"], "check")
    assert s["phase"] == "swap" and s["round"] == 3 and sorted(s["deciding"]) == [0, 1]
    assert ENGINE.view(s, 0)["dealt"] == "Ts" and ENGINE.view(s, 1)["dealt"] == "Th"
    assert "Ts" not in str(ENGINE.view(s, 1)) and "Ts" not in str(ENGINE.view(s, None))
    s = act(s, 0, "swap")
    assert s["phase"] == "swap"  # waits for the other seat
    s = act(s, 1, "keep")
    assert s["_down"][0] == "Ts" and s["up"][0] == ["Kd", "9s", "8s"]
    assert s["_down"][1] == "8h" and s["up"][1] == ["As", "9h", "Th"]
    assert ENGINE.view(s, 1)["down"] == [None, "8h"]


def test_round_four_bets_are_twenty_times_and_the_leader_may_open():  # 002:67, 002:76
    s = deal([1000, 1000], down=["8s", "8h"], up=["Kd", "As"], rest=["9s", "9h", "Ts", "Th", "Js", "Jh"])
    while s["round"] < 4 or s["phase"] != "betting":
        s = act(s, ENGINE.actors(s)[0], "keep" if s["phase"] == "swap" else "check")
    leader = s["turn"]
    assert types(s, leader) == ["check", ("raise", 200), "suo", "open", "fold"]
    s2 = act(s, leader, "check")
    assert "open" not in types(s2, s2["turn"])  # only the best face-up hand opens
    s2 = act(s2, s2["turn"], "check")
    assert s2["round"] == 5  # nobody went 梭: an extra round (002:76), no 过 in it
    assert "check" not in types(s2, s2["turn"])
    s3 = act(s, leader, "open")
    assert s3["phase"] == "finished" and s3["result"]["ended_by"] == "showdown"


def test_hong_kong_has_no_swap_no_open_and_suo_from_the_fourth_card():  # 003
    s = deal(
        [1000, 1000, 1000],
        variant="hk",
        down=["8s", "8h", "8c"],
        up=["Kd", "As", "Ah"],
        rest=["9s", "9h", "9c", "Ts", "Th", "Tc", "Js", "Jh", "Jc"],
    )
    for _ in range(3):
        assert "suo" not in types(s, s["turn"])
        s = act(s, s["turn"], "check")
    assert s["round"] == 2
    for _ in range(3):
        assert "suo" not in types(s, s["turn"])
        s = act(s, s["turn"], "check")
    assert s["round"] == 3 and s["phase"] == "betting" and "suo" in types(s, s["turn"])
    while s["phase"] != "finished":
        assert "open" not in types(s, s["turn"])
        s = act(s, s["turn"], "check")
    assert s["round"] == 4 and s["result"]["ended_by"] == "showdown"


def test_timeout_folds_a_bet_and_keeps_the_dealt_card():  # 002:69-70 断线 → 放弃
    s = deal([1000, 1000], down=["8s", "8h"], up=["Kd", "As"], rest=["9s", "9h", "Ts", "Th", "Js", "Jh"])
    s = act(s, 1, "raise", amount=10)
    s = ENGINE.on_deadline(s)
    assert s["phase"] == "finished" and ENGINE.outcome(s).deltas == [-10, 10]


def test_settle_caps_the_win_at_what_the_winner_carried():  # 有限责任制
    assert settle([100, 100, 100], [100, 500, 500], 0) == [100, -50, -50]
    assert settle([100, 100, 1], [150, 500, 500], 0) == [101, -100, -1]  # under the cap: the whole pot
    assert sum(settle([7, 5, 3], [4, 9, 9], 0)) == 0
