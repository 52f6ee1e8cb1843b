"""End to end in real headless Chromium: sign up, quick-start a 梭哈 room, play a whole hand with a reload.

Same approach as the other table tests (the real ASGI app served by uvicorn in a
thread, the in-process timer loop, quick bots); the test only clicks what a
player can click: a bet on its first turn, 换牌 (swap) when a card comes face
down, then call, check or 开 (open) until the hands are shown. On its second
turn it reloads the page, which must come back the same.
"""

from __future__ import annotations

import json
import time
import uuid

import pytest

from rooms.tables.tests.test_abuse import game_tier
from rooms.tables.tests.test_browser import (  # noqa: F401 - live_asgi is a fixture
    CHROMIUM_ARGS,
    RESULT_PAINTED,
    SIZES,
    WAIT_FOR_ANSWER,
    WAIT_FOR_SOMETHING_TO_DO,
    chromium_executable,
    live_asgi,
    screenshot_dir,
    sign_up_and_enter,
)
from rooms.tables.tests.test_reload_browser import SCREEN

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND_TIMEOUT_S = 180
PREFERENCE = ("swap", "keep", "call", "check", "open", "suo", "raise", "fold")
# What the page shows of the others: their face-up cards, and their 底牌 face up (never before the end).
OTHERS = """() => [...document.querySelectorAll('#seats .sh-seat:not(.me)')].map(seat => ({
  up: [...seat.querySelectorAll('.cards .pcard:not(.hole)')].map(c => c.dataset.card),
  hole: seat.querySelector('.cards .pcard.hole')?.dataset.card ?? null,
}))"""
# The screen a reload must restore, and the stakes drawn beside each seat.
SCREEN_AND_STAKES = (
    "() => ({ ...("
    + SCREEN
    + """)(),
  seats: [...document.querySelectorAll('#seats .sh-seat')].map(s => {
    const copy = s.cloneNode(true);
    copy.querySelectorAll('.clock').forEach(c => c.remove());  // the countdown moves on by itself
    return copy.textContent;
  }),
  pot: document.querySelector('#pot').dataset.value })"""
)


@pytest.fixture
def suoha_tier(transactional_db):
    tier = game_tier("suoha")  # the demo's first room: 易发, four seats, 底分 1
    tier.options = {**tier.options, "turn_seconds": 60, "swap_seconds": 60}
    tier.save(update_fields=["options"])
    return tier


def click(page, action: str) -> None:
    seq = page.get_attribute("#table-app", "data-seq")
    page.click(f"#actions [data-action={action}] >> nth=0")
    page.wait_for_function(WAIT_FOR_ANSWER, arg=seq, timeout=15000)
    refused = page.get_attribute("#hand-message", "data-kind") == "error"
    assert not refused, f"the server refused a move the page offered: {page.inner_text('#hand-message')}"


def play_one_hand(base_url: str, size: str, tier_id: int, locale: str) -> dict:
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"sh{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": [], "clicked": [], "others_holes": set()}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale=locale)
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            sign_up_and_enter(page, base_url, username, "suoha", tier_id, "**/tables/*/")
            page.wait_for_function("() => document.querySelector('#table-app').dataset.seq")
            page.wait_for_selector("#connection[data-status=connected]")
            seen["balance_before"] = int(page.get_attribute("#my-balance", "data-value"))
            deadline = time.monotonic() + HAND_TIMEOUT_S
            turns = 0
            while True:
                left_ms = (deadline - time.monotonic()) * 1000
                assert left_ms > 0, "the hand did not finish in time"
                what = page.wait_for_function(WAIT_FOR_SOMETHING_TO_DO, timeout=left_ms).json_value()
                if what == "result":
                    break
                turns += 1
                for other in page.evaluate(OTHERS):
                    seen["others_holes"].add(other["hole"])
                seen["my_cards"] = page.eval_on_selector_all(
                    "#my-hand .pcard", "els => els.map(e => e.dataset.card || 'back')"
                )
                offered = page.eval_on_selector_all(
                    "#actions [data-action]", "els => els.map(e => e.dataset.action)"
                )
                if turns >= 2 and "swap" not in offered and not seen.get("reloaded"):
                    # A reload in the middle of the hand, on this player's betting turn.
                    before = page.evaluate(SCREEN_AND_STAKES)
                    page.reload()
                    page.wait_for_selector("#connection[data-status=connected]")
                    page.wait_for_function(WAIT_FOR_SOMETHING_TO_DO, timeout=15000)
                    after = page.evaluate(SCREEN_AND_STAKES)
                    assert after == before, (
                        f"the reloaded page differs:\n{json.dumps(before)}\n{json.dumps(after)}"
                    )
                    seen["reloaded"] = True
                    page.screenshot(path=str(screenshot_dir() / f"suoha-{size}-reloaded.png"))
                if "swap" in offered and not seen.get("swapped"):
                    seen["dealt"] = page.get_attribute("#my-dealt", "data-card")
                    seen["hole_before_swap"] = page.get_attribute("#my-hand", "data-hole")
                    page.screenshot(path=str(screenshot_dir() / f"suoha-{size}-swap.png"))
                    click(page, "swap")
                    seen["swapped"] = True
                    seen["hole_after_swap"] = page.get_attribute("#my-hand", "data-hole")
                    continue
                if "raise" in offered and not seen.get("raised"):
                    seen["raised"] = int(
                        page.get_attribute("#actions [data-action=raise] >> nth=0", "data-amount")
                    )
                    seen["buttons"] = page.locator("#actions button").all_inner_texts()
                    page.screenshot(path=str(screenshot_dir() / f"suoha-{size}-bet.png"))
                    click(page, "raise")
                    seen["clicked"].append("raise")
                    continue
                choice = next(a for a in PREFERENCE if a in offered)
                click(page, choice)
                seen["clicked"].append(choice)
            page.wait_for_function(RESULT_PAINTED, timeout=15000)
            page.screenshot(path=str(screenshot_dir() / f"suoha-{size}-result.png"))
            me = page.locator("#result tbody tr.me")
            seen["delta"] = int(me.locator("td.delta").get_attribute("data-delta"))
            seen["balance_after"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["shown"] = page.eval_on_selector_all(
                "#result .final-row",
                "els => els.map(e => [Number(e.dataset.seat), [...e.querySelectorAll('.pcard')].map(c => c.dataset.card)])",
            )
            seen["title"] = page.inner_text("#result-title")
            seen["fits"] = page.evaluate(
                "() => [...document.querySelectorAll('.sh-seat, #actions, #my-hand, #result .panel')].every(el => {"
                " const b = el.getBoundingClientRect(); return b.left >= -1 && b.right <= window.innerWidth + 1; })"
            )
        finally:
            browser.close()
    return seen


@pytest.mark.parametrize(
    ("size", "locale"), [("desktop", "en-US"), pytest.param("phone", "zh-CN", marks=pytest.mark.zh)]
)
def test_a_new_player_plays_a_whole_suoha_hand_against_bots(live_asgi, suoha_tier, size, locale):  # noqa: F811
    from platform.accounts.models import User

    from games.suoha import GAME
    from rooms.tables.models import Hand, HandAction
    from wallets.selectors import wallet_balance

    seen = play_one_hand(live_asgi, size, suoha_tier.pk, locale)
    assert seen["errors"] == [], seen["errors"]
    user = User.objects.get(username=seen["username"])
    hand = Hand.objects.get(participants=user)
    assert hand.status == Hand.Status.SETTLED
    seat = next(i for i, p in enumerate(hand.players) if p["user"] == user.pk)
    state = hand.state
    # The others' 底牌 stayed face down while the hand was played.
    assert seen["others_holes"] == {None}
    assert seen.get("reloaded"), "the hand ended before a second turn"
    own = HandAction.objects.filter(hand=hand, seat=seat, auto=False)
    assert own.filter(action={"type": "raise", "amount": seen["raised"]}).exists()
    if locale == "en-US":
        assert any(b.startswith("Bet") for b in seen["buttons"]), seen["buttons"]
    else:
        assert any(b.startswith("下注") for b in seen["buttons"]), seen["buttons"]
    if seen.get("swapped"):  # 换牌: the dealt card became the 底牌, the old one went face up
        assert own.filter(action={"type": "swap"}).exists()
        assert seen["hole_after_swap"] == seen["dealt"] != seen["hole_before_swap"]
        assert seen["hole_before_swap"] in state["up"][seat]
    # The reveal: the 底牌 and face-up cards of exactly the hands the rules show this seat.
    down = GAME.engine.visible_down(state, seat)
    assert dict((s, cards) for s, cards in seen["shown"]) == {
        s: [down[s], *state["up"][s]] for s in range(len(down)) if down[s]
    }
    assert seen["balance_after"] == wallet_balance(user=user)
    assert seen["balance_after"] - seen["balance_before"] == seen["delta"]
    assert seen["fits"], "a seat, the buttons or the result overflow the screen"
