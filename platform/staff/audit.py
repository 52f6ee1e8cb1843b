"""The audit trail of staff changes (django-auditlog): who changed which user, tier, table or money, and how.

Only changes made in a staff member's request to the admin site are written,
with that member as the actor. The runtime's own writes (seats filling,
tables opening and closing, every settlement's balances) are not staff changes
and would bury the trail, so a ``pre_log`` receiver (auditlog's documented
switch for conditional logging) drops them.

Money: ``Account`` balances move only through ``ledger_post``, whose
``LedgerTransaction`` rows already record the actor. The audit trail registers
``LedgerTransaction`` itself, so every transaction posted from an admin form
(deposit, withdrawal, adjustment, reversal) appears in it with its actor,
kind, key and memo, and links to the transaction's admin page. ``Account`` is
not registered: it has no field staff can edit, and registering it would cost
a read on every leg of every settlement.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

from auditlog.context import disable_auditlog, set_actor
from auditlog.registry import auditlog
from auditlog.signals import pre_log
from django.apps import apps
from django.urls import reverse

# True while a staff member's admin request is being served.
_staff_request: ContextVar[bool] = ContextVar("staff_audit_request", default=False)

# model label -> auditlog registration options.
AUDITED = {
    "accounts.User": {
        # The hash is secret and last_login changes at every log-in: record that the password changed, not what to.
        "exclude_fields": ["last_login"],
        "mask_fields": ["password"],
        "mask_callable": "platform.staff.audit.mask_secret",
        "m2m_fields": {"groups", "user_permissions"},
    },
    "rooms.Game": {},
    "rooms.RoomTier": {},
    # The event sequence and timestamps move with play, not with staff.
    "tables.Table": {"exclude_fields": ["seq", "updated_at"]},
    "tables.Seat": {},
    "wallets.LedgerTransaction": {},
}


def mask_secret(value: str) -> str:
    """Hide a secret completely in the audit trail (auditlog's default keeps half of it)."""
    return "********"


def audit_register_models() -> None:
    """Register the audited models with auditlog and install the staff-only gate (once)."""
    for label, options in AUDITED.items():
        model = apps.get_model(label)
        if not auditlog.contains(model):
            auditlog.register(model, **options)
    pre_log.connect(_only_staff_changes, dispatch_uid="staff-audit-only-staff-changes")


def _only_staff_changes(sender, instance, action, **kwargs) -> bool:
    # Returning False tells auditlog not to write this entry.
    return _staff_request.get()


def staff_audit_active() -> bool:
    """Say whether changes made now are recorded as a staff member's."""
    return _staff_request.get()


@contextlib.contextmanager
def audit_staff_only() -> Iterator[None]:
    """Switch auditlog's receivers off for the block unless a staff member's admin request is served.

    Outside such a request ``_only_staff_changes`` drops every entry anyway,
    but only after auditlog has read each saved row's old version (a SELECT
    per ``save()`` of an audited model) and sent its signals. A hot service
    (``table_ready``) runs in this block: the same trail, without those reads.
    """
    if _staff_request.get():
        yield
        return
    with disable_auditlog():
        yield


class StaffAuditMiddleware:
    """Record changes made in a staff member's admin request, with them as the actor and their address."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith(reverse("admin:index")):
            return self.get_response(request)
        user = getattr(request, "user", None)
        if user is None or not (user.is_authenticated and user.is_staff):
            return self.get_response(request)
        token = _staff_request.set(True)
        try:
            with set_actor(user, remote_addr=request.META.get("REMOTE_ADDR")):
                return self.get_response(request)
        finally:
            _staff_request.reset(token)
