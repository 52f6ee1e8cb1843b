"""The mahjong core's hand shapes: is_win, waits, decompositions, the 鬼牌 (001:293-302, 003:15-26)."""

import random

import pytest

from games.mahjong.tiles import TILES, Meld, decompositions, is_win, next_tile, parse, waits, wall


def test_walls_hold_four_of_each_tile():
    assert len(wall(honors=False)) == 108  # 001:668
    assert len(wall(honors=True)) == 136  # 001:293
    assert wall(honors=True).count("7z") == 4


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("12345688p34578s", ["6s", "9s"]),  # 003:15, first 平胡 example
        ("234567p4566789s", ["3s", "6s", "9s"]),  # 003:15, second
        ("1234567p345789s", ["1p", "4p", "7p"]),  # 003:15, third (吊将)
        ("1112345678999m", [f"{n}m" for n in range(1, 10)]),  # nine gates waits on every 万
    ],
)
def test_waits_of_the_seed_examples(hand, expected):
    assert waits(parse(hand), honors=False) == expected


def test_a_tile_held_four_times_is_no_wait():
    assert waits(parse("1111m234p567s789s")) == []  # 1m cannot come a fifth time
    assert waits(parse("1111m234p567s78s9s"[:-2])) == []


@pytest.mark.parametrize(
    "hand",
    ["222666888m33399p", "11122233345688p", "11335566s224466p", "22333366s337788p", "22334466778899s"],
)
def test_every_003_example_hand_is_a_win(hand):
    assert is_win(parse(hand))


def test_seven_pairs_count_a_four_of_a_kind_as_two_pairs():
    readings = decompositions(parse("22333366s337788p"))
    assert [r.shape for r in readings] == ["seven_pairs"]
    assert not is_win(parse("22333366s33778p9p"))


def test_melds_count_as_sets_and_seven_pairs_need_a_closed_hand():
    melds = [Meld("pung", "1m"), Meld("kong", "9p")]
    assert is_win(parse("234m55678s"), melds)
    assert not is_win(parse("1122s33p"), melds)
    assert not is_win(parse("2233s"), [Meld("pung", "1m")] * 3)


def test_thirteen_orphans_only_where_the_variant_has_it():
    hand = parse("19m19p19s12345677z")
    assert is_win(hand, orphans=True)
    assert not is_win(hand)
    assert not is_win(parse("19m19p19s1234566z8m"), orphans=True)


def test_the_wild_follows_the_flipped_tile():
    assert [next_tile(t) for t in ("3m", "9s", "4z", "7z", "6z", "5z")] == [
        "4m",
        "1s",
        "7z",
        "6z",
        "5z",
        "1z",
    ]


def test_the_wild_stands_for_any_tile():
    w = "5z"
    assert not is_win(parse("123m456m789m11p5z"), wild=w)  # 12 tiles: no hand
    assert is_win(parse("123m456m789m1p5z111s"), wild=w)  # 1p + wild = pair
    assert is_win(parse("13m456m789m11p999s5z"), wild=w)  # wild = 2m
    assert is_win(parse("19m19p19s1234z67z5z9s"), wild=w, orphans=True)  # the wild plays 白 (5z)
    assert len(waits(parse("123m456m789m111p5z"), wild=w)) == 34 - 1  # the pair: any tile but 1p (held four)
    assert {"1z", "1p"} <= set(waits(parse("123m456m789m11p1z5z"), wild=w))


def test_the_wild_never_makes_a_fifth_copy():
    # 001:300: with 1111m in hand the wild may not be a fifth 1m (111m + 1m·wild as the pair).
    assert not is_win(parse("1111m234p567p789p5z"), wild="5z")
    assert is_win(parse("1112m234p567p789p5z"), wild="5z")  # here it is 2m: the pair 2m·wild
    assert not is_win(parse("11m5z"), [Meld("kong", "1m"), Meld("pung", "2m"), Meld("pung", "3m")], wild="5z")


def test_a_hand_of_only_wilds_is_complete():
    assert is_win(["5z", "5z"], [Meld("pung", "1m")] * 4, wild="5z")


def test_decompositions_list_every_reading():
    shapes = decompositions(parse("111222333m789p99s"))
    assert len(shapes) == 2  # three pungs, or three 123 chows
    assert {g.kind for r in shapes for g in r.groups} == {"pung", "chow", "pair"}


def test_the_fast_check_agrees_with_every_reading_on_random_hands():
    """``is_win`` (pruned, first answer) and ``decompositions`` (every reading) decide alike."""
    rng = random.Random(5)
    tiles = wall(honors=True)
    checked = wins = 0
    for k in range(3000):
        wild = rng.choice(["5z", "3m", None])
        hand = rng.sample(tiles, 14)
        if k % 3 == 0:  # near-complete hands too, so that both answers occur often
            base = parse("123m456p789s11z") + [rng.choice(["5m", "5z", "3m", "9s"]) for _ in range(3)]
            hand = base[:14]
        fast = is_win(hand, wild=wild, orphans=True)
        full = bool(decompositions(hand, wild=wild, orphans=True))
        assert fast == full, (hand, wild)
        melds = [Meld("pung", "7z")]
        assert is_win(hand[:11], melds, wild) == bool(decompositions(hand[:11], melds, wild)), (
            hand[:11],
            wild,
        )
        checked += 1
        wins += fast
    assert wins > 50 and checked == 3000


def test_waits_agree_with_trying_every_tile():
    rng = random.Random(9)
    tiles = wall(honors=True)
    for k in range(300):
        wild = [None, "5z", "2p"][k % 3]
        hand = rng.sample(tiles, 13) if k % 2 else parse("1123456789m") + rng.sample(tiles, 2)
        held = {t: hand.count(t) for t in set(hand)}
        tried = [
            t
            for t in dict.fromkeys(TILES)
            if held.get(t, 0) < 4 and is_win([*hand, t], wild=wild, orphans=True)
        ]
        assert waits(hand, wild=wild, orphans=True) == tried
        plain = [t for t in dict.fromkeys(TILES) if held.get(t, 0) < 4 and is_win([*hand, t], wild=wild)]
        assert waits(hand, wild=wild) == plain
        melds = [Meld("pung", "7z")]
        short = hand[:10]
        seen = {t: short.count(t) + 3 * (t == "7z") for t in TILES}
        tried = [t for t in TILES if seen[t] < 4 and is_win([*short, t], melds, wild)]
        assert waits(short, melds, wild) == tried
