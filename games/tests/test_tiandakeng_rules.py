"""填大坑 rules: every example and rule of seed 000 as a test."""

import itertools

import pytest

from games.tiandakeng.rules import compare, deck, key, points, score, special, xiqian_fan


def test_the_decks():  # 000:35, 000:59 (九洲游), 000:93 (东北: 10~A only 20 cards)
    jiuzhou, dongbei = deck("jiuzhou"), deck("dongbei")
    assert len(jiuzhou) == len(set(jiuzhou)) == 31 and {"FL", "DJ", "XJ"} <= set(jiuzhou)
    assert len(dongbei) == 20 and {c[0] for c in dongbei} == set("AKQJT")
    with pytest.raises(ValueError):
        deck("xx")


def test_card_values():  # 000:35
    assert [points([c]) for c in ("FL", "DJ", "XJ", "As", "Kh", "Qc", "Jd", "Ts", "9h", "8c")] == [
        20,
        18,
        16,
        15,
        13,
        12,
        11,
        10,
        9,
        8,
    ]


def test_manguan_is_84_points():  # 000:13
    hand = ["FL", "DJ", "XJ", "As", "Ah"]
    assert points(hand) == 84 and special(hand) == "manguan"


@pytest.mark.parametrize(
    ("hand", "kind"),
    [
        (["DJ", "XJ", "Ks", "Kh", "Kc"], "hulu"),  # 000:15 大王 + 小王 + BBB
        (["As", "Ah", "Ac", "Ad", "8s"], "simei"),  # 000:17 AAAA + 7 (no 7 in this deck)
        (["As", "Ah", "Ac", "Qs", "8h"], "baozi"),  # 000:19 AAA + Q + 8
        (["As", "Ah", "Ac", "Qs", "Qh"], "baozi"),  # the two others may be a pair
        (["FL", "As", "Ah", "Ac", "DJ"], "baozi"),
        (["FL", "DJ", "XJ", "As", "Kh"], None),
        (["FL", "DJ", "XJ", "As", "Ah"], "manguan"),
    ],
)
def test_special_hands(hand, kind):
    assert special(hand) == kind


def test_specials_order_manguan_hulu_simei_baozi():  # 000:31
    hands = [
        ["FL", "DJ", "XJ", "As", "Ah"],
        ["DJ", "XJ", "8s", "8h", "8c"],
        ["9s", "9h", "9c", "9d", "8s"],
        ["As", "Ah", "Ac", "Ks", "Kh"],
        ["FL", "DJ", "XJ", "Kd", "Qd"],  # 79 points, no special
    ]
    for better, worse in itertools.combinations(hands[:4], 2):
        assert compare(better, worse) > 0
    assert compare(hands[3], hands[4]) < 0  # a 75-point hand kills a 豹子 (000:27)


def test_75_points_or_more_kills_a_baozi_and_74_does_not():  # 000:27 "75分（含）以上"
    baozi = ["8s", "8h", "8c", "9s", "9h"]
    exactly_75 = ["FL", "DJ", "XJ", "Ts", "Jh"]  # 20+18+16+10+11
    assert points(exactly_75) == 75 and special(exactly_75) is None
    assert compare(exactly_75, baozi) > 0
    seventy_four = ["FL", "DJ", "XJ", "9s", "Jh"]  # 74
    assert points(seventy_four) == 74
    assert compare(seventy_four, baozi) < 0
    assert compare(exactly_75, ["9s", "9h", "9c", "9d", "8s"]) < 0  # only a 豹子 is killed


def test_plain_hands_compare_points_and_equal_points_tie():  # 000:31, 000:39
    assert compare(["As", "Kh", "Qc", "Jd", "9s"], ["As", "Kh", "Qc", "Jd", "8s"]) > 0
    assert compare(["As", "Kh", "Qc", "Jd", "9s"], ["Ad", "Kc", "Qh", "Js", "9c"]) == 0


def test_sets_of_one_kind_compare_their_rank():
    assert compare(["As", "Ah", "Ac", "8s", "9h"], ["Ks", "Kh", "Kc", "Qs", "Qh"]) > 0
    assert compare(["DJ", "XJ", "9s", "9h", "9c"], ["DJ", "XJ", "8s", "8h", "8c"]) > 0


def test_xiqian_multiples():  # 000:25
    assert xiqian_fan(["FL", "DJ", "XJ", "As", "Ah"]) == 4
    assert xiqian_fan(["DJ", "XJ", "8s", "8h", "8c"]) == 3
    assert xiqian_fan(["9s", "9h", "9c", "9d", "8s"]) == 2
    assert xiqian_fan(["9s", "9h", "9c", "Td", "8s"]) == 1
    assert xiqian_fan(["FL", "DJ", "XJ", "As", "Kh"]) == 0


def test_dongbei_adds_30_for_three_and_60_for_four():  # 000:93
    assert score(["As", "Ah", "Ac", "Ks", "Qh"], "dongbei") == 45 + 25 + 30
    assert score(["As", "Ah", "Ac", "Ad", "Qh"], "dongbei") == 60 + 12 + 60
    assert score(["As", "Kh", "Qc", "Jd", "Ts"], "dongbei") == 61
    # a shared card (借牌) counts in both hands, toward their sets too
    assert compare(["As", "Ah", "Kc", "Kd", "Ts"], ["Ac", "Ad", "Ks", "Kh", "Ts"], "dongbei") == 0


def test_the_order_is_total_over_every_hand():
    cards = deck()
    hands = list(itertools.islice(itertools.combinations(cards, 5), 0, None, 97))
    keys = sorted(hands, key=key)
    for a, b in itertools.pairwise(keys):
        assert compare(a, b) <= 0


@pytest.mark.parametrize("bad", [["As"] * 4, ["2s", "As", "Ks", "Qs", "Js"], "FLDJXJAsAh"])
def test_bad_hands_are_refused(bad):
    with pytest.raises(ValueError):
        special(bad)
