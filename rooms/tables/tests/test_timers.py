"""The clock: the embedded in-process loop, the tick filling seats with bots, regrouping (分组)."""

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from rooms.tables import seating, services
from rooms.tables.models import Hand, Seat, Table
from rooms.tables.tests.test_consumers import next_of, open_socket  # noqa: F401
from rooms.tables.timers import clock_stop

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


async def test_the_embedded_timer_loop_plays_a_hand_with_no_click_and_no_tick(tier, make_player, settings):
    settings.TABLE_TIMERS = "all"
    settings.TABLE_TIMER_INTERVAL = 0.05
    alice = await sync_to_async(make_player)()
    table = await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=alice)
    comm = await open_socket(table.pk, alice)  # the first socket starts the loop
    try:
        await comm.send_json_to({"type": "trustee", "on": True})
        result = await next_of(comm, "result", timeout=15)
        assert result["hand"] == (await sync_to_async(Hand.objects.get)(table=table)).pk
        assert {s["index"] for s in result["seats"]} == {0, 1}
        assert sum(s["delta"] + s["rake"] for s in result["seats"]) == 0
    finally:
        await comm.disconnect()
        await clock_stop()


def test_a_lone_player_gets_bots_after_the_wait(tier, make_player, settings):
    settings.TABLE_BOT_WAIT = 5
    alice = make_player()
    table = services.table_quick_start(tier_id=tier.pk, user=alice)
    assert services.tables_tick() == 0
    assert not Hand.objects.exists()
    Seat.objects.filter(user=alice).update(seated_at=timezone.now() - timezone.timedelta(seconds=6))
    services.tables_tick()
    assert Seat.objects.filter(table=table, is_bot=True).count() == 1
    assert Hand.objects.get(table=table).status == "playing"


def test_without_bots_two_quick_starts_share_a_table(tier, make_player):
    tier.bots_enabled = False
    tier.save()
    alice, bob = make_player(), make_player()
    first = services.table_quick_start(tier_id=tier.pk, user=alice)
    assert not Hand.objects.exists()
    second = services.table_quick_start(tier_id=tier.pk, user=bob)
    assert first.pk == second.pk
    assert Hand.objects.get(table=first).status == "playing"


def test_ready_regroups_a_player_to_another_waiting_table_of_the_tier(tier, make_player, monkeypatch):
    tier.bots_enabled = False
    tier.save()
    alice, bob = make_player(), make_player()
    here = services.table_quick_start(tier_id=tier.pk, user=alice)
    # Bob sits alone at a second table of the tier, between hands and not ready.
    there = Table.objects.create(tier=tier, seat_count=2)
    Seat.objects.bulk_create([Seat(table=there, index=0, user=bob), Seat(table=there, index=1)])
    monkeypatch.setattr(seating.secrets, "choice", lambda options: options[-1])

    moved_to = services.table_ready(table_id=there.pk, user=bob)

    assert moved_to.pk == here.pk
    assert Seat.objects.get(user=bob).table_id == here.pk
    assert Table.objects.get(pk=there.pk).status == "closed"
    assert Hand.objects.get(table=here).status == "playing"


async def test_a_socket_whose_player_was_regrouped_is_told_where_to_go(tier, make_player, monkeypatch):
    tier.bots_enabled = False
    await sync_to_async(tier.save)()
    alice, bob = await sync_to_async(make_player)(), await sync_to_async(make_player)()
    here = await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=alice)

    def second_table():
        there = Table.objects.create(tier=tier, seat_count=2)
        Seat.objects.bulk_create([Seat(table=there, index=0, user=bob), Seat(table=there, index=1)])
        return there

    there = await sync_to_async(second_table)()
    comm = await open_socket(there.pk, bob)
    await next_of(comm, "state")
    monkeypatch.setattr(seating.secrets, "choice", lambda options: options[-1])
    await comm.send_json_to({"type": "ready"})
    moved = await next_of(comm, "moved")
    assert moved["table"] == here.pk and moved["url"] == f"/tables/{here.pk}/"
    await comm.disconnect()


def test_between_hands_a_player_long_gone_stands_up_and_the_table_closes(tier, make_player):
    tier.bots_enabled = False
    tier.save()
    alice = make_player()
    table = services.table_quick_start(tier_id=tier.pk, user=alice)
    services.table_presence(table_id=table.pk, user=alice, connected=True)
    services.table_presence(table_id=table.pk, user=alice, connected=False)
    services.tables_tick()
    assert Seat.objects.filter(user=alice).exists()  # a reload is not leaving

    Seat.objects.filter(user=alice).update(away_since=timezone.now() - timezone.timedelta(minutes=2))
    services.tables_tick()
    assert not Seat.objects.filter(user=alice).exists()
    assert Table.objects.get(pk=table.pk).status == "closed"


@pytest.mark.parametrize(("away_for", "stays"), [(2, True), (40, False)], ids=["reloading", "gone"])
def test_a_player_away_as_the_hand_ends_keeps_the_seat_within_the_grace(
    tier, make_player, settings, away_for, stays
):
    """A page reloading as the hand ends (or every page reconnecting after a Redis restart) is no leaving."""
    settings.TABLE_DISCONNECT_GRACE = 30
    tier.bots_enabled = False
    tier.save()
    alice, bob = make_player(), make_player()
    table = services.table_quick_start(tier_id=tier.pk, user=alice)
    services.table_quick_start(tier_id=tier.pk, user=bob)
    for user in (alice, bob):
        services.table_presence(table_id=table.pk, user=user, connected=True)
    by_index = {seat.index: seat.user for seat in Seat.objects.select_related("user").filter(table=table)}
    # Bob adds 1 and Alice 2, so Alice's move ends the hand; Bob's page is away before each of hers.
    while (hand := Hand.objects.get(table=table)).status == "playing":
        user = by_index[hand.state["turn"]]
        if user == alice:
            services.table_presence(table_id=table.pk, user=bob, connected=False)
            since = timezone.now() - timezone.timedelta(seconds=away_for)
            Seat.objects.filter(user=bob).update(away_since=since)
        services.table_act(
            table_id=table.pk, user=user, action={"type": "add", "n": 2 if user == alice else 1}
        )

    assert Hand.objects.get(table=table).status == "settled"
    assert Seat.objects.filter(table=table, user=bob).exists() is stays
    seat = Seat.objects.get(table=table, user=alice)
    assert (seat.connected, seat.ready) == (True, False)
