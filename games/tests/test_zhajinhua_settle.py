"""炸金花 settlement: equal hands split the winnings; 有限责任制 caps a winner at what they carried."""

from games.zhajinhua.settle import equal_split, settle


def test_one_winner_takes_every_stake():
    assert settle([50, 30, 20], [1000, 1000, 1000], [0], [1, 2, 0]) == [50, -30, -20]


def test_equal_hands_split_the_losers_stakes_and_keep_their_own():
    # 001:739: seat 0 staked more than seat 1, but they share only the winnings (the loser's 41).
    assert settle([60, 20, 41], [1000, 1000, 1000], [0, 1], [1, 2, 0]) == [20, 21, -41]


def test_a_winner_never_wins_more_than_they_carried_and_losers_pay_in_proportion():
    # Seat 0 carried 90 and wins; 300 was staked against it: the losers pay 90 in proportion 2:1.
    deltas = settle([60, 200, 100], [90, 1000, 1000], [0], [0, 1, 2])
    assert deltas == [90, -60, -30]
    deltas = settle([60, 200, 101], [91, 1000, 1000], [0], [0, 1, 2])
    assert deltas[0] == 91 and sum(deltas) == 0 and deltas[1] <= -60 and deltas[2] <= -30


def test_equal_split_respects_caps_and_gives_odd_coins_first():
    assert equal_split(7, [10, 10]) == [4, 3]
    assert equal_split(10, [2, 10, 10]) == [2, 4, 4]
    assert equal_split(50, [3, 4]) == [3, 4]
