"""升级 rules, each example of seed 004 (line numbers in docs/rules/shengji.md)."""

import pytest

from games.shengji import rules
from games.shengji.rules import Trump

SPADES_2 = Trump("2", "s")
NO_TRUMP_2 = Trump("2", None)


def test_two_decks_hold_108_cards_and_200_points():
    deck = list(rules.DECK) * 2
    assert len(deck) == 108  # 004:1
    assert rules.points(deck) == rules.TOTAL_POINTS == 200  # 004:26


def test_points_count_fives_tens_and_kings():
    assert rules.points(["5h", "Tc", "Kd", "Qs", "XJ"]) == 25


def test_trump_order_jokers_then_trump_level_then_other_levels_then_trump_suit():
    order = ["As", "2h", "2s", "XJ", "DJ"]
    assert sorted(order, key=lambda c: rules.strength(c, SPADES_2)) == order
    assert rules.strength("2h", SPADES_2) == rules.strength("2c", SPADES_2)  # other level cards are equal
    assert rules.strength("3s", SPADES_2) > rules.strength("Ah", SPADES_2)  # any trump beats a plain card


def test_level_cards_and_jokers_follow_as_trump():
    for card in ("2h", "2d", "XJ", "DJ", "7s"):
        assert rules.suit_of(card, SPADES_2) == rules.TRUMP
    assert rules.suit_of("Ah", SPADES_2) == "h"


def test_no_trump_has_only_jokers_and_level_cards_as_trumps():
    assert rules.suit_of("As", NO_TRUMP_2) == "s"
    assert rules.suit_of("2s", NO_TRUMP_2) == rules.TRUMP
    assert rules.strength("2s", NO_TRUMP_2) == rules.strength("2h", NO_TRUMP_2)  # 004:11 各花级牌大小一致


def test_the_level_rank_is_skipped_in_tractors():
    level7 = Trump("7", "s")
    assert rules.shape(["6h", "6h", "8h", "8h"], level7) == "tractor"
    assert rules.shape(["As", "As", "7h", "7h"], level7) == "tractor"  # trump A then an off-suit level pair
    assert rules.shape(["7h", "7h", "7c", "7c"], level7) == "throw"  # two equal level pairs are not adjacent
    assert rules.shape(["7s", "7s", "XJ", "XJ", "DJ", "DJ"], level7) == "tractor"


def test_shapes_of_a_lead():
    assert rules.shape(["Ah"], SPADES_2) == "single"
    assert rules.shape(["Ah", "Ah"], SPADES_2) == "pair"
    assert rules.shape(["Ah", "Kh"], SPADES_2) == "throw"
    assert rules.shape(["Ah", "Kc"], SPADES_2) is None


# -- following: 004 五 ---------------------------------------------------------------------


def test_single_must_follow_suit_else_anything():
    hand = ["3h", "9c", "XJ"]
    assert rules.legal_follow(hand, ["Ah"], ["3h"], SPADES_2)
    assert not rules.legal_follow(hand, ["Ah"], ["9c"], SPADES_2)
    assert rules.legal_follow(["9c", "XJ"], ["Ah"], ["9c"], SPADES_2)  # 004:19 another suit
    assert rules.legal_follow(["9c", "XJ"], ["Ah"], ["XJ"], SPADES_2)  # or a trump


def test_pair_must_be_followed_by_a_pair_else_singles_of_the_suit():
    hand = ["3h", "3h", "9h", "Jh", "4c"]
    assert rules.follow_refusal(hand, ["Ah", "Ah"], ["9h", "Jh"], SPADES_2) == (
        "You must follow a pair with a pair of that suit."
    )
    assert rules.legal_follow(hand, ["Ah", "Ah"], ["3h", "3h"], SPADES_2)
    assert rules.legal_follow(["9h", "Jh", "4c"], ["Ah", "Ah"], ["9h", "Jh"], SPADES_2)  # 004:20
    assert rules.follow_refusal(["9h", "4c", "4c"], ["Ah", "Ah"], ["4c", "4c"], SPADES_2) == (
        "You must follow the suit that was led."
    )
    assert rules.legal_follow(["9h", "4c", "4c"], ["Ah", "Ah"], ["9h", "4c"], SPADES_2)


def test_tractor_then_pairs_then_singles_and_the_count_always_equal():
    led = ["Qh", "Qh", "Kh", "Kh"]
    with_tractor = ["3h", "3h", "4h", "4h", "9h"]
    assert rules.legal_follow(with_tractor, led, ["3h", "3h", "4h", "4h"], SPADES_2)
    assert not rules.legal_follow(with_tractor, led, ["3h", "3h", "4h", "9h"], SPADES_2)
    pairs = ["3h", "3h", "6h", "6h", "9h"]  # 004:21-22: no tractor, so both pairs
    assert rules.legal_follow(pairs, led, ["3h", "3h", "6h", "6h"], SPADES_2)
    assert rules.follow_refusal(pairs, led, ["3h", "3h", "6h", "9h"], SPADES_2) == (
        "You must follow a tractor with as many pairs of that suit as you hold."
    )
    one_pair = ["3h", "3h", "6h", "9h", "Jh"]
    assert rules.legal_follow(one_pair, led, ["3h", "3h", "6h", "9h"], SPADES_2)
    assert not rules.legal_follow(one_pair, led, ["6h", "9h", "Jh", "3h"][:3], SPADES_2)  # count
    assert (
        rules.follow_refusal(one_pair, led, ["3h", "6h", "9h"], SPADES_2) == "Play as many cards as were led."
    )


def test_a_throw_is_followed_by_the_suit_only():
    led = ["Ah", "Kh", "Kh"]
    assert rules.legal_follow(["3h", "4h", "9h", "9h"], led, ["3h", "4h", "9h"], SPADES_2)
    assert rules.legal_follow(["3h", "4c", "5d"], led, ["3h", "4c", "5d"], SPADES_2)  # 004:23
    assert not rules.legal_follow(["3h", "4h", "5d", "6d"], led, ["3h", "5d", "6d"], SPADES_2)


def test_leading_trumps_must_be_followed_by_trumps():
    assert not rules.legal_follow(["3s", "Ah"], ["4s"], ["Ah"], SPADES_2)  # 004:24 吊主
    assert rules.legal_follow(["2h", "Ah"], ["4s"], ["2h"], SPADES_2)  # a level card is a trump
    assert rules.legal_follow(["Ah", "Kc"], ["4s"], ["Kc"], SPADES_2)


def test_legal_follows_lists_each_legal_set_once():
    follows = rules.legal_follows(["3h", "3h", "9h", "4c"], ["Ah", "Ah"], SPADES_2)
    assert follows == [["3h", "3h"]]


# -- tricks --------------------------------------------------------------------------------


def test_lead_wins_unless_beaten_in_suit_or_by_trumps():
    assert rules.trick_winner([["9h"], ["Kh"], ["3s"], ["Ah"]], SPADES_2) == 2
    assert rules.trick_winner([["9h"], ["Kc"], ["Th"], ["8h"]], SPADES_2) == 2


def test_two_single_trumps_never_beat_a_pair():
    assert rules.trick_winner([["9h", "9h"], ["3s", "4s"], ["Ah", "Kh"], ["5h", "6h"]], SPADES_2) == 0
    assert rules.trick_winner([["9h", "9h"], ["3s", "3s"], ["Ah", "Ah"], ["5h", "6h"]], SPADES_2) == 1
    assert rules.trick_winner([["9h", "9h"], ["3c", "3c"], ["Ah", "Ah"], ["5h", "6h"]], SPADES_2) == 2


def test_a_tractor_is_beaten_only_by_a_trump_tractor_of_the_same_length():
    led = ["3h", "3h", "4h", "4h"]
    assert (
        rules.trick_winner([led, ["Ks", "Ks", "As", "As"], ["5h", "5h", "6h", "6h"], ["9c"] * 4], SPADES_2)
        == 1
    )
    assert (
        rules.trick_winner([led, ["Ks", "Ks", "Js", "Js"], ["7h", "7h", "8h", "9h"], ["9c"] * 4], SPADES_2)
        == 0
    )


def test_equal_level_cards_first_played_wins():
    assert rules.trick_winner([["4s"], ["2h"], ["2c"], ["3s"]], SPADES_2) == 1


def test_a_trumped_throw_needs_the_same_parts():
    led = ["Ah", "Kh", "Kh"]
    assert (
        rules.trick_winner([led, ["3s", "4s", "4s"], ["5h", "6h", "7h"], ["8h", "9h", "Th"]], SPADES_2) == 1
    )
    assert (
        rules.trick_winner([led, ["3s", "4s", "5s"], ["5h", "6h", "7h"], ["8h", "9h", "Th"]], SPADES_2) == 0
    )


# -- 甩牌 ----------------------------------------------------------------------------------


def test_a_throw_stands_when_nobody_beats_a_part():
    assert rules.throw_check(["Ah", "Kh", "Kh"], [["Qh", "Qh"], ["3c"], ["Jh"]], SPADES_2) is None


def test_a_failed_throw_plays_its_smallest_failing_part():
    # Someone holds the other A of hearts: the K pair stands, the single... the Q single fails.
    forced = rules.throw_check(["Ah", "Qh", "Kh", "Kh"], [["Ah", "3c"], ["Jh"], ["2c"]], SPADES_2)
    assert forced == ["Qh"]
    forced = rules.throw_check(["Ah", "9h", "9h"], [["Jh", "Jh"], [], []], SPADES_2)
    assert forced == ["9h", "9h"]


# -- points and levels ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("last_lead", "multiple"),
    [
        (["Ah"], 2),  # 004:28 单张扣底 ×2
        (["Ah", "Ah"], 4),  # 对子 ×4
        (["Qh", "Qh", "Kh", "Kh"], 8),  # 连对 ×4×2
        (["Jh", "Jh", "Qh", "Qh", "Kh", "Kh"], 12),  # 连对 ×4×3
        (["Ah", "9h", "9h", "7h", "7h"], 4),  # 甩牌: the biggest part (a pair), not added up
        (["Ah", "Qh", "Qh", "Kh", "Kh", "8h", "8h", "9h", "9h"], 8),  # two tractors: one counts
    ],
)
def test_bottom_multiplier(last_lead, multiple):
    assert rules.bottom_multiplier(last_lead, SPADES_2) == multiple


def test_defender_points_add_the_bottom_only_when_they_take_the_last_trick():
    bottom = ["5c", "Kd", "3c", "4c", "6c", "7c", "8c", "9c"]
    assert rules.defender_points(60, bottom, ["Ah", "Ah"], True, SPADES_2) == 60 + 15 * 4
    assert rules.defender_points(60, bottom, ["Ah", "Ah"], False, SPADES_2) == 60


@pytest.mark.parametrize(
    ("total", "change"),
    [
        (0, ("declarers", 3)),  # 大光
        (5, ("declarers", 2)),  # 小光 5-35
        (35, ("declarers", 2)),
        (40, ("declarers", 1)),
        (75, ("declarers", 1)),
        (80, ("defenders", 0)),  # 换庄 80-115
        (115, ("defenders", 0)),
        (120, ("defenders", 1)),
        (160, ("defenders", 2)),
        (200, ("defenders", 3)),
        (240, ("defenders", 4)),
        (280, ("defenders", 5)),
        (320, ("defenders", 6)),  # 封顶
        (600, ("defenders", 6)),
    ],
)
def test_level_table(total, change):
    assert rules.level_change(total) == change


def test_a_level_past_a_starts_again_at_2():
    assert rules.raise_level("2", 3) == "5"
    assert rules.raise_level("K", 3) == "3"  # K → A → 2 → 3


def test_next_declarer_is_the_partner_or_the_next_seat():
    assert rules.next_declarer(1, "declarers") == 3  # 004:32
    assert rules.next_declarer(1, "defenders") == 2  # 004:33


def test_a_hand_sorts_by_suit_with_the_trumps_grouped_last():
    hand = ["DJ", "Ah", "3s", "2c", "Kh", "4s", "9c", "2s"]
    assert rules.sort_hand(hand, Trump("2", "s")) == ["Kh", "Ah", "9c", "3s", "4s", "2c", "2s", "DJ"]
