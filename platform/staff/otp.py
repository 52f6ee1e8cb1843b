"""The second factor (django-otp) for staff who move money: enrolment, backup codes, and the check.

Logging in to the admin stays a password (so staff without a device still
work). Moving coins (deposit, withdrawal, adjustment, reversal) additionally
needs this session to be verified with a TOTP code from an authenticator app
or a one-time backup code; ``second_factor_redirect`` sends anyone else to the
verify page first, before anything is posted.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.db import transaction
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

BACKUP_DEVICE_NAME = "backup codes"
TOTP_DEVICE_NAME = "authenticator"


class AlreadyEnrolled(Exception):
    """The staff member already has an authenticator; enrolling again needs an explicit reset."""


@dataclass(frozen=True)
class Enrolment:
    """What a newly enrolled staff member needs: the authenticator's otpauth:// URL and backup codes."""

    config_url: str
    backup_codes: list[str]


def otp_enrol(*, user, reset: bool = False, backup_count: int = 10) -> Enrolment:
    """Give ``user`` a confirmed TOTP device and a fresh set of one-time backup codes.

    Refuses (``AlreadyEnrolled``) if the user already has an authenticator,
    unless ``reset`` is set, which replaces every device the user had.
    """
    with transaction.atomic():
        if TOTPDevice.objects.filter(user=user).exists():
            if not reset:
                raise AlreadyEnrolled(
                    _("%(user)s already has an authenticator; pass --reset to replace it.")
                    % {"user": user.get_username()}
                )
            TOTPDevice.objects.filter(user=user).delete()
        StaticDevice.objects.filter(user=user).delete()
        device = TOTPDevice.objects.create(user=user, name=TOTP_DEVICE_NAME, confirmed=True)
        codes = _new_backup_codes(user, backup_count)
    return Enrolment(config_url=device.config_url, backup_codes=codes)


def otp_backup_codes_ensure(*, user, count: int = 10) -> list[str]:
    """Return the user's unused backup codes, creating ``count`` new ones if none is left (idempotent)."""
    with transaction.atomic():
        unused = list(
            StaticToken.objects.filter(device__user=user, device__confirmed=True)
            .order_by("pk")
            .values_list("token", flat=True)
        )
        if unused:
            return unused
        StaticDevice.objects.filter(user=user).delete()
        return _new_backup_codes(user, count)


def _new_backup_codes(user, count: int) -> list[str]:
    device = StaticDevice.objects.create(user=user, name=BACKUP_DEVICE_NAME, confirmed=True)
    codes = [StaticToken.random_token() for _ in range(count)]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=code) for code in codes)
    return codes


def second_factor_redirect(request: HttpRequest) -> HttpResponseRedirect | None:
    """Return a redirect to the verify page unless this session passed the second factor; else None."""
    if request.user.is_verified():
        return None
    query = urlencode({"next": request.get_full_path()})
    return HttpResponseRedirect(f"{reverse('staff:otp_verify')}?{query}")
