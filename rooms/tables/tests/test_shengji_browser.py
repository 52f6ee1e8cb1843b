"""End to end in real headless Chromium: sign up, sit at a 升级 table with three bots, play a whole hand.

Same harness as test_browser.py. The test clicks only what a player can click: 报主 when
offered while dealing, 不反 (pass) when asked to overcall, 提示 then 盖底 / 出牌; once it tries
a lead of two suits and reads the refusal; it reloads the page mid-hand. One run at
1280×800 in Chinese, one at 390×844 in English.
"""

from __future__ import annotations

import time
import uuid

import pytest

from rooms.tables.tests.test_browser import (  # noqa: F401 - live_asgi is a fixture
    CHROMIUM_ARGS,
    RESULT_PAINTED,
    SIZES,
    WAIT_FOR_ANSWER,
    chromium_executable,
    live_asgi,
    screenshot_dir,
    sign_up_and_enter,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND_TIMEOUT_S = 300

# The result panel, a turn with live buttons, or a declaration offered while dealing.
WAIT_FOR_SOMETHING = """() => {
  const result = document.querySelector('#result');
  if (result && !result.hidden && !result.querySelector('[data-action=next-hand]').disabled) return 'result';
  const app = document.querySelector('#table-app');
  if (app.dataset.myTurn === 'yes' && document.querySelector('#actions button:not([disabled])')) return app.dataset.phase;
  if (document.querySelector('#actions [data-action=declare]:not([disabled])')) return 'declare';
  return false;
}"""


@pytest.fixture
def shengji_tier(transactional_db):
    from rooms.models import Game, RoomTier
    from rooms.services import catalogue_sync

    catalogue_sync()
    return RoomTier.objects.create(
        game=Game.objects.get(slug="shengji"),
        code="e2e-shengji",
        name="初级场",
        base_stake=2,
        minimum_rule=RoomTier.MinimumRule.TABLE_CAP,
        table_cap=80,
        bots_enabled=True,
        # Turns long enough that a loaded machine (tests in parallel) never has the clock play the
        # turn the page is about to click; the clock's own play is tested in test_turn_clock.py.
        options={"turn_seconds": 120, "bury_seconds": 120},
    )


def click_and_wait(page, selector: str) -> None:
    seq = page.get_attribute("#table-app", "data-seq")
    page.click(selector)
    page.wait_for_function(WAIT_FOR_ANSWER, arg=seq, timeout=15000)
    refused = page.get_attribute("#hand-message", "data-kind") == "error"
    assert not refused, f"the server refused a move the page offered: {page.inner_text('#hand-message')}"


def try_a_mixed_lead(page, seen: dict) -> None:
    """Choose two cards of different suits (a plain card and a trump) and play them.

    Only a plain card beside a trump is sure to be two suits: a late hand of trumps alone holds
    several suit letters, and two of them are one suit (the trumps), a lead the server accepts.
    """
    plain = page.locator("#my-hand .pcard[tabindex]:not(.trump-group)")
    trumps = page.locator("#my-hand .pcard[tabindex].trump-group")
    if not plain.count() or not trumps.count():
        return
    # As a player does, click a card's visible strip, its top left corner: on a phone the next card
    # overlaps the rest of it.
    plain.first.click(position={"x": 4, "y": 6})
    trumps.last.click(position={"x": 4, "y": 6})
    page.click("#actions [data-action=play]")
    page.wait_for_selector("#hand-message[data-kind=error]", timeout=15000)
    seen["refusal"] = page.inner_text("#hand-message")
    page.click("#actions [data-action=clear]")


def play_turn(page, what: str, seen: dict, size: str) -> None:
    if what == "declare":
        seen["declared"] = page.get_attribute("#actions [data-action=declare] >> nth=0", "data-cards")
        click_and_wait(page, "#actions [data-action=declare] >> nth=0")
        return
    if what == "overcall":
        click_and_wait(page, "#actions [data-action=pass]")
        return
    if what == "play" and not page.locator("#seats .played").count() and "refusal" not in seen:
        try_a_mixed_lead(page, seen)
    if what == "play" and page.locator("#seats .played").count():
        seen["dim_seen"] = seen.get("dim_seen", 0) + page.locator("#my-hand .pcard.dim").count()
    if "hand_shot" not in seen and what == "play":
        seen["hand_shot"] = str(screenshot_dir() / f"shengji-{size}-hand.png")
        page.screenshot(path=seen["hand_shot"])
        seen["rows"] = int(page.get_attribute("#my-hand", "data-rows"))
        seen["count"] = int(page.get_attribute("#my-hand", "data-count"))
        seen["fits"] = page.evaluate(
            "() => [...document.querySelectorAll('.sj-seat, #actions, #my-hand .pcard')].every(el => {"
            " const b = el.getBoundingClientRect(); return b.left >= -1 && b.right <= window.innerWidth + 1; })"
        )
        seen["corner_px"] = page.evaluate(
            "() => parseFloat(getComputedStyle(document.querySelector('#my-hand .pcard .rank')).fontSize)"
        )
    page.click("#actions [data-action=hint]")
    action = "bury" if what == "bury" else "play"
    page.wait_for_selector(f"#actions [data-action={action}]:not([disabled])")
    click_and_wait(page, f"#actions [data-action={action}]")
    seen["turns"] = seen.get("turns", 0) + 1


def play_one_hand(base_url: str, size: str, tier_id: int, english: bool) -> dict:
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"sj{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": width, "height": height}, locale="zh-CN")
            page = context.new_page()
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            if english:  # the site opens in Chinese; one click on the switch makes it English
                page.goto(f"{base_url}/accounts/signup/")
                page.click("[data-testid=language-switch]")
                page.wait_for_selector("html[lang=en]")
            sign_up_and_enter(page, base_url, username, "shengji", tier_id, "**/tables/*/")
            page.wait_for_selector("#connection[data-status=connected]")
            deadline = time.monotonic() + HAND_TIMEOUT_S
            while True:
                left_ms = (deadline - time.monotonic()) * 1000
                assert left_ms > 0, "the hand did not finish in time"
                what = page.wait_for_function(WAIT_FOR_SOMETHING, timeout=left_ms).json_value()
                if what == "result":
                    break
                if what == "play" and seen.get("turns", 0) == 5 and "reloaded" not in seen:
                    page.reload()  # mid-hand: the page comes back to the same turn
                    page.wait_for_selector("#connection[data-status=connected]")
                    # Connected comes before the first state is painted: wait for that state.
                    page.wait_for_function(
                        "() => (document.querySelector('#table-app').dataset.seq || '') !== ''"
                    )
                    seen["reloaded"] = page.get_attribute("#table-app", "data-phase")
                    continue
                play_turn(page, what, seen, size)
            page.wait_for_function(RESULT_PAINTED, timeout=15000)
            seen["result_shot"] = str(screenshot_dir() / f"shengji-{size}-result.png")
            page.screenshot(path=seen["result_shot"])
            seen["title"] = page.inner_text("#result .title")
            seen["lang"] = page.get_attribute("html", "lang")
            seen["delta"] = int(page.get_attribute("#result tbody tr.me td.delta", "data-delta"))
        finally:
            browser.close()
    return seen


@pytest.mark.parametrize(("size", "english"), [("desktop", False), ("phone", True)])
def test_a_player_plays_a_whole_shengji_hand_with_three_bots(live_asgi, shengji_tier, size, english):  # noqa: F811
    from platform.accounts.models import User

    from rooms.tables.models import Hand, HandAction

    seen = play_one_hand(live_asgi, size, shengji_tier.pk, english)
    print(f"screenshots: {seen.get('hand_shot')} {seen['result_shot']}")
    assert seen["errors"] == [], seen["errors"]
    user = User.objects.get(username=seen["username"])
    hand = Hand.objects.get(participants=user)
    assert hand.status == Hand.Status.SETTLED
    seat = next(i for i, p in enumerate(hand.players) if p["user"] == user.pk)
    own = HandAction.objects.filter(hand=hand, seat=seat, auto=False)
    # She played her own cards trick by trick (pairs and tractors make fewer than 25 tricks); nothing for her.
    assert own.filter(action__type="play").count() >= 8
    assert not HandAction.objects.filter(hand=hand, seat=seat, auto=True).exists()
    assert seen["reloaded"] == "play"
    assert seen["lang"] == ("en" if english else "zh-hans")
    assert seen["title"]
    assert seen["fits"], "a seat, the buttons or a card overflow the screen"
    assert seen["count"] >= 24 and seen["rows"] == (2 if size == "phone" else 1)
    assert seen["corner_px"] >= 14  # each card's rank stays legible
    if "refusal" in seen:
        assert (
            ("one suit" in seen["refusal"])
            if english
            else ("花色" in seen["refusal"] or "一种" in seen["refusal"])
        )
