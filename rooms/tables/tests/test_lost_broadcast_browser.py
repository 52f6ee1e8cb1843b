"""In Chromium: a page that missed broadcasts (the channel layer lost them) catches up at its next
keep-alive, since the ``pong`` carries the table's ``seq`` and a page behind it asks for a resync."""

from __future__ import annotations

import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from rooms.tables.tests.test_browser import (  # noqa: F401 - live_asgi and doudizhu_tier are fixtures
    CHROMIUM_ARGS,
    chromium_executable,
    doudizhu_tier,
    live_asgi,
    sign_up_and_enter,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def off_loop(func, *args, **kwargs):
    """Run a database call on a thread of its own (Playwright's sync API runs an event loop here)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(func, *args, **kwargs).result()


def _seat(username: str):
    from rooms.tables.models import Seat

    return Seat.objects.select_related("user").get(user__username=username)


def _hand_over(table_id: int) -> bool:
    from rooms.tables.models import Hand

    return Hand.objects.filter(table_id=table_id, status__in=["finished", "settled"]).exists()


def _quiet_seq(table_id: int, timeout: float = 60) -> int:
    """Wait until the table stops changing (its hand over, nobody ready); return its seq."""
    from rooms.tables.models import Table

    deadline = time.monotonic() + timeout
    last, same = None, 0
    while same < 10:
        assert time.monotonic() < deadline, "the table kept changing"
        seq = Table.objects.get(pk=table_id).seq
        same = same + 1 if seq == last else 0
        last = seq
        time.sleep(0.05)
    return last


def test_a_page_behind_the_table_resyncs_when_its_ping_is_answered(live_asgi, doudizhu_tier, monkeypatch):  # noqa: F811
    from playwright.sync_api import sync_playwright

    from rooms import transport
    from rooms.tables import services

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            username = f"lost{uuid.uuid4().hex[:10]}"
            sign_up_and_enter(page, live_asgi, username, "doudizhu", doudizhu_tier.pk, "**/tables/*/")
            page.wait_for_selector("#connection[data-status=connected]")
            page.wait_for_function("() => document.querySelector('#table-app').dataset.seq")
            seat = off_loop(_seat, username)

            # Every broadcast is lost from here: 托管 and the bots play the hand out unseen.
            monkeypatch.setattr(transport, "send_many", lambda messages: None)
            off_loop(services.table_trustee, table_id=seat.table_id, user=seat.user, on=True)
            seq = off_loop(_quiet_seq, seat.table_id)
            assert off_loop(_hand_over, seat.table_id)
            assert int(page.get_attribute("#table-app", "data-seq")) < seq
            monkeypatch.undo()

            page.evaluate("() => window.tableClient.socket.send({ type: 'ping' })")  # the keep-alive
            page.wait_for_function(
                "(seq) => Number(document.querySelector('#table-app').dataset.seq) === seq",
                arg=seq,
                timeout=15000,
            )
        finally:
            browser.close()
