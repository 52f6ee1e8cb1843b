"""填大坑 engine: named hands for the rules of seed 000."""

import pytest

from games.base import IllegalAction, SeatSpec, SeededRng
from games.tiandakeng.engine import DEFAULT_OPTIONS, TiandakengEngine

ENGINE = TiandakengEngine()


def deal(coins, down, up, rest, variant="jiuzhou", carry=None, players=None, **options):
    """A hand with the test's cards: seat i holds ``down[i]`` face down and ``up[i]`` face up; ``rest`` is the deck."""
    config = {
        **DEFAULT_OPTIONS,
        "variant": variant,
        "base_stake": 10,
        "first_seat": 0,
        "carry": carry,
        **options,
    }
    ids = players or list(range(1, len(coins) + 1))
    state = ENGINE.new_hand(
        config, [SeatSpec(p, c) for p, c in zip(ids, coins, strict=True)], SeededRng(b"t" * 16)
    )
    state["_down"], state["up"], state["_deck"] = [list(d) for d in down], [[u] for u in up], list(rest)
    ENGINE._start_round(state)
    return state


def act(state, kind, **extra):
    return ENGINE.apply(state, state["turn"], {"type": kind, **extra})


def kinds(state):
    return [
        a["type"] if a["type"] != "raise" else a["amount"] for a in ENGINE.legal_actions(state, state["turn"])
    ]


THREE = dict(
    down=[["8s", "8h"], ["9s", "9h"], ["Ts", "Th"]],
    up=["Ks", "As", "Kh"],
    rest=["Js", "Jh", "Jc", "Qs", "Qh", "Qc"],
)


def test_the_highest_face_up_card_speaks_and_bets_are_1_3_5_times_the_ante():  # 000:1, 000:53
    s = deal([1000] * 3, **THREE)
    assert s["bets"] == [10, 10, 10]  # 下锅: everyone antes the 底注
    assert s["turn"] == 1 and kinds(s) == ["check", 10, 30, 50, "fold"]  # no 全压 before the last round
    s = act(s, "raise", amount=30)
    assert kinds(s) == ["call", 40, 60, 80, "fold"]  # 反踢 over the bet


def test_ties_of_face_up_points_speak_from_the_dealer_on():  # 000:1
    s = deal([1000] * 3, down=THREE["down"], up=["Ks", "Kh", "Qs"], rest=THREE["rest"], first_seat=1)
    assert s["dealer"] == 1 and s["turn"] == 1


def test_each_seat_may_kick_back_once_a_round():  # 000:85
    s = deal([1000] * 3, **THREE)
    s = act(s, "raise", amount=10)  # seat 1 bets
    s = act(s, "raise", amount=20)  # seat 2 kicks back
    s = act(s, "raise", amount=30)  # seat 0 kicks back
    s = act(s, "raise", amount=40)  # seat 1 kicks back: its opening bet was no kick
    assert s["turn"] == 2 and kinds(s) == ["call", "fold"]  # seat 2 has kicked this round
    with pytest.raises(IllegalAction, match="raise"):
        act(s, "raise", amount=50)


def test_two_handed_on_the_last_card_the_kicks_go_on_and_allin_stakes_the_smallest_stack():  # 000:53, 000:85
    s = deal([1000, 400], down=[["8s", "8h"], ["9s", "9h"]], up=["Ks", "As"], rest=["Js", "Jh", "Qs", "Qh"])
    for _ in range(4):
        s = act(s, "check")
    assert s["round"] == 3 and "allin" in kinds(s)
    for amount in (10, 20, 30, 40):
        s = act(s, "raise", amount=amount)
    assert 50 in kinds(s)  # still kicking back
    s = act(s, "allin")
    assert s["bets"][s["log"][-1]["seat"]] == 400 and kinds(s) == ["call", "fold"]
    s = act(s, "call")
    assert s["phase"] == "finished" and s["bets"] == [400, 400]


def test_a_timeout_folds():  # 000:57
    s = deal([1000] * 3, **THREE)
    s = act(s, "raise", amount=10)
    s = ENGINE.on_deadline(s)
    assert s["status"][2] == "folded"


def test_xiqian_every_other_player_pays_the_winner():  # 000:23-25
    s = deal(
        [1000] * 3,
        down=[["8s", "8h"], ["As", "Ah"], ["9s", "9h"]],
        up=["Ts", "FL", "Th"],
        rest=["Js", "DJ", "Jh", "Qs", "XJ", "Qh"],
    )
    while s["phase"] != "finished":
        s = act(s, "check")
    result = ENGINE.outcome(s)
    assert result.details["specials"][1] == "manguan"
    assert result.details["xiqian"] == [40, 0, 40]  # 4 番 × 底注 10
    assert result.deltas == [-50, 100, -50]


def test_equal_best_hands_are_a_lanpot_and_the_next_hand_doubles_without_ante():  # 000:39, 000:91
    s = deal([1000] * 2, down=[["8s", "9h"], ["8h", "9s"]], up=["Ts", "Th"], rest=["Js", "Jh", "Qs", "Qh"])
    while s["phase"] != "finished":
        s = act(s, "check")
    out = ENGINE.outcome(s)
    assert out.details["ended_by"] == "lanpot" and out.winners == []
    assert out.deltas == [-10, -10] and out.details["carry"] == {"pot": 20, "level": 1, "players": [1, 2]}
    nxt = deal(
        [990, 990],
        down=[["8s", "9h"], ["As", "Ah"]],
        up=["Ts", "Th"],
        rest=["Js", "Jh", "Qs", "Qh"],
        carry=out.details["carry"],
    )
    assert nxt["bets"] == [0, 0] and nxt["base"] == 20 and kinds(nxt)[:3] == ["check", 20, 60]
    while nxt["phase"] != "finished":
        nxt = act(nxt, "check")
    out = ENGINE.outcome(nxt)
    assert out.winners == [1] and out.deltas == [0, 20] and out.details["from_carried_pot"] == [0, 20]
    with pytest.raises(ValueError, match="烂锅"):
        deal(
            [990, 990],
            down=[["8s", "9h"], ["As", "Ah"]],
            up=["Ts", "Th"],
            rest=[],
            carry={"pot": 20, "level": 1, "players": [1, 3]},
        )


def test_the_last_player_of_a_lanpot_takes_it():  # 000:39
    state = ENGINE.new_hand(
        {**DEFAULT_OPTIONS, "base_stake": 10, "carry": {"pot": 60, "level": 2, "players": [7, 8]}},
        [SeatSpec(8, 5)],
        SeededRng(b"a" * 16),
    )
    out = ENGINE.outcome(state)
    assert out.deltas == [60] and out.details["ended_by"] == "alone"


def test_dongbei_shares_the_last_card_when_the_deck_runs_short():  # 000:93 借牌
    s = deal(
        [1000] * 3,
        down=[["As", "Ah"], ["Ks", "Kh"], ["Qs", "Qh"]],
        up=["Js", "Jh", "Jc"],
        rest=["Ts", "Th", "Tc", "Ac", "Kc"],
        variant="dongbei",
    )
    s["_deck"] = ["Ts", "Th", "Tc", "Ac", "Kc"]
    for _ in range(3):
        s = act(s, "check")
    assert [len(u) for u in s["up"]] == [2, 2, 2]
    for _ in range(3):
        s = act(s, "check")
    # two cards left for three seats: the first gets its own, the last two share one (000:93)
    assert s["up"][0][-1] == "Ac" and s["up"][1][-1] == s["up"][2][-1] == "Kc"
    assert s["shared"] == [{"card": "Kc", "seats": [1, 2]}]
