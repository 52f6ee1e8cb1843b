"""Suite-wide test plumbing: which real services are here, and what a missing one means.

A test that needs PostgreSQL, Redis, a Celery worker or Chromium asks for it
through ``require_service``. On a laptop without the service it is skipped;
under ``REQUIRE_SERVICES=1`` (set by .ci/run) the same absence is a failure,
so CI can never go green on a suite that silently skipped its real tests.
"""

import os
import shutil
import socket
from urllib.parse import urlparse

import pytest

SERVICES_REQUIRED = os.environ.get("REQUIRE_SERVICES") == "1"


def worker_port(port: int) -> int:
    """The port a test's own server listens on in this test process.

    Under pytest-xdist (``python3 dev.py test`` runs four: workers gw0,
    gw1…) each worker has its own test database (pytest-django names it after
    the worker), its own Redis keys and channels (``REDIS_PREFIX``, in
    platform/settings.py) and its servers a thousand ports further on.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return port + 1000 * int(worker.removeprefix("gw"))


def require_service(name: str, available: bool, why: str = "") -> None:
    if available:
        return
    message = f"{name} is not available{': ' + why if why else ''}"
    if SERVICES_REQUIRED:
        pytest.fail(f"REQUIRE_SERVICES=1 but {message}", pytrace=False)
    pytest.skip(message)


def _tcp_open(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), timeout=1
        ):
            return True
    except OSError:
        return False


def postgres_available() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"


def redis_available() -> bool:
    url = os.environ.get("REDIS_URL", "")
    return bool(url) and _tcp_open(url, 6379)


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("celery_worker"):
            item.add_marker(pytest.mark.postgres)
            item.add_marker(pytest.mark.redis)


def pytest_runtest_setup(item):
    if item.get_closest_marker("postgres"):
        # Import lazily: Django is configured by pytest-django before this runs.
        require_service("PostgreSQL", postgres_available(), "set DATABASE_URL=postgres://...")
    if item.get_closest_marker("redis"):
        require_service("Redis", redis_available(), "set REDIS_URL=redis://...")
    if item.get_closest_marker("browser"):
        require_service("Chromium", chromium_path() is not None, "install Debian's chromium")


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    skipped = terminalreporter.stats.get("skipped", [])
    if SERVICES_REQUIRED and skipped:
        terminalreporter.write_line(
            f"REQUIRE_SERVICES=1: {len(skipped)} test(s) were skipped; that is a failure here.", red=True
        )


def pytest_sessionfinish(session, exitstatus):
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if SERVICES_REQUIRED and reporter is not None and reporter.stats.get("skipped"):
        session.exitstatus = 1


# Tables whose triggers refuse DELETE and TRUNCATE (wallets migrations 0002 and 0006), the ways
# a test database is emptied on PostgreSQL.
TRUNCATE_GUARDED_TABLES = ("wallets_ledgerentry", "wallets_ledgertransaction")
# What the migrations put in and no test changes: the content types, the permissions and the staff
# groups holding them (accounts migration 0003). A flush keeps them, so a test that reads the staff
# groups finds them whether a transactional test ran before it in its process or not.
MIGRATED_TABLES = ("django_content_type", "auth_permission", "auth_group", "auth_group_permissions")


@pytest.fixture(scope="session", autouse=True)
def _flush_only_what_a_test_wrote():
    """Empty, after each transactional test, only the tables it wrote to, with DELETE.

    Django's flush TRUNCATEs every table (about 70), which costs PostgreSQL a
    new file per table: a second or more per test, most of the suite's time.
    A test writes a handful of tables; one query finds them, and deleting their
    rows (foreign keys deferred to the commit) is quick. The ledger's tables
    refuse DELETE and TRUNCATE (wallets migrations 0002 and 0006): the flush
    disables their triggers inside its own transaction and enables them again
    before it commits, as the tables' owner may (docs/architecture.md, "The
    flow of money").
    """
    from django.conf import settings

    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        yield  # SQLite: no triggers, and the PostgreSQL driver need not be installed
        return
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade or not tables:
            return original(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        tables = [table for table in tables if table not in MIGRATED_TABLES]
        quote = self.quote_name
        written = " UNION ALL ".join(
            f"SELECT %s WHERE EXISTS (SELECT 1 FROM {quote(table)})" for table in tables
        )
        with self.connection.cursor() as cursor:
            cursor.execute(written, list(tables))
            full = [row[0] for row in cursor.fetchall()]
        if not full:
            return []
        guarded = [table for table in TRUNCATE_GUARDED_TABLES if table in full]
        return [
            "SET CONSTRAINTS ALL DEFERRED;",
            *(f"ALTER TABLE {quote(table)} DISABLE TRIGGER USER;" for table in guarded),
            *(f"DELETE FROM {quote(table)};" for table in full),
            "SET CONSTRAINTS ALL IMMEDIATE;",  # the keys checked now: a table with checks pending can't be altered
            *(f"ALTER TABLE {quote(table)} ENABLE TRIGGER USER;" for table in guarded),
        ]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DatabaseOperations, "sql_flush", sql_flush)
        yield


@pytest.fixture(autouse=True)
def _celery_eager_unless_worker(request):
    """Run Celery tasks in-process, except in tests that start a real worker.

    With REDIS_URL set (CI), settings would send tasks to the broker; a test
    that does not start a worker still wants its tasks to run, so it runs them
    eagerly. Tests marked ``celery_worker`` talk to a real worker instead.
    """
    from platform.celery_app import app

    eager = request.node.get_closest_marker("celery_worker") is None
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = eager
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _english_unless_asked(request, settings):
    """Run tests in English, the language of the msgids their assertions quote.

    The product's default is zh-hans; tests of the Chinese default mark
    themselves ``@pytest.mark.zh`` and keep it. Setting LANGUAGE_CODE (not only
    activating a language in this thread) also covers the threads a test starts:
    consumers, the in-process web server, concurrent services.
    """
    from django.utils import translation

    if request.node.get_closest_marker("zh"):
        yield
        return
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield
