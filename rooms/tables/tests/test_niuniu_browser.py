"""End to end in real headless Chromium: 牛牛 (抢庄) and 通比牛牛 played whole against bots.

The player signs up, quick-starts a room, bids for the bank (牛牛), bets, picks the
three cards of the hint and shows them (摊牌), reloads the page mid-hand, and
reads the result panel, at 1280×800 and 390×844, in English and Chinese. The
test only clicks what a player can click; the ledger is checked against the page.
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
SEATS = 4
FACE_UP_ANYWHERE = "() => document.querySelectorAll('#table-app .pcard:not(.back)').length"


@pytest.fixture
def niuniu_tiers(transactional_db):
    """A room of each game (base 5, enter with 1,000), bots filling the seats players leave."""
    from games.niuniu import GAME as NIUNIU
    from games.tongbi_niuniu import GAME as TONGBI
    from rooms.models import Game, RoomTier
    from rooms.services import catalogue_sync

    added = [info for info in (NIUNIU, TONGBI) if info.slug not in games.REGISTRY]
    for info in added:
        games.REGISTRY[info.slug] = info
    catalogue_sync()
    tiers = {
        slug: RoomTier.objects.create(
            game=Game.objects.get(slug=slug),
            code=f"e2e-{slug}",
            name="初级场",
            name_en="Novice room",
            base_stake=5,
            minimum_rule=RoomTier.MinimumRule.BASE_MULTIPLE,
            minimum_multiplier=200,
            seats=SEATS,
            bots_enabled=True,
        )
        for slug in ("niuniu", "tongbi_niuniu")
    }
    yield tiers
    for info in added:
        games.REGISTRY.pop(info.slug, None)


def take_turn(page, seen: dict) -> bool:
    """Act as a player would in this phase; return False if the buttons went away first."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    phase = page.get_attribute("#table-app", "data-phase")
    seq = page.get_attribute("#table-app", "data-seq")
    try:
        if phase in ("grab", "bet"):
            seen.setdefault("face_up_before_deal", []).append(page.evaluate(FACE_UP_ANYWHERE))
            choice = page.locator(f"#actions [data-action={phase}]").last
            seen["clicked"].append((phase, int(choice.get_attribute("data-multiple", timeout=2000))))
            choice.click(timeout=2000)
        else:
            seen["my_cards"] = page.locator("#my-hand .pcard:not(.back)").count()
            seen["category_before_show"] = page.inner_text("#my-category")
            page.locator("#actions [data-action=hint]").click(timeout=2000)
            picked = page.locator("#actions [data-action=show][data-picked=yes]")
            picked.wait_for(timeout=2000)
            seen["picked"] = page.locator("#my-hand .pcard.selected").evaluate_all(
                "els => els.map(e => e.dataset.card)"
            )
            seen["turn_shot"] = str(screenshot_dir() / f"{seen['slug']}-{seen['size']}-show.png")
            page.screenshot(path=seen["turn_shot"])
            picked.click(timeout=2000)
            seen["clicked"].append(("show", 0))
    except PlaywrightTimeoutError:
        return False
    page.wait_for_function(WAIT_FOR_ANSWER, arg=seq, timeout=15000)
    assert page.get_attribute("#hand-message", "data-kind") != "error", page.inner_text("#hand-message")
    return True


def play_one_hand(base_url: str, slug: str, size: str, tier_id: int, locale: str) -> dict:
    """Sign up, quick-start, play one whole hand with a reload after the first action; return what showed."""
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"nn{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": [], "clicked": [], "slug": slug, "size": size}
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
            reloaded = False
            while True:
                left_ms = (deadline - time.monotonic()) * 1000
                assert left_ms > 0, "the hand did not finish in time"
                what = page.wait_for_function(WAIT_FOR_SOMETHING_TO_DO, timeout=left_ms).json_value()
                if what == "result":
                    break
                if take_turn(page, seen) and not reloaded:
                    reloaded = True  # mid-hand: the page must come back to the same hand
                    hand_text = page.inner_text("#hand-number")
                    page.reload()
                    page.wait_for_selector("#connection[data-status=connected]")
                    page.wait_for_function("() => document.querySelector('#table-app').dataset.seq")
                    seen["hand_after_reload"] = (hand_text, page.inner_text("#hand-number"))
            page.wait_for_function(RESULT_PAINTED, timeout=15000)
            seen["result_shot"] = str(screenshot_dir() / f"{slug}-{size}-result.png")
            page.screenshot(path=seen["result_shot"])
            me = page.locator("#result tbody tr.me")
            seen["delta"] = int(me.locator("td.delta").get_attribute("data-delta"))
            seen["row_balance"] = me.locator("td.balance").inner_text()
            seen["balance_after"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["rows"] = page.locator("#result tbody tr").count()
            seen["result_categories"] = page.locator("#result .nn-cat").evaluate_all(
                "els => els.map(e => [e.dataset.category, e.innerText])"
            )
            seen["result_cards"] = page.locator("#result tbody .pcard").count()
            seen["felt_shown"] = page.locator("#seats [data-shown=yes] .pcard:not(.back)").count()
            seen["sub"] = page.inner_text("#result .sub")
            seen["rake_text"] = page.inner_text("#result .rake-total")
            seen["fits"] = page.evaluate(
                "() => [...document.querySelectorAll('#my-hand, #actions, #result .panel')]"
                ".every(e => { const b = e.getBoundingClientRect(); return b.right <= window.innerWidth + 1 && b.left >= -1; })"
            )
        finally:
            browser.close()
    return seen


@pytest.mark.parametrize(
    ("slug", "size", "locale"),
    [
        ("niuniu", "desktop", "en-US"),
        pytest.param("niuniu", "phone", "zh-CN", marks=pytest.mark.zh),
        pytest.param("tongbi_niuniu", "desktop", "zh-CN", marks=pytest.mark.zh),
        ("tongbi_niuniu", "phone", "en-US"),
    ],
)
def test_a_new_player_plays_a_whole_hand_against_bots(live_asgi, niuniu_tiers, settings, slug, size, locale):  # noqa: F811
    from platform.accounts.models import User

    from rooms.tables.models import Hand, HandAction
    from wallets.models import LedgerEntry
    from wallets.selectors import wallet_balance

    tier = niuniu_tiers[slug]
    seen = play_one_hand(live_asgi, slug, size, tier.pk, locale)
    print(f"screenshots: {seen.get('turn_shot')} {seen['result_shot']}")

    assert seen["errors"] == [], seen["errors"]
    user = User.objects.get(username=seen["username"])
    hand = Hand.objects.get(participants=user)
    assert hand.status == Hand.Status.SETTLED
    seat = next(i for i, p in enumerate(hand.players) if p["user"] == user.pk)
    state = hand.state

    # Nothing face up before the deal; my five cards and their category when it was my turn to show.
    assert set(seen["face_up_before_deal"]) == {0}
    assert seen["my_cards"] == 5 and seen["category_before_show"]
    assert seen["hand_after_reload"][0] == seen["hand_after_reload"][1] != ""
    # What I clicked is what the server recorded as mine (not the timer's).
    mine = list(HandAction.objects.filter(hand=hand, seat=seat).order_by("pk"))
    kinds = [(a.action["type"], a.action.get("multiple", 0)) for a in mine if not a.auto]
    assert kinds == seen["clicked"], (kinds, seen["clicked"])
    assert sorted(state["shown"][seat]["three"]) == sorted(seen["picked"])
    if slug == "niuniu":
        assert state["grabs"][seat] == max(state["grab_multiples"])
    # The result panel: every seat's five cards with its category and multiple.
    assert seen["rows"] == SEATS and seen["result_cards"] == 5 * SEATS
    assert sorted(c for c, _text in seen["result_categories"]) == sorted(
        hand.outcome["details"]["categories"]
    )
    assert all(text for _c, text in seen["result_categories"])
    assert seen["felt_shown"] == 5 * (SEATS - 1)
    if locale == "zh-CN":
        assert any("牛" in text or "炸弹" in text for _c, text in seen["result_categories"]), seen
        assert "抽水" in seen["rake_text"] or "服务费" in seen["rake_text"], seen["rake_text"]
    else:
        assert all("牛" not in text for _c, text in seen["result_categories"]), seen

    balance = wallet_balance(user=user)
    carried = hand.players[seat]["carried"]
    assert seen["balance_after"] == balance, "the balance shown differs from the wallet"
    assert seen["balance_after"] - seen["balance_before"] == seen["delta"] == hand.outcome["net"][seat]
    paid = LedgerEntry.objects.filter(transaction__key=hand.settlement_key, account__user=user)
    assert sum(paid.values_list("amount", flat=True)) - carried == seen["delta"]
    assert seen["row_balance"].replace(",", "") == str(balance)
    assert seen["fits"], "something overflows the screen"
