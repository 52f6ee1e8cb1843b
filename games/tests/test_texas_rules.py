"""必下德州 hand values and side pots (001:177-197)."""

import itertools
import random

import pytest

from games.base import apply_rake
from games.texas.rules import RANKS, SUITS, Pot, best_hand, hand_rank, split_pots, value_of_weight, weight


def h(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize(
    ("cards", "category", "used"),
    [
        ("As Ks Qs Js Ts 2d 3c", "straight_flush", "As Ks Qs Js Ts"),
        ("5h 4h 3h 2h Ah Kd Kc", "straight_flush", "5h 4h 3h 2h Ah"),
        ("9s 9h 9d 9c Kd 2c 3c", "four_of_a_kind", "9s 9h 9d 9c Kd"),
        ("Ts Th Td 4c 4d 4h 2c", "full_house", "Ts Th Td 4c 4d"),
        ("Ts Th Td 4c 4d Kh Kc", "full_house", "Ts Th Td Kh Kc"),
        ("2s 7s 9s Js Ks Ac Ad", "flush", "Ks Js 9s 7s 2s"),
        ("2s 3d 4c 5h 6s Jd Jc", "straight", "6s 5h 4c 3d 2s"),
        ("As 2d 3c 4h 5s Kd Kc", "straight", "5s 4h 3c 2d As"),
        ("As Ad Ac 7s 8h 9d Kc", "three_of_a_kind", "As Ad Ac Kc 9d"),
        ("As Ad Kc Kd 2h 2c 7s", "two_pair", "As Ad Kc Kd 7s"),
        ("As Ad 3c 7d 9h Jc Qs", "pair", "As Ad Qs Jc 9h"),
        ("As Kd 3c 7d 9h Jc 2s", "high_card", "As Kd Jc 9h 7d"),
        ("As Kd 3c 7d 9h", "high_card", "As Kd 9h 7d 3c"),
        ("As Ad 3c 7d 9h Jc", "pair", "As Ad Jc 9h 7d"),
    ],
)
def test_every_category_and_the_five_cards_used(cards, category, used):
    value = best_hand(h(cards))
    assert value.category == category
    assert value.cards == h(used)


def test_the_wheel_is_the_lowest_straight():
    wheel = best_hand(h("As 2d 3c 4h 5s Jd 9c"))
    six_high = best_hand(h("2s 3d 4c 5h 6s Jd 9c"))
    assert wheel.category == six_high.category == "straight"
    assert wheel < six_high
    assert best_hand(h("Ts Jd Qc Kh As 2c 3d")) > six_high > wheel


def test_kickers_decide_and_suits_do_not():
    assert best_hand(h("As Ad Kc 7d 2h")) > best_hand(h("Ah Ac Qc 7s 2d"))
    assert best_hand(h("As Ad Kc 7d 2h")) == best_hand(h("Ah Ac Kd 7s 2d"))
    assert best_hand(h("Ks Kd 7c 7d Ah")) > best_hand(h("Kh Kc 7s 7h Qd"))


def test_order_of_categories():
    ladder = [
        "7s 8s 9s Ts Js",
        "2s 2h 2d 2c 3s",
        "3s 3h 3d 2c 2s",
        "2h 5h 7h 9h Jh",
        "5s 6h 7d 8c 9s",
        "As Ah Ad Kc Qs",
        "As Ah Kd Kc Qs",
        "As Ah Kd Qc Js",
        "As Kh Qd Jc 9s",
    ]
    values = [best_hand(h(c)) for c in ladder]
    assert values == sorted(values, reverse=True)
    assert len({v.value for v in values}) == len(values)


def reference_five(cards):
    """A slow, independent classifier of exactly five cards: (category, tie-break ranks)."""
    ranks = sorted((RANKS.index(c[0]) for c in cards), reverse=True)
    flush = len({c[1] for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight_top = None
    if len(distinct) == 5 and ranks[0] - ranks[4] == 4:
        straight_top = ranks[0]
    elif distinct == [12, 3, 2, 1, 0]:
        straight_top = 3
    groups = sorted(((ranks.count(r), r) for r in distinct), reverse=True)
    shape = [g[0] for g in groups]
    by_group = [g[1] for g in groups]
    if straight_top is not None and flush:
        return (8, [straight_top])
    if shape == [4, 1]:
        return (7, by_group)
    if shape == [3, 2]:
        return (6, by_group)
    if flush:
        return (5, ranks)
    if straight_top is not None:
        return (4, [straight_top])
    if shape == [3, 1, 1]:
        return (3, by_group)
    if shape == [2, 2, 1]:
        return (2, by_group)
    if shape == [2, 1, 1, 1]:
        return (1, by_group)
    return (0, ranks)


def reference_best(cards):
    return max(reference_five(five) for five in itertools.combinations(cards, 5))


def test_seven_card_values_order_hands_like_a_brute_force_reference():
    deck = [r + s for r in RANKS for s in SUITS]
    rng = random.Random(7)
    hands = [rng.sample(deck, rng.choice((5, 6, 7))) for _ in range(1500)]
    refs = [reference_best(c) for c in hands]
    values = [best_hand(c) for c in hands]
    for value, ref in zip(values, refs, strict=True):
        assert value.category == CATEGORY_NAMES[ref[0]]
    for i in range(len(hands) - 1):
        a, b = values[i], values[i + 1]
        ra, rb = refs[i], refs[i + 1]
        assert (a > b) == (ra > rb) and (a == b) == (ra == rb), (hands[i], hands[i + 1])


def test_flushes_are_found_in_seven_cards():
    deck = [r + s for r in RANKS for s in SUITS]
    rng = random.Random(11)
    for _ in range(300):
        suited = rng.sample([c for c in deck if c[1] == "h"], 5)
        rest = rng.sample([c for c in deck if c not in suited], 2)
        cards = suited + rest
        assert best_hand(cards).category == CATEGORY_NAMES[reference_best(cards)[0]]
        assert hand_rank(cards) == best_hand(cards).value


def test_a_hand_valued_in_two_parts_is_valued_as_a_whole():
    # An odds count sums the fixed cards' weight once and adds each completion's.
    deck = [r + s for r in RANKS for s in SUITS]
    rng = random.Random(12)
    for _ in range(2000):
        cards = rng.sample(deck, 7)
        fixed, rest = cards[:5], cards[5:]
        assert value_of_weight(weight(fixed) + weight(rest)) == hand_rank(cards)
    with pytest.raises(ValueError, match="not a card"):
        weight(["Zz"])


CATEGORY_NAMES = [
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
]


def test_bad_hands_are_refused():
    with pytest.raises(ValueError, match="5 to 7 different cards"):
        best_hand(h("As As Kd Qc Jh"))
    with pytest.raises(ValueError, match="5 to 7 different cards"):
        best_hand(h("As Kd Qc Jh"))
    with pytest.raises(ValueError, match="not a card"):
        best_hand(h("As Kd Qc Jh 1c"))


def test_split_pots_of_the_seed_example():
    # 001:187-197: A 400, B 200, C 800, D 1600, nobody folded.
    pots = split_pots([400, 200, 800, 1600], [])
    assert pots == [
        Pot(800, (0, 1, 2, 3)),
        Pot(600, (0, 2, 3)),
        Pot(800, (2, 3)),
        Pot(800, (3,)),
    ]


def test_split_pots_with_several_all_ins_and_folds():
    # Seat 1 folded after putting 300 in: its coins count, it wins nothing.
    pots = split_pots([100, 300, 250, 500, 500], [1])
    assert pots == [Pot(500, (0, 2, 3, 4)), Pot(600, (2, 3, 4)), Pot(550, (3, 4))]
    assert sum(p.amount for p in pots) == 1650


def test_split_pots_folded_coins_above_every_live_stake_join_the_last_pot():
    pots = split_pots([200, 800, 200], folded=[False, True, False])
    assert pots == [Pot(1200, (0, 2))]


def test_split_pots_with_equal_stakes_is_one_pot():
    assert split_pots([50, 50, 50], []) == [Pot(150, (0, 1, 2))]
    assert split_pots([0, 0], []) == []


def test_seed_worked_example_settles_to_the_seed_figures():
    """001:186-197: A +950, B −200, C −800, D 0 after the 5% rake."""
    board = h("Ac 7d 8h 9s Kd")
    holes = [h("As Ah"), h("2s 2h"), h("3s 3h"), h("4s 4h")]
    stakes = [400, 200, 800, 1600]
    won = [0] * 4
    for pot in split_pots(stakes, []):
        values = {s: best_hand(holes[s] + board) for s in pot.eligible}
        top = max(values.values())
        winners = [s for s in pot.eligible if values[s] == top]
        assert len(winners) == 1
        won[winners[0]] += pot.amount
    deltas = [won[i] - stakes[i] for i in range(4)]
    assert deltas == [1000, -200, -800, 0]
    net, rake = apply_rake(deltas, 500)
    assert net == [950, -200, -800, 0]
    assert rake == 50


def test_the_first_hands_valued_on_several_threads_at_once_all_get_their_value(monkeypatch):
    """The value table is built on the first lookup: a lookup from another thread meanwhile must wait, not fail.

    The server values 德州 hands on several table threads at once; right after a
    process started, a view built while another thread was still filling the
    table raised KeyError (a player's socket failed to connect under the load bench).
    """
    import threading

    from games.texas import rules

    rng = random.Random(7)
    deck = [r + s for r in RANKS for s in SUITS]
    hands = [rng.sample(deck, 7) for _ in range(400)]
    expected = [hand_rank(cards) for cards in hands]  # on the table already built
    monkeypatch.setattr(rules, "_PLAIN", rules._PlainTable())  # a process that has valued no hand yet

    start = threading.Barrier(4)
    failures: list[BaseException] = []
    results: dict[int, list[int]] = {}

    def value_all(worker: int) -> None:
        start.wait()
        try:
            results[worker] = [hand_rank(cards) for cards in hands]
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    threads = [threading.Thread(target=value_all, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert all(values == expected for values in results.values())
