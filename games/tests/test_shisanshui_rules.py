"""十三水 rules: every example and every row of seed 001's score table (001:460-571)."""

import random

import pytest

from games.shisanshui import arrange
from games.shisanshui.piles import DECK, RANK_OF, SUIT_OF
from games.shisanshui.rules import (
    SPECIALS,
    compare_all,
    is_valid,
    pile_type,
    score,
    special,
    special_piles,
    suggest,
)
from games.shisanshui.settle import coins_for


def cards(text: str) -> list[str]:
    return text.split()


def normal(front: str, middle: str, back: str) -> dict:
    piles = {"front": cards(front), "middle": cards(middle), "back": cards(back)}
    assert is_valid(**piles), piles
    return piles


# -- piles ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("9h Th Jh Qh Kh", "straight_flush"),
        ("7s 7h 7c 7d 2s", "four_of_a_kind"),
        ("5s 5h 5c 9d 9s", "full_house"),
        ("2c 7c 9c Jc Kc", "flush"),
        ("4s 5h 6c 7d 8s", "straight"),
        ("As 2d 3h 4c 5s", "straight"),
        ("Qs Qh Qc 4d 2s", "three_of_a_kind"),
        ("Js Jh 3c 3d 9s", "two_pair"),
        ("Ts Th 2c 5d 9s", "pair"),
        ("As Kh 9c 5d 3s", "high_card"),
        ("As Ah Ac", "three_of_a_kind"),
        ("Ks Kh 2c", "pair"),
        ("As Kh Qc", "high_card"),
    ],
)
def test_pile_kinds(text, kind):
    assert pile_type(cards(text)).kind == kind


def test_kinds_rank_as_the_seed_lists_them():
    # 001:470: 同花顺 > 铁支 > 葫芦 > 同花 > 顺子 > 三条 > 两对 > 对子 > 乌龙
    ladder = [
        "9h Th Jh Qh Kh",
        "7s 7h 7c 7d 2s",
        "5s 5h 5c 9d 9s",
        "2c 7c 9c Jc Kc",
        "4s 5h 6c 7d 8s",
        "Qs Qh Qc 4d 2s",
        "Js Jh 3c 3d 9s",
        "Ts Th 2c 5d 9s",
        "As Kh 9c 5d 3s",
    ]
    values = [pile_type(cards(t)) for t in ladder]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)


def test_same_kind_compares_points_never_suits():
    # 001:471: 若点数相同则视为大小一致，不比花色
    assert pile_type(cards("As Kh 9c 5d 3s")) == pile_type(cards("Ad Kc 9h 5s 3c"))
    assert pile_type(cards("2h 7h 9h Jh Kh")) == pile_type(cards("2c 7c 9c Jc Kc"))
    assert pile_type(cards("Ks Kh 2c")) == pile_type(cards("Kd Kc 2s"))
    assert pile_type(cards("Ts Th 2c 5d 9s")) > pile_type(cards("9c 9d Ac Kd Qs"))
    assert pile_type(cards("Ts Th 3c 5d 9s")) > pile_type(cards("Tc Td 2s 5h 9h"))


def test_the_wheel_is_the_lowest_straight():
    wheel = pile_type(cards("As 2d 3h 4c 5s"))
    assert wheel < pile_type(cards("2s 3d 4h 5c 6s"))
    assert wheel > pile_type(cards("As Ad Ah Kc Qs"))  # still a straight, above three of a kind
    assert pile_type(cards("Ts Jd Qh Kc As")) > pile_type(cards("9s Td Jh Qc Ks"))


def test_front_three_cards_make_no_straight_or_flush():
    assert pile_type(cards("2h 3h 4h")).kind == "high_card"


def test_front_compares_with_the_middle_by_points():
    # A pair of 9s with a K is no stronger than a pair of 9s with K-5-2: the front may equal it.
    assert pile_type(cards("9s 9h Kc")) <= pile_type(cards("9d 9c Kd 5s 2h"))
    assert pile_type(cards("9s 9h Kc")) > pile_type(cards("9d 9c Qd 5s 2h"))


@pytest.mark.parametrize("bad", [["As"] * 3, ["As", "Kh"], ["As", "Kh", "Xx"], "As Kh Qc", ["As", "Kh", 5]])
def test_pile_type_refuses_what_is_not_a_pile(bad):
    with pytest.raises(ValueError):
        pile_type(bad)


# -- 倒水 ------------------------------------------------------------------------------------


def test_is_valid_refuses_dao_shui():
    # 001:469: 头墩 ≤ 中墩 ≤ 尾墩, otherwise 倒水 and it cannot be played.
    assert is_valid(cards("2s 3h 5c"), cards("Ts Th 2c 5d 9s"), cards("Qs Qh Qc 4d 2h"))
    assert not is_valid(cards("As Ah 5c"), cards("Ts Th 2c 5d 9s"), cards("Qs Qh Qc 4d 2h"))
    assert not is_valid(cards("2s 3h 5c"), cards("Qs Qh Qc 4d 2h"), cards("Ts Th 2c 5d 9s"))
    # Equal piles are allowed (≤).
    assert is_valid(cards("9s 9h Kc"), cards("9d 9c Kd 5s 2h"), cards("As Ah Qc Jd 8s"))
    assert not is_valid(cards("9s 9h Kc"), cards("9d 9c Kd 5s"), cards("As Kh Qc Jd 8s 2h"))
    assert not is_valid(cards("9s 9h Kc"), cards("9s 9c Kd 5s 2h"), cards("As Kh Qc Jd 8s"))


# -- special hands ------------------------------------------------------------------------------

SPECIAL_HANDS = {
    "清龙": "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah",
    "一条龙": "2h 3s 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah",
    "十二皇族": "As Ah Ac Ad Ks Kh Kc Kd Qs Qh Qc Qd Js",
    "三同花顺": "2h 3h 4h 5s 6s 7s 8s 9s 9d Td Jd Qd Kd",
    "三分天下": "2s 2h 2c 2d 7s 7h 7c 7d Ks Kh Kc Kd 3s",
    "全大": "8s 8h 9c 9d Ts Jh Jc Qd Ks Kh Ac Ad 8c",
    "全小": "2s 2h 3c 3d 4s 5h 5c 6d 7s 7h 8c 8d 6c",
    "凑一色": "2h 4h 6h 8h Th Qh Ad 3d 5d 7d 9d Jd 2d",
    "五对三条": "2s 2h 4c 4d 6s 6h 8c 8d Ts Th Qc Qd Qs",
    "四套三条": "2s 2h 2c 5d 5s 5h 9c 9d 9s Jh Jc Jd Ks",
    "六对半": "2s 2h 4c 4d 6s 6h 8c 8d Ts Th Qc Qd As",
    "三顺子": "2h 3s 4d 5c 6h 7s 8d 9c 9h Td Js Qc Kh",
    "三同花": "2h 5h 9h 2s 5s 8s Ts Qs 4d 7d Jd Kd 9d",
}
WATER = {
    "清龙": 60,
    "一条龙": 30,
    "十二皇族": 24,
    "三同花顺": 20,
    "三分天下": 20,
    "全大": 10,
    "全小": 10,
    "凑一色": 10,
    "五对三条": 8,
    "四套三条": 8,
    "六对半": 6,
    "三顺子": 3,
    "三同花": 3,
}


@pytest.mark.parametrize("name", list(SPECIAL_HANDS))
def test_every_special_hand_is_found_with_its_water(name):
    # 001:489-501 (names, highest first) and 001:531-569 (水 each).
    assert special(cards(SPECIAL_HANDS[name])) == (name, WATER[name])


def test_the_special_list_is_the_seeds_order():
    assert [n for n, _ in SPECIALS] == list(SPECIAL_HANDS)
    assert dict(SPECIALS) == WATER


def test_three_pile_specials_come_with_their_piles():
    piles = special_piles(cards(SPECIAL_HANDS["三顺子"]))
    assert piles["special"] == "三顺子"
    assert pile_type(piles["middle"]).kind == "straight" and pile_type(piles["back"]).kind == "straight"
    flushes = special_piles(cards(SPECIAL_HANDS["三同花"]))
    assert {c[1] for c in flushes["front"]} == {"h"}


def test_an_ordinary_hand_is_not_special():
    assert special(cards("As Kd Qh Jc 9s 8d 7h 5c 4s 3d 2h 2c Ts")) is None
    assert special(cards("2h 3s 4d 5c 6h 7s 8d 9c 9h Td Js Qc 2d")) is None  # front 2-9-? is no straight


# -- the score table (001:502-569) ---------------------------------------------------------------

WEAK = normal("2s 3h 5c", "4d 6s 7h 9c Jd", "8s Th Qc Kd 3d")  # 乌龙 in every pile


def test_win_one_pile_lose_one_pile_tie_one():
    a = normal("2h 3c 5d", "Qs Qh 2c 5h 9s", "Ks Kh 3s 6d Ts")
    b = normal("4c 6c 7d", "Qd Qc 2d 5s 9d", "As Ac 7s 8c Jc")
    assert [p for p in compare_all([a, b]).pairs[0].piles] == [-1, 0, -1]
    assert score([a, b]) == [-2, 2]


def test_each_pile_bonus():
    rows = [
        (normal("Ts Th Tc", "Js Jh Jc 2d 3d", "As Ah Ac 4s 4h"), 0, 3),  # 冲三
        (normal("2s 3c 4d", "9s 9h 9c 5d 5h", "Qs Qh Qc Ks Kh"), 1, 2),  # 中墩葫芦
        (normal("2s 3c 4d", "9s 9h 9c 9d 5h", "Ts Th Tc Td Kh"), 1, 8),  # 铁支 in the middle
        (normal("2d 3c 4d", "5s 6s 7s 8s 9s", "9h Th Jh Qh Kh"), 1, 10),  # 同花顺 in the middle
        (normal("2s 3c 4d", "5d 6c 7h 8s Jd", "Ts Th Tc Td Kh"), 2, 4),  # 铁支 in the back
        (normal("2s 3c 4d", "5d 6c 7h 8s Jd", "9h Th Jh Qh Kh"), 2, 5),  # 同花顺 in the back
    ]
    versus = normal("5c 6d 8c", "2h 4h 6h 7c Jd", "3h 8d Tc Qd Ac")  # 乌龙 in every pile
    for hand, pile, water in rows:
        comparison = compare_all([hand, versus]).pairs[0]
        assert comparison.piles[pile] == water, (hand, comparison)
        assert compare_all([versus, hand]).pairs[0].piles[pile] == -water


def test_shooting_doubles_the_water():
    # 打枪 (001:472, 511-513): three piles all won, the loser pays twice.
    a = normal("Ks Kh 2c", "Qs Qh Qc 3d 4d", "As Ah Ac 5s 5h")
    b = normal("3s 4h 6c", "7d 8s 9h Jc 2d", "Td Js 6d 7c 9c")
    result = compare_all([a, b])
    assert result.pairs[0].piles == [1, 1, 1]
    assert result.pairs[0].shot == 0
    assert score([a, b]) == [6, -6]


def test_a_tied_pile_is_no_shot():
    a = normal("Ks Kh 2c", "Qs Qh Qc 3d 4d", "As Ah Ac 5s 5h")
    b = normal("Kd Kc 2s", "8d 8s 9h 9c 2d", "Td Tc Th 6d 7c")
    assert compare_all([a, b]).pairs[0].piles == [0, 1, 1]
    assert compare_all([a, b]).pairs[0].shot is None
    assert score([a, b]) == [2, -2]


SHOOTER = normal("Ks Kh 2c", "Qs Qh Qc 3d 4d", "As Ah Ac 5s 5h")
VICTIMS = [
    normal("3s 4h 6c", "7d 8s 9h Jc 2d", "Td Js 6d 7c 9c"),
    normal("3c 4c 6h", "7h 8c 9d Jh 2h", "Tc Jd 6s 7s 9s"),
    normal("3h 4d 6s", "7c 8h 9c Jd 2s", "Th Jc 6h 7h 9d"),
]


def test_home_run_with_four_players_doubles_again():
    # 全垒打 (001:473, 514-516): all three others shot, ×2 again, only with four players.
    result = compare_all([SHOOTER, *VICTIMS])
    assert result.home_run == 0
    assert result.totals[0] == 3 * 12
    assert result.totals[1:] == [-12, -12, -12]


def test_no_home_run_with_three_players():
    result = compare_all([SHOOTER, *VICTIMS[:2]])
    assert result.home_run is None
    assert result.totals == [12, -6, -6]


def test_special_hands_take_no_part_in_shooting():
    # 001:474: 特殊牌型不参与打枪与全垒打; the shooter cannot shoot a special hand.
    six_pairs = {"special": "六对半"}
    result = compare_all([SHOOTER, VICTIMS[0], VICTIMS[1], six_pairs])
    assert result.home_run is None
    # 六对半 takes 6 from each of the three others (每家赢取6水); the shooter still shoots the two.
    assert result.totals == [6 + 6 - 6, -6 + 0 - 6, -6 + 0 - 6, 18]


@pytest.mark.parametrize("name", list(WATER))
def test_each_special_hand_beats_a_normal_one_by_its_water(name):
    assert score([{"special": name}, WEAK]) == [WATER[name], -WATER[name]]


def test_specials_against_each_other_go_by_the_list():
    assert score([{"special": "三同花顺"}, {"special": "三分天下"}]) == [20, -20]
    assert score([{"special": "三同花"}, {"special": "一条龙"}]) == [-30, 30]
    assert score([{"special": "全大"}, {"special": "全大"}]) == [0, 0]


def test_a_lone_normal_hand_pays_every_special():
    # 001:487: 只有1人含有普通牌型 … 扣除所有特殊牌型水数总和
    assert score([WEAK, {"special": "六对半"}, {"special": "三顺子"}]) == [-9, 6 + 6, 3 - 6]


def test_random_deals_conserve_water_and_coins():
    rng = random.Random(29)
    for _ in range(30):
        deck = list(DECK)
        rng.shuffle(deck)
        n = rng.randint(2, 4)
        hands = [deck[13 * i : 13 * (i + 1)] for i in range(n)]
        arrangements = [suggest(h)[0] for h in hands]
        water = score(arrangements)
        assert sum(water) == 0
        carried = [rng.choice([5, 50, 5000]) for _ in range(n)]
        deltas = coins_for(water, rng.choice([1, 5, 20]), carried)
        assert sum(deltas) == 0
        assert all(abs(d) <= c for d, c in zip(deltas, carried, strict=True))


# -- limited liability ------------------------------------------------------------------------


def test_coins_are_water_times_the_base():
    assert coins_for([6, -2, -4], 5, [1000, 1000, 1000]) == [30, -10, -20]


def test_a_short_loser_pays_what_it_carried_and_winners_share_it_in_proportion():
    # 001:570: 根据玩家当局携带的金额按比例来计算实际输赢
    assert coins_for([-10, 6, 4], 10, [50, 1000, 1000]) == [-50, 30, 20]


def test_a_short_winner_takes_no_more_than_it_carried():
    assert coins_for([10, -6, -4], 10, [50, 1000, 1000]) == [50, -30, -20]


def test_rounding_keeps_the_sum_at_zero():
    deltas = coins_for([-3, 1, 1, 1], 1, [2, 10, 10, 10])
    assert deltas[0] == -2 and sorted(deltas[1:]) == [0, 1, 1] and sum(deltas) == 0


# -- the arranging aid ------------------------------------------------------------------------


def _sorted_hand(hand):
    ordered = sorted(hand, key=lambda c: (RANK_OF[c[0]], SUIT_OF[c[1]]), reverse=True)
    return tuple(RANK_OF[c[0]] for c in ordered), tuple(SUIT_OF[c[1]] for c in ordered)


def test_suggest_matches_a_brute_force_search_over_every_split():
    # The frontier against all 72,072 splits (bench/engines.py checks 1,000 more).
    rng = random.Random(13)
    for _ in range(200):
        ranks, suits = _sorted_hand(rng.sample(DECK, 13))
        found = {entry[:3] for entry in arrange.frontier(ranks, suits)}
        assert found == arrange.brute_force(ranks, suits)


@pytest.mark.parametrize(
    "hand",
    [
        "Ah Kd Kh Ks Qc Qh Jc Jh Js 9c 8c 6c 4s",  # two full houses that make the same back pile
        "Qd Qc Qs Tc 8c 7d 7c 7h 5c 3d 3c 2d 2s",
    ],
)
def test_an_arrangement_beaten_by_one_with_an_equal_back_pile_is_dropped(hand):
    ranks, suits = _sorted_hand(cards(hand))
    assert {entry[:3] for entry in arrange.frontier(ranks, suits)} == arrange.brute_force(ranks, suits)


def test_suggestions_are_legal_distinct_and_undominated():
    rng = random.Random(3)
    for _ in range(12):
        hand = rng.sample(DECK, 13)
        options = [o for o in suggest(hand) if "special" not in o]
        assert options
        triples = []
        for o in options:
            assert sorted(o["front"] + o["middle"] + o["back"]) == sorted(hand)
            assert is_valid(o["front"], o["middle"], o["back"])
            triples.append(tuple(pile_type(o[p]).value for p in ("front", "middle", "back")))
        assert len(set(triples)) == len(triples)
        for t in triples:
            assert not any(u != t and all(x >= y for x, y in zip(u, t, strict=True)) for u in triples)


def test_suggest_puts_a_special_hand_last():
    options = suggest(cards(SPECIAL_HANDS["六对半"]))
    assert options[-1]["special"] == "六对半"
    assert all("special" not in o for o in options[:-1])


def test_suggest_prefers_strong_piles():
    # Three aces and two kings: the full house goes to the back, not split up.
    best = suggest(cards("As Ah Ac Ks Kh 2c 4d 6s 8h Tc Qd 3s 7c"))[0]
    assert pile_type(best["back"]).kind == "full_house"


def test_suggest_refuses_anything_but_thirteen_cards():
    with pytest.raises(ValueError):
        suggest(cards("As Ah Ac"))
    with pytest.raises(ValueError):
        suggest(["As"] * 13)
