"""``/health/``: the load balancer's check that this web process answers, and its database does.

HAProxy (deploy/haproxy.cfg) asks each process every two seconds and sends
nothing to one whose answer is not 200. The first middleware answers, before
any other runs: whatever the Host header (the proxy asks by the process's own
address, which ALLOWED_HOSTS need not list), over plain HTTP (no HTTPS
redirect), with no session, cookie or language. The database's part is one
``SELECT 1``; nothing is written.
"""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)

PATH = "/health/"


def database_answers() -> bool:
    """Return whether the default database answers a query."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except DatabaseError as exc:
        logger.warning("health check: the database did not answer: %s", exc)
        return False


class HealthCheckMiddleware:
    """Answer ``GET /health/`` with 200 ``ok``, or 503 when the database does not answer."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info != PATH:
            return self.get_response(request)
        if database_answers():
            response = HttpResponse("ok\n", content_type="text/plain")
        else:
            response = HttpResponse("database unavailable\n", content_type="text/plain", status=503)
        response["Cache-Control"] = "no-store"
        return response
