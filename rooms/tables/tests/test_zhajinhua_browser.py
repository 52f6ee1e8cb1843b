"""End to end in real headless Chromium: sign up, quick-start a 炸金花 room, play a whole hand.

Same harness as test_browser.py (uvicorn in a thread serving the real ASGI
app, timers in process, quick bots); the test only clicks what a player can
click: 看牌, 加注 or 跟注, then 比牌 with a target from the picker.
"""

from __future__ import annotations

import time
import uuid

import pytest

from rooms.tables.tests.test_browser import (  # noqa: F401 - live_asgi is a fixture
    CHROMIUM_ARGS,
    PASSWORD,
    RESULT_PAINTED,
    SIZES,
    WAIT_FOR_ANSWER,
    WAIT_FOR_SOMETHING_TO_DO,
    chromium_executable,
    live_asgi,
    screenshot_dir,
    sign_up_and_enter,
)
from rooms.tables.tests.test_zhajinhua_runtime import zjh_game  # noqa: F401 - a fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND_TIMEOUT_S = 180


@pytest.fixture
def zjh_browser_tier(transactional_db, zjh_game):  # noqa: F811
    from rooms.models import Game, RoomTier
    from rooms.services import catalogue_sync

    catalogue_sync()
    return RoomTier.objects.create(
        game=Game.objects.get(slug="zhajinhua"),
        code="e2e-zjh",
        name="初级场",
        base_stake=1,
        minimum_rule=RoomTier.MinimumRule.TABLE_CAP,
        table_cap=100,
        options={"player_cap": 100},
        bots_enabled=True,
    )


def click_and_wait(page, selector: str) -> None:
    seq = page.get_attribute("#table-app", "data-seq")
    page.click(selector)
    page.wait_for_function(WAIT_FOR_ANSWER, arg=seq, timeout=15000)
    refused = page.get_attribute("#hand-message", "data-kind") == "error"
    assert not refused, f"the server refused a move the page offered: {page.inner_text('#hand-message')}"


def play_turn(page, seen: dict, size: str) -> None:
    """Look first, then raise (or call), then compare with the first player the picker offers."""
    actions = page.locator("#actions")
    if actions.locator("[data-action=look]").count():
        seen["face_down"] = page.locator("#my-hand .pcard.back").count()
        seen["face_up_before_look"] = page.locator("#my-hand .pcard:not(.back)").count()
        seen["blind_shot"] = str(screenshot_dir() / f"zjh-{size}-blind.png")
        page.screenshot(path=seen["blind_shot"])
        click_and_wait(page, "#actions [data-action=look]")
        seen["looked"] = page.locator("#my-hand .pcard:not(.back)").count()
        return
    if actions.locator("[data-action=compare]").count():
        page.click("#actions [data-action=compare]")
        page.wait_for_selector("#targets:not([hidden]) [data-action=compare-target]")
        seen["picker_shot"] = str(screenshot_dir() / f"zjh-{size}-compare.png")
        page.screenshot(path=seen["picker_shot"])
        click_and_wait(page, "#targets [data-action=compare-target]")
        seen["compared"] = True
        return
    if "seen_shot" not in seen:
        seen["seen_shot"] = str(screenshot_dir() / f"zjh-{size}-seen.png")
        page.screenshot(path=seen["seen_shot"])
    raise_button = actions.locator("[data-action=raise]")
    if raise_button.count() and not seen.get("raised"):
        seen["raised"] = int(raise_button.first.get_attribute("data-amount"))
        click_and_wait(page, "#actions [data-action=raise] >> nth=0")
    elif actions.locator("[data-action=call]").count():
        click_and_wait(page, "#actions [data-action=call]")
    else:
        click_and_wait(page, "#actions [data-action=fold]")


def play_one_hand(base_url: str, size: str, tier_id: int) -> dict:
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"zjh{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            sign_up_and_enter(page, base_url, username, "zhajinhua", tier_id, "**/tables/*/")
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
                play_turn(page, seen, size)

            page.wait_for_function(RESULT_PAINTED, timeout=15000)
            seen["result_shot"] = str(screenshot_dir() / f"zjh-{size}-result.png")
            page.screenshot(path=seen["result_shot"])
            me = page.locator("#result tbody tr.me")
            seen["delta"] = int(me.locator("td.delta").get_attribute("data-delta"))
            seen["balance_after"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["row_balance"] = me.locator("td.balance").inner_text()
            seen["rows"] = page.locator("#result tbody tr").count()
            seen["shown_seats"] = sorted(
                int(x)
                for x in page.eval_on_selector_all(
                    "#result .final-row", "els => els.map(e => e.dataset.seat)"
                )
            )
            seen["fits"] = page.evaluate(
                "() => [...document.querySelectorAll('.zj-seat, #actions')].every(el => {"
                " const b = el.getBoundingClientRect(); return b.left >= -1 && b.right <= window.innerWidth + 1; })"
            )
        finally:
            browser.close()
    return seen


@pytest.mark.parametrize("size", list(SIZES))
def test_a_new_player_plays_a_whole_zhajinhua_hand_against_bots(live_asgi, zjh_browser_tier, settings, size):  # noqa: F811
    from platform.accounts.models import User

    from games.zhajinhua import GAME
    from rooms.tables.models import Hand, HandAction
    from wallets.models import LedgerEntry
    from wallets.selectors import wallet_balance

    seen = play_one_hand(live_asgi, size, zjh_browser_tier.pk)
    print(
        f"screenshots: {seen.get('blind_shot')} {seen.get('seen_shot')} {seen.get('picker_shot')} {seen['result_shot']}"
    )

    assert seen["errors"] == [], seen["errors"]
    user = User.objects.get(username=seen["username"])
    hand = Hand.objects.get(participants=user)
    assert hand.status == Hand.Status.SETTLED
    seat = next(i for i, p in enumerate(hand.players) if p["user"] == user.pk)
    # Face down until 看牌, then the three cards the engine dealt.
    assert seen["face_down"] == 3 and seen["face_up_before_look"] == 0
    assert seen["looked"] == 3
    own = HandAction.objects.filter(hand=hand, seat=seat, auto=False)
    assert own.filter(action__type="look").exists()
    if seen.get("raised"):
        assert own.filter(action={"type": "raise", "amount": seen["raised"]}).exists()
    if seen.get("compared"):
        assert own.filter(action__type="compare").exists()
    assert own.count() >= 2, "the page played less than a look and a bet"

    balance = wallet_balance(user=user)
    carried = hand.players[seat]["carried"]
    assert seen["balance_before"] == settings.SIGNUP_GRANT_FIRST == carried
    assert seen["balance_after"] == balance, "the balance shown differs from the wallet"
    assert seen["balance_after"] - seen["balance_before"] == seen["delta"]
    paid = LedgerEntry.objects.filter(transaction__key=hand.settlement_key, account__user=user)
    assert sum(paid.values_list("amount", flat=True)) - carried == seen["delta"]
    assert seen["row_balance"].replace(",", "") == str(balance)
    assert seen["rows"] == len(hand.players) == 5
    # The result shows exactly the hands the rules let this seat see, no more.
    visible = GAME.engine.visible_hands(hand.state, seat)
    assert seen["shown_seats"] == [i for i, cards in enumerate(visible) if cards is not None]
    assert seen["fits"], "a seat or the buttons overflow the screen"
