"""The device cookie: a long random id each browser keeps, so that accounts signed in from one browser are known.

One person with several accounts can dump coins from one into another at a
table they share. Room tiers that keep linked accounts apart
(``RoomTier.separate_linked``) never seat at one table two accounts that
signed up from one address or signed in from one browser; this module tells
the browsers apart.

The first response to a browser without the cookie sets it: 32 random bytes
(``secrets``), HttpOnly (no page script reads it), SameSite=Lax, Secure
wherever the session cookie is, for ``DEVICE_COOKIE_DAYS``; each log-in sends
it again, so it lives that long after the last one. It is no credential and
says nothing about the person: it is neither read nor written by anything but
this module.

Privacy: the server never stores the cookie's value. Each log-in records the
SHA-256 of it against the account (``UserDevice``: the hash, first and last
log-in), so the database can tell that two accounts used one browser but not
which browser, and a copy of the database gives nobody a cookie to present.
Nothing else about the browser (user agent, screen, fonts) is kept. The rows
go with the account.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from platform.accounts.services import user_device_record

from django.conf import settings
from django.http import HttpRequest

# What ``secrets.token_urlsafe(32)`` writes; any other value is replaced by a new one.
_WELL_FORMED = re.compile(r"^[A-Za-z0-9_-]{43}$")


def device_hash(device_id: str) -> str:
    """Return what the server keeps of a device cookie: the SHA-256 of its value, in hex."""
    return hashlib.sha256(device_id.encode("ascii")).hexdigest()


class DeviceCookieMiddleware:
    """Give every browser a device cookie (``request.device_id``), set on the response if it is new."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        value = request.COOKIES.get(settings.DEVICE_COOKIE_NAME, "")
        request.device_cookie_send = not _WELL_FORMED.match(value)
        request.device_id = secrets.token_urlsafe(32) if request.device_cookie_send else value
        response = self.get_response(request)
        if request.device_cookie_send:
            response.set_cookie(
                settings.DEVICE_COOKIE_NAME,
                request.device_id,
                max_age=settings.DEVICE_COOKIE_DAYS * 24 * 3600,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response


def on_logged_in(sender, request, user, **kwargs) -> None:
    """A log-in (or a sign-up's) records the browser's device cookie, hashed, against the account."""
    device_id = getattr(request, "device_id", None)
    if device_id is None:  # not a browser's request (a test client's login(), a script's own request)
        return
    user_device_record(user=user, cookie_hash=device_hash(device_id))
    request.device_cookie_send = True  # the cookie lives DEVICE_COOKIE_DAYS after the last log-in
