"""A wallet read as a player reads it: one line per hand or round, one per other transaction.

The ledger keeps escrow legs. A seated hand's carried coins (携带) leave the
wallet for the escrow account when it is dealt (``stake``) and come back with
its ``settlement``; a banker round's bets leave one ``bet`` at a time and come
back with its ``payout`` (a bet its player cancels while the round takes bets
comes back at once in a ``cancel``, part of the round's line); a cancelled
hand or round comes back in one ``refund``. That is what keeps carried coins from being withdrawn or staked
twice, and what limits a hand's loss to what was carried. Read entry by
entry, though, a wallet reads 0 during a hand, and no line says what the hand
won or lost.

Read as lines, every game transaction of one reference (``hand:<id>``,
``round:<id>``) is one line: its amount is the hand's net for this wallet,
and it is dated by the transaction that closed the reference (the settlement,
payout or refund). Until that is posted the coins are *at the table*: the
wallet's total is its balance (available) plus the coins at the table, and a
line's running balance is that total after it. Every other transaction
(grants, deposits, withdrawals, adjustments, reversals) is a line of its own.

A line is identified by the id of the transaction that closes it (its own id
for a transaction of its own), and lines run in that order.
"""

import datetime as dt
from dataclasses import dataclass

from django.db.models import (
    BigIntegerField,
    Case,
    CharField,
    Count,
    Exists,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from wallets import sources
from wallets.models import LedgerEntry, LedgerTransaction
from wallets.sources import ReferenceLabel

Kind = LedgerTransaction.Kind
# The kinds that move a hand's or round's coins through escrow while it is open, and those that end it.
OPENING_KINDS = [Kind.STAKE, Kind.BET, Kind.CANCEL]
CLOSING_KINDS = [Kind.SETTLEMENT, Kind.PAYOUT, Kind.REFUND]
GAME_KINDS = OPENING_KINDS + CLOSING_KINDS


def _opening() -> Q:
    """Entries that move a hand's or round's coins while it is open: a stake, a bet, a bet cancelled (with its reference)."""
    return Q(transaction__kind__in=OPENING_KINDS) & ~Q(transaction__reference="")


def _closing() -> QuerySet:
    """The transaction that closed the outer entry's reference (none while its hand is open)."""
    return LedgerTransaction.objects.filter(
        reference=OuterRef("transaction__reference"), kind__in=CLOSING_KINDS
    ).order_by("pk")


def with_lines(entries: QuerySet[LedgerEntry], *, timed: bool = False) -> QuerySet[LedgerEntry]:
    """Annotate each entry with ``line_id`` (None: at the table) and, if ``timed``, ``line_at``.

    A settlement, payout or refund is its own line; a stake or bet belongs to the line of the
    transaction that closed its reference, looked up (by the indexed reference) for those
    entries only.
    """
    annotations = {
        "line_id": Case(
            When(_opening(), then=Subquery(_closing().values("pk")[:1])), default=F("transaction_id")
        )
    }
    if timed:
        annotations["line_at"] = Case(
            When(_opening(), then=Subquery(_closing().values("created_at")[:1])),
            default=F("transaction__created_at"),
        )
    return entries.annotate(**annotations)


def wallet_entries_of(*, user) -> QuerySet[LedgerEntry]:
    return LedgerEntry.objects.filter(account__user=user)


def coins_at_table(*, user) -> int:
    """Return the coins the player's open hands and rounds hold in escrow (carried or bet, not settled)."""
    held = (
        wallet_entries_of(user=user)
        .filter(_opening())
        .exclude(Exists(_closing()))
        .aggregate(total=Coalesce(Sum("amount"), 0))["total"]
    )
    return -held


def line_rows(entries: QuerySet[LedgerEntry]) -> QuerySet:
    """Group annotated entries into lines: ``{"line_id", "amount", "entries"}``, closed lines only."""
    return (
        entries.filter(line_id__isnull=False)
        .values("line_id")
        .annotate(amount=Sum("amount"), entries=Count("pk"))
        .order_by("line_id")
    )


def total_through(entries: QuerySet[LedgerEntry], line_id: int) -> int:
    """Return the sum of the annotated entries of every line up to and including ``line_id``."""
    return entries.filter(line_id__lte=line_id).aggregate(total=Coalesce(Sum("amount"), 0))["total"]


@dataclass
class Line:
    """One line of a wallet: a hand, a round or a transaction of its own, with the total after it."""

    id: int
    amount: int
    balance_after: int
    transaction: LedgerTransaction  # the closing transaction (kind, time, reference, game, tier)
    entries: int = 1
    label: ReferenceLabel | None = None  # what the reference means to a player (set by the reader)
    game: str = ""  # the game's and the room tier's names (set by the reader)
    tier: str = ""

    @property
    def is_game(self) -> bool:
        return self.transaction.kind in GAME_KINDS and bool(self.transaction.reference)

    @property
    def at(self) -> dt.datetime:
        return self.transaction.created_at

    @property
    def kind(self) -> str:
        return self.transaction.kind

    @property
    def reference(self) -> str:
        return self.transaction.reference


def _attribute(found: list[Line]) -> None:
    """Fill in the game and tier of lines whose transaction was posted without them (sources' SQL)."""
    missing = {line.id: line for line in found if not line.transaction.game_slug}
    games, tiers = sources.attributions("reference")
    if not missing or not games:
        return
    read = LedgerTransaction.objects.filter(pk__in=missing).annotate(
        read_game=Coalesce(*games, Value(""), output_field=CharField()),
        read_tier=Coalesce(*tiers, output_field=BigIntegerField()) if len(tiers) > 1 else tiers[0],
    )
    for pk, game_slug, tier_id in read.values_list("pk", "read_game", "read_tier"):
        missing[pk].transaction.game_slug = game_slug  # in memory only: the row is never changed
        missing[pk].transaction.tier_id = tier_id


def name_games(found: list[Line]) -> None:
    """Give each line the names of its game and room tier, as the ledger sources call them."""
    _attribute(found)
    tiers = sources.tier_names({line.transaction.tier_id for line in found} - {None})
    slugs = {line.transaction.game_slug for line in found} | {tier.game_slug for tier in tiers.values()}
    games = sources.game_names(slugs - {""})
    for line in found:
        tier = tiers.get(line.transaction.tier_id)
        slug = line.transaction.game_slug or (tier.game_slug if tier else "")
        line.game = games.get(slug, slug)
        line.tier = tier.name if tier else ""


def lines_of(rows: list[dict], *, balance_after_first: int, newest_first: bool) -> list[Line]:
    """Turn line rows (in display order) into ``Line``s, with the running total from the first one's."""
    transactions = LedgerTransaction.objects.in_bulk([row["line_id"] for row in rows])
    lines, balance = [], balance_after_first
    for n, row in enumerate(rows):
        if n:
            # Walking back in time, the total before the line above is its total less its amount.
            balance = balance - rows[n - 1]["amount"] if newest_first else balance + row["amount"]
        lines.append(
            Line(
                id=row["line_id"],
                amount=row["amount"],
                balance_after=balance,
                transaction=transactions[row["line_id"]],
                entries=row["entries"],
            )
        )
    return lines
