"""The game catalogue and its room tiers (初级场, 中级场, 高级场 ...)."""

from decimal import Decimal
from platform.accounts.names import localized

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

import games


class Game(models.Model):
    """A catalogue entry for one engine of ``games.REGISTRY``."""

    class Family(models.TextChoices):
        SEATED = "seated", _("Seated")
        BANKER = "banker", _("House-banked")
        SOLO = "solo", _("One player")

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

    @property
    def name(self) -> str:
        """Return the game's name in the active language: English on an English page, else Chinese."""
        return localized(self.name_zh, self.name_en)


class RoomTier(models.Model):
    """One room of a game: its stakes, entry rule, rake and variant options."""

    class MinimumRule(models.TextChoices):
        # 房间系数 N × 96 (seed 002: N=5 needs 480).
        FACTOR = "factor", _("Room factor × multiplier")
        # A multiple of the base stake (seed 002 has one game at 100 × 底分).
        BASE_MULTIPLE = "base_multiple", _("Base stake × multiplier")
        # The table cap itself (封顶, seed 002).
        TABLE_CAP = "table_cap", _("Table cap")
        FIXED = "fixed", _("Fixed amount")

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="tiers", verbose_name=_("game"))
    code = models.SlugField(_("code"), max_length=40)
    name = models.CharField(_("Chinese name"), max_length=40)
    # Required in the admin's form; a tier saved without it shows its Chinese name in English too.
    name_en = models.CharField(_("English name"), max_length=80, blank=True, default="")
    base_stake = models.PositiveIntegerField(_("base stake"))
    room_factor = models.PositiveIntegerField(_("room factor"), default=1)
    minimum_rule = models.CharField(
        _("minimum-coin rule"), max_length=20, choices=MinimumRule.choices, default=MinimumRule.FACTOR
    )
    minimum_multiplier = models.PositiveIntegerField(_("minimum multiplier"), default=96)
    table_cap = models.PositiveIntegerField(_("table cap"), null=True, blank=True)
    fixed_minimum = models.PositiveBigIntegerField(_("fixed minimum"), null=True, blank=True)
    maximum_coins = models.PositiveBigIntegerField(_("maximum coins"), null=True, blank=True)
    # 携带: what a seat brings to each hand. A seat's stack is public (the games show it), so it must
    # not be its wallet: a seat carries this, or the minimum when the wallet holds less.
    carry_coins = models.PositiveBigIntegerField(
        _("coins carried into a hand"),
        null=True,
        blank=True,
        help_text=_(
            "What each seat brings to a hand when its wallet holds it, else the minimum to enter; "
            "the rest stays in the wallet. Blank: the site's default, 10 × the minimum unless set otherwise."
        ),
    )
    rake_bps = models.PositiveIntegerField(
        _("rake (basis points)"),
        default=500,
        # xgettext:no-python-format
        help_text=_("500 = 5% of each winner's profit."),
    )
    options = models.JSONField(_("variant options"), default=dict, blank=True)
    seats = models.PositiveSmallIntegerField(_("seats per table"), null=True, blank=True)
    bots_enabled = models.BooleanField(_("bots fill empty seats"), default=True)
    # 分组 (seed 002): one person's accounts at one table could pass coins to each other.
    separate_linked = models.BooleanField(
        _("keep linked accounts apart"),
        default=True,
        help_text=_(
            "Never seat at one table two accounts that signed up from one address or logged in from one browser."
        ),
    )
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
            models.CheckConstraint(
                condition=~models.Q(minimum_rule="table_cap")
                | models.Q(table_cap__isnull=False, table_cap__gt=0),
                name="roomtier_table_cap_rule_has_cap",
            ),
            models.CheckConstraint(
                condition=~models.Q(minimum_rule="fixed") | models.Q(fixed_minimum__isnull=False),
                name="roomtier_fixed_rule_has_amount",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game.name} {self.display_name}"  # named in the active language

    @property
    def display_name(self) -> str:
        """Return the tier's name in the active language: English on an English page, else Chinese."""
        return localized(self.name, self.name_en)

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

    @property
    def carry_target(self) -> int:
        """The coins a seat carries into a hand when its wallet holds them (携带).

        ``carry_coins``, else ``TABLE_CARRY_MULTIPLE`` × the minimum (× 100 base stakes for a
        tier without a minimum), never above ``maximum_coins``.
        """
        if self.carry_coins:
            target = self.carry_coins
        else:
            multiple = int(getattr(settings, "TABLE_CARRY_MULTIPLE", 10))
            target = multiple * (self.minimum_coins or 100 * self.base_stake)
        return min(target, self.maximum_coins) if self.maximum_coins else target

    @property
    def rake_percent(self) -> Decimal:
        """The service fee (抽水) as a percentage of each winner's profit: 500 bps → 5."""
        return (Decimal(self.rake_bps) / 100).quantize(Decimal("0.01"))

    @property
    def variant(self) -> str:
        return str((self.options or {}).get("variant", "")) if isinstance(self.options, dict) else ""

    @property
    def seats_per_table(self) -> int:
        """The tier's own seat count, else the game's largest table."""
        return self.seats or self.game.max_seats

    def clean(self) -> None:
        """Refuse tier data that would make the entry rule or the table meaningless."""
        errors: dict[str, str] = {}
        rule = self.minimum_rule
        if rule == self.MinimumRule.FACTOR:
            if not self.room_factor:
                errors["room_factor"] = _("The room factor must be at least 1.")
            if not self.minimum_multiplier:
                errors["minimum_multiplier"] = _("The minimum multiplier must be at least 1 (usually 96).")
        elif rule == self.MinimumRule.BASE_MULTIPLE:
            if not self.minimum_multiplier:
                errors["minimum_multiplier"] = _("The minimum multiplier must be at least 1 (usually 100).")
        elif rule == self.MinimumRule.TABLE_CAP:
            if not self.table_cap:
                errors["table_cap"] = _("The table-cap rule needs a table cap.")
        elif rule == self.MinimumRule.FIXED:
            if self.fixed_minimum is None:
                errors["fixed_minimum"] = _("The fixed-amount rule needs a fixed minimum.")
        if self.base_stake is not None and self.base_stake <= 0:
            errors["base_stake"] = _("The base stake must be at least 1 coin.")
        if self.rake_bps is not None and self.rake_bps > 10000:
            errors["rake_bps"] = _("The rake cannot exceed 10000 basis points (100%).")
        if self.maximum_coins is not None and not errors:
            if self.maximum_coins < self.minimum_coins:
                errors["maximum_coins"] = _(
                    "The maximum (%(maximum)s) is below the minimum to enter (%(minimum)s)."
                ) % {"maximum": self.maximum_coins, "minimum": self.minimum_coins}
        if self.carry_coins is not None and not errors and self.carry_coins < self.minimum_coins:
            errors["carry_coins"] = _(
                "The coins carried into a hand (%(carry)s) are below the minimum to enter (%(minimum)s)."
            ) % {"carry": self.carry_coins, "minimum": self.minimum_coins}
        if not isinstance(self.options, dict):
            errors["options"] = _('Variant options must be a JSON object, e.g. {"variant": "classic"}.')
        if self.game_id is not None:
            game = self.game
            info = games.REGISTRY.get(game.slug)
            variants = list(info.variants) if info else []
            if variants and isinstance(self.options, dict) and "variant" in self.options:
                if self.options["variant"] not in variants:
                    errors["options"] = _(
                        "%(game)s has no variant %(variant)r; choose one of: %(choices)s."
                    ) % {
                        "game": game.name,
                        "variant": self.options["variant"],
                        "choices": ", ".join(variants),
                    }
            if info and info.default_options and isinstance(self.options, dict) and "options" not in errors:
                # Catch a staff typo ("turn_secs") that the engine would silently ignore.
                unknown = sorted(set(self.options) - set(info.default_options))
                if unknown:
                    errors["options"] = _("%(game)s has no option %(unknown)s; it knows: %(known)s.") % {
                        "game": game.name,
                        "unknown": ", ".join(unknown),
                        "known": ", ".join(sorted(info.default_options)),
                    }
            check = getattr(info.engine, "check_options", None) if info else None
            if check is not None and isinstance(self.options, dict) and "options" not in errors:
                # A value the engine refuses would stop every hand of the tier at its deal.
                try:
                    check(dict(self.options))
                except ValueError as exc:
                    errors["options"] = _("%(game)s cannot use these options: %(reason)s") % {
                        "game": game.name,
                        "reason": exc,
                    }
            if self.seats is not None and not game.min_seats <= self.seats <= game.max_seats:
                errors["seats"] = _("%(game)s seats %(low)s to %(high)s players per table.") % {
                    "game": game.name,
                    "low": game.min_seats,
                    "high": game.max_seats,
                }
        if errors:
            raise ValidationError(errors)
