"""Staff screens for the catalogue and room tiers; model.clean() errors show on the forms."""

from __future__ import annotations

from platform.staff.display import READABLE_JSON_FIELDS

from django.contrib import admin, messages
from django.db.models import Case, Count, IntegerField, Value, When
from django.utils.translation import gettext_lazy as _

from rooms import selectors, services
from rooms.models import Game, RoomTier


class RoomTierInline(admin.TabularInline):
    model = RoomTier
    extra = 0
    fields = (
        "code",
        "name",
        "base_stake",
        "room_factor",
        "minimum_rule",
        "minimum_multiplier",
        "table_cap",
        "fixed_minimum",
        "maximum_coins",
        "carry_coins",
        "rake_bps",
        "options",
        "seats",
        "bots_enabled",
        "separate_linked",
        "is_open",
        "sort_order",
    )
    show_change_link = True
    formfield_overrides = READABLE_JSON_FIELDS


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "name_zh",
        "name_en",
        "slug",
        "family",
        "seats_display",
        "tier_count",
        "is_enabled",
        "sort_order",
    )
    list_display_links = ("name_zh",)
    list_editable = ("is_enabled", "sort_order")
    list_filter = ("family", "is_enabled")
    search_fields = ("slug", "name_zh", "name_en")
    # Names, family and seats come from the engine (catalogue_sync); staff switch and order games.
    readonly_fields = ("slug", "name_zh", "name_en", "family", "min_seats", "max_seats")
    inlines = [RoomTierInline]
    actions = ["sync_catalogue"]

    def has_add_permission(self, request) -> bool:
        # A game without an engine cannot be played; rows come from the registry.
        return False

    @admin.display(description=_("seats"))
    def seats_display(self, game: Game) -> str:
        if game.min_seats == game.max_seats:
            return str(game.max_seats)
        return f"{game.min_seats}–{game.max_seats}"

    def get_queryset(self, request):
        # Each row's tier count in the list's own query, not one count per game.
        return super().get_queryset(request).annotate(tiers_n=Count("tiers"))

    @admin.display(description=_("tiers"), ordering="tiers_n")
    def tier_count(self, game: Game) -> int:
        return game.tiers_n

    # The sync writes the catalogue: not for a staff login that may only view games.
    @admin.action(description=_("Sync the catalogue from the installed engines"), permissions=["change"])
    def sync_catalogue(self, request, queryset) -> None:
        services.catalogue_sync()
        self.message_user(request, _("Catalogue synced with the installed engines."), messages.SUCCESS)


@admin.register(RoomTier)
class RoomTierAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "name_en",
        "game",
        "code",
        "base_stake",
        "room_factor",
        "minimum_display",
        "maximum_coins",
        "rake_display",
        "variant_display",
        "seated_display",
        "bots_enabled",
        "is_open",
    )
    list_display_links = ("name",)
    list_editable = ("is_open",)
    list_filter = ("game", "is_open", "minimum_rule", "bots_enabled", "separate_linked")
    search_fields = ("name", "name_en", "code", "game__slug", "game__name_zh", "game__name_en")
    list_select_related = ("game",)
    formfield_overrides = READABLE_JSON_FIELDS
    fieldsets = (
        (None, {"fields": ("game", "code", "name", "name_en", "sort_order", "is_open")}),
        (_("Stakes"), {"fields": ("base_stake", "room_factor", "rake_bps")}),
        (
            _("Entry rule"),
            {
                "fields": (
                    "minimum_rule",
                    "minimum_multiplier",
                    "table_cap",
                    "fixed_minimum",
                    "maximum_coins",
                    "carry_coins",
                )
            },
        ),
        (_("Table"), {"fields": ("options", "seats", "bots_enabled", "separate_linked")}),
    )

    def get_form(self, request, obj=None, change=False, **kwargs):
        # Players see the tier in both languages: staff give both names (the model allows a blank
        # English name only for tiers made before it existed and by code).
        form = super().get_form(request, obj, change=change, **kwargs)
        if "name_en" in form.base_fields:
            form.base_fields["name_en"].required = True
        return form

    def get_readonly_fields(self, request, obj=None):
        # A tier's tables, hands, rounds and rake belong to its game: moving an existing tier to
        # another game would deal that game at tables opened for this one.
        fields = super().get_readonly_fields(request, obj)
        return (*fields, "game") if obj is not None else fields

    def get_queryset(self, request):
        # One read of the runtime's seat counts per page, carried as an annotation (sortable too).
        seated = selectors.seated_counts()
        whens = [When(pk=tier_id, then=Value(count)) for tier_id, count in seated.items()]
        annotation = Case(*whens, default=Value(0), output_field=IntegerField()) if whens else Value(0)
        return super().get_queryset(request).annotate(seated=annotation)

    @admin.display(description=_("minimum coins"))
    def minimum_display(self, tier: RoomTier) -> int:
        return tier.minimum_coins

    @admin.display(description=_("rake"), ordering="rake_bps")
    def rake_display(self, tier: RoomTier) -> str:
        return f"{tier.rake_percent.normalize():f}%"

    @admin.display(description=_("variant"))
    def variant_display(self, tier: RoomTier) -> str:
        # The variant as the lobby words it, not its option code ("classic").
        return selectors.variant_label(slug=tier.game.slug, variant=tier.variant) if tier.variant else "—"

    @admin.display(description=_("seated"), ordering="seated")
    def seated_display(self, tier: RoomTier) -> int:
        return getattr(tier, "seated", 0)
