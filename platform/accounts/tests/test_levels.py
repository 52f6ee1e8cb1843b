"""玩家等级: the 23 levels of seed 002, every boundary."""

from platform.accounts.levels import LEVELS, level_for_wins

import pytest

# Seed 002, 玩家等级 table: each number is where that level ends and the next begins.
SEED_ROWS = [
    ("包身工", 100), ("短工", 200), ("长工", 300), ("佃户", 500), ("贫农", 600), ("渔夫", 800),
    ("猎人", 900), ("中农", 1000), ("富农", 1500), ("掌柜", 2000), ("商人", 3000), ("衙役", 5000),
    ("小财主", 6000), ("大财主", 8000), ("小地主", 9000), ("大地主", 10000), ("知县", 20000),
    ("通判", 30000), ("知府", 50000), ("总督", 60000), ("巡抚", 80000), ("丞相", 90000), ("帝王", 100000),
]  # fmt: skip

# (level name, first win count of that level) for every level above the first.
THRESHOLDS = [(SEED_ROWS[i + 1][0], SEED_ROWS[i][1]) for i in range(len(SEED_ROWS) - 1)]


def test_ladder_has_the_23_levels_of_the_seed_in_order():
    assert [level.name for level in LEVELS] == [name for name, _ in SEED_ROWS]
    assert [level.index for level in LEVELS] == list(range(23))


def test_a_new_player_is_bao_shen_gong():
    level = level_for_wins(0)
    assert (level.name, level.index, level.wins_from, level.wins_to) == ("包身工", 0, 0, 100)
    assert level.wins_to_next(0) == 100


@pytest.mark.parametrize(("name", "threshold"), THRESHOLDS)
def test_each_threshold_minus_one_exactly_and_plus_one(name, threshold):
    below, at, above = level_for_wins(threshold - 1), level_for_wins(threshold), level_for_wins(threshold + 1)
    assert at.name == name
    assert above.name == name
    assert below.index == at.index - 1
    assert below.wins_to == threshold
    assert below.wins_to_next(threshold - 1) == 1
    assert at.wins_from == threshold


def test_named_examples_from_the_brief():
    assert level_for_wins(100).name == "短工"
    assert level_for_wins(200).name == "长工"
    assert level_for_wins(300).name == "佃户"
    assert level_for_wins(499).name == "佃户"
    assert level_for_wins(89_999).name == "丞相"


def test_emperor_is_the_top_and_open_ended():
    for wins in (90_000, 99_999, 100_000, 100_001, 10**18):
        level = level_for_wins(wins)
        assert level.name == "帝王"
        assert level.is_top
        assert level.wins_to is None
        assert level.wins_to_next(wins) is None


def test_wins_to_next_counts_down_to_the_next_level():
    level = level_for_wins(150)
    assert level.name == "短工"
    assert level.wins_to_next(150) == 50
    assert level_for_wins(1000).wins_to_next(1000) == 500  # 富农 until 1500


def test_levels_tile_the_win_counts_without_gaps():
    for lower, upper in zip(LEVELS, LEVELS[1:], strict=False):
        assert lower.wins_to == upper.wins_from
        assert lower.wins_from < lower.wins_to


def test_negative_wins_are_refused():
    with pytest.raises(ValueError, match="cannot be negative"):
        level_for_wins(-1)


@pytest.mark.parametrize("wins", [1.5, "100", None, True])
def test_non_integer_wins_are_refused(wins):
    with pytest.raises(TypeError, match="must be an integer"):
        level_for_wins(wins)
