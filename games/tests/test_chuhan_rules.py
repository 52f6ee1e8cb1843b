"""楚汉德州 rules (games/chuhan/rules.py): the winner by the 必下德州 evaluator, hand-type areas, what bets pay."""

import pytest

from games.chuhan import rules
from games.texas import rules as texas


def test_the_better_texas_hand_wins_with_its_own_category():
    # 001:199: 楚 and 汉 two cards each, the Texas rules decide. 汉 pairs its kings; 楚 has ace high.
    coup = rules.coup_result(["Kh", "Kd"], ["As", "7c"], ["2c", "5d", "9h", "Js", "3s"])
    assert coup["winner"] == rules.HAN
    assert coup["han"]["category"] == "pair" and coup["chu"]["category"] == "high_card"
    assert texas.CATEGORIES[coup["category"]] == "pair"


def test_chu_wins_with_a_flush_over_a_straight():
    coup = rules.coup_result(["8d", "9c"], ["Ah", "2h"], ["Th", "Jd", "Qs", "5h", "7h"])
    assert coup["winner"] == rules.CHU
    assert coup["han"]["category"] == "straight" and coup["chu"]["category"] == "flush"
    assert rules.area_wins(coup["winner"], coup["category"]) == {rules.CHU, "trips_straight_flush"}


def test_both_playing_the_board_is_a_tie_on_its_category():
    coup = rules.coup_result(["2c", "3d"], ["2h", "3s"], ["Ts", "Js", "Qs", "Ks", "As"])
    assert coup["winner"] == rules.TIE
    assert texas.CATEGORIES[coup["category"]] == "straight_flush"
    assert rules.area_wins(rules.TIE, coup["category"]) == {rules.TIE, "quads_plus"}


def test_a_kicker_decides_before_a_tie():
    coup = rules.coup_result(["Ac", "4d"], ["Kh", "4s"], ["Qs", "Qd", "8c", "7h", "2s"])
    assert coup["winner"] == rules.HAN


def test_bad_deals_are_refused():
    with pytest.raises(ValueError, match="twice"):
        rules.coup_result(["Ac", "4d"], ["Ac", "4s"], ["Qs", "Qd", "8c", "7h", "2s"])
    with pytest.raises(ValueError, match="two cards"):
        rules.coup_result(["Ac"], ["Kc", "4s"], ["Qs", "Qd", "8c", "7h", "2s"])


def test_every_category_falls_in_exactly_one_hand_type_area():
    areas = [rules.hand_type_area(category) for category in range(len(texas.CATEGORIES))]
    assert areas == [
        "high_pair",
        "high_pair",
        "two_pair",
        "trips_straight_flush",
        "trips_straight_flush",
        "trips_straight_flush",
        "full_house",
        "quads_plus",
        "quads_plus",
    ]


PAIR, FLUSH = texas.PAIR, texas.FLUSH


def test_a_winning_side_pays_even_money_and_the_other_loses_its_stake():
    assert rules.bet_net(rules.CHU, 100, rules.CHU, PAIR) == 100
    assert rules.bet_net(rules.HAN, 100, rules.CHU, PAIR) == -100
    assert rules.bet_net(rules.TIE, 100, rules.CHU, PAIR) == -100


def test_on_a_tie_half_of_each_chu_and_han_stake_comes_back():
    # 001:199 开平局时，退回楚、汉一半下注金额.
    assert rules.bet_net(rules.CHU, 100, rules.TIE, PAIR) == -50
    assert rules.bet_net(rules.HAN, 100, rules.TIE, PAIR) == -50
    # Half of an odd stake is rounded down: 7 of 15 come back.
    assert rules.bet_net(rules.HAN, 15, rules.TIE, PAIR) == -8
    assert rules.bet_net(rules.TIE, 100, rules.TIE, PAIR) == 100 * 23


def test_hand_type_areas_pay_their_odds_rounded_down():
    assert rules.bet_net("high_pair", 100, rules.HAN, PAIR) == 120
    assert rules.bet_net("high_pair", 15, rules.HAN, PAIR) == 18
    assert rules.bet_net("trips_straight_flush", 10, rules.TIE, FLUSH) == 37
    assert rules.bet_net("two_pair", 10, rules.HAN, FLUSH) == -10
    with pytest.raises(ValueError, match="not a betting area"):
        rules.bet_net("dragon", 10, rules.HAN, FLUSH)


def test_odds_are_shown_as_the_page_prints_them():
    assert [rules.odds_text(area) for area in rules.AREAS] == [
        "1:1",
        "1:23",
        "1:1",
        "1:1.2",
        "1:2.1",
        "1:3.7",
        "1:19",
        "1:250",
    ]


def test_published_figures_are_consistent():
    # The hand-type areas cover every coup once; 楚 and 汉 share what 平 leaves.
    assert sum(rules.PROBABILITY[area] for area in rules.HAND_TYPE_AREAS) == pytest.approx(1, abs=1e-5)
    assert rules.win_probability(rules.CHU) * 2 + rules.PROBABILITY[rules.TIE] == pytest.approx(1)
    for area in rules.AREAS:
        assert 0 < rules.house_edge(area) < 0.07, area
