"""ASGI entry point: Django over HTTP, the table and round consumers over WebSockets."""

import asyncio
import os
import sys
import weakref

import django
from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.core.signals import request_finished
from django.db import connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "platform.settings")

# The event loop holds the GIL most of the time under load; a thread that waited on the database
# (the group commit, the sockets' pool) gets it back only when the loop yields it, after at most
# this interval. At Python's 5 ms each answer read cost ~3 ms and a group commit ~20 ms; at
# 0.2 ms, 1-2 ms and 7-11 ms (bench/README.md).
SWITCH_INTERVAL = 0.0002
sys.setswitchinterval(SWITCH_INTERVAL)


def close_request_connections(**kwargs) -> None:
    """Close the database connections of an HTTP request's own thread (an ASGI request's only).

    Django's ASGI handler runs each request's synchronous code on a thread of
    its own (asgiref's ``ThreadSensitiveContext``), which ends with the
    request. With ``DB_CONN_MAX_AGE`` set, Django keeps that thread's
    connection for a next request that never comes to that thread: it stayed
    open, idle, until the garbage collector found it (49-64 per process in a
    burst of sign-ins and quick starts, and PostgreSQL then refused every other
    client). Threads that live on keep theirs (the table threads, Channels'
    thread, Celery workers). Elsewhere (a test client, a WSGI server) this does
    nothing, and a connection inside a transaction is left to its owner.
    """
    if SyncToAsync.thread_sensitive_context.get(None) is None:
        return  # not on an ASGI request's own thread
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


# A response that reads the database while it is sent (a streamed CSV) opens a connection
# again after ``get_response_async``; it is closed as the response closes, on the same thread.
request_finished.connect(close_request_connections, dispatch_uid="close_request_connections")


class RequestThreadsHandler(ASGIHandler):
    """Django's ASGI handler with at most ``HTTP_REQUEST_THREADS`` requests computing their response at once.

    Each such request runs on a thread, and on a database connection, of its
    own, closed before the next request waiting in this process starts: so the
    HTTP side of a process never holds more than ``HTTP_REQUEST_THREADS``
    connections, however many requests arrive at once. A waiting request holds
    no connection; reading the request's body and sending the response (static
    files included) happen outside the limit.
    """

    def __init__(self) -> None:
        super().__init__()
        self.limit = max(1, settings.HTTP_REQUEST_THREADS)
        self.slots: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop → its semaphore

    async def get_response_async(self, request):
        loop = asyncio.get_running_loop()
        slots = self.slots.get(loop)
        if slots is None:
            slots = self.slots[loop] = asyncio.Semaphore(self.limit)
        async with slots:
            try:
                return await super().get_response_async(request)
            finally:
                # On the request's thread, after its view (even one whose client went away).
                await sync_to_async(close_request_connections)()


django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application
django_asgi_app = RequestThreadsHandler()

from platform.collector import settle_collector  # noqa: E402

from channels.auth import AuthMiddleware  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402

from rooms.rounds.routing import websocket_urlpatterns as round_routes  # noqa: E402
from rooms.sockets import ConnectionCheck, SocketSession, unknown_socket_route  # noqa: E402
from rooms.tables.routing import websocket_urlpatterns as table_routes  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            ConnectionCheck(
                CookieMiddleware(
                    SocketSession(
                        AuthMiddleware(URLRouter([*table_routes, *round_routes, unknown_socket_route]))
                    )
                )
            )
        ),
    }
)

# What the server keeps for its life is loaded: out of the garbage collector's way
# (platform/collector.py; a full collection under load held the loop for up to 0.9 s).
settle_collector()
