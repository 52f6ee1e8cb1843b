"""三公 rules for 百人三公: every example of 001's 百人三公游戏规则 (lines in docs/rules/sangong.md)."""

import pytest

from games.sangong.rules import BAO_JIU, BOMB, SAN_GONG, category, compare, multiplier, points


def test_bao_jiu_is_any_three_3s_and_pays_5():  # 001:135
    assert category(["3s", "3h", "3d"]) == BAO_JIU
    assert multiplier(BAO_JIU) == 5


def test_bombs_of_the_seed_pay_4():  # 001:136: 黑桃K 红桃K 方块K; 红桃2 梅花2 方块2
    assert category(["Ks", "Kh", "Kd"]) == BOMB
    assert category(["2h", "2c", "2d"]) == BOMB
    assert multiplier(BOMB) == 4


def test_san_gong_of_the_seed_pays_3():  # 001:137: 黑桃K 方块Q 梅花J
    assert category(["Ks", "Qd", "Jc"]) == SAN_GONG
    assert category(["Js", "Jd", "Qc"]) == SAN_GONG  # any three of J/Q/K that are not a bomb
    assert multiplier(SAN_GONG) == 3


def test_points_and_their_multipliers():  # 001:138-141
    assert category(["4s", "5h", "Kd"]) == 9
    assert category(["4s", "4h", "Kd"]) == 8
    assert category(["4s", "3h", "Td"]) == 7
    assert category(["4s", "2h", "Td"]) == 6
    assert [multiplier(n) for n in range(10)] == [1, 1, 1, 1, 1, 1, 1, 2, 2, 2]


def test_nine_points_made_of_three_3s_is_bao_jiu_not_nine():  # 001:138 九点 … 且非爆玖
    assert points(["3s", "3h", "3d"]) == 9
    assert category(["3s", "3h", "3d"]) == BAO_JIU


def test_point_count_of_the_seed():  # 001:144: A\K\10 make 1; 10 → 0, 11 → 1; the highest is 9
    assert points(["As", "Kh", "Td"]) == 1
    assert points(["As", "4h", "5d"]) == 0
    assert points(["2s", "4h", "5d"]) == 1
    assert points(["9s", "9h", "Kd"]) == 8
    assert max(points([a, b, c]) for a, b, c in [("9s", "9h", "9d"), ("9s", "Kh", "Td")]) <= 9


ORDER = [  # 001:142: 爆玖>炸弹>三公>九点>八点>7点>…>0点
    ["3s", "3h", "3d"],
    ["2s", "2h", "2d"],
    ["Js", "Qh", "Kd"],
    ["9s", "Kh", "Td"],
    ["8s", "Kh", "Td"],
    ["7s", "Kh", "Td"],
    ["6s", "Kh", "Td"],
    ["5s", "Kh", "Td"],
    ["4s", "Kh", "Td"],
    ["3c", "Kh", "Td"],
    ["2c", "Kh", "Td"],
    ["Ac", "Kh", "Td"],
    ["Tc", "Kc", "Qd"],
]


@pytest.mark.parametrize("higher", range(len(ORDER) - 1))
def test_category_order_of_the_seed(higher):
    for lower in range(higher + 1, len(ORDER)):
        assert compare(ORDER[higher], ORDER[lower]) == 1
        assert compare(ORDER[lower], ORDER[higher]) == -1


def test_same_category_more_points_wins():  # 001:146
    assert compare(["4s", "2h", "Td"], ["3s", "2c", "Tc"]) == 1  # 6 points beat 5


def test_same_points_more_face_cards_wins():  # 001:147: 公仔 count first
    # Both 5 points (散牌): K Q 5 has two face cards, T 2 3 none.
    assert compare(["Kd", "Qd", "5d"], ["Ts", "2s", "3s"]) == 1
    assert compare(["Ts", "2s", "3s"], ["Kd", "Qd", "5d"]) == -1


def test_same_face_count_highest_card_wins():  # 001:147: K>Q>J>10>…>2>A
    assert compare(["Kd", "2d", "3d"], ["Qs", "2s", "3s"]) == 1
    assert compare(["Ts", "4h", "5c"], ["9s", "Ah", "9c"]) == 1  # both 9 points, no face: 10 beats 9
    assert compare(["2s", "Ah", "4c"], ["As", "3h", "3d"]) == 1  # both 7 points: 4 beats 3


def test_same_highest_card_its_suit_decides():  # 001:147: 黑桃>红桃>梅花>方块
    assert compare(["Ks", "2d", "3d"], ["Kh", "2s", "3s"]) == 1
    assert compare(["Kh", "2d", "3d"], ["Kc", "2s", "3s"]) == 1
    assert compare(["Kc", "2d", "3d"], ["Kd", "2s", "3s"]) == 1


def test_bombs_compare_by_points_first_as_the_seed_orders_every_tie():  # 001:146, docs reading
    assert compare(["9s", "9h", "9d"], ["Ks", "Kh", "Kd"]) == 1  # 7 points against 0
    assert compare(["2s", "2h", "2d"], ["4s", "4h", "4d"]) == 1  # 6 points against 2


def test_malformed_hands_are_refused():
    for bad in (
        ["Ks", "Kh"],
        ["Ks", "Kh", "Kd", "Kc"],
        ["Ks", "Ks", "Kd"],
        ["1s", "2h", "3d"],
        ["XJ", "2h", "3d"],
    ):
        with pytest.raises(ValueError, match="三公 hand|not a card"):
            category(bad)
    with pytest.raises(ValueError, match="not a 三公 category"):
        multiplier(10)
