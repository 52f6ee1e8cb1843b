"""Real ``celery worker`` processes on a queue of their own, for the tests and the benches.

The worker tests (``rooms/*/tests/test_worker*.py``) and ``bench/settlement.py``
both start solo-pool workers as child processes, wait until each answers a
ping, read how much CPU they used and kill them at the end. This is that one
launcher; runtime code never imports it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class WorkerProcesses:
    """Start, ping, measure and stop ``celery worker -P solo`` processes consuming ``queue``.

    ``env`` is the environment every worker starts with (its ``DATABASE_URL``,
    ``REDIS_URL``, settings module...); ``start`` may add to it per worker.
    ``heartbeat=False`` turns the workers' event heartbeats off, as a bench
    does to keep their idle traffic out of its figures.
    """

    def __init__(self, queue: str, env: dict[str, str], *, heartbeat: bool = True) -> None:
        self.queue = queue
        self.env = env
        self.heartbeat = heartbeat
        self.procs: list[subprocess.Popen] = []
        self.names: list[str] = []

    def spawn(self, **extra_env: str) -> str:
        """Start one more worker without waiting for it; return its node name."""
        name = f"{self.queue}-{len(self.procs)}@localhost"
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "platform.celery_app",
            "worker",
            "-P",
            "solo",
            "-Q",
            self.queue,
            "-n",
            name,
            "--without-mingle",
            "--without-gossip",
            *([] if self.heartbeat else ["--without-heartbeat"]),
            "-l",
            "warning",
        ]
        self.procs.append(
            subprocess.Popen(
                command,
                cwd=ROOT,
                env={**self.env, **extra_env},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        self.names.append(name)
        return name

    def start(self, timeout: float = 60, **extra_env: str) -> subprocess.Popen:
        """Start one more worker and wait until it answers a ping; return its process."""
        self.wait_ready([self.spawn(**extra_env)], timeout)
        return self.procs[-1]

    def wait_ready(self, names: list[str] | None = None, timeout: float = 60) -> None:
        """Wait until every worker in ``names`` (default: all) answers a ping.

        Raises RuntimeError when one of them exits first or ``timeout`` seconds pass (a worker
        outside ``names``, say one a test killed on purpose, may have exited).
        """
        from platform.celery_app import app

        waiting = set(self.names if names is None else names)
        deadline = time.monotonic() + timeout
        while waiting and time.monotonic() < deadline:
            for name in waiting:
                proc = self.procs[self.names.index(name)]
                if proc.poll() is not None:
                    raise RuntimeError(f"celery worker {name} exited with {proc.returncode}")
            for reply in app.control.ping(destination=sorted(waiting), timeout=1) or []:
                waiting -= set(reply)
        if waiting:
            raise RuntimeError(
                f"celery workers did not answer a ping within {timeout:.0f} s: {sorted(waiting)}"
            )

    def drained(self) -> bool:
        """Whether every task sent so far has run to its end: none waits in the queue and none is
        out with a worker unacknowledged (the tasks acknowledge late, once they return)."""
        from platform.celery_app import app

        with app.connection_for_read() as conn:
            channel = conn.default_channel
            try:
                _name, waiting, _consumers = channel.queue_declare(self.queue, passive=True)
            except conn.channel_errors:  # Redis keeps no queue without a message in it
                waiting = 0
            return waiting == 0 and channel.client.zcard(channel.unacked_index_key) == 0

    def lost_visible(self, visibility_timeout: float) -> bool:
        """Whether every task that a dead worker took and never acknowledged is older than
        ``visibility_timeout``, so that the next worker to poll hands it out again."""
        from platform.celery_app import app

        with app.connection_for_read() as conn:
            channel = conn.default_channel
            newest_hidden = f"({time.time() - visibility_timeout}"
            return channel.client.zcount(channel.unacked_index_key, newest_hidden, "+inf") == 0

    def cpu_seconds(self) -> float:
        """User and system CPU seconds the worker processes have used so far (Linux's /proc)."""
        total = 0.0
        for proc in self.procs:
            try:
                fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total

    def stop_all(self) -> None:
        """Kill every worker still running and reap them all."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
        for proc in self.procs:
            proc.wait(10)
