"""Abuse of seating and the coins at stake: what a hostile player tries between hands.

test_abuse.py covers hostile socket messages; here the player plays by the
protocol and bends the money rules instead: an account that passes for a bot,
and a wallet emptied after sitting down.
"""

from __future__ import annotations

import pytest

from rooms.tables import services
from rooms.tables.models import Hand, Seat
from wallets.selectors import wallet_balance

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_tables")]


def test_a_players_account_named_like_a_bot_is_never_seated_or_funded_as_a_bot(ddz_tier, make_player):
    """A person named ``bot_...`` (made before sign-up refused the name, or by staff) stays a person.

    bot_acquire took any free user whose name starts with ``bot_``: such a
    player, broke, was seated as a bot and topped up from the cashier.
    """
    from django.contrib.auth import get_user_model

    mallory = get_user_model().objects.create_user(username="bot_mallory", password="pw-Secret-123")
    assert wallet_balance(user=mallory) == 0
    alice = make_player(coins=5000)

    table = services.table_quick_start(tier_id=ddz_tier.pk, user=alice)

    seated = list(Seat.objects.filter(table=table).values_list("user__username", "is_bot"))
    assert ("bot_mallory", True) not in seated
    assert not Seat.objects.filter(user=mallory).exists()
    assert wallet_balance(user=mallory) == 0
    hand = Hand.objects.get(table=table)
    assert [p["is_bot"] for p in hand.players].count(True) == 2
    assert mallory.pk not in [p["user"] for p in hand.players]


def test_a_wallet_emptied_after_sitting_down_deals_no_hand_with_it(ddz_tier, make_player, settings):
    """Sit down with the minimum, then bet it away at 百家乐 while waiting: no hand starts with that seat.

    Quick start and ``ready`` check the tier's minimum; the hand's start did not,
    so the player carried 50 (or 0) coins into a 100-coin room, risking nothing.
    """
    from rooms.errors import EntryRefused
    from rooms.rounds.services import round_bet
    from rooms.rounds.tests.conftest import committing, make_tier, open_round
    from wallets.models import LedgerTransaction

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    ddz_tier.bots_enabled = False
    ddz_tier.save(update_fields=["bots_enabled"])
    alice, bob, carol = (make_player(coins=5000) for _ in range(3))
    table = services.table_quick_start(tier_id=ddz_tier.pk, user=alice)
    assert services.table_quick_start(tier_id=ddz_tier.pk, user=bob) == table
    baccarat, rnd = open_round(make_tier(), bob)
    with committing():
        round_bet(table_id=baccarat.pk, user=bob, area="banker", amount=4950)
    assert wallet_balance(user=bob) == 50
    stakes = LedgerTransaction.objects.filter(kind="stake").count()

    with committing():
        assert services.table_quick_start(tier_id=ddz_tier.pk, user=carol) == table

    assert not Hand.objects.filter(table=table).exists()
    assert LedgerTransaction.objects.filter(kind="stake").count() == stakes
    ready = dict(Seat.objects.filter(table=table).values_list("user_id", "ready"))
    assert ready == {alice.pk: True, bob.pk: False, carol.pk: True}
    table.refresh_from_db()
    assert table.status == "waiting"
    with pytest.raises(EntryRefused, match="needs at least 100 coins to enter; your balance is 50"):
        services.table_ready(table_id=table.pk, user=bob)
    assert [wallet_balance(user=u) for u in (alice, bob, carol)] == [5000, 50, 5000]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_ready_does_not_regroup_a_player_to_a_table_whose_hand_just_started(
    tier, make_player, settings, monkeypatch
):
    """分组 picks among the tier's waiting tables; one that starts its hand meanwhile is no longer one.

    ``table_ready`` listed the waiting tables with a ready human, then locked
    them, without asking again whether they were still waiting: a table whose
    hand started in between (here its bot arrives and deals) was taken, and
    seating the player there failed (no free seat at a table in play), so the
    ready broke with a server error instead of keeping the player where they were.
    """
    import threading

    from django.db import connection
    from django.utils import timezone

    from rooms.tables import seating
    from rooms.tables.models import Table

    settings.TABLE_BOT_WAIT = 60  # bots come only when the test says so
    alice, bob = make_player(coins=5000), make_player(coins=5000)
    mine = services.table_quick_start(tier_id=tier.pk, user=alice)
    theirs = Table.objects.create(tier=tier, seat_count=2)
    Seat.objects.bulk_create([Seat(table=theirs, index=i) for i in range(2)])
    Seat.objects.filter(table=theirs, index=0).update(user=bob, ready=True, seated_at=timezone.now())
    monkeypatch.setattr(seating.secrets, "choice", lambda choices: choices[-1])  # another table if any

    def start_theirs_first(execute, sql, params, many, context):
        # Between listing the waiting tables and locking them, the other table's bot sits down
        # and its hand starts (another transaction, committed).
        if "SKIP LOCKED" in sql and not started:
            started.append(True)
            worker = threading.Thread(target=_fill_and_close, args=(theirs.pk,))
            worker.start()
            worker.join()
        return execute(sql, params, many, context)

    started: list[bool] = []
    with connection.execute_wrapper(start_theirs_first):
        where = services.table_ready(table_id=mine.pk, user=alice)

    assert started
    assert where == mine
    assert Seat.objects.get(user=alice).table_id == mine.pk
    assert Seat.objects.get(user=alice).ready is True
    theirs.refresh_from_db()
    assert theirs.status == "playing"
    hand = Hand.objects.get(table=theirs)
    assert [p["user"] for p in hand.players][0] == bob.pk and hand.players[1]["is_bot"]


def _fill_and_close(table_id: int) -> None:
    from django.db import connection

    try:
        assert services.table_fill_bots(table_id=table_id) == 1
    finally:
        connection.close()
