"""WebSocket routes of the round runtime."""

from django.urls import path

from rooms.rounds.consumers import RoundConsumer

websocket_urlpatterns = [
    path("ws/rounds/<int:table_id>/", RoundConsumer.as_asgi()),
]
