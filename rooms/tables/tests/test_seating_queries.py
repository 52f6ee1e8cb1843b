"""What quick start, filling with bots and leaving cost the database, and that they broadcast what a resync reads.

As a press of ready (``test_queries.py``): these build their broadcast from
the seats they locked and the hand they dealt (or the table's latest one),
not from ``load_context``, and run under ``audit_staff_only()``, so no saved
seat pays auditlog's read of its old row outside a staff member's request.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rooms.tables import broadcast, services
from rooms.tables.models import Seat, Table
from rooms.tables.tests.helpers import open_hand
from rooms.tables.tests.test_queries import _between_hands, _fresh_states, _sent, _statements

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]

# Leaving between hands: lock the table and bump its seq, lock the player's seat (with the
# balance the entry check of a ready reads), clear it, lock the seats, read the latest hand and
# the balances and wins for the broadcast. Before 1 Dec: 11, one of them auditlog's read of the
# seat's old row, and the broadcast's table, seats and hands read again (load_context).
STATEMENTS_PER_LEAVE = 6
# A quick start: the tier's lock, the user's current seat, the wallet's balance (entry rule), the
# tier's waiting tables locked, their humans and free seats (or a new table and its seats), the
# seats' lock, the seat's UPDATE, the latest hand, the seq's bump, the balances and wins; the
# one that deals instead of the last two reads the deal's (hands.hand_start, test_queries.py).
# Before 1 Dec: 16–17 and 36, auditlog's read per saved seat and table and load_context's reads.
STATEMENTS_PER_QUICK_START = 11
STATEMENTS_PER_DEALING_QUICK_START = 14


def _frames(sent) -> dict:
    return {group: message["events"][0] for group, message in sent}


@pytest.fixture
def audit_reads(monkeypatch) -> list:
    """The models whose old row auditlog reads before a save (its ``log_update`` receiver), in order."""
    from auditlog import receivers

    reads: list = []
    manager_for = receivers._get_manager_from_settings

    def counting(model):
        reads.append(model._meta.label)
        return manager_for(model)

    monkeypatch.setattr(receivers, "_get_manager_from_settings", counting)
    return reads


def test_quick_starts_broadcast_what_a_resync_reads(ddz_tier, make_player, monkeypatch, audit_reads):
    ddz_tier.bots_enabled = False
    ddz_tier.save(update_fields=["bots_enabled"])
    sent = _sent(monkeypatch)
    for n in range(1, 4):
        user = make_player(coins=5000)
        sent.clear()
        audit_reads.clear()
        table = services.table_quick_start(tier_id=ddz_tier.pk, user=user)
        assert not audit_reads
        fresh = _fresh_states(table)
        assert _frames(sent) == fresh
        watch = fresh[broadcast.watch_group(table.pk)]
        assert [s["name"] is not None for s in watch["table"]["seats"]] == [i < n for i in range(3)]
    assert watch["hand"]["number"] == 1 and [s["carried"] for s in watch["table"]["seats"]] == [5000] * 3


def test_a_quick_start_that_fills_with_bots_and_deals_broadcasts_what_a_resync_reads(
    ddz_tier, make_player, monkeypatch, audit_reads
):
    user = make_player(coins=5000)
    sent = _sent(monkeypatch)
    audit_reads.clear()
    table = services.table_quick_start(tier_id=ddz_tier.pk, user=user)
    assert not audit_reads
    fresh = _fresh_states(table)
    assert _frames(sent) == fresh
    seats = fresh[broadcast.watch_group(table.pk)]["table"]["seats"]
    assert [s["is_bot"] for s in seats] == [False, True, True]
    assert open_hand(table).status == "playing"


def test_filling_with_bots_after_the_wait_broadcasts_what_a_resync_reads(
    ddz_tier, make_player, monkeypatch, settings, audit_reads
):
    settings.TABLE_BOT_WAIT = 60
    table = services.table_quick_start(tier_id=ddz_tier.pk, user=make_player(coins=5000))
    assert open_hand(table) is None
    sent = _sent(monkeypatch)
    audit_reads.clear()
    assert services.table_fill_bots(table_id=table.pk) == 2
    assert not audit_reads
    assert _frames(sent) == _fresh_states(table)
    assert open_hand(table).status == "playing"


@pytest.mark.postgres  # the written-out statements; another database runs the querysets
def test_leaving_costs_a_fixed_number_of_statements_and_broadcasts_what_a_resync_reads(
    human_table, monkeypatch
):
    players = _between_hands(human_table)
    sent = _sent(monkeypatch)
    with CaptureQueriesContext(connection) as queries:
        services.table_leave(table_id=human_table.pk, user=players[0])
    assert len(_statements(queries)) == STATEMENTS_PER_LEAVE, _statements(queries)
    fresh = _fresh_states(human_table)
    assert _frames(sent) == fresh
    watch = fresh[broadcast.watch_group(human_table.pk)]
    assert [s["name"] is not None for s in watch["table"]["seats"]] == [False, True, True]
    assert watch["hand"] is None and watch["last_hand"]["status"] == "cancelled"


def test_the_last_human_leaving_closes_the_table_and_broadcasts_what_a_resync_reads(
    ddz_tier, make_player, monkeypatch, audit_reads
):
    user = make_player(coins=5000)
    table = services.table_quick_start(tier_id=ddz_tier.pk, user=user)
    services.table_presence(table_id=table.pk, user=user, connected=True)  # else the cancel stands them up
    services.hand_cancel(hand_id=open_hand(table).pk, reason="test")
    sent = _sent(monkeypatch)
    audit_reads.clear()
    services.table_leave(table_id=table.pk, user=user)
    assert not audit_reads
    assert _frames(sent) == _fresh_states(table)
    assert Table.objects.get(pk=table.pk).status == Table.Status.CLOSED
    assert not Seat.objects.filter(table=table, user__isnull=False).exists()


def test_a_staff_members_fill_is_still_audited(ddz_tier, make_player, settings):
    """In an admin request the seats' changes keep their audit entries (audit_staff_only lets them through)."""
    from platform.staff.audit import _staff_request

    from auditlog.models import LogEntry
    from django.contrib.contenttypes.models import ContentType

    settings.TABLE_BOT_WAIT = 60
    table = services.table_quick_start(tier_id=ddz_tier.pk, user=make_player(coins=5000))
    seats = LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(Seat))
    assert not seats.exists()
    token = _staff_request.set(True)
    try:
        services.table_fill_bots(table_id=table.pk)
    finally:
        _staff_request.reset(token)
    assert seats.filter(action=LogEntry.Action.UPDATE).count() == 2


@pytest.mark.postgres  # the written-out statements; another database runs the querysets
def test_a_quick_start_costs_a_fixed_number_of_statements(ddz_tier, make_player):
    from wallets.services import house_account

    house_account(code="escrow")  # made by the first stake ever posted otherwise (two statements more)
    ddz_tier.bots_enabled = False
    ddz_tier.save(update_fields=["bots_enabled"])
    counts = []
    for _ in range(3):
        user = make_player(coins=5000)
        with CaptureQueriesContext(connection) as queries:
            services.table_quick_start(tier_id=ddz_tier.pk, user=user)
        counts.append(len(_statements(queries)))
    assert counts == [STATEMENTS_PER_QUICK_START] * 2 + [STATEMENTS_PER_DEALING_QUICK_START], counts
