"""What the table page tells a player when the server closes its socket for good reason.

Same harness as test_browser.py (uvicorn in a thread serving the real ASGI app).
A close the client cannot fix by retrying at once must say why, in the badge a
player reads, and offer the way out: 4429 (too many tables open) names the cure
and keeps trying slowly; 4401 (the session ended) links to the log-in page,
which brings the player back to this table.
"""

from __future__ import annotations

import contextlib
import uuid

import pytest

from rooms.tables.pages import TABLE_LABELS
from rooms.tables.tests.test_browser import (  # noqa: F401 - live_asgi and doudizhu_tier are fixtures
    CHROMIUM_ARGS,
    chromium_executable,
    doudizhu_tier,
    live_asgi,
    sign_up_and_enter,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def label(key: str) -> str:
    return str(TABLE_LABELS[key])


@contextlib.contextmanager
def player_at_a_table(base_url: str, tier, prefix: str):
    """A new player signed up and seated by quick start, on a phone; yield (browser context, table page)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844})
            page = context.new_page()
            name = f"{prefix}{uuid.uuid4().hex[:8]}"
            sign_up_and_enter(page, base_url, name, tier.game.slug, tier.pk, "**/tables/*/")
            page.wait_for_selector("#connection[data-status=connected]")
            yield context, page
        finally:
            browser.close()


def test_a_table_over_the_socket_cap_says_to_close_one_and_connects_once_one_is_closed(
    live_asgi,  # noqa: F811
    doudizhu_tier,  # noqa: F811
    settings,
):
    settings.TABLE_SOCKETS_PER_USER = 1
    with player_at_a_table(live_asgi, doudizhu_tier, "cap") as (context, first):
        second = context.new_page()
        second.goto(first.url)
        second.wait_for_selector("#connection[data-status=too_many]", timeout=15000)
        expected = label("too_many_tables").split("{seconds}")[0]
        assert second.inner_text("#connection .label").startswith(expected)

        first.close()
        second.wait_for_selector("#connection[data-status=connected]", timeout=30000)


def test_an_ended_session_links_the_badge_to_the_log_in_page_and_back(
    live_asgi,  # noqa: F811
    doudizhu_tier,  # noqa: F811
    settings,
):
    settings.TABLE_SESSION_RECHECK = 0.2
    with player_at_a_table(live_asgi, doudizhu_tier, "out") as (context, table):
        table_path = table.evaluate("() => window.location.pathname")

        # The player logs out in another tab: this table's socket is closed with 4401.
        other = context.new_page()
        other.goto(f"{live_asgi}/")
        # Close the tab only once the log-out's redirect has landed: Chromium can leave a
        # page.close() that races a navigation's commit unanswered for ever (Playwright
        # issue 41900), which hung this test, and with it the whole run, once in a while.
        with other.expect_navigation(url=f"{live_asgi}/"):
            other.click("form[action$='/logout/'] button[type=submit]")
        other.close()

        table.wait_for_selector("#connection[data-status=closed]", timeout=15000)
        link = table.locator("#connection .label a")
        assert link.inner_text() == label("login_again")
        link.click()
        table.wait_for_url("**/accounts/login/**")
        assert table_path in table.url  # ?next= brings the player back to this table
