"""Template filters for showing coin amounts."""

from django import template

register = template.Library()


@register.filter
def coins(value) -> str:
    """Group a whole number of coins by thousands: 1234567 → "1,234,567".

    Like ``intcomma``, but independent of the locale: Django's zh-hans format
    has no thousands separator, so ``intcomma`` would leave large balances
    ungrouped for Chinese readers.
    """
    try:
        return f"{int(value):,}"
    except (TypeError, ValueError):
        return str(value)


@register.filter
def signed_coins(value) -> str:
    """Like ``coins`` with an explicit sign: +1,000 / -250."""
    try:
        return f"{int(value):+,}"
    except (TypeError, ValueError):
        return str(value)
