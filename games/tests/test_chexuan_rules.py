"""扯旋 rules: the 32 cards, every named pair and four-card hand of 003, points, splits, comparisons."""

from itertools import combinations

import pytest

from games.chexuan.rules import (
    DECK,
    PAIR_NAMES,
    best_split,
    card_points,
    compare_split,
    four_card_hand,
    pair_rank,
    splits,
)

# 003:83-108, one example each, in the order of 003:75 (highest first); "=" joins equal names.
NAMED = [
    ("dinghuang", "3h DJ"),  # 丁皇 红3+大王
    ("tian", "Qh Qd"),  # 天牌 一对红Q
    ("di", "2h 2d"),  # 地牌 一对红2
    ("ren", "8h 8d"),  # 人牌 一对红8
    ("he", "4d 4h"),  # 和牌 一对红4
    ("meishi", "Ts Tc"),  # 梅十 一对黑10
    ("bandeng", "4s 4c"),  # 板凳 一对黑4
    ("changsan", "6c 6s"),  # 长三 一对黑6
    ("hutou", "Js Jc"),  # 虎头 一对黑J
    ("shaoshi", "Th Td"),  # 苕十 一对红10
    ("maomao", "6h 6d"),  # 猫猫 一对红6
    ("gaoyao", "7h 7d"),  # 膏药 一对红7
    ("duizi", "7s 7c"),  # 对子 一对黑5/黑7/黑8/黑9
    ("naigou", "Qd 9s"),  # 奶狗 红Q+9
    ("tiangang", "Qh 8c"),  # 天杠 红Q+8
    ("digang", "2d 8h"),  # 地杠 红2+8
    ("tianguanjiu", "7s Qh"),  # 天关九 红Q+7
    ("diguanjiu", "2h 7d"),  # 地关九 红2+7
    ("denglongjiu", "8d Jc"),  # 灯笼九 红8+J
    ("hewujiu", "4h 5s"),  # 和五九 红4+5
    ("banwujiu", "4c 5c"),  # 板五九 黑4+5
    ("dingchangjiu", "3h 6s"),  # 丁长九 红3+黑6
    ("meishijiu", "Tc 9c"),  # 梅十九 黑10+9
    ("dingmaojiu", "3h 6d"),  # 丁猫九 红3+红6
    ("wulongjiu", "8s Js"),  # 乌龙九 黑8+J
    ("shaoshijiu", "Td 9s"),  # 苕十九 红10+9
]
EQUAL_GROUPS = [{"meishi", "bandeng", "changsan"}, {"hutou", "shaoshi", "maomao", "gaoyao"},
                {"banwujiu", "dingchangjiu", "meishijiu"}, {"dingmaojiu", "wulongjiu", "shaoshijiu"}]  # fmt: skip
ORDER = [name for name, _ in NAMED]


def tier(name):
    """The position of ``name`` in 003:75's order, with equal names sharing one position."""
    for group in EQUAL_GROUPS:
        if name in group:
            return min(ORDER.index(n) for n in group)
    return ORDER.index(name)


def test_the_deck_is_32_different_cards_as_003_names_them():
    assert len(DECK) == 32 == len(set(DECK))
    red = [c for c in DECK if c[1:] in ("h", "d")]
    assert sorted(c[0] for c in red) == sorted("QQ22884466TT773")
    assert sorted(c[0] for c in DECK if c[1:] in ("s", "c")) == sorted("TT4466JJ55778899")
    assert "3h" in DECK and "DJ" in DECK and "3d" not in DECK


def test_the_table_has_26_names():
    assert len(NAMED) == 26 and PAIR_NAMES == tuple(ORDER)


@pytest.mark.parametrize(("name", "cards"), NAMED, ids=[n for n, _ in NAMED])
def test_each_named_pair(name, cards):
    rank = pair_rank(cards.split())
    assert rank.name == name
    assert pair_rank(cards.split()[::-1]) == rank  # order of the two cards does not matter
    # It beats every plain pair (散牌), even 8 points with 红Q (the best plain hand).
    assert rank > pair_rank(["Qh", "6h"])
    # Against every other named pair: higher, lower or equal exactly as 003:75 orders them.
    for other, other_cards in NAMED:
        them = pair_rank(other_cards.split())
        expected = (tier(other) > tier(name)) - (tier(other) < tier(name))
        assert ((rank > them) - (rank < them)) == expected, (name, other)


def test_every_card_combination_of_a_name_has_that_name():
    names = {pair_rank(p).name for p in combinations(DECK, 2)}
    assert names == {*ORDER, "points"}
    assert pair_rank(["5s", "5c"]).name == pair_rank(["9s", "9c"]).name == "duizi"
    assert pair_rank(["5s", "5c"]) == pair_rank(["9s", "9c"])  # 对子 are one rank
    assert pair_rank(["Qh", "8h"]).name == "tiangang"  # 红Q + 红8 is a 天杠 too
    assert pair_rank(["Qd", "Qh"]) > pair_rank(["2h", "2d"])


def test_every_nine_point_pair_is_named():
    for pair in combinations(DECK, 2):
        if (card_points(pair[0]) + card_points(pair[1])) % 10 == 9:
            assert pair_rank(pair).name != "points", pair


def test_points_q_is_2_j_is_1_joker_is_6_and_only_the_last_digit_counts():
    assert card_points("Qh") == 2 and card_points("Js") == 1 and card_points("DJ") == 6
    assert card_points("Ts") == 0 and card_points("7c") == 7
    assert pair_rank(["Qh", "6s"]).points == 8
    assert pair_rank(["DJ", "8s"]).points == 4  # 6 + 8 = 14
    assert pair_rank(["Tc", "Td"]).points == 0 and pair_rank(["Tc", "Td"]).name == "points"


def test_more_points_win_and_equal_points_go_to_the_higher_single_card():
    assert pair_rank(["Qh", "6s"]) > pair_rank(["8s", "9s"])  # 8 > 7
    # 7 points each: 红Q (2) + 5 against 黑8 + 黑9: 红Q is the higher card.
    assert pair_rank(["Qh", "5s"]) > pair_rank(["8s", "9c"])
    # 003:76's order: 红Q > 红2 > 红8 > 红4 > (黑10 = 黑4 = 黑6) > (黑J = 红10 = 红6 = 红7) > the rest.
    three = [["2h", "Jc"], ["8h", "5s"], ["4h", "9c"], ["Ts", "3h"], ["7h", "6h"]]  # all 3 points
    ranks = [pair_rank(p) for p in three]
    assert all(r.points == 3 for r in ranks)
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 5
    # 黑10 = 黑4 = 黑6: equal points with equal single cards tie.
    assert pair_rank(["4s", "Jc"]) == pair_rank(["6c", "9s"])  # 5 points, 黑4 vs 黑6
    assert pair_rank(["7c", "8c"]) == pair_rank(["DJ", "9c"])  # 5 points, 黑7/黑8 vs 大王/黑9


def test_not_two_cards_of_the_deck_is_refused():
    for bad in (["Qh"], ["Qh", "Qh"], ["Qs", "Qh"], ["3d", "DJ"], ["Qh", "XJ"]):
        with pytest.raises(ValueError):
            pair_rank(bad)


FOUR = [
    ("tianhuang", "3h DJ Qh Qd"),  # 天皇 丁皇+一对红Q
    ("dihuang", "2d DJ 3h 2h"),  # 地皇 丁皇+一对红2
    ("sanhua_shi", "Th Ts Jc 5s"),  # 三花十 黑10+红10+黑J+任一张
    ("sanhua_liu", "6s 6h DJ Qd"),  # 三花六 黑6+红6+大王+任一张
]


@pytest.mark.parametrize(("name", "cards"), FOUR, ids=[n for n, _ in FOUR])
def test_each_four_card_hand(name, cards):
    cards = cards.split()
    assert four_card_hand(cards) == name
    assert four_card_hand(cards[::-1]) == name
    plain = best_split("Ts Tc Js Jc".split())  # 梅十 + 虎头: a strong ordinary hand
    weak = best_split("5s 9c 7c 8c".split())
    for split in splits(cards):
        if name in ("tianhuang", "dihuang"):
            assert compare_split(split, plain) == 1 and compare_split(plain, split) == -1
            assert compare_split(split, weak) == 1
        else:  # neither wins nor loses against anything (003:76)
            assert compare_split(split, plain) == 0 == compare_split(plain, split)
            assert compare_split(split, weak) == 0 == compare_split(weak, split)


def test_tianhuang_is_above_dihuang_and_near_misses_are_not_four_card_hands():
    # Two royal hands cannot meet at one table (one 丁皇), but their order is 天 then 地.
    assert compare_split((["3h", "DJ"], ["Qh", "Qd"]), (["3h", "DJ"], ["2h", "2d"])) == 1
    assert four_card_hand("3h DJ Qh 2d".split()) is None
    assert four_card_hand("Th Td Jc 5s".split()) is None  # two red 10s, no black one
    assert four_card_hand("6s 6c DJ Qd".split()) is None  # no red 6
    assert four_card_hand("Ts Th Js Jc".split()) == "sanhua_shi"  # the fourth card may be anything


def test_splits_put_the_larger_pair_at_the_head():
    found = splits("Qh Qd 7s 8c".split())
    assert len(found) == 3
    for head, tail in found:
        assert pair_rank(head) >= pair_rank(tail)
        assert sorted(head + tail) == sorted("Qh Qd 7s 8c".split())


def test_best_split_keeps_the_strongest_tail():
    # 天牌 + 5 points (7s 8c) against 天关九 (Qh 7s) + 天杠 (Qd 8c): the second has the better tail.
    head, tail = best_split("Qh Qd 7s 8c".split())
    assert {pair_rank(head).name, pair_rank(tail).name} == {"tianguanjiu", "tiangang"}
    assert pair_rank(head).name == "tiangang"  # 天杠 is above 天关九 in 003:75
    head, tail = best_split("3h DJ 9s 9c".split())
    assert pair_rank(head).name == "dinghuang" and pair_rank(tail).name == "duizi"


def test_compare_split_both_win_or_one_win_one_tie_wins():
    a = (["Qh", "Qd"], ["Ts", "Tc"])  # 天牌, 梅十
    b = (["2h", "2d"], ["Js", "Jc"])  # 地牌, 虎头
    assert compare_split(a, b) == 1 and compare_split(b, a) == -1
    c = (["2h", "2d"], ["4s", "4c"])  # 地牌, 板凳 (= 梅十)
    assert compare_split(a, c) == 1 and compare_split(c, a) == -1
    d = (["8h", "8d"], ["Th", "Td"])  # 人牌 (< 天牌) with a 苕十 tail (< 梅十)
    e = (["2h", "2d"], ["4s", "4c"])
    assert compare_split(d, e) == -1


def test_compare_split_one_higher_one_lower_or_both_equal_is_a_draw():
    a = (["Qh", "Qd"], ["7s", "8c"])  # 天牌, 5 points
    b = (["2h", "2d"], ["Ts", "Tc"])  # 地牌, 梅十
    assert compare_split(a, b) == 0 == compare_split(b, a)
    c = (["Ts", "Tc"], ["5s", "7c"])  # 梅十, 2 points
    d = (["4s", "4c"], ["5c", "7s"])  # 板凳, 2 points: equal head and equal tail
    assert compare_split(c, d) == 0
