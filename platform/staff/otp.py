"""The second factor (django-otp) for staff who move money: enrolment, backup codes, and the check.

A staff account logs in with its password and a code (``otp_token_check``,
called by the log-in form), so a guessed or leaked password alone never opens
the admin; a staff member without a device cannot log in until a superuser
enrols one (``manage.py otp_enrol``). The session is then verified, and moving
coins (deposit, withdrawal, adjustment, reversal) needs a verified session:
``second_factor_redirect`` sends anyone else (a session that was logged in
some other way) to the verify page first, before anything is posted.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django_otp import devices_for_user
from django_otp.models import Device
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


def otp_token_check(*, user, token: str) -> Device:
    """Return the user's device that accepts ``token`` (and consume a backup code); else raise.

    A code of the authenticator's length in digits is checked against the
    authenticator; anything else against the backup codes, so that a mistyped
    code never counts as a failure against the other device (django-otp
    throttles each device after failures).
    """
    token = (token or "").strip().replace(" ", "")
    devices = list(devices_for_user(user, confirmed=True))
    if not devices:
        raise ValidationError(
            _(
                "Staff accounts log in with a second factor, and this one has none yet: ask a superuser to enrol it."
            ),
            code="otp_not_enrolled",
        )
    if not token:
        raise ValidationError(
            _("Staff accounts log in with a second factor: enter the code from your authenticator app."),
            code="otp_required",
        )
    authenticator = token.isdigit() and any(len(token) == getattr(d, "digits", 0) for d in devices)
    kind = TOTPDevice if authenticator else StaticDevice
    for device in devices:
        if isinstance(device, kind) and device.verify_is_allowed()[0] and device.verify_token(token):
            return device
    raise ValidationError(_("That second-factor code is not valid."), code="otp_invalid")
