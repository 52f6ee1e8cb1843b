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

HAPROXY_BINARY = shutil.which("haproxy") or "/usr/sbin/haproxy"  # Debian's; not on a user's PATH


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


class WebProcess(ChildServer):
    """One of the site's web processes: ``uvicorn platform.asgi:application`` on the test database and Redis.

    ``label`` names it (its database sessions' ``application_name``); the table clock
    is left to the test (``TABLE_TIMERS=off``), and Celery tasks run in the process.
    """

    name = "uvicorn"
    start_timeout = 60.0

    def __init__(self, label: str, port: int) -> None:
        from django.conf import settings

        super().__init__(port)
        self.label = label
        self.application = f"proxy-test-{label}"  # its database sessions, to wait for their end
        self.env = {
            **os.environ,
            "DATABASE_URL": f"{current_database_url()}?application_name={self.application}",
            "REDIS_URL": settings.REDIS_URL,
            "DB_CONN_MAX_AGE": "60",
            "TABLE_TIMERS": "off",  # the clock is the test's
            "CELERY_TASK_ALWAYS_EAGER": "1",
            "TABLE_DISCONNECT_GRACE": "0",
            "TABLE_AUTO_DELAY": "0",
            # As docker-compose.yml: the app believes X-Forwarded-For from HAProxy's address alone.
            "TRUSTED_PROXIES": "127.0.0.1",
        }

    def command(self) -> list[str]:
        return [
            *(sys.executable, "-m", "uvicorn", "platform.asgi:application"),
            *("--host", "127.0.0.1", "--port", str(self.port), "--lifespan", "off"),
            *("--log-level", "warning", "--no-access-log"),
            # uvicorn would take X-Forwarded-For from 127.0.0.1 itself; in docker-compose.yml
            # HAProxy's address is not uvicorn's default, so the app reads the header. So here.
            "--no-proxy-headers",
        ]

    def popen_options(self) -> dict:
        from django.conf import settings

        return {"cwd": settings.BASE_DIR, "env": self.env}

    def kill(self) -> None:
        super().kill()
        # PostgreSQL ends a killed process's sessions as it notices; the test database is
        # dropped at the end of the run, which their lingering would refuse.
        deadline = time.monotonic() + 60
        while database_sessions(self.application):
            assert time.monotonic() < deadline, f"the database sessions of {self.label} stayed"
            time.sleep(0.05)


class Haproxy(ChildServer):
    """Debian's haproxy running the shipped deploy/haproxy.cfg on ``port``, its servers these processes.

    Only the addresses differ from docker-compose.yml's, through the config's environment variables.
    """

    name = "haproxy"
    log_stdout = True  # its log: each request and socket with the server that took it

    def __init__(self, port: int, backends: dict[str, int]) -> None:
        super().__init__(port)
        self.backends = backends  # the config's server names (web1, web2), and their processes' ports

    def command(self) -> list[str]:
        from django.conf import settings

        return [
            HAPROXY_BINARY,
            "-db",
            "-f",
            str(settings.BASE_DIR / "deploy" / "haproxy.cfg"),
        ]  # -db: foreground

    def popen_options(self) -> dict:
        addresses = {label.upper(): f"127.0.0.1:{port}" for label, port in self.backends.items()}
        return {"env": {**os.environ, "HAPROXY_BIND": f"127.0.0.1:{self.port}", **addresses}}


def database_sessions(application: str) -> int:
    """The test database's sessions of a server process, by its ``application_name``."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s AND datname = current_database()",
            [application],
        )
        return cursor.fetchone()[0]
