"""REST endpoints of the catalogue: thin, read-only, open to visitors."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from rooms import selectors
from rooms.serializers import GameSerializer, TierSerializer


@extend_schema(
    tags=["catalogue"],
    summary="List the games with their room tiers",
    description="Anonymous visitors may read it; for them every tier has can_enter=false and "
    "refusal_code=login_required.",
)
class GameListApi(generics.ListAPIView):
    permission_classes = [AllowAny]
    serializer_class = GameSerializer

    def get_queryset(self):
        return selectors.game_queryset()

    def list(self, request: Request, *args, **kwargs) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        rows = selectors.game_rows(games_=page, user=request.user)
        return self.get_paginated_response(GameSerializer(rows, many=True).data)


@extend_schema(tags=["catalogue"], summary="One game with its room tiers")
class GameDetailApi(generics.GenericAPIView):
    permission_classes = [AllowAny]
    serializer_class = GameSerializer

    def get(self, request: Request, slug: str) -> Response:
        game = selectors.game_get(slug=slug)
        if game is None:
            raise Http404
        (row,) = selectors.game_rows(games_=[game], user=request.user)
        return Response(GameSerializer(row).data)


@extend_schema(tags=["catalogue"], summary="One room tier with its entry rule and the player's standing")
class TierDetailApi(generics.GenericAPIView):
    permission_classes = [AllowAny]
    serializer_class = TierSerializer

    def get(self, request: Request, tier_id: int) -> Response:
        tier = selectors.tier_get(tier_id=tier_id)
        if tier is None:
            raise Http404
        return Response(TierSerializer(selectors.tier_row(tier=tier, user=request.user)).data)
