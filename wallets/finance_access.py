"""Who may read the finance reports: superusers and members of the "finance" group."""

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission

FINANCE_GROUP = "finance"


def is_finance(user) -> bool:
    """Return whether ``user`` may read the finance reports."""
    if not (user and user.is_authenticated and user.is_active):
        return False
    return user.is_superuser or user.groups.filter(name=FINANCE_GROUP).exists()


def finance_required(view):
    """Send anonymous visitors to log in; refuse everyone else who is not finance with 403."""

    @login_required
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not is_finance(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


class IsFinance(BasePermission):
    """DRF: only finance staff and superusers (anonymous requests get 403 under session auth)."""

    def has_permission(self, request, view) -> bool:
        return is_finance(request.user)
