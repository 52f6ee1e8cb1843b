"""炸金花 hand categories and comparisons, edge by edge (001:752-762, 002:42-47)."""

import pytest

from games.zhajinhua.rules import category, compare, is_special_235, showdown_best


def h(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("As Ah Ad", "leopard"),
        ("2s 2h 2d", "leopard"),
        ("Qs Ks As", "straight_flush"),
        ("As 2s 3s", "straight_flush"),
        ("4h 5h 6h", "straight_flush"),
        ("3s 6s 8s", "flush"),
        ("Ad 4d 5d", "flush"),
        ("5s 6h 7d", "straight"),
        ("Qs Kh Ad", "straight"),
        ("As 2h 3d", "straight"),
        ("2s 2h 3d", "pair"),
        ("3s 3h 4d", "pair"),
        ("As Kh Jd", "high"),
        ("2s 3h 5d", "high"),
        ("Ks As 2s", "flush"),  # K-A-2 is no straight
        ("Kh Ad 2c", "high"),
    ],
)
def test_category_names_every_kind(cards, expected):
    assert category(h(cards)) == expected


def test_order_of_categories():
    ladder = ["As Ah Ad", "2s 3s 4s", "2h 4h 7h", "Ts Jh Qd", "As Ah Kd", "As Kh Jd"]
    for stronger, weaker in zip(ladder, ladder[1:], strict=False):
        assert compare(h(stronger), h(weaker)) > 0
        assert compare(h(weaker), h(stronger)) < 0


def test_akq_is_the_highest_straight_and_a23_the_lowest():
    assert compare(h("As Kh Qd"), h("Ks Qh Jd")) > 0
    assert compare(h("2s 3h 4d"), h("As 2h 3d")) > 0
    assert compare(h("As 2h 3d"), h("Ks Qh Jd")) < 0
    assert compare(h("As 2s 3s"), h("2h 3h 4h")) < 0  # lowest 顺金 (001:753)
    assert compare(h("Qs Ks As"), h("Jh Qh Kh")) > 0  # highest 顺金


def test_suits_never_count():
    assert compare(h("As Kh Jd"), h("Ad Kc Jh")) == 0
    assert compare(h("9s 9h 4d"), h("9c 9d 4h")) == 0
    assert compare(h("3s 4s 5s"), h("3h 4h 5h")) == 0


def test_pairs_compare_the_pair_then_the_odd_card():
    assert compare(h("3s 3h 2d"), h("2s 2h Ad")) > 0
    assert compare(h("9s 9h Kd"), h("9c 9d Qh")) > 0
    assert compare(h("9s 9h 2d"), h("9c 9d 3h")) < 0


def test_other_hands_compare_card_by_card_from_the_highest():
    assert compare(h("As 9h 3d"), h("Kc Qd 9h")) > 0
    assert compare(h("As 9h 4d"), h("Ac 9d 3h")) > 0
    assert compare(h("Ks 9s 4s"), h("Kh 8h 7h")) > 0  # flushes too
    assert compare(h("As 8h 7d"), h("Ac 8d 6h")) > 0


def test_235_of_three_suits_beats_a_leopard():
    assert is_special_235(h("2s 3h 5d"))
    assert compare(h("2s 3h 5d"), h("As Ah Ad")) > 0
    assert compare(h("2c 2h 2d"), h("5s 3h 2d")) < 0


def test_235_beats_nothing_but_a_leopard():
    special = h("2s 3h 5d")
    assert compare(special, h("2h 3c 6d")) < 0  # the lowest 单张
    assert compare(special, h("2h 2c 3d")) < 0
    assert compare(special, h("As 2h 3d")) < 0
    assert compare(special, h("2h 3c 5s")) == 0


def test_235_with_two_suits_alike_is_an_ordinary_high_card():
    assert not is_special_235(h("2s 3s 5d"))
    assert compare(h("2s 3s 5d"), h("As Ah Ad")) < 0
    assert category(h("2s 3s 5s")) == "flush"
    assert compare(h("2s 3s 5s"), h("Ks Kh Kd")) < 0


def test_showdown_with_a_leopard_puts_the_235_on_top():
    hands = [h("As Kh Qd"), h("Ks Kh Kd"), h("2s 3h 5d")]
    assert showdown_best(hands) == [2]
    assert showdown_best([h("As Kh Qd"), h("2s 3h 5d")]) == [0]


def test_showdown_lists_equal_best_hands():
    assert showdown_best([h("As Kh Jd"), h("Ad Kc Jh"), h("Qs Jh 9d")]) == [0, 1]


def test_bad_cards_are_refused():
    with pytest.raises(ValueError, match="three different cards"):
        category(h("As As Kd"))
    with pytest.raises(ValueError, match="not a card"):
        category(h("As 1h Kd"))


def _reference_key(cards: list[str]) -> tuple:
    """A hand's order written straight from the seed text, apart from the engine's code.

    豹子 > 顺金 > 金花 > 顺子 > 对子 > 单张 (001:759); straights AKQ highest, A23 lowest
    (001:761, 002:44); a pair, then its odd card (002:45); the rest card by card from
    the highest, A high (001:760, 002:46). The 235 special is left out here.
    """
    order = "23456789TJQKA"
    ranks = sorted((order.index(c[0]) for c in cards), reverse=True)
    flush = len({c[1] for c in cards}) == 1
    if ranks == [12, 1, 0]:
        straight = 0  # A-2-3, the lowest
    elif ranks[0] - ranks[1] == 1 and ranks[1] - ranks[2] == 1:
        straight = ranks[0]
    else:
        straight = None
    if ranks[0] == ranks[2]:
        return (5, ranks[0])
    if straight is not None:
        return (4 if flush else 2, straight)
    if flush:
        return (3, *ranks)
    if ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        pair = ranks[1]
        return (1, pair, ranks[2] if ranks[0] == ranks[1] else ranks[0])
    return (0, *ranks)


def test_every_three_card_hand_orders_as_the_seed_text_says():
    """All 22,100 hands: the category counts of a 52-card deck, and compare agrees with the seed's order."""
    from itertools import combinations

    deck = [r + s for r in "23456789TJQKA" for s in "shcd"]
    hands = [list(c) for c in combinations(deck, 3)]
    counts: dict[str, int] = {}
    for hand in hands:
        counts[category(hand)] = counts.get(category(hand), 0) + 1
    assert counts == {
        "leopard": 52,
        "straight_flush": 48,
        "flush": 1096,
        "straight": 720,
        "pair": 3744,
        "high": 16440,
    }
    ordered = sorted(hands, key=_reference_key)
    for low, high in zip(ordered, ordered[1:], strict=False):
        expected = (_reference_key(high) > _reference_key(low)) - (_reference_key(high) < _reference_key(low))
        if is_special_235(high) and category(low) == "leopard":
            continue
        assert (compare(high, low) > 0) - (compare(high, low) < 0) == expected, (high, low)
