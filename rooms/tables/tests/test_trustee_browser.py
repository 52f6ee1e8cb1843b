"""In Chromium: under 托管 (trustee) the page offers one way back, the banner's 取消托管, at both sizes."""

from __future__ import annotations

import uuid

import pytest

from rooms.tables.tests.test_browser import (  # noqa: F401 - live_asgi and doudizhu_tier are fixtures
    CHROMIUM_ARGS,
    SIZES,
    chromium_executable,
    doudizhu_tier,
    live_asgi,
    sign_up_and_enter,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The buttons that turn 托管 off: the banner's, and the toggle while it reads "取消托管".
VISIBLE_CANCELS = """() => [document.querySelector('#trustee-cancel'), document.querySelector('#trustee')]
  .filter((b) => b.offsetParent !== null && (b.id === 'trustee-cancel' || b.dataset.on === 'yes')).length"""
LOCALES = {"desktop": "zh-CN", "phone": "en-US"}
DEALT = (
    "() => ['bidding', 'doubling', 'playing'].includes(document.querySelector('#table-app').dataset.phase)"
)


@pytest.mark.parametrize("size", list(SIZES))
def test_trustee_shows_one_cancel_button_and_it_takes_control_back(live_asgi, doudizhu_tier, settings, size):  # noqa: F811
    from playwright.sync_api import sync_playwright

    settings.TABLE_AUTO_DELAY = 60  # nobody's automatic move comes while the page is looked at
    width, height = SIZES[size]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale=LOCALES[size])
            sign_up_and_enter(
                page, live_asgi, f"tr{uuid.uuid4().hex[:10]}", "doudizhu", doudizhu_tier.pk, "**/tables/*/"
            )
            page.wait_for_function(DEALT, timeout=30000)
            page.click("#trustee")
            page.wait_for_selector("#trustee-banner:not([hidden])")
            assert page.evaluate(VISIBLE_CANCELS) == 1
            page.click("#trustee-cancel")
            page.wait_for_selector("#trustee-banner", state="hidden")
            page.wait_for_selector("#trustee:not([hidden])")
            assert page.evaluate(VISIBLE_CANCELS) == 0
        finally:
            browser.close()
