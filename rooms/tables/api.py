"""REST API of the table runtime: the signed-in player's recent hands (战绩)."""

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.generics import ListAPIView

import games
from rooms.tables import selectors
from rooms.tables.models import Hand


class HandHistorySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    number = serializers.IntegerField()
    game = serializers.CharField(source="game_slug")
    tier = serializers.CharField(source="table.tier.display_name")
    status = serializers.CharField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField()
    seat = serializers.SerializerMethodField()
    carried = serializers.SerializerMethodField()
    delta = serializers.SerializerMethodField(help_text="Coins won (+) or lost (-) after the rake.")
    won = serializers.SerializerMethodField()
    multiple = serializers.SerializerMethodField()
    facts = serializers.SerializerMethodField(
        help_text="The game's own facts of the hand (a role's seat, a bid, how it was won), by name."
    )
    seed = serializers.SerializerMethodField(help_text="The hand's seed in hex, revealed once it is over.")

    def _seat(self, hand: Hand) -> int | None:
        user_id = self.context["request"].user.pk
        return next((i for i, p in enumerate(hand.players) if p["user"] == user_id), None)

    def get_seat(self, hand: Hand) -> int | None:
        return self._seat(hand)

    def get_carried(self, hand: Hand) -> int | None:
        seat = self._seat(hand)
        return None if seat is None else hand.players[seat]["carried"]

    def get_delta(self, hand: Hand) -> int | None:
        seat = self._seat(hand)
        if seat is None or hand.status != Hand.Status.SETTLED:
            return 0 if hand.status == Hand.Status.CANCELLED else None
        return (hand.outcome.get("net") or hand.outcome["deltas"])[seat]

    def get_won(self, hand: Hand) -> bool | None:
        if hand.status != Hand.Status.SETTLED:
            return None
        return self._seat(hand) in hand.outcome.get("winners", [])

    def get_multiple(self, hand: Hand) -> int | None:
        return ((hand.outcome or {}).get("details") or {}).get("multiple")

    @extend_schema_field(serializers.DictField())
    def get_facts(self, hand: Hand) -> dict:
        info = games.REGISTRY.get(hand.game_slug)
        if hand.status != Hand.Status.SETTLED or info is None or info.presentation is None:
            return {}
        details = (hand.outcome or {}).get("details") or {}
        return {fact.key: fact.value for fact in info.presentation.facts(details)}

    def get_seed(self, hand: Hand) -> str | None:
        return bytes(hand.seed).hex() if hand.is_over else None


@extend_schema(tags=["tables"], summary="The signed-in player's recent hands (战绩)")
class HandHistoryView(ListAPIView):
    serializer_class = HandHistorySerializer

    def get_queryset(self):
        return selectors.hands_for_user(user=self.request.user, limit=200)
