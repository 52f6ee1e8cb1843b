"""Log-in lockout: a username from one address, an address after more failures; strangers lock out nobody."""

from platform.accounts.services import user_create
from platform.accounts.tests.conftest import PASSWORD

import pytest
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

LOCKED = "Too many failed log-ins"
PAIR_LOCKED = "Logging in to this account from your address is locked after 5 wrong passwords."
ADDRESS_LOCKED = "Logging in from your address is locked after 30 wrong passwords for any accounts."


def log_in(username: str, password: str, address: str, **headers):
    """Post the log-in form from a fresh browser at ``address`` (REMOTE_ADDR, the TCP peer)."""
    client = Client()
    client.cookies["django_language"] = "en"
    response = client.post(
        reverse("accounts:login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **headers,
    )
    response.logged_in = SESSION_KEY in client.session
    return response


def test_the_sixth_attempt_from_the_same_address_is_refused_even_with_the_right_password(player, settings):
    assert settings.AXES_FAILURE_LIMIT == 5
    for attempt in range(1, 5):
        response = log_in("alice", f"wrong-{attempt}", "10.0.0.1")
        assert response.status_code == 200, attempt
        assert LOCKED not in response.content.decode()
    assert log_in("alice", "wrong-5", "10.0.0.1").status_code == 429

    sixth = log_in("alice", PASSWORD, "10.0.0.1")

    assert sixth.status_code == 429
    assert PAIR_LOCKED + " Please try again in 15 minutes." in sixth.content.decode()
    assert not sixth.logged_in


def test_strangers_at_five_addresses_do_not_lock_the_owner_out(player):
    for attempt in range(5):
        assert log_in("alice", f"wrong-{attempt}", f"203.0.113.{attempt + 1}").status_code == 200

    response = log_in("alice", PASSWORD, "198.51.100.7")

    assert response.status_code == 302
    assert response.logged_in


def test_a_stranger_locked_out_at_one_address_leaves_the_owner_free_elsewhere(player):
    for attempt in range(6):
        log_in("alice", f"wrong-{attempt}", "203.0.113.50")
    assert PAIR_LOCKED in log_in("alice", PASSWORD, "203.0.113.50").content.decode()

    assert log_in("alice", PASSWORD, "198.51.100.7").logged_in
    # And the locked address may still log in to other accounts.
    user_create(username="bob", password=PASSWORD)
    assert log_in("bob", PASSWORD, "203.0.113.50").logged_in


def test_a_staff_account_is_not_locked_out_by_strangers_either(player, django_user_model):
    from platform.staff.otp import otp_enrol
    from platform.staff.testing import current_totp

    from django_otp.plugins.otp_totp.models import TOTPDevice

    django_user_model.objects.create_user(username="boss", password=PASSWORD, is_staff=True)
    otp_enrol(user=django_user_model.objects.get(username="boss"))
    for attempt in range(10):
        log_in("boss", f"guess-{attempt}", f"203.0.113.{attempt + 1}")

    device = TOTPDevice.objects.get(user__username="boss")
    client = Client()
    response = client.post(
        reverse("accounts:login"),
        {"username": "boss", "password": PASSWORD, "otp_token": current_totp(device)},
        REMOTE_ADDR="198.51.100.7",
    )
    assert response.status_code == 302
    assert SESSION_KEY in client.session


def test_an_address_guessing_at_many_accounts_is_locked_for_every_account(player, settings):
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT == 30
    for attempt in range(29):
        assert log_in(f"guess{attempt}", "whatever", "10.0.3.3").status_code == 200, attempt
    assert log_in("guess29", "whatever", "10.0.3.3").status_code == 429

    response = log_in("alice", PASSWORD, "10.0.3.3")

    assert response.status_code == 429
    assert ADDRESS_LOCKED + " Please try again in 15 minutes." in response.content.decode()
    assert not response.logged_in
    assert log_in("alice", PASSWORD, "10.0.3.4").logged_in


def test_logging_in_to_ones_own_account_does_not_reset_the_addresss_count(player):
    user_create(username="mallory", password=PASSWORD)
    for attempt in range(29):
        log_in(f"victim{attempt % 4}", "guess", "10.0.5.5")
    assert log_in("mallory", PASSWORD, "10.0.5.5").logged_in

    assert log_in("victim9", "guess", "10.0.5.5").status_code == 429


def test_a_success_before_the_limit_resets_that_accounts_count(player):
    for attempt in range(4):
        log_in("alice", f"wrong-{attempt}", "10.0.4.4")
    assert log_in("alice", PASSWORD, "10.0.4.4").logged_in

    for attempt in range(4):
        assert log_in("alice", f"again-{attempt}", "10.0.4.4").status_code == 200
    assert log_in("alice", PASSWORD, "10.0.4.4").logged_in


# --- forwarded addresses ------------------------------------------------------------------


def test_without_trusted_proxies_a_forwarded_address_changes_nothing(player, settings):
    settings.TRUSTED_PROXIES = []
    for attempt in range(5):
        log_in("alice", f"wrong-{attempt}", "10.0.6.6", HTTP_X_FORWARDED_FOR=f"198.51.100.{attempt}")

    # Five forged client addresses were one peer: that peer is locked for alice, whatever it claims.
    response = log_in("alice", PASSWORD, "10.0.6.6", HTTP_X_FORWARDED_FOR="192.0.2.200")
    assert response.status_code == 429
    assert log_in("alice", PASSWORD, "10.0.6.7").logged_in


def test_behind_a_trusted_proxy_each_forwarded_client_counts_alone(player, settings):
    settings.TRUSTED_PROXIES = ["10.9.0.0/16"]
    proxy = "10.9.0.2"
    for attempt in range(5):
        log_in("alice", f"wrong-{attempt}", proxy, HTTP_X_FORWARDED_FOR=f"203.0.113.{attempt + 1}")

    # The same proxy's other clients, the owner among them, are not locked out.
    owner = log_in("alice", PASSWORD, proxy, HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert owner.status_code == 302 and owner.logged_in


def test_behind_a_trusted_proxy_a_client_cannot_forge_its_address(player, settings):
    settings.TRUSTED_PROXIES = ["10.9.0.0/16"]
    # The client writes a fresh fake address each time; the proxy appends the real one.
    for attempt in range(5):
        log_in(
            "alice",
            f"wrong-{attempt}",
            "10.9.0.2",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{attempt}, 203.0.113.66",
        )

    response = log_in("alice", PASSWORD, "10.9.0.2", HTTP_X_FORWARDED_FOR="192.0.2.99, 203.0.113.66")
    assert response.status_code == 429
    assert PAIR_LOCKED in response.content.decode()


def test_ipv6_clients_count_per_64(player):
    for attempt in range(5):
        log_in("alice", f"wrong-{attempt}", f"2001:db8:1:2::{attempt + 1:x}")

    assert log_in("alice", PASSWORD, "2001:db8:1:2:aaaa::9").status_code == 429
    assert log_in("alice", PASSWORD, "2001:db8:1:3::1").logged_in
