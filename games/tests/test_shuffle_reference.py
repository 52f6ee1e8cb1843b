"""SeededRng.shuffle draws exactly what Fisher-Yates with ``randbelow(i + 1)`` would (a revealed seed
must re-derive the same deck), on both sides of its one-byte fast path (255 items and fewer)."""

import random

import pytest

from games.base import SeededRng


def _reference_shuffle(rng: SeededRng, items: list) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]


@pytest.mark.parametrize("size", [0, 1, 2, 17, 54, 208, 254, 255, 256, 257, 416])
def test_shuffle_equals_the_randbelow_reference(size):
    for k in range(20):
        seed = random.Random(f"{size}-{k}").randbytes(16)
        fast, slow = SeededRng(seed, "deck"), SeededRng(seed, "deck")
        fast.randbelow(5 + k)  # start mid-buffer too
        slow.randbelow(5 + k)
        a, b = list(range(size)), list(range(size))
        fast.shuffle(a)
        _reference_shuffle(slow, b)
        assert a == b
        assert fast.randbelow(1 << 20) == slow.randbelow(1 << 20)  # the stream goes on alike
