"""Test helpers: pass the staff second factor the way a person does, through the verify page."""

from __future__ import annotations

from django.urls import reverse
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice


def current_totp(device: TOTPDevice) -> str:
    """Return the code the device's authenticator app shows now."""
    return f"{totp(device.bin_key, device.step, device.t0, device.digits, device.drift):0{device.digits}d}"


def client_pass_second_factor(client, user) -> TOTPDevice:
    """Enrol ``user`` (if needed) and verify the test client's session with a current TOTP code."""
    from platform.staff.otp import otp_enrol

    device = TOTPDevice.objects.filter(user=user).first()
    if device is None:
        otp_enrol(user=user)
        device = TOTPDevice.objects.get(user=user)
    response = client.post(
        reverse("staff:otp_verify"), {"otp_device": device.persistent_id, "otp_token": current_totp(device)}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return device
