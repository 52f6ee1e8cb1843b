"""升级 hands through the runtime: the match (each side's level and the next declarer) carries from
hand to hand at a table as a carried pot of no coins, and ends without a ledger posting when a
player leaves."""

import pytest

from rooms import services as room_services
from rooms.demo import demo_tiers_for
from rooms.models import Game
from rooms.tables import seating, services
from rooms.tables.models import Hand, Seat, Table
from rooms.tables.tests.conftest import expire, run_clock
from rooms.tables.tests.helpers import open_hand, sit_connected
from rooms.tables.tests.test_abuse import game_tier
from wallets.models import LedgerEntry, LedgerTransaction
from wallets.selectors import ledger_check

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def play_out(table, users) -> Hand:
    """托管 for the humans, bots for the rest: let the clock play the open hand to its settlement."""
    hand = open_hand(table)
    assert hand is not None and hand.status == "playing"
    for user in users:
        services.table_trustee(table_id=table.pk, user=user, on=True)
    for _ in range(80):  # the clock deals card by card: one pass a round
        run_clock(max_steps=1000)
        hand.refresh_from_db()
        if hand.status != "playing":
            break
        expire(hand)
    assert hand.status == "settled", hand.cancel_reason
    assert sum(hand.outcome["deltas"]) == 0 and ledger_check() == []
    return hand


def no_pot_moved() -> bool:
    """No coin ever went into or out of a table's carried pot, and no chain posted a release."""
    return (
        not LedgerEntry.objects.filter(account__code__startswith="escrow:table:").exists()
        and not LedgerTransaction.objects.filter(key__endswith=":pot-release").exists()
    )


def seated(table) -> list[int | None]:
    return list(Seat.objects.filter(table=table).order_by("index").values_list("user_id", flat=True))


def test_each_hand_starts_from_the_levels_and_declarer_the_last_one_reached(make_player):
    alice = make_player(coins=5000)
    table = sit_connected(alice, game_tier("shengji"))  # three bots fill the table
    order = seated(table)
    hand = play_out(table, [alice])
    assert hand.config.get("carry") is None and hand.state["first_hand"]  # 抢报 (004:4)
    started_risen = False
    while not started_risen:  # 换庄 (80–115) raises nobody: play on until some side has risen
        details = hand.outcome["details"]
        table.refresh_from_db()
        assert table.carry["pot"] == 0 and table.carry["min_players"] == 4
        assert table.carry["players"] == [p["user"] for p in hand.players] == order
        assert table.carry["levels"] == details["levels_after"]
        seating.table_ready(table_id=table.pk, user=alice)
        following = open_hand(table)
        assert following.number == hand.number + 1 and seated(table) == order  # partners keep their seats
        assert following.config["carry"]["levels"] == details["levels_after"]
        state = following.state
        assert state["levels"] == details["levels_after"] and not state["first_hand"]
        assert state["declarer"] == state["start"] == details["next_declarer"]  # 轮庄 (004:32-33)
        started_risen = state["levels"] != ["2", "2"]
        hand = play_out(table, [alice])
        assert hand.number <= 6, "five hands without anybody rising"
    assert no_pot_moved()


def test_a_player_leaving_ends_the_match_and_the_levels_start_again(make_player):
    game = (room_services.catalogue_sync(), Game.objects.get(slug="shengji"))[1]
    tier, _created = room_services.tier_ensure(game=game, bots_enabled=False, **demo_tiers_for(game)[0])
    players = [make_player(coins=5000) for _ in range(4)]
    for user in players:
        table = sit_connected(user, tier)
    table = Table.objects.get(pk=table.pk)
    first = play_out(table, players)
    table.refresh_from_db()
    assert table.carry is not None and table.carry["levels"] == first.outcome["details"]["levels_after"]

    leaver = Seat.objects.get(table=table, index=3).user
    seating.table_leave(table_id=table.pk, user=leaver)  # three of four: the chain ends
    table.refresh_from_db()
    assert table.carry is None and no_pot_moved() and ledger_check() == []
    newcomer = make_player(coins=5000)
    assert services.table_quick_start(tier_id=tier.pk, user=newcomer).pk == table.pk  # open again
    services.table_presence(table_id=table.pk, user=newcomer, connected=True)
    stayers = [u for u in players if u != leaver]
    for user in stayers:
        seating.table_ready(table_id=table.pk, user=user)
    fresh = open_hand(table)
    assert fresh.number == 2 and "carry" not in fresh.config
    assert fresh.state["levels"] == ["2", "2"] and fresh.state["first_hand"]  # a new match: 抢报 again
    play_out(table, [*stayers, newcomer])
    assert no_pot_moved()
