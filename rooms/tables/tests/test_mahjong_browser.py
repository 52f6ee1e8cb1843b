"""End to end in real headless Chromium: 血战到底 and 广东推倒胡, a whole hand each against three bots.

Same approach as the other table tests (the real ASGI app served by uvicorn in a
thread, the in-process timer loop, quick bots). The player only clicks what a
player can click: the tiles 换三张 suggests, the 定缺 suit, 胡 / 杠 / 碰 when they
light up in a claim window (else 过), 胡 on a self-draw, else 出牌 of the tile
selected. Midway through it reloads the page, which must come back the same.
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

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND_TIMEOUT_S = 420
ORDER = "mpsz"
# What a reload must restore: the phase, the hand, the buttons, every seat's discards and melds.
SCREEN = """() => ({
  phase: document.querySelector('#table-app').dataset.phase,
  myTurn: document.querySelector('#table-app').dataset.myTurn,
  hand: document.querySelector('#my-hand').dataset.tiles || '',
  actions: [...document.querySelectorAll('#actions [data-action]')].map(e => e.dataset.action + ':' + e.disabled),
  discards: [...document.querySelectorAll('#seats .mj-seat .discards')].map(d => [...d.querySelectorAll('.mtile')].map(t => t.dataset.tile).join(' ')),
  melds: [...document.querySelectorAll('#seats .mj-meld, #my-melds .mj-meld')].map(m => m.dataset.kind + m.dataset.tile),
  wild: document.querySelector('#wild').dataset.tile || '',
  balance: document.querySelector('#my-balance').dataset.value,
})"""
ACTIONS = "els => els.map(e => ({action: e.dataset.action, disabled: e.disabled}))"


def tier_for(slug: str):
    tier = game_tier(slug)  # the demo's first room (底分 1, bots on)
    tier.options = {**tier.options, "turn_seconds": 60, "claim_seconds": 30}
    tier.save(update_fields=["options"])
    return tier


def tile_key(tile: str) -> tuple[int, int]:
    return ORDER.index(tile[-1]), int(tile[:-1])


def click(page, selector: str) -> None:
    seq = page.get_attribute("#table-app", "data-seq")
    page.click(selector)
    page.wait_for_function(WAIT_FOR_ANSWER, arg=seq, timeout=15000)
    refused = page.get_attribute("#hand-message", "data-kind") == "error"
    assert not refused, f"the server refused a move the page offered: {page.inner_text('#hand-message')}"


def play_one_hand(base_url: str, slug: str, size: str, tier_id: int, locale: str) -> dict:
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"mj{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": [], "clicked": [], "claims": [], "hands": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale=locale)
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            sign_up_and_enter(page, base_url, username, slug, tier_id, "**/tables/*/")
            page.wait_for_function("() => document.querySelector('#table-app').dataset.seq")
            page.wait_for_selector("#connection[data-status=connected]")
            seen["balance_before"] = int(page.get_attribute("#my-balance", "data-value"))
            deadline = time.monotonic() + HAND_TIMEOUT_S
            discards = 0
            while True:
                left_ms = (deadline - time.monotonic()) * 1000
                assert left_ms > 0, "the hand did not finish in time"
                what = page.wait_for_function(WAIT_FOR_SOMETHING_TO_DO, timeout=left_ms).json_value()
                if what == "result":
                    break
                phase = page.get_attribute("#table-app", "data-phase")
                offered = page.eval_on_selector_all("#actions [data-action]", ACTIONS)
                lit = [a["action"] for a in offered if not a["disabled"]]
                seen["hands"].append(page.get_attribute("#my-hand", "data-tiles"))
                if phase == "turn" and discards == 1 and not seen.get("reloaded"):
                    before = page.evaluate(SCREEN)
                    page.reload()
                    page.wait_for_selector("#connection[data-status=connected]")
                    page.wait_for_function(WAIT_FOR_SOMETHING_TO_DO, timeout=15000)
                    after = page.evaluate(SCREEN)
                    assert after == before, (
                        f"the reloaded page differs:\n{json.dumps(before)}\n{json.dumps(after)}"
                    )
                    seen["reloaded"] = True
                    page.screenshot(path=str(screenshot_dir() / f"{slug}-{size}-reloaded.png"))
                if phase == "exchange":
                    seen["exchange_title"] = page.inner_text("#dialog .mj-dialog-title")
                    page.screenshot(path=str(screenshot_dir() / f"{slug}-{size}-exchange.png"))
                    choice = "exchange"
                elif phase == "void":
                    seen["void_buttons"] = page.locator("#actions button").all_inner_texts()
                    choice = next(a for a in lit if a.startswith("void-"))
                elif phase == "claim":
                    seen["claims"].append(
                        {a["action"]: not a["disabled"] for a in offered if a["action"] != "ready"}
                    )
                    seen["claim_clock"] = page.inner_text("#actions .clock")
                    page.screenshot(path=str(screenshot_dir() / f"{slug}-{size}-claim.png"))
                    choice = next(a for a in ("win", "kong", "pung", "pass") if a in lit)
                else:
                    choice = "win" if "win" in lit else "discard"
                    if choice == "discard":
                        discards += 1
                        seen["discard_label"] = page.inner_text("#actions [data-action=discard]")
                click(page, f"#actions [data-action={choice}] >> nth=0")
                seen["clicked"].append(choice)
            page.wait_for_function(RESULT_PAINTED, timeout=15000)
            page.screenshot(path=str(screenshot_dir() / f"{slug}-{size}-result.png"))
            me = page.locator("#result tbody tr.me")
            seen["delta"] = int(me.locator("td.delta").get_attribute("data-delta"))
            seen["balance_after"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["payments"] = page.eval_on_selector_all(
                "#payments li.payment", "els => els.map(e => ({kind: e.dataset.kind, text: e.innerText}))"
            )
            seen["title"] = page.inner_text("#result-title")
            seen["fits"] = page.evaluate(
                "() => [...document.querySelectorAll('.mj-seat, #actions, #my-hand, #result .panel')].every(el => {"
                " const b = el.getBoundingClientRect(); return b.left >= -1 && b.right <= window.innerWidth + 1; })"
            )
        finally:
            browser.close()
    return seen


@pytest.mark.parametrize("slug", ["xuezhan", "tuidaohu"])
@pytest.mark.parametrize(
    ("size", "locale"), [("desktop", "en-US"), pytest.param("phone", "zh-CN", marks=pytest.mark.zh)]
)
def test_a_new_player_plays_a_whole_mahjong_hand_against_bots(live_asgi, slug, size, locale):  # noqa: F811
    from platform.accounts.models import User

    from rooms.tables.models import Hand, HandAction
    from wallets.selectors import wallet_balance

    tier = tier_for(slug)
    seen = play_one_hand(live_asgi, slug, size, tier.pk, locale)
    assert seen["errors"] == [], seen["errors"]
    user = User.objects.get(username=seen["username"])
    hand = Hand.objects.get(participants=user)
    assert hand.status == Hand.Status.SETTLED
    seat = next(i for i, p in enumerate(hand.players) if p["user"] == user.pk)
    state = hand.state
    assert seen.get("reloaded") or state["discarded"][seat] < 2, "the page was not reloaded mid-hand"
    # The hand is drawn sorted (the tile just drawn set apart at the right end).
    for tiles in filter(None, seen["hands"]):
        rest = tiles.split()
        rest = rest[:-1] if len(rest) % 3 == 2 else rest  # a hand of 3n + 2 may end on its drawn tile
        assert rest == sorted(rest, key=tile_key), tiles
    # Every claim window showed 胡 杠 碰 过, lit only as the server allows (过 always).
    for claim in seen["claims"]:
        assert set(claim) == {"win", "kong", "pung", "pass"} and claim["pass"], claim
    own = HandAction.objects.filter(hand=hand, seat=seat, auto=False)
    assert own.count() == len(seen["clicked"])
    if slug == "xuezhan":
        assert own.filter(action__type="exchange").exists() and own.filter(action__type="void").exists()
        assert seen["exchange_title"].startswith("Exchange three" if locale == "en-US" else "换三张")
    zh = locale != "en-US"
    if "discard_label" in seen:
        assert seen["discard_label"].startswith("打出" if zh else "Discard"), seen["discard_label"]
    # The result lists each payment; a win names its patterns and its 番.
    paid = [p for p in state["payments"] if any(a for _, _, a in p["paid"])]
    assert [p["kind"] for p in seen["payments"]] == [p["kind"] for p in paid]
    for shown, real in zip(seen["payments"], paid, strict=True):
        if real["kind"] == "win":
            assert ("番" if zh else "fan") in shown["text"], shown
    assert seen["balance_after"] == wallet_balance(user=user)
    assert seen["balance_after"] - seen["balance_before"] == seen["delta"]
    assert seen["fits"], "a seat, the buttons or the result overflow the screen"
