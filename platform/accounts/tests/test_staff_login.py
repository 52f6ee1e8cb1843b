"""Staff accounts log in with their password and a second-factor code; players with a password."""

from platform.accounts.tests.conftest import PASSWORD
from platform.staff.otp import otp_enrol
from platform.staff.testing import current_totp

import pytest
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

pytestmark = pytest.mark.django_db

NEEDS_CODE = "Staff accounts log in with a second factor: enter the code from your authenticator app."
NOT_ENROLLED = (
    "Staff accounts log in with a second factor, and this one has none yet: ask a superuser to enrol it."
)
BAD_CODE = "That second-factor code is not valid."


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(username="boss", password=PASSWORD, is_staff=True)


@pytest.fixture
def enrolment(staff):
    return otp_enrol(user=staff)


def log_in(client: Client, code: str | None = None, *, username: str = "boss", address: str = "10.1.1.1"):
    data = {"username": username, "password": PASSWORD}
    if code is not None:
        data["otp_token"] = code
    return client.post(reverse("accounts:login"), data, REMOTE_ADDR=address)


def test_the_right_password_alone_does_not_log_staff_in(browser, enrolment):
    response = log_in(browser)

    assert response.status_code == 200
    assert NEEDS_CODE in response.content.decode()
    assert SESSION_KEY not in browser.session


def test_staff_log_in_with_the_authenticator_code_and_the_session_is_verified(browser, staff, enrolment):
    device = TOTPDevice.objects.get(user=staff)

    response = log_in(browser, current_totp(device))

    assert response.status_code == 302
    assert int(browser.session[SESSION_KEY]) == staff.pk
    # The money forms' verify page sees a verified session and sends the member straight on.
    verify = browser.get(reverse("staff:otp_verify") + "?next=/admin/")
    assert verify.status_code == 302 and verify["Location"] == "/admin/"


def test_a_backup_code_logs_staff_in_once(browser, staff, enrolment):
    code = enrolment.backup_codes[0]

    assert log_in(browser, code).status_code == 302
    assert not StaticToken.objects.filter(token=code).exists()

    again = Client()
    response = log_in(again, code)
    assert BAD_CODE in response.content.decode()
    assert SESSION_KEY not in again.session


def test_staff_without_a_device_cannot_log_in(browser, staff):
    response = log_in(browser, "123456")

    assert response.status_code == 200
    assert NOT_ENROLLED in response.content.decode()
    assert SESSION_KEY not in browser.session


def test_wrong_codes_count_toward_the_lockout(staff, enrolment):
    device = TOTPDevice.objects.get(user=staff)
    for attempt in range(4):
        response = log_in(Client(), f"{attempt:06d}")
        assert BAD_CODE in response.content.decode(), attempt
    assert log_in(Client(), "999999").status_code == 429

    locked = log_in(Client(), current_totp(device))

    assert locked.status_code == 429
    # Another address is not locked out (the authenticator itself may still be cooling down:
    # django-otp makes each wrong code double the wait before the device checks another).
    assert log_in(Client(), current_totp(device), address="10.1.1.2").status_code != 429


def test_players_need_no_code(browser, player):
    response = log_in(browser, username="alice")
    assert response.status_code == 302
    assert int(browser.session[SESSION_KEY]) == player.pk


def test_the_admins_password_only_log_in_page_sends_visitors_to_the_site_log_in(client):
    response = client.get(reverse("admin:login") + "?next=/admin/wallets/")

    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:login") + "?next=%2Fadmin%2Fwallets%2F"
    # A password posted to the admin's own form logs nobody in.
    posted = client.post(reverse("admin:login"), {"username": "boss", "password": PASSWORD})
    assert posted.status_code == 302 and SESSION_KEY not in client.session


def test_the_admin_log_in_refuses_a_signed_in_player(player_browser):
    assert player_browser.get(reverse("admin:login")).status_code == 403
