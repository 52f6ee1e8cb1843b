"""推筒子 hand order (001:631-639): every pair of two-tile hands against the table in docs/rules/tuitongzi.md."""

import itertools
import re
from collections import Counter
from pathlib import Path

import pytest

from games.tuitongzi.rules import TILES, best, compare, rank

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "tuitongzi.md"


def documented_order() -> list[tuple[str, list[list[str]], int]]:
    """The order table of the rules page: (kind, hands, points) per row, best first."""
    rows = []
    for line in DOC.read_text().splitlines():
        m = re.match(r"\| (\d+) \| ([0-9pz =]+) \| (\w+) \| (\d) \|$", line)
        if m:
            hands = [h.split() for h in m.group(2).split(" = ")]
            rows.append((m.group(3), hands, int(m.group(4))))
    return rows


ORDER = documented_order()


def test_the_table_lists_every_hand_once():
    listed = [tuple(sorted(h)) for _, hands, _ in ORDER for h in hands]
    every = {tuple(sorted(pair)) for pair in itertools.combinations(TILES, 2)}
    assert len(listed) == len(set(listed)) == len(every) == 55
    assert set(listed) == every


def test_every_pair_of_hands_compares_as_the_table_says():
    place = [(row, hand) for row, (_, hands, _) in enumerate(ORDER) for hand in hands]
    for (ra, a), (rb, b) in itertools.product(place, repeat=2):
        expected = (ra < rb) - (ra > rb)  # a row nearer the top wins
        assert compare(a, b) == expected, (a, b)
        assert compare(list(reversed(a)), b) == expected


def test_every_two_tiles_of_the_forty_are_a_hand_of_the_table():
    """All 780 two-tile combinations of the 40 tiles: each ranks as its row of the table."""
    row_of = {tuple(sorted(h)): row for row, (_, hands, _) in enumerate(ORDER) for h in hands}
    first = {row: rank(hands[0]) for row, (_, hands, _) in enumerate(ORDER)}
    for a, b in itertools.combinations(range(len(TILES)), 2):
        hand = [TILES[a], TILES[b]]
        assert rank(hand) == first[row_of[tuple(sorted(hand))]], hand


def test_every_hand_has_the_documented_kind_and_points():
    for kind, hands, points in ORDER:
        for hand in hands:
            assert rank(hand).kind == kind
            assert rank(hand).points == points


def test_the_seed_sentences():
    # 001:636 豹子 > 二八杠 > 散牌
    assert compare(["1p", "1p"], ["2p", "8p"]) == 1
    assert compare(["2p", "8p"], ["4p", "5p"]) == 1
    # 001:637 same kind, more points wins; 白板 counts 0 (001:631)
    assert compare(["4p", "5p"], ["3p", "5p"]) == 1
    assert compare(["1p", "5z"], ["1p", "9p"]) == 1
    assert [rank(["3p", "5z"]).kind, rank(["3p", "5z"]).points] == ["points", 3]
    # 001:638 same points, different tiles: the higher single tile, 白板 > 9筒 > … > 1筒
    assert compare(["3p", "5z"], ["1p", "2p"]) == 1
    assert compare(["9p", "5z"], ["1p", "8p"]) == 1
    assert compare(["2p", "7p"], ["3p", "6p"]) == 1
    # 001:639 same tiles: a tie; two 二八杠 tie
    assert compare(["3p", "6p"], ["6p", "3p"]) == 0
    assert compare(["2p", "8p"], ["8p", "2p"]) == 0
    assert rank(["5z", "5z"]).kind == "baozi"


def test_best_finds_every_tied_hand():
    assert best([["1p", "2p"], ["3p", "6p"], ["6p", "3p"]]) == [1, 2]
    assert best([["5z", "5z"], ["9p", "9p"]]) == [0]


@pytest.mark.parametrize(
    "bad", [["1p"], ["1p", "1p", "1p"], ["0p", "1p"], ["1m", "2p"], ["5z", "6z"], ["Ts", "2p"]]
)
def test_not_a_hand(bad):
    with pytest.raises(ValueError, match="推筒子"):
        rank(bad)


def test_the_forty_tiles():
    assert Counter(TILES) == {**{f"{n}p": 4 for n in range(1, 10)}, "5z": 4}
