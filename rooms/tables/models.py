"""Tables, seats, hands and their action logs.

A table belongs to one room tier and has a fixed number of seats (one row per
seat index, empty when ``user`` is null). A user holds at most one seat across
every table (a partial unique constraint): a player sits at one table at a
time. Bots are real users (``is_bot`` on the seat) with wallets funded by
grants, so they go through the same ledger as everyone else.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Table(models.Model):
    """One table of a room tier; ``seq`` counts every committed change (the event sequence)."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        CLOSED = "closed", _("Closed")

    tier = models.ForeignKey(
        "rooms.RoomTier", on_delete=models.PROTECT, related_name="tables", verbose_name=_("room tier")
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.WAITING)
    seat_count = models.PositiveSmallIntegerField(_("seats"))
    seq = models.PositiveBigIntegerField(_("event sequence"), default=0)
    # The seat that bids first next hand (the first player out last hand), or None.
    next_first_seat = models.PositiveSmallIntegerField(_("next first seat"), null=True, blank=True)
    # A pot the last hand carried to the next (``Outcome.details["carry"]``: {"pot", "level",
    # "players"}), held in the table's escrow sub-account until a later hand pays it out.
    carry = models.JSONField(_("carried pot"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        indexes = [models.Index(fields=["tier", "status"], name="table_tier_status")]

    def __str__(self) -> str:
        return _("Table %(id)s") % {"id": self.pk}


class Seat(models.Model):
    """One chair at a table: who sits there, and whether they are ready, under 托管 or connected."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table"))
    index = models.PositiveSmallIntegerField(_("index"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="table_seat",
        verbose_name=_("user"),
    )
    is_bot = models.BooleanField(_("bot"), default=False)
    ready = models.BooleanField(_("ready"), default=False)
    # 托管 (trustee): the server plays for this seat until the player takes control back.
    trustee = models.BooleanField(_("trustee"), default=False)
    connected = models.BooleanField(_("connected"), default=False)
    # The channel names of the player's open sockets to this table (any ASGI process): the
    # seat is disconnected only when the last one closes, not when one of two tabs does.
    sockets = models.JSONField(default=list, blank=True, editable=False)
    # When the player sat down or last pressed ready (the bots' wait counts from here).
    seated_at = models.DateTimeField(_("seated at"), null=True, blank=True)
    # When the player's last socket went away; between hands an away player stands up after a while.
    away_since = models.DateTimeField(_("away since"), null=True, blank=True)
    # The lease of the open sockets: each renews it while it lives (every TABLE_SESSION_RECHECK
    # seconds), so a seat whose sockets died with their process goes away once it lapses.
    present_until = models.DateTimeField(_("present until"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["table", "index"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_unique_index"),
            # A player sits at one table at a time: empty seats have no user, and a
            # table's seats are emptied when it closes, so every user row here is open.
            models.UniqueConstraint(
                fields=["user"], condition=models.Q(user__isnull=False), name="seat_one_table_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.index}"


class Hand(models.Model):
    """One hand played at a table: its seed, config, state, deadline and result."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished, not settled yet")
        SETTLED = "settled", _("Settled")
        CANCELLED = "cancelled", _("Cancelled")

    # No index of its own on ``table`` or ``game_slug``: every update that is not HOT writes an
    # entry to each index, and ``hand_unique_number`` (table, number) already serves the lookups
    # by table. No index covers a column a move changes (state, deadline, token, count), so a
    # move's UPDATE can be HOT: the row's new version on the same page, no index entry at all
    # (tables migration 0005, which also leaves room on the page and compresses the state with lz4).
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="hands", verbose_name=_("table"), db_index=False
    )
    number = models.PositiveIntegerField(_("number"))
    game_slug = models.SlugField(_("game"), max_length=40, db_index=False)
    # 32 bytes from secrets; shown only once the hand is over.
    seed = models.BinaryField(_("seed"), max_length=32)
    config = models.JSONField(_("config"), default=dict)
    # Per seat: {"user": id, "name": ..., "is_bot": bool, "carried": coins in escrow}.
    players = models.JSONField(_("players"), default=list)
    # The humans who played (for a player's history); bots are left out.
    participants = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="hands_played", blank=True, verbose_name=_("participants")
    )
    state = models.JSONField(_("state"), default=dict)
    # The runtime's clock of the hand, beside the engine's state: a lone actor's turn
    # ({"turn": {"n", "deadline"}}) or a simultaneous countdown ({"countdown": {...}}).
    clock = models.JSONField(_("clock"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PLAYING)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    # Bumped with every deadline change: a timer carrying an older token does nothing.
    deadline_token = models.PositiveIntegerField(_("deadline token"), default=0)
    action_count = models.PositiveIntegerField(_("actions"), default=0)
    outcome = models.JSONField(_("outcome"), null=True, blank=True)
    cancel_reason = models.CharField(_("cancel reason"), max_length=200, blank=True)
    stake_key = models.CharField(_("stake transaction key"), max_length=80, blank=True)
    settlement_key = models.CharField(_("settlement transaction key"), max_length=80, blank=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    settled_at = models.DateTimeField(_("settled"), null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_unique_number"),
            # At most one hand in play (or awaiting settlement) per table.
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(status__in=["playing", "finished"]),
                name="hand_one_open_per_table",
            ),
        ]
        indexes = [
            # The tick's overdue hands and the unsettled ones: only open hands are in it, not
            # every hand ever played (settled and cancelled hands never need it). By status
            # alone, not (status, deadline): the deadline changes at every move, and an indexed
            # column that changes rules out a HOT update. The tick filters the playing hands'
            # deadlines on the rows (at most one open hand per table).
            models.Index(
                fields=["status"],
                condition=models.Q(status__in=["playing", "finished"]),
                name="hand_open_status",
            )
        ]

    def __str__(self) -> str:
        return _("Hand %(id)s") % {"id": self.pk}

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.PLAYING


class HandAction(models.Model):
    """One entry of a hand's action log; ``auto`` marks moves by the timer, 托管 or a bot."""

    # No index of its own on ``hand``: ``handaction_unique_n`` (hand, n) serves its lookups, and
    # every action's INSERT would write to it.
    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, related_name="actions", verbose_name=_("hand"), db_index=False
    )
    n = models.PositiveIntegerField(_("number"))
    # None for a deadline that moved the hand on without any seat acting.
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    action = models.JSONField(_("action"))
    auto = models.BooleanField(_("automatic"), default=False)
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        ordering = ["hand", "n"]
        verbose_name = _("hand action")
        verbose_name_plural = _("hand actions")
        constraints = [models.UniqueConstraint(fields=["hand", "n"], name="handaction_unique_n")]

    def __str__(self) -> str:
        return f"{self.hand_id}/{self.n}"
