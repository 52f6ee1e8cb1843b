"""The lobby and a game page in headless Chromium at phone and desktop sizes."""

import io
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


# Each game card's badges and the pieces of its counts line, as a player reads them: a badge or a
# count split over two lines ("3" over "players"), or anything poking out of its card, is unreadable.
CARDS_READ = """() => {
  const text = (e) => e.textContent.trim().replace(/\\s+/g, ' ');
  const oneLine = (e) => {
    const s = getComputedStyle(e);
    const inner = e.getBoundingClientRect().height - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom)
      - parseFloat(s.borderTopWidth) - parseFloat(s.borderBottomWidth);
    return e.getClientRects().length === 1 && inner <= 1.5 * parseFloat(s.lineHeight);
  };
  const outside = (e) => {
    const r = e.getBoundingClientRect(), card = e.closest('.game-card').getBoundingClientRect();
    return r.left < card.left - 0.5 || r.right > card.right + 0.5;
  };
  // A piece of the counts line: each of its elements, or the whole line when it is plain text.
  const pieces = [...document.querySelectorAll('.game-meta')]
    .flatMap((m) => (m.children.length ? [...m.children] : [m]));
  const badges = [...document.querySelectorAll('.game-badge')];
  return {
    cards: document.querySelectorAll('.game-card').length,
    // A Chinese name has no spaces to break at: 保险楚汉德 over 州 reads as two words.
    brokenChineseNames: [...document.querySelectorAll('.game-name:lang(zh)')].filter((e) => !oneLine(e)).map(text),
    pieces: pieces.length,
    brokenBadges: badges.filter((e) => !oneLine(e)).map(text),
    brokenCounts: pieces.filter((e) => !oneLine(e)).map(text),
    outside: [...badges, ...pieces].filter(outside).map(text),
    sideways: document.documentElement.scrollWidth - innerWidth,
  };
}"""


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_lobby_cards_read_cleanly_on_a_phone_and_a_desktop(live_server, client, make_player, language):
    """The demo's catalogue: each badge, count and Chinese name on one line, inside its card, no sideways scroll."""
    from platform.browser_pages import CHROMIUM_ARGS, chromium_executable, signed_in_page

    from django.core.management import call_command
    from playwright.sync_api import sync_playwright

    from rooms.tables.tests.test_browser import screenshot_dir

    call_command("load_demo", stdout=io.StringIO(), stderr=io.StringIO())
    client.force_login(make_player(300, username="lobbyreader"))
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    found = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = signed_in_page(browser, live_server.url, session, (390, 844), language)
            page.goto(f"{live_server.url}/")
            for width, height in [(390, 844), (1280, 800)]:
                page.set_viewport_size({"width": width, "height": height})
                found[width] = page.evaluate(CARDS_READ)
                page.screenshot(
                    path=str(screenshot_dir() / f"lobby-{language}-{width}x{height}.png"), full_page=True
                )
        finally:
            browser.close()
    for width, read in found.items():
        assert read["cards"] > 1 and read["pieces"] >= read["cards"], read
        assert read["brokenChineseNames"] == [], f"names broken at {width}: {read['brokenChineseNames']}"
        assert read["brokenBadges"] == [], f"badges broken over two lines at {width}: {read['brokenBadges']}"
        assert read["brokenCounts"] == [], f"counts broken over two lines at {width}: {read['brokenCounts']}"
        assert read["outside"] == [], f"outside their card at {width}: {read['outside']}"
        assert read["sideways"] <= 0, f"the lobby scrolls sideways by {read['sideways']} px at {width}"
