"""Staff views of the one-player games' seed pairs and plays: read-only (money moves only by the services).

A current server seed is never shown, not even to staff: only its hash, until the player rotates it.
"""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from rooms.solo.models import Play, SeedPair


class ReadOnly:
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(SeedPair)
class SeedPairAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("pk", "user", "server_hash", "client_seed", "next_nonce", "created_at", "revealed_at")
    search_fields = ("user__username", "server_hash")
    fields = (
        "user",
        "server_hash",
        "revealed_seed",
        "client_seed",
        "next_nonce",
        "created_at",
        "revealed_at",
    )
    readonly_fields = fields

    @admin.display(description=_("server seed"))
    def revealed_seed(self, obj: SeedPair) -> str:
        return bytes(obj.server_seed).hex() if obj.revealed_at else "–"


@admin.register(Play)
class PlayAdmin(ReadOnly, admin.ModelAdmin):
    list_display = (
        "pk",
        "user",
        "game_slug",
        "tier",
        "kind",
        "nonce",
        "stake",
        "win",
        "rake",
        "net",
        "created_at",
    )
    list_filter = ("game_slug", "kind")
    search_fields = ("user__username", "ledger_key")
    readonly_fields = [field.name for field in Play._meta.fields]
