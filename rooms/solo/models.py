"""Seed pairs, plays and open double-ups of the one-player games (every game of the solo family).

A solo game has no table: each play (a spin, a double-up) is one request of
one player, settled at once in one ledger transaction. Every play draws from
the player's current ``SeedPair``: the server seed (only its SHA-256 shown
until the player rotates it), the client seed they chose, and the pair's next
nonce, so a revealed seed lets the player recompute every play made with it.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class SeedPair(models.Model):
    """A player's server seed (secret until revealed), its hash, their client seed and the next nonce."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="seed_pairs",
        verbose_name=_("player"),
    )
    # 32 bytes from secrets; shown only once the player rotates to a new pair.
    server_seed = models.BinaryField(_("server seed"), max_length=32)
    server_hash = models.CharField(_("server seed SHA-256"), max_length=64)
    client_seed = models.CharField(_("client seed"), max_length=64)
    next_nonce = models.PositiveIntegerField(_("next nonce"), default=0)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    revealed_at = models.DateTimeField(_("revealed"), null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("seed pair")
        verbose_name_plural = _("seed pairs")
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=Q(revealed_at__isnull=True), name="seedpair_one_current_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.server_hash[:12]}"


class Play(models.Model):
    """One spin or double-up: its stake, gross win, fee and the wallet's change, with its draw."""

    class Kind(models.TextChoices):
        SPIN = "spin", _("Spin")
        GAMBLE = "gamble", _("Double-up")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="solo_plays",
        verbose_name=_("player"),
    )
    tier = models.ForeignKey(
        "rooms.RoomTier", on_delete=models.PROTECT, related_name="solo_plays", verbose_name=_("room tier")
    )
    game_slug = models.SlugField(_("game"), max_length=40)
    seed_pair = models.ForeignKey(
        SeedPair, on_delete=models.PROTECT, related_name="plays", verbose_name=_("seed pair")
    )
    nonce = models.PositiveIntegerField(_("nonce"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    # The spin a double-up started from (a chain of double-ups all name the same spin).
    origin = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="gambles",
        verbose_name=_("spin"),
    )
    stake = models.PositiveBigIntegerField(_("stake"))
    win = models.PositiveBigIntegerField(_("gross win"))
    rake = models.PositiveBigIntegerField(_("service fee"), default=0)
    # win − stake − fee: what the wallet gained (+) or lost (−).
    net = models.BigIntegerField(_("net"))
    result = models.JSONField(_("result"), default=dict)
    # The browser's key for this request: a retry with it gets this play back, never a second one.
    request_key = models.CharField(_("request key"), max_length=64)
    ledger_key = models.CharField(_("ledger key"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("played"), auto_now_add=True)

    class Meta:
        ordering = ["-pk"]
        verbose_name = pgettext_lazy("solo", "play")
        verbose_name_plural = _("plays")
        constraints = [
            models.UniqueConstraint(fields=["seed_pair", "nonce"], name="play_unique_nonce"),
            models.UniqueConstraint(fields=["user", "request_key"], name="play_unique_request"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.pk}"


class Offer(models.Model):
    """A player's open double-up: the win it stakes from, the wins so far, and when it is collected."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="solo_offer",
        verbose_name=_("player"),
    )
    tier = models.ForeignKey("rooms.RoomTier", on_delete=models.CASCADE, verbose_name=_("room tier"))
    origin = models.ForeignKey(Play, on_delete=models.CASCADE, related_name="+", verbose_name=_("spin"))
    amount = models.PositiveBigIntegerField(_("win to double"))
    wins = models.PositiveSmallIntegerField(_("double-ups won"), default=0)
    deadline = models.DateTimeField(_("collected automatically at"))

    class Meta:
        verbose_name = _("open double-up")
        verbose_name_plural = _("open double-ups")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.amount}"
