"""牛牛 hands: every example of seed 001 (牛牛, 通比牛牛 and 百人牛牛 sections), order, splits, multiples."""

import random
from itertools import combinations

import pytest

from games.niuniu.rules import (
    CATEGORIES,
    best_split,
    category,
    compare,
    multiplier,
    niu_splits,
    points,
)

DECK = [r + s for r in "A23456789TJQK" for s in "shcd"]


def h(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize(
    ("line", "cards", "expected"),
    [
        # 牛牛游戏规则 (001:414-420) and 通比牛牛 (001:579-595): ranks only, suits chosen here.
        ("001:414 32211", "3s 2s 2h Ad Ac", "five_small"),
        ("001:415 88886", "8s 8h 8c 8d 6s", "four_bomb"),
        ("001:416 KKQQJ", "Ks Kh Qs Qh Js", "five_face"),
        ("001:417 KKQJ10", "Ks Kh Qs Js Ts", "four_face"),
        ("001:418 J5546", "Js 5s 5h 4s 6s", "niuniu"),
        ("001:593 785K10", "7s 8s 5s Ks Th", "niuniu"),
        ("001:579 46Q99 牛8", "4s 6s Qs 9s 9h", "niu_8"),
        ("001:580 78A4J", "7s 8s As 4s Js", "no_niu"),
        # 百人牛牛 examples with their suits (001:109-115).
        ("001:109", "3h 2s 2h As Ah", "five_small"),
        ("001:110", "Ks Kh Kc Kd 8h", "four_bomb"),
        ("001:111", "Ks Kh Kc Qs Js", "five_face"),
        ("001:112", "Kh Kd Qh Jh Th", "four_face"),
        ("001:113", "Kc Qc Jc 9c Ac", "niuniu"),
        ("001:114", "Kd Qd Jd Td 9d", "niu_9"),
        ("001:115", "Ks Qh 9c 8d 7d", "no_niu"),
    ],
)
def test_every_seed_example(line, cards, expected):
    assert category(h(cards)) == expected, line


def test_points_count_ace_one_and_tens_ten():
    assert [points(c) for c in h("As 2s 9s Ts Js Qs Ks")] == [1, 2, 9, 10, 10, 10, 10]


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("As 2s 3s 4s Ks", "no_niu"),  # a K is no small card, and no three make ten
        ("4s 4h 2s Ad Ac", "niu_2"),  # all below 5 but the sum is 12: 4+4+2 and 1+1
        ("As Ah Ac Ad 2s", "five_small"),  # small beats bomb (the higher category wins)
        ("Js Jh Jc Jd Qs", "four_bomb"),  # a bomb of faces is a bomb before 五花牛
        ("Ks Kh Qs Js 9s", "niu_9"),  # four faces without a 10: only 牛九
        ("Ts Th Tc 5s 5h", "niuniu"),
        ("Ts 9h 8c 3s As", "niu_1"),
        ("9s 8h 7c 6s 5h", "niu_5"),  # 9+6+5 and 8+7
        ("As Ah 2s 3s 9s", "no_niu"),
    ],
)
def test_edges_between_categories(cards, expected):
    assert category(h(cards)) == expected


def test_order_is_the_seeds_ladder():
    # 001:423 and 001:588: 小牛牛 > 四炸弹 > 五花牛 > 四花牛 > 牛牛 > 牛9 … 牛1 > 无牛
    assert CATEGORIES == (
        "five_small",
        "four_bomb",
        "five_face",
        "four_face",
        "niuniu",
        "niu_9",
        "niu_8",
        "niu_7",
        "niu_6",
        "niu_5",
        "niu_4",
        "niu_3",
        "niu_2",
        "niu_1",
        "no_niu",
    )
    ladder = [
        "3s 2s 2h Ad Ac",
        "8s 8h 8c 8d 6s",
        "Ks Kh Qs Qh Js",
        "Ks Kh Qs Js Ts",
        "Js 5s 5h 4s 6s",
        "Kd Qd Jd Td 9d",
        "4s 6s Qs 9s 9h",
        "7s 8s 5s Kh 7h",
        "Ts 9h 8c 3s As",
        "7s 8s As 4s Js",
    ]
    for stronger, weaker in zip(ladder, ladder[1:], strict=False):
        assert compare(h(stronger), h(weaker)) == 1
        assert compare(h(weaker), h(stronger)) == -1


def test_same_category_compares_highest_card_then_its_suit():
    # 001:422-425: rank K>Q>J>10>…>A, then ♠ > ♥ > ♣ > ♦.
    assert category(h("Ks 9h As 2d 7c")) == category(h("Qs Th 7s 3d 9c")) == "niu_9"
    assert compare(h("Ks 9h As 2d 7c"), h("Qs Th 7s 3d 9c")) == 1  # K beats Q
    assert compare(h("Kh 9s Ad 2h 7d"), h("Ks 9d Ac 2c 7h")) == -1  # K♥ loses to K♠
    assert category(h("Ts 2c 3d 4h 9s")) == category(h("Ad 2h 3c 4d 9h")) == "no_niu"
    assert compare(h("Ts 2c 3d 4h 9s"), h("Ad 2h 3c 4d 9h")) == 1  # 10 beats 9


def test_two_different_hands_never_tie():
    rng = random.Random(27)
    for _ in range(2000):
        cards = rng.sample(DECK, 10)
        a, b = cards[:5], cards[5:]
        assert compare(a, b) == -compare(b, a)


def test_every_niu_split_scores_the_same():
    rng = random.Random(5)
    for _ in range(2000):
        cards = rng.sample(DECK, 5)
        scores = {sum(points(c) for c in cards if c not in three) % 10 for three in niu_splits(cards)}
        assert len(scores) <= 1


def test_best_split_shows_the_niu():
    three, two = best_split(h("Js 5s 5h 4s 6s"))
    assert sum(map(points, three)) % 10 == 0 and sum(map(points, two)) % 10 == 0
    three, two = best_split(h("4s 6s Qs 9s 9h"))
    assert sorted(three) == sorted(["4s", "6s", "Qs"]) and two == ["9s", "9h"]
    assert sorted(three + two) == sorted(h("4s 6s Qs 9s 9h"))


def test_best_split_without_a_niu():
    # 无牛: the three highest, then the two lowest, each high to low.
    assert best_split(h("7s 8s As 4s Js")) == (["Js", "8s", "7s"], ["4s", "As"])
    # 四炸弹 without a niu: three of the four, then the fourth and the odd card.
    assert best_split(h("8s 8h 8c 8d 6s")) == (["8s", "8h", "8c"], ["8d", "6s"])
    # 小牛牛 32211 makes no niu: shown like 无牛.
    assert best_split(h("3s 2s 2h Ad Ac")) == (["3s", "2s", "2h"], ["Ac", "Ad"])


def test_best_split_is_a_partition_for_every_hand_shape():
    rng = random.Random(9)
    for _ in range(500):
        cards = rng.sample(DECK, 5)
        three, two = best_split(cards)
        assert len(three) == 3 and len(two) == 2 and sorted(three + two) == sorted(cards)
        if niu_splits(cards):
            assert sum(map(points, three)) % 10 == 0


def test_niu_splits_lists_every_ten():
    cards = h("Ts Th Tc 5s 5h")
    assert len(niu_splits(cards)) == len([t for t in combinations(cards, 3) if sum(map(points, t)) % 10 == 0])
    assert niu_splits(h("As Ah 2s 3s 9s")) == []


def test_multiplier_tables_of_both_games():
    # 牛牛 (抢庄), 001:426-449.
    assert [multiplier(c, "niuniu") for c in CATEGORIES] == [10, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1, 1, 1, 1]
    # 通比牛牛, 001:596-611.
    assert [multiplier(c, "tongbi") for c in CATEGORIES] == [6, 5, 5, 4, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1]
    assert multiplier("niu_8") == 3
    with pytest.raises(ValueError, match="no multiple"):
        multiplier("niu_8", "other")


@pytest.mark.parametrize("bad", [["As"] * 5, h("As 2s 3s 4s"), h("As 2s 3s 4s 1s"), h("As 2s 3s 4s 5x")])
def test_bad_hands_are_refused(bad):
    with pytest.raises(ValueError):
        category(bad)
