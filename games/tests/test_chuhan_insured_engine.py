"""保险楚汉德州's engine (games/chuhan_insured/engine.py): streets, windows, pauses, payouts, random shoes."""

import random
from fractions import Fraction

import pytest

from games.base import IllegalAction
from games.chuhan_insured import rules
from games.chuhan_insured.engine import DEFAULT_OPTIONS, InsuredChuhanEngine, area_street, odds_text
from games.testing import banker_playout

ENGINE = InsuredChuhanEngine()


def shoe_with(cards):
    return {"cards": cards, "position": 0, "coups": 0, "history": []}


def test_the_later_streets_odds_come_from_the_cards_they_show():
    coup = ["Ah", "Qc", "Kd", "Js", "2c", "7d", "9h", "3s", "4c"]
    result, _ = ENGINE.deal(DEFAULT_OPTIONS, shoe_with(coup))
    assert [s["side"] for s in result["steps"]] == ["han"] * 2 + ["chu"] * 2 + ["board"] * 5
    margin = Fraction(DEFAULT_OPTIONS["margin_bps"], 10000)
    for street, shown in ((2, 3), (3, 4)):
        chances = rules.street_chances(["Ah", "Kd"], ["Qc", "Js"], coup[4 : 4 + shown])
        odds = rules.street_odds(street, chances, margin)
        expected = {side: None if value is None else int(value * 100) for side, value in odds.items()}
        assert result["streets"][str(street)]["odds"] == expected
        # The chances the odds come from are kept with them, exactly.
        kept = {side: Fraction(text) for side, text in result["streets"][str(street)]["chances"].items()}
        assert kept == chances and sum(kept.values()) == 1
    windows = ENGINE.betting_windows(DEFAULT_OPTIONS, result)
    assert [(w["after"], w["street"]) for w in windows] == [(7, 2), (8, 3)]
    assert [p["after"] for p in ENGINE.reveal_pause(DEFAULT_OPTIONS, result)] == [7, 8]


def test_a_one_sided_street_is_skipped_with_no_reveal_pause():
    # 楚 flops quads: on the turn street 汉 has almost no chance, 楚's odds ≤ 1.01.
    coup = ["2h", "Kc", "3d", "Ks", "Kd", "Kh", "9h", "3s", "4c"]
    result, _ = ENGINE.deal(DEFAULT_OPTIONS, shoe_with(coup))
    assert result["streets"]["2"]["skipped"] and result["streets"]["3"]["skipped"]
    assert ENGINE.betting_windows(DEFAULT_OPTIONS, result) == []
    assert ENGINE.reveal_pause(DEFAULT_OPTIONS, result) == []


def test_areas_name_their_street_and_odds_print_as_profit():
    assert area_street("chu_2") == ("chu", 2) and area_street("tie") == ("tie", 1)
    assert area_street("full_house") == ("full_house", 1)
    assert odds_text(Fraction(193, 100)) == "1:0.93" and odds_text(Fraction(2)) == "1:1"
    first = ENGINE.areas(DEFAULT_OPTIONS, {"cards": [], "position": 0})
    assert [a["area"] for a in first][:3] == ["chu", "tie", "han"]


def test_random_shoes_keep_every_banker_engine_promise():
    choices = random.Random(34)
    for i in range(6):
        config = {**DEFAULT_OPTIONS, "coups_per_shoe": 1 + i % 4}
        shoe, dealt = banker_playout(ENGINE, config, f"insured-{i}", choices, bets_per_coup=6, strict=True)
        assert dealt == config["coups_per_shoe"]


def test_a_later_street_takes_bets_on_the_last_coup_of_a_shoe():
    config = {**DEFAULT_OPTIONS, "coups_per_shoe": 1}
    shoe = {
        "cards": ["Ah", "Qc", "Kd", "Js", "2c", "7d", "9h", "3s", "4c"],
        "position": 0,
        "coups": 0,
        "history": [],
    }
    _, after = ENGINE.deal(config, shoe)
    assert ENGINE.shoe_finished(after)
    ENGINE.validate_bet(config, after, "chu_2", 10)  # the turn street of the coup just dealt
    with pytest.raises(IllegalAction, match="finished"):
        ENGINE.validate_bet(config, after, "chu", 10)
    with pytest.raises(IllegalAction, match="no betting area"):
        ENGINE.validate_bet(config, after, "chu_7", 10)
