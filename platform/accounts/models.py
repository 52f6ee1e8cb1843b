"""Players: the custom user model and per-game win counts."""

from platform.accounts.names import is_bot_username, player_name

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A player or a staff member; ``nickname`` (昵称) is what tables show."""

    nickname = models.CharField(_("nickname"), max_length=32, blank=True)
    # validators.nickname_fold(nickname), written with it by the services: two players may not
    # hold names that fold to the same key (``Erin``, ``ERIN``, full-width ``Ｅrin``).
    nickname_key = models.CharField(_("nickname key"), max_length=64, blank=True, default="", editable=False)

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        constraints = [
            models.UniqueConstraint(
                fields=["nickname_key"], condition=~models.Q(nickname_key=""), name="user_nickname_key_unique"
            )
        ]

    @property
    def stored_name(self) -> str:
        """The name as kept (a bot's in Chinese, 机器人853): what a hand records of its players."""
        return self.nickname or self.username

    @property
    def display_name(self) -> str:
        """The name shown, in the active language (a bot is "Bot 853" in English)."""
        return player_name(self.stored_name, is_bot=is_bot_username(self.username))


class GameStats(models.Model):
    """One player's hands and wins in one game; wins decide the player level (玩家等级)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="game_stats",
        verbose_name=_("player"),
    )
    game_slug = models.SlugField(_("game"), max_length=40)
    hands = models.PositiveIntegerField(_("hands played"), default=0)
    wins = models.PositiveIntegerField(_("hands won"), default=0)
    updated_at = models.DateTimeField(_("last hand"), auto_now=True)

    class Meta:
        ordering = ["user", "game_slug"]
        verbose_name = _("game statistics")
        verbose_name_plural = _("game statistics")
        constraints = [
            models.UniqueConstraint(fields=["user", "game_slug"], name="gamestats_one_row_per_game"),
            models.CheckConstraint(
                condition=models.Q(wins__lte=models.F("hands")), name="gamestats_wins_within_hands"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.game_slug}: {self.wins}/{self.hands}"


class SignUp(models.Model):
    """How a player signed up: the address it counts against, and the sign-up grant paid in parts.

    The grant's rule is copied here at sign-up (``platform.accounts.grants``), so
    that staff changing the settings later changes no promise already made.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="signup",
        verbose_name=_("player"),
    )
    # The address the per-address limit counts (an IPv6 /64 by its first address); none for
    # accounts made by staff tools and the demo loader.
    address = models.GenericIPAddressField(_("address"), null=True, blank=True)
    created_at = models.DateTimeField(_("signed up"), default=timezone.now)
    grant_total = models.PositiveBigIntegerField(_("grant in all"))
    grant_first = models.PositiveBigIntegerField(_("paid at sign-up"))
    grant_parts = models.PositiveSmallIntegerField(_("parts paid by play"))
    grant_part_hands = models.PositiveIntegerField(_("hands per part"))
    parts_paid = models.PositiveSmallIntegerField(_("parts paid"), default=0)

    class Meta:
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        indexes = [models.Index(fields=["address", "created_at"], name="signup_address_time")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(parts_paid__lte=models.F("grant_parts")), name="signup_parts_within_grant"
            ),
            models.CheckConstraint(
                condition=models.Q(grant_part_hands__gte=1), name="signup_part_hands_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.parts_paid}/{self.grant_parts}"


class UserDevice(models.Model):
    """A browser a player signed in from, known by the SHA-256 of its device cookie (never the cookie).

    ``platform.accounts.devices`` writes one row per account and browser at each
    log-in. Accounts that share a row's hash signed in from one browser: room
    tiers that keep linked accounts apart never seat them at one table.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="devices",
        verbose_name=_("player"),
    )
    cookie_hash = models.CharField(_("device cookie hash"), max_length=64)
    first_seen = models.DateTimeField(_("first log-in"), default=timezone.now)
    last_seen = models.DateTimeField(_("last log-in"), default=timezone.now)

    class Meta:
        verbose_name = _("browser")
        verbose_name_plural = _("browsers")
        indexes = [models.Index(fields=["cookie_hash"], name="userdevice_cookie_hash")]
        constraints = [
            models.UniqueConstraint(fields=["user", "cookie_hash"], name="userdevice_one_row_per_browser")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.cookie_hash[:12]}"
