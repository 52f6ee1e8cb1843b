"""End to end in real headless Chromium: a 推筒子 hand against bots, at both sizes, in English and Chinese.

The player signs up, opens the game from the lobby, quick-starts a room, raises the most,
reloads the page mid-hand and again on the result. The page must show the wheel before
any tile is dealt, then every hand's first tile face up and the player's own two, draw
the tiles as tiles (筒 dots, a blank 白板), and show the result panel with both pools.
"""

from __future__ import annotations

import time
import uuid

import pytest

import games
from rooms.tables.tests.test_browser import (
    CHROMIUM_ARGS,
    RESULT_PAINTED,
    SIZES,
    WAIT_FOR_ANSWER,
    WAIT_FOR_SOMETHING_TO_DO,
    chromium_executable,
    live_asgi,  # noqa: F401 - the fixture, shared
    screenshot_dir,
    sign_up_and_enter,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND_TIMEOUT_S = 90

# Watch the page from its first script on (kept across reloads): the moments the wheel was shown, and the tiles then.
WATCH_WHEEL = """
setInterval(() => {
  const app = document.querySelector('#table-app');
  const wheel = document.querySelector('#wheel');
  if (!app || !wheel || !wheel.dataset.value) return;
  const seen = JSON.parse(sessionStorage.getItem('__wheelSeen') || '[]');
  seen.push({phase: app.dataset.phase, wheel: wheel.dataset.value,
    chosen: wheel.querySelector('li.chosen')?.dataset.number || '',
    tiles: document.querySelectorAll('.mtile').length});
  sessionStorage.setItem('__wheelSeen', JSON.stringify(seen));
}, 40);
"""
# During the raise countdown: the tiles face up on the others' seats and on mine.
TILES_UP = """() => ({
  others: [...document.querySelectorAll('#seats .tt-tiles')].map((e) => e.querySelectorAll('.mtile:not(.back)').length + '/' + e.querySelectorAll('.mtile').length),
  mine: document.querySelectorAll('#my-hand .mtile:not(.back)').length,
})"""
# Every tile drawn: 筒 tiles carry their dots (two circles each, one more on 1筒), 白板 none.
TILES_DRAWN = """() => [...document.querySelectorAll('.mtile[data-tile]')].map((e) => {
  const tile = e.dataset.tile, dots = e.querySelectorAll('circle').length;
  return tile + ':' + (tile === '5z' ? dots === 0 && e.querySelectorAll('rect').length === 1
                                     : dots === 2 * Number(tile[0]) + (tile === '1p' ? 1 : 0));
})"""
SCREEN = """() => ({
  phase: document.querySelector('#table-app').dataset.phase,
  mine: document.querySelector('#my-choice').textContent,
  seats: [...document.querySelectorAll('#seats .said')].map((e) => e.textContent),
  tiles: [...document.querySelectorAll('.mtile')].map((e) => e.dataset.tile || 'back'),
  resultShown: !document.querySelector('#result').hidden,
  title: document.querySelector('#result-title').textContent,
  rows: [...document.querySelectorAll('#result tbody tr')].map((e) => e.textContent),
  balance: document.querySelector('#my-balance').dataset.value,
})"""


def tuitongzi_tier_with_bots(code: str):
    """Yield a 4-seat 推筒子 tier (底注 10), bots filling the seats."""
    from games.tuitongzi import GAME
    from rooms.models import Game, RoomTier
    from rooms.services import catalogue_sync

    added = "tuitongzi" not in games.REGISTRY
    if added:
        games.REGISTRY["tuitongzi"] = GAME
    catalogue_sync()
    tier = RoomTier.objects.create(
        game=Game.objects.get(slug="tuitongzi"),
        code=code,
        name="初级场",
        name_en="Novice room",
        base_stake=10,
        minimum_rule=RoomTier.MinimumRule.BASE_MULTIPLE,
        minimum_multiplier=30,
        seats=4,
        options={"wheel_seconds": 2},
        bots_enabled=True,
    )
    yield tier
    if added:
        games.REGISTRY.pop("tuitongzi", None)


@pytest.fixture
def tuitongzi_tier(transactional_db):
    yield from tuitongzi_tier_with_bots("e2e-tuitongzi")


def reload_same(page) -> dict:
    """Reload, wait for the socket and the same table seq, and return the screen before and after."""
    page.wait_for_selector("#connection[data-status=connected]")
    before = page.evaluate(SCREEN)
    seq = page.get_attribute("#table-app", "data-seq")
    page.reload()
    page.wait_for_selector("#connection[data-status=connected]")
    page.wait_for_function(
        "(seq) => Number(document.querySelector('#table-app').dataset.seq) >= Number(seq)", arg=seq
    )
    return {"before": before, "after": page.evaluate(SCREEN)}


def play_one_hand(base_url: str, size: str, tier_id: int, locale: str) -> dict:
    """Sign up, quick-start, raise the most, reload mid-hand and on the result."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"tt{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": [], "clicked": [], "reloads": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale=locale)
            page.add_init_script(WATCH_WHEEL)
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            sign_up_and_enter(page, base_url, username, "tuitongzi", tier_id, "**/tables/*/")
            page.wait_for_function("() => document.querySelector('#table-app').dataset.seq")
            page.wait_for_selector("#connection[data-status=connected]")
            seen["balance_before"] = int(page.get_attribute("#my-balance", "data-value"))
            deadline = time.monotonic() + HAND_TIMEOUT_S
            while True:
                left_ms = (deadline - time.monotonic()) * 1000
                assert left_ms > 0, "the hand did not finish in time"
                what = page.wait_for_function(WAIT_FOR_SOMETHING_TO_DO, timeout=left_ms).json_value()
                if what == "result":
                    break
                phase = page.get_attribute("#table-app", "data-phase")
                seen[f"{phase}_buttons"] = page.locator("#actions button").all_inner_texts()
                page.screenshot(path=str(screenshot_dir() / f"tuitongzi-{size}-{phase}.png"))
                seq = page.get_attribute("#table-app", "data-seq")
                seen["tiles_up"] = page.evaluate(TILES_UP)
                choice = page.locator("#actions [data-action=raise]").last
                try:
                    clicked = choice.get_attribute("data-action", timeout=2000) + ":"
                    clicked += choice.get_attribute("data-amount", timeout=2000) or ""
                    choice.click(timeout=2000)
                except PlaywrightTimeoutError:
                    continue
                seen["clicked"].append(clicked)
                page.wait_for_function(WAIT_FOR_ANSWER, arg=seq, timeout=15000)
                assert page.get_attribute("#hand-message", "data-kind") != "error", page.inner_text(
                    "#hand-message"
                )
                if len(seen["clicked"]) == 1:
                    seen["reloads"].append(reload_same(page))
            page.wait_for_function(RESULT_PAINTED, timeout=15000)
            seen["result_shot"] = str(screenshot_dir() / f"tuitongzi-{size}-result.png")
            page.screenshot(path=seen["result_shot"])
            seen["wheel_seen"] = page.evaluate(
                "() => JSON.parse(sessionStorage.getItem('__wheelSeen') || '[]')"
            )
            seen["pools"] = page.locator("#result .tt-pools-result li").evaluate_all(
                "els => els.map(e => e.dataset.pool + ':' + e.dataset.amount)"
            )
            seen["tiles"] = page.evaluate(TILES_DRAWN)
            me = page.locator("#result tbody tr.me")
            seen["delta"] = int(me.locator("td.delta").get_attribute("data-delta"))
            seen["rows"] = page.locator("#result tbody tr").count()
            seen["rake_text"] = page.inner_text("#result .rake-total")
            seen["balance_after"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["result_reload"] = reload_same(page)
            seen["page_text"] = page.inner_text("#table-app")
            seen["fits"] = page.evaluate(
                "() => [...document.querySelectorAll('#my-hand, #actions, #result .panel, #seats')]"
                ".every(e => { const b = e.getBoundingClientRect(); return b.right <= window.innerWidth + 1 && b.left >= -1; })"
            )
        finally:
            browser.close()
    return seen


@pytest.mark.parametrize(
    ("size", "locale"), [("desktop", "en-US"), pytest.param("phone", "zh-CN", marks=pytest.mark.zh)]
)
def test_a_new_player_plays_a_whole_tuitongzi_hand_against_bots(
    live_asgi,  # noqa: F811 - the fixture
    tuitongzi_tier,
    settings,
    size,
    locale,
):
    import re
    from platform.accounts.models import User

    from rooms.tables.models import Hand, HandAction
    from wallets.selectors import wallet_balance

    settings.TABLE_AUTO_DELAY = (
        3  # the bots think a while: the reload after the player's move sees the same table
    )
    seen = play_one_hand(live_asgi, size, tuitongzi_tier.pk, locale)
    print(f"screenshots: {seen['result_shot']}")
    assert seen["errors"] == [], seen["errors"]
    user = User.objects.get(username=seen["username"])
    hand = Hand.objects.get(participants=user)
    assert hand.status == Hand.Status.SETTLED
    seat = next(i for i, p in enumerate(hand.players) if p["user"] == user.pk)
    details = hand.outcome["details"]

    # The raise buttons: no raise, then raises the coins left cover; the click made the raise.
    assert len(seen["raise_buttons"]) >= 2
    mine = HandAction.objects.get(hand=hand, seat=seat)
    kind, amount = seen["clicked"][0].split(":")
    assert mine.action == {"type": "raise", "amount": int(amount)} and not mine.auto
    # A reload mid-hand and on the result shows the same screen.
    for reload in [*seen["reloads"], seen["result_reload"]]:
        assert reload["after"] == reload["before"], reload
    assert seen["result_reload"]["after"]["resultShown"]
    # The wheel was on the screen before any tile was dealt; then one tile of each other hand face up.
    before_tiles = [s for s in seen["wheel_seen"] if s["phase"] == "wheel"]
    assert before_tiles, "the wheel was never shown before the deal"
    assert all(s["tiles"] == 0 and s["chosen"] == s["wheel"] == str(details["wheel"]) for s in before_tiles)
    assert seen["tiles_up"] == {"others": ["1/2"] * 3, "mine": 2}, seen["tiles_up"]
    # Tiles drawn as tiles: the result shows all eight, each face right; both pools listed.
    assert len(seen["tiles"]) >= 8 and all(t.endswith(":true") for t in seen["tiles"]), seen["tiles"]
    assert seen["pools"] == [f"{p['pool']}:{p['amount']}" for p in details["pools"]]
    assert seen["rows"] == 4
    assert seen["delta"] == hand.outcome["net"][seat]
    assert seen["balance_after"] == wallet_balance(user=user)
    assert str(hand.outcome["rake"]) in seen["rake_text"]
    if locale == "zh-CN":
        assert "服务费" in seen["rake_text"] or "抽水" in seen["rake_text"], seen["rake_text"]
    else:  # an English page shows no Han character but players' names (the bots are "Bot …" in English)
        assert not re.search(r"[\u4e00-\u9fff]", seen["page_text"]), seen["page_text"]
    assert seen["fits"], "something overflows the screen"
