"""Players: the custom user model and per-game win counts."""

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
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
    def display_name(self) -> str:
        return self.nickname or self.username


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
