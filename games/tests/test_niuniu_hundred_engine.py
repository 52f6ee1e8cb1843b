"""百人牛牛 engine: the deal, the reveal order, payouts by the winning hand's multiplier, refusals."""

import json

import pytest

from games.base import IllegalAction, SeededRng
from games.niuniu_hundred.engine import AREAS, CARDS_PER_COUP, DEFAULT_OPTIONS, NiuniuHundredEngine

ENGINE = NiuniuHundredEngine()
CONFIG = dict(DEFAULT_OPTIONS)


def shoe_with(*hands: list[str]) -> dict:
    """A shoe whose next coup deals ``hands`` (banker, 福, 禄, 寿, 禧), one card each in turn."""
    shoe = ENGINE.new_shoe({**CONFIG, "coups_per_shoe": 2}, SeededRng(b"niuniu-hundred-test", "shoe"))
    dealt = [hand[i] for i in range(5) for hand in hands]
    return {**shoe, "cards": dealt + shoe["cards"][CARDS_PER_COUP:]}


# Banker 牛8 (×3); 福 小牛牛 (×10), 禄 牛牛 (×5), 寿 牛7 (×2, loses to 牛8), 禧 无牛 (loses).
COUP = (
    ["Ks", "Qs", "Js", "5s", "3s"],
    ["3h", "2s", "2h", "As", "Ah"],
    ["Kc", "Qc", "Jc", "9c", "Ac"],
    ["Kh", "Qh", "Jh", "4h", "3d"],
    ["Kd", "Qh", "9d", "8d", "7d"],
)


def test_a_shoe_is_one_fresh_deck_per_coup_and_replays_from_its_seed():
    shoe = ENGINE.new_shoe(CONFIG, SeededRng(b"niuniu-hundred-seed", "shoe"))
    assert shoe == ENGINE.new_shoe(CONFIG, SeededRng(b"niuniu-hundred-seed", "shoe"))
    assert len(shoe["cards"]) == CONFIG["coups_per_shoe"] * CARDS_PER_COUP == 30 * 25
    for start in range(0, len(shoe["cards"]), CARDS_PER_COUP):
        assert len(set(shoe["cards"][start : start + CARDS_PER_COUP])) == CARDS_PER_COUP
    assert json.loads(json.dumps(shoe)) == shoe


def test_reveal_goes_banker_then_fu_lu_shou_xi_card_by_card_with_each_hands_split():
    result, _ = ENGINE.deal(CONFIG, shoe_with(*COUP))
    assert [step["side"] for step in result["steps"]] == [h for h in ("banker", *AREAS) for _ in range(5)]
    assert result["banker"] == COUP[0] and result["fu"] == COUP[1]
    shown = ENGINE.revealed(result, 6)
    assert shown["cards"]["banker"] == COUP[0] and shown["cards"]["fu"] == ["3h"]
    banker = shown["totals"]["banker"]
    assert list(shown["totals"]) == ["banker"]
    assert banker == {"category": "niu_8", "multiple": 3, "three": ["Ks", "Qs", "Js"], "two": ["5s", "3s"]}
    full = ENGINE.revealed(result, len(result["steps"]))["totals"]
    assert [full[a]["category"] for a in AREAS] == ["five_small", "niuniu", "niu_7", "no_niu"]
    assert [full[a]["multiple"] for a in AREAS] == [10, 5, 2, 1]


def test_payout_by_the_winning_hands_multiplier():  # 001:96
    result, _ = ENGINE.deal(CONFIG, shoe_with(*COUP))
    assert ENGINE.payout(CONFIG, result, "fu", 100) == 1000  # 小牛牛 beats 牛8: ×10
    assert ENGINE.payout(CONFIG, result, "lu", 100) == 500  # 牛牛: ×5
    assert ENGINE.payout(CONFIG, result, "shou", 100) == -300  # 牛7 loses to 牛8: the banker's ×3
    assert ENGINE.payout(CONFIG, result, "xi", 100) == -300
    assert result["wins"] == {"fu": True, "lu": True, "shou": False, "xi": False}


def test_a_tier_may_pay_by_the_tongbi_table():
    config = {**CONFIG, "multiplier_table": "tongbi"}
    result, _ = ENGINE.deal(config, shoe_with(*COUP))
    assert ENGINE.payout(config, result, "fu", 100) == 600  # 小牛牛 ×6 in 通比牛牛's table
    assert ENGINE.payout(config, result, "shou", 100) == -200  # 牛8 ×2
    assert ENGINE.bet_exposure(config, "fu", 10) == (60, 60)
    with pytest.raises(ValueError, match="no multiplier table"):
        ENGINE.bet_exposure({**CONFIG, "multiplier_table": "bogus"}, "fu", 10)


def test_same_category_goes_to_the_highest_card_then_its_suit():  # 001:117-118
    hands = (
        ["Ks", "Qs", "Js", "5s", "3s"],  # 牛8, K♠
        ["Kh", "Qh", "Jh", "5h", "3h"],  # 牛8, K♥: loses to K♠
        ["Kc", "Qc", "Jc", "5c", "3c"],
        ["Kd", "Qd", "Jd", "5d", "3d"],
        ["Ts", "Th", "Tc", "6d", "2d"],  # 牛8, 10♠: loses
    )
    result, _ = ENGINE.deal(CONFIG, shoe_with(*hands))
    assert not any(result["wins"].values())
    assert all(ENGINE.payout(CONFIG, result, area, 10) == -30 for area in AREAS)


def test_a_bet_escrows_the_banker_top_multiple():
    assert ENGINE.bet_exposure(CONFIG, "fu", 10) == (100, 100)
    assert {a["area"] for a in ENGINE.areas(CONFIG, {})} == set(AREAS)


def test_deal_leaves_its_shoe_and_moves_the_position_and_roads_on():
    shoe = shoe_with(*COUP)
    frozen = json.dumps(shoe)
    _result, after = ENGINE.deal(CONFIG, shoe)
    assert json.dumps(shoe) == frozen
    assert after["position"] == CARDS_PER_COUP and after["coups"] == 1
    assert ENGINE.roads(after)["areas"] == {"fu": [True], "lu": [True], "shou": [False], "xi": [False]}
    _result, last = ENGINE.deal(CONFIG, after)
    assert ENGINE.shoe_finished(last)
    with pytest.raises(ValueError, match="no more coups"):
        ENGINE.deal(CONFIG, last)


@pytest.mark.parametrize(
    ("area", "amount", "message"),
    [
        ("east", 10, "no betting area east"),
        ("banker", 10, "no betting area banker"),
        ("fu", 0, "positive whole number"),
        ("fu", -5, "positive whole number"),
        ("fu", 1.5, "positive whole number"),
        ("fu", True, "positive whole number"),
        ("fu", "10", "positive whole number"),
    ],
)
def test_bad_bets_are_refused_with_a_reason(area, amount, message):
    shoe = shoe_with(*COUP)
    with pytest.raises(IllegalAction, match=message):
        ENGINE.validate_bet(CONFIG, shoe, area, amount)
    ENGINE.validate_bet(CONFIG, shoe, "fu", 10)
