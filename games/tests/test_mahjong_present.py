"""The mahjong presentation: the deal re-derived from the seed, facts of the wins, a record for all."""

import random

from games.base import SeatSpec, SeededRng
from games.mahjong.present import DEMO_TIERS, MahjongPresentation
from games.testing import random_playout
from games.tuidaohu import ENGINE as TUIDAOHU
from games.xuezhan import DEFAULT_OPTIONS
from games.xuezhan import ENGINE as XUEZHAN

SEATS = [SeatSpec(i + 1, 100_000) for i in range(4)]


def test_the_deal_is_what_the_seed_deals():
    for engine in (XUEZHAN, TUIDAOHU):
        state, _steps = random_playout(engine, {"base_stake": 1}, SEATS, 11, random.Random(11))
        again = engine.new_hand(
            {"base_stake": 1}, SEATS, SeededRng((11).to_bytes(16, "big"), "hand")
        )  # as random_playout seeds it
        deal = MahjongPresentation(engine).deals(state)[0]
        assert deal.hands == again["_dealt"] and all(len(h) == 13 for h in deal.hands)
        assert bool(deal.shared) == (engine is TUIDAOHU)  # 推倒胡's flipped tile


def test_facts_name_each_winner_and_the_fan():
    present = MahjongPresentation(XUEZHAN)
    details = {
        "ended_by": "won",
        "wild": None,
        "payments": [{"kind": "kong", "seat": 2}, {"kind": "win", "seat": 1, "fan": 3}],
    }
    facts = {f.key: f for f in present.facts(details)}
    assert facts["ended_by"].value == "won"
    assert facts["winner_1"].value == 1 and facts["winner_1"].seat
    assert facts["fan_1"].value == 3


def test_record_shows_every_hand_at_the_end():
    state, _ = random_playout(TUIDAOHU, {"base_stake": 1}, SEATS, 3, random.Random(3))
    record = MahjongPresentation(TUIDAOHU).record(state, 0)
    assert [row.cells[1] for row in record.seats] == state["result"]["hands"]
    assert MahjongPresentation(TUIDAOHU).summary(state)["phase"] == "finished"


def test_demo_tiers_use_only_known_options():
    for tier in DEMO_TIERS["xuezhan"]:
        assert set(tier["options"]) <= set(DEFAULT_OPTIONS)
    assert DEMO_TIERS["xuezhan"][-1]["options"]["fan_table"] == "003"
