"""A player's own pages after a hand — wallet, 战绩, the hand's check, profile — fit a phone's width in both languages."""

import pytest
from django.conf import settings as django_settings
from django.urls import reverse

import games
from rooms.tables.tests.test_browser import CHROMIUM_ARGS, chromium_executable, screenshot_dir

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_tables"),
]

PHONE = (360, 740)
# Anything wider than the screen, or whose content spills out of it, named by its tag and class.
TOO_WIDE = """() => [...document.querySelectorAll('body *')]
  .filter((e) => !e.closest('thead'))  // a phone's table headings are clipped to a pixel, for screen readers
  .filter((e) => e.getBoundingClientRect().right > innerWidth + 1
    || (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible'))
  .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${e.scrollWidth}/${e.clientWidth}`)
  .slice(0, 5)"""
# Wallet entries whose kind (赠送, 结算 …) broke over more than one line: a word per line is unreadable.
BROKEN_KINDS = """() => [...document.querySelectorAll('.wallet-entry td:nth-child(2)')]
  .filter((e) => {
    const style = getComputedStyle(e);
    const text = e.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    return text > 1.5 * parseFloat(style.lineHeight);
  })
  .map((e) => e.textContent.trim())"""
# WCAG contrast ratio of each level badge's text against its own background.
BADGE_CONTRAST = """() => [...document.querySelectorAll('.level-badge')].map((e) => {
  const luminance = (css) => {
    const [r, g, b] = css.match(/[0-9.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const style = getComputedStyle(e);
  const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a);
  return [e.textContent.trim(), Math.round(((light + 0.05) / (dark + 0.05)) * 10) / 10];
})"""


def test_the_pages_about_a_finished_hand_fit_a_phone(live_server, client, make_player):
    from platform.accounts.levels import LEVELS
    from platform.accounts.models import GameStats

    from playwright.sync_api import sync_playwright

    from rooms.tables.tests.helpers import sit_connected
    from rooms.tables.tests.test_abuse import game_tier
    from rooms.tables.tests.test_doudizhu import play_hand_under_trustee

    alice = make_player(coins=5000)
    hand = play_hand_under_trustee(sit_connected(alice, game_tier("texas")), alice)
    # A long career at 斗地主: the top level's badge (帝王) is on the profile too.
    GameStats.objects.create(user=alice, game_slug="doudizhu", hands=10**7, wins=LEVELS[-1].wins_from)
    client.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    pages = [
        reverse("wallets:wallet"),
        reverse("tables:history"),
        reverse("tables:verify", kwargs={"hand_id": hand.pk}),
        reverse("accounts:profile"),
    ]
    too_wide, broken = {}, {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            for language in ("zh-hans", "en"):
                context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]})
                context.add_cookies(
                    [
                        {
                            "name": django_settings.SESSION_COOKIE_NAME,
                            "value": session,
                            "url": live_server.url,
                        },
                        {
                            "name": django_settings.LANGUAGE_COOKIE_NAME,
                            "value": language,
                            "url": live_server.url,
                        },
                    ]
                )
                page = context.new_page()
                for path in pages:
                    page.goto(f"{live_server.url}{path}", timeout=15000)
                    page.screenshot(
                        path=str(
                            screenshot_dir() / f"page-{path.strip('/').replace('/', '-')}-{language}.png"
                        )
                    )
                    wide = page.evaluate(TOO_WIDE)
                    if wide or page.evaluate("document.documentElement.scrollWidth") > PHONE[0]:
                        too_wide[(language, path)] = wide
                    if path == reverse("wallets:wallet"):
                        broken[language] = page.evaluate(BROKEN_KINDS)
                    if path == reverse("accounts:profile"):
                        contrasts = page.evaluate(BADGE_CONTRAST)
                context.close()
        finally:
            browser.close()
    assert too_wide == {}, too_wide
    assert broken == {"zh-hans": [], "en": []}, broken
    assert len(contrasts) == len(games.REGISTRY), contrasts  # one badge per game of the catalogue
    assert all(ratio >= 4.5 for _name, ratio in contrasts), contrasts
