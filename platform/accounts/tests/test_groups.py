"""The staff groups created by the accounts data migration, with their permissions."""

import pytest
from django.contrib.auth.models import Group

pytestmark = pytest.mark.django_db

CRUD = ("add", "change", "delete", "view")
WALLETS_READ = {"wallets.view_account", "wallets.view_ledgertransaction", "wallets.view_ledgerentry"}
# Support and finance read the audit trail of staff changes (platform/staff/migrations).
AUDIT_READ = {"auditlog.view_logentry"}


def permissions_of(name: str) -> set[str]:
    group = Group.objects.get(name=name)
    return {
        f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.select_related("content_type")
    }


def test_operators_run_games_tiers_and_tables():
    held = permissions_of("operators")
    expected = {f"rooms.{a}_{m}" for m in ("game", "roomtier") for a in CRUD} | {
        f"tables.{a}_table" for a in CRUD
    }
    expected |= {"tables.view_seat", "tables.change_seat", "tables.view_hand", "tables.view_handaction"}
    assert expected <= held
    assert {p for p in held if not p.startswith(("rooms.", "tables."))} == set()
    assert "tables.delete_hand" not in held  # hand records are history, not operator data


def test_support_sees_and_edits_players_and_reads_wallets():
    held = permissions_of("support")
    assert (
        held
        == {"accounts.view_user", "accounts.change_user", "accounts.view_gamestats"}
        | WALLETS_READ
        | AUDIT_READ
    )


def test_finance_reads_the_ledger_only():
    held = permissions_of("finance")
    assert WALLETS_READ <= held
    assert all(p.startswith("wallets.view_") for p in held - AUDIT_READ), held
    assert AUDIT_READ <= held
    assert "wallets.move_money" not in held


def test_group_permissions_reach_a_member(django_user_model):
    clerk = django_user_model.objects.create_user(username="clerk", password="x", is_staff=True)
    clerk.groups.add(Group.objects.get(name="finance"))
    clerk = django_user_model.objects.get(pk=clerk.pk)
    assert clerk.has_perm("wallets.view_ledgerentry")
    assert not clerk.has_perm("wallets.change_account")
    assert not clerk.has_perm("accounts.change_user")
