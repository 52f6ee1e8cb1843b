"""Staff see the ledger read-only and move coins only through forms that call the services."""

import uuid
from platform.staff.testing import client_pass_second_factor

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from wallets.models import LedgerTransaction
from wallets.selectors import wallet_balance
from wallets.services import wallet_for_user, wallet_grant

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_en(client, make_player):
    admin = make_player(username="boss", is_staff=True, is_superuser=True)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    client.force_login(admin)
    client_pass_second_factor(client, admin)  # moving money needs the staff second factor
    client.user = admin
    return client


@pytest.fixture
def cashier_client(client, make_player):
    """A staff member allowed to move money but not a superuser."""
    staff = make_player(username="teller", is_staff=True)
    staff.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="wallets",
            codename__in=["move_money", "view_account", "view_ledgertransaction", "view_ledgerentry"],
        )
    )
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    client.force_login(staff)
    client_pass_second_factor(client, staff)  # moving money needs the staff second factor
    client.user = staff
    return client


def test_ledger_admin_pages_are_read_only(admin_client_en, player):
    txn = wallet_grant(user=player, amount=100, key="g", reason="start")
    wallet = wallet_for_user(user=player)
    for name in ("account", "ledgertransaction", "ledgerentry"):
        assert admin_client_en.get(reverse(f"admin:wallets_{name}_changelist")).status_code == 200
        assert admin_client_en.get(reverse(f"admin:wallets_{name}_add")).status_code == 403
    page = admin_client_en.get(reverse("admin:wallets_account_change", args=[wallet.pk])).content.decode()
    assert "Deposit / withdraw / adjust" in page and "Ledger entries" in page and 'name="_save"' not in page
    page = admin_client_en.get(
        reverse("admin:wallets_ledgertransaction_change", args=[txn.pk])
    ).content.decode()
    assert "Reverse" in page and 'name="_save"' not in page
    assert admin_client_en.post(reverse("admin:wallets_account_delete", args=[wallet.pk])).status_code == 403
    searched = admin_client_en.get(reverse("admin:wallets_ledgerentry_changelist"), {"q": player.username})
    assert searched.context["cl"].result_count == 1  # the player's leg, not the cashier's


def test_moving_money_needs_the_permission(client, make_player, player):
    wallet = wallet_for_user(user=player)
    staff = make_player(is_staff=True)
    client.force_login(staff)
    url = reverse("admin:wallets_account_move_money", args=[wallet.pk])
    assert client.get(url).status_code == 403
    assert (
        client.post(
            url, {"operation": "deposit", "amount": 5, "reason": "x", "key": uuid.uuid4()}
        ).status_code
        == 403
    )
    assert wallet_balance(user=player) == 0


def test_a_deposit_records_the_staff_actor_and_reason_and_a_double_submit_posts_once(cashier_client, player):
    wallet = wallet_for_user(user=player)
    url = reverse("admin:wallets_account_move_money", args=[wallet.pk])
    form_page = cashier_client.get(url).content.decode()
    key = form_page.split('name="key" value="')[1].split('"')[0]
    data = {"operation": "deposit", "amount": 5000, "reason": "bank transfer 42", "key": key}

    first = cashier_client.post(url, data, follow=True)
    second = cashier_client.post(url, data)

    assert first.redirect_chain[0][1] == 302 and second.status_code == 302
    assert wallet_balance(user=player) == 5000
    txn = LedgerTransaction.objects.get(key=f"staff:{key}")
    assert txn.kind == "deposit" and txn.actor == cashier_client.user and txn.memo == "bank transfer 42"
    assert (
        f"Posted transaction #{txn.pk}: Deposit of 5,000 coins for {player.username}."
        in first.content.decode()
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"operation": "deposit", "amount": 10, "reason": ""}, "This field is required."),
        (
            {"operation": "deposit", "amount": -10, "reason": "x"},
            "Deposits and withdrawals take a positive amount.",
        ),
        ({"operation": "adjustment", "amount": 0, "reason": "x"}, "The amount must not be zero."),
        ({"operation": "deposit", "amount": 1.5, "reason": "x"}, "Enter a whole number."),
        (
            {"operation": "withdrawal", "amount": 101, "reason": "cash out"},
            "has a balance of 100 coins and cannot pay 101",
        ),
    ],
)
def test_bad_staff_requests_show_an_error_and_change_nothing(cashier_client, player, data, message):
    wallet_grant(user=player, amount=100, key="g", reason="start")
    url = reverse("admin:wallets_account_move_money", args=[wallet_for_user(user=player).pk])

    response = cashier_client.post(url, {**data, "key": uuid.uuid4()})

    assert response.status_code == 200
    assert message in response.content.decode()
    assert wallet_balance(user=player) == 100 and LedgerTransaction.objects.count() == 1


def test_a_negative_adjustment_and_a_reversal_from_the_admin(cashier_client, player):
    wallet_grant(user=player, amount=100, key="g", reason="start")
    url = reverse("admin:wallets_account_move_money", args=[wallet_for_user(user=player).pk])
    cashier_client.post(
        url, {"operation": "adjustment", "amount": -30, "reason": "double bonus", "key": uuid.uuid4()}
    )
    adjustment = LedgerTransaction.objects.get(kind="adjustment")
    assert wallet_balance(user=player) == 70

    response = cashier_client.post(
        reverse("admin:wallets_ledgertransaction_reverse", args=[adjustment.pk]),
        {"reason": "adjusted the wrong player", "key": uuid.uuid4()},
    )

    assert response.status_code == 302
    assert wallet_balance(user=player) == 100
    page = cashier_client.get(response["Location"]).content.decode()
    reversal_pk = LedgerTransaction.objects.get(kind="reversal").pk
    assert f"Transaction #{adjustment.pk} reversed by #{reversal_pk}." in page
    reversal = LedgerTransaction.objects.get(kind="reversal")
    assert reversal.reversal_of == adjustment and reversal.actor == cashier_client.user


def test_a_cashier_cannot_move_coins_in_their_own_wallet(cashier_client):
    # Deposits, adjustments and reversals on one's own wallet are coins for oneself with no
    # second person: another cashier must post them.
    own = wallet_for_user(user=cashier_client.user)
    url = reverse("admin:wallets_account_move_money", args=[own.pk])
    response = cashier_client.post(
        url, {"operation": "deposit", "amount": 500, "reason": "bonus", "key": uuid.uuid4()}
    )
    assert response.status_code == 200
    assert "another staff member must post it" in response.content.decode()
    assert wallet_balance(user=cashier_client.user) == 0

    # Nor pay back their own withdrawal by reversing it.
    wallet_grant(user=cashier_client.user, amount=100, key="own-start", reason="start")
    from wallets.services import wallet_withdraw

    withdrawal = wallet_withdraw(user=cashier_client.user, amount=100, key="own-out", reason="cash out")
    response = cashier_client.post(
        reverse("admin:wallets_ledgertransaction_reverse", args=[withdrawal.pk]),
        {"reason": "oops", "key": uuid.uuid4()},
    )
    assert response.status_code == 200
    assert "another staff member must post it" in response.content.decode()
    assert wallet_balance(user=cashier_client.user) == 0
    assert not LedgerTransaction.objects.filter(kind="reversal").exists()
