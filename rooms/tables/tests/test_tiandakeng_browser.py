"""End to end in real headless Chromium: 填大坑 against bots, a 烂锅 carried into the next hand, a reload.

The hands are dealt from fixed seeds (``SEEDS``): with the bots' 提示 (check or
call) and the player's moves below (raise once, then call or check), the first
hand ends in a 烂锅 and the second, dealt with its carried pot, is won by the
player, who collects the pot. Nothing is left to chance, and nothing is skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import uuid
from types import SimpleNamespace

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
from rooms.tables.tests.test_suoha_browser import SCREEN_AND_STAKES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND_TIMEOUT_S = 180
PREFERENCE = ("call", "check", "raise", "allin", "fold")
# Hand 1: a 烂锅 under this test's play; hand 2 (the carried pot's): the player wins it.
SEEDS = [hashlib.sha256(f"tiandakeng-browser-{n}".encode()).digest() for n in (4, 6)]
LANPOT_TITLE = {"en-US": "Tied: the pot goes to the next hand", "zh-CN": "烂锅：锅底留到下一局"}
CARRIED = {"en-US": "Carried pot 6", "zh-CN": "烂锅锅底6"}
OTHERS_HOLES = "() => [...document.querySelectorAll('#seats .tk-seat:not(.me) .pcard.hole')].map(c => c.dataset.card ?? null)"


@pytest.fixture
def tiandakeng_tier(transactional_db, monkeypatch):
    from rooms.tables import hands

    seeds = iter(SEEDS)
    monkeypatch.setattr(
        hands, "secrets", SimpleNamespace(token_bytes=lambda n: next(seeds, None) or os.urandom(n))
    )
    tier = game_tier("tiandakeng")  # the demo's first room: 九洲游, 底注 1
    tier.seats, tier.options = 3, {**tier.options, "turn_seconds": 60}
    tier.save(update_fields=["seats", "options"])
    return tier


def click(page, action: str) -> None:
    seq = page.get_attribute("#table-app", "data-seq")
    page.click(f"#actions [data-action={action}] >> nth=0")
    page.wait_for_function(WAIT_FOR_ANSWER, arg=seq, timeout=15000)
    refused = page.get_attribute("#hand-message", "data-kind") == "error"
    assert not refused, f"the server refused a move the page offered: {page.inner_text('#hand-message')}"


def ended_in_lanpot(username: str) -> bool:
    from rooms.tables.models import Hand

    hand = Hand.objects.filter(participants__username=username).order_by("-pk").first()
    return bool(hand and (hand.state.get("result") or {}).get("ended_by") == "lanpot")


def play_hands(base_url: str, size: str, tier_id: int, locale: str) -> dict:
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"tk{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": [], "holes": set(), "lanpot_titles": [], "limits": set()}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale=locale)
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            sign_up_and_enter(page, base_url, username, "tiandakeng", tier_id, "**/tables/*/")
            page.wait_for_function("() => document.querySelector('#table-app').dataset.seq")
            page.wait_for_selector("#connection[data-status=connected]")
            seen["balance_before"] = int(page.get_attribute("#my-balance", "data-value"))
            deadline = time.monotonic() + HAND_TIMEOUT_S
            turns = 0
            while True:
                assert time.monotonic() < deadline, "the hand did not finish in time"
                try:
                    what = page.wait_for_function(WAIT_FOR_SOMETHING_TO_DO, timeout=5000).json_value()
                except PlaywrightTimeoutError:
                    continue
                if what == "result" and ended_in_lanpot(username):
                    # 烂锅: the pot goes on to the next hand, which the same players play.
                    seen["lanpot_titles"].append(page.inner_text("#result .title"))
                    page.screenshot(path=str(screenshot_dir() / f"tiandakeng-{size}-lanpot.png"))
                    page.click("#result [data-action=next-hand]")
                    page.wait_for_selector("#result", state="hidden")
                    continue
                if what == "result":
                    break
                turns += 1
                seen["limits"].add(page.inner_text("#limits"))
                seen["holes"].update(page.evaluate(OTHERS_HOLES))
                seen["my_cards"] = page.eval_on_selector_all(
                    "#my-hand .pcard", "els => els.map(e => e.dataset.card || 'back')"
                )
                offered = page.eval_on_selector_all(
                    "#actions [data-action]", "els => els.map(e => e.dataset.action)"
                )
                if turns >= 2 and not seen.get("reloaded"):
                    before = page.evaluate(SCREEN_AND_STAKES)
                    page.reload()
                    page.wait_for_selector("#connection[data-status=connected]")
                    page.wait_for_function(WAIT_FOR_SOMETHING_TO_DO, timeout=15000)
                    after = page.evaluate(SCREEN_AND_STAKES)
                    assert after == before, (
                        f"the reloaded page differs:\n{json.dumps(before)}\n{json.dumps(after)}"
                    )
                    seen["reloaded"] = True
                    page.screenshot(path=str(screenshot_dir() / f"tiandakeng-{size}-reloaded.png"))
                if "raise" in offered and not seen.get("raised"):
                    seen["raised"] = int(
                        page.get_attribute("#actions [data-action=raise] >> nth=0", "data-amount")
                    )
                    seen["buttons"] = page.locator("#actions button").all_inner_texts()
                    page.screenshot(path=str(screenshot_dir() / f"tiandakeng-{size}-bet.png"))
                    click(page, "raise")
                    continue
                click(page, next(a for a in PREFERENCE if a in offered))
            page.wait_for_function(RESULT_PAINTED, timeout=15000)
            page.screenshot(path=str(screenshot_dir() / f"tiandakeng-{size}-result.png"))
            me = page.locator("#result tbody tr.me")
            seen["delta"] = int(me.locator("td.delta").get_attribute("data-delta"))
            seen["balance_after"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["shown"] = page.eval_on_selector_all(
                "#result .final-row",
                "els => els.map(e => [Number(e.dataset.seat), [...e.querySelectorAll('.pcard')].map(c => c.dataset.card)])",
            )
            seen["fits"] = page.evaluate(
                "() => [...document.querySelectorAll('.tk-seat, #actions, #my-hand, #result .panel')].every(el => {"
                " const b = el.getBoundingClientRect(); return b.left >= -1 && b.right <= window.innerWidth + 1; })"
            )
        finally:
            browser.close()
    return seen


@pytest.mark.parametrize(
    ("size", "locale"), [("desktop", "en-US"), pytest.param("phone", "zh-CN", marks=pytest.mark.zh)]
)
def test_a_new_player_plays_tiandakeng_through_a_lanpot_into_the_next_hand(
    live_asgi,  # noqa: F811 - the fixture
    tiandakeng_tier,
    monkeypatch,
    size,
    locale,
):
    from platform.accounts.models import User

    from games.tiandakeng import GAME
    from rooms.tables.models import Hand, HandAction
    from wallets.selectors import wallet_balance

    monkeypatch.setenv(
        "DJANGO_ALLOW_ASYNC_UNSAFE", "true"
    )  # the test reads the hand while Playwright's loop runs
    from wallets.selectors import ledger_check

    seen = play_hands(live_asgi, size, tiandakeng_tier.pk, locale)
    assert seen["errors"] == [], seen["errors"]
    user = User.objects.get(username=seen["username"])
    first, hand = Hand.objects.filter(participants=user).order_by("number")
    assert first.status == hand.status == Hand.Status.SETTLED
    assert seen["lanpot_titles"] == [LANPOT_TITLE[locale]]
    carry = first.outcome["details"]["carry"]
    assert carry["pot"] == 6 and hand.config["carry"] == carry  # the next hand was dealt with the pot
    assert any(CARRIED[locale] in text for text in seen["limits"]), seen["limits"]
    seat = next(i for i, p in enumerate(hand.players) if p["user"] == user.pk)
    state = hand.state
    assert seen["holes"] == {None}, "another seat's face-down card was shown during the hand"
    assert seen.get("reloaded"), "the hand ended before a second turn"
    assert HandAction.objects.filter(
        hand=first, seat=seat, auto=False, action={"type": "raise", "amount": seen["raised"]}
    ).exists()
    assert hand.outcome["winners"] == [seat] and hand.outcome["details"]["from_carried_pot"][seat] == 6
    word = "Raise to" if locale == "en-US" else "加注到"
    assert any(b.startswith(word) for b in seen["buttons"]), seen["buttons"]
    down = GAME.engine.visible_down(state, seat)
    assert dict((s, cards) for s, cards in seen["shown"]) == {
        s: [*down[s], *state["up"][s]] for s in range(len(down)) if down[s]
    }
    assert seen["balance_after"] == wallet_balance(user=user)
    assert seen["delta"] == hand.outcome["net"][seat]
    assert (
        seen["balance_after"] - seen["balance_before"]
        == first.outcome["net"][seat] + hand.outcome["net"][seat]
    )
    assert ledger_check() == []
    assert seen["fits"], "a seat, the buttons or the result overflow the screen"
