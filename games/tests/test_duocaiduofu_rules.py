"""多财多福's rules: the reels and lines, the exact return, the double-up, 自动 and the provably fair draws."""

from __future__ import annotations

import hashlib
import hmac
import math
from fractions import Fraction

import pytest

import games
from games.base import IllegalAction, seed_digest
from games.duocaiduofu import rules

SEED = bytes(range(32))


def test_a_stop_shows_three_symbols_of_the_strip_wrapping_round():
    strip = rules.REELS[0]
    last = len(strip) - 1
    shown = rules.window([last, 0, 0])
    assert shown[0] == [strip[last], strip[0], strip[1]]
    with pytest.raises(ValueError):
        rules.window([len(strip), 0, 0])


def test_three_alike_on_a_line_pay_the_base_stake_times_the_symbols_multiple():
    # Stops where every reel shows 福 in the middle row: the middle line pays 100 (seed line 272).
    stops = [(reel.index("fu") - 1) % len(reel) for reel in rules.REELS]
    assert [rules.window(stops)[r][1] for r in range(3)] == ["fu"] * 3
    wins = rules.line_wins(stops)
    assert {"line": 0, "symbol": "fu", "multiple": 100} in wins
    assert rules.spin_multiple(stops) == sum(win["multiple"] for win in wins)
    engine = games.REGISTRY["duocaiduofu"].engine
    assert engine.stakes({"base_stake": 20, "stake_steps": [1, 2, 5, 10]}) == [20, 40, 100, 200]


def _independent_multiple(stops) -> int:
    # Written apart from rules.line_wins: read the three rows, then the five lines by hand.
    cols = [
        [reel[(stop + k) % len(reel)] for k in range(3)]
        for reel, stop in zip(rules.REELS, stops, strict=True)
    ]
    lines = [
        [cols[0][1], cols[1][1], cols[2][1]],
        [cols[0][0], cols[1][0], cols[2][0]],
        [cols[0][2], cols[1][2], cols[2][2]],
        [cols[0][0], cols[1][1], cols[2][2]],
        [cols[0][2], cols[1][1], cols[2][0]],
    ]
    return sum(rules.PAYS[line[0]] for line in lines if line[0] == line[1] == line[2])


def test_the_published_return_is_the_exact_sum_over_every_stop_combination():
    sizes = [len(reel) for reel in rules.REELS]
    total = math.prod(sizes)
    counts = rules.spin_distribution()
    assert sum(counts.values()) == total == 8000
    gross = Fraction(0)
    for a in range(sizes[0]):
        for b in range(sizes[1]):
            for c in range(sizes[2]):
                gross += _independent_multiple((a, b, c))
    assert rules.spin_return(0) == gross / total
    # After the 5% fee on each winning spin's profit: between 95% and 97%, as published.
    net = rules.spin_return(500)
    assert net == Fraction(38321, 40000)
    assert Fraction(95, 100) <= net <= Fraction(97, 100)
    assert rules.gamble_return(500) == Fraction(39, 40)  # ½ × (2 − 5% of the doubled stake)
    assert rules.gamble_return(0) == 1


def test_a_million_seeded_spins_land_within_four_standard_errors_of_the_exact_return():
    trials = 1_000_000
    sizes = [len(reel) for reel in rules.REELS]
    table = {}
    for a in range(sizes[0]):
        for b in range(sizes[1]):
            for c in range(sizes[2]):
                table[a, b, c] = _independent_multiple((a, b, c))
    returned = Fraction(0)
    square = 0.0
    for nonce in range(trials):
        m = table[tuple(rules.spin_stops(SEED, "bench", nonce))]
        value = m - (m - 1) * 0.05 if m > 1 else m
        returned += Fraction(value).limit_denominator(100)
        square += value * value
    mean = float(returned) / trials
    sd = math.sqrt(square / trials - mean * mean)
    exact = float(rules.spin_return(500))
    assert abs(mean - exact) < 4 * sd / math.sqrt(trials), (mean, exact, sd)


def test_every_draw_is_hmac_sha256_of_the_server_seed_labelled_by_client_seed_nonce_and_kind():
    stops = rules.spin_stops(SEED, "my-seed", 7)
    block = hmac.digest(SEED, b"my-seed:7:spin:0", hashlib.sha256)
    # Each reel of 20 stops draws one byte masked to 5 bits, skipping values of 20 and more.
    expected, reel, used = [], 0, 0
    while reel < 3:
        value = block[used] & 31
        used += 1
        if value < 20:
            expected.append(value)
            reel += 1
    assert stops == expected
    assert rules.spin_stops(SEED, "my-seed", 7) == stops  # replayable
    assert rules.spin_stops(SEED, "my-seed", 8) != stops or rules.spin_stops(SEED, "other", 7) != stops
    assert seed_digest(SEED) == hashlib.sha256(SEED).hexdigest()


def test_client_seeds_are_short_plain_words():
    assert rules.check_client_seed("Lucky_8-8") == "Lucky_8-8"
    for bad in ("", "a" * 65, "has space", "冒号:", 12, None):
        with pytest.raises(IllegalAction):
            rules.check_client_seed(bad)


def test_the_double_up_stakes_the_win_times_two_three_or_five_and_pays_double_on_the_right_card():
    # Seed line 275: the stake is the win × the chosen multiple (×1: not doubled).
    assert [rules.gamble_stake(58, m) for m in (1, 2, 3, 5)] == [58, 116, 174, 290]
    with pytest.raises(IllegalAction):
        rules.gamble_stake(58, 4)
    assert rules.gamble_pays("boy", "boy", 116) == 232
    assert rules.gamble_pays("girl", "boy", 116) == 0
    with pytest.raises(IllegalAction):
        rules.check_pick("banker")
    assert rules.GAMBLE_MAX_WINS == 8 and rules.GAMBLE_SECONDS == 15
    cards = [rules.gamble_card(SEED, "c", n) for n in range(4000)]
    assert set(cards) == {"boy", "girl"} and abs(cards.count("boy") - 2000) < 200


def test_auto_spins_stop_on_the_count_a_big_win_or_a_low_balance():
    base = {"count": 10, "stop_win": 500, "floor": 1000, "next_stake": 20}
    assert rules.auto_continues(done=3, last_win=40, balance=5000, **base)
    assert not rules.auto_continues(done=10, last_win=0, balance=5000, **base)
    assert not rules.auto_continues(done=3, last_win=500, balance=5000, **base)
    assert not rules.auto_continues(done=3, last_win=0, balance=999, **base)
    assert not rules.auto_continues(
        done=3, count=10, last_win=0, stop_win=None, floor=None, balance=19, next_stake=20
    )


def test_stakes_are_the_rooms_and_a_stake_off_the_list_is_refused():
    engine = games.REGISTRY["duocaiduofu"].engine
    config = {"base_stake": 100, "stake_steps": [1, 2]}
    for bad in (0, 150, True, "100", 300):
        with pytest.raises(IllegalAction):
            engine.spin(config, SEED, "c", 0, bad)
    result = engine.spin(config, SEED, "c", 0, 200)
    assert result["win"] == 200 * result["multiple"]
    assert result["stops"] == rules.spin_stops(SEED, "c", 0)


def test_the_engine_passes_the_solo_harness_on_seeded_random_plays():
    import random

    from games.testing import solo_playout

    engine = games.REGISTRY["duocaiduofu"].engine
    for seed in range(3):
        totals = solo_playout(
            engine, {"base_stake": 20, "stake_steps": [1, 2, 5, 10]}, seed, 2_000, random.Random(seed)
        )
        assert totals["spin_staked"] > 0 and totals["gamble_staked"] > 0
