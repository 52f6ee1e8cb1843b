"""ASGI entry point: Django over HTTP, the table and round consumers over WebSockets."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "platform.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from rooms.rounds.routing import websocket_urlpatterns as round_routes  # noqa: E402
from rooms.tables.consumers import KeptConnectionCheck  # noqa: E402
from rooms.tables.routing import websocket_urlpatterns as table_routes  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            KeptConnectionCheck(AuthMiddlewareStack(URLRouter([*table_routes, *round_routes])))
        ),
    }
)
