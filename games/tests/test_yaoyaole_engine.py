"""开心摇摇乐 engine: throws from the shoe's seed, the reveal red's cup first, payouts, refusals, whole shoes."""

import json
import random

import pytest

from games.base import IllegalAction, SeededRng
from games.testing import banker_playout
from games.yaoyaole import rules
from games.yaoyaole.engine import DEFAULT_OPTIONS, YaoyaoleEngine

ENGINE = YaoyaoleEngine()
CONFIG = dict(DEFAULT_OPTIONS)


def shoe_with(red: list[int], blue: list[int]) -> dict:
    """A shoe whose next coup throws ``red`` and ``blue``."""
    shoe = ENGINE.new_shoe({**CONFIG, "coups_per_shoe": 2}, SeededRng(b"yaoyaole-engine-test", "shoe"))
    return {**shoe, "throws": [red + blue, *shoe["throws"][1:]]}


def test_every_throw_comes_from_the_shoes_seed_as_documented():
    """Anyone holding the revealed seed re-derives each coup: child stream "coup-N", six randbelow(6) + 1."""
    seed = b"yaoyaole-replay-seed-0123456789"
    shoe = ENGINE.new_shoe(CONFIG, SeededRng(seed, "shoe"))
    assert shoe == ENGINE.new_shoe(CONFIG, SeededRng(seed, "shoe"))
    assert len(shoe["throws"]) == CONFIG["coups_per_shoe"]
    for n, dice in enumerate(shoe["throws"], start=1):
        rng = SeededRng(seed, "shoe/coup-" + str(n))
        assert dice == [rng.randbelow(6) + 1 for _ in range(6)]
    assert json.loads(json.dumps(shoe)) == shoe
    assert ENGINE.new_shoe(CONFIG, SeededRng(b"another-seed-of-16+bytes", "shoe")) != shoe


def test_a_coup_reveals_reds_cup_then_blues_die_by_die():  # 001:398 开骰盅
    result, shoe = ENGINE.deal(CONFIG, shoe_with([6, 6, 6], [1, 2, 3]))
    assert [s["side"] for s in result["steps"]] == ["red"] * 3 + ["blue"] * 3
    assert result["red"] == [6, 6, 6] and result["blue"] == [1, 2, 3]
    assert result["winner"] == "red"
    assert result["sides"] == {
        "red": {"points": 18, "combo": "triple"},
        "blue": {"points": 6, "combo": "straight"},
    }
    assert result["areas"]["red"] == "won" and result["areas"]["blue_straight"] == "won"
    assert result["areas"]["red_pair"] == "lost"  # a triple is no pair
    shown = ENGINE.revealed(result, 4)
    assert shown["cards"] == {"red": [6, 6, 6], "blue": [1]}
    assert shown["totals"] == {"red": {"points": 18, "combo": "triple"}}
    assert ENGINE.revealed(result, 0) == {"cards": {"red": [], "blue": []}, "totals": {}}
    assert shoe["coups"] == 1 and shoe["history"] == [{"coup": 1, "winner": "red", "red": 18, "blue": 6}]
    assert ENGINE.roads(shoe) == {"coups": shoe["history"]}


def test_each_cup_is_opened_whole_by_its_sides_top_bettor():  # 001:398 开骰盅
    result, _ = ENGINE.deal(CONFIG, shoe_with([6, 6, 6], [1, 2, 3]))
    assert ENGINE.reveal_pause({**CONFIG, "reveal_seconds": 5}, result) == [
        {"after": 0, "areas": ["red"], "seconds": 5, "turns": 3},  # red's cup before any die shows
        {"after": 3, "areas": ["blue"], "seconds": 5, "turns": 3},  # blue's once red's is open
    ]
    # Each pause opens one cup: its three steps are that side's dice.
    for pause in ENGINE.reveal_pause(CONFIG, result):
        opened = result["steps"][pause["after"] : pause["after"] + pause["turns"]]
        assert {step["side"] for step in opened} == set(pause["areas"])
    assert ENGINE.reveal_pause({}, result)[0]["seconds"] == DEFAULT_OPTIONS["reveal_seconds"] == 6


def test_a_tie_shows_push_on_red_and_blue():  # 001:397
    result, _ = ENGINE.deal(CONFIG, shoe_with([2, 3, 4], [1, 2, 6]))
    assert result["winner"] == "tie"
    assert result["areas"]["red"] == result["areas"]["blue"] == "push"
    assert result["areas"]["tie"] == "won"
    assert ENGINE.payout(CONFIG, result, "red", 100) == 0
    assert ENGINE.payout(CONFIG, result, "tie", 100) == 700


def test_payout_is_worked_out_again_from_the_dice():
    result, _ = ENGINE.deal(CONFIG, shoe_with([1, 2, 4], [1, 1, 2]))
    assert ENGINE.payout(CONFIG, result, "red", 100) == 50  # 7 points: 1赔1.5
    assert ENGINE.payout(CONFIG, result, "blue_pair", 100) == 130
    with pytest.raises(ValueError, match="face"):
        ENGINE.payout(CONFIG, {**result, "red": [1, 2, 9]}, "red", 100)


def test_exposure_bounds_every_area():
    assert ENGINE.bet_exposure(CONFIG, "red", 100) == (100, 100)
    assert ENGINE.bet_exposure(CONFIG, "tie", 100) == (100, 700)
    assert ENGINE.bet_exposure(CONFIG, "red_pair", 100) == (100, 130)
    assert ENGINE.bet_exposure(CONFIG, "blue_straight", 100) == (100, 700)
    assert ENGINE.bet_exposure(CONFIG, "blue_triple", 100) == (100, 2900)


def test_every_area_is_open_with_the_seeds_odds():
    areas = ENGINE.areas(CONFIG, shoe_with([1, 1, 1], [2, 2, 2]))
    assert [a["area"] for a in areas] == list(rules.AREAS)
    assert all(a["open"] for a in areas)
    odds = {a["area"]: a["odds"] for a in areas}
    assert odds["tie"] == "1:8" and odds["red_pair"] == "1:2.3" and odds["blue_triple"] == "1:30"


@pytest.mark.parametrize(
    ("area", "amount", "code"),
    [
        ("green", 10, "bad_area"),
        (None, 10, "bad_area"),
        ("red", 0, "malformed"),
        ("red", True, "malformed"),
        ("tie", 2.5, "malformed"),
    ],
)
def test_bad_bets_are_refused_with_a_reason(area, amount, code):
    with pytest.raises(IllegalAction) as caught:
        ENGINE.validate_bet(CONFIG, shoe_with([1, 1, 1], [2, 2, 2]), area, amount)
    assert caught.value.code == code and str(caught.value)


def test_a_finished_shoe_takes_no_bets_and_throws_no_more():
    shoe = ENGINE.new_shoe({**CONFIG, "coups_per_shoe": 1}, SeededRng(b"yaoyaole-short-shoe!", "shoe"))
    _, shoe = ENGINE.deal(CONFIG, shoe)
    assert ENGINE.shoe_finished(shoe)
    with pytest.raises(IllegalAction, match="shoe is finished"):
        ENGINE.validate_bet(CONFIG, shoe, "red", 10)
    with pytest.raises(ValueError, match="no more coups"):
        ENGINE.deal(CONFIG, shoe)


def test_random_shoes_keep_every_banker_engine_promise():
    choices = random.Random(33)
    coups = 0
    for i in range(60):
        config = {**CONFIG, "coups_per_shoe": 1 + i % 30}
        shoe, dealt = banker_playout(ENGINE, config, f"yaoyaole-{i}", choices, bets_per_coup=6, strict=True)
        assert dealt == config["coups_per_shoe"] == len(shoe["history"])
        coups += dealt
    assert coups > 800
