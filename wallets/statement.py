"""A player statement for finance: one player's wallet over a range of days, as lines.

A hand or banker round is one line with its net, on the site day it was
settled; until then its coins count in the balances as at the table
(``wallets.lines``). Income and expenses are what the lines won and lost, not
the coins carried into hands and back.
"""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from wallets import lines
from wallets.models import Account, LedgerEntry
from wallets.reports import day_range


@dataclass
class Statement:
    """One player's wallet over a range: a line per hand or round (its net) and per other transaction.

    Balances are the wallet's total, available + at the table (``wallets.lines``):
    a hand counts on the day it closed, with its net.
    """

    player: object
    wallet: Account | None
    start: dt.date
    end: dt.date
    opening: int
    closing: int
    credits: int
    debits: int
    rows: QuerySet  # line rows of the range, oldest first (``lines.line_rows``)
    entries: QuerySet  # the wallet's entries, annotated with their lines (``lines.with_lines``)
    at_table: int = 0  # coins at the table now (when the range ends now)

    @property
    def count(self) -> int:
        return self.rows.count()

    def lines(self, rows: list[dict]) -> list[lines.Line]:
        """Return ``rows`` (consecutive line rows of this statement, oldest first) as lines with balances."""
        if not rows:
            return []
        low, high = day_range(self.start, self.end)
        in_range = self.entries.filter(line_at__gte=low, line_at__lt=high)
        first = self.opening + lines.total_through(in_range, rows[0]["line_id"])
        found = lines.lines_of(rows, balance_after_first=first, newest_first=False)
        lines.name_games(found)
        return found

    @property
    def matches_wallet(self) -> bool | None:
        """Whether the closing total equals the wallet's balance plus its coins at the table (None for the past)."""
        if self.wallet is None:
            return self.closing == 0
        if day_range(self.start, self.end)[1] <= timezone.now():
            return None
        return self.closing == self.wallet.balance + self.at_table


def player_statement(*, player, start: dt.date, end: dt.date) -> Statement:
    """Return ``player``'s wallet lines closed in the range, oldest first, with totals around them."""
    low, high = day_range(start, end)
    wallet = Account.objects.filter(user=player).first()
    entries = lines.with_lines(LedgerEntry.objects.filter(account=wallet), timed=True)
    rows = lines.line_rows(entries.none())
    opening = closing = credits = debits = at_table = 0
    if wallet is not None:
        # What the lines closed before the range add up to, as the trial balance counts it (by
        # time, not by id: a transaction is stamped before it waits for the wallet's lock, so
        # a later-stamped posting may come first in id order). Coins at the table then count
        # in the total: their hand is a line of the day it closes.
        opening = entries.filter(line_at__lt=low).aggregate(total=Coalesce(Sum("amount"), 0))["total"]
        in_range = entries.filter(line_at__gte=low, line_at__lt=high)
        rows = lines.line_rows(in_range)
        sums = rows.aggregate(
            credits=Coalesce(Sum("amount", filter=Q(amount__gt=0)), 0),
            debits=Coalesce(Sum("amount", filter=Q(amount__lt=0)), 0),
        )
        credits, debits = sums["credits"], -sums["debits"]
        closing = opening + credits - debits
        at_table = lines.coins_at_table(user=player)
    return Statement(
        player=player,
        wallet=wallet,
        start=start,
        end=end,
        opening=opening,
        closing=closing,
        credits=credits,
        debits=debits,
        rows=rows,
        entries=entries,
        at_table=at_table,
    )
