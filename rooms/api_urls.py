"""Catalogue API routes, included under /api/ by the root URLconf."""

from django.urls import path

from rooms import api

urlpatterns = [
    path("games/", api.GameListApi.as_view(), name="rooms-api-games"),
    path("games/<slug:slug>/", api.GameDetailApi.as_view(), name="rooms-api-game"),
    path("tiers/<int:tier_id>/", api.TierDetailApi.as_view(), name="rooms-api-tier"),
]
