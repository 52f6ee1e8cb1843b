"""The staff second factor (django-otp): money forms need a verified session; enrolment and backup codes."""

import io
import re
from platform.staff.otp import AlreadyEnrolled, otp_backup_codes_ensure, otp_enrol
from platform.staff.testing import current_totp

import pytest
from django.contrib.auth.models import Permission
from django.core.management import CommandError, call_command
from django.urls import reverse
from django_otp.oath import totp
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from wallets.models import LedgerTransaction
from wallets.selectors import wallet_balance
from wallets.services import wallet_for_user, wallet_grant

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user(username="punter", password="pw-Secret-123")


@pytest.fixture
def teller(django_user_model):
    """Staff allowed to move money, not a superuser."""
    staff = django_user_model.objects.create_user(username="teller", password="pw-Secret-123", is_staff=True)
    staff.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="wallets",
            codename__in=["move_money", "view_account", "view_ledgertransaction", "view_ledgerentry"],
        )
    )
    return staff


def form_key(client, url: str) -> str:
    page = client.get(url)
    assert page.status_code == 200
    return page.content.decode().split('name="key" value="')[1].split('"')[0]


def verify(client, device, token: str):
    return client.post(reverse("staff:otp_verify"), {"otp_device": device.persistent_id, "otp_token": token})


def test_an_unverified_teller_cannot_post_a_deposit_and_nothing_changes(client, teller, player):
    otp_enrol(user=teller)
    client.force_login(teller)
    url = reverse("admin:wallets_account_move_money", args=[wallet_for_user(user=player).pk])
    before = LedgerTransaction.objects.count()

    shown = client.get(url)
    posted = client.post(
        url, {"operation": "deposit", "amount": 500, "reason": "bank transfer", "key": "0" * 32}
    )

    for response in (shown, posted):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("staff:otp_verify") + "?next=")
    assert LedgerTransaction.objects.count() == before
    assert wallet_balance(user=player) == 0
    page = client.get(posted["Location"]).content.decode()
    assert "Moving coins needs a second factor" in page


def test_after_a_valid_totp_code_the_deposit_posts_once(client, teller, player):
    otp_enrol(user=teller)
    device = TOTPDevice.objects.get(user=teller)
    client.force_login(teller)
    url = reverse("admin:wallets_account_move_money", args=[wallet_for_user(user=player).pk])
    token = f"{totp(device.bin_key, device.step, device.t0, device.digits):06d}"

    response = client.post(
        reverse("staff:otp_verify") + f"?next={url}", {"otp_device": device.persistent_id, "otp_token": token}
    )

    assert response.status_code == 302 and response["Location"] == url
    key = form_key(client, url)
    data = {"operation": "deposit", "amount": 500, "reason": "bank transfer 7", "key": key}
    first = client.post(url, data)
    again = client.post(url, data)  # a double submit of the same form
    assert first.status_code == again.status_code == 302
    deposits = LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.DEPOSIT)
    assert deposits.count() == 1
    assert deposits.get().actor == teller
    assert wallet_balance(user=player) == 500


def test_a_wrong_code_is_refused_and_the_session_stays_unverified(client, teller, player):
    otp_enrol(user=teller)
    device = TOTPDevice.objects.get(user=teller)
    client.force_login(teller)
    wrong = f"{(int(current_totp(device)) + 1) % 1_000_000:06d}"

    page = verify(client, device, wrong)

    assert page.status_code == 200
    assert "Invalid token" in page.content.decode()
    url = reverse("admin:wallets_account_move_money", args=[wallet_for_user(user=player).pk])
    assert client.get(url).status_code == 302


def test_a_backup_code_verifies_once(client, teller, player):
    codes = otp_enrol(user=teller).backup_codes
    backup = StaticDevice.objects.get(user=teller)
    client.force_login(teller)

    assert verify(client, backup, codes[0]).status_code == 302
    url = reverse("admin:wallets_account_move_money", args=[wallet_for_user(user=player).pk])
    assert client.get(url).status_code == 200

    client.logout()
    client.force_login(teller)
    reused = verify(client, backup, codes[0])
    assert reused.status_code == 200
    assert "Invalid token" in reused.content.decode()


def test_a_reversal_needs_the_second_factor_too(client, teller, player):
    otp_enrol(user=teller)
    grant = wallet_grant(user=player, amount=100, key="g1", reason="start")
    client.force_login(teller)
    url = reverse("admin:wallets_ledgertransaction_reverse", args=[grant.pk])

    refused = client.post(url, {"reason": "mistake", "key": "1" * 32})

    assert refused.status_code == 302 and refused["Location"].startswith(reverse("staff:otp_verify"))
    assert not LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.REVERSAL).exists()
    assert wallet_balance(user=player) == 100


def test_staff_without_a_device_are_told_how_to_enrol(client, teller):
    client.force_login(teller)

    page = client.get(reverse("staff:otp_verify")).content.decode()

    assert "You have no second-factor device yet" in page
    assert "manage.py otp_enrol teller" in page


def test_the_verify_page_is_for_staff_only(client, player):
    client.force_login(player)

    response = client.get(reverse("staff:otp_verify"))

    assert response.status_code == 302 and reverse("admin:login") in response["Location"]


def test_the_verify_page_does_not_redirect_off_site(client, teller):
    otp_enrol(user=teller)
    device = TOTPDevice.objects.get(user=teller)
    client.force_login(teller)

    response = client.post(
        reverse("staff:otp_verify") + "?next=https://evil.example/",
        {"otp_device": device.persistent_id, "otp_token": current_totp(device)},
    )

    assert response.status_code == 302 and response["Location"] == reverse("admin:index")


def test_otp_enrol_prints_the_authenticator_url_and_backup_codes(teller):
    out = io.StringIO()

    call_command("otp_enrol", "teller", stdout=out)

    text = out.getvalue()
    assert re.search(r"otpauth://totp/.*secret=[A-Z2-7]+", text)
    codes = otp_backup_codes_ensure(user=teller)
    assert len(codes) == 10 and all(code in text for code in codes)
    with pytest.raises(CommandError, match="already has an authenticator; pass --reset"):
        call_command("otp_enrol", "teller", stdout=io.StringIO())
    old_key = TOTPDevice.objects.get(user=teller).key
    call_command("otp_enrol", "teller", "--reset", stdout=io.StringIO())
    assert TOTPDevice.objects.get(user=teller).key != old_key


def test_otp_enrol_refuses_players_and_unknown_names(player):
    with pytest.raises(CommandError, match="punter is not staff"):
        call_command("otp_enrol", "punter", stdout=io.StringIO())
    with pytest.raises(CommandError, match="No user named 'nobody'"):
        call_command("otp_enrol", "nobody", stdout=io.StringIO())


def test_enrolling_twice_without_reset_is_refused(teller):
    otp_enrol(user=teller)
    with pytest.raises(AlreadyEnrolled, match="teller already has an authenticator"):
        otp_enrol(user=teller)


def test_backup_codes_are_kept_until_used_up(teller):
    first = otp_backup_codes_ensure(user=teller)
    assert otp_backup_codes_ensure(user=teller) == first
    StaticDevice.objects.get(user=teller).token_set.all().delete()
    fresh = otp_backup_codes_ensure(user=teller)
    assert len(fresh) == 10 and set(fresh).isdisjoint(first)


def test_load_demo_gives_the_demo_admin_backup_codes_and_keeps_them(settings):
    settings.SIGNUP_GRANT_COINS = 100

    first = io.StringIO()
    call_command("load_demo", stdout=first, stderr=io.StringIO())
    again = io.StringIO()
    call_command("load_demo", stdout=again, stderr=io.StringIO())

    codes = re.search(r"second factor for admin .*: ([a-z2-7 ]+)$", first.getvalue(), re.M).group(1).split()
    assert len(codes) == 10
    assert " ".join(codes) in again.getvalue()  # idempotent: the same unused codes
    assert StaticDevice.objects.filter(user__username="admin").count() == 1


def test_a_superuser_enrols_staff_in_admin_and_sees_the_qr_code(client, teller, django_user_model):
    boss = django_user_model.objects.create_superuser(username="boss", password="pw-Secret-123")
    client.force_login(boss)

    added = client.post(
        reverse("admin:otp_totp_totpdevice_add"),
        {
            "user": teller.pk,
            "name": "phone",
            "confirmed": "on",
            "key": "3132333435363738393031323334353637383930",
            "step": 30,
            "t0": 0,
            "digits": 6,
            "tolerance": 1,
            "drift": 0,
            "throttling_failure_count": 0,
        },
    )

    assert added.status_code == 302
    device = TOTPDevice.objects.get(user=teller)
    qr = client.get(reverse("admin:otp_totp_totpdevice_qrcode", args=[device.pk]))
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"
    assert b"<svg" in qr.content
