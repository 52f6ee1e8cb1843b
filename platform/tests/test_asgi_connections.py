"""A burst of HTTP requests to a real ASGI server leaves no database connection behind.

Production keeps connections (``DB_CONN_MAX_AGE=60``), but Django's ASGI
handler serves each request on a thread of its own that ends with it: the
connection that thread opened was kept for a reuse that could never come, and
one process held dozens of idle connections after a burst of sign-ins until
PostgreSQL (``max_connections``, shared by every process) refused new clients.
Here a signed-in player's pages are loaded one after another and then by
more browsers at once than the process serves (``HTTP_REQUEST_THREADS``) from
a uvicorn process: during the burst it never holds more than
``HTTP_REQUEST_THREADS`` connections (its own sockets, counted from /proc),
PostgreSQL lists none of its sessions once the requests are done, and every
page loads.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from platform.accounts.services import user_create

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse

from conftest import worker_port
from rooms.tables.tests.servers import ChildServer, database_sessions, port_open
from rooms.tables.tests.test_consumers import session_cookie
from wallets.tests.factories import UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PORT = worker_port(18610)
APPLICATION = "asgi-connections-test"  # the server's database sessions, told apart from the test's own
REQUEST_THREADS = 3  # the server's HTTP_REQUEST_THREADS
BROWSERS = 12


class AsgiServer(ChildServer):
    """``uvicorn platform.asgi:application`` on the test database, keeping connections as production does."""

    name = "uvicorn"
    start_timeout = 30.0

    def command(self) -> list[str]:
        return [
            sys.executable,
            *("-m", "uvicorn", "platform.asgi:application", "--host", "127.0.0.1", "--port", str(self.port)),
            *("--lifespan", "off", "--log-level", "warning", "--no-access-log"),
        ]

    def popen_options(self) -> dict:
        db = connection.settings_dict
        env = {
            **os.environ,
            "DATABASE_URL": (
                f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}?application_name={APPLICATION}"
            ),
            "DB_CONN_MAX_AGE": "60",  # as docker-compose.yml runs production
            "HTTP_REQUEST_THREADS": str(REQUEST_THREADS),
            "TABLE_TIMERS": "off",
            "CELERY_TASK_ALWAYS_EAGER": "1",
        }
        return {"cwd": settings.BASE_DIR, "env": env}

    def kill(self) -> None:
        super().kill()
        # The test database is dropped at the end of the run, which the sessions' lingering would refuse.
        _settle(lambda count: count == 0, "the killed server's database sessions stayed")


def open_database_sockets(pid: int) -> int:
    """The connections to PostgreSQL that process ``pid`` holds open now, as its own sockets show them.

    Exact at the moment it is read, where ``pg_stat_activity`` still lists a
    session for a while after its client closed it (until its backend notices
    and exits: on a loaded host a closed connection and the next one's showed
    together there).
    """
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:  # closed meanwhile
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    port = f":{int(connection.settings_dict['PORT'] or 5432):04X}"
    # Distinct sockets, not lines: the kernel writes these tables a page at a time, and a
    # socket opened or closed elsewhere between two pages can make it list one entry twice.
    connected = set()
    for path in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(path) as table:
            for line in table.read().splitlines()[1:]:
                fields = line.split()
                # remote address, state (01: established), inode
                if fields[2].endswith(port) and fields[3] == "01" and fields[9] in inodes:
                    connected.add(fields[9])
    return len(connected)


def _settle(done, message: str, seconds: float = 10) -> int:
    """Wait until ``done`` holds for the server's database sessions (``database_sessions``): a
    request's thread closes its connection after the response is sent."""
    deadline = time.monotonic() + seconds
    while not done(count := database_sessions(APPLICATION)):
        assert time.monotonic() < deadline, f"{message}: {count}"
        time.sleep(0.05)
    return count


@pytest.fixture
def asgi_server():
    assert not port_open(PORT), f"port {PORT} is taken"
    server = AsgiServer(PORT)
    server.start()
    yield server
    server.kill()


def fetch(path: str, cookie: str) -> bytes:
    request = urllib.request.Request(
        f"http://127.0.0.1:{PORT}{path}", headers={"Cookie": f"sessionid={cookie}"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200
        return response.read()


def load_lobby(cookie: str) -> None:
    assert b'name="csrfmiddlewaretoken"' in fetch("/", cookie)  # the signed-in lobby (its log-out form)


def test_requests_one_after_another_leave_no_connection_open(asgi_server):
    cookie = session_cookie(UserFactory())
    for _ in range(30):
        load_lobby(cookie)  # the session and the user are read from the database

    _settle(lambda count: count == 0, "connections left open by finished requests")


def test_a_burst_of_browsers_holds_no_more_connections_than_request_threads(asgi_server):
    cookies = [session_cookie(UserFactory()) for _ in range(BROWSERS)]
    peak = 0
    burst_over = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not burst_over.is_set():
            peak = max(peak, open_database_sockets(asgi_server.process.pid))
            time.sleep(0.01)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with ThreadPoolExecutor(BROWSERS) as browsers:
            list(browsers.map(load_lobby, cookies * 4))  # each asserts its page loaded
    finally:
        burst_over.set()
        watcher.join()

    assert peak <= REQUEST_THREADS, f"{peak} connections during a burst of {BROWSERS} browsers"
    _settle(lambda count: count == 0, "connections left open by the burst")


def test_a_csv_that_reads_the_ledger_while_it_is_sent_leaves_no_connection_open(asgi_server):
    for n in range(3):
        user_create(username=f"player-{n}", password="a long enough password")  # each a sign-up grant
    finance = UserFactory(
        username="root", is_staff=True, is_superuser=True
    )  # finance reports let superusers in

    # The rows are read from the database as the response is sent, after the view has returned.
    csv = fetch(f"{reverse('finance:search_csv')}?kind=grant", session_cookie(finance)).decode()

    assert csv.count("\n") == 1 + 3, csv  # the header and the three grants
    _settle(lambda count: count == 0, "the CSV's connection was left open")
