"""games.base: the replayable random stream and the rake's rounding."""

import random
from collections import Counter

import pytest

from games.base import SeededRng, apply_rake

SEED = b"0123456789abcdef-base-tests"


def test_same_seed_and_label_give_the_same_stream():
    a, b = SeededRng(SEED, "deck"), SeededRng(SEED, "deck")
    assert [a.randbelow(1000) for _ in range(50)] == [b.randbelow(1000) for _ in range(50)]
    deck_a, deck_b = list(range(54)), list(range(54))
    SeededRng(SEED, "x").shuffle(deck_a)
    SeededRng(SEED, "x").shuffle(deck_b)
    assert deck_a == deck_b and sorted(deck_a) == list(range(54))


def test_labels_and_children_are_independent():
    a = [SeededRng(SEED, "deck").randbelow(2**32) for _ in range(1)]
    b = [SeededRng(SEED, "other").randbelow(2**32) for _ in range(1)]
    assert a != b
    parent = SeededRng(SEED, "hand")
    child = parent.child("redeal-1")
    assert child.label == "hand/redeal-1"
    assert [child.randbelow(10**9) for _ in range(3)] != [
        SeededRng(SEED, "hand").randbelow(10**9) for _ in range(3)
    ]


def test_child_equals_a_stream_with_the_joined_label():
    child = SeededRng(SEED, "hand").child("redeal-1")
    direct = SeededRng(SEED, "hand/redeal-1")
    assert [child.randbelow(100) for _ in range(20)] == [direct.randbelow(100) for _ in range(20)]


def test_randbelow_is_roughly_uniform():
    rng = SeededRng(SEED, "uniform")
    counts = Counter(rng.randbelow(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(850 < c < 1150 for c in counts.values())


def test_shuffle_moves_every_card_everywhere():
    positions = Counter()
    rng = SeededRng(SEED, "shuffle")
    for _ in range(600):
        deck = list(range(3))
        rng.shuffle(deck)
        positions[tuple(deck)] += 1
    assert len(positions) == 6 and all(60 < c < 140 for c in positions.values())


def test_choice_and_bad_input():
    rng = SeededRng(SEED)
    assert rng.choice(["a"]) == "a"
    with pytest.raises(ValueError, match="n must be positive"):
        rng.randbelow(0)
    with pytest.raises(ValueError, match="at least 16 bytes"):
        SeededRng(b"short")


def test_apply_rake_rounds_the_fee_down_never_up():
    net, rake = apply_rake([120, -60, -60], 500)
    assert net == [114, -60, -60] and rake == 6
    # 5% of 3 is 0.15: no fee, the winner keeps all 3 (the fee was once 1, a third of the win).
    assert apply_rake([3, -3], 500) == ([3, -3], 0)
    # 5% of 33 is 1.65: the fee is 1, the winner receives 32.
    assert apply_rake([33, -33], 500) == ([32, -33], 1)
    assert apply_rake([19, -19], 500) == ([19, -19], 0)
    assert apply_rake([20, -20], 500) == ([19, -20], 1)
    assert apply_rake([0, 0], 500) == ([0, 0], 0)


def test_the_fee_never_exceeds_the_rate():
    rng = random.Random(11)
    for _ in range(2000):
        profit, rate = rng.randrange(1, 10**7), rng.randrange(0, 10001)
        (net, _loss), rake = apply_rake([profit, -profit], rate)
        assert rake * 10000 <= profit * rate < (rake + 1) * 10000
        assert net == profit - rake


def test_apply_rake_conserves_coins():
    rng = random.Random(7)
    for _ in range(500):
        a, b = rng.randrange(1, 10**6), rng.randrange(1, 10**6)
        deltas = [a, b, -(a + b)]
        net, rake = apply_rake(deltas, rng.randrange(0, 10001))
        assert sum(net) + rake == 0 and rake >= 0 and net[2] == deltas[2]


def test_apply_rake_refuses_bad_rates():
    with pytest.raises(ValueError, match="between 0 and 10000"):
        apply_rake([1, -1], 10001)
