"""Reconciliation: run every ledger invariant and keep a dated record of what was found."""

import logging

from django.db import transaction as db_transaction
from django.db.models import Sum
from django.utils import timezone

from wallets.finance_models import ReconciliationRecord
from wallets.models import Account, LedgerEntry, LedgerTransaction
from wallets.selectors import ledger_check

logger = logging.getLogger("wallets.reconciliation")


def reconciliation_run(*, trigger: str, actor=None) -> ReconciliationRecord:
    """Check the whole ledger now and store the result; log a failure at ERROR with every offending row."""
    if trigger not in ReconciliationRecord.Trigger.values:
        raise ValueError(f"Unknown reconciliation trigger {trigger!r}.")
    started = timezone.now()
    # One snapshot for the check and the totals on PostgreSQL (REPEATABLE READ is
    # not needed: ledger rows are append-only and a posting is one commit).
    problems = ledger_check()
    totals = dict(
        Account.objects.values("kind").annotate(total=Sum("balance")).order_by().values_list("kind", "total")
    )
    totals["total"] = sum(totals.values())
    with db_transaction.atomic(durable=True):
        record = ReconciliationRecord.objects.create(
            started_at=started,
            finished_at=timezone.now(),
            trigger=trigger,
            actor=actor,
            passed=not problems,
            transactions=LedgerTransaction.objects.count(),
            entries=LedgerEntry.objects.count(),
            accounts=Account.objects.count(),
            totals=totals,
            problems=[{"check": p.check, "row": p.row, "message": p.message} for p in problems],
        )
    if problems:
        logger.error(
            "Ledger reconciliation #%s failed with %d problem(s):\n%s",
            record.pk,
            len(problems),
            "\n".join(str(problem) for problem in problems),
        )
    else:
        logger.info("Ledger reconciliation #%s passed", record.pk)
    return record


def reconciliation_latest() -> ReconciliationRecord | None:
    """Return the most recent reconciliation record, if any run has happened."""
    return ReconciliationRecord.objects.order_by("-started_at", "-pk").first()
