"""Sign-up is limited per address and time window; the limits are settings."""

import threading
from datetime import timedelta
from platform.accounts.models import SignUp, User
from platform.accounts.services import user_create
from platform.accounts.tests.conftest import PASSWORD

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import F
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

LIMITED = "Too many accounts were made from your address recently. Please try again in"


def sign_up(username: str, address: str, **headers):
    client = Client()
    client.cookies["django_language"] = "en"
    return client.post(
        reverse("accounts:signup"),
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR=address,
        **headers,
    )


def test_forty_sign_ups_from_one_address_make_three_accounts(settings):
    assert (settings.SIGNUP_PER_ADDRESS, settings.SIGNUP_WINDOW_MINUTES) == (3, 60)

    statuses = [sign_up(f"farm{n}", "203.0.113.9").status_code for n in range(40)]

    assert statuses[:3] == [302, 302, 302]
    assert set(statuses[3:]) == {429}
    assert User.objects.filter(username__startswith="farm").count() == 3
    refused = sign_up("farm99", "203.0.113.9")
    assert LIMITED + " 60 minutes." in refused.content.decode()
    # Another address signs up as usual.
    assert sign_up("neighbour", "203.0.113.10").status_code == 302


def test_the_window_reopens_as_the_oldest_sign_up_ages_out(settings):
    for n in range(3):
        assert sign_up(f"early{n}", "203.0.113.9").status_code == 302
    earliest = SignUp.objects.filter(user__username="early0")
    earliest.update(created_at=F("created_at") - timedelta(minutes=45))

    refused = sign_up("late0", "203.0.113.9")
    assert LIMITED + " 15 minutes." in refused.content.decode()

    earliest.update(created_at=F("created_at") - timedelta(minutes=16))
    assert sign_up("late1", "203.0.113.9").status_code == 302


def test_the_limits_are_settings(settings):
    settings.SIGNUP_PER_ADDRESS = 1
    settings.SIGNUP_WINDOW_MINUTES = 5
    assert sign_up("one", "203.0.113.9").status_code == 302
    assert LIMITED + " 5 minutes." in sign_up("two", "203.0.113.9").content.decode()

    settings.SIGNUP_PER_ADDRESS = 0  # no limit
    assert sign_up("three", "203.0.113.9").status_code == 302


def test_a_forged_forwarded_address_does_not_reset_the_count(settings):
    settings.TRUSTED_PROXIES = []
    for n in range(3):
        sign_up(f"fwd{n}", "203.0.113.9", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}")
    assert sign_up("fwd3", "203.0.113.9", HTTP_X_FORWARDED_FOR="198.51.100.77").status_code == 429


def test_behind_a_trusted_proxy_each_client_has_its_own_count(settings):
    settings.TRUSTED_PROXIES = ["10.9.0.0/16"]
    for n in range(3):
        assert sign_up(f"viaproxy{n}", "10.9.0.2", HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 302
    assert sign_up("viaproxy3", "10.9.0.2", HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 429
    assert sign_up("other", "10.9.0.2", HTTP_X_FORWARDED_FOR="198.51.100.2").status_code == 302


def test_an_ipv6_64_counts_as_one_address():
    for n in range(3):
        assert sign_up(f"six{n}", f"2001:db8:5:6::{n + 1}").status_code == 302
    assert sign_up("six3", "2001:db8:5:6:ffff::1").status_code == 429
    assert sign_up("six4", "2001:db8:5:7::1").status_code == 302


def test_staff_tools_creating_players_are_not_limited():
    for n in range(5):
        user_create(username=f"staffmade{n}", password=PASSWORD)
    assert User.objects.filter(username__startswith="staffmade").count() == 5


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_simultaneous_sign_ups_from_one_address_still_make_three(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    start = threading.Barrier(8)
    outcomes: list[str] = []

    def one(n: int) -> None:
        try:
            start.wait(timeout=10)
            user_create(username=f"burst{n}", password=PASSWORD, address="203.0.113.40")
            outcomes.append("created")
        except ValidationError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert sorted(outcomes) == ["created"] * 3 + ["signup_rate_limited"] * 5
    assert SignUp.objects.filter(address="203.0.113.40").count() == 3
