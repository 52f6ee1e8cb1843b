"""百人三公 engine: the deal, the reveal order, payouts by the winning hand's multiplier, refusals."""

import json

import pytest

from games.base import IllegalAction, SeededRng
from games.sangong.engine import AREAS, CARDS_PER_COUP, DEFAULT_OPTIONS, SangongEngine

ENGINE = SangongEngine()
CONFIG = dict(DEFAULT_OPTIONS)


def shoe_with(*hands: list[str]) -> dict:
    """A shoe whose next coup deals ``hands`` (banker, east, south, west, north), one card each in turn."""
    shoe = ENGINE.new_shoe({**CONFIG, "coups_per_shoe": 2}, SeededRng(b"sangong-engine-test", "shoe"))
    dealt = [hand[i] for i in range(3) for hand in hands]
    return {**shoe, "cards": dealt + shoe["cards"][CARDS_PER_COUP:]}


# Banker 8 points; east 爆玖, south 三公, west 6 points, north 9 points.
COUP = (["8s", "Kh", "Td"], ["3s", "3h", "3d"], ["Js", "Qh", "Kd"], ["6s", "Th", "Qc"], ["9s", "Tc", "Kc"])


def test_a_shoe_is_one_fresh_deck_per_coup_and_replays_from_its_seed():
    shoe = ENGINE.new_shoe(CONFIG, SeededRng(b"sangong-replay-seed", "shoe"))
    assert shoe == ENGINE.new_shoe(CONFIG, SeededRng(b"sangong-replay-seed", "shoe"))
    assert len(shoe["cards"]) == CONFIG["coups_per_shoe"] * CARDS_PER_COUP
    for start in range(0, len(shoe["cards"]), CARDS_PER_COUP):
        assert len(set(shoe["cards"][start : start + CARDS_PER_COUP])) == CARDS_PER_COUP
    assert json.loads(json.dumps(shoe)) == shoe


def test_reveal_goes_banker_east_south_west_north_card_by_card():  # 001:129
    result, _ = ENGINE.deal(CONFIG, shoe_with(*COUP))
    assert [step["side"] for step in result["steps"]] == [h for h in ("banker", *AREAS) for _ in range(3)]
    assert result["banker"] == COUP[0] and result["east"] == COUP[1]
    shown = ENGINE.revealed(result, 4)
    assert shown["cards"]["banker"] == COUP[0] and shown["cards"]["east"] == ["3s"]
    assert shown["totals"] == {"banker": {"category": 8, "points": 8, "multiple": 2}}
    full = ENGINE.revealed(result, len(result["steps"]))["totals"]
    assert full["east"] == {"category": "bao_jiu", "points": 9, "multiple": 5}
    assert full["south"]["category"] == "san_gong"


def test_payout_by_the_winning_hands_multiplier():  # 001:131
    result, _ = ENGINE.deal(CONFIG, shoe_with(*COUP))
    assert ENGINE.payout(CONFIG, result, "east", 100) == 500  # 爆玖 beats the banker's 8: ×5
    assert ENGINE.payout(CONFIG, result, "south", 100) == 300  # 三公: ×3
    assert ENGINE.payout(CONFIG, result, "west", 100) == -200  # 6 points lose to 8: the banker's ×2
    assert ENGINE.payout(CONFIG, result, "north", 100) == 200  # 9 points: ×2
    assert result["wins"] == {"east": True, "south": True, "west": False, "north": True}


def test_a_losing_bettor_pays_the_banker_multiple_which_the_bet_escrows():
    banker_bao_jiu = (
        ["3s", "3h", "3d"],
        ["Ks", "Kh", "Kd"],
        ["2s", "4h", "Td"],
        ["As", "Ah", "Ad"],
        ["9c", "Tc", "Qc"],
    )
    result, _ = ENGINE.deal(CONFIG, shoe_with(*banker_bao_jiu))
    assert all(ENGINE.payout(CONFIG, result, area, 10) == -50 for area in AREAS)
    assert ENGINE.bet_exposure(CONFIG, "east", 10) == (50, 50)


def test_deal_leaves_its_shoe_and_moves_the_position_and_roads_on():
    shoe = shoe_with(*COUP)
    frozen = json.dumps(shoe)
    _result, after = ENGINE.deal(CONFIG, shoe)
    assert json.dumps(shoe) == frozen
    assert after["position"] == CARDS_PER_COUP and after["coups"] == 1
    assert ENGINE.roads(after)["areas"] == {"east": [True], "south": [True], "west": [False], "north": [True]}
    _result, last = ENGINE.deal(CONFIG, after)
    assert ENGINE.shoe_finished(last)
    with pytest.raises(ValueError, match="no more coups"):
        ENGINE.deal(CONFIG, last)


@pytest.mark.parametrize(
    ("area", "amount", "message"),
    [
        ("middle", 10, "no betting area middle"),
        ("banker", 10, "no betting area banker"),
        ("east", 0, "positive whole number"),
        ("east", -5, "positive whole number"),
        ("east", 1.5, "positive whole number"),
        ("east", True, "positive whole number"),
        ("east", "10", "positive whole number"),
    ],
)
def test_bad_bets_are_refused_with_a_reason(area, amount, message):
    shoe = shoe_with(*COUP)
    with pytest.raises(IllegalAction, match=message):
        ENGINE.validate_bet(CONFIG, shoe, area, amount)
    ENGINE.validate_bet(CONFIG, shoe, "east", 10)
