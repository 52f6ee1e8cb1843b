"""bench/load.py's 百家乐 bettor: when a round ``state`` answers its bet, and which bets it sends.

On the states the round runtime really builds: another player's bet must not
answer the bettor's own (its latency would be someone else's), and the bets
it picks must be ones the server takes, so that refusals in a load run come
from the server, never from the client.
"""

import sys
from pathlib import Path

import pytest
from django.utils import timezone

from rooms.rounds import services
from rooms.rounds.broadcast import merge, public_state
from rooms.rounds.selectors import round_snapshot
from rooms.rounds.tests.conftest import committing, open_round, watch
from rooms.tables.models import Table

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.load import BET_MARGIN, bet_answered, bet_options  # noqa: E402

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_rounds")]


def place(table, user, area, amount):
    with committing():
        services.round_bet(table_id=table.pk, user=user, area=area, amount=amount)


def test_only_the_bettors_own_stake_answers_its_bet(bacc_tier, make_player):
    alice, bob = make_player(coins=5000), make_player(coins=5000)
    table, rnd = open_round(bacc_tier, alice)
    watch(table, bob)
    before = round_snapshot(table_id=table.pk, user=alice)
    pending = (rnd.pk, "player", before["you"]["stakes"].get("player", 0), 50)  # alice's bet, in flight

    place(table, bob, "player", 100)
    others = round_snapshot(table_id=table.pk, user=alice)
    assert others["seq"] > before["seq"]
    assert next(a for a in others["round"]["areas"] if a["area"] == "player")["total"] == 100
    assert not bet_answered(others, pending), "bob's bet on the same area was taken for alice's answer"

    place(table, alice, "player", 50)
    # The public state of alice's bet can reach her socket before her own part does: merged
    # with her older part it shows nothing of her bet yet, and is no answer.
    older_part = {"seq": before["seq"], "round": rnd.pk, "you": before["you"]}
    early = merge(public_state(Table.objects.get(pk=table.pk)), older_part)
    assert not bet_answered(early, pending)
    after = round_snapshot(table_id=table.pk, user=alice)
    assert after["you"]["stakes"] == {"player": 50}
    assert bet_answered(after, pending)


def test_the_bettor_sends_only_bets_the_server_takes(bacc_tier, make_player):
    """The options keep within 限红 and leave the entry minimum in the wallet; the server takes each."""
    alice = make_player(coins=10_000)
    table, rnd = open_round(bacc_tier, alice)
    now_ms = timezone.now().timestamp() * 1000
    state = round_snapshot(table_id=table.pk, user=alice)
    tier = state["table"]["tier"]
    options = bet_options(state, now_ms=now_ms, reserve=100)
    open_areas = {a["area"] for a in state["round"]["areas"] if a["open"]}
    assert set(options) == {(area, chip) for area in open_areas for chip in tier["chips"]}

    place(table, alice, "tie", 1000)
    place(table, alice, "tie", 1000)  # 2000 of the tie's 2500 limit
    options = bet_options(round_snapshot(table_id=table.pk, user=alice), now_ms=now_ms, reserve=100)
    assert ("tie", 500) in options and ("tie", 1000) not in options

    for area, chip in [("banker", 1000)] * 7 + [("player", 500)] + [("player", 100)] * 4:
        place(table, alice, area, chip)  # 9,900 staked in all: 100 coins left, the reserve
    state = round_snapshot(table_id=table.pk, user=alice)
    assert state["you"]["balance"] == 100
    assert bet_options(state, now_ms=now_ms, reserve=100) == []
    assert {chip for _, chip in bet_options(state, now_ms=now_ms, reserve=0)} == {10, 50, 100}


def test_the_bettor_stops_before_the_deadline_and_outside_betting(bacc_tier, make_player):
    alice = make_player(coins=5000)
    table, rnd = open_round(bacc_tier, alice)
    state = round_snapshot(table_id=table.pk, user=alice)
    deadline = state["round"]["deadline"]
    assert bet_options(state, now_ms=deadline - (BET_MARGIN + 0.5) * 1000, reserve=100)
    assert not bet_options(state, now_ms=deadline - (BET_MARGIN - 0.1) * 1000, reserve=100)
    assert not bet_options(state, now_ms=deadline - 5000, reserve=100, margin=6)
    dealing = {**state, "round": {**state["round"], "phase": "dealing"}}
    assert not bet_options(dealing, now_ms=deadline - 10_000, reserve=100)
