"""On a phone (390×844), the result panel holds a 150-character username without scrolling sideways.

A player whose username is as long as the site allows (150 characters, one
word) plays a 炸金花 hand under 托管 against bots. When the result panel opens,
the panel and its table are no wider than the screen lets them be, and the
name is cut with "…" in its cell, whole in the cell's title.
"""

from __future__ import annotations

import uuid

import pytest

from rooms.tables.tests.test_browser import (  # noqa: F401 - live_asgi is a fixture
    CHROMIUM_ARGS,
    SIZES,
    chromium_executable,
    live_asgi,
    screenshot_dir,
    sign_up_and_enter,
)
from rooms.tables.tests.test_english_browser import demo_zjh_tier  # noqa: F401 - a fixture
from rooms.tables.tests.test_zhajinhua_runtime import zjh_game  # noqa: F401 - a fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RESULT_SETTLED = """() => { const r = document.querySelector('#result');
  return r && !r.hidden && !r.querySelector('[data-action=next-hand]').disabled; }"""
# The panel's width against what it shows, and the player's own name cell.
PANEL = """() => {
  const panel = document.querySelector('#result .panel');
  const mine = document.querySelector('#result tbody tr.me .who');
  return {scrollWidth: panel.scrollWidth, clientWidth: panel.clientWidth,
    right: panel.getBoundingClientRect().right, pageWidth: document.documentElement.scrollWidth,
    name: mine && {shown: mine.clientWidth, whole: mine.scrollWidth, title: mine.title,
      ellipsis: getComputedStyle(mine).textOverflow}};
}"""


def test_a_150_character_name_fits_the_result_panel_on_a_phone(live_asgi, demo_zjh_tier):  # noqa: F811
    from playwright.sync_api import sync_playwright

    username = f"long{uuid.uuid4().hex}".ljust(150, "x")
    width, height = SIZES["phone"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale="en-US")
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            sign_up_and_enter(page, live_asgi, username, "zhajinhua", demo_zjh_tier.pk, "**/tables/*/")
            page.wait_for_function("() => document.querySelector('#table-app').dataset.phase === 'betting'")
            page.click("#trustee")
            page.wait_for_function(RESULT_SETTLED, timeout=120000)
            page.screenshot(path=str(screenshot_dir() / "result-phone-long-name.png"))
            shown = page.evaluate(PANEL)
            assert shown["scrollWidth"] <= shown["clientWidth"], shown
            assert shown["right"] <= width and shown["pageWidth"] <= width, shown
            name = shown["name"]
            assert name["title"] == username and name["ellipsis"] == "ellipsis", shown
            assert 0 < name["shown"] < name["whole"], shown  # cut short, not hidden
            assert errors == [], errors
        finally:
            browser.close()
