"""WebSocket routes of the table runtime."""

websocket_urlpatterns: list = []
