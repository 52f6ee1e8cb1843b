"""Staff forms for moving coins; each carries a hidden idempotency key so a double submit posts once."""

import uuid

from django import forms
from django.db import models
from django.utils.translation import gettext_lazy as _

from wallets.models import MAX_AMOUNT


class MoneyMoveForm(forms.Form):
    """Deposit, withdraw or adjust a player's coins, with a required reason."""

    class Operation(models.TextChoices):
        DEPOSIT = "deposit", _("Deposit")
        WITHDRAWAL = "withdrawal", _("Withdrawal")
        ADJUSTMENT = "adjustment", _("Adjustment (correction)")

    operation = forms.ChoiceField(label=_("Operation"), choices=Operation.choices)
    amount = forms.IntegerField(
        label=_("Amount (coins)"),
        min_value=-MAX_AMOUNT,
        max_value=MAX_AMOUNT,
        help_text=_("Deposits and withdrawals take a positive amount; an adjustment may be negative."),
    )
    reason = forms.CharField(label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 3}))
    # A fresh key each time the form is shown; resubmitting the same page reuses it.
    key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4)

    def clean(self):
        data = super().clean()
        operation, amount = data.get("operation"), data.get("amount")
        if amount is None or operation is None:
            return data
        if amount == 0:
            self.add_error("amount", _("The amount must not be zero."))
        elif operation != self.Operation.ADJUSTMENT and amount < 0:
            self.add_error("amount", _("Deposits and withdrawals take a positive amount."))
        return data


class ReversalForm(forms.Form):
    """Reverse a posted transaction, with a required reason."""

    reason = forms.CharField(label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 3}))
    key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4)
