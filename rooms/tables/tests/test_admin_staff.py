"""Staff screens for tables and hands: what a staff login may change, and what nobody may delete."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from rooms.tables import services
from rooms.tables.models import HandAction, Seat, Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


@pytest.fixture
def waiting_table(tier, make_player):
    """A waiting table with one player and one empty seat (the tier fills no bots by itself)."""
    tier.bots_enabled = False
    tier.save(update_fields=["bots_enabled"])
    alice = make_player(coins=5000)
    table = services.table_quick_start(tier_id=tier.pk, user=alice)
    assert Seat.objects.filter(table=table, user__isnull=True).count() == 1
    return table


def _staff_with(django_user_model, *codenames):
    user = django_user_model.objects.create_user(username="viewer", password="pw-Secret-123", is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="tables", codename__in=codenames)
    )
    return user


def test_staff_who_may_only_view_tables_cannot_fill_them_with_bots(client, django_user_model, waiting_table):
    # Seating bots changes a live table and tops their wallets up with granted coins.
    client.force_login(_staff_with(django_user_model, "view_table"))
    page = client.get(reverse("admin:tables_table_changelist"))
    assert page.status_code == 200 and "fill_with_bots" not in page.content.decode()
    client.post(
        reverse("admin:tables_table_changelist"),
        {"action": "fill_with_bots", "_selected_action": [waiting_table.pk]},
    )
    assert Seat.objects.filter(table=waiting_table, is_bot=True).count() == 0


def test_staff_who_may_change_tables_fill_them_with_bots(client, django_user_model, waiting_table):
    client.force_login(_staff_with(django_user_model, "view_table", "change_table"))
    client.post(
        reverse("admin:tables_table_changelist"),
        {"action": "fill_with_bots", "_selected_action": [waiting_table.pk]},
    )
    assert Seat.objects.filter(table=waiting_table, is_bot=True).count() == 1


@pytest.fixture
def superuser_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser(username="boss", password="pw-Secret-123"))
    return client


@pytest.fixture
def played_table(tier, make_player):
    """A table whose first hand was played to settlement (bots and 托管), with its action log."""
    from rooms.tables.tests.helpers import open_hand, play_until_over, sit_connected

    alice = make_player(coins=5000)
    table = sit_connected(alice, tier)
    services.table_trustee(table_id=table.pk, user=alice, on=True)
    hand = play_until_over(open_hand(table).pk)
    assert hand.status == "settled" and hand.actions.exists()
    return table


def test_nobody_deletes_a_hands_action_log_in_admin(superuser_client, played_table):
    # The log is what a disputed hand is replayed from; its settlement already moved coins.
    action = HandAction.objects.filter(hand__table=played_table).first()
    count = HandAction.objects.filter(hand=action.hand).count()
    url = reverse("admin:tables_handaction_delete", args=[action.pk])
    assert superuser_client.post(url, {"post": "yes"}).status_code == 403
    bulk = superuser_client.post(
        reverse("admin:tables_handaction_changelist"),
        {"action": "delete_selected", "_selected_action": [action.pk], "post": "yes"},
    )
    assert bulk.status_code in (200, 302)
    assert HandAction.objects.filter(hand=action.hand).count() == count


def test_nobody_adds_or_deletes_a_table_in_admin(superuser_client, waiting_table):
    # A table has no field staff could fill: saving the add form failed with a server error.
    assert superuser_client.get(reverse("admin:tables_table_add")).status_code == 403
    assert superuser_client.post(reverse("admin:tables_table_add"), {}).status_code == 403
    # Deleting a table would unseat its players behind the runtime's back (seats cascade).
    url = reverse("admin:tables_table_delete", args=[waiting_table.pk])
    assert superuser_client.post(url, {"post": "yes"}).status_code == 403
    assert Table.objects.filter(pk=waiting_table.pk).exists()
    assert Seat.objects.filter(table=waiting_table, user__isnull=False).count() == 1


def _hand_list_queries(client) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("admin:tables_hand_changelist")).status_code == 200
    return len(queries)


def test_the_hand_list_reads_the_same_number_of_rows_however_many_hands_it_shows(
    superuser_client, played_table, tier, make_player
):
    # Each row links its settlement transaction; looking each one up made a page of 100
    # hands 100 extra reads.
    from rooms.tables.models import Hand
    from rooms.tables.tests.helpers import open_hand, play_until_over

    one = _hand_list_queries(superuser_client)
    alice = Seat.objects.get(table=played_table, is_bot=False).user
    services.table_leave(table_id=played_table.pk, user=alice)  # bob's quick starts open tables of his own
    bob = make_player(coins=5000)
    for _ in range(2):
        table = services.table_quick_start(tier_id=tier.pk, user=bob)
        services.table_presence(table_id=table.pk, user=bob, connected=True)
        services.table_trustee(table_id=table.pk, user=bob, on=True)
        play_until_over(open_hand(table).pk)
        services.table_leave(table_id=table.pk, user=bob)
    hands = Hand.objects.filter(status="settled")
    assert hands.count() == 3
    assert _hand_list_queries(superuser_client) == one
    page = superuser_client.get(reverse("admin:tables_hand_changelist")).content.decode()
    for hand in hands:
        assert hand.settlement_key in page and "/admin/wallets/ledgertransaction/" in page


def _writes(captured, table_name: str) -> list[str]:
    return [q["sql"] for q in captured.captured_queries if q["sql"].startswith(f'UPDATE "{table_name}"')]


def _save(client, url: str):
    """Post the change page back as a browser would: its hidden inputs (the inlines' forms), and Save."""
    import re

    page = client.get(url).content.decode()
    data = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
    data.pop("csrfmiddlewaretoken", None)
    return client.post(url, {**data, "_save": "Save"})


def test_saving_a_table_or_hand_page_writes_nothing_over_the_runtime(admin_client, tier, make_player):
    """Their fields are all read-only; a save wrote back the copy it read, over a move made meanwhile."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from rooms.tables.tests.helpers import open_hand, sit_connected

    table = sit_connected(make_player(coins=5000), tier)
    hand = open_hand(table)
    with CaptureQueriesContext(connection) as captured:
        saved = _save(admin_client, reverse("admin:tables_table_change", args=[table.pk]))
        _save(admin_client, reverse("admin:tables_hand_change", args=[hand.pk]))
    assert saved.status_code == 302  # accepted, as before: only nothing is written
    assert _writes(captured, "tables_table") == []
    assert _writes(captured, "tables_hand") == []
    assert "fill_with_bots" in admin_client.get(reverse("admin:tables_table_changelist")).content.decode()
