"""Coin accounts and the double-entry ledger.

Every coin lives in an ``Account``. Coins move only as a ``LedgerTransaction``
of two or more ``LedgerEntry`` rows that sum to zero, written by
``wallets.services.ledger_post``. Entries are append-only: a mistake is undone
by a reversing transaction. ``Account.balance`` is a cache of the sum of the
account's entries, kept in step by the same service under a row lock, and
``wallets.selectors.ledger_check`` proves the two agree.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# The largest |amount| one leg may move; far above any real stake, far below
# the 2**63 a BigInteger column holds, so sums of many legs cannot overflow.
MAX_AMOUNT = 10**15


class Account(models.Model):
    """A coin account: a player's wallet or one of the house accounts."""

    class Kind(models.TextChoices):
        PLAYER = "player", _("Player wallet")
        CASHIER = "cashier", _("Cashier (issuance)")
        RAKE = "rake", _("Rake income")
        BANK = "bank", _("House bank")
        ESCROW = "escrow", _("Escrow")

    # The cashier issues every coin, so it is negative by the amount in
    # circulation; the bank is the counterparty of house-banked games and may
    # be down. Every other account holds real coins and never goes below zero.
    MAY_GO_NEGATIVE = frozenset({Kind.CASHIER, Kind.BANK})
    HOUSE_KINDS = frozenset({Kind.CASHIER, Kind.RAKE, Kind.BANK, Kind.ESCROW})

    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="wallet",
    )
    code = models.CharField(_("code"), max_length=32, null=True, blank=True, unique=True)
    balance = models.BigIntegerField(_("balance"), default=0)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        permissions = [("move_money", _("Can deposit, withdraw and adjust coins"))]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=["cashier", "bank"]) | Q(balance__gte=0),
                name="wallets_account_balance_not_negative",
                violation_error_message=_("This account may not go below zero."),
            ),
            models.CheckConstraint(
                condition=(Q(kind="player") & Q(user__isnull=False) & Q(code__isnull=True))
                | (
                    Q(kind__in=["cashier", "rake", "bank", "escrow"])
                    & Q(user__isnull=True)
                    & Q(code__isnull=False)
                ),
                name="wallets_account_owner_matches_kind",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.PLAYER:
            return _("Wallet of %(user)s") % {"user": self.user}
        # The kind in words; the code only when it says more than the kind (a sub-account).
        return (
            self.get_kind_display() if self.code == self.kind else f"{self.get_kind_display()} ({self.code})"
        )

    @property
    def is_house(self) -> bool:
        return self.kind in self.HOUSE_KINDS


class LedgerTransaction(models.Model):
    """One balanced movement of coins, posted once per idempotency key."""

    class Kind(models.TextChoices):
        GRANT = "grant", _("Grant")
        DEPOSIT = "deposit", _("Deposit")
        WITHDRAWAL = "withdrawal", _("Withdrawal")
        ADJUSTMENT = "adjustment", _("Adjustment")
        REVERSAL = "reversal", _("Reversal")
        STAKE = "stake", _("Stake")
        SETTLEMENT = "settlement", _("Settlement")
        BET = "bet", _("Bet")
        # A player's bets returned from escrow while their round still takes bets (撤销, cancel).
        CANCEL = "cancel", _("Bet cancelled")
        PAYOUT = "payout", _("Payout")
        REFUND = "refund", _("Refund")

    key = models.CharField(_("idempotency key"), max_length=200, unique=True)
    # SHA-256 of what was posted, so a retry with the same key can be told
    # apart from a different request that reused the key by mistake.
    fingerprint = models.CharField(_("fingerprint"), max_length=64)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    reference = models.CharField(_("reference"), max_length=100, blank=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("actor"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger_transactions",
    )
    memo = models.TextField(_("memo"), blank=True)
    reversal_of = models.OneToOneField(
        "self",
        verbose_name=_("reversal of"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reversed_by",
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now, db_index=True)
    # What the coins were moved for, as plain values the finance reports group by: the game's
    # slug and the room tier's id, set by whoever posts a game's money. Not foreign keys: the
    # ledger knows nothing of games and tiers (other apps name them: ``wallets.sources``).
    # db_default: a row inserted by SQL that names no game (a raw INSERT) is "no game", not refused.
    game_slug = models.CharField(_("game"), max_length=40, blank=True, default="", db_default="")
    tier_id = models.PositiveBigIntegerField(_("room tier"), null=True, blank=True)

    class Meta:
        verbose_name = _("ledger transaction")
        verbose_name_plural = _("ledger transactions")

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_kind_display()} {self.reference}".strip()


class LedgerEntry(models.Model):
    """One leg of a transaction: ``amount`` into (or out of) one account."""

    transaction = models.ForeignKey(
        LedgerTransaction, verbose_name=_("transaction"), on_delete=models.PROTECT, related_name="entries"
    )
    account = models.ForeignKey(
        Account, verbose_name=_("account"), on_delete=models.PROTECT, related_name="entries"
    )
    amount = models.BigIntegerField(_("amount"))
    balance_after = models.BigIntegerField(_("balance after"))

    class Meta:
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="wallets_entry_amount_not_zero"),
            models.UniqueConstraint(
                fields=["transaction", "account"], name="wallets_entry_one_leg_per_account"
            ),
        ]
        indexes = [models.Index(fields=["account", "-id"], name="wallets_entry_account_recent")]

    def __str__(self) -> str:
        return f"{self.account} {self.amount:+d} → {self.balance_after}"


# Registered here because Django discovers an app's models through this module.
from wallets.finance_models import ReconciliationRecord  # noqa: E402, F401
