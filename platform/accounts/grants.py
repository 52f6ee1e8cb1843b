"""The sign-up grant, paid in parts as the player plays, and the per-address sign-up limit.

A script once signed up forty accounts from one address in 23 seconds and
took 10,000 coins with each. Now:

- ``SIGNUP_PER_ADDRESS`` sign-ups per address (an IPv6 /64 counts as one) in
  ``SIGNUP_WINDOW_MINUTES`` (``signup_limit_check``);
- the grant is ``SIGNUP_GRANT_COINS`` in all, of which ``SIGNUP_GRANT_FIRST``
  is paid at sign-up (enough for the lowest room tiers) and the rest in
  ``SIGNUP_GRANT_PARTS`` equal parts, one for every
  ``SIGNUP_GRANT_PART_HANDS`` hands the player has played to the end
  (``grant_progress``, called when hands are settled). Playing hands takes a
  real table's time and risks the coins already paid, which is what a script
  cannot do cheaply; it needs no email or SMS server.

The rule in force at sign-up is copied onto the player's ``SignUp`` row. Every
part is its own ledger transaction (``signup-grant:<user>:part:<n>``), so a
repeated or concurrent ``grant_progress`` pays nothing twice.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from platform.accounts.models import GameStats, SignUp, User

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import F, Sum
from django.utils import timezone
from django.utils.translation import ngettext

from wallets.services import wallet_grant


@dataclass(frozen=True)
class GrantRule:
    """The sign-up grant's shape: in all, at sign-up, parts paid by play and hands per part."""

    total: int
    first: int
    parts: int
    part_hands: int


def grant_rule_current() -> GrantRule:
    """Return the rule the settings give now (a whole grant at once when there are no parts)."""
    total = max(settings.SIGNUP_GRANT_COINS, 0)
    first = min(max(settings.SIGNUP_GRANT_FIRST, 0), total)
    parts = max(settings.SIGNUP_GRANT_PARTS, 0) if first < total else 0
    if parts == 0:
        first = total
    return GrantRule(
        total=total, first=first, parts=parts, part_hands=max(settings.SIGNUP_GRANT_PART_HANDS, 1)
    )


def grant_part_amount(signup: SignUp, part: int) -> int:
    """Return the coins of part ``part`` (1-based): equal parts, the last also takes the remainder."""
    base, remainder = divmod(signup.grant_total - signup.grant_first, signup.grant_parts)
    return base + (remainder if part == signup.grant_parts else 0)


def _address_lock(address: str) -> None:
    """Serialise sign-ups from one address until the transaction ends (PostgreSQL).

    SQLite needs nothing: its writers already run one at a time (BEGIN IMMEDIATE).
    """
    if connection.vendor != "postgresql":
        return
    key = int.from_bytes(hashlib.sha256(f"signup:{address}".encode()).digest()[:8], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def signup_limit_check(*, address: str) -> None:
    """Raise ValidationError if ``address`` already made its sign-ups for the current window.

    Call inside the transaction that creates the account: it holds the address's
    lock until then, so simultaneous sign-ups from one address are counted too.
    """
    limit, window = settings.SIGNUP_PER_ADDRESS, timedelta(minutes=settings.SIGNUP_WINDOW_MINUTES)
    if limit <= 0:
        return
    _address_lock(address)
    now = timezone.now()
    recent = SignUp.objects.filter(address=address, created_at__gt=now - window).order_by("created_at")
    times = list(recent.values_list("created_at", flat=True)[:limit])
    if len(times) < limit:
        return
    minutes = max(1, math.ceil((times[0] + window - now).total_seconds() / 60))
    raise ValidationError(
        ngettext(
            "Too many accounts were made from your address recently. Please try again in %(minutes)d minute.",
            "Too many accounts were made from your address recently. Please try again in %(minutes)d minutes.",
            minutes,
        )
        % {"minutes": minutes},
        code="signup_rate_limited",
    )


def signup_grant_open(*, user: User, address: str | None) -> SignUp:
    """Record the sign-up with the grant rule now in force and pay its first part.

    Called by ``user_create`` inside its transaction.
    """
    rule = grant_rule_current()
    signup = SignUp.objects.create(
        user=user,
        address=address,
        grant_total=rule.total,
        grant_first=rule.first,
        grant_parts=rule.parts,
        grant_part_hands=rule.part_hands,
    )
    if rule.first > 0:
        wallet_grant(user=user, amount=rule.first, key=f"signup-grant:{user.pk}", reason="sign-up grant")
    return signup


def grant_progress(*, user_ids: Iterable[int]) -> int:
    """Pay the parts of the sign-up grant that these players' finished hands have earned.

    Returns the coins of the parts this call counted; a part that an
    interrupted earlier call had already posted is replayed by the ledger under
    its key, not paid twice.

    Hands are the players' ``GameStats`` counts, which the settlement updates,
    so call this once those are committed (each hand's players, any number of
    times: only unpaid parts that are due are paid). Players with no part
    pending (older accounts, bots, grants paid in full) cost one query in all.
    """
    ids = sorted({int(user_id) for user_id in user_ids})
    pending = list(
        SignUp.objects.filter(user_id__in=ids, parts_paid__lt=F("grant_parts")).select_related("user")
    )
    if not pending:
        return 0
    hands = dict(
        GameStats.objects.filter(user_id__in=[signup.user_id for signup in pending])
        .values("user_id")
        .annotate(total=Sum("hands"))
        .values_list("user_id", "total")
    )
    paid = 0
    for signup in pending:
        due = min(signup.grant_parts, hands.get(signup.user_id, 0) // signup.grant_part_hands)
        if due <= signup.parts_paid:
            continue
        # Not durable: the settlement may call this on its own transaction's commit or inside it.
        with transaction.atomic():
            for part in range(signup.parts_paid + 1, due + 1):
                amount = grant_part_amount(signup, part)
                wallet_grant(
                    user=signup.user,
                    amount=amount,
                    key=f"signup-grant:{signup.user_id}:part:{part}",
                    reason=f"sign-up grant, part {part} of {signup.grant_parts}",
                )
                paid += amount
            SignUp.objects.filter(pk=signup.pk, parts_paid__lt=due).update(parts_paid=due)
    return paid
