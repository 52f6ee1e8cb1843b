"""牛牛 (抢庄) and 通比牛牛 hands played step by step: the bank, bets, 摊牌, views and money."""

import pytest

from games.base import IllegalAction, SeatSpec, SeededRng, apply_rake
from games.niuniu.engine import NiuniuEngine

BANKER = NiuniuEngine("banker")
TONGBI = NiuniuEngine("tongbi")
RICH = 10**6


def deal(engine, n=3, coins=RICH, base=10, seed=b"niuniu-test-seed", **options):
    config = {"base_stake": base, **options}
    return engine.new_hand(config, [SeatSpec(i + 1, coins) for i in range(n)], SeededRng(seed, "hand"))


def with_hands(state, *hands):
    return {**state, "_hands": [h.split() for h in hands]}


def play(engine, state, seat, kind, **fields):
    return engine.apply(state, seat, {"type": kind, **fields})


def show_all(engine, state):
    for seat in list(engine.actors(state)):
        state = engine.apply(state, seat, engine.auto_action(state, seat))
    return state


def test_highest_bid_banks_and_sets_the_bank_multiple():
    s = deal(BANKER)
    assert s["phase"] == "grab" and BANKER.actors(s) == [0, 1, 2]
    s = play(BANKER, s, 0, "grab", multiple=2)
    s = play(BANKER, s, 1, "grab", multiple=4)
    s = play(BANKER, s, 2, "grab", multiple=0)
    assert (s["phase"], s["banker"], s["banker_multiple"], s["grab_tied"]) == ("bet", 1, 4, [])
    assert BANKER.actors(s) == [0, 2]  # the banker does not bet


def test_a_tie_is_broken_by_the_seeded_draw_and_shown():
    bankers = set()
    for k in range(12):
        s = deal(BANKER, seed=bytes([k]) * 16)
        for seat in (0, 1, 2):
            s = play(BANKER, s, seat, "grab", multiple=3 if seat < 2 else 1)
        assert s["grab_tied"] == [0, 1] and s["banker"] in (0, 1)
        assert BANKER.view(s, 2)["grab_tied"] == [0, 1]
        bankers.add(s["banker"])
    assert bankers == {0, 1}


def test_nobody_bids_the_draw_banks_at_one():
    s = BANKER.on_deadline(deal(BANKER))
    assert s["banker_multiple"] == 1 and s["grab_tied"] == [0, 1, 2]


def test_no_cards_before_the_bets_then_each_sees_its_own_until_shown():
    s = deal(BANKER)
    s = BANKER.on_deadline(s)
    assert all(h is None for h in BANKER.view(s, 0)["hands"])
    s = BANKER.on_deadline(s)  # everyone bets the least
    assert s["phase"] == "show" and all(b in (None, 1) for b in s["bets"])
    v = BANKER.view(s, 0)
    assert v["hand"] == s["_hands"][0] and v["hands"][1] is None and v["hand_category"]
    s = BANKER.apply(s, 1, BANKER.auto_action(s, 1))
    v = BANKER.view(s, 0)
    assert v["hands"][1] == s["_hands"][1] and v["categories"][1] and v["hands"][2] is None
    assert BANKER.view(s, None)["hands"] == [None, s["_hands"][1], None]


def to_show(engine, state, grabs=(1, 0, 0), bets=(None, 2, 3)):
    if engine is BANKER:
        for seat, g in enumerate(grabs):
            state = play(engine, state, seat, "grab", multiple=g)
    for seat, b in enumerate(bets):
        if b is not None:
            state = play(engine, state, seat, "bet", multiple=b)
    return state


def test_banker_settles_with_each_player_by_the_winners_multiple():
    s = with_hands(deal(BANKER, base=10), "Ks Kh Qs Js 9s", "Js 5s 5h 4s 6s", "7s 8c As 4c Jc")
    s = to_show(BANKER, s, grabs=(3, 2, 0), bets=(None, 2, 5))
    s = show_all(BANKER, s)
    out = BANKER.outcome(s)
    # Seat 1's 牛牛 (×5) beats the banker's 牛9: 10 × 3 × 2 × 5 = 300.
    # Seat 2's 无牛 loses to the banker's 牛9 (×4): 10 × 3 × 5 × 4 = 600.
    assert out.deltas == [300, 300, -600]
    assert out.details["categories"] == ["niu_9", "niuniu", "no_niu"] and out.winners == [0, 1]


@pytest.mark.parametrize(("bank", "deltas"), [(500, [-260, 100, 160]), (130, [-130, 50, 80])])
def test_a_short_banker_pays_the_winners_in_proportion(bank, deltas):
    s = with_hands(deal(BANKER, base=10), "As 2d 3h 5c 8d", "Js 5s 5h 4s 6s", "Ks Kh Kc Kd 9c")
    s = {**s, "coins": [bank, RICH, RICH]}
    s = show_all(BANKER, to_show(BANKER, s, grabs=(1, 0, 0), bets=(None, 2, 2)))
    # Claims 10 × 1 × 2 × 5 = 100 (牛牛) and 10 × 1 × 2 × 8 = 160 (四炸弹): a bank of 130
    # pays them 130 × 100/260 = 50 and 130 × 160/260 = 80.
    assert BANKER.outcome(s).deltas == deltas


def test_show_takes_the_three_cards_in_any_order_and_refuses_a_false_niu():
    s = with_hands(deal(BANKER), "Js 6s 5s 5h 4s", "Ks Qh 9c 8d 7d", "As 2d 3h 5c 8d")
    s = to_show(BANKER, s)
    with pytest.raises(IllegalAction, match="do not make a niu"):
        play(BANKER, s, 0, "show", three=["Js", "6s", "5s"])
    with pytest.raises(IllegalAction, match="do not make a niu"):
        play(BANKER, s, 0, "show", three=["Js", "6s", "Ah"])
    s = play(BANKER, s, 0, "show", three=["5h", "Js", "5s"])
    assert s["shown"][0] == {"three": ["Js", "5s", "5h"], "two": ["6s", "4s"]}
    with pytest.raises(IllegalAction, match="already acted"):
        play(BANKER, s, 0, "show", three=["Js", "5s", "5h"])
    # A hand without a niu shows its best split, the only one offered.
    assert BANKER.legal_actions(s, 1) == [{"type": "show", "three": ["Ks", "Qh", "9c"]}]


def test_wrong_phase_and_bad_multiples_are_refused():
    s = deal(BANKER)
    with pytest.raises(IllegalAction, match="Bid for the bank"):
        play(BANKER, s, 0, "bet", multiple=1)
    with pytest.raises(IllegalAction, match="not one this table offers"):
        play(BANKER, s, 0, "grab", multiple=7)
    with pytest.raises(IllegalAction, match="whole number"):
        play(BANKER, s, 0, "grab", multiple=True)


def test_timeouts_bid_nothing_bet_the_least_and_show_the_best():
    s = deal(BANKER, bet_multiples=[5, 10])
    s = BANKER.on_deadline(s)
    assert s["grabs"] == [0, 0, 0]
    s = BANKER.on_deadline(s)
    assert [b for i, b in enumerate(s["bets"]) if i != s["banker"]] == [5, 5]
    s = BANKER.on_deadline(s)
    assert s["phase"] == "finished" and BANKER.outcome(s) is not None


def test_tongbi_worked_example_through_the_engine():
    # 001:618-620: 底分 100, a ×5 with 小牛牛, b ×3 with 无牛.
    s = with_hands(deal(TONGBI, n=2, base=100), "3s 2s 2h Ad Ac", "7s 8s As 4s Js")
    assert s["phase"] == "bet" and TONGBI.actors(s) == [0, 1]
    s = play(TONGBI, s, 0, "bet", multiple=5)
    s = play(TONGBI, s, 1, "bet", multiple=3)
    s = show_all(TONGBI, s)
    out = TONGBI.outcome(s)
    assert out.deltas == [9000, -9000]
    assert apply_rake(out.deltas, 500) == ([8550, -9000], 450)


def test_tongbi_worked_example_with_three_players():
    s = with_hands(deal(TONGBI, n=3, base=100), "3s 2s 2h Ad Ac", "7s 8s As 4s Js", "Ks Qh 9c 8d 7d")
    for seat, m in enumerate((5, 3, 3)):
        s = play(TONGBI, s, seat, "bet", multiple=m)
    out = TONGBI.outcome(show_all(TONGBI, s))
    assert apply_rake(out.deltas, 500) == ([17100, -9000, -9000], 900)


def test_the_multiplier_table_is_the_tiers_choice():
    s = with_hands(deal(TONGBI, n=2, base=100, multiplier_table="niuniu"), "3s 2s 2h Ad Ac", "7s 8s As 4s Js")
    s = play(TONGBI, play(TONGBI, s, 0, "bet", multiple=5), 1, "bet", multiple=3)
    assert TONGBI.outcome(show_all(TONGBI, s)).deltas == [15000, -15000]  # 小牛牛 ×10 in 牛牛's table
