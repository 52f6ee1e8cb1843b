"""Staff views of tables, hands and their action logs."""

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from rooms.tables import services
from rooms.tables.models import Hand, HandAction, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["index", "user", "is_bot", "ready", "trustee", "connected", "seated_at"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["id", "tier", "status", "seat_count", "seq", "updated_at"]
    list_filter = ["status", "tier"]
    readonly_fields = ["tier", "status", "seat_count", "seq", "next_first_seat", "created_at", "updated_at"]
    inlines = [SeatInline]
    actions = ["fill_with_bots"]

    @admin.action(description=_("Fill empty seats with bots"))
    def fill_with_bots(self, request, queryset) -> None:
        filled = sum(services.table_fill_bots(table_id=table.pk) for table in queryset)
        self.message_user(request, _("%(n)d bot(s) sat down.") % {"n": filled}, messages.SUCCESS)


class HandActionInline(admin.TabularInline):
    model = HandAction
    extra = 0
    ordering = ["n"]
    fields = ["n", "seat", "action", "auto", "created_at"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["id", "table", "number", "game_slug", "status", "started_at", "settlement_link"]
    list_filter = ["status", "game_slug"]
    search_fields = ["=id", "=table__id", "settlement_key"]
    inlines = [HandActionInline]
    readonly_fields = [
        "table",
        "number",
        "game_slug",
        "status",
        "config",
        "players",
        "deadline",
        "deadline_token",
        "action_count",
        "outcome",
        "cancel_reason",
        "stake_key",
        "settlement_link",
        "seed_hex",
        "state_when_over",
        "started_at",
        "finished_at",
        "settled_at",
    ]
    exclude = ["seed", "state", "participants"]

    @admin.display(description=_("settlement transaction"))
    def settlement_link(self, obj: Hand) -> str:
        if not obj.settlement_key:
            return "–"
        from wallets.models import LedgerTransaction

        tx = LedgerTransaction.objects.filter(key=obj.settlement_key).first()
        if tx is None:
            return obj.settlement_key
        url = reverse(f"admin:{tx._meta.app_label}_{tx._meta.model_name}_change", args=[tx.pk])
        return format_html('<a href="{}">{}</a>', url, obj.settlement_key)

    @admin.display(description=_("seed"))
    def seed_hex(self, obj: Hand) -> str:
        # The seed is secret while the hand is being played.
        return bytes(obj.seed).hex() if obj.is_over else _("hidden until the hand is over")

    @admin.display(description=_("state"))
    def state_when_over(self, obj: Hand):
        # Hidden while playing: staff must not see the cards of a live hand.
        return obj.state if obj.is_over else _("hidden until the hand is over")

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(HandAction)
class HandActionAdmin(admin.ModelAdmin):
    list_display = ["hand", "n", "seat", "action", "auto", "created_at"]
    list_filter = ["auto"]
    search_fields = ["=hand__id"]
    readonly_fields = ["hand", "n", "seat", "action", "auto", "created_at"]

    def has_add_permission(self, request) -> bool:
        return False
