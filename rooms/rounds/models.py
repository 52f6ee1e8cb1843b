"""Shoes, rounds and bets of the house-banked games (every game of the banker family).

A banker table is a ``rooms.tables.models.Table`` with no seats: any number of
viewers, any number of bettors. The table deals from one ``Shoe`` (牌靴) at a
time; each ``Round`` is one coup dealt from it, with a betting window. Each
``Bet`` moved its coins from the player's wallet into escrow in its own ledger
transaction; the round ends in exactly one payout or refund transaction.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Shoe(models.Model):
    """One shuffled shoe (牌靴) of a table: its seed (revealed when finished) and the engine's state."""

    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="shoes", verbose_name=_("table")
    )
    number = models.PositiveIntegerField(_("number"))
    # 32 bytes from secrets; only its SHA-256 is shown until the shoe is finished.
    seed = models.BinaryField(_("seed"), max_length=32)
    # The engine's shoe: cards, cut card, position, history. Never sent to a browser.
    state = models.JSONField(_("state"), default=dict)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("shoe")
        verbose_name_plural = _("shoes")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="shoe_unique_number"),
            models.UniqueConstraint(
                fields=["table"], condition=Q(finished_at__isnull=True), name="shoe_one_open_per_table"
            ),
        ]

    def __str__(self) -> str:
        return _("Shoe %(number)s of table %(table)s") % {"number": self.number, "table": self.table_id}


class Round(models.Model):
    """One coup at a banker table: betting window, the deal revealed step by step, the result.

    ``phase`` is what viewers see (the clock moves it on at ``deadline``);
    ``status`` is where the round's money is: bets in escrow (``open``), the
    payout due, paid (``settled``), or every bet returned (``refunded``).
    """

    class Phase(models.TextChoices):
        BETTING = "betting", _("Betting")
        DEALING = "dealing", _("Dealing")
        RESULT = "result", _("Result")
        OVER = "over", _("Over")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        DUE = "due", _("Payout due")
        SETTLED = "settled", _("Settled")
        REFUNDED = "refunded", _("Refunded")

    LIVE_PHASES = (Phase.BETTING, Phase.DEALING, Phase.RESULT)

    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="rounds", verbose_name=_("table")
    )
    shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, related_name="rounds", verbose_name=_("shoe"))
    number = models.PositiveIntegerField(_("number"))
    # The coup's number within its shoe (1-based).
    coup = models.PositiveIntegerField(_("coup"))
    game_slug = models.SlugField(_("game"), max_length=40)
    # The tier's options merged over the game's defaults when the round opened: limits, timings, variant.
    config = models.JSONField(_("config"), default=dict)
    phase = models.CharField(_("phase"), max_length=10, choices=Phase.choices, default=Phase.BETTING)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    # The areas open for this coup, as the engine listed them: [{"area", "odds", "open"}].
    areas = models.JSONField(_("areas"), default=list)
    # The roads of the shoe before this coup (what viewers see until the result is shown).
    roads = models.JSONField(_("roads"), default=dict)
    # The engine's result (cards, totals, winner, reveal steps); never sent beyond the revealed steps.
    result = models.JSONField(_("result"), null=True, blank=True)
    revealed = models.PositiveSmallIntegerField(_("steps revealed"), default=0)
    # Coins staked per area, and in all, by every bettor.
    area_totals = models.JSONField(_("totals per area"), default=dict)
    staked = models.PositiveBigIntegerField(_("staked"), default=0)
    # The player banker of this round, None when the house banks; ``bank``: the coins the
    # banker put in escrow for it (transaction ``bank_key``), which every bet's most_won must fit in.
    banker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="banked_rounds",
        verbose_name=_("player banker"),
    )
    bank = models.PositiveBigIntegerField(_("banker's coins"), null=True, blank=True)
    bank_key = models.CharField(_("banker's escrow transaction key"), max_length=80, blank=True)
    # The most the standing bets can win in all (the sum of their ``bet_exposure`` most_won).
    exposure = models.PositiveBigIntegerField(_("most the bets can win"), default=0)
    # 咪牌 (the reveal by a player): an engine's ``reveal_pause`` stops the reveal after some steps
    # for the top bettor of the areas it names; ``revealer_step`` is the step count the current
    # pause was set at (None: no pause yet), ``revealer`` who may turn the next cards meanwhile.
    revealer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="revealed_rounds",
        verbose_name=_("revealer"),
    )
    revealer_area = models.CharField(_("revealer's area"), max_length=20, blank=True)
    revealer_step = models.PositiveSmallIntegerField(_("reveal paused at step"), null=True, blank=True)
    # Every pause's revealer, named again each time a betting window closes (no bet moves after
    # it): ``[{"after", "areas", "user", "name", "area"}]``, ``user`` None where nobody bet.
    revealers = models.JSONField(_("revealers of the pauses"), default=list, blank=True)
    # Betting windows opened after the first one (an engine's ``betting_windows``: later streets).
    window = models.PositiveSmallIntegerField(_("later betting windows opened"), default=0)
    # The areas of each betting window closed before the current one, in order (``areas`` as it
    # was when the next window replaced it): the odds an earlier window's bets were placed at.
    earlier_areas = models.JSONField(_("earlier windows' areas"), default=list, blank=True)
    paid = models.BigIntegerField(_("paid to players"), null=True, blank=True)
    rake = models.PositiveBigIntegerField(_("rake"), null=True, blank=True)
    settle_key = models.CharField(_("payout transaction key"), max_length=80, blank=True)
    refund_key = models.CharField(_("refund transaction key"), max_length=80, blank=True)
    refund_reason = models.CharField(_("refund reason"), max_length=200, blank=True)
    opened_at = models.DateTimeField(_("opened"), auto_now_add=True)
    dealt_at = models.DateTimeField(_("dealt"), null=True, blank=True)
    result_at = models.DateTimeField(_("result shown"), null=True, blank=True)
    settled_at = models.DateTimeField(_("settled"), null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="round_unique_number"),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(phase__in=["betting", "dealing", "result"]),
                name="round_one_live_per_table",
            ),
            models.UniqueConstraint(
                fields=["settle_key"], condition=~Q(settle_key=""), name="round_unique_settle_key"
            ),
            models.UniqueConstraint(
                fields=["refund_key"], condition=~Q(refund_key=""), name="round_unique_refund_key"
            ),
            models.CheckConstraint(
                condition=~(Q(status="settled") & Q(refund_key__gt="")), name="round_settled_or_refunded"
            ),
        ]
        indexes = [
            models.Index(fields=["phase", "deadline"], name="round_phase_deadline"),
            models.Index(fields=["status", "result_at"], name="round_status_result"),
        ]

    def __str__(self) -> str:
        return _("Round %(number)s of table %(table)s") % {"number": self.number, "table": self.table_id}

    @property
    def is_live(self) -> bool:
        return self.phase in self.LIVE_PHASES


class BetQuerySet(models.QuerySet):
    def standing(self):
        """The bets still in their round: not cancelled (撤销)."""
        return self.filter(cancel_key="")


class Bet(models.Model):
    """One bet on one area: its coins went from the wallet to escrow in the transaction ``ledger_key``."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="bets", verbose_name=_("round"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="round_bets",
        verbose_name=_("player"),
    )
    area = models.CharField(_("area"), max_length=20)
    amount = models.PositiveBigIntegerField(_("amount"))
    # The coins the bet moved into escrow: the most it can lose (``bet_exposure``), its amount or more.
    held = models.PositiveBigIntegerField(_("held in escrow"))
    # The most the bet can win (``bet_exposure``): what a player banker must be able to pay.
    most_won = models.PositiveBigIntegerField(_("most it can win"), default=0)
    ledger_key = models.CharField(_("bet transaction key"), max_length=80, blank=True)
    # The transaction that returned the bet from escrow when its player cancelled it (撤销) in the
    # betting window; a cancelled bet is out of the round (totals, payout, refund).
    cancel_key = models.CharField(_("cancel transaction key"), max_length=80, blank=True)
    # Coins won (+), lost (−amount) or returned (0), once the round is settled.
    net = models.BigIntegerField(_("net"), null=True, blank=True)
    created_at = models.DateTimeField(_("placed"), auto_now_add=True)

    objects = BetQuerySet.as_manager()

    class Meta:
        ordering = ["round", "pk"]
        verbose_name = _("bet")
        verbose_name_plural = _("bets")
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="bet_amount_positive"),
            models.CheckConstraint(condition=Q(held__gte=F("amount")), name="bet_held_covers_amount"),
            models.UniqueConstraint(
                fields=["ledger_key"], condition=~Q(ledger_key=""), name="bet_unique_ledger_key"
            ),
        ]
        indexes = [models.Index(fields=["round", "user"], name="bet_round_user")]

    def __str__(self) -> str:
        return f"{self.round_id}/{self.user_id} {self.area} {self.amount}"

    @property
    def cancelled(self) -> bool:
        return bool(self.cancel_key)


class Viewer(models.Model):
    """One socket watching a banker table: the table is idle without a live or recent one.

    A socket refreshes ``seen_at`` while broadcasts reach it; a row whose
    process died without closing it goes stale and stops counting.
    """

    table = models.ForeignKey(
        "tables.Table", on_delete=models.CASCADE, related_name="round_viewers", verbose_name=_("table")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    channel = models.CharField(_("channel"), max_length=200, unique=True)
    connected_at = models.DateTimeField(_("connected"), auto_now_add=True)
    seen_at = models.DateTimeField(_("last seen"), default=timezone.now)
    left_at = models.DateTimeField(_("left"), null=True, blank=True)

    class Meta:
        verbose_name = _("viewer")
        verbose_name_plural = _("viewers")
        indexes = [models.Index(fields=["table", "left_at"], name="viewer_table_left")]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.user_id}"


class BankerSeat(models.Model):
    """A player's turn at banking a table: queued, banking, then done (stepped or stood down).

    The first queued player whose wallet meets the tier's ``bank_minimum`` banks from the next
    round on, for at most ``bank_rounds`` rounds, until short, or until they ask to step down.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        BANKING = "banking", _("Banking")
        DONE = "done", _("Done")

    table = models.ForeignKey(
        "tables.Table", on_delete=models.CASCADE, related_name="banker_seats", verbose_name=_("table")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    rounds = models.PositiveIntegerField(_("rounds banked"), default=0)
    leaving = models.BooleanField(_("asked to step down"), default=False)
    end_reason = models.CharField(_("why it ended"), max_length=20, blank=True)
    applied_at = models.DateTimeField(_("applied"), auto_now_add=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("banker seat")
        verbose_name_plural = _("banker seats")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "user"], condition=~Q(status="done"), name="bankerseat_one_live_per_user"
            ),
            models.UniqueConstraint(
                fields=["table"], condition=Q(status="banking"), name="bankerseat_one_banker_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.user_id} {self.status}"
