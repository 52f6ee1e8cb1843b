"""Reads of wallets and the ledger, including the whole-ledger invariant check."""

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Sum, Value, Window
from django.db.models.functions import Coalesce
from django.utils.translation import gettext

from wallets import lines, sources
from wallets.models import Account, LedgerEntry, LedgerTransaction
from wallets.sources import ReferenceLabel

NEVER_NEGATIVE_KINDS = [kind for kind in Account.Kind.values if kind not in Account.MAY_GO_NEGATIVE]


def wallet_balance(*, user) -> int:
    """Return the player's balance in coins (0 before their wallet exists)."""
    balance = Account.objects.filter(user=user).values_list("balance", flat=True).first()
    return balance or 0


def wallet_account(*, user) -> Account | None:
    """Return the player's wallet, or None if they have never had one."""
    return Account.objects.filter(user=user).first()


def wallet_entries(*, user) -> QuerySet[LedgerEntry]:
    """Return the player's ledger entries, newest first, with their transactions.

    Newest first by primary key: an account's entries are inserted under its
    row lock, so pk order is posting order, and (account, -id) is indexed.
    """
    return LedgerEntry.objects.filter(account__user=user).select_related("transaction").order_by("-pk")


@dataclass(frozen=True)
class WalletTotals:
    """A player's coins: in the wallet (available) and at the table (carried into open hands, bet)."""

    available: int
    at_table: int

    @property
    def total(self) -> int:
        return self.available + self.at_table


def wallet_totals(*, user) -> WalletTotals:
    return WalletTotals(available=wallet_balance(user=user), at_table=lines.coins_at_table(user=user))


def wallet_lines_page(*, user, page, per_page: int, totals: WalletTotals) -> tuple[Page, list[lines.Line]]:
    """Return one page of the player's lines, newest first, each with its label and the total after it.

    ``totals``: the player's ``wallet_totals``, the total after the newest line of all.
    """
    entries = lines.with_lines(lines.wallet_entries_of(user=user))
    paged = Paginator(lines.line_rows(entries).order_by("-line_id"), per_page).get_page(page)
    rows = list(paged.object_list)
    if not rows:
        return paged, []
    # The total after this page's newest line: today's, less what the newer lines moved.
    newer = 0
    if paged.number > 1:
        newer = entries.filter(line_id__gt=rows[0]["line_id"]).aggregate(total=Coalesce(Sum("amount"), 0))[
            "total"
        ]
    found = lines.lines_of(rows, balance_after_first=totals.total - newer, newest_first=True)
    labels = line_labels([line.reference for line in found])
    for line in found:
        line.label = labels.get(line.reference)
    return paged, found


def line_labels(references: list[str]) -> dict[str, ReferenceLabel]:
    """Return reference → the words a player reads for it.

    ``staff:<id>`` (a staff member's deposit or correction) says a staff member, not who; the
    apps that post games' money name their references (``wallets.sources``); anything else was
    typed by staff for the player and is shown as it is.
    """
    labels = sources.reference_labels([ref for ref in references if ref and not ref.startswith("staff:")])
    for reference in references:
        if reference.startswith("staff:"):
            labels[reference] = ReferenceLabel(gettext("By staff"))
        elif reference and reference not in labels:
            labels[reference] = ReferenceLabel(reference)
    return labels


@dataclass(frozen=True)
class Problem:
    """One broken ledger invariant: which check, which row, and what is wrong."""

    check: str
    row: str
    message: str

    def __str__(self) -> str:
        return f"[{self.check}] {self.row}: {self.message}"


def ledger_check() -> list[Problem]:
    """Check every ledger invariant over the whole ledger; return the problems found (none = healthy)."""
    return [
        *_unbalanced_transactions(),
        *_balances_not_matching_entries(),
        *_bad_running_balances(),
        *_negative_balances(),
        *_total_not_zero(),
        *_escrow_not_closed(),
    ]


def _unbalanced_transactions() -> list[Problem]:
    rows = (
        LedgerTransaction.objects.annotate(
            total=Coalesce(Sum("entries__amount"), Value(0)), legs=Count("entries")
        )
        .exclude(total=0, legs__gte=2)
        .order_by("pk")
        .values_list("pk", "total", "legs")
    )
    return [
        Problem(
            "balanced", f"transaction #{pk}", f"{legs} entries summing to {total}; expected >= 2 summing to 0"
        )
        for pk, total, legs in rows
    ]


def _balances_not_matching_entries() -> list[Problem]:
    entry_sum = (
        LedgerEntry.objects.filter(account=OuterRef("pk"))
        .order_by()
        .values("account")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    rows = (
        Account.objects.annotate(entry_total=Coalesce(Subquery(entry_sum), Value(0)))
        .exclude(balance=F("entry_total"))
        .order_by("pk")
    )
    return [
        Problem(
            "balance",
            f"account #{account.pk} ({account})",
            f"balance is {account.balance} but its entries sum to {account.entry_total}",
        )
        for account in rows
    ]


def _bad_running_balances() -> list[Problem]:
    # Entries of one account are written under that account's lock, so their
    # primary keys follow posting order and each balance_after must equal the
    # running sum of amounts up to and including that entry.
    rows = (
        LedgerEntry.objects.annotate(
            running=Window(Sum("amount"), partition_by=[F("account_id")], order_by=F("pk").asc())
        )
        .exclude(balance_after=F("running"))
        .order_by("pk")
        .values_list("pk", "account_id", "transaction_id", "balance_after", "running")
    )
    return [
        Problem(
            "balance_after",
            f"entry #{pk} (account #{account_id}, transaction #{txn_id})",
            f"balance_after is {after} but the running sum is {running}",
        )
        for pk, account_id, txn_id, after, running in rows
    ]


def _negative_balances() -> list[Problem]:
    rows = Account.objects.filter(kind__in=NEVER_NEGATIVE_KINDS, balance__lt=0).order_by("pk")
    return [
        Problem("not_negative", f"account #{account.pk} ({account})", f"balance is {account.balance}")
        for account in rows
    ]


def _total_not_zero() -> list[Problem]:
    total = Account.objects.aggregate(total=Coalesce(Sum("balance"), Value(0)))["total"]
    if total == 0:
        return []
    return [Problem("total", "all accounts", f"balances sum to {total}; expected 0")]


# The transactions that end a hand's or a round's escrow (``hand:<id>``, ``round:<id>``).
ESCROW_CLOSING_KINDS = [
    LedgerTransaction.Kind.SETTLEMENT,
    LedgerTransaction.Kind.PAYOUT,
    LedgerTransaction.Kind.REFUND,
]


def _escrow_not_closed() -> list[Problem]:
    # Escrow is the sum of many hands' and rounds' stakes, so a balanced transaction that
    # releases the wrong amount leaves every other check green: the coins just stay in (or
    # are taken from another table's share of) escrow. Per reference, escrow may never go
    # below what was staked, and once the settlement, payout or refund is posted it is empty.
    # The escrow sub-accounts (``escrow:<name>``, a pot carried across hands) hold coins past
    # their hand's settlement by design: only the main escrow closes per reference.
    rows = (
        LedgerEntry.objects.filter(account__code="escrow")
        .values("transaction__reference")
        .annotate(
            held=Sum("amount"),
            closings=Count("pk", filter=Q(transaction__kind__in=ESCROW_CLOSING_KINDS)),
        )
        .filter(Q(held__lt=0) | Q(closings__gt=0) & ~Q(held=0))
        .order_by("transaction__reference")
        .values_list("transaction__reference", "held", "closings")
    )
    return [
        Problem(
            "escrow",
            f"reference {reference or '(none)'}",
            f"escrow holds {held} for it after {closings} settlement, payout or refund; expected 0"
            if held >= 0
            else f"escrow paid out {-held} more than was staked for it",
        )
        for reference, held, closings in rows
    ]
