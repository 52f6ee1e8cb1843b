"""The audit trail (django-auditlog) of staff changes: who changed what, when, with the old and new values."""

import json
from platform.staff.testing import client_pass_second_factor

import pytest
from auditlog.models import LogEntry
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse

from rooms.models import Game, RoomTier
from wallets.models import LedgerTransaction
from wallets.services import wallet_for_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss(django_user_model):
    return django_user_model.objects.create_superuser(username="boss", password="pw-Secret-123")


@pytest.fixture
def tier(db):
    game = Game.objects.create(
        slug="doudizhu", name_zh="斗地主", name_en="Dou Dizhu", family="seated", min_seats=3, max_seats=3
    )
    return RoomTier.objects.create(
        game=game,
        code="novice",
        name="初级场",
        name_en="Novice room",
        base_stake=1,
        room_factor=1,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        seats=3,
        options={"variant": "classic"},
    )


def admin_form_data(response) -> dict:
    """Return what the admin change page would submit unchanged: the form's values and inline management data."""
    form = response.context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        if field.disabled:
            continue
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif isinstance(value, dict):  # a JSONField (a tier's options)
            data[name] = json.dumps(value)
        elif value is None:
            data[name] = ""
        else:
            data[name] = value
    for inline in response.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        for name in management.fields:
            data[f"{management.prefix}-{name}"] = management[name].value()
    return data


def entries_for(obj):
    return LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(obj), object_id=obj.pk
    ).order_by("pk")


def test_a_staff_change_of_a_tier_base_stake_is_audited_with_actor_and_values(client, boss, tier):
    client.force_login(boss)
    url = reverse("admin:rooms_roomtier_change", args=[tier.pk])
    data = admin_form_data(client.get(url))
    data["base_stake"] = 5

    response = client.post(url, data)

    assert response.status_code == 302, response.context["adminform"].form.errors
    tier.refresh_from_db()
    assert tier.base_stake == 5
    entry = entries_for(tier).get(action=LogEntry.Action.UPDATE)
    assert entry.actor == boss
    assert entry.changes_dict == {"base_stake": ["1", "5"]}
    assert entry.timestamp is not None


def test_a_staff_change_of_a_user_is_audited_and_the_password_hash_is_not(client, boss, django_user_model):
    alice = django_user_model.objects.create_user(username="alice", password="pw-Secret-123", nickname="阿丽")
    client.force_login(boss)
    url = reverse("admin:accounts_user_change", args=[alice.pk])
    data = admin_form_data(client.get(url))
    data["nickname"] = "小丽"
    data["is_staff"] = "on"
    data["groups"] = [Group.objects.get(name="support").pk]

    response = client.post(url, data)

    assert response.status_code == 302, response.context["adminform"].form.errors
    entries = entries_for(alice)
    update = entries.get(action=LogEntry.Action.UPDATE, changes__has_key="nickname")
    assert update.actor == boss
    assert update.changes_dict["nickname"] == ["阿丽", "小丽"]
    assert update.changes_dict["is_staff"] == ["False", "True"]
    groups = entries.get(changes__has_key="groups")
    assert groups.actor == boss
    assert groups.changes_dict["groups"]["objects"] == ["support"]

    # A password reset is recorded as a change, never with the hash itself.
    client.post(
        reverse("admin:auth_user_password_change", args=[alice.pk]),
        {"password1": "An0ther-Secret-9", "password2": "An0ther-Secret-9", "usable_password": "true"},
    )
    password = entries_for(alice).filter(changes__has_key="password").get()
    assert password.actor == boss
    assert password.changes_dict["password"] == ["********", "********"]
    alice.refresh_from_db()
    assert alice.password[:20] not in json.dumps(password.changes)


def test_changes_outside_a_staff_admin_request_are_not_audited(client, tier, django_user_model):
    # The runtime and the players change tiers, tables and users all day; only staff changes are the trail.
    tier.base_stake = 9
    tier.save()
    player = django_user_model.objects.create_user(username="punter", password="pw-Secret-123")
    client.force_login(player)
    client.get("/")
    assert not LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(RoomTier)).exists()
    assert not LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(player)).exists()


def test_a_staff_deposit_appears_in_the_audit_trail_linked_to_its_ledger_transaction(
    client, boss, django_user_model
):
    player = django_user_model.objects.create_user(username="punter", password="pw-Secret-123")
    client.force_login(boss)
    client_pass_second_factor(client, boss)
    url = reverse("admin:wallets_account_move_money", args=[wallet_for_user(user=player).pk])
    page = client.get(url).content.decode()
    key = page.split('name="key" value="')[1].split('"')[0]

    client.post(url, {"operation": "deposit", "amount": 700, "reason": "bank transfer 9", "key": key})

    txn = LedgerTransaction.objects.get(kind=LedgerTransaction.Kind.DEPOSIT)
    entry = entries_for(txn).get()
    assert entry.action == LogEntry.Action.CREATE
    assert entry.actor == boss
    assert entry.changes_dict["memo"][1] == txn.memo
    trail = client.get(reverse("admin:auditlog_logentry_changelist")).content.decode()
    assert reverse("admin:wallets_ledgertransaction_change", args=[txn.pk]) in trail


def test_the_audit_trail_is_read_only_and_open_to_support_but_not_to_other_staff(
    client, boss, tier, django_user_model
):
    client.force_login(boss)
    url = reverse("admin:rooms_roomtier_change", args=[tier.pk])
    data = admin_form_data(client.get(url))
    data["name"] = "新手场"
    client.post(url, data)
    entry = entries_for(tier).get()

    assert client.get(reverse("admin:auditlog_logentry_changelist")).status_code == 200
    assert client.get(reverse("admin:auditlog_logentry_add")).status_code == 403
    assert client.post(reverse("admin:auditlog_logentry_delete", args=[entry.pk])).status_code == 403
    assert LogEntry.objects.filter(pk=entry.pk).exists()

    helper = django_user_model.objects.create_user(username="helper", password="pw-Secret-123", is_staff=True)
    helper.groups.add(Group.objects.get(name="support"))
    client.force_login(helper)
    assert client.get(reverse("admin:auditlog_logentry_changelist")).status_code == 200

    clerk = django_user_model.objects.create_user(username="clerk", password="pw-Secret-123", is_staff=True)
    client.force_login(clerk)
    assert client.get(reverse("admin:auditlog_logentry_changelist")).status_code == 403


def test_a_hot_service_block_skips_auditlogs_reads_outside_a_staff_request_and_not_inside(tier):
    """``audit_staff_only``: outside a staff request a save is one UPDATE (the gate drops the entry
    anyway); in a staff member's admin request the change is audited as before."""
    from platform.staff import audit

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with audit.audit_staff_only(), CaptureQueriesContext(connection) as queries:
        tier.base_stake = 2
        tier.save(update_fields=["base_stake"])
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["UPDATE"]
    assert not entries_for(tier).exists()

    token = audit._staff_request.set(True)
    try:
        with audit.audit_staff_only():
            tier.base_stake = 3
            tier.save(update_fields=["base_stake"])
    finally:
        audit._staff_request.reset(token)
    assert [entry.changes_dict["base_stake"] for entry in entries_for(tier)] == [["2", "3"]]
