"""ASGI entry point: Django over HTTP, the table and round consumers over WebSockets."""

import os

from asgiref.sync import SyncToAsync
from django.core.asgi import get_asgi_application
from django.core.signals import request_finished
from django.db import connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "platform.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from rooms.rounds.routing import websocket_urlpatterns as round_routes  # noqa: E402
from rooms.tables.consumers import KeptConnectionCheck  # noqa: E402
from rooms.tables.routing import websocket_urlpatterns as table_routes  # noqa: E402


def close_request_connections(**kwargs) -> None:
    """Close the database connections of an HTTP request's own thread when the request ends.

    Django's ASGI handler runs each request's synchronous code on a thread of
    its own (asgiref's ``ThreadSensitiveContext``), which ends with the
    request. With ``DB_CONN_MAX_AGE`` set, Django's own ``request_finished``
    hook keeps that thread's connection open for a next request that never
    comes to that thread: it stayed open, idle, until the garbage collector
    found it (45-55 per process in a burst of sign-ins and quick starts, and
    PostgreSQL then refused every other client). Here it is closed instead, so
    the HTTP side holds at most one connection per request being served; the
    threads that live on keep theirs (the table threads, Channels' thread,
    Celery workers). ``request_finished`` is sent on the request's thread, as
    the response closes. Elsewhere (a test client, a WSGI server) this does
    nothing, and a connection inside a transaction is left to its owner.
    """
    if SyncToAsync.thread_sensitive_context.get(None) is None:
        return  # not on an ASGI request's own thread
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


request_finished.connect(close_request_connections, dispatch_uid="close_request_connections")

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            KeptConnectionCheck(AuthMiddlewareStack(URLRouter([*table_routes, *round_routes])))
        ),
    }
)
