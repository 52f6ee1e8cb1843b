"""百家乐 BaccaratEngine: the banker-round contract the round runtime drives."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import games
from games.baccarat.engine import BaccaratEngine
from games.base import IllegalAction, SeededRng
from games.testing import banker_playout

ENGINE = BaccaratEngine()
COMMISSION = {"variant": "commission"}
SUPER6 = {"variant": "super6"}
SEED = b"baccarat-engine-test-seed"


def fresh_shoe(label: str = "shoe", config: dict = COMMISSION) -> dict:
    return ENGINE.new_shoe(config, SeededRng(SEED, label))


def stacked(cards: list[str], *, cut_position: int | None = None, coups: int = 0) -> dict:
    """Return a shoe state whose cards come out in the order given (a test's stacked deck)."""
    return {
        "cards": list(cards),
        "cut_position": len(cards) if cut_position is None else cut_position,
        "position": 0,
        "coups": coups,
        "history": [],
    }


def deal_all(shoe: dict, config: dict = COMMISSION) -> tuple[list[dict], dict]:
    results = []
    while not ENGINE.shoe_finished(shoe):
        result, shoe = ENGINE.deal(config, shoe)
        results.append(result)
    return results, shoe


def after_coups(n: int, config: dict = SUPER6) -> dict:
    """Return a real shoe with ``n`` coups dealt."""
    shoe = fresh_shoe("thirty", config)
    for _ in range(n):
        _result, shoe = ENGINE.deal(config, shoe)
    return shoe


# -- registration --------------------------------------------------------------


def test_baccarat_is_registered_as_a_banker_game_with_the_agreed_options():
    info = games.REGISTRY["baccarat"]
    assert (info.slug, info.name_zh, info.name_en, info.family) == (
        "baccarat",
        "百家乐",
        "Baccarat",
        "banker",
    )
    assert (info.min_seats, info.max_seats) == (1, 1)
    assert isinstance(info.engine, BaccaratEngine)
    assert info.default_options == {
        "variant": "commission",
        "bet_seconds": 15,
        "reveal_ms": 900,
        "result_seconds": 5,
        "chips": [10, 50, 100, 500, 1000],
        "min_bet": 10,
        "area_limits": {
            "banker": 20000,
            "player": 20000,
            "tie": 2500,
            "banker_pair": 2000,
            "player_pair": 2000,
            "big": 10000,
            "small": 10000,
            "super6": 1000,
        },
        "table_limit": 200000,
    }
    json.dumps(info.default_options)


def test_the_older_games_keep_their_lobby_order():
    # Newer games register after them, so a fresh catalogue_sync numbers the older four first.
    assert list(games.REGISTRY)[:4] == ["doudizhu", "texas", "zhajinhua", "baccarat"]


# -- the shoe ------------------------------------------------------------------


def test_a_new_shoe_is_eight_shuffled_decks_with_a_cut_card_and_nothing_dealt():
    shoe = fresh_shoe()
    assert set(shoe) == {"cards", "cut_position", "position", "coups", "history"}
    counts = Counter(shoe["cards"])
    assert len(shoe["cards"]) == 416 and len(counts) == 52 and set(counts.values()) == {8}
    assert 400 <= shoe["cut_position"] <= 402
    assert (shoe["position"], shoe["coups"], shoe["history"]) == (0, 0, [])
    assert not ENGINE.shoe_finished(shoe)
    assert json.loads(json.dumps(shoe)) == shoe


def test_the_shoe_is_determined_by_its_seed():
    """A revealed seed re-derives the shoe: pinned cards, so a faster shuffle cannot change a deck."""
    shoe = ENGINE.new_shoe(COMMISSION, SeededRng(b"baccarat-known-answer-0001", "shoe"))
    assert shoe["cards"][:8] == ["3h", "Ks", "Ah", "2h", "Tc", "6c", "3d", "9d"]
    assert shoe["cut_position"] == 402
    first, _ = ENGINE.deal(COMMISSION, shoe)
    # Player 3+A = 4 draws T (4); banker K+2 = 2 draws 6 (8).
    assert (first["player"], first["banker"], first["winner"]) == (
        ["3h", "Ah", "Tc"],
        ["Ks", "2h", "6c"],
        "banker",
    )
    assert fresh_shoe("same") == fresh_shoe("same")
    assert fresh_shoe("one")["cards"] != fresh_shoe("two")["cards"]
    results_a, end_a = deal_all(fresh_shoe("replay"))
    results_b, end_b = deal_all(fresh_shoe("replay"))
    assert results_a == results_b and end_a == end_b


def test_an_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="unknown baccarat variant 'ez'"):
        ENGINE.new_shoe({"variant": "ez"}, SeededRng(SEED))
    with pytest.raises(ValueError, match="unknown baccarat variant"):
        ENGINE.areas({"variant": "ez"}, fresh_shoe())
    # A config without a variant is the default table (commission).
    assert [a["area"] for a in ENGINE.areas({}, fresh_shoe())] == [
        "banker",
        "player",
        "tie",
        "banker_pair",
        "player_pair",
    ]


def test_a_whole_shoe_deals_until_the_cut_card_comes_out():
    shoe = fresh_shoe("whole")
    results, end = deal_all(shoe)
    assert ENGINE.shoe_finished(end)
    assert [r["coup"] for r in results] == list(range(1, len(results) + 1))
    assert 60 <= len(results) <= 90 and end["coups"] == len(results)
    assert end["position"] == sum(r["cards_dealt"] for r in results)
    # Every coup but the last started before the cut card; the last one brought it out.
    last_start = end["position"] - results[-1]["cards_dealt"]
    assert last_start < end["cut_position"] <= end["position"] <= len(end["cards"])
    dealt = [card for r in results for card in r["player"] + r["banker"]]
    assert sorted(dealt) == sorted(end["cards"][: end["position"]])
    with pytest.raises(ValueError, match="cut card is out"):
        ENGINE.deal(COMMISSION, end)


def test_the_coup_that_crosses_the_cut_card_is_the_last():
    # Two 4-card coups (naturals), cut card behind the 6th card: the 2nd coup crosses it.
    cards = ["8s", "2h", "Kd", "3c"] * 3
    shoe = stacked(cards, cut_position=6)
    result, shoe = ENGINE.deal(COMMISSION, shoe)
    assert (shoe["position"], ENGINE.shoe_finished(shoe)) == (4, False)
    result, shoe = ENGINE.deal(COMMISSION, shoe)
    assert result["coup"] == 2 and shoe["position"] == 8
    assert ENGINE.shoe_finished(shoe)


def test_a_coup_ending_just_before_the_cut_card_finishes_the_shoe():
    """The cut card is next in the shoe: no new coup starts."""
    shoe = stacked(["8s", "2h", "Kd", "3c"] * 3, cut_position=4)
    _result, shoe = ENGINE.deal(COMMISSION, shoe)
    assert shoe["position"] == 4 and ENGINE.shoe_finished(shoe)


# -- areas ---------------------------------------------------------------------


def test_commission_areas_in_display_order():
    assert ENGINE.areas(COMMISSION, fresh_shoe()) == [
        {"area": "banker", "odds": "1:0.95", "open": True},
        {"area": "player", "odds": "1:1", "open": True},
        {"area": "tie", "odds": "1:8", "open": True},
        {"area": "banker_pair", "odds": "1:11", "open": True},
        {"area": "player_pair", "odds": "1:11", "open": True},
    ]


def test_super6_areas_in_display_order():
    assert ENGINE.areas(SUPER6, fresh_shoe(config=SUPER6)) == [
        {"area": "banker", "odds": "1:1 (6: 1:0.5)", "open": True},
        {"area": "player", "odds": "1:1", "open": True},
        {"area": "tie", "odds": "1:8", "open": True},
        {"area": "banker_pair", "odds": "1:11", "open": True},
        {"area": "player_pair", "odds": "1:11", "open": True},
        {"area": "big", "odds": "1:0.5", "open": True},
        {"area": "small", "odds": "1:1.5", "open": True},
        {"area": "super6", "odds": "1:12", "open": True},
    ]


def test_big_and_small_close_from_the_thirtieth_coup_of_a_shoe():
    """001:5 每靴第30局后不接受大小之投注: open for coups 1-29, closed from coup 30."""
    before = after_coups(28)  # the next coup is the 29th
    assert {a["area"]: a["open"] for a in ENGINE.areas(SUPER6, before)} == dict.fromkeys(
        ["banker", "player", "tie", "banker_pair", "player_pair", "big", "small", "super6"], True
    )
    ENGINE.validate_bet(SUPER6, before, "big", 10)
    ENGINE.validate_bet(SUPER6, before, "small", 10)
    result, thirtieth = ENGINE.deal(SUPER6, before)
    assert result["coup"] == 29
    opened = {a["area"]: a["open"] for a in ENGINE.areas(SUPER6, thirtieth)}
    assert opened.pop("big") is False and opened.pop("small") is False
    assert all(opened.values())
    for area in ("big", "small"):
        with pytest.raises(
            IllegalAction, match="Big and Small take no bets from coup 30 of a shoe on"
        ) as exc:
            ENGINE.validate_bet(SUPER6, thirtieth, area, 10)
        assert exc.value.code == "area_closed"
    ENGINE.validate_bet(SUPER6, thirtieth, "super6", 10)
    later = after_coups(45)
    assert [a["area"] for a in ENGINE.areas(SUPER6, later) if not a["open"]] == ["big", "small"]


# -- validate_bet --------------------------------------------------------------


def test_a_bet_on_an_open_area_passes():
    for area in ("banker", "player", "tie", "banker_pair", "player_pair"):
        assert ENGINE.validate_bet(COMMISSION, fresh_shoe(), area, 10) is None
    for area in ("big", "small", "super6"):
        assert ENGINE.validate_bet(SUPER6, fresh_shoe(config=SUPER6), area, 1) is None


@pytest.mark.parametrize("area", ["big", "small", "super6", "dragon", "", None, 7])
def test_an_area_the_table_does_not_have_is_refused(area):
    with pytest.raises(IllegalAction, match="There is no betting area .* at this table") as exc:
        ENGINE.validate_bet(COMMISSION, fresh_shoe(), area, 10)
    assert exc.value.code == "bad_area"
    assert exc.value.template == "There is no betting area {area} at this table."


@pytest.mark.parametrize("amount", [0, -10, 1.5, 10.0, True, "10", None, [10]])
def test_an_amount_that_is_not_a_positive_whole_number_is_refused(amount):
    with pytest.raises(IllegalAction, match="A bet must be a positive whole number of coins") as exc:
        ENGINE.validate_bet(COMMISSION, fresh_shoe(), "banker", amount)
    assert exc.value.code == "malformed"


def test_no_bet_on_a_finished_shoe():
    _results, end = deal_all(fresh_shoe("done"))
    with pytest.raises(IllegalAction, match="This shoe is finished") as exc:
        ENGINE.validate_bet(COMMISSION, end, "banker", 10)
    assert exc.value.code == "betting_closed"


# -- deal ----------------------------------------------------------------------


def test_deal_returns_the_coup_its_number_and_the_reveal_steps_in_dealing_order():
    # Player 7+7 = 4 draws 3 (7); banker 2+2 = 4, player's third is 3: the banker draws K (4).
    shoe = stacked(["7s", "2h", "7d", "2c", "3s", "Kc", "9s", "9h"])
    result, new = ENGINE.deal(COMMISSION, shoe)
    assert result == {
        "player": ["7s", "7d", "3s"],
        "banker": ["2h", "2c", "Kc"],
        "player_total": 7,
        "banker_total": 4,
        "winner": "player",
        "player_pair": True,
        "banker_pair": True,
        "cards_dealt": 6,
        "coup": 1,
        "steps": [
            {"side": "player", "card": "7s"},
            {"side": "banker", "card": "2h"},
            {"side": "player", "card": "7d"},
            {"side": "banker", "card": "2c"},
            {"side": "player", "card": "3s"},
            {"side": "banker", "card": "Kc"},
        ],
    }
    assert new["position"] == 6 and new["coups"] == 1
    assert new["history"] == [{k: v for k, v in result.items() if k != "steps"}]
    # The shoe passed in is unchanged (a pure function).
    assert shoe == stacked(["7s", "2h", "7d", "2c", "3s", "Kc", "9s", "9h"])


def test_steps_when_only_the_banker_draws():
    # Player 6 stands; banker 3 draws (the player stood, so 0-5 draw).
    result, _ = ENGINE.deal(COMMISSION, stacked(["2s", "Ah", "4d", "2c", "9h", "5s"]))
    assert [s["side"] for s in result["steps"]] == ["player", "banker", "player", "banker", "banker"]
    assert result["banker"] == ["Ah", "2c", "9h"]
    assert (result["player_total"], result["banker_total"], result["winner"]) == (6, 2, "player")


def test_steps_of_a_natural_are_four_cards():
    result, new = ENGINE.deal(COMMISSION, stacked(["9s", "Ah", "Kd", "2c", "5s", "5h"]))
    assert [s["card"] for s in result["steps"]] == ["9s", "Ah", "Kd", "2c"]
    assert new["position"] == 4


def test_the_shoe_round_trips_through_json_and_deals_on_the_same():
    shoe = fresh_shoe("json")
    for _ in range(20):
        copy = json.loads(json.dumps(shoe))
        assert copy == shoe
        result, shoe = ENGINE.deal(COMMISSION, shoe)
        assert ENGINE.deal(COMMISSION, copy)[0] == result
        assert json.loads(json.dumps(result)) == result


def test_revealed_shows_only_the_first_steps():
    result, _ = ENGINE.deal(COMMISSION, stacked(["7s", "2h", "7d", "2c", "3s", "Kc"]))
    assert ENGINE.revealed(result, 0) == {"cards": {"player": [], "banker": []}, "totals": {}}
    assert ENGINE.revealed(result, 3) == {
        "cards": {"player": ["7s", "7d"], "banker": ["2h"]},
        "totals": {"player": 4, "banker": 2},
    }
    assert ENGINE.revealed(result, 6)["totals"] == {"player": 7, "banker": 4}


# -- payouts -------------------------------------------------------------------

BANKER_6 = stacked(
    ["2s", "6h", "3d", "Kc", "Ks"]
)  # player 5 draws K (5); banker 6 stands: banker wins with 6
BANKER_7 = stacked(["2s", "7h", "4d", "Kc"])  # player 6, banker 7: both stand, 4 cards
PLAYER_9 = stacked(["9s", "2h", "Kd", "3c"])  # player natural 9
TIE_7 = stacked(["4s", "Jh", "3d", "7c"])  # 7-7
PAIRS = stacked(["5s", "2h", "5d", "2c", "2s", "Kc"])  # player 0 draws 2; banker 4 draws K: banker, 6 cards


def outcome_of(shoe: dict) -> dict:
    return ENGINE.deal(COMMISSION, shoe)[0]


@pytest.mark.parametrize(
    ("area", "shoe", "stake", "net"),
    [
        pytest.param("banker", BANKER_7, 100, 95, id="banker_wins_less_5pct"),
        pytest.param("banker", BANKER_6, 100, 95, id="banker_wins_with_6_no_special_rule"),
        # The commission is rounded down (never above 5%): 0.95 and 0.05 of a coin are no commission.
        pytest.param("banker", BANKER_7, 19, 19, id="banker_19_pays_no_commission"),
        pytest.param("banker", BANKER_7, 1, 1, id="banker_1_pays_no_commission"),
        pytest.param("banker", BANKER_7, 105, 100, id="banker_105_pays_5_commission_not_6"),
        pytest.param("banker", PLAYER_9, 100, -100, id="banker_loses"),
        pytest.param("banker", TIE_7, 100, 0, id="banker_returned_on_tie"),
        pytest.param("player", PLAYER_9, 100, 100, id="player_wins_1_to_1"),
        pytest.param("player", BANKER_7, 100, -100, id="player_loses"),
        pytest.param("player", TIE_7, 100, 0, id="player_returned_on_tie"),
        pytest.param("tie", TIE_7, 10, 80, id="tie_8_to_1"),
        pytest.param("tie", BANKER_7, 10, -10, id="tie_loses"),
        pytest.param("banker_pair", PAIRS, 10, 110, id="banker_pair_11_to_1"),
        pytest.param("player_pair", PAIRS, 10, 110, id="player_pair_11_to_1"),
        pytest.param("banker_pair", BANKER_7, 10, -10, id="banker_pair_loses"),
        pytest.param("player_pair", TIE_7, 10, -10, id="player_pair_loses_on_a_tie"),
    ],
)
def test_commission_payout_table(area, shoe, stake, net):
    """003:243-247 (5% commission on the banker), ties return banker and player bets."""
    assert ENGINE.payout(COMMISSION, outcome_of(shoe), area, stake) == net


@pytest.mark.parametrize(
    ("area", "shoe", "stake", "net"),
    [
        pytest.param("banker", BANKER_7, 100, 100, id="banker_wins_1_to_1_no_commission"),
        pytest.param("banker", BANKER_6, 100, 50, id="banker_wins_with_6_pays_half"),
        pytest.param("banker", BANKER_6, 7, 3, id="banker_6_on_7_coins_rounds_3_5_down"),
        pytest.param("banker", PLAYER_9, 100, -100, id="banker_loses"),
        pytest.param("banker", TIE_7, 100, 0, id="banker_returned_on_tie"),
        pytest.param("player", PLAYER_9, 100, 100, id="player_wins_1_to_1"),
        pytest.param("player", BANKER_6, 100, -100, id="player_loses"),
        pytest.param("player", TIE_7, 100, 0, id="player_returned_on_tie"),
        pytest.param("tie", TIE_7, 10, 80, id="tie_8_to_1"),
        pytest.param("tie", PLAYER_9, 10, -10, id="tie_loses"),
        pytest.param("banker_pair", PAIRS, 10, 110, id="banker_pair_11_to_1"),
        pytest.param("player_pair", PAIRS, 10, 110, id="player_pair_11_to_1"),
        pytest.param("player_pair", BANKER_6, 10, -10, id="player_pair_loses"),
        pytest.param("super6", BANKER_6, 10, 120, id="super6_12_to_1"),
        pytest.param("super6", BANKER_7, 10, -10, id="super6_loses_banker_7"),
        pytest.param("super6", PLAYER_9, 10, -10, id="super6_loses_player_wins"),
        pytest.param("big", BANKER_6, 10, 5, id="big_5_cards_1_to_0_5"),
        pytest.param("big", PAIRS, 10, 5, id="big_6_cards_1_to_0_5"),
        pytest.param("big", PAIRS, 3, 1, id="big_3_coins_rounds_1_5_down"),
        pytest.param("big", BANKER_7, 10, -10, id="big_loses_on_4_cards"),
        pytest.param("small", BANKER_7, 10, 15, id="small_4_cards_1_to_1_5"),
        pytest.param("small", TIE_7, 3, 4, id="small_3_coins_rounds_4_5_down"),
        pytest.param("small", PAIRS, 10, -10, id="small_loses_on_6_cards"),
    ],
)
def test_super6_payout_table(area, shoe, stake, net):
    """001:54-82: banker 1:1 (1:0.5 on a 6), 大 1:0.5, 小 1:1.5, Super6 1:12, no service fee."""
    assert ENGINE.payout(SUPER6, outcome_of(shoe), area, stake) == net


def test_a_six_six_tie_is_no_super6():
    tie6 = outcome_of(stacked(["3s", "2h", "3d", "4c"]))
    assert (tie6["winner"], tie6["banker_total"]) == ("tie", 6)
    assert ENGINE.payout(SUPER6, tie6, "super6", 10) == -10
    assert ENGINE.payout(SUPER6, tie6, "banker", 10) == 0


def test_payout_refuses_bad_input():
    result = outcome_of(BANKER_7)
    with pytest.raises(ValueError, match="'big' is not a betting area of the commission variant"):
        ENGINE.payout(COMMISSION, result, "big", 10)
    with pytest.raises(ValueError, match="positive whole number"):
        ENGINE.payout(COMMISSION, result, "banker", 0)
    with pytest.raises(ValueError, match="not a coup result"):
        ENGINE.payout(COMMISSION, {"winner": "banker"}, "banker", 10)
    with pytest.raises(ValueError, match="is not a card"):
        ENGINE.payout(COMMISSION, {**result, "player": ["Zz", "2s"]}, "banker", 10)


# -- roads ---------------------------------------------------------------------


def test_roads_come_from_the_shoe_history():
    # tie, banker (both pairs), banker, tie, player, banker
    cards = [
        *["4s", "Jh", "3d", "7c"],
        *["5s", "2h", "5d", "2c", "2s", "Kc"],
        *["2s", "7h", "4d", "Kc"],
        *["4h", "Js", "3c", "7d"],
        *["9s", "2h", "Kd", "3c"],
        *["2d", "7s", "4c", "Kh"],
    ]
    shoe = stacked(cards)
    nothing = {"big_eye_boy": None, "small_road": None, "cockroach_pig": None}
    assert ENGINE.roads(shoe) == {
        "bead_plate": [],
        "big_road": [],
        "big_eye_boy": [],
        "small_road": [],
        "cockroach_pig": [],
        "ask": {"banker": nothing, "player": nothing},
    }
    _results, shoe = deal_all(shoe)
    roads = ENGINE.roads(shoe)
    assert roads["bead_plate"] == [["tie", "banker", "banker", "tie", "player", "banker"]]
    cell = {"ties": 0, "player_pair": False, "banker_pair": False}
    assert roads["big_road"] == [
        [
            {**cell, "winner": "banker", "ties": 1, "player_pair": True, "banker_pair": True},
            {**cell, "winner": "banker", "ties": 1},
        ],
        [{**cell, "winner": "player"}],
        [{**cell, "winner": "banker"}],
    ]
    # Big road columns 2, 1, 1 (by hand, docs/rules/baccarat.md): 大眼仔 c2r0 compares 1 with 2 → blue;
    # 小路 and 曱甴路 have not started.
    assert (roads["big_eye_boy"], roads["small_road"], roads["cockroach_pig"]) == ([["blue"]], [], [])
    # 问路: banker next is c2r1 (c1 has exactly 1 → blue; c0 has 2 → red); player next is c3r0
    # (1 vs 1 → red; 1 vs 2 → blue).
    assert roads["ask"] == {
        "banker": {"big_eye_boy": "blue", "small_road": "red", "cockroach_pig": None},
        "player": {"big_eye_boy": "red", "small_road": "blue", "cockroach_pig": None},
    }
    json.dumps(roads)


def test_bead_plate_columns_of_six_over_a_whole_shoe():
    results, end = deal_all(fresh_shoe("roads"))
    plate = ENGINE.roads(end)["bead_plate"]
    assert [w for column in plate for w in column] == [r["winner"] for r in results]
    assert all(len(column) == 6 for column in plate[:-1])


# -- random shoes --------------------------------------------------------------


@pytest.mark.parametrize("config", [COMMISSION, SUPER6], ids=["commission", "super6"])
def test_random_bets_over_whole_shoes_keep_the_contract(config):
    choices = random.Random(4)
    for i in range(3):
        shoe, coups = banker_playout(ENGINE, config, f"playout-{i}", choices, strict=True)
        assert ENGINE.shoe_finished(shoe) and shoe["coups"] == coups


class MutatingEngine(BaccaratEngine):
    def deal(self, config, shoe):
        result, new = super().deal(config, shoe)
        shoe["history"].append("oops")
        return result, new


class OpenAllTheTimeEngine(BaccaratEngine):
    def validate_bet(self, config, shoe, area, amount):
        if area in ("big", "small"):
            return None
        return super().validate_bet(config, shoe, area, amount)


class GenerousEngine(BaccaratEngine):
    def payout(self, config, result, area, stake):
        return 100 * stake


@pytest.mark.parametrize(
    ("engine", "message"),
    [
        (MutatingEngine(), "deal mutated its input shoe"),
        (OpenAllTheTimeEngine(), "a bet on the closed area"),
        (GenerousEngine(), "pays"),
    ],
    ids=["mutating_deal", "big_small_never_close", "overpaying"],
)
def test_the_banker_harness_catches_a_broken_engine(engine, message):
    from games.testing import InvariantError

    with pytest.raises(InvariantError, match=message):
        banker_playout(engine, SUPER6, "broken", random.Random(1), bets_per_coup=8, strict=True)
