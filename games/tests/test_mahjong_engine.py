"""The shared wall/draw/discard/claim machine, rule by rule, on set-up hands (001:292-329, 001:663-727, 003)."""

import pytest

from games.base import IllegalAction, SeatSpec, SeededRng
from games.mahjong.tiles import parse
from games.tuidaohu import ENGINE as TUIDAOHU
from games.xuezhan import ENGINE as XUEZHAN
from games.xuezhan import VARIANTS

SEATS = [SeatSpec(i + 1, 100_000) for i in range(4)]


def fresh(engine, config=None, seats=SEATS):
    return engine.new_hand(
        {"base_stake": 10, "first_seat": 0, **(config or {})}, seats, SeededRng(b"m" * 16, "hand")
    )


def playing(
    engine,
    hands,
    wall,
    *,
    turn=0,
    drawn=None,
    voids=("s", "s", "s", "s"),
    config=None,
    wild=None,
    seats=SEATS,
):
    """A hand in play: ``turn`` has drawn ``drawn`` (already in its hand) and must act."""
    state = fresh(engine, config, seats)
    state.update(phase="turn", turn=turn, drawn=drawn, fresh=False)
    state["_hands"] = [parse(h) for h in hands]
    state["_wall"] = parse(wall)
    state["discarded"] = [1] * 4
    if engine is XUEZHAN:
        state["voids"] = list(voids)
        state["_picks"] = [["1s"]] * 4
    else:
        state["wild"] = wild
    return state


def act(engine, state, seat, **action):
    return engine.apply(state, seat, action)


def test_exchange_and_void_are_simultaneous_phases():
    state = fresh(XUEZHAN)
    assert state["phase"] == "exchange" and XUEZHAN.actors(state) == [0, 1, 2, 3]
    before = [list(h) for h in state["_hands"]]
    picks = {}
    for seat in (2, 0, 3, 1):
        action = XUEZHAN.legal_actions(state, seat)[0]
        assert len({t[1] for t in action["tiles"]}) == 1  # three of one suit (001:705)
        picks[seat] = action["tiles"]
        state = XUEZHAN.apply(state, seat, action)
        if seat != 1:
            assert XUEZHAN.view(state, 0)["exchange"] is None  # the direction shows once all chose
    d = state["exchange"]["direction"]
    assert d in (1, 2, 3)
    for seat in range(4):
        giver = (seat - d) % 4
        kept = list(before[seat])
        for t in picks[seat]:
            kept.remove(t)
        assert sorted(state["_hands"][seat]) == sorted(kept + picks[giver])
        assert XUEZHAN.view(state, seat)["received"] == picks[giver]
    assert state["phase"] == "void" and XUEZHAN.actors(state) == [0, 1, 2, 3]
    state = act(XUEZHAN, state, 1, type="void", suit="p")
    assert XUEZHAN.view(state, 0)["voids"] == [None] * 4
    assert XUEZHAN.view(state, 1)["voids"][1] == "p"
    for seat in (0, 2, 3):
        state = act(XUEZHAN, state, seat, type="void", suit="m")
    assert XUEZHAN.view(state, 2)["voids"] == ["m", "p", "m", "m"]
    assert state["phase"] == "turn" and state["turn"] == 0 and len(state["_hands"][0]) == 14
    with pytest.raises(IllegalAction, match="not your turn"):
        act(XUEZHAN, state, 1, type="discard", tile=state["_hands"][1][0])


HANDS = ["456m456m789m123p5m9p", "123m456m789m78p22p", "111m222m333m78p55p", "99p44p66p11p33p55m7m"]


def test_claim_priority_and_one_discard_many_wins():
    hands = HANDS  # seats 1 and 2 wait on 6p/9p, seat 3 holds 99p
    state = playing(XUEZHAN, hands, "1s2s3s4s5s", turn=0, drawn="9p")
    state = act(XUEZHAN, state, 0, type="discard", tile="9p")
    assert state["phase"] == "claim"
    assert sorted(XUEZHAN.actors(state)) == [1, 2, 3]
    assert state["claim"]["options"]["3"] == ["pung", "pass"]
    state = act(XUEZHAN, state, 3, type="pung")
    assert state["phase"] == "claim"  # the window stays open until every seat answered
    state = act(XUEZHAN, state, 1, type="win")
    state = act(XUEZHAN, state, 2, type="win")
    wins = [p for p in state["payments"] if p["kind"] == "win"]
    assert [w["seat"] for w in wins] == [1, 2] and all(w["shared"] == 2 for w in wins)  # 一炮多响
    assert all(w["paid"][0][0] == 0 for w in wins)  # the discarder pays each
    assert state["melds"][3] == []  # 胡 beat the 碰
    # 血战: the hand goes on; seat 3, after the last winner, draws.
    assert state["phase"] == "turn" and state["turn"] == 3 and state["won"] == [1, 2]


def test_robbing_an_added_kong():
    hands = ["123m456m789m5p5p", "1112223334446p", "1m2m3m4m5m6m7m8m9m1p2p3p4p", "1p9p1m9m2p8p3m7m4m6m2s3s4s"]
    state = playing(XUEZHAN, hands, "9s8s7s", turn=0, drawn="5p")
    state["melds"][0] = [{"kind": "pung", "tile": "5p", "concealed": False, "from": 2}]
    state["_hands"][0] = parse("123m456m789m5p6p")
    state["drawn"] = "6p"
    hands1 = parse("1112223334445p")
    state["_hands"][1] = hands1
    assert {"type": "kong", "tile": "5p"} in XUEZHAN.legal_actions(state, 0)
    state = act(XUEZHAN, state, 0, type="kong", tile="5p")
    assert state["phase"] == "claim" and state["claim"]["kind"] == "rob"
    assert XUEZHAN.actors(state) == [1]
    state = act(XUEZHAN, state, 1, type="win")
    win = next(p for p in state["payments"] if p["kind"] == "win")
    assert win["robbed"] and win["source"] == 0
    assert state["melds"][0][0]["kind"] == "pung"  # the robbed kong is no kong (001:322, 003:37)
    assert not any(p["kind"] == "kong" for p in state["payments"])


def test_kongs_pay_at_once_and_call_transfer():
    # Seat 0 holds 5m×4: a concealed kong (下雨) takes 2 底分 from each player still in.
    hands = ["5555m123p456p78p9p9p", "1112223334447p", "1m2m3m4m6m7m8m9m1p2p3p4p5p", "1122334455667p"]
    state = playing(XUEZHAN, hands, "7p1s2s3s", turn=0, drawn="9p")
    state = act(XUEZHAN, state, 0, type="kong", tile="5m")
    assert state["deltas"] == [60, -20, -20, -20]
    # The replacement comes from the wall's end: 3s. Seat 0 throws 7p after its kong; seat 1 wins: 杠上炮
    # and 呼叫转移, the kong's 60 go to the winner (001:676).
    assert state["drawn"] == "3s" and state["after_kong"]
    state = act(XUEZHAN, state, 0, type="discard", tile="7p")
    for seat in XUEZHAN.actors(state):
        state = act(XUEZHAN, state, seat, type="win" if seat == 1 else "pass")
    win = next(p for p in state["payments"] if p["kind"] == "win")
    assert "kong_discard" in {k for k, _ in win["patterns"]}
    transfer = next(p for p in state["payments"] if p["kind"] == "transfer")
    assert transfer["paid"] == [[0, 1, 60]]


def test_added_and_exposed_kong_amounts():
    # 刮风 (直杠) 2 from the discarder; 补杠 1 from each player still in.
    hands = [
        "123m456m789m1p3s",
        "5p5p5p1m2m3m4m5m6m7m8m9m1s",
        "2345678m22p3456s",
        "1m1m1m9m9m9m2p2p3p3p4p4p6s",
    ]
    state = playing(XUEZHAN, hands, "9s8s7s6s", turn=0, drawn="3s", voids=("z",) * 4)
    state["_hands"][0] = parse("123m456m789m5p3s")
    state = act(XUEZHAN, state, 0, type="discard", tile="5p")
    assert state["claim"]["options"]["1"][0] == "kong"
    for seat in XUEZHAN.actors(state):
        state = act(XUEZHAN, state, seat, type="kong" if seat == 1 else "pass")
    kong = state["payments"][-1]
    assert kong["kong"] == "exposed" and kong["paid"] == [[0, 1, 20]]
    assert state["turn"] == 1 and state["drawn"] == "6s"


def test_three_winners_end_the_bloody_battle():
    state = playing(XUEZHAN, HANDS, "1s2s", turn=0, drawn="9p")
    state["won"] = [1, 2]
    state["_hands"][3] = parse("123m456m789m11p99p")
    state = act(XUEZHAN, state, 0, type="discard", tile="9p")
    state = act(XUEZHAN, state, 3, type="win")
    outcome = XUEZHAN.outcome(state)
    assert outcome is not None and state["result"]["ended_by"] == "won"


def test_drawn_end_checks_flower_pigs_and_ready_hands():
    """001:677-678, 001:722-725: at a drawn end the 花猪 pays 16 底分 (+ what a ready hand is owed); the not ready pay 查大叫."""
    hands = ["123m456m789m1p2p5s7s", "1112223334449p", "123m456m789m11p3s", "1m4m7m1p4p7p2m5m8m2p5p8p9m"]
    state = playing(XUEZHAN, hands, "", turn=0, drawn="7s", voids=("s", "s", "s", "s"))
    state = act(XUEZHAN, state, 0, type="discard", tile="7s")
    # The wall is empty: seat 0 (holds 5s) and seat 2 (holds 3s) are 花猪; seat 1 is ready (on 9p:
    # 111 222 333 444 99p, 清对 3 番 → owed 10 × 8 = 80); seat 3 is not ready.
    assert state["phase"] == "finished" and state["result"]["ended_by"] == "drawn"
    pigs = [p for p in state["payments"] if p["kind"] == "pig"]
    assert {p["seat"] for p in pigs} == {0, 2}
    for p in pigs:
        assert sorted(map(tuple, p["paid"])) == [(p["seat"], 1, 160 + 80), (p["seat"], 3, 160)]
    ready = next(p for p in state["payments"] if p["kind"] == "ready")
    assert ready["paid"] == [[3, 1, 80]]
    assert sum(state["deltas"]) == 0


def test_003_refunds_kong_money_of_a_seat_not_ready():
    state = playing(XUEZHAN, HANDS, "", turn=0, drawn="5m", config=VARIANTS["003"])
    state["kong_income"][3] = [[0, 20], [1, 20], [2, 20]]
    state["deltas"] = [-20, -20, -20, 60]
    state["_hands"][3] = parse("1m4m7m1p4p7p2m5m8m2p5p8p9m")
    state = act(XUEZHAN, state, 0, type="discard", tile="5m")
    refund = next(p for p in state["payments"] if p["kind"] == "refund")
    assert refund["seat"] == 3 and refund["paid"] == [[3, 0, 20], [3, 1, 20], [3, 2, 20]]


def test_tuidaohu_wild_is_never_discarded_and_chicken_needs_self_draw():
    hands = ["123m456m789m1p2p3p5z", "123m456m789m12p9s5z", "1z1z1z2z2z2z3z3z3z4z4z5m6m", "19m19p19s1234567z"]
    state = playing(TUIDAOHU, hands, "9s9s9s9s", turn=0, drawn="5z", wild="5z")
    assert {"type": "discard", "tile": "5z"} not in TUIDAOHU.legal_actions(state, 0)
    with pytest.raises(IllegalAction):
        act(TUIDAOHU, state, 0, type="discard", tile="5z")
    # Seat 1 (a 鸡胡 waiting with a wild) may not win on seat 0's 3p (001:298: 鸡胡 only by 自摸).
    state = act(TUIDAOHU, state, 0, type="discard", tile="3p")
    assert state["claim"] is None or "1" not in state["claim"]["options"]
    assert state["turn"] == 1
    state = playing(TUIDAOHU, hands, "9s9s9s9s", turn=1, drawn="3p", wild="5z")
    state["_hands"][1].append("3p")
    assert {"type": "win"} in TUIDAOHU.legal_actions(state, 1)  # the same 鸡胡 by 自摸


def test_tuidaohu_forced_win_on_a_wild_with_a_hand_of_wilds():
    hands = ["5z", "123m", "456m", "789m"]
    state = playing(TUIDAOHU, hands, "5z", turn=0, drawn=None, wild="5z")
    state["melds"][0] = [
        {"kind": "pung", "tile": t, "concealed": False, "from": 1} for t in ("1m", "2p", "3s", "4z")
    ]
    state["turn"] = 3
    state["_hands"][3] = parse("789m1p")
    state = act(TUIDAOHU, state, 3, type="discard", tile="1p")
    # Seat 0 (one wild) may win on any discard or pass (001:302); it passes.
    assert state["claim"]["options"]["0"] == ["win", "pass"]
    state = act(TUIDAOHU, state, 0, type="pass")
    assert state["turn"] == 0 and state["drawn"] == "5z"
    assert TUIDAOHU.legal_actions(state, 0) == [{"type": "win"}]  # drew a wild: must win


def test_tuidaohu_no_pung_that_leaves_only_wilds():
    hands = ["123m456m789m1p2p3p4p", "5z5z7p7p", "123m456m789m12p", "1z1z2z2z"]
    state = playing(TUIDAOHU, hands, "9s9s9s9s", turn=0, drawn="4p", wild="5z")
    state["_hands"][0] = parse("123m456m789m1p2p3p7p")
    state["drawn"] = "7p"
    state = act(TUIDAOHU, state, 0, type="discard", tile="7p")
    assert state["claim"] is None or "pung" not in state["claim"]["options"].get("1", [])


def test_tuidaohu_payments_self_drawn_times_three_and_first_win_ends():
    hands = ["111m222m333p444s5z", "123m456m789m12p3p", "1z1z1z2z2z2z3z3z3z4z4z5m6m", "19m19p19s1234567z"]
    state = playing(TUIDAOHU, hands, "9s9s9s9s", turn=0, drawn="5z", wild="7s")
    state["_hands"][0] = parse("111m222m333p444s5z5z")
    state = act(TUIDAOHU, state, 0, type="win")
    win = next(p for p in state["payments"] if p["kind"] == "win")
    assert win["fan"] == 3 and win["paid"] == [[1, 0, 80], [2, 0, 80], [3, 0, 80]]
    assert state["phase"] == "finished" and TUIDAOHU.outcome(state).winners == [0]


def test_limited_liability_caps_every_payment():
    poor = [SeatSpec(1, 100_000), SeatSpec(2, 50), SeatSpec(3, 100_000), SeatSpec(4, 100_000)]
    hands = ["5555m123p456p78p9p9p", "1112223334447p", "1m2m3m4m6m7m8m9m1p2p3p4p5p", "1122334455667p"]
    state = playing(XUEZHAN, hands, "7p1s2s3s", turn=0, drawn="9p", seats=poor)
    state["_hands"][1] = parse("1112223334447p")
    state["deltas"] = [0, -40, 0, 0]
    state = act(XUEZHAN, state, 0, type="kong", tile="5m")
    assert state["deltas"][1] == -50  # it had 10 left of the 50 it carried


def test_003_kong_feeder_pays_the_whole_self_drawn_win_on_its_kong():
    """003:38-41: 杠上花 after a kong of another's discard: the feeder pays the kong and the 自摸."""
    hands = [
        "123m456m789m1p3s9p",
        "5p5p5p1m2m3m4m5m6m7m8m9m1p",
        "2345678m22p3456s",
        "1m1m1m9m9m9m2p2p3p3p4p4p6s",
    ]
    state = playing(
        XUEZHAN, hands, "9s8s7s1p", turn=0, drawn="9p", voids=("s", "s", "z", "z"), config=VARIANTS["003"]
    )
    state["_hands"][0] = parse("123m456m789m5p3p9p")
    state = act(XUEZHAN, state, 0, type="discard", tile="5p")
    for seat in XUEZHAN.actors(state):
        state = act(XUEZHAN, state, seat, type="kong" if seat == 1 else "pass")
    assert state["drawn"] == "1p"  # the replacement completes 123456789m 11p
    state = act(XUEZHAN, state, 1, type="win")
    win = state["payments"][-1]
    assert [p[:2] for p in win["paid"]] == [[0, 1]]  # seat 0 alone pays
    assert win["paid"][0][2] == 3 * 10 * 2 ** win["fan"]


def test_003_caps_what_one_player_collects_from_another():
    """003:9: at most 24 底分 from any one player in a hand."""
    hands = ["111m222m333p444p5p", "1122m", "3344m", "5566m"]
    state = playing(XUEZHAN, hands, "9s9s9s", turn=0, drawn="5p", voids=("s",) * 4, config=VARIANTS["003"])
    state["_hands"][0] = parse("111m222m333p444p5p5p")
    state["collected"][0][1] = 230
    state = act(XUEZHAN, state, 0, type="win")
    win = state["payments"][-1]
    assert win["fan"] == 1  # 对对 (自摸 is 0 番 in 003)
    assert sorted(map(tuple, win["paid"])) == [(1, 0, 10), (2, 0, 20), (3, 0, 20)]


def test_a_claim_window_that_times_out_passes():
    state = playing(XUEZHAN, HANDS, "1s2s3s4s5s", turn=0, drawn="9p")
    state = act(XUEZHAN, state, 0, type="discard", tile="9p")
    assert sorted(XUEZHAN.actors(state)) == [1, 2, 3] and XUEZHAN.deadline_seconds(state) == 8
    state = XUEZHAN.on_deadline(state)
    assert state["won"] == [] and state["melds"][3] == []  # nobody won or took the tile
    assert state["phase"] == "turn" and state["turn"] == 1 and state["discards"][0] == ["9p"]


def test_a_timed_out_turn_wins_a_self_draw_or_throws_the_drawn_tile():
    state = playing(XUEZHAN, HANDS, "1s2s3s4s5s", turn=1, drawn="6p")
    state["_hands"][1].append("6p")
    assert XUEZHAN.auto_action(state, 1) == {"type": "win"}
    state = playing(XUEZHAN, HANDS, "1s2s3s4s5s", turn=0, drawn="9p")
    assert XUEZHAN.auto_action(state, 0) == {"type": "discard", "tile": "9p"}
    exchange = fresh(XUEZHAN)
    for seat in range(4):
        assert XUEZHAN.auto_action(exchange, seat) in XUEZHAN.legal_actions(exchange, seat)
    assert XUEZHAN.on_deadline(XUEZHAN.on_deadline(exchange))["phase"] == "turn"  # both phases time out


def test_kong_money_moved_by_call_transfer_is_not_refunded_again():
    hands = ["5555m123p456p78p9p9p", "1112223334447p", "1m2m3m4m6m7m8m9m1p2p3p4p5p", "1122334455667p"]
    state = playing(XUEZHAN, hands, "7p1s2s3s", turn=0, drawn="9p", config=VARIANTS["003"])
    state = act(XUEZHAN, state, 0, type="kong", tile="5m")
    assert state["kong_income"][0] == [[1, 20], [2, 20], [3, 20]]
    state = act(XUEZHAN, state, 0, type="discard", tile="7p")
    for seat in XUEZHAN.actors(state):
        state = act(XUEZHAN, state, seat, type="win" if seat == 1 else "pass")
    assert state["kong_income"][0] == []


def test_a_claim_window_names_every_seat_still_in_but_the_discarder():
    """Who may claim is a secret: everyone is told every seat still in may, so the wait gives no hand away."""
    hands = ["123m456m789m5p5p", "1112223334446p", "1m2m3m4m5m6m7m8m9m1p2p3p4p", "1p9p1m9m2p8p3m7m4m6m2s3s4s"]
    state = playing(XUEZHAN, hands, "9s8s7s", turn=0, drawn="5p")
    state["melds"][0] = [{"kind": "pung", "tile": "5p", "concealed": False, "from": 2}]
    state["_hands"][0] = parse("123m456m789m5p6p")
    state["drawn"] = "6p"
    state["_hands"][1] = parse("1112223334445p")
    assert XUEZHAN.shown_actors(state) == [0]  # on a turn: the seat on turn, no secret
    state = act(XUEZHAN, state, 0, type="kong", tile="5p")
    assert XUEZHAN.actors(state) == [1]  # only seat 1 may rob the kong …
    assert XUEZHAN.shown_actors(state) == [1, 2, 3]  # … but all three are shown as deciding
    state["won"] = [2]  # 血战: a seat that has won is out of the hand and never shown
    assert XUEZHAN.shown_actors(state) == [1, 3]
