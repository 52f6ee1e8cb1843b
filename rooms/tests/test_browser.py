"""The lobby and a game page in headless Chromium at phone and desktop sizes."""

import os
import shutil

import pytest
from django.conf import settings as django_settings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_lobby_and_game_page_fit_the_screen(live_server, client, make_tier, make_player, width, height):
    from playwright.sync_api import sync_playwright

    make_tier(name="初级场", room_factor=1)
    make_tier(name="中级场", base_stake=2, room_factor=5)
    client.force_login(make_player(300, username="erin"))
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM") or shutil.which("chromium"))
        context = browser.new_context(viewport={"width": width, "height": height})
        context.add_cookies(
            [{"name": django_settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
        )
        page = context.new_page()
        page.goto(f"{live_server.url}/")
        assert page.locator(".game-card").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.click("text=Test Cards")
        page.wait_for_url("**/games/fakecards/")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        quick_start = page.locator(".tier-card", has_text="初级场").get_by_role("button", name="Quick start")
        assert quick_start.is_enabled() and quick_start.is_visible()
        middle = page.locator(".tier-card", has_text="中级场")
        assert middle.get_by_role("button", name="Quick start").is_disabled()
        assert "needs at least 480 coins to enter; your balance is 300." in middle.inner_text()
        browser.close()
