"""Template filter: may this user read the finance reports (the site nav shows the link)."""

from django import template

from wallets.finance_access import is_finance as _is_finance

register = template.Library()


@register.filter
def is_finance(user) -> bool:
    """Return whether ``user`` is a superuser or in the finance group."""
    return _is_finance(user)
