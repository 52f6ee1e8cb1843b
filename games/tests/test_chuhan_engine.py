"""楚汉德州's engine (games/chuhan/engine.py): the deal, the reveal, the 咪牌 pause, payouts, random shoes."""

import json
import random

import pytest

from games.base import IllegalAction, SeededRng
from games.chuhan import rules
from games.chuhan.engine import DEFAULT_OPTIONS, ChuhanEngine
from games.testing import banker_playout

ENGINE = ChuhanEngine()


def shoe_with(cards: list[str]) -> dict:
    return {"cards": cards, "position": 0, "coups": 0, "history": []}


# 汉 gets the 1st and 3rd card, 楚 the 2nd and 4th (001:200: 汉 then 楚, two rounds), then the board.
COUP = ["Kh", "As", "Kd", "7c", "2c", "5d", "9h", "Js", "3s"]


def test_the_deal_goes_han_then_chu_then_five_community_cards():
    result, shoe = ENGINE.deal(DEFAULT_OPTIONS, shoe_with(COUP))
    assert result["han"] == ["Kh", "Kd"] and result["chu"] == ["As", "7c"]
    assert result["board"] == ["2c", "5d", "9h", "Js", "3s"]
    assert result["winner"] == rules.HAN and result["wins"] == sorted([rules.HAN, "high_pair"])
    # The board turns first; the two hands after the 咪牌 pause.
    assert [s["side"] for s in result["steps"]] == ["board"] * 5 + ["han"] * 2 + ["chu"] * 2
    assert shoe["position"] == 9 and shoe["history"] == [{"coup": 1, "winner": "han"}]
    assert ENGINE.roads(shoe) == {"winners": ["han"]}
    json.dumps(result)


def test_nothing_of_a_hand_shows_before_its_cards_are_turned():
    result, _ = ENGINE.deal(DEFAULT_OPTIONS, shoe_with(COUP))
    shown = ENGINE.revealed(result, 5)
    assert shown["cards"] == {"board": result["board"], "han": [], "chu": []}
    assert shown["totals"] == {}
    shown = ENGINE.revealed(result, 7)
    assert shown["totals"] == {"han": {"category": "pair"}}
    assert ENGINE.revealed(result, 9)["totals"] == {
        "han": {"category": "pair"},
        "chu": {"category": "high_card"},
    }


def test_the_reveal_pauses_after_the_board_for_the_top_bettor_on_chu_or_han():
    result, _ = ENGINE.deal(DEFAULT_OPTIONS, shoe_with(COUP))
    assert ENGINE.reveal_pause({**DEFAULT_OPTIONS, "reveal_seconds": 5}, result) == {
        "after": 5,
        "areas": ["chu", "han"],
        "seconds": 5,
    }


def test_payouts_come_from_the_cards_again():
    result, _ = ENGINE.deal(DEFAULT_OPTIONS, shoe_with(COUP))
    assert ENGINE.payout(DEFAULT_OPTIONS, result, "han", 100) == 100
    assert ENGINE.payout(DEFAULT_OPTIONS, result, "chu", 100) == -100
    assert ENGINE.payout(DEFAULT_OPTIONS, result, "high_pair", 100) == 120
    assert ENGINE.payout(DEFAULT_OPTIONS, result, "tie", 100) == -100
    with pytest.raises(ValueError):
        ENGINE.payout(DEFAULT_OPTIONS, result, "han", 0)
    assert ENGINE.bet_exposure(DEFAULT_OPTIONS, "quads_plus", 10) == (10, 2500)


def test_bets_on_unknown_areas_or_amounts_are_refused_with_a_message():
    shoe = ENGINE.new_shoe(DEFAULT_OPTIONS, SeededRng(b"x" * 16, "shoe"))
    with pytest.raises(IllegalAction, match="no betting area"):
        ENGINE.validate_bet(DEFAULT_OPTIONS, shoe, "dragon", 10)
    with pytest.raises(IllegalAction, match="whole number"):
        ENGINE.validate_bet(DEFAULT_OPTIONS, shoe, "chu", 1.5)
    assert [a["area"] for a in ENGINE.areas(DEFAULT_OPTIONS, shoe)] == list(rules.AREAS)


def test_a_shoe_replays_from_its_seed():
    seed = b"chuhan-seed-0123456789"
    a = ENGINE.new_shoe(DEFAULT_OPTIONS, SeededRng(seed, "shoe"))
    b = ENGINE.new_shoe(DEFAULT_OPTIONS, SeededRng(seed, "shoe"))
    assert a == b and len(a["cards"]) == 9 * DEFAULT_OPTIONS["coups_per_shoe"]
    # Each coup is nine different cards of a fresh deck.
    for i in range(0, len(a["cards"]), 9):
        assert len(set(a["cards"][i : i + 9])) == 9


def test_random_shoes_keep_every_banker_engine_promise():
    choices = random.Random(33)
    coups = 0
    for i in range(40):
        config = {**DEFAULT_OPTIONS, "coups_per_shoe": 1 + i % 30}
        shoe, dealt = banker_playout(ENGINE, config, f"chuhan-{i}", choices, bets_per_coup=8, strict=True)
        assert dealt == config["coups_per_shoe"] == len(shoe["history"])
        coups += dealt
    assert coups > 500


def test_the_odds_table_gives_every_area():
    table = ENGINE.odds_table(DEFAULT_OPTIONS)
    assert [row["area"] for row in table] == list(rules.AREAS)
    assert all(0 < row["probability"] < 1 and 0 < row["edge"] < 0.07 for row in table)
