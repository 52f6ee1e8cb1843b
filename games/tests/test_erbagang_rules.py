"""二八杠 hand order (001:283-290): every pair of two-tile hands against the table in docs/rules/erbagang.md."""

import itertools
import re
from collections import Counter
from pathlib import Path

import pytest

from games.erbagang.rules import TILES, banker_wins, compare, rank

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "erbagang.md"


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


def test_the_seed_order_tianwang_pair_erbagang_nine_to_one_biesh():
    # 001:290 天王 > 对子 > 二八杠 > 九点 > 八点 … 一点 > 鳖十
    ladder = [
        ["5z", "5z"],
        ["1p", "1p"],
        ["2p", "8p"],
        ["4p", "5p"],
        ["3p", "5p"],
        ["1p", "5z"],
        ["1p", "9p"],
    ]
    for better, worse in itertools.pairwise(ladder):
        assert compare(better, worse) == 1
    assert rank(["5z", "5z"]).kind == "tianwang"
    assert rank(["9p", "9p"]).kind == "pair"
    assert rank(["8p", "2p"]).kind == "erbagang"
    assert [rank(["1p", "9p"]).kind, rank(["1p", "9p"]).points] == ["points", 0]


def test_ties_go_to_the_banker():
    # 001:286 牌型完全一样时，庄赢; every 鳖十 is equal.
    assert compare(["3p", "6p"], ["6p", "3p"]) == 0
    assert banker_wins(["3p", "6p"], ["6p", "3p"])
    assert banker_wins(["1p", "9p"], ["4p", "6p"])
    assert not banker_wins(["1p", "9p"], ["1p", "5z"])


def test_points_tie_goes_to_the_higher_single_tile():
    assert compare(["9p", "5z"], ["1p", "8p"]) == 1  # 白板 is the highest single tile
    assert compare(["2p", "7p"], ["3p", "6p"]) == 1


@pytest.mark.parametrize(
    "bad", [["1p"], ["1p", "1p", "1p"], ["0p", "1p"], ["1m", "2p"], ["5z", "6z"], ["Ts", "2p"]]
)
def test_not_a_hand(bad):
    with pytest.raises(ValueError, match="二八杠"):
        rank(bad)


def test_the_forty_tiles():
    assert Counter(TILES) == {**{f"{n}p": 4 for n in range(1, 10)}, "5z": 4}
