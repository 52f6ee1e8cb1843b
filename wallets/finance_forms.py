"""Parse the finance reports' query parameters (shared by the pages, the CSV downloads and the API)."""

import datetime as dt

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from wallets.models import LedgerTransaction
from wallets.reports import site_today

MAX_RANGE_DAYS = 366


class DateRangeForm(forms.Form):
    """A range of site-timezone days, both ends included; the last 30 days by default."""

    start = forms.DateField(
        label=pgettext_lazy("date range", "From"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    end = forms.DateField(
        label=pgettext_lazy("date range", "To"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def clean(self):
        data = super().clean()
        end = data.get("end") or site_today()
        start = data.get("start") or end - dt.timedelta(days=29)
        if start > end:
            raise forms.ValidationError(_("The range starts after it ends."))
        if (end - start).days >= MAX_RANGE_DAYS:
            raise forms.ValidationError(
                _("Choose a range of at most %(days)d days.") % {"days": MAX_RANGE_DAYS}
            )
        data["start"], data["end"] = start, end
        return data


class TrialBalanceForm(forms.Form):
    """The day at whose end (site time) the balances are taken; today by default."""

    on = forms.DateField(
        label=_("At the end of"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean_on(self):
        return self.cleaned_data.get("on") or site_today()


class PlayerField(forms.CharField):
    """A player named by username; cleaned to the user."""

    def clean(self, value):
        value = super().clean(value)
        if not value:
            return None
        user = get_user_model().objects.filter(username=value.strip()).first()
        if user is None:
            raise forms.ValidationError(_("No player is called %(name)s.") % {"name": value})
        return user


class StatementForm(DateRangeForm):
    player = PlayerField(label=_("Player (username)"), max_length=150)


class SearchForm(forms.Form):
    reference = forms.CharField(
        label=_("Reference"),
        required=False,
        max_length=100,
        help_text=_('Exact, e.g. "hand:17", or a prefix ending in *, e.g. "staff:*".'),
    )
    kind = forms.ChoiceField(
        label=_("Kind"), required=False, choices=[("", _("any"))] + list(LedgerTransaction.Kind.choices)
    )
    amount_min = forms.IntegerField(label=_("Amount from"), required=False, min_value=0)
    amount_max = forms.IntegerField(label=_("Amount to"), required=False, min_value=0)
    player = PlayerField(label=_("Player (username)"), required=False, max_length=150)
    start = forms.DateField(
        label=pgettext_lazy("date range", "From"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    end = forms.DateField(
        label=pgettext_lazy("date range", "To"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
