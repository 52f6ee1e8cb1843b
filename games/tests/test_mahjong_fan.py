"""Every row of the three fan tables, and the seeds' scoring examples (001:680-721, 001:303-326, 003:3-26)."""

import pytest

from games.mahjong.fan import TABLES, fan
from games.mahjong.scoring import pay, pig_claims, ready_claims, win_demands, win_unit
from games.mahjong.tiles import Meld, parse


def kong(t):
    return Meld("kong", t)


def pung(t):
    return Meld("pung", t)


MIXED_KONGS = [kong("2m"), kong("3m"), kong("4p"), kong("5m")]
MIXED_PUNGS = [pung("2m"), pung("3m"), pung("4p"), pung("6p")]
# (variant, row, hand before the win, win tile, melds, context, total, counted patterns)
CASES = [
    # 血战 after 001
    ("xuezhan_001", "root", "123m111m123p999p6p", "6p", [], {}, 1, {"plain", "root"}),
    (
        "xuezhan_001",
        "self_drawn",
        "12345688p34578s",
        "6s",
        [],
        {"self_drawn": True},
        1,
        {"plain", "self_drawn"},
    ),
    (
        "xuezhan_001",
        "kong_draw",
        "234m567m5p678p",
        "5p",
        [kong("9p")],
        {"self_drawn": True, "kong_draw": True},
        3,
        {"plain", "self_drawn", "kong_draw", "root"},
    ),
    (
        "xuezhan_001",
        "kong_discard",
        "12345688p34578s",
        "9s",
        [],
        {"kong_discard": True},
        1,
        {"plain", "kong_discard"},
    ),
    ("xuezhan_001", "last_tile", "12345688p34578s", "9s", [], {"last_tile": True}, 1, {"plain", "last_tile"}),
    ("xuezhan_001", "plain", "12345688p34578s", "6s", [], {}, 0, {"plain"}),
    ("xuezhan_001", "all_pungs", "222666888m3339p", "9p", [], {}, 1, {"all_pungs"}),
    ("xuezhan_001", "flush", "1112223334568p", "8p", [], {}, 2, {"flush"}),
    ("xuezhan_001", "seven_pairs", "11335566s22446p", "6p", [], {}, 2, {"seven_pairs"}),
    ("xuezhan_001", "terminal_sets", "111222333p7899m", "9m", [], {}, 2, {"terminal_sets"}),
    ("xuezhan_001", "single_wait", "5p", "5p", MIXED_PUNGS, {}, 2, {"single_wait"}),
    ("xuezhan_001", "flush_pungs", "2223335556669p", "9p", [], {}, 3, {"flush_pungs"}),
    ("xuezhan_001", "root_pairs", "22333366s33778p", "8p", [], {}, 3, {"root_pairs"}),
    ("xuezhan_001", "flush_pairs", "2233446677889s", "9s", [], {}, 4, {"flush_pairs"}),
    (
        "xuezhan_001",
        "flush_single_wait",
        "5m",
        "5m",
        [pung("2m"), pung("3m"), pung("4m"), pung("6m")],
        {},
        4,
        {"flush_single_wait"},
    ),
    (
        "xuezhan_001",
        "heavenly",
        "12345688p34578s",
        "6s",
        [],
        {"heavenly": True, "self_drawn": True},
        6,
        {"plain", "heavenly", "self_drawn"},
    ),
    (
        "xuezhan_001",
        "earthly",
        "12345688p34578s",
        "6s",
        [],
        {"earthly": True, "self_drawn": True},
        6,
        {"plain", "earthly", "self_drawn"},
    ),
    ("xuezhan_001", "flush_root_pairs", "2233336677889s", "9s", [], {}, 5, {"flush_root_pairs"}),
    ("xuezhan_001", "eighteen", "1p", "1p", MIXED_KONGS, {}, 6, {"eighteen"}),
    (
        "xuezhan_001",
        "flush_eighteen",
        "1m",
        "1m",
        [kong("2m"), kong("3m"), kong("4m"), kong("5m")],
        {},
        8,
        {"flush_eighteen"},
    ),
    # 血战 after 003 (3 番 at most)
    (
        "xuezhan_003",
        "self_drawn",
        "12345688p34578s",
        "6s",
        [],
        {"self_drawn": True},
        0,
        {"plain", "self_drawn"},
    ),
    ("xuezhan_003", "plain", "234567p4566789s", "3s", [], {}, 0, {"plain"}),
    ("xuezhan_003", "all_pungs", "222666888m3339p", "9p", [], {}, 1, {"all_pungs"}),
    ("xuezhan_003", "root", "123m111m123p999p6p", "6p", [], {}, 1, {"plain", "root"}),
    (
        "xuezhan_003",
        "robbed_kong",
        "12345688p34578s",
        "6s",
        [],
        {"robbed_kong": True},
        1,
        {"plain", "robbed_kong"},
    ),
    (
        "xuezhan_003",
        "kong_discard",
        "12345688p34578s",
        "6s",
        [],
        {"kong_discard": True},
        1,
        {"plain", "kong_discard"},
    ),
    ("xuezhan_003", "kong_draw", "12345688p34578s", "6s", [], {"kong_draw": True}, 1, {"plain", "kong_draw"}),
    ("xuezhan_003", "flush", "1112223334568p", "8p", [], {}, 2, {"flush"}),
    ("xuezhan_003", "seven_pairs", "11335566s22446p", "6p", [], {}, 2, {"seven_pairs"}),
    ("xuezhan_003", "terminal_sets", "111222333p7899m", "9m", [], {}, 2, {"terminal_sets"}),
    ("xuezhan_003", "flush_pungs", "2223335556669p", "9p", [], {}, 3, {"flush_pungs"}),
    ("xuezhan_003", "root_pairs", "22333366s33778p", "8p", [], {}, 3, {"root_pairs", "root"}),
    ("xuezhan_003", "flush_pairs", "2233446677889s", "9s", [], {}, 3, {"flush_pairs"}),
    # 广东推倒胡 (001, 7 番 at most)
    ("tuidaohu", "plain", "123m456m789m123p5p", "5p", [], {}, 0, {"plain"}),
    ("tuidaohu", "all_pungs", "111m222m333p444s5z", "5z", [], {}, 3, {"all_pungs"}),
    ("tuidaohu", "half_flush", "123m456m789m111z5z", "5z", [], {}, 3, {"half_flush"}),
    ("tuidaohu", "flush", "1112345678999m", "5m", [], {}, 4, {"flush"}),
    ("tuidaohu", "seven_pairs", "11m33m55p77p99s11z2z", "2z", [], {}, 4, {"seven_pairs"}),
    ("tuidaohu", "root_pairs", "1111m55p77p99s11z2z", "2z", [], {}, 5, {"root_pairs"}),
    ("tuidaohu", "mixed_orphans", "111m999p111z222z3z", "3z", [], {}, 5, {"mixed_orphans"}),
    ("tuidaohu", "small_dragons", "555z666z77z123m45p", "6p", [], {}, 6, {"small_dragons"}),
    ("tuidaohu", "small_winds", "111z222z333z44z12m", "3m", [], {}, 7, {"small_winds", "half_flush"}),
    ("tuidaohu", "all_honors", "111z222z333z555z6z", "6z", [], {}, 6, {"all_honors"}),
    ("tuidaohu", "pure_orphans", "111m999m111p999p1s", "1s", [], {}, 6, {"pure_orphans"}),
    ("tuidaohu", "thirteen_orphans", "19m19p19s1234567z", "1m", [], {}, 7, {"thirteen_orphans"}),
    ("tuidaohu", "big_dragons", "555z666z777z123p4p", "4p", [], {}, 7, {"big_dragons", "half_flush"}),
    ("tuidaohu", "big_winds", "111z222z333z444z5m", "5m", [], {}, 7, {"big_winds", "half_flush"}),
    (
        "tuidaohu",
        "robbed_kong",
        "123m456m789m123p5p",
        "5p",
        [],
        {"robbed_kong": True},
        3,
        {"plain", "robbed_kong"},
    ),
    ("tuidaohu", "kong_draw", "123m456m789m123p5p", "5p", [], {"kong_draw": True}, 3, {"plain", "kong_draw"}),
    ("tuidaohu", "last_tile", "123m456m789m123p5p", "5p", [], {"last_tile": True}, 3, {"plain", "last_tile"}),
    ("tuidaohu", "heavenly", "123m456m789m123p5p", "5p", [], {"heavenly": True}, 6, {"plain", "heavenly"}),
    ("tuidaohu", "earthly", "123m456m789m123p5p", "5p", [], {"earthly": True}, 6, {"plain", "earthly"}),
]


@pytest.mark.parametrize(
    ("variant", "row", "hand", "win", "melds", "context", "total", "keys"),
    CASES,
    ids=[f"{c[0]}-{c[1]}" for c in CASES],
)
def test_every_fan_row(variant, row, hand, win, melds, context, total, keys):
    result = fan(parse(hand), melds, win, context, variant)
    assert result is not None
    assert {k for k, _ in result.patterns} == keys
    assert row in keys or row == "root"
    assert result.total == total


def test_the_cases_cover_every_row_of_every_table():
    for variant, table in TABLES.items():
        assert {r.key for r in table.rows} == {c[1] for c in CASES if c[0] == variant}, variant


def test_caps_and_exclusions():
    # 003:11: a 清对 with three kongs' roots is still 3 番.
    r = fan(parse("2226669p"), [kong("3p"), kong("5p")], "9p", {"kong_draw": True}, "xuezhan_003")
    assert (r.total, r.uncapped) == (3, 6)
    # 001:318: 清幺九 counts neither 碰碰胡 nor 混幺九; 001:321: 大四喜 no 碰碰胡.
    assert fan(parse("111m999m111p999p1s"), [], "1s", {}, "tuidaohu").patterns == (("pure_orphans", 6),)
    # 龙七对 takes away its own root (001:694, 001:699): no extra 根.
    assert fan(parse("22333366s33778p"), [], "8p", {}, "xuezhan_001").roots == 0
    assert fan(parse("12345688p34578s"), [], "5s", {}, "xuezhan_001") is None


def test_the_wild_plays_the_tile_that_scores_best():
    # Two 中 pungs, a 发 pair and a wild: the wild makes a third dragon pung (大三元).
    r = fan(parse("555z666z77z123p44p"), [], "2z", {"wild": "2z"}, "tuidaohu")
    assert r is not None and "big_dragons" in {k for k, _ in r.patterns}
    # A wild never a fifth copy: 1111m + wild is no pair of 1m.
    assert fan(parse("1111m234p567p789p"), [], "5z", {"wild": "5z"}, "tuidaohu") is None


def test_001_example_base_100_three_fan_first_win_pays_2400():
    """001:720-721: 底分 100, 3 番, 一胡 (the first win: three players still in) → 2,400."""
    r = fan(parse("2223335556669p"), [], "9p", {"self_drawn": True}, "xuezhan_003")
    assert r.total == 3  # 清对, 自摸 0 番 in 003's table
    demands = win_demands(0, [1, 2, 3], 100, r.total)
    assert demands == [(1, 0, 800), (2, 0, 800), (3, 0, 800)]
    deltas = [0, 0, 0, 0]
    pay(deltas, [10**6] * 4, demands)
    assert deltas == [2400, -800, -800, -800]


def test_003_example_room_10_self_drawn_3_fan():
    """003:4-5: room 10, A 自摸 3 番: each loser pays 10 × 8 = 80, A gets 240."""
    deltas = [0] * 4
    pay(deltas, [1000] * 4, win_demands(2, [0, 1, 3], 10, 3))
    assert deltas == [-80, -80, 240, -80]
    assert win_unit(10, 3) == 80


def test_tuidaohu_payments():
    """001:304-305: 自摸 = 底分 × 2^N × 3, 炮胡 = 底分 × 2^N."""
    deltas = [0] * 4
    pay(deltas, [10**6] * 4, win_demands(1, [0, 2, 3], 5, 4))
    assert deltas == [-80, 240, -80, -80]
    deltas = [0] * 4
    pay(deltas, [10**6] * 4, win_demands(1, [3], 5, 4))
    assert deltas == [0, 80, 0, -80]


def test_limited_liability_by_proportion():
    deltas = [0] * 4
    paid = pay(deltas, [1000, 300, 1000, 1000], [(1, 0, 400), (1, 2, 200)])
    assert paid == [(1, 0, 200), (1, 2, 100)] and deltas == [200, -300, 100, 0]
    deltas = [0] * 4
    pay(deltas, [90, 1000, 1000, 1000], win_demands(0, [1, 2, 3], 100, 1))
    assert deltas == [90, -30, -30, -30]


def test_chajiao_formula_shares_by_fan():
    """001:677, 001:724: 听牌玩家赢利 = 赔付玩家余额 / 所有听牌玩家总番 × 该听牌玩家番数."""
    assert ready_claims(10**6, {1: 2, 2: 1}, 10) == {1: 40, 2: 20}
    assert ready_claims(30, {1: 2, 2: 1}, 10) == {1: 20, 2: 10}
    assert ready_claims(15, {1: 0, 2: 0}, 10) == {1: 7, 2: 7}


def test_huazhu_example_100_over_three():
    """001:678, 001:725: a 花猪 with 100 owing three players pays 33 each and keeps 1."""
    assert pig_claims(100, {0: 1600, 1: 1600, 3: 1700}) == {0: 33, 1: 33, 3: 33}
    assert pig_claims(10**6, {0: 1600}) == {0: 1600}
