"""django-axes: repeated failed log-ins lock the account and the address, with a clear message."""

from platform.accounts.tests.conftest import PASSWORD

import pytest
from django.contrib.auth import SESSION_KEY
from django.urls import reverse

pytestmark = pytest.mark.django_db

LOCKED = "Too many failed log-ins"


def log_in(client, username: str, password: str, address: str):
    return client.post(
        reverse("accounts:login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_sixth_attempt_is_refused_even_with_the_right_password(browser, player, settings):
    assert settings.AXES_FAILURE_LIMIT == 5
    for attempt in range(1, 5):
        response = log_in(browser, "alice", f"wrong-{attempt}", "10.0.0.1")
        assert response.status_code == 200, attempt
        assert LOCKED not in response.content.decode()

    fifth = log_in(browser, "alice", "wrong-5", "10.0.0.1")
    assert fifth.status_code == 429

    sixth = log_in(browser, "alice", PASSWORD, "10.0.0.1")

    assert sixth.status_code == 429
    page = sixth.content.decode()
    assert LOCKED in page
    assert "after 5 wrong passwords. Please try again in 15 minutes." in page
    assert SESSION_KEY not in browser.session


def test_the_account_is_locked_from_another_address_too(browser, player):
    for attempt in range(5):
        log_in(browser, "alice", f"wrong-{attempt}", f"10.0.1.{attempt + 1}")

    response = log_in(browser, "alice", PASSWORD, "10.0.2.9")

    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    assert SESSION_KEY not in browser.session


def test_the_address_is_locked_for_other_accounts_too(browser, player):
    for attempt in range(5):
        log_in(browser, f"guess{attempt}", "whatever", "10.0.3.3")

    response = log_in(browser, "alice", PASSWORD, "10.0.3.3")

    assert response.status_code == 429
    assert LOCKED in response.content.decode()


def test_a_success_before_the_limit_resets_the_count(browser, player):
    for attempt in range(4):
        log_in(browser, "alice", f"wrong-{attempt}", "10.0.4.4")
    assert log_in(browser, "alice", PASSWORD, "10.0.4.4").status_code == 302
    browser.post(reverse("accounts:logout"))

    for attempt in range(4):
        assert log_in(browser, "alice", f"again-{attempt}", "10.0.4.4").status_code == 200
    assert log_in(browser, "alice", PASSWORD, "10.0.4.4").status_code == 302
