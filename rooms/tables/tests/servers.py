"""Throwaway servers for the fault tests: a process of our own to start, kill with SIGKILL and start again."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlparse

from conftest import require_service
from rooms import transport


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
    log_stdout = False  # whether what it prints goes to the log too (else only stderr)

    def __init__(self, port: int) -> None:
        self.port = port
        self.process: subprocess.Popen | None = None
        # What the server writes to stderr (a traceback, its warnings), for a failing test's reader.
        self.log = Path(tempfile.gettempdir()) / f"cardroom-{self.name}-{port}-{os.getpid()}.log"

    def command(self) -> list[str]:
        raise NotImplementedError

    def ready(self) -> bool:
        return port_open(self.port)

    def popen_options(self) -> dict:
        return {}

    def start(self) -> None:
        self.launch()
        self.wait_ready()

    def launch(self) -> None:
        """Start the process, without waiting for it (several can start at once)."""
        with self.log.open("a") as errors:  # the child keeps its own copy of the file
            self.process = subprocess.Popen(
                self.command(),
                stdout=errors if self.log_stdout else subprocess.DEVNULL,
                stderr=errors,
                **self.popen_options(),
            )

    def wait_ready(self) -> None:
        deadline = time.monotonic() + self.start_timeout
        while not self.ready():
            assert self.process.poll() is None, f"{self.name} exited at start (see {self.log})"
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
def redis_hub(settings, port: int, free: Callable[[int], bool] = redis_up):
    """Run a RedisServer on ``port`` and carry the tables' messages on it for the duration; yield it."""
    require_service(
        "redis-server binary", shutil.which("redis-server") is not None, "apt-get install redis-server"
    )
    assert not free(port), f"port {port} is taken"
    server = RedisServer(port)
    server.start()
    settings.REDIS_URL = f"redis://127.0.0.1:{port}/0"
    transport.reset()
    try:
        yield server
    finally:
        server.kill()
        transport.reset()
