"""梭哈 rules: every example and tie rule of seed 002 (and 003 where it speaks)."""

import itertools

import pytest

from games.suoha.rules import CATEGORIES, best_hand, compare_shown, deck


def cat(cards):
    return best_hand(cards.split()).category


def beats(a, b):
    return best_hand(a.split()) > best_hand(b.split())


def test_the_deck_is_28_cards_eight_to_ace():  # 002:54, 003
    cards = deck()
    assert len(cards) == len(set(cards)) == 28
    assert {c[0] for c in cards} == set("89TJQKA")


@pytest.mark.parametrize(
    ("cards", "category"),
    [  # the seed's own example of each type (002:57-59)
        ("As Ks Qs Js Ts", "straight_flush"),
        ("As Ah Ac Ad 9s", "four_of_a_kind"),
        ("As Ah Ac 8s 8h", "full_house"),
        ("Ah Qh Th 9h 8h", "flush"),
        ("As Kh Qs Js Ts", "straight"),
        ("As Ah Ac 9s 8h", "three_of_a_kind"),
        ("As Ah 9c 9s 8h", "two_pair"),
        ("As Kh 9c 9s 8h", "pair"),
        ("As Kh Jc 9s 8h", "high_card"),
    ],
)
def test_seed_examples(cards, category):
    assert cat(cards) == category


def test_eight_and_ace_do_not_run():  # 002:57 "8 和 A 之间不算顺子"
    assert cat("8s 9h Tc Js Ah") == "high_card"
    assert cat("8s 9s Ts Js As") == "flush"
    assert cat("8s 9h Tc Js Qh") == "straight"


def test_category_order_full_house_beats_flush():  # 002:61
    examples = {
        "straight_flush": "8s 9s Ts Js Qs",
        "four_of_a_kind": "8s 8h 8c 8d 9s",
        "full_house": "8s 8h 8c 9d 9s",
        "flush": "Ah Kh Qh Jh 9h",
        "straight": "Ts Jh Qc Kd Ah",
        "three_of_a_kind": "As Ah Ac Kd Qs",
        "two_pair": "As Ah Kc Kd Qs",
        "pair": "As Ah Kc Qd Js",
        "high_card": "As Kh Qc Jd 9s",
    }
    values = [best_hand(examples[c].split()) for c in CATEGORIES]
    assert values == sorted(values)
    assert [v.category for v in values] == list(CATEGORIES)


def test_straights_and_flushes_compare_the_top_card_then_its_suit():  # 002:57-58
    assert beats("9s Ts Js Qs Ks", "8h 9h Th Jh Qh")
    assert beats("Ts Jh Qc Kd As", "Th Js Qd Kc Ah")  # equal tops: A♠ beats A♥
    assert beats("9h Ts Jc Qd Kh", "8s 9d Tc Jh Qs")
    # a flush looks at its highest card only, then that card's suit
    assert beats("As 9s Ts 8s Js", "Ah Kh Qh Jh 9h")
    assert beats("Ah Kh Qh Jh 9h", "Kc Qc Jc Tc 8c")


def test_sets_compare_their_rank():  # 002:58
    assert beats("9s 9h 9c 9d 8s", "8h 8s 8c 8d As")
    assert beats("9s 9h 9c 8d 8s", "8h 8c 8d As Ah")
    assert beats("9s 9h 9c 8d Ts", "8h 8c 8d As Kh")


def test_two_pairs_big_pair_small_pair_odd_card_then_its_suit():  # 002:58
    assert beats("As Ah 8c 8d 9s", "Kh Ks Qc Qd Ac")
    assert beats("As Ah 9c 9d 8s", "Ac Ad 8h 8s Ks")
    assert beats("As Ah 9c 9d Ks", "Ac Ad 9h 9s Qs")
    assert beats("As Ah 9c 9d Ks", "Ac Ad 9h 9s Kh")


def test_pairs_pair_then_odd_cards_then_the_suit():  # 002:59
    assert beats("9s 9h 8c Td Js", "8s 8h Ac Kd Qs")
    assert beats("9s 9h Ac Kd Qs", "9c 9d Ah Kh Js")
    assert beats("9s 9h As Kd Qs", "9c 9d Ah Ks Qh")  # A♠ > A♥


def test_high_cards_one_by_one_then_the_top_suit():  # 002:59
    assert beats("As Kh Qc Jd 9s", "Ah Ks Qd Jc 8s")
    assert beats("As Kh Qc Jd 9s", "Ah Ks Qd Jc 9h")


def test_two_different_hands_never_tie():
    cards = deck()
    seen = {}
    for hand in itertools.combinations(cards, 5):
        value = best_hand(hand)
        assert value.key not in seen or set(seen[value.key]) & set(hand), (hand, seen[value.key])
        seen.setdefault(value.key, hand)


@pytest.mark.parametrize("bad", [["As"] * 5, ["2s", "3s", "4s", "5s", "6s"], ["As", "Ks"], "AsKsQsJsTs"])
def test_bad_hands_are_refused(bad):
    with pytest.raises(ValueError):
        best_hand(bad)


def test_shown_cards_pairs_and_sets_first_then_rank_then_suit():  # 002:55
    assert compare_shown(["As"], ["Ah"]) > 0
    assert compare_shown(["9s"], ["Ad"]) < 0
    assert compare_shown(["8s", "8h"], ["As", "Kh"]) > 0  # a pair speaks before an ace
    assert compare_shown(["8s", "8h", "9d"], ["Ac", "Ad", "Kh"]) < 0
    assert compare_shown(["8s", "8h", "9d", "9h"], ["As", "Ah", "Kd", "Qh"]) > 0  # two pairs
    assert compare_shown(["8s", "8h", "8d", "9h"], ["As", "Ah", "Kd", "Kh"]) > 0  # trips
    assert compare_shown(["As", "Kh", "9d"], ["Ah", "Kd", "Qh"]) < 0
    assert compare_shown(["As", "Kh", "Qd"], ["Ah", "Kd", "Qh"]) > 0  # the best card's suit
    assert compare_shown(["Ts", "Js", "Qs", "Ks"], ["8h", "8d", "9c", "Jc"]) < 0  # no straight or flush shown


def test_shown_cards_never_tie():
    cards = deck()
    for a, b in itertools.combinations(itertools.combinations(cards, 2), 2):
        if not set(a) & set(b):
            assert compare_shown(a, b) != 0
