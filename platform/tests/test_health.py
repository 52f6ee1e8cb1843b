"""``/health/`` tells the load balancer whether a web process and its database answer."""

import pytest
from django.db import OperationalError, connection

pytestmark = pytest.mark.django_db


def test_health_says_ok_while_the_database_answers(client):
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert response["Cache-Control"] == "no-store"
    assert not response.cookies  # no session, no CSRF or language cookie


def test_health_says_503_when_the_database_does_not_answer(client):
    def refuse(execute, sql, params, many, context):
        raise OperationalError("connection to server failed: Connection refused")

    with connection.execute_wrapper(refuse):
        response = client.get("/health/")
    assert response.status_code == 503
    assert response.content == b"database unavailable\n"  # the error itself stays in the log


def test_health_answers_the_proxy_at_any_host_over_plain_http(client, settings):
    """HAProxy asks by the process's own address, which ALLOWED_HOSTS need not list, over plain HTTP."""
    settings.ALLOWED_HOSTS = ["cards.example"]
    settings.SECURE_SSL_REDIRECT = True
    response = client.get("/health/", HTTP_HOST="10.77.0.3:8000")
    assert response.status_code == 200
    # Any other page keeps both rules.
    assert client.get("/accounts/login/", HTTP_HOST="10.77.0.3:8000").status_code == 400
    redirect = client.get("/accounts/login/", HTTP_HOST="cards.example")
    assert redirect.status_code == 301 and redirect["Location"].startswith("https://cards.example/")
