"""The browser driver the tile tables' end-to-end tests share (二八杠, 推筒子).

One hand in real headless Chromium: sign up, quick-start a room of bots, click the
game's choice on every turn, reload after the first click and again on the result, and
gather what the page showed. What differs (the tier's options, the choice clicked, what
is watched on a turn and on the result) each test passes in; what a settled hand must
show against the ledger, `assert_settled_hand` checks alike.
"""

from __future__ import annotations

import importlib
import re
import time
import uuid
from collections.abc import Callable

import games
from rooms.tables.tests.test_browser import (
    CHROMIUM_ARGS,
    RESULT_PAINTED,
    SIZES,
    WAIT_FOR_ANSWER,
    WAIT_FOR_SOMETHING_TO_DO,
    chromium_executable,
    screenshot_dir,
    sign_up_and_enter,
)

HAND_TIMEOUT_S = 90

# Every tile drawn: 筒 tiles carry their dots (two circles each, one more on 1筒), 白板 none.
TILES_DRAWN = """() => [...document.querySelectorAll('.mtile[data-tile]')].map((e) => {
  const tile = e.dataset.tile, dots = e.querySelectorAll('circle').length;
  return tile + ':' + (tile === '5z' ? dots === 0 && e.querySelectorAll('rect').length === 1
                                     : dots === 2 * Number(tile[0]) + (tile === '1p' ? 1 : 0));
})"""


def tile_tier_with_bots(slug: str, code: str, *, minimum_multiplier: int, options: dict):
    """Yield a 4-seat tier of the game `slug` (底注 10), bots filling the seats."""
    from rooms.models import Game, RoomTier
    from rooms.services import catalogue_sync

    added = slug not in games.REGISTRY
    if added:
        games.REGISTRY[slug] = importlib.import_module(f"games.{slug}").GAME
    catalogue_sync()
    tier = RoomTier.objects.create(
        game=Game.objects.get(slug=slug),
        code=code,
        name="初级场",
        name_en="Novice room",
        base_stake=10,
        minimum_rule=RoomTier.MinimumRule.BASE_MULTIPLE,
        minimum_multiplier=minimum_multiplier,
        seats=4,
        options=options,
        bots_enabled=True,
    )
    yield tier
    if added:
        games.REGISTRY.pop(slug, None)


def reload_same(page, screen: str) -> dict:
    """Reload, wait for the socket and the same table seq, and return the `screen` before and after."""
    page.wait_for_selector("#connection[data-status=connected]")
    before = page.evaluate(screen)
    seq = page.get_attribute("#table-app", "data-seq")
    page.reload()
    page.wait_for_selector("#connection[data-status=connected]")
    page.wait_for_function(
        "(seq) => Number(document.querySelector('#table-app').dataset.seq) >= Number(seq)", arg=seq
    )
    return {"before": before, "after": page.evaluate(screen)}


Hook = Callable[[object, dict], None]


def play_tile_hand(
    base_url: str,
    size: str,
    tier_id: int,
    locale: str,
    *,
    slug: str,
    watch: str,
    screen: str,
    choice: str,
    on_turn: Hook | None = None,
    after_answer: Hook | None = None,
    on_result: Hook | None = None,
) -> dict:
    """Play one hand of `slug` as a new player and return what the page showed.

    `watch` runs in the page from its first script on; `screen` is what a reload must
    leave the same; on every turn the last button matching `choice` is clicked.
    `on_turn` runs before the click, `after_answer` after the server's answer to a
    click other than the first (which is followed by a reload), `on_result` once the
    result panel is painted; each gets the page and the `seen` dict to fill.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"{slug[:2]}{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": [], "clicked": [], "reloads": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale=locale)
            page.add_init_script(watch)
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            sign_up_and_enter(page, base_url, username, slug, tier_id, "**/tables/*/")
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
                page.screenshot(path=str(screenshot_dir() / f"{slug}-{size}-{phase}.png"))
                seq = page.get_attribute("#table-app", "data-seq")
                if on_turn:
                    on_turn(page, seen)
                button = page.locator(choice).last
                try:
                    clicked = button.get_attribute("data-action", timeout=2000) + ":"
                    clicked += button.get_attribute("data-amount", timeout=2000) or ""
                    button.click(timeout=2000)
                except PlaywrightTimeoutError:
                    continue
                seen["clicked"].append(clicked)
                page.wait_for_function(WAIT_FOR_ANSWER, arg=seq, timeout=15000)
                assert page.get_attribute("#hand-message", "data-kind") != "error", page.inner_text(
                    "#hand-message"
                )
                if len(seen["clicked"]) == 1:
                    seen["reloads"].append(reload_same(page, screen))
                elif after_answer:
                    after_answer(page, seen)
            page.wait_for_function(RESULT_PAINTED, timeout=15000)
            seen["result_shot"] = str(screenshot_dir() / f"{slug}-{size}-result.png")
            page.screenshot(path=seen["result_shot"])
            if on_result:
                on_result(page, seen)
            seen["tiles"] = page.evaluate(TILES_DRAWN)
            me = page.locator("#result tbody tr.me")
            seen["delta"] = int(me.locator("td.delta").get_attribute("data-delta"))
            seen["rows"] = page.locator("#result tbody tr").count()
            seen["rake_text"] = page.inner_text("#result .rake-total")
            seen["balance_after"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["result_reload"] = reload_same(page, screen)
            seen["page_text"] = page.inner_text("#table-app")
            seen["fits"] = page.evaluate(
                "() => [...document.querySelectorAll('#my-hand, #actions, #result .panel, #seats')]"
                ".every(e => { const b = e.getBoundingClientRect(); return b.right <= window.innerWidth + 1 && b.left >= -1; })"
            )
        finally:
            browser.close()
    return seen


def settled_hand(seen: dict):
    """Return the player, the settled hand they played and their seat."""
    from platform.accounts.models import User

    from rooms.tables.models import Hand

    assert seen["errors"] == [], seen["errors"]
    user = User.objects.get(username=seen["username"])
    hand = Hand.objects.get(participants=user)
    assert hand.status == Hand.Status.SETTLED
    seat = next(i for i, p in enumerate(hand.players) if p["user"] == user.pk)
    return user, hand, seat


def assert_settled_hand(seen: dict, user, hand, seat: int, locale: str) -> None:
    """What every tile table shows of a settled hand: the same screen after each reload, every tile
    drawn face right, four rows, the player's delta, balance and rake as the ledger has them, and
    a page in the player's language that fits the screen."""
    from wallets.selectors import wallet_balance

    for reload in [*seen["reloads"], seen["result_reload"]]:
        assert reload["after"] == reload["before"], reload
    assert seen["result_reload"]["after"]["resultShown"]
    assert len(seen["tiles"]) >= 8 and all(t.endswith(":true") for t in seen["tiles"]), seen["tiles"]
    assert seen["rows"] == 4
    assert seen["delta"] == hand.outcome["net"][seat]
    assert seen["balance_after"] == wallet_balance(user=user)
    assert str(hand.outcome["rake"]) in seen["rake_text"]
    if locale == "zh-CN":
        assert "服务费" in seen["rake_text"] or "抽水" in seen["rake_text"], seen["rake_text"]
    else:  # an English page shows no Han character but players' names (the bots are "Bot …" in English)
        assert not re.search(r"[\u4e00-\u9fff]", seen["page_text"]), seen["page_text"]
    assert seen["fits"], "something overflows the screen"
