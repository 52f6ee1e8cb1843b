"""The reconciliation task records pass or fail with the offending rows; staff can run it from admin."""

import logging

import pytest
from celery.schedules import crontab
from django.conf import settings
from django.urls import reverse

from wallets.finance_models import ReconciliationRecord
from wallets.models import Account
from wallets.services import HOUSE_CODES, house_account, wallet_for_user, wallet_grant
from wallets.tasks import reconcile

pytestmark = pytest.mark.django_db


@pytest.fixture
def funded(player):
    # The house accounts as migrated (wallets 0003), also after a transactional test emptied the table.
    for code in HOUSE_CODES:
        house_account(code=code)
    wallet_grant(user=player, amount=1000, key="g", reason="start")
    return wallet_for_user(user=player)


def test_a_passing_run_records_pass_with_the_totals(funded):
    record = ReconciliationRecord.objects.get(pk=reconcile())
    assert record.passed is True
    assert record.trigger == "schedule"
    assert (record.transactions, record.entries) == (1, 2)
    assert record.totals == {"player": 1000, "cashier": -1000, "rake": 0, "bank": 0, "escrow": 0, "total": 0}
    assert record.problems == []


def test_a_broken_row_is_caught_recorded_and_logged_at_error(funded, caplog):
    Account.objects.filter(pk=funded.pk).update(balance=900)  # corrupt behind the service's back

    with caplog.at_level(logging.ERROR, logger="wallets.reconciliation"):
        record = ReconciliationRecord.objects.get(pk=reconcile())

    assert record.passed is False
    assert {
        "check": "balance",
        "row": f"account #{funded.pk} ({funded})",
        "message": "balance is 900 but its entries sum to 1000",
    } in record.problems
    assert record.totals["total"] == -100
    assert f"Ledger reconciliation #{record.pk} failed with 2 problem(s)" in caplog.text
    assert caplog.records[-1].levelno == logging.ERROR


def test_the_nightly_run_is_scheduled_at_three_in_the_site_timezone():
    entry = settings.CELERY_BEAT_SCHEDULE["wallets-reconcile"]
    assert entry["task"] == "wallets.reconcile"
    assert entry["schedule"] == crontab(hour=3, minute=0)
    assert settings.CELERY_TIMEZONE == settings.TIME_ZONE


def test_staff_run_it_now_from_admin(funded, make_player, client, django_capture_on_commit_callbacks):
    boss = make_player(username="boss", is_staff=True, is_superuser=True)
    client.force_login(boss)
    page = client.get(reverse("admin:wallets_reconciliationrecord_changelist"))
    assert "Run reconciliation now" in page.content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("admin:wallets_reconciliationrecord_run"))

    assert response.status_code == 302
    record = ReconciliationRecord.objects.get()
    assert (record.trigger, record.actor, record.passed) == ("manual", boss, True)
    assert "pass" in client.get(reverse("admin:wallets_reconciliationrecord_changelist")).content.decode()


def test_run_now_refuses_a_get(make_player, client):
    client.force_login(make_player(username="boss", is_staff=True, is_superuser=True))
    assert client.get(reverse("admin:wallets_reconciliationrecord_run")).status_code == 403
    assert not ReconciliationRecord.objects.exists()
