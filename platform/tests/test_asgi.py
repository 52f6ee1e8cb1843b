"""The WebSocket side of the ASGI app checks the Origin and loads the session's user."""

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.auth import AuthMiddleware
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import OriginValidator
from channels.sessions import CookieMiddleware


def websocket_stack():
    from platform.asgi import application

    assert isinstance(application, ProtocolTypeRouter)
    layers = [application.application_mapping["websocket"]]
    while hasattr(layers[-1], "inner") or hasattr(layers[-1], "application"):
        inner = getattr(layers[-1], "inner", None) or layers[-1].application
        layers.append(inner)
    return layers


def test_websockets_are_wrapped_in_origin_validation_then_session_auth():
    from rooms.sockets import ConnectionCheck, SocketSession

    origin, kept, cookies, sessions, auth, router = websocket_stack()
    assert isinstance(origin, OriginValidator)
    assert isinstance(kept, ConnectionCheck)  # a dead kept connection is replaced before the session read
    assert isinstance(cookies, CookieMiddleware)
    assert isinstance(sessions, SocketSession)  # Channels' SessionMiddleware, without its send wrapper
    assert isinstance(auth, AuthMiddleware)
    assert isinstance(router, URLRouter)


def test_origin_validator_uses_allowed_hosts(settings):
    (origin, *_rest) = websocket_stack()
    assert list(origin.allowed_origins) == list(settings.ALLOWED_HOSTS)


def test_http_goes_to_django():
    from platform.asgi import application

    assert "http" in application.application_mapping


def socket_scope(origin: bytes) -> dict:
    return {
        "type": "websocket",
        "path": "/ws/tables/1/",
        "raw_path": b"/ws/tables/1/",
        "query_string": b"",
        "headers": [(b"host", b"localhost"), (b"origin", origin)],
        "subprotocols": [],
        "client": ("127.0.0.1", 50000),
        "server": ("localhost", 80),
    }


@pytest.mark.django_db
async def test_a_socket_from_a_foreign_origin_is_refused_before_routing():
    from platform.asgi import application

    communicator = ApplicationCommunicator(application, socket_scope(b"https://evil.example"))
    await communicator.send_input({"type": "websocket.connect"})
    message = await communicator.receive_output(timeout=5)
    assert message["type"] == "websocket.close"
    # The client then hangs up, as a browser does; the app must end cleanly.
    await communicator.send_input({"type": "websocket.disconnect", "code": 1006})
    await communicator.wait(timeout=5)


def test_the_server_process_settles_its_garbage_collector_once_loaded():
    """What the ASGI process loaded is frozen out of the collector, and young collections are rarer."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    from platform.collector import GC_YOUNG_THRESHOLD

    root = Path(__file__).resolve().parents[2]
    probe = "import gc, platform.asgi; print(gc.get_freeze_count(), gc.get_threshold()[0])"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "platform.settings"}
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.split()
    frozen, young = int(out[-2]), int(out[-1])
    assert frozen > 10_000  # every module, model and setting the server loaded
    assert young >= GC_YOUNG_THRESHOLD
