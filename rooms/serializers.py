"""API shapes of the catalogue: games, their tiers, entry rules and the player's standing."""

from __future__ import annotations

from rest_framework import serializers


class TierSerializer(serializers.Serializer):
    """A room tier (``selectors.TierRow``) with its entry rule and the player's standing."""

    id = serializers.IntegerField(source="tier.pk", read_only=True)
    game = serializers.SlugField(source="tier.game.slug", read_only=True)
    code = serializers.SlugField(source="tier.code", read_only=True)
    name = serializers.CharField(source="tier.name", read_only=True, help_text="The Chinese name.")
    name_en = serializers.CharField(source="tier.name_en", read_only=True, help_text="The English name.")
    base_stake = serializers.IntegerField(
        source="tier.base_stake", read_only=True, help_text="底分, in coins."
    )
    room_factor = serializers.IntegerField(source="tier.room_factor", read_only=True, help_text="房间系数 N.")
    minimum_rule = serializers.CharField(source="tier.minimum_rule", read_only=True)
    minimum_coins = serializers.IntegerField(
        read_only=True, help_text="Fewest coins a player must hold to enter (inclusive)."
    )
    maximum_coins = serializers.IntegerField(
        source="tier.maximum_coins", read_only=True, allow_null=True, help_text="Most coins allowed, if any."
    )
    table_cap = serializers.IntegerField(source="tier.table_cap", read_only=True, allow_null=True)
    rake_bps = serializers.IntegerField(source="tier.rake_bps", read_only=True, help_text="500 = 5%.")
    rake_percent = serializers.DecimalField(max_digits=5, decimal_places=2, read_only=True)
    variant = serializers.CharField(read_only=True)
    variant_label = serializers.CharField(read_only=True)
    options = serializers.JSONField(source="tier.options", read_only=True)
    seats_per_table = serializers.IntegerField(read_only=True)
    bots_enabled = serializers.BooleanField(source="tier.bots_enabled", read_only=True)
    is_open = serializers.BooleanField(source="tier.is_open", read_only=True)
    seated = serializers.IntegerField(read_only=True, help_text="Players seated at this tier's tables now.")
    can_enter = serializers.BooleanField(
        read_only=True, help_text="Whether the requesting player may sit down."
    )
    refusal = serializers.CharField(read_only=True, help_text="Why not, as a sentence; empty when can_enter.")
    refusal_code = serializers.CharField(
        read_only=True,
        help_text="login_required, game_unavailable, tier_closed, below_minimum, above_maximum, or empty.",
    )


class GameSerializer(serializers.Serializer):
    """A catalogue game (``selectors.GameRow``) with its tiers."""

    slug = serializers.SlugField(source="game.slug", read_only=True)
    name_zh = serializers.CharField(source="game.name_zh", read_only=True)
    name_en = serializers.CharField(source="game.name_en", read_only=True)
    family = serializers.CharField(source="game.family", read_only=True, help_text="seated or banker.")
    min_seats = serializers.IntegerField(source="game.min_seats", read_only=True)
    max_seats = serializers.IntegerField(source="game.max_seats", read_only=True)
    seated = serializers.IntegerField(read_only=True)
    tiers = TierSerializer(many=True, read_only=True)
