"""The device cookie: every browser gets one, each log-in records it hashed, and it links the accounts that share it."""

import hashlib
from platform.accounts.models import User, UserDevice
from platform.accounts.selectors import linked_user_ids
from platform.accounts.services import user_create
from platform.accounts.tests.conftest import PASSWORD

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def log_in(client: Client, username: str, address: str = "198.51.100.7"):
    response = client.post(
        reverse("accounts:login"), {"username": username, "password": PASSWORD}, REMOTE_ADDR=address
    )
    assert response.status_code == 302, response.content.decode()[:500]
    return response


def log_out(client: Client) -> None:
    assert client.post(reverse("accounts:logout")).status_code == 302


def sign_up(client: Client, username: str, address: str):
    response = client.post(
        reverse("accounts:signup"),
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR=address,
    )
    assert response.status_code == 302, response.content.decode()[:500]
    return response


def test_a_browser_gets_a_long_random_http_only_cookie_on_its_first_visit_and_keeps_it():
    browser = Client()
    first = browser.get(reverse("accounts:login"))
    cookie = first.cookies["device"]
    assert len(cookie.value) == 43  # 32 random bytes, URL-safe base64
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert cookie["max-age"] == 400 * 24 * 3600
    # The next page does not hand out another: the browser keeps its own.
    assert "device" not in browser.get(reverse("accounts:login")).cookies
    assert browser.cookies["device"].value == cookie.value
    # Another browser gets another.
    assert Client().get(reverse("accounts:login")).cookies["device"].value != cookie.value


@pytest.mark.parametrize("forged", ["x", "a" * 42 + "!", "b" * 500, "../../etc/passwd"])
def test_a_cookie_the_server_did_not_write_is_replaced(forged):
    browser = Client()
    browser.cookies["device"] = forged
    fresh = browser.get(reverse("accounts:login")).cookies["device"].value
    assert fresh != forged and len(fresh) == 43


def test_a_log_in_records_only_the_cookies_hash_and_sends_it_again(player):
    browser = Client()
    browser.get(reverse("accounts:login"))
    cookie = browser.cookies["device"].value
    response = log_in(browser, "alice")
    # The log-in sends the cookie again, so it lives 400 days after the last one.
    assert response.cookies["device"].value == cookie

    [row] = UserDevice.objects.filter(user=player)
    assert row.cookie_hash == hashlib.sha256(cookie.encode()).hexdigest()
    # The database holds no copy of the cookie itself.
    assert cookie not in str(list(UserDevice.objects.values_list()))
    seen = row.last_seen
    log_out(browser)
    log_in(browser, "alice")
    [again] = UserDevice.objects.filter(user=player)
    assert (again.pk, again.first_seen) == (row.pk, row.first_seen) and again.last_seen >= seen


def test_a_log_in_without_a_cookie_is_recorded_under_the_one_it_is_given(player):
    """A first request that is the log-in itself (a script, a cleared browser) gets its cookie there."""
    browser = Client()
    response = log_in(browser, "alice")
    cookie = response.cookies["device"].value
    assert UserDevice.objects.get(user=player).cookie_hash == hashlib.sha256(cookie.encode()).hexdigest()


def test_two_accounts_logged_in_from_one_browser_are_linked_and_others_are_not(settings):
    alice = user_create(username="alice", password=PASSWORD)
    bob = user_create(username="bob", password=PASSWORD)
    carol = user_create(username="carol", password=PASSWORD)
    shared, own = Client(), Client()
    log_in(shared, "alice")
    log_out(shared)
    log_in(shared, "bob")
    log_in(own, "carol")
    assert linked_user_ids(user_id=alice.pk) == {bob.pk}
    assert linked_user_ids(user_id=bob.pk) == {alice.pk}
    assert linked_user_ids(user_id=carol.pk) == set()


def test_accounts_signed_up_from_one_address_are_linked_and_staff_made_ones_are_not():
    sign_up(Client(), "first", "203.0.113.5")
    sign_up(Client(), "second", "203.0.113.5")
    sign_up(Client(), "elsewhere", "203.0.113.6")
    # One IPv6 subscriber's /64 is one address.
    sign_up(Client(), "six1", "2001:db8:1:2::10")
    sign_up(Client(), "six2", "2001:db8:1:2:ffff::1")
    made_by_staff = [user_create(username=f"staff{n}", password=PASSWORD) for n in range(2)]
    ids = dict(User.objects.values_list("username", "pk"))

    assert linked_user_ids(user_id=ids["first"]) == {ids["second"]}
    assert linked_user_ids(user_id=ids["elsewhere"]) == set()
    assert linked_user_ids(user_id=ids["six1"]) == {ids["six2"]}
    assert all(linked_user_ids(user_id=user.pk) == set() for user in made_by_staff)


def test_a_sign_up_records_its_browser_too():
    browser = Client()
    sign_up(browser, "newcomer", "203.0.113.8")
    cookie = browser.cookies["device"].value
    row = UserDevice.objects.get(user__username="newcomer")
    assert row.cookie_hash == hashlib.sha256(cookie.encode()).hexdigest()


def test_staff_see_an_accounts_linked_accounts_on_its_page(browser):
    from django.contrib.auth import get_user_model

    sign_up(Client(), "first", "203.0.113.5")
    sign_up(Client(), "second", "203.0.113.5")
    sign_up(Client(), "stranger", "203.0.113.6")
    root = get_user_model().objects.create_superuser(username="root", password="x", email="root@example.com")
    browser.force_login(root)
    first, second = (User.objects.get(username=name) for name in ("first", "second"))
    html = browser.get(reverse("admin:accounts_user_change", args=[first.pk])).content.decode()
    linked = html.split("Linked accounts", 1)[1][:600]
    assert f'<a href="{reverse("admin:accounts_user_change", args=[second.pk])}">second</a>' in linked
    assert "stranger" not in html
