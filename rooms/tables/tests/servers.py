"""Throwaway servers for the fault tests: a process of our own to start, kill with SIGKILL and start again."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlparse

from channels.layers import channel_layers

from conftest import require_service


def current_database_url() -> str:
    """``DATABASE_URL`` pointed at the test database this test runs on."""
    from django.db import connection

    return urlparse(os.environ["DATABASE_URL"])._replace(path="/" + connection.settings_dict["NAME"]).geturl()


def run_bench(script: str, *args: str, out: Path, env: dict) -> tuple[dict, subprocess.CompletedProcess]:
    """Run ``bench/<script>`` with ``args`` and ``--json out`` in ``env``; return its report and the run.

    The report must have been written (else the assertion shows the script's output).
    """
    from django.conf import settings

    run = subprocess.run(
        [sys.executable, f"bench/{script}", *args, "--json", str(out)],
        cwd=settings.BASE_DIR,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert out.exists(), run.stdout + run.stderr
    return json.loads(out.read_text()), run


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def redis_up(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class ChildServer:
    """A server process on ``port``: ``start`` waits until ``ready(port)``, ``kill`` sends SIGKILL (no goodbye)."""

    name = "server"
    start_timeout = 10.0

    def __init__(self, port: int) -> None:
        self.port = port
        self.process: subprocess.Popen | None = None

    def command(self) -> list[str]:
        raise NotImplementedError

    def ready(self) -> bool:
        return port_open(self.port)

    def popen_options(self) -> dict:
        return {}

    def start(self) -> None:
        self.process = subprocess.Popen(
            self.command(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **self.popen_options()
        )
        deadline = time.monotonic() + self.start_timeout
        while not self.ready():
            assert self.process.poll() is None, f"{self.name} exited at start"
            assert time.monotonic() < deadline, f"{self.name} did not answer"
            time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # SIGKILL: no socket close is recorded, no exit hook runs
            self.process.wait(timeout=10)
        self.process = None


class RedisServer(ChildServer):
    """A throwaway redis-server: no snapshots, no append-only file, so a restart is empty."""

    name = "redis-server"

    def command(self) -> list[str]:
        binary = shutil.which("redis-server")
        return [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]

    def ready(self) -> bool:
        return redis_up(self.port)


@contextlib.contextmanager
def redis_channel_layer(settings, port: int, free: Callable[[int], bool] = redis_up):
    """Run a RedisServer on ``port`` as the channel layer for the duration; yield the server."""
    require_service(
        "redis-server binary", shutil.which("redis-server") is not None, "apt-get install redis-server"
    )
    assert not free(port), f"port {port} is taken"
    server = RedisServer(port)
    server.start()
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{port}/0"]},
        }
    }
    channel_layers.backends.clear()
    try:
        yield server
    finally:
        server.kill()
        channel_layers.backends.clear()


def suite_redis_layer(settings):
    """Put channels_redis' layer on the suite's ``REDIS_URL`` for the duration (``settings``: pytest-django's)."""
    from django.conf import settings as django_settings

    assert django_settings.REDIS_URL, "this test needs REDIS_URL"
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [django_settings.REDIS_URL], "prefix": "cardroom-test:asgi"},
        }
    }
    channel_layers.backends.clear()
    try:
        yield
    finally:
        channel_layers.backends.clear()
