"""The record of each reconciliation run (imported by ``wallets.models`` so Django registers it)."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ReconciliationRecord(models.Model):
    """One run of every ledger invariant: when, why, the totals it saw and what failed."""

    class Trigger(models.TextChoices):
        SCHEDULE = "schedule", _("Nightly schedule")
        MANUAL = "manual", _("Run by staff")

    started_at = models.DateTimeField(_("started"), default=timezone.now, db_index=True)
    finished_at = models.DateTimeField(_("finished"))
    trigger = models.CharField(_("trigger"), max_length=10, choices=Trigger.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("run by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    passed = models.BooleanField(_("passed"))
    transactions = models.PositiveBigIntegerField(_("transactions"))
    entries = models.PositiveBigIntegerField(_("entries"))
    accounts = models.PositiveBigIntegerField(_("accounts"))
    # {"player": 123, "cashier": -456, ..., "total": 0}: balances by account kind.
    totals = models.JSONField(_("totals"), default=dict)
    # [{"check": ..., "row": ..., "message": ...}] as named by wallets.selectors.ledger_check.
    problems = models.JSONField(_("offending rows"), default=list)

    class Meta:
        ordering = ["-started_at", "-pk"]
        verbose_name = _("reconciliation record")
        verbose_name_plural = _("reconciliation records")

    def __str__(self) -> str:
        verdict = _("pass") if self.passed else _("FAIL")
        return f"{self.started_at:%Y-%m-%d %H:%M} {verdict}"
