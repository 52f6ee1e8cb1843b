"""开心摇摇乐 rules, line by line of seed 001 (开心摇摇乐, lines 393–410)."""

from fractions import Fraction
from itertools import product

import pytest

from games.yaoyaole import rules
from games.yaoyaole.rules import net


def test_each_side_throws_three_dice_and_the_larger_total_wins():  # 001:395
    assert rules.total([6, 5, 4]) == 15
    assert rules.winner([6, 5, 4], [6, 6, 2]) == "red"
    assert rules.winner([1, 2, 3], [1, 1, 5]) == "blue"
    assert rules.winner([3, 3, 3], [1, 2, 6]) == "tie"  # 9 against 9: the combination does not count


@pytest.mark.parametrize(
    "bad", [[1, 2], [1, 2, 3, 4], [0, 1, 2], [1, 2, 7], [1, 2, True], "123", [1, 2, 2.0]]
)
def test_anything_but_three_faces_is_refused(bad):
    with pytest.raises(ValueError, match="three dice|face"):
        rules.total(bad)


def test_the_winning_side_pays_1_for_2_in_all():  # 001:396, 001:402-403: 1赔2
    assert net("red", 100, [6, 5, 4], [1, 2, 3]) == 100
    assert net("blue", 100, [1, 2, 3], [6, 5, 4]) == 100
    assert net("red", 100, [4, 2, 2], [1, 1, 5]) == 100  # 8 points is not "fewer than 8"


def test_a_winner_with_fewer_than_8_points_pays_1_for_1_5():  # 001:396, 001:402-403: 1赔1.5
    assert net("red", 100, [1, 2, 4], [1, 1, 2]) == 50  # red wins with 7
    assert net("blue", 100, [1, 1, 1], [2, 2, 3]) == 50  # blue wins with 7
    assert net("red", 15, [1, 2, 4], [1, 1, 2]) == 7  # 22.5 back: the half coin is rounded down


def test_the_losing_side_loses_its_stake():
    assert net("blue", 100, [6, 5, 4], [1, 2, 3]) == -100
    assert net("red", 100, [1, 1, 2], [1, 2, 4]) == -100


def test_a_tie_pays_1_for_8_and_returns_red_and_blue():  # 001:396-397, 001:404
    red, blue = [2, 3, 4], [1, 2, 6]  # 9 each
    assert net("tie", 100, red, blue) == 700
    assert net("red", 100, red, blue) == 0
    assert net("blue", 100, red, blue) == 0
    assert net("tie", 100, [6, 5, 4], [1, 2, 3]) == -100


def test_pairs_pay_1_for_2_3():  # 001:405, 001:408
    assert rules.combo([2, 5, 2]) == "pair"
    assert net("red_pair", 100, [2, 5, 2], [1, 2, 4]) == 130
    assert net("blue_pair", 100, [2, 5, 2], [1, 2, 4]) == -100
    assert net("blue_pair", 10, [1, 2, 4], [6, 6, 1]) == 13
    assert net("red_pair", 15, [3, 3, 1], [1, 2, 4]) == 19  # 34.5 back, rounded down


def test_straights_pay_1_for_8():  # 001:406, 001:409
    for dice in ([1, 2, 3], [3, 2, 4], [5, 4, 3], [6, 4, 5]):
        assert rules.combo(dice) == "straight"
    assert rules.combo([5, 6, 1]) is None  # no wrapping round
    assert rules.combo([1, 3, 5]) is None
    assert net("red_straight", 100, [3, 2, 4], [1, 1, 1]) == 700
    assert net("blue_straight", 100, [3, 2, 4], [1, 1, 1]) == -100


def test_triples_pay_1_for_30_and_are_not_pairs():  # 001:407, 001:410
    assert rules.combo([4, 4, 4]) == "triple"
    assert net("blue_triple", 100, [1, 2, 3], [4, 4, 4]) == 2900
    assert net("blue_pair", 100, [1, 2, 3], [4, 4, 4]) == -100


def test_the_seeds_banker_and_player_areas_are_red_and_blue():  # 001:405-410: 庄 red, 闲 blue
    assert rules.AREAS == (
        "red",
        "tie",
        "blue",
        "red_pair",
        "red_straight",
        "red_triple",
        "blue_pair",
        "blue_straight",
        "blue_triple",
    )


@pytest.mark.parametrize("stake", [0, -5, True, 1.5, "10"])
def test_a_stake_is_a_positive_whole_number(stake):
    with pytest.raises(ValueError, match="positive whole number"):
        net("red", stake, [1, 2, 3], [4, 5, 6])


def test_an_unknown_area_is_refused():
    for area in ("green", None, "red_quad", "green_pair"):
        with pytest.raises(ValueError, match="not a betting area"):
            net(area, 10, [1, 2, 3], [4, 5, 6])
    with pytest.raises(ValueError, match="not a betting area"):
        rules.top_net_tenths("red_quad")


def test_the_exact_table_counts_every_throw_once_and_agrees_with_a_plain_count():
    """odds_table against a count written here from the rules' words alone, throw by throw."""
    table = rules.odds_table()
    throws = list(product(range(1, 7), repeat=6))
    assert len(throws) == 46656
    tie = sum(1 for t in throws if sum(t[:3]) == sum(t[3:]))
    red_low = sum(1 for t in throws if sum(t[3:]) < sum(t[:3]) < 8)
    red_high = sum(1 for t in throws if sum(t[:3]) > sum(t[3:]) and sum(t[:3]) >= 8)
    assert table["red"].returns == {
        0: Fraction(46656 - tie - red_low - red_high, 46656),
        10: Fraction(tie, 46656),
        15: Fraction(red_low, 46656),
        20: Fraction(red_high, 46656),
    }
    assert table["tie"].win == Fraction(tie, 46656)
    assert table["red_pair"].win == Fraction(6 * 5 * 3, 216)  # a face twice, another once, 3 places
    assert table["blue_straight"].win == Fraction(4 * 6, 216)  # 4 runs in 6 orders
    assert table["red_triple"].win == Fraction(6, 216)
    for odds in table.values():
        assert odds.win + odds.push + odds.lose == 1
        assert sum(odds.returns.values()) == 1
        assert odds.expected_return == sum(Fraction(t, 10) * p for t, p in odds.returns.items())
    assert table["red"] == table["blue"].__class__(**{**table["blue"].__dict__, "area": "red"})


def test_every_area_leaves_the_house_an_edge():
    for area, odds in rules.odds_table().items():
        assert 0 < odds.house_edge < Fraction(1, 3), area
    fee = rules.odds_table(500)
    assert all(fee[a].house_edge > odds.house_edge for a, odds in rules.odds_table().items())
