"""保险楚汉德州 rules (games/chuhan_insured/rules.py): exact street chances, odds less the margin, skips, payouts."""

import random
from fractions import Fraction

import pytest

from games.chuhan_insured import rules
from games.texas.rules import hand_rank

MARGIN = Fraction(5, 100)


def brute_chances(han, chu, board, rng, trials):
    """An independent estimate: random completions of the board."""
    unseen = [c for c in rules.DECK if c not in {*han, *chu, *board}]
    wins = {"chu": 0, "han": 0, "tie": 0}
    for _ in range(trials):
        full = board + rng.sample(unseen, 5 - len(board))
        h, c = hand_rank(han + full), hand_rank(chu + full)
        wins["han" if h > c else "chu" if c > h else "tie"] += 1
    return {k: v / trials for k, v in wins.items()}


def test_turn_street_chances_count_every_turn_and_river():
    # 汉 aces against 楚 kings on a dry flop: 楚 needs a king (2 left) or runner-runner.
    chances = rules.street_chances(["Ah", "Ad"], ["Kc", "Ks"], ["2c", "7d", "9h"])
    assert sum(chances.values()) == 1
    assert all(v.denominator <= 990 for v in chances.values())  # C(45, 2) completions
    estimate = brute_chances(["Ah", "Ad"], ["Kc", "Ks"], ["2c", "7d", "9h"], random.Random(5), 20000)
    for side, chance in chances.items():
        assert abs(float(chance) - estimate[side]) < 0.01


def test_river_street_chances_count_the_44_rivers():
    chances = rules.street_chances(["Ah", "Ad"], ["Kc", "Ks"], ["2c", "7d", "9h", "Kd"])
    # 楚 has trips; 汉 wins only with one of the two aces left: 2 of 44.
    assert chances == {"chu": Fraction(42, 44), "han": Fraction(2, 44), "tie": Fraction(0)}


def test_a_board_both_play_is_a_sure_tie():
    chances = rules.street_chances(["2c", "3d"], ["2h", "3s"], ["Ts", "Js", "Qs", "Ks", "As"])
    assert chances == {"chu": 0, "han": 0, "tie": 1}


def test_bad_cards_are_refused():
    with pytest.raises(ValueError, match="twice"):
        rules.street_chances(["Ah", "Ad"], ["Ah", "Ks"], ["2c", "7d", "9h"])
    with pytest.raises(ValueError, match="three to five"):
        rules.street_chances(["Ah", "Ad"], ["Kc", "Ks"], ["2c"])


def test_odds_are_the_chance_less_the_margin_rounded_down():
    chances = {"chu": Fraction(42, 44), "han": Fraction(2, 44), "tie": Fraction(0)}
    odds = rules.street_odds(3, chances, MARGIN)
    # 0.95 / (42/44) = 0.9952… → 0.99; 0.95 / (2/44) = 20.9 → 20.90; 平 cannot win: closed.
    assert odds == {"chu": Fraction(99, 100), "han": Fraction(209, 10), "tie": None}
    assert rules.street_skipped(odds)  # 楚 at 0.99 ≤ 1.01 (001:165)
    for side in ("chu", "han"):
        assert rules.expected_return(3, side, chances, odds[side]) <= 1 - MARGIN


def test_a_close_street_is_bet_on():
    chances = rules.street_chances(["Ah", "Kd"], ["Qc", "Js"], ["2c", "7d", "9h"])
    odds = rules.street_odds(2, chances, MARGIN)
    assert not rules.street_skipped(odds)
    assert odds["chu"] > Fraction(101, 100) and odds["han"] > Fraction(101, 100)


def test_first_street_odds_count_the_half_back_on_a_tie():
    chances = rules.first_street_chances()
    odds = rules.street_odds(1, chances, MARGIN)
    for side in rules.SIDES:
        expected = rules.expected_return(1, side, chances, odds[side])
        assert 1 - MARGIN - Fraction(1, 100) < expected <= 1 - MARGIN


def test_only_the_first_streets_chu_and_han_stakes_come_back_by_half_on_a_tie():
    two = Fraction(2)
    assert rules.bet_net(1, "chu", 100, two, "tie") == -50
    assert rules.bet_net(1, "han", 15, two, "tie") == -8
    assert rules.bet_net(2, "chu", 100, two, "tie") == -100
    assert rules.bet_net(3, "han", 100, two, "tie") == -100
    assert rules.bet_net(2, "tie", 100, Fraction(1150, 100), "tie") == 1050
    assert rules.bet_net(2, "chu", 100, Fraction(193, 100), "chu") == 93
    assert rules.bet_net(2, "chu", 100, Fraction(193, 100), "han") == -100
    with pytest.raises(ValueError, match="not a"):
        rules.bet_net(1, "full_house", 10, two, "chu")


def test_every_later_street_bet_expects_at_most_one_minus_the_margin():
    rng = random.Random(9)
    for _ in range(40):
        cards = rng.sample(rules.DECK, 8)
        han, chu, board = cards[0:2], cards[2:4], cards[4 : 4 + rng.choice((3, 4))]
        street = 2 if len(board) == 3 else 3
        chances = rules.street_chances(han, chu, board)
        odds = rules.street_odds(street, chances, MARGIN)
        for side, value in odds.items():
            if value is None:
                assert chances[side] == 0
                continue
            expected = rules.expected_return(street, side, chances, value)
            assert 1 - MARGIN - Fraction(1, 100) * chances[side] <= expected <= 1 - MARGIN
