"""The game catalogue and its room tiers (初级场, 中级场, 高级场 ...)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.Model):
    """A catalogue entry for one engine of ``games.REGISTRY``."""

    class Family(models.TextChoices):
        SEATED = "seated", _("Seated")
        BANKER = "banker", _("House-banked")

    slug = models.SlugField(_("slug"), max_length=40, unique=True)
    name_zh = models.CharField(_("Chinese name"), max_length=40)
    name_en = models.CharField(_("English name"), max_length=80)
    family = models.CharField(_("family"), max_length=10, choices=Family.choices)
    min_seats = models.PositiveSmallIntegerField(_("minimum seats"))
    max_seats = models.PositiveSmallIntegerField(_("maximum seats"))
    is_enabled = models.BooleanField(_("enabled"), default=True)
    sort_order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        ordering = ["sort_order", "slug"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(min_seats__gte=1) & models.Q(max_seats__gte=models.F("min_seats")),
                name="game_seats_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name_zh} ({self.slug})"


class RoomTier(models.Model):
    """One room of a game: its stakes, entry rule, rake and variant options."""

    class MinimumRule(models.TextChoices):
        # 房间系数 N × 96 (斗地主, seed 002: N=5 needs 480).
        FACTOR = "factor", _("Room factor × multiplier")
        # A multiple of the base stake (梭哈: 100 × 底分).
        BASE_MULTIPLE = "base_multiple", _("Base stake × multiplier")
        # The table cap itself (扎金花: 封顶).
        TABLE_CAP = "table_cap", _("Table cap")
        FIXED = "fixed", _("Fixed amount")

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="tiers", verbose_name=_("game"))
    code = models.SlugField(_("code"), max_length=40)
    name = models.CharField(_("name"), max_length=40)
    base_stake = models.PositiveIntegerField(_("base stake (底分)"))
    room_factor = models.PositiveIntegerField(_("room factor (房间系数)"), default=1)
    minimum_rule = models.CharField(
        _("minimum-coin rule"), max_length=20, choices=MinimumRule.choices, default=MinimumRule.FACTOR
    )
    minimum_multiplier = models.PositiveIntegerField(_("minimum multiplier"), default=96)
    table_cap = models.PositiveIntegerField(_("table cap"), null=True, blank=True)
    fixed_minimum = models.PositiveBigIntegerField(_("fixed minimum"), null=True, blank=True)
    maximum_coins = models.PositiveBigIntegerField(_("maximum coins"), null=True, blank=True)
    rake_bps = models.PositiveIntegerField(
        _("rake (basis points)"), default=500, help_text=_("500 = 5% of each winner's profit.")
    )
    options = models.JSONField(_("variant options"), default=dict, blank=True)
    seats = models.PositiveSmallIntegerField(_("seats per table"), null=True, blank=True)
    bots_enabled = models.BooleanField(_("bots fill empty seats"), default=True)
    is_open = models.BooleanField(_("open"), default=True)
    sort_order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        ordering = ["game", "sort_order", "base_stake"]
        verbose_name = _("room tier")
        verbose_name_plural = _("room tiers")
        constraints = [
            models.UniqueConstraint(fields=["game", "code"], name="roomtier_unique_code"),
            models.CheckConstraint(condition=models.Q(base_stake__gt=0), name="roomtier_base_positive"),
            models.CheckConstraint(condition=models.Q(rake_bps__lte=10000), name="roomtier_rake_at_most_all"),
        ]

    def __str__(self) -> str:
        return f"{self.game.name_zh} {self.name}"

    @property
    def minimum_coins(self) -> int:
        """The fewest coins a player must hold to enter."""
        if self.minimum_rule == self.MinimumRule.FACTOR:
            return self.room_factor * self.minimum_multiplier
        if self.minimum_rule == self.MinimumRule.BASE_MULTIPLE:
            return self.base_stake * self.minimum_multiplier
        if self.minimum_rule == self.MinimumRule.TABLE_CAP:
            return self.table_cap or 0
        return self.fixed_minimum or 0
