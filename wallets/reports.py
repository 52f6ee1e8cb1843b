"""Finance reports over the ledger: every figure is aggregated by the database.

Days are site-timezone days (``settings.TIME_ZONE``): a range ``start..end``
covers ``[start 00:00, end + 1 day 00:00)`` in that zone, and "by day" groups
by the transaction's ``created_at`` converted to that zone.

Attribution (how a transaction is tied to a game and room tier): by the game
slug and tier id the poster wrote on the transaction (``game_slug``,
``tier_id``; wallets migration 0007 filled them in for what was posted
before). Names come from the registered ledger sources (``wallets.sources``:
the rooms), so a tier renamed later reports under its current name, and
wallets imports nothing of rooms. A transaction posted without them is
attributed by SQL a source supplies from its reference (``hand:<id>``,
``round:<id>``), else the house bank takes the reference's prefix before the
first ":" (``<slug>:812``).

- Rake: the rake account's legs by tier; those with no tier appear under
  "unattributed" (a staff correction), a tier no source names as "#<id>".
- House bank: the bank's legs of game kinds (bet, payout, settlement,
  refund, stake, reversal); staff funding of the bank through the cashier is
  not a game result.

The player statement is ``wallets.statement``.
"""

import datetime as dt
import zoneinfo
from dataclasses import dataclass, field
from platform.accounts.validators import BOT_USERNAME_PREFIX

from django.conf import settings
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.db.models import (
    BigIntegerField,
    Case,
    CharField,
    Count,
    Expression,
    F,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce, Left, NullIf, StrIndex, TruncDate
from django.utils import timezone
from django.utils.translation import gettext as _

from wallets import sources
from wallets.models import Account, LedgerEntry, LedgerTransaction

BANK_GAME_KINDS = ["bet", "payout", "settlement", "refund", "stake", "reversal"]
ISSUANCE_KINDS = ["grant", "deposit", "withdrawal", "adjustment"]


def site_zone() -> zoneinfo.ZoneInfo:
    """Return the site's timezone, in which every "day" of a report is counted."""
    return zoneinfo.ZoneInfo(settings.TIME_ZONE)


def site_today() -> dt.date:
    """Return today's date in the site's timezone."""
    return timezone.localtime(timezone.now(), site_zone()).date()


def day_start(day: dt.date) -> dt.datetime:
    """Return the aware instant at which ``day`` begins in the site's timezone."""
    return dt.datetime.combine(day, dt.time.min, tzinfo=site_zone())


def day_range(start: dt.date, end: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """Return ``[start 00:00, end + 1 day 00:00)`` in the site's timezone."""
    return day_start(start), day_start(end + dt.timedelta(days=1))


def _tier_id() -> Expression:
    """The room tier of an entry's transaction: as posted, else as a ledger source reads its reference."""
    _games, tiers = sources.attributions("transaction__reference")
    if not tiers:
        return F("transaction__tier_id")
    return Coalesce("transaction__tier_id", *tiers, output_field=BigIntegerField())


def _game_slug() -> Expression:
    """The game of an entry's transaction: as posted, else from its reference (a source's SQL, the prefix)."""
    reference = F("transaction__reference")
    prefix = Case(
        When(transaction__reference__contains=":", then=Left(reference, StrIndex(reference, Value(":")) - 1)),
        default=Value(""),
        output_field=CharField(),
    )
    games, _tiers = sources.attributions("transaction__reference")
    return Coalesce(NullIf("transaction__game_slug", Value("")), *games, prefix, output_field=CharField())


def _site_day() -> TruncDate:
    return TruncDate("transaction__created_at", tzinfo=site_zone())


# --- trial balance -------------------------------------------------------------


@dataclass
class TrialBalance:
    """Balances by account kind at the end of one site-timezone day, with the invariants."""

    on: dt.date
    by_kind: dict[str, int]
    entries_by_kind: dict[str, int]
    grand_total: int
    grants: int
    deposits: int
    withdrawals: int
    adjustments: int
    issued: int
    held_by_players: int
    in_escrow: int
    house_rake: int
    house_bank: int
    # The part of ``held_by_players`` in the house's bots' wallets: bankroll the house granted
    # them, not coins owed to people.
    held_by_bots: int = 0
    alerts: list[str] = field(default_factory=list)

    @property
    def held_by_house(self) -> int:
        return self.house_rake + self.house_bank

    @property
    def kinds(self) -> list[tuple[str, str, int, int]]:
        """(kind, label, total, entries) for every account kind, in the model's order."""
        return [
            (kind, label, self.by_kind.get(kind, 0), self.entries_by_kind.get(kind, 0))
            for kind, label in Account.Kind.choices
        ]


def trial_balance(*, on: dt.date) -> TrialBalance:
    """Sum every entry posted up to the end of ``on`` by account kind; name each invariant that fails."""
    cutoff = day_start(on + dt.timedelta(days=1))
    upto = LedgerEntry.objects.filter(transaction__created_at__lt=cutoff)
    by_kind: dict[str, int] = {}
    entries_by_kind: dict[str, int] = {}
    for row in upto.values("account__kind").annotate(total=Sum("amount"), n=Count("pk")).order_by():
        by_kind[row["account__kind"]] = row["total"]
        entries_by_kind[row["account__kind"]] = row["n"]
    cashier_by_txn_kind = dict(
        upto.filter(account__kind=Account.Kind.CASHIER)
        .values("transaction__kind")
        .annotate(total=Sum("amount"))
        .order_by()
        .values_list("transaction__kind", "total")
    )
    report = TrialBalance(
        on=on,
        by_kind=by_kind,
        entries_by_kind=entries_by_kind,
        grand_total=sum(by_kind.values()),
        # The cashier's legs are the mirror image of the coins it issued.
        grants=-cashier_by_txn_kind.get("grant", 0),
        deposits=-cashier_by_txn_kind.get("deposit", 0),
        withdrawals=cashier_by_txn_kind.get("withdrawal", 0),
        adjustments=-sum(
            v for k, v in cashier_by_txn_kind.items() if k not in ("grant", "deposit", "withdrawal")
        ),
        issued=-by_kind.get(Account.Kind.CASHIER, 0),
        held_by_players=by_kind.get(Account.Kind.PLAYER, 0),
        in_escrow=by_kind.get(Account.Kind.ESCROW, 0),
        house_rake=by_kind.get(Account.Kind.RAKE, 0),
        house_bank=by_kind.get(Account.Kind.BANK, 0),
        held_by_bots=upto.filter(_house_bot_legs()).aggregate(total=Sum("amount"))["total"] or 0,
    )
    report.alerts = _trial_balance_alerts(report, cutoff=cutoff)
    return report


def _house_bot_legs() -> Q:
    """Entries on the house bots' wallets: the accounts the bot runtime makes (reserved prefix,
    no usable password), never a person's."""
    return Q(
        account__kind=Account.Kind.PLAYER,
        account__user__username__startswith=BOT_USERNAME_PREFIX,
        account__user__password__startswith=UNUSABLE_PASSWORD_PREFIX,
    )


def _trial_balance_alerts(report: TrialBalance, *, cutoff: dt.datetime) -> list[str]:
    alerts = []
    if report.grand_total != 0:
        alerts.append(
            _("The entries of all accounts sum to %(total)s; a balanced ledger sums to 0.")
            % {"total": f"{report.grand_total:,}"}
        )
    held = report.held_by_players + report.in_escrow + report.house_rake + report.house_bank
    if held != report.issued:
        alerts.append(
            _("Coins held (%(held)s) differ from coins issued (%(issued)s).")
            % {"held": f"{held:,}", "issued": f"{report.issued:,}"}
        )
    accounted = report.grants + report.deposits - report.withdrawals + report.adjustments
    if accounted != report.issued:
        alerts.append(
            _(
                "Grants + deposits − withdrawals + adjustments (%(sum)s) differ from coins issued (%(issued)s)."
            )
            % {"sum": f"{accounted:,}", "issued": f"{report.issued:,}"}
        )
    for kind, label, total, _entries in report.kinds:
        if kind not in Account.MAY_GO_NEGATIVE and total < 0:
            alerts.append(
                _("%(kind)s accounts total %(total)s; they may never go below zero.")
                % {"kind": label, "total": f"{total:,}"}
            )
    if cutoff > timezone.now():
        # Up to now, the cached balances must agree with the entries, kind by kind.
        cached = dict(
            Account.objects.values("kind")
            .annotate(total=Sum("balance"))
            .order_by()
            .values_list("kind", "total")
        )
        for kind, label, total, _entries in report.kinds:
            if cached.get(kind, 0) != total:
                alerts.append(
                    _("%(kind)s balances total %(cached)s but their entries sum to %(total)s.")
                    % {"kind": label, "cached": f"{cached.get(kind, 0):,}", "total": f"{total:,}"}
                )
    return alerts


# --- rake income --------------------------------------------------------------


@dataclass
class ReportRow:
    """One (day, game[, tier]) cell of a by-day report."""

    day: dt.date
    game: str
    tier: str
    amount: int
    count: int


@dataclass
class DayReport:
    """Rows by day × game (× tier), with totals per day and overall."""

    start: dt.date
    end: dt.date
    rows: list[ReportRow]

    @property
    def total(self) -> int:
        return sum(row.amount for row in self.rows)

    @property
    def count(self) -> int:
        return sum(row.count for row in self.rows)

    @property
    def by_day(self) -> list[tuple[dt.date, int]]:
        """Every day of the range (zero where nothing happened) with its total, for the chart."""
        totals: dict[dt.date, int] = {}
        for row in self.rows:
            totals[row.day] = totals.get(row.day, 0) + row.amount
        days = (self.end - self.start).days + 1
        return [
            (day, totals.get(day, 0))
            for day in (self.start + dt.timedelta(days=n) for n in range(max(days, 0)))
        ]


def rake_income(*, start: dt.date, end: dt.date) -> DayReport:
    """Rake received per site day × game × room tier (net of reversals)."""
    low, high = day_range(start, end)
    rows = list(
        LedgerEntry.objects.filter(
            account__kind=Account.Kind.RAKE,
            transaction__created_at__gte=low,
            transaction__created_at__lt=high,
        )
        .annotate(day=_site_day(), tier=_tier_id())
        .values("day", "tier")
        .annotate(amount=Sum("amount"), count=Count("transaction_id"))
        .order_by("day", F("tier").asc(nulls_last=True))  # unattributed last, on every database
    )
    tiers = sources.tier_names({row["tier"] for row in rows} - {None})
    games = sources.game_names({tier.game_slug for tier in tiers.values()})

    def cells(tier_id: int | None) -> tuple[str, str]:
        if tier_id is None:
            return _("unattributed"), _("unattributed")
        if tier_id not in tiers:  # no source names it (a tier deleted, or no rooms app)
            return "", f"#{tier_id}"
        slug = tiers[tier_id].game_slug
        return games.get(slug, slug), tiers[tier_id].name

    return DayReport(
        start=start,
        end=end,
        rows=[
            ReportRow(row["day"], *cells(row["tier"]), amount=row["amount"], count=row["count"])
            for row in rows
        ],
    )


# --- house bank -----------------------------------------------------------------


def banked_games() -> list[str]:
    """Return the names of the catalogue's house-banked games."""
    return sources.banked_game_names()


def bank_result(*, start: dt.date, end: dt.date) -> DayReport:
    """The house bank's result (its legs: + the house won) per site day × game."""
    low, high = day_range(start, end)
    rows = list(
        LedgerEntry.objects.filter(
            account__kind=Account.Kind.BANK,
            transaction__kind__in=BANK_GAME_KINDS,
            transaction__created_at__gte=low,
            transaction__created_at__lt=high,
        )
        .annotate(day=_site_day(), game_slug=_game_slug())
        .values("day", "game_slug")
        .annotate(amount=Sum("amount"), count=Count("transaction_id"))
        .order_by("day", "game_slug")
    )
    names = sources.game_names({row["game_slug"] for row in rows})
    return DayReport(
        start=start,
        end=end,
        rows=[
            ReportRow(
                day=row["day"],
                game=names.get(row["game_slug"]) or row["game_slug"] or _("unattributed"),
                tier="",
                amount=row["amount"],
                count=row["count"],
            )
            for row in rows
        ],
    )


# --- transaction search -----------------------------------------------------------


def transaction_search(
    *,
    reference: str = "",
    kind: str = "",
    amount_min: int | None = None,
    amount_max: int | None = None,
    player=None,
    start: dt.date | None = None,
    end: dt.date | None = None,
) -> QuerySet[LedgerTransaction]:
    """Find transactions, newest first, each with ``amount`` (coins moved: the sum of its credits).

    ``reference`` matches exactly, or as a prefix when it ends with "*" ("hand:*", "staff:*").
    """
    found = LedgerTransaction.objects.all()
    if reference.endswith("*"):
        found = found.filter(reference__startswith=reference[:-1])
    elif reference:
        found = found.filter(reference=reference)
    if kind:
        found = found.filter(kind=kind)
    if player is not None:
        found = found.filter(pk__in=LedgerEntry.objects.filter(account__user=player).values("transaction_id"))
    if start is not None:
        found = found.filter(created_at__gte=day_start(start))
    if end is not None:
        found = found.filter(created_at__lt=day_start(end + dt.timedelta(days=1)))
    found = found.annotate(
        amount=Sum("entries__amount", filter=Q(entries__amount__gt=0)), legs=Count("entries")
    )
    if amount_min is not None:
        found = found.filter(amount__gte=amount_min)
    if amount_max is not None:
        found = found.filter(amount__lte=amount_max)
    return found.select_related("actor").order_by("-pk")
