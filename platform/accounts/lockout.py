"""Log-in lockout: a username from one address, and an address alone after more failures.

django-axes compares one count with one limit. Locking a username alone (its
old setting) let anyone lock anyone out, staff included: five wrong passwords
from five addresses locked the account for everyone. Here two rules hold,
each with its own limit, over the failures of the cool-off period
(``AXES_COOLOFF_TIME``):

- the pair (username, address): ``AXES_FAILURE_LIMIT`` failures lock that
  username from that address only; its owner elsewhere logs in as usual;
- the address: ``LOGIN_ADDRESS_FAILURE_LIMIT`` failures over any usernames
  lock every log-in from it (one address spraying guesses at many accounts).

Guessing one account's password from many addresses is not stopped by a
lockout that strangers could then use against its owner; a staff account
also needs its second factor to log in (``platform.accounts.forms.LoginForm``).
Addresses come from ``platform.accounts.addresses.limit_address`` (forwarded
addresses only from ``TRUSTED_PROXIES``; an IPv6 /64 counts as one address).
"""

from __future__ import annotations

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum

ACCOUNT, ADDRESS = "account", "address"


def _failures(attempts) -> int:
    return attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0


class LoginLockoutHandler(AxesDatabaseHandler):
    """django-axes' database handler with a limit per pair and a higher one per address."""

    def get_failures(self, request, credentials: dict | None = None) -> int:
        """Return the pair's failures, or the pair's limit if the address is over its own.

        django-axes locks when this reaches ``AXES_FAILURE_LIMIT``. Which rule
        locked is left on the request (``login_locked_by``) for the lockout page.
        """
        username = get_client_username(request, credentials)
        recent = AccessAttempt.objects.filter(ip_address=request.axes_ip_address)
        if settings.AXES_COOLOFF_TIME is not None:
            recent = recent.filter(attempt_time__gte=get_cool_off_threshold(request))
        pair = _failures(recent.filter(username=username))
        pair_limit = get_failure_limit(request, credentials)
        if pair >= pair_limit:
            request.login_locked_by = ACCOUNT
            return pair
        if _failures(recent) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            request.login_locked_by = ADDRESS
            return pair_limit
        return pair

    def reset_user_attempts(self, request, credentials: dict | None = None) -> int:
        """After a successful log-in, forget that username's failures from this address only.

        Not the address's other failures: otherwise whoever guesses at other
        accounts would reset the address's count by logging in to their own.
        """
        username = get_client_username(request, credentials)
        count, _ = AccessAttempt.objects.filter(
            username=username, ip_address=request.axes_ip_address
        ).delete()
        return count
