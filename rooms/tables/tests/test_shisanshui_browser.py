"""End to end in real headless Chromium: sign up, quick-start a 十三水 room, arrange, watch 比牌, see the result.

Same approach as test_texas_browser.py: the real ASGI app served by uvicorn in a
thread, the in-process timer loop and quick bots; the test only clicks what a
player can click, and reloads the page while arranging and during the reveal.
"""

from __future__ import annotations

import time
import uuid

import pytest

import games
from games.shisanshui.rules import pile_type
from rooms.tables.tests.test_browser import (
    CHROMIUM_ARGS,
    RESULT_PAINTED,
    SIZES,
    chromium_executable,
    live_asgi,  # noqa: F401 - the fixture, shared
    screenshot_dir,
    sign_up_and_enter,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND_TIMEOUT_S = 90
MY_ARRANGING = """() => {
  const app = document.querySelector('#table-app');
  return app.dataset.myTurn === 'yes' && document.querySelectorAll('#my-hand .pcard, #piles .pcard').length === 13
    && !!document.querySelector('#actions [data-action=clear]');
}"""
REVEALING_OR_DONE = """() => {
  const result = document.querySelector('#result');
  if (result && !result.hidden) return 'result';
  return document.querySelector('#table-app').dataset.revealing === 'yes' ? 'revealing' : false;
}"""
FACE_UP_ELSEWHERE = "() => document.querySelectorAll('#seats .pcard:not(.back)').length"


@pytest.fixture
def shisanshui_tier(transactional_db):
    """A four-seat 十三水 tier (base 1, enter with 200), bots filling the seats, registered for the test."""
    from games.shisanshui import GAME
    from rooms.models import Game, RoomTier
    from rooms.services import catalogue_sync

    added = "shisanshui" not in games.REGISTRY
    if added:
        games.REGISTRY["shisanshui"] = GAME
    catalogue_sync()
    tier = RoomTier.objects.create(
        game=Game.objects.get(slug="shisanshui"),
        code="e2e-shisanshui",
        name="初级场",
        name_en="Novice room",
        base_stake=1,
        minimum_rule=RoomTier.MinimumRule.BASE_MULTIPLE,
        minimum_multiplier=200,
        seats=4,
        options={"arrange_seconds": 60},
        bots_enabled=True,
    )
    yield tier
    if added:
        games.REGISTRY.pop("shisanshui", None)


def pile_cards(page, pile: str) -> list[str]:
    return page.locator(f"#piles [data-pile={pile}] .pcard").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )


def move(page, cards: list[str], pile: str) -> None:
    """Tap ``cards`` in the hand, then the pile."""
    for card in cards:
        page.click(f"#my-hand .pcard[data-card='{card}']")
    page.click(f"#piles [data-pile={pile}]")


PILES_FULL = "() => document.querySelectorAll('#piles .pcard').length === 13"


def take_first_pick(page) -> None:
    """Press quick pick 1 once: its piles are drawn, whatever states the others' confirmations send meanwhile."""
    page.click("#picks [data-action=pick][data-pick='0']")
    page.wait_for_function(PILES_FULL, timeout=10_000)


def play_one_hand(base_url: str, size: str, tier_id: int, locale: str) -> dict:
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"ss{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale=locale)
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            sign_up_and_enter(page, base_url, username, "shisanshui", tier_id, "**/tables/*/")
            page.wait_for_function("() => document.querySelector('#table-app').dataset.seq")
            page.wait_for_selector("#connection[data-status=connected]")
            seen["balance_before"] = int(page.get_attribute("#my-balance", "data-value"))
            page.wait_for_function(MY_ARRANGING, timeout=30000)
            seen["my_cards"] = page.locator("#my-hand .pcard").count()
            seen["others_face_up"] = page.evaluate(FACE_UP_ELSEWHERE)
            seen["picks"] = page.locator("#picks [data-action=pick]").count()

            # A quick pick fills the three piles; then swap the middle and the back by hand.
            take_first_pick(page)
            middle, back = pile_cards(page, "middle"), pile_cards(page, "back")
            seen["pick_counts"] = [len(pile_cards(page, p)) for p in ("front", "middle", "back")]
            seen["pick_kinds"] = page.locator("#piles .kind").all_inner_texts()
            seen["confirm_after_pick"] = page.is_enabled("#actions [data-action=confirm]")
            for card in middle + back:
                page.click(f"#piles .pcard[data-card='{card}']")
            move(page, back, "middle")
            move(page, middle, "back")
            seen["dao_expected"] = pile_type(back) > pile_type(middle)
            seen["dao_shown"] = page.is_visible("#dao-shui")
            seen["dao_text"] = page.inner_text("#dao-shui") if seen["dao_shown"] else ""
            seen["confirm_when_swapped"] = page.is_enabled("#actions [data-action=confirm]")
            seen["arrange_shot"] = str(screenshot_dir() / f"shisanshui-{size}-{locale}-arrange.png")
            page.screenshot(path=seen["arrange_shot"])

            # Reload mid-hand: the same cards come back, and the piles as they were left.
            page.reload()
            page.wait_for_selector("#connection[data-status=connected]")
            page.wait_for_function(MY_ARRANGING, timeout=15000)
            seen["middle_after_reload"] = pile_cards(page, "middle")
            seen["swapped_middle"] = back

            take_first_pick(page)
            seen["confirmed"] = {p: pile_cards(page, p) for p in ("front", "middle", "back")}
            page.click("#actions [data-action=confirm]")

            deadline = time.monotonic() + HAND_TIMEOUT_S
            what = page.wait_for_function(REVEALING_OR_DONE, timeout=HAND_TIMEOUT_S * 1000).json_value()
            if what == "revealing":
                page.wait_for_function(f"() => ({FACE_UP_ELSEWHERE})() > 0", timeout=10000)
                seen["revealed"] = page.locator("#pairs li").count()
                seen["reveal_shot"] = str(screenshot_dir() / f"shisanshui-{size}-{locale}-reveal.png")
                page.screenshot(path=seen["reveal_shot"])
                page.reload()  # reload during the reveal: the result comes at once
                page.wait_for_selector("#connection[data-status=connected]")
            left = max(1000, (deadline - time.monotonic()) * 1000)
            page.wait_for_function(RESULT_PAINTED, timeout=left)
            seen["result_shot"] = str(screenshot_dir() / f"shisanshui-{size}-{locale}-result.png")
            page.screenshot(path=seen["result_shot"])
            me = page.locator("#result tbody tr.me")
            seen["delta"] = int(me.locator("td.delta").get_attribute("data-delta"))
            seen["water"] = int(me.locator("td.water").get_attribute("data-water"))
            seen["row_balance"] = me.locator("td.balance").inner_text()
            seen["balance_after"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["rows"] = page.locator("#result tbody tr").count()
            seen["rake_text"] = page.inner_text("#result .rake-total")
            seen["page_text"] = page.inner_text("body")
            seen["fits"] = page.evaluate(
                "() => [...document.querySelectorAll('#piles, #actions, #result .panel')]"
                ".every(e => { const b = e.getBoundingClientRect(); return b.right <= window.innerWidth + 1 && b.left >= -1; })"
            )
        finally:
            browser.close()
    return seen


@pytest.mark.parametrize(
    ("size", "locale"),
    [
        ("desktop", "en-US"),
        pytest.param("phone", "zh-CN", marks=pytest.mark.zh),
        pytest.param("desktop", "zh-CN", marks=pytest.mark.zh),
        ("phone", "en-US"),
    ],
)
def test_a_new_player_plays_a_whole_shisanshui_hand_against_bots(
    live_asgi,  # noqa: F811
    shisanshui_tier,
    settings,
    size,
    locale,
):
    from platform.accounts.models import User

    from rooms.tables.models import Hand, HandAction
    from wallets.models import LedgerEntry
    from wallets.selectors import wallet_balance

    seen = play_one_hand(live_asgi, size, shisanshui_tier.pk, locale)
    print(f"screenshots: {seen['arrange_shot']} {seen['result_shot']}")
    assert seen["errors"] == [], seen["errors"]

    # Arranging: my 13 cards, nobody else's; quick picks fill legal piles, named by kind.
    assert seen["my_cards"] == 13 and seen["others_face_up"] == 0
    assert seen["picks"] >= 1 and seen["pick_counts"] == [3, 5, 5]
    assert len(seen["pick_kinds"]) == 3 and seen["confirm_after_pick"]
    # 倒水 is explained before confirming, and Confirm waits for a legal arrangement.
    assert seen["dao_shown"] == seen["dao_expected"]
    if seen["dao_expected"]:
        assert seen["dao_text"] and not seen["confirm_when_swapped"]
    assert sorted(seen["middle_after_reload"]) == sorted(seen["swapped_middle"])

    user = User.objects.get(username=seen["username"])
    hand = Hand.objects.get(participants=user)
    assert hand.status == Hand.Status.SETTLED
    my_seat = next(i for i, p in enumerate(hand.players) if p["user"] == user.pk)
    mine = HandAction.objects.get(hand=hand, seat=my_seat)
    assert not mine.auto
    assert mine.action == {"type": "arrange", **seen["confirmed"]}

    details = hand.outcome["details"]
    assert seen["water"] == details["water"][my_seat]
    balance = wallet_balance(user=user)
    assert seen["balance_after"] == balance
    assert seen["balance_after"] - seen["balance_before"] == seen["delta"] == hand.outcome["net"][my_seat]
    carried = hand.players[my_seat]["carried"]
    paid = LedgerEntry.objects.filter(transaction__key=hand.settlement_key, account__user=user)
    assert sum(paid.values_list("amount", flat=True)) - carried == seen["delta"]
    assert seen["row_balance"].replace(",", "") == str(balance)
    assert seen["rows"] == 4
    assert seen.get("revealed") == 6, "比牌 was not revealed pair by pair"
    assert str(hand.outcome["rake"]) in seen["rake_text"]
    if locale == "en-US":
        han = [ch for ch in seen["page_text"] if "\u4e00" <= ch <= "\u9fff"]
        allowed = set("简体中文") | set(user.username)
        assert not [ch for ch in han if ch not in allowed], "".join(han)
    assert seen["fits"], "something overflows the screen"
