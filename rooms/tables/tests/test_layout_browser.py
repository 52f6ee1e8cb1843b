"""On a phone and on a desktop, the player whose turn it is sees and can press every action without scrolling.

One table of each game, at its largest: 斗地主 (3 seats), 炸金花 (5), 必下德州
(6) and 百家乐 (the betting areas and the chips). The page is entered the way a
player enters it (sign-up, lobby, the tier's button); once there is something
to do, the same page is shown at each screen size in turn and every control is
checked: inside the screen, and the element a finger on its centre would touch.
The test never scrolls, so a control below the fold fails it.
"""

from __future__ import annotations

import uuid

import pytest

from rooms.rounds.tests.test_browser import BETTING_WITH_TIME, baccarat_tier  # noqa: F401 - a fixture
from rooms.tables.tests.test_browser import (  # noqa: F401 - live_asgi and doudizhu_tier are fixtures
    CHROMIUM_ARGS,
    NEXT_PAINT,
    RESULT_PAINTED,
    chromium_executable,
    doudizhu_tier,
    live_asgi,
    screenshot_dir,
    sign_up_and_enter,
)
from rooms.tables.tests.test_texas_browser import texas_tier_with_bots
from rooms.tables.tests.test_zhajinhua_browser import zjh_browser_tier  # noqa: F401 - a fixture
from rooms.tables.tests.test_zhajinhua_runtime import zjh_game  # noqa: F401 - a fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = [(360, 740), (390, 844), (1280, 800)]
MY_TURN = """() => document.querySelector('#table-app').dataset.myTurn === 'yes'
  && !!document.querySelector('#actions button:not([disabled])')"""
# Every visible control matched by ``selector``: is it on the screen, and would a tap on its centre reach it?
# An element given by id (#min-bet) must be shown at all; the others count when shown (a hidden button is no button).
OUT_OF_REACH = """(selector) => {
  const matched = [...document.querySelectorAll(selector)];
  const controls = matched.filter((e) => e.getClientRects().length);
  const missed = selector.split(',').map((s) => s.trim()).filter((s) => /^#[\\w-]+$/.test(s))
    .filter((id) => !controls.some((e) => e.matches(id))).map((id) => `${id} hidden`);
  for (const e of controls) {
    const r = e.getBoundingClientRect();
    const onScreen = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;
    const touched = onScreen && e.contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2));
    if (!touched) missed.push(`${(e.innerText || e.id).trim()} at ${Math.round(r.top)}-${Math.round(r.bottom)}`);
  }
  return {count: controls.length, missed};
}"""
# Pieces of the table's title (game, room, hand) that broke inside themselves: 初级 over 场.
TITLE_BROKEN = """() => [...document.querySelectorAll('.dz-title > *')]
  .filter((e) => e.textContent.trim()
    && e.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(e).lineHeight))
  .map((e) => e.textContent.trim())"""
# The relative luminance (0 dark … 1 light) of the hand number's text as drawn, its opacity included.
HAND_NUMBER_LIGHTNESS = """() => {
  const style = getComputedStyle(document.querySelector('#hand-number'));
  const [r, g, b] = style.color.match(/[0-9.]+/g).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) * Number(style.opacity);
}"""


@pytest.fixture
def texas_six_tier(transactional_db):
    """必下德州 with six seats (the demo's rooms), bots filling the five others."""
    yield from texas_tier_with_bots("e2e-texas-six", 6)


def reach_at_every_size(
    base_url: str, game: str, tier_id: int, landing: str, ready: str, controls: str, then=None, locale="zh-CN"
) -> dict:
    """Enter ``game``'s table, wait for ``ready``, then check ``controls`` at every screen size.

    ``then(page, found)``, if given, goes on with the same page afterwards.
    """
    from playwright.sync_api import sync_playwright

    found: dict = {"errors": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": SCREENS[0][0], "height": SCREENS[0][1]}, locale=locale)
            page.on("pageerror", lambda exc: found["errors"].append(str(exc)))
            sign_up_and_enter(page, base_url, f"lay{uuid.uuid4().hex[:10]}", game, tier_id, landing)
            page.wait_for_function(ready, timeout=30000)
            found["hand_number_lightness"] = page.evaluate(HAND_NUMBER_LIGHTNESS)
            for width, height in SCREENS:
                page.set_viewport_size({"width": width, "height": height})
                page.evaluate(NEXT_PAINT)  # one layout after the resize
                found[(width, height)] = page.evaluate(OUT_OF_REACH, controls)
                found[(width, height)]["title_broken"] = page.evaluate(TITLE_BROKEN)
                page.screenshot(path=str(screenshot_dir() / f"layout-{game}-{width}x{height}.png"))
            if then is not None:
                then(page, found)
        finally:
            browser.close()
    return found


def assert_in_reach(found: dict) -> None:
    assert found["errors"] == [], found["errors"]
    # The hand's number in the top bar is light text on the dark felt, not the light pages' grey.
    assert found.pop("hand_number_lightness") > 0.4
    for (width, height), reach in ((k, v) for k, v in found.items() if k != "errors"):
        assert reach["count"], f"no control shown at {width}x{height}"
        assert reach["missed"] == [], f"out of reach at {width}x{height}: {reach['missed']}"
        assert reach["title_broken"] == [], f"the title breaks at {width}x{height}: {reach['title_broken']}"


RESULT_SHOWN = """() => { const r = document.querySelector('#result'); return !!r && !r.hidden; }"""


def bet_and_see_the_result_on_the_smallest_phone(page, found: dict) -> None:
    """Bet, then read the result of six seats on the smallest screen: Next hand must be in reach too."""
    width, height = SCREENS[0]
    page.set_viewport_size({"width": width, "height": height})
    page.locator("#actions button:not([disabled])").first.click(timeout=30000)
    page.wait_for_function(RESULT_SHOWN, timeout=60000)
    page.wait_for_function(RESULT_PAINTED, timeout=15000)
    page.screenshot(path=str(screenshot_dir() / f"layout-texas-result-{width}x{height}.png"))
    found["result"] = page.evaluate(
        OUT_OF_REACH, "#result [data-action=next-hand], #result [data-action=leave]"
    )


# English has the longest labels ("Raise to 80 +70", "Must-bet Texas Hold'em"); Chinese is the default.
@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_texas_with_six_seats_keeps_the_bets_and_the_next_hand_on_screen(live_asgi, texas_six_tier, locale):  # noqa: F811
    found = reach_at_every_size(
        live_asgi,
        "texas",
        texas_six_tier.pk,
        "**/tables/*/",
        MY_TURN,
        "#actions button, #my-hand, #board",
        then=bet_and_see_the_result_on_the_smallest_phone,
        locale=locale,
    )
    result = found.pop("result")
    assert_in_reach(found)
    assert result["count"] == 2 and result["missed"] == [], result


def test_doudizhu_keeps_the_bids_on_screen(live_asgi, doudizhu_tier):  # noqa: F811
    found = reach_at_every_size(
        live_asgi, "doudizhu", doudizhu_tier.pk, "**/tables/*/", MY_TURN, "#actions button, #my-hand"
    )
    assert_in_reach(found)


def test_zhajinhua_with_five_seats_keeps_the_actions_on_screen(live_asgi, zjh_browser_tier):  # noqa: F811
    found = reach_at_every_size(
        live_asgi,
        "zhajinhua",
        zjh_browser_tier.pk,
        "**/tables/*/",
        MY_TURN,
        "#actions button, #my-hand, #ante",
    )
    assert_in_reach(found)


def test_baccarat_keeps_the_chips_the_areas_and_the_limits_on_screen(live_asgi, baccarat_tier):  # noqa: F811
    # The minimum bet and the table limit were hidden on a phone with the seated tables' stake.
    found = reach_at_every_size(
        live_asgi,
        "baccarat",
        baccarat_tier.pk,
        "**/rounds/*/",
        BETTING_WITH_TIME,
        "#chips button, #areas button, #min-bet, #table-limit",
    )
    assert_in_reach(found)
