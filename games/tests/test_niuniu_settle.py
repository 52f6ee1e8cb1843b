"""牛牛 / 通比牛牛 settlement: 001's worked examples, limited liability, short bankers."""

import random

from games.base import apply_rake
from games.niuniu.rules import multiplier
from games.niuniu.settle import banker_settle, shares, tongbi_claims, tongbi_settle

RICH = 10**6


def test_tongbi_example_1_two_players():
    # 001:618-620: 底分 100, a bets ×5 with 小牛牛, b bets ×3 with 无牛.
    claims = tongbi_claims(100, multiplier("five_small", "tongbi"), [5, 3], winner=0)
    deltas = tongbi_settle(claims, [RICH, RICH], winner=0)
    net, rake = apply_rake(deltas, 500)
    assert net == [8550, -9000] and rake == 450


def test_tongbi_example_2_three_players():
    # 001:621-624: a ×5 小牛牛 against b ×3 and c ×3, both 无牛.
    claims = tongbi_claims(100, multiplier("five_small", "tongbi"), [5, 3, 3], winner=0)
    deltas = tongbi_settle(claims, [RICH] * 3, winner=0)
    net, rake = apply_rake(deltas, 500)
    assert net == [17100, -9000, -9000] and rake == 900


def test_tongbi_short_loser_pays_what_it_carried():
    claims = tongbi_claims(100, 6, [5, 3, 3], winner=0)
    assert tongbi_settle(claims, [RICH, 4000, RICH], winner=0) == [13000, -4000, -9000]


def test_tongbi_short_winner_takes_what_it_carried_in_proportion():
    claims = [0, 9000, 3000]
    assert tongbi_settle(claims, [6000, RICH, RICH], winner=0) == [6000, -4500, -1500]


def test_banker_pays_and_collects_in_full_when_covered():
    assert banker_settle([0, 500, -300, 200], [RICH] * 4, banker=0) == [-400, 500, -300, 200]


def test_short_banker_shares_in_proportion_to_the_winners_claims():
    # The banker carried 1,000 and one loser pays 200: 1,200 to share between claims of 1,800 and 600.
    deltas = banker_settle([1800, 0, 600, -200], [RICH, 1000, RICH, RICH], banker=1)
    assert deltas == [900, -1000, 300, -200]


def test_banker_wins_at_most_what_it_carried():
    deltas = banker_settle([0, -3000, -1000], [1000, RICH, RICH], banker=0)
    assert deltas == [1000, -750, -250]


def test_players_never_move_more_than_they_carried():
    assert banker_settle([0, 5000, -5000], [RICH, 800, 300], banker=0) == [-500, 800, -300]


def test_shares_give_rounded_coins_in_seat_order():
    assert shares(10, [5, 5, 5], [1, 2, 0]) == [3, 4, 3]
    assert shares(10, [3, 3], [0, 1]) == [3, 3]  # enough for every claim


def test_random_settlements_conserve_and_respect_what_was_carried():
    rng = random.Random(1)
    for _ in range(3000):
        n = rng.randint(2, 6)
        coins = [rng.choice((0, 1, 7, 100, 1000, 50000)) for _ in range(n)]
        banker = rng.randrange(n)
        claims = [0 if i == banker else rng.choice((-1, 1)) * rng.randint(1, 20000) for i in range(n)]
        deltas = banker_settle(claims, coins, banker)
        assert sum(deltas) == 0
        assert all(abs(d) <= c for d, c in zip(deltas, coins, strict=True))
        for i in range(n):
            if i != banker:
                assert deltas[i] * claims[i] >= 0 and abs(deltas[i]) <= abs(claims[i])
        winner = rng.randrange(n)
        claims = [0 if i == winner else rng.randint(1, 20000) for i in range(n)]
        deltas = tongbi_settle(claims, coins, winner)
        assert sum(deltas) == 0
        assert all(abs(d) <= c for d, c in zip(deltas, coins, strict=True))
